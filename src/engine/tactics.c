/*
 * tactics.c: the road in one ("Tak") finder the search asks at every node.
 * Placements are answered from bitboards alone; spreads are filtered by the
 * line they could cover (a spread changes only its own line), and only the
 * few (stack, direction) pairs that could still make a road have their
 * spreads played out on bitboards. Tests compare it with make/unmake.
 */
#include "internal.h"

/* A placement square that completes a road for road squares `road`, or -1.
 * A road needs every rank (or file) but at most one covered already, the new
 * square in the missing one; then the square must join a chain reaching one
 * edge to a chain (or the edge itself) reaching the opposite one: two floods
 * per direction instead of one per candidate square. */
static int placement_win(TakBitboard road, TakBitboard empty, const BbMasks *m, int size) {
    if (!empty || __builtin_popcountll(road) < size - 1) return -1;
    int missing_ranks = 0, missing_files = 0;
    TakBitboard rank_gap = m->all, file_gap = m->all;
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
    TakBitboard cand = 0;
    if (missing_ranks <= 1) {
        TakBitboard n = bb_flood(road & m->north, road, m, size);
        TakBitboard s = bb_flood(road & m->south, road, m, size);
        cand |= rank_gap & (bb_neighbours(n, m, size) | m->north) &
                (bb_neighbours(s, m, size) | m->south);
    }
    if (missing_files <= 1) {
        TakBitboard w = bb_flood(road & m->west, road, m, size);
        TakBitboard e = bb_flood(road & m->east, road, m, size);
        cand |= file_gap & (bb_neighbours(w, m, size) | m->west) &
                (bb_neighbours(e, m, size) | m->east);
    }
    cand &= empty;
    return cand ? __builtin_ctzll(cand) : -1;
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

/* The bits lo..hi of a rank or file set. */
static inline unsigned span(int lo, int hi) { return ((2u << hi) - 1) & ~((1u << lo) - 1); }

/* Whether a spread from (file, rank) toward `dir` covering up to `far`
 * squares could give the road squares (whose ranks and files are the sets
 * `ranks`, `files`) every rank or every file. */
static inline bool could_cover(int dir, int file, int rank, int far, unsigned ranks, unsigned files,
                               unsigned full) {
    unsigned r = 1u << rank, f = 1u << file;
    switch (dir) {
    case TAK_NORTH: r = span(rank, rank + far); break;
    case TAK_SOUTH: r = span(rank - far, rank); break;
    case TAK_EAST: f = span(file, file + far); break;
    default: f = span(file - far, file); break;
    }
    return (ranks | r) == full || (files | f) == full;
}

/* The squares of rank (or file, when !by_rank) index < n, n >= 0. */
static inline TakBitboard lines_below(int n, int size, const BbMasks *m, bool by_rank) {
    if (by_rank) return n >= size ? m->all : ((TakBitboard)1 << (n * size)) - 1;
    TakBitboard b = 0;
    for (int i = 0; i < n && i < size; i++) b |= m->west << i;
    return b;
}

/* Adds to from[dir] the stacks of `own` whose spreads toward dir could give a
 * road the lines `missing` (ranks when by_rank, else files): a spread along
 * those lines must start at or before the first missing one and head across
 * them; a spread across them covers one line, so only if one is missing and
 * the stack is in it. With none missing, any spread may do. */
static void along_missing(TakBitboard own, unsigned missing, int size, const BbMasks *m,
                          bool by_rank, TakBitboard from[4]) {
    int up = by_rank ? TAK_NORTH : TAK_EAST, down = by_rank ? TAK_SOUTH : TAK_WEST;
    int side1 = by_rank ? TAK_EAST : TAK_NORTH, side2 = by_rank ? TAK_WEST : TAK_SOUTH;
    if (missing == 0) {
        for (int d = 0; d < 4; d++) from[d] |= own;
        return;
    }
    int lo = __builtin_ctz(missing), hi = 31 - __builtin_clz(missing);
    from[up] |= own & lines_below(lo + 1, size, m, by_rank);
    from[down] |= own & ~lines_below(hi, size, m, by_rank);
    if (lo == hi) {
        TakBitboard line = by_rank ? bb_rank(size, lo) : m->west << lo;
        from[side1] |= own & line;
        from[side2] |= own & line;
    }
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
    /* A spread can add at most its own line to the road squares: a road
     * needs every rank (or every file), so a spread is worth a look only when
     * the ranks (files) it could touch include all those the road squares
     * miss. That picks, per direction, the few stacks worth walking out. */
    unsigned full = (1u << size) - 1, ranks = 0, files = 0;
    for (int i = 0; i < size; i++) {
        unsigned row = (unsigned)((road >> (i * size)) & full);
        ranks |= (unsigned)(row != 0) << i;
        files |= row;
    }
    TakBitboard own = pos->owner[color], from[4] = {0, 0, 0, 0};
    along_missing(own, full & ~ranks, size, m, true, from);
    along_missing(own, full & ~files, size, m, false, from);
    for (TakBitboard b = from[0] | from[1] | from[2] | from[3]; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        int carry = pos->height[sq] < size ? pos->height[sq] : size;
        int file = sq % size, rank = sq / size;
        for (int dir = 0; dir < 4; dir++) {
            if (!(from[dir] & bb_bit(sq))) continue;
            int room = dir == TAK_NORTH   ? size - 1 - rank
                       : dir == TAK_SOUTH ? rank
                       : dir == TAK_EAST  ? size - 1 - file
                                          : file;
            int far = room < carry ? room : carry; /* the farthest square it could reach */
            if (far == 0 || !could_cover(dir, file, rank, far, ranks, files, full)) continue;
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

TakMove engine_flat_win_in_one(const TakPosition *pos, int color, const BbMasks *m) {
    if (pos->result.end != TAK_END_NONE || pos->ply < 2) return TAK_MOVE_NONE;
    int stones = pos->stones[color], caps = pos->capstones[color];
    TakBitboard empty = m->all & ~(pos->owner[0] | pos->owner[1]);
    if (stones + caps == 0 || !empty) return TAK_MOVE_NONE;
    /* Only a placement of the last piece, or on the last empty square, ends
     * the game at once (spreads that fill the board are left to the search). */
    if (stones + caps != 1 && (empty & (empty - 1))) return TAK_MOVE_NONE;
    TakBitboard flat = ~pos->walls & ~pos->caps;
    int own = __builtin_popcountll(pos->owner[color] & flat) + (stones > 0);
    int opp = __builtin_popcountll(pos->owner[color ^ 1] & flat);
    int white = 2 * (color == TAK_WHITE ? own : opp);
    int black = 2 * (color == TAK_WHITE ? opp : own) + pos->rules.half_komi;
    if (color == TAK_WHITE ? white <= black : black <= white) return TAK_MOVE_NONE;
    return tak_move_place(__builtin_ctzll(empty), stones ? TAK_PLACE_FLAT : TAK_PLACE_CAP);
}
