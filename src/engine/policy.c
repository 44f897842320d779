/*
 * policy.c: a learned prior on moves, for the order the search tries them
 * in (ordering.c). A move is described by a few features of what it does
 * (where a piece is placed and what it touches; what a spread lifts, covers
 * and leaves), each a weight of a per-size table that `tune policy` fits to
 * the moves the engine's own searches played (tools/tune/README.md); the
 * move's prior is the sum of the weights of its features, a logit in
 * POLICY_UNIT-ths. A size without a table is ordered as before (ordering.c).
 */
#include "internal.h"

static inline int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The more squares of `road` in line `a` or in line `b`. */
static inline int most_in(TakBitboard road, TakBitboard a, TakBitboard b) {
    int x = __builtin_popcountll(road & a), y = __builtin_popcountll(road & b);
    return x > y ? x : y;
}

/* The most squares of `road` in one rank or file. */
static inline int longest_line(TakBitboard road, const BoardMasks *m, int size) {
    int best = 0;
    for (int i = 0; i < size; i++) {
        int here = most_in(road, m->rank[i], m->file[i]);
        best = here > best ? here : best;
    }
    return best;
}

/* A change in squares as a feature's offset: -POLICY_GAIN_MAX..POLICY_GAIN_MAX. */
static inline int gain(int change) {
    return clamp(change, -POLICY_GAIN_MAX, POLICY_GAIN_MAX) + POLICY_GAIN_MAX;
}

PolicyNode policy_node(const TakPosition *pos, const BoardMasks *m) {
    PolicyNode c;
    int side = pos->side, size = pos->rules.size;
    c.own = pos->owner[side] & ~pos->walls;
    c.opp = pos->owner[side ^ 1] & ~pos->walls;
    c.longest = longest_line(c.own, m, size);
    int start = pos->rules.stones > 0 ? pos->rules.stones : 1;
    c.phase = clamp(pos->stones[side] * POLICY_PHASES / (start + 1), 0, POLICY_PHASES - 1);
    return c;
}

int policy_features(const TakPosition *pos, const BoardMasks *m, const PolicyNode *c, TakMove mv,
                    uint8_t active[POLICY_ACTIVE]) {
    int size = pos->rules.size, side = pos->side, sq = tak_move_square(mv), n = 0;
    TakBitboard at = bit(sq);
    if (!tak_move_is_spread(mv)) {
        int kind = (int)tak_move_kind(mv); /* flat, wall, capstone */
        TakBitboard near = board_neighbours(at, size);
        TakBitboard rank = m->rank[sq / size], file = m->file[sq % size];
        active[n++] =
            (uint8_t)(POLICY_PLACE_CLASS + kind * POLICY_CLASSES + board_square_class(sq, size));
        active[n++] = (uint8_t)(POLICY_PLACE_OWN_NEAR + kind * POLICY_NEAR +
                                __builtin_popcountll(near & pos->owner[side]));
        active[n++] = (uint8_t)(POLICY_PLACE_OPP_NEAR + kind * POLICY_NEAR +
                                __builtin_popcountll(near & pos->owner[side ^ 1]));
        active[n++] =
            (uint8_t)(POLICY_PLACE_OWN_LINE + kind * POLICY_LINES + most_in(c->own, rank, file));
        active[n++] =
            (uint8_t)(POLICY_PLACE_OPP_LINE + kind * POLICY_LINES + most_in(c->opp, rank, file));
        active[n++] = (uint8_t)(POLICY_PLACE_PHASE + kind * POLICY_PHASES + c->phase);
        return n;
    }
    if (tak_move_is_pass(mv)) return 0;
    int step = board_step(tak_move_direction(mv), size);
    unsigned code = tak_move_drops(mv);
    int count = tak_move_count(mv), distance = tak_move_distance(mv), h = pos->height[sq];
    int last = sq + step * distance;
    int top = (pos->caps & at) ? 2 : (pos->walls & at) ? 1 : 0;
    TakBitboard own = engine_road_after_spread(pos, side, sq, step, code, c->own);
    TakBitboard opp = engine_road_after_spread(pos, side ^ 1, sq, step, code, c->opp);
    int own_gain = __builtin_popcountll(own) - __builtin_popcountll(c->own);
    int opp_gain = __builtin_popcountll(opp) - __builtin_popcountll(c->opp);
    int longest = longest_line(own, m, size);
    /* What the lifted square shows after: nothing, a piece of the mover's, or
     * one of the opponent's. */
    int left = h == count ? 0 : (int)((pos->stack[sq] >> count) & 1) == side ? 1 : 2;
    active[n++] = (uint8_t)(POLICY_SPREAD_COUNT + count - 1);
    active[n++] = (uint8_t)(POLICY_SPREAD_DISTANCE + distance - 1);
    active[n++] = (uint8_t)(POLICY_SPREAD_TOP + top);
    if (top == 2 && (pos->walls & bit(last))) active[n++] = POLICY_SPREAD_FLATTEN;
    active[n++] = (uint8_t)(POLICY_SPREAD_OWN_GAIN + gain(own_gain));
    active[n++] = (uint8_t)(POLICY_SPREAD_OPP_GAIN + gain(opp_gain));
    active[n++] = (uint8_t)(POLICY_SPREAD_LINE + longest);
    active[n++] = (uint8_t)(POLICY_SPREAD_LINE_GAIN + gain(longest - c->longest));
    active[n++] = (uint8_t)(POLICY_SPREAD_CLASS + board_square_class(sq, size));
    active[n++] = (uint8_t)(POLICY_SPREAD_LEFT + left);
    active[n++] = (uint8_t)(POLICY_SPREAD_PHASE + c->phase);
    return n;
}
