/*
 * perft.c: counting TAKAT turn sequences to a fixed depth, the check of the
 * move generator against takat.md's table (repetition is ignored).
 */
#include "internal.h"

uint64_t takat_perft(const TakatPosition *pos, int depth) {
    if (depth <= 0) return 1;
    TakatTurnList list;
    int n = takat_turns_generate(pos, &list);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        TakatPosition next = *pos;
        takat_position_apply(&next, list.turns[i]);
        total += takat_perft(&next, depth - 1);
    }
    return total;
}
