/* road.c: roads, the end of the game, and the "Tak" (road threat) query. */
#include <stdbool.h>

#include "board.h"
#include "internal.h"

/* Squares that can be part of `color`'s road: its flats and capstones. */
static inline TakBitboard road_squares(const TakPosition *pos, int color) {
    return pos->owner[color] & ~pos->walls;
}

bool tak_position_has_road(const TakPosition *pos, TakColor color) {
    return board_has_road(road_squares(pos, (int)color), pos->rules.size);
}

TakBitboard tak_position_road_squares(const TakPosition *pos, TakColor color) {
    int size = pos->rules.size;
    TakBitboard r = road_squares(pos, (int)color);
    /* The chains that touch the first rank, then those of them that also
     * touch the last; the same for the files. */
    TakBitboard south = board_flood(r & board_rank(size, 0), r, size);
    TakBitboard west = board_flood(r & board_file(size, 0), r, size);
    return board_flood(south & board_rank(size, size - 1), r, size) |
           board_flood(west & board_file(size, size - 1), r, size);
}

TakResult position_judge_flats(const TakPosition *pos, TakEnd end) {
    int flats[2];
    tak_position_flat_counts(pos, flats);
    int white = 2 * flats[0], black = 2 * flats[1] + pos->rules.half_komi;
    TakResult r = {end, white > black ? TAK_WHITE : black > white ? TAK_BLACK : -1};
    return r;
}

TakResult position_judge(const TakPosition *pos, TakColor mover, const bool check_road[2]) {
    int size = pos->rules.size;
    bool road[2] = {false, false};
    for (int c = 0; c < 2; c++)
        if (check_road[c]) road[c] = board_has_road(road_squares(pos, c), size);
    if (road[mover] || road[mover ^ 1]) {
        TakResult r = {TAK_END_ROAD, road[mover] ? (int)mover : (int)(mover ^ 1)};
        return r;
    }
    if ((pos->owner[0] | pos->owner[1]) == board_all[size])
        return position_judge_flats(pos, TAK_END_BOARD_FULL);
    if (pos->stones[0] + pos->capstones[0] == 0 || pos->stones[1] + pos->capstones[1] == 0)
        return position_judge_flats(pos, TAK_END_RESERVES);
    TakResult none = {TAK_END_NONE, -1};
    return none;
}

bool tak_position_has_tak(const TakPosition *pos, TakColor color) {
    if (pos->result.end != TAK_END_NONE) return false;
    TakPosition probe = *pos;
    if (probe.side != (uint8_t)color) {
        /* Ask as if `color` were to move now, without the opening's rules
         * applying to the wrong player. */
        probe.side = (uint8_t)color;
        probe.hash ^= zobrist_black_to_move();
        if (probe.ply < 2) probe.ply = (uint32_t)color;
    }
    if (probe.ply < 2) return false;
    TakMoveList list;
    int n = tak_moves_generate(&probe, &list);
    for (int i = 0; i < n; i++) {
        TakUndo undo;
        tak_position_make(&probe, list.moves[i], &undo);
        bool wins = probe.result.end == TAK_END_ROAD && probe.result.winner == (int)color;
        tak_position_unmake(&probe, list.moves[i], &undo);
        if (wins) return true;
    }
    return false;
}
