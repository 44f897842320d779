/*
 * tactics.c: the road in one ("Tak") finder the search asks at every node.
 * Placements are answered from bitboards alone; spreads are filtered by the
 * line they could cover (a spread changes only its own line), and only the
 * few (stack, direction) pairs that could still make a road have their
 * spreads played out on bitboards. Tests compare it with make/unmake.
 */
#include "internal.h"

/* A placement square that completes a road for road squares `road`, or -1. */
static int placement_win(TakBitboard road, TakBitboard empty, const BbMasks *m, int size) {
    if (!empty || __builtin_popcountll(road) < size - 1) return -1;
    /* A placement adds one square: a road needs every rank (or file) but at
     * most one covered already, and the new square must lie in the missing one. */
    TakBitboard cand = 0;
    int missing_ranks = 0, missing_files = 0;
    TakBitboard rank_gap = 0, file_gap = 0;
    for (int i = 0; i < size; i++) {
        TakBitboard rk = bb_rank(size, i), fl = m->west << i;
        if (!(road & rk)) {
            missing_ranks++;
            rank_gap = rk;
        }
        if (!(road & fl)) {
            missing_files++;
            file_gap = fl;
        }
    }
    if (missing_ranks == 0)
        cand |= empty & bb_neighbours(road, m, size);
    else if (missing_ranks == 1)
        cand |= empty & rank_gap;
    if (missing_files == 0)
        cand |= empty & bb_neighbours(road, m, size);
    else if (missing_files == 1)
        cand |= empty & file_gap;
    /* Only a square touching the road or on an edge can join a chain. */
    cand &= bb_neighbours(road, m, size) | m->north | m->south | m->east | m->west;
    for (; cand; cand &= cand - 1) {
        int sq = __builtin_ctzll(cand);
        if (bb_has_road(road | bb_bit(sq), m, size)) return sq;
    }
    return -1;
}

/* The squares a spread from `sq` toward `dir` could reach (the run of free
 * squares, plus a wall a capstone could flatten), and the run itself. */
static TakBitboard spread_reach(const TakPosition *pos, int sq, int dir, int carry, int *run,
                                bool *flatten) {
    int size = pos->rules.size, file = sq % size, rank = sq / size;
    int room, step;
    switch (dir) {
    case TAK_NORTH: room = size - 1 - rank; step = size; break;
    case TAK_SOUTH: room = rank; step = -size; break;
    case TAK_EAST: room = size - 1 - file; step = 1; break;
    default: room = file; step = -1; break;
    }
    TakBitboard blockers = pos->walls | pos->caps, reach = 0;
    int n = 0, s = sq + step;
    while (n < room && n < carry && !(blockers & bb_bit(s))) {
        reach |= bb_bit(s);
        n++;
        s += step;
    }
    *run = n;
    *flatten = false;
    if (n < room && n < carry && (pos->caps & bb_bit(sq)) && (pos->walls & bb_bit(s))) {
        *flatten = true;
        reach |= bb_bit(s);
    }
    return reach;
}

/* Tries every spread of (sq, dir) for `color` on bitboards alone (a spread
 * changes only the tops of its own line) and returns one after which `color`
 * has a road, or TAK_MOVE_NONE. A road for the mover wins even when the move
 * also completes the opponent's. */
static TakMove spread_win_line(const TakPosition *pos, int color, int sq, int dir, int carry,
                               int run, bool flatten, const BbMasks *m) {
    int size = pos->rules.size, h = pos->height[sq];
    int step = dir == TAK_NORTH ? size : dir == TAK_SOUTH ? -size : dir == TAK_EAST ? 1 : -1;
    TakBitboard road = pos->owner[color] & ~pos->walls;
    bool moving_wall = (pos->walls & bb_bit(sq)) != 0;
    unsigned codes = 1u << carry;
    for (unsigned code = 1; code < codes; code++) {
        int dist = __builtin_popcount(code);
        bool ok = dist <= run;
        if (!ok && flatten && dist == run + 1) {
            int count = 32 - __builtin_clz(code);
            ok = count == 1 || (code & (1u << (count - 2)));
        }
        if (!ok) continue;
        int k = 32 - __builtin_clz(code);
        TakStackBits carried = pos->stack[sq];
        TakBitboard r = road & ~bb_bit(sq);
        if (h > k && (int)((carried >> k) & 1) == color) r |= bb_bit(sq);
        int s = sq;
        for (unsigned c = code; c; c &= c - 1) {
            int i = __builtin_ctz(c);
            s += step;
            bool top_is_mover = (int)((carried >> (k - 1 - i)) & 1) == color;
            bool last = (c & (c - 1)) == 0;
            if (top_is_mover && !(last && moving_wall))
                r |= bb_bit(s);
            else
                r &= ~bb_bit(s);
        }
        if (bb_has_road(r, m, size)) return tak_move_spread(sq, (TakDirection)dir, code);
    }
    return TAK_MOVE_NONE;
}

TakMove engine_road_in_one(const TakPosition *pos, int color, const BbMasks *m) {
    if (pos->result.end != TAK_END_NONE || pos->ply < 2) return TAK_MOVE_NONE;
    int size = pos->rules.size;
    TakBitboard occupied = pos->owner[0] | pos->owner[1];
    TakBitboard road = pos->owner[color] & ~pos->walls;
    if (pos->stones[color] || pos->capstones[color]) {
        int sq = placement_win(road, m->all & ~occupied, m, size);
        if (sq >= 0)
            return tak_move_place(sq, pos->stones[color] ? TAK_PLACE_FLAT : TAK_PLACE_CAP);
    }
    /* A spread can add at most its own line to the road squares. */
    for (TakBitboard own = pos->owner[color]; own; own &= own - 1) {
        int sq = __builtin_ctzll(own);
        int carry = pos->height[sq] < size ? pos->height[sq] : size;
        for (int dir = 0; dir < 4; dir++) {
            int run;
            bool flatten;
            TakBitboard reach = spread_reach(pos, sq, dir, carry, &run, &flatten);
            if (!reach || !bb_has_road(road | reach | bb_bit(sq), m, size)) continue;
            TakMove mv = spread_win_line(pos, color, sq, dir, carry, run, flatten, m);
            if (mv != TAK_MOVE_NONE) return mv;
        }
    }
    return TAK_MOVE_NONE;
}
