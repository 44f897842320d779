/* perft.c: counting move sequences, the standard check of a move generator. */
#include "tak/position.h"

uint64_t tak_perft(TakPosition *pos, int depth) {
    if (depth <= 0) return 1;
    if (pos->result.end != TAK_END_NONE) return 0;
    if (depth == 1) return tak_moves_count(pos);
    TakMoveList list;
    int n = tak_moves_generate(pos, &list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        TakUndo undo;
        tak_position_make(pos, list.moves[i], &undo);
        total += tak_perft(pos, depth - 1);
        tak_position_unmake(pos, list.moves[i], &undo);
    }
    return total;
}

uint64_t tak_perft_full(TakPosition *pos, int depth) {
    if (depth <= 0) return 1;
    if (pos->result.end != TAK_END_NONE) return 0;
    TakMoveList list;
    int n = tak_moves_generate(pos, &list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        TakUndo undo;
        tak_position_make(pos, list.moves[i], &undo);
        total += tak_perft_full(pos, depth - 1);
        tak_position_unmake(pos, list.moves[i], &undo);
    }
    return total;
}
