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

/* The most squares of `road` in one rank or file. */
static inline int longest_line(TakBitboard road, const BoardMasks *m, int size) {
    int best = 0;
    for (int i = 0; i < size; i++) {
        int r = __builtin_popcountll(road & m->rank[i]),
            f = __builtin_popcountll(road & m->file[i]);
        best = r > best ? r : best;
        best = f > best ? f : best;
    }
    return best;
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
        int rank = sq / size, file = sq % size;
        int own_line = __builtin_popcountll(c->own & m->rank[rank]);
        int f = __builtin_popcountll(c->own & m->file[file]);
        own_line = f > own_line ? f : own_line;
        int opp_line = __builtin_popcountll(c->opp & m->rank[rank]);
        f = __builtin_popcountll(c->opp & m->file[file]);
        opp_line = f > opp_line ? f : opp_line;
        active[n++] =
            (uint8_t)(POLICY_PLACE_CLASS + kind * POLICY_CLASSES + board_square_class(sq, size));
        active[n++] = (uint8_t)(POLICY_PLACE_OWN_NEAR + kind * 5 +
                                __builtin_popcountll(near & pos->owner[side]));
        active[n++] = (uint8_t)(POLICY_PLACE_OPP_NEAR + kind * 5 +
                                __builtin_popcountll(near & pos->owner[side ^ 1]));
        active[n++] = (uint8_t)(POLICY_PLACE_OWN_LINE + kind * POLICY_LINES + own_line);
        active[n++] = (uint8_t)(POLICY_PLACE_OPP_LINE + kind * POLICY_LINES + opp_line);
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
    active[n++] = (uint8_t)(POLICY_SPREAD_OWN_GAIN + clamp(own_gain, -4, 4) + 4);
    active[n++] = (uint8_t)(POLICY_SPREAD_OPP_GAIN + clamp(opp_gain, -4, 4) + 4);
    active[n++] = (uint8_t)(POLICY_SPREAD_LINE + longest);
    active[n++] = (uint8_t)(POLICY_SPREAD_LINE_GAIN + clamp(longest - c->longest, -4, 4) + 4);
    active[n++] = (uint8_t)(POLICY_SPREAD_CLASS + board_square_class(sq, size));
    active[n++] = (uint8_t)(POLICY_SPREAD_LEFT + left);
    active[n++] = (uint8_t)(POLICY_SPREAD_PHASE + c->phase);
    return n;
}
