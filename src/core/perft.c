/* perft.c: counting move sequences, the standard check of a move generator. */
#include "tak/position.h"

/* With `bulk`, the last ply is counted without being played. */
static uint64_t perft_walk(TakPosition *pos, int depth, bool bulk) {
    if (depth <= 0) return 1;
    if (pos->result.end != TAK_END_NONE) return 0;
    if (bulk && depth == 1) return tak_moves_count(pos);
    TakMoveList list;
    int n = tak_moves_generate(pos, &list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        TakUndo undo;
        tak_position_make(pos, list.moves[i], &undo);
        total += perft_walk(pos, depth - 1, bulk);
        tak_position_unmake(pos, list.moves[i], &undo);
    }
    return total;
}

uint64_t tak_perft(TakPosition *pos, int depth) { return perft_walk(pos, depth, true); }

uint64_t tak_perft_full(TakPosition *pos, int depth) { return perft_walk(pos, depth, false); }
