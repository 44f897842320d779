/*
 * tactics.c: the road in one ("Tak") finder the search asks at every node.
 * Placements are answered from bitboards alone; spreads are filtered by the
 * line they could cover (a spread changes only its own line), and only the
 * few (stack, direction) pairs that could still make a road have their
 * spreads played out on bitboards. Tests compare it with make/unmake.
 */
#include "internal.h"

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
    while (n < room && n < carry && !(blockers & bit(s))) {
        reach |= bit(s);
        n++;
        s += step;
    }
    *run = n;
    *flatten = false;
    if (n < room && n < carry && (pos->caps & bit(sq)) && (pos->walls & bit(s))) {
        *flatten = true;
        reach |= bit(s);
    }
    return reach;
}

/* Tries every spread of (sq, dir) for `color` on bitboards alone and
 * returns one after which `color` has a road, or TAK_MOVE_NONE; spreads over
 * fewer than `shortest` squares are known to give none. A road for the mover
 * wins even when the move also completes the opponent's. */
static TakMove spread_win_line(const TakPosition *pos, int color, int sq, int dir, int carry,
                               int run, bool flatten, int shortest) {
    int size = pos->rules.size, step = board_step(dir, size);
    TakBitboard road = pos->owner[color] & ~pos->walls;
    /* Many spreads leave the same tops: each is looked at once. */
    TakBitboard seen[32];
    int seen_count = 0;
    unsigned codes = 1u << carry;
    for (unsigned code = 1; code < codes; code++) {
        int dist = __builtin_popcount(code);
        if (dist < shortest) continue;
        bool ok = dist <= run;
        if (!ok && flatten && dist == run + 1) {
            int count = 32 - __builtin_clz(code);
            ok = count == 1 || (code & (1u << (count - 2)));
        }
        if (!ok) continue;
        TakBitboard r = engine_road_after_spread(pos, color, sq, step, code, road);
        bool again = false;
        for (int j = 0; j < seen_count && !again; j++) again = seen[j] == r;
        if (again) continue;
        if (seen_count < 32) seen[seen_count++] = r;
        if (board_has_road(r, size)) return tak_move_spread(sq, (TakDirection)dir, code);
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
static inline TakBitboard lines_below(int n, int size, const BoardMasks *m, bool by_rank) {
    if (by_rank) return n >= size ? m->all : ((TakBitboard)1 << (n * size)) - 1;
    /* The first min(n, size) squares of rank 1 copied to every rank: the
     * multiply's terms (one per square of the a-file) do not overlap. */
    return (((TakBitboard)1 << (n < size ? n : size)) - 1) * m->west;
}

/* Adds to from[dir] the stacks of `own` whose spreads toward dir could give a
 * road the lines `missing` (ranks when by_rank, else files): a spread along
 * those lines must start at or before the first missing one and head across
 * them; a spread across them covers one line, so only if one is missing and
 * the stack is in it. With none missing, any spread may do. */
static void along_missing(TakBitboard own, unsigned missing, int size, const BoardMasks *m,
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
        TakBitboard line = by_rank ? board_rank(size, lo) : m->west << lo;
        from[side1] |= own & line;
        from[side2] |= own & line;
    }
}

/* Where a connected run of squares added to the road squares completes a
 * road: touching both `n` and `s` (or `w` and `e`), the squares of the
 * chains from that edge, their neighbours and the edge itself. A road of the
 * union leaves the run last next to (or on) a chain from one edge and first
 * next to one from the other, and the run joins the two; so this answers
 * what flooding the union would, from four floods for all the runs (a
 * placement is a run of one square). Each pair is flooded when first asked. */
typedef struct EdgeReach {
    TakBitboard road, n, s, w, e;
    bool ns, we; /* the pairs filled in */
} EdgeReach;

/* The squares touching `edge` or the chain of `road` from it. */
static TakBitboard edge_reach(TakBitboard road, TakBitboard edge, int size) {
    TakBitboard chain = board_flood(road & edge, road, size);
    return chain | board_neighbours(chain, size) | edge;
}

static void edge_reach_ns(EdgeReach *r, const BoardMasks *m, int size) {
    r->n = edge_reach(r->road, m->north, size);
    r->s = edge_reach(r->road, m->south, size);
    r->ns = true;
}

static void edge_reach_we(EdgeReach *r, const BoardMasks *m, int size) {
    r->w = edge_reach(r->road, m->west, size);
    r->e = edge_reach(r->road, m->east, size);
    r->we = true;
}

/* Whether the road squares and the connected `run` hold a road (both pairs
 * filled in). The road squares in `n` are the chain from the north edge, so
 * those also in `s` are a road already, which any run keeps. */
static inline bool road_with_run(const EdgeReach *r, TakBitboard run) {
    return ((run & r->n) && (run & r->s)) || ((run & r->w) && (run & r->e)) ||
           (r->road & ((r->n & r->s) | (r->w & r->e)));
}

/* The squares from which the line toward `dir` to the board's edge meets
 * `x`: x spread the other way along ranks (files) by doubling shifts. */
static inline TakBitboard toward(TakBitboard x, int dir, const BoardMasks *m, int size) {
    switch (dir) {
    case TAK_NORTH:
        x |= x >> size;
        x |= x >> (2 * size);
        return x | x >> (4 * size);
    case TAK_SOUTH:
        x |= x << size;
        x |= x << (2 * size);
        return (x | x << (4 * size)) & m->all;
    case TAK_EAST:
        x |= (x >> 1) & m->keep[0];
        x |= (x >> 2) & m->keep[1];
        return x | ((x >> 4) & m->keep[2]);
    default:
        x |= (x << 1) & (m->keep[0] << 1);
        x |= (x << 2) & (m->keep[1] << 2);
        return x | ((x << 4) & (m->keep[2] << 4));
    }
}

/* The squares from which a run toward `dir` as far as the edge would give a
 * road (road_with_run of that run; both pairs filled in). The run meets the
 * edge it heads for, so its own pair needs only the chain of the other. A
 * shorter run can give a road only where this one does. */
static TakBitboard could_join(const EdgeReach *r, int dir, const BoardMasks *m, int size) {
    if (r->road & ((r->n & r->s) | (r->w & r->e))) return m->all;
    TakBitboard along = dir == TAK_NORTH ? r->s : dir == TAK_SOUTH ? r->n
                        : dir == TAK_EAST ? r->w : r->e;
    TakBitboard a = dir <= TAK_SOUTH ? r->w : r->n, b = dir <= TAK_SOUTH ? r->e : r->s;
    return toward(along, dir, m, size) | (toward(a, dir, m, size) & toward(b, dir, m, size));
}

/* A placement square that completes a road, or -1. A road needs every rank
 * (or file) but at most one covered already, the new square in the missing
 * one, and the square must join the two edges of a direction. */
static int placement_win(EdgeReach *r, TakBitboard empty, unsigned ranks, unsigned files,
                         const BoardMasks *m, int size) {
    if (!empty || __builtin_popcountll(r->road) < size - 1) return -1;
    unsigned full = (1u << size) - 1, missing_ranks = full & ~ranks, missing_files = full & ~files;
    TakBitboard cand = 0;
    if ((missing_ranks & (missing_ranks - 1)) == 0) {
        TakBitboard gap = missing_ranks ? board_rank(size, __builtin_ctz(missing_ranks)) : m->all;
        edge_reach_ns(r, m, size);
        cand |= gap & r->n & r->s;
    }
    if ((missing_files & (missing_files - 1)) == 0) {
        TakBitboard gap = missing_files ? m->west << __builtin_ctz(missing_files) : m->all;
        edge_reach_we(r, m, size);
        cand |= gap & r->w & r->e;
    }
    cand &= empty;
    return cand ? __builtin_ctzll(cand) : -1;
}

/* The line of squares from `sq` toward `dir`, `far` of them past it. */
static inline TakBitboard segment(int sq, int dir, int far, int size, const BoardMasks *m) {
    int file = sq % size, rank = sq / size;
    switch (dir) {
    case TAK_NORTH:
        return m->file[file] & lines_below(rank + far + 1, size, m, true) &
               ~lines_below(rank, size, m, true);
    case TAK_SOUTH:
        return m->file[file] & lines_below(rank + 1, size, m, true) &
               ~lines_below(rank - far, size, m, true);
    case TAK_EAST: return ((TakBitboard)(2u << far) - 1) << sq;
    default: return ((TakBitboard)(2u << far) - 1) << (sq - far);
    }
}

TakMove engine_road_in_one(const TakPosition *pos, int color, const BoardMasks *m) {
    if (pos->result.end != TAK_END_NONE || pos->ply < 2) return TAK_MOVE_NONE;
    int size = pos->rules.size;
    TakBitboard occupied = pos->owner[0] | pos->owner[1];
    TakBitboard road = pos->owner[color] & ~pos->walls;
    unsigned full = (1u << size) - 1, ranks, files;
    board_lines(road, m, size, &ranks, &files);
    EdgeReach edges = {.road = road};
    if (pos->stones[color] || pos->capstones[color]) {
        int sq = placement_win(&edges, m->all & ~occupied, ranks, files, m, size);
        if (sq >= 0)
            return tak_move_place(sq, pos->stones[color] ? TAK_PLACE_FLAT : TAK_PLACE_CAP);
    }
    /* A spread can add at most its own line to the road squares: a road
     * needs every rank (or every file), so a spread is worth a look only when
     * the ranks (files) it could touch include all those the road squares
     * miss. That picks, per direction, the few stacks worth walking out. */
    TakBitboard own = pos->owner[color], from[4] = {0, 0, 0, 0};
    along_missing(own, full & ~ranks, size, m, true, from);
    along_missing(own, full & ~files, size, m, false, from);
    /* No spread off the edge it stands on; and none whose longest run gives
     * no road (the same test as below, on bitboards, for the many stacks
     * that would fail it). */
    from[TAK_NORTH] &= ~m->north;
    from[TAK_SOUTH] &= ~m->south;
    from[TAK_EAST] &= ~m->east;
    from[TAK_WEST] &= ~m->west;
    if (!(from[0] | from[1] | from[2] | from[3])) return TAK_MOVE_NONE;
    if (!edges.ns) edge_reach_ns(&edges, m, size);
    if (!edges.we) edge_reach_we(&edges, m, size);
    for (int dir = 0; dir < 4; dir++)
        if (from[dir]) from[dir] &= could_join(&edges, dir, m, size);
    for (TakBitboard b = from[0] | from[1] | from[2] | from[3]; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        int carry = pos->height[sq] < size ? pos->height[sq] : size;
        int file = sq % size, rank = sq / size;
        for (int dir = 0; dir < 4; dir++) {
            if (!(from[dir] & bit(sq))) continue;
            int room = dir == TAK_NORTH   ? size - 1 - rank
                       : dir == TAK_SOUTH ? rank
                       : dir == TAK_EAST  ? size - 1 - file
                                          : file;
            int far = room < carry ? room : carry; /* the farthest square it could reach */
            if (!could_cover(dir, file, rank, far, ranks, files, full)) continue;
            /* The stack's square and the squares it reaches are one run: no
             * road with the longest it could be, none with the real one. */
            if (!road_with_run(&edges, segment(sq, dir, far, size, m))) continue;
            int run;
            bool flatten;
            TakBitboard reach = spread_reach(pos, sq, dir, carry, &run, &flatten);
            if (!reach || !road_with_run(&edges, reach | bit(sq))) continue;
            /* The most a spread over d squares can leave is all of them and
             * the stack's own square: spreads over fewer squares than the
             * first d that gives a road are not worth playing out. */
            int shortest = 1;
            while (shortest < run + flatten &&
                   !road_with_run(&edges, segment(sq, dir, shortest, size, m)))
                shortest++;
            TakMove mv = spread_win_line(pos, color, sq, dir, carry, run, flatten, shortest);
            if (mv != TAK_MOVE_NONE) return mv;
        }
    }
    return TAK_MOVE_NONE;
}

TakMove engine_flat_win_in_one(const TakPosition *pos, int color, const BoardMasks *m) {
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

TakBitboard engine_parry_zone(const TakPosition *pos, int color, TakMove win, const BoardMasks *m) {
    int size = pos->rules.size, sq = tak_move_square(win);
    TakBitboard road = pos->owner[color] & ~pos->walls, zone = engine_move_squares(win, size);
    TakBitboard after = road | zone; /* a placement's */
    if (tak_move_is_spread(win))
        after = engine_road_after_spread(pos, color, sq, board_step(tak_move_direction(win), size),
                                  tak_move_drops(win), road);
    /* Every group of road squares that joins two opposite edges after it. */
    TakBitboard ns = board_flood(after & m->north, after, size) &
                     board_flood(after & m->south, after, size);
    TakBitboard we = board_flood(after & m->west, after, size) &
                     board_flood(after & m->east, after, size);
    return zone | ns | we;
}
