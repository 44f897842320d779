/*
 * evaluate.c: the static evaluation. Features are counted from bitboards
 * (engine_features) and weighed linearly by the table of the board size
 * (weights.c), so tools/tune can refit the weights from games without
 * touching this file. Road potential is a cheap distance: the fewest empty
 * squares that would join two opposite edges through the player's road squares.
 */
#include "internal.h"

/* Pieces of `color` among the `n` pieces under the top of a stack. */
static inline int stack_count_below(TakStackBits bits, int height, int color) {
    int n = height - 1;
    if (n <= 0) return 0;
    TakStackBits below = bits >> 1;
    if (n < 128) below &= (((TakStackBits)1 << n) - 1);
    int ones = __builtin_popcountll((uint64_t)below) + __builtin_popcountll((uint64_t)(below >> 64));
    return color ? ones : n - ones;
}

/* Fewest empty squares to add to `own` for a chain from `start` to `goal`;
 * maxd + 1 when more than maxd. */
static int road_distance(TakBitboard own, TakBitboard empty, TakBitboard start, TakBitboard goal,
                         const BbMasks *m, int size, int maxd) {
    TakBitboard reach = bb_flood(own & start, own, m, size);
    for (int d = 0; d <= maxd; d++) {
        if (reach & goal) return d;
        TakBitboard add = (bb_neighbours(reach, m, size) | start) & empty & ~reach;
        if (!add) break;
        reach = bb_flood(reach | add, own, m, size);
    }
    return maxd + 1;
}

/* The most ranks or files one chain of `road` spans. A chain spans at most
 * as many lines as it has squares, so small chains are not measured. */
static int longest_span(TakBitboard road, const BbMasks *m, int size) {
    int best = 0;
    unsigned full = (1u << size) - 1;
    while (road) {
        TakBitboard group = bb_flood(road & -road, road, m, size);
        road &= ~group;
        if (__builtin_popcountll(group) <= best) continue;
        unsigned files = 0;
        int ranks = 0;
        for (int i = 0; i < size; i++) {
            unsigned row = (unsigned)(group >> (i * size)) & full;
            ranks += row != 0;
            files |= row;
        }
        int nf = __builtin_popcount(files);
        int span = ranks > nf ? ranks : nf;
        if (span > best) best = span;
    }
    return best;
}

static inline int centrality(int sq, int size) {
    int r = sq / size, f = sq % size;
    int dr = r < size - 1 - r ? r : size - 1 - r;
    int df = f < size - 1 - f ? f : size - 1 - f;
    return dr + df;
}

static int sum_centrality(TakBitboard b, int size) {
    int s = 0;
    for (; b; b &= b - 1) s += centrality(__builtin_ctzll(b), size);
    return s;
}

void engine_features(const TakPosition *pos, const BbMasks *m, int f[F_COUNT]) {
    int size = pos->rules.size;
    TakBitboard occupied = pos->owner[0] | pos->owner[1];
    TakBitboard empty = m->all & ~occupied;
    for (int i = 0; i < F_COUNT; i++) f[i] = 0;

    /* Game phase: how near the end of the pieces or of the board, 0..64. */
    int start = pos->rules.stones + pos->rules.capstones;
    int left0 = pos->stones[0] + pos->capstones[0], left1 = pos->stones[1] + pos->capstones[1];
    int left = left0 < left1 ? left0 : left1;
    int n_empty = __builtin_popcountll(empty);
    int total = start < size * size ? start : size * size;
    int remaining = left < n_empty ? left : n_empty;
    int phase = total > 0 ? 64 - 64 * remaining / total : 64;
    if (phase < 0) phase = 0;

    f[F_TEMPO] = pos->side == TAK_WHITE ? 1 : -1;
    int flats[2];
    TakBitboard road[2];
    for (int c = 0; c < 2; c++) {
        int sign = c == 0 ? 1 : -1;
        TakBitboard own = pos->owner[c], opp = pos->owner[c ^ 1];
        TakBitboard fl = own & ~pos->walls & ~pos->caps;
        road[c] = own & ~pos->walls;
        flats[c] = __builtin_popcountll(fl);
        f[F_FLATS] += sign * flats[c];
        f[F_WALLS] += sign * __builtin_popcountll(own & pos->walls);
        TakBitboard caps = own & pos->caps;
        f[F_CAPS] += sign * __builtin_popcountll(caps);
        f[F_CENTER] += sign * sum_centrality(fl, size);
        f[F_CAP_CENTER] += sign * sum_centrality(caps, size);
        for (TakBitboard b = caps; b; b &= b - 1) {
            TakBitboard nb = bb_neighbours(bb_bit(__builtin_ctzll(b)), m, size);
            f[F_CAP_FREE] += sign * __builtin_popcountll(nb & ~pos->walls & ~pos->caps);
            f[F_CAP_NEAR_WALL] += sign * __builtin_popcountll(nb & opp & pos->walls);
        }
        for (TakBitboard b = own; b; b &= b - 1) {
            int sq = __builtin_ctzll(b), h = pos->height[sq];
            if (h < 2) continue;
            int mine = stack_count_below(pos->stack[sq], h, c);
            bool hard = (pos->walls | pos->caps) & bb_bit(sq);
            f[hard ? F_SUPPORT_HARD : F_SUPPORT_FLAT] += sign * mine;
            f[hard ? F_CAPTIVES_HARD : F_CAPTIVES_FLAT] += sign * (h - 1 - mine);
            if (h >= 3) f[F_STACK_TALL] += sign;
        }
        TakBitboard r = road[c];
        f[F_ADJACENT] += sign * (__builtin_popcountll(r & ((r & m->not_east) << 1)) +
                                 __builtin_popcountll(r & (r << size)));
        f[F_LIBERTIES] += sign * __builtin_popcountll(bb_neighbours(r, m, size) & empty);
        /* On 8x8 "three from a road" also counts four: a road is 8 long. */
        int maxd = size >= 8 ? 4 : 3;
        int d = road_distance(r, empty, m->south, m->north, m, size, maxd);
        int d2 = road_distance(r, empty, m->west, m->east, m, size, maxd);
        if (d2 < d) d = d2;
        if (d == 1) f[F_ROAD_1] += sign;
        if (d == 2) f[F_ROAD_2] += sign;
        if (d == 3 || (d == 4 && maxd == 4)) f[F_ROAD_3] += sign;
        f[F_ROAD_ROWS] += sign * longest_span(r, m, size);
    }
    for (int c = 0; c < 2; c++) {
        int sign = c == 0 ? 1 : -1;
        TakBitboard near_opp = bb_neighbours(road[c ^ 1], m, size);
        f[F_WALL_BLOCK] += sign * __builtin_popcountll(pos->owner[c] & pos->walls & near_opp);
        f[F_CAP_BLOCK] += sign * __builtin_popcountll(pos->owner[c] & pos->caps & near_opp);
    }
    f[F_FLATS_LATE] = (2 * (flats[0] - flats[1]) - pos->rules.half_komi) * phase / 16;
    f[F_RESERVE_LEAD] = (pos->stones[0] - pos->stones[1]) * phase / 16;
}

int engine_evaluate(const TakPosition *pos, const BbMasks *m, const EvalWeights *w) {
    int f[F_COUNT];
    engine_features(pos, m, f);
    int sum = 0;
    for (int i = 0; i < F_COUNT; i++) sum += f[i] * w->w[i];
    int score = sum / EVAL_SCALE;
    if (score > TAK_SCORE_WIN_MIN - 100) score = TAK_SCORE_WIN_MIN - 100;
    if (score < -(TAK_SCORE_WIN_MIN - 100)) score = -(TAK_SCORE_WIN_MIN - 100);
    return pos->side == TAK_WHITE ? score : -score;
}

int tak_engine_evaluate(const TakPosition *pos) {
    int size = pos->rules.size;
    if (pos->result.end != TAK_END_NONE) return search_terminal_score(pos, 0);
    BbMasks m = bb_masks(size);
    return engine_evaluate(pos, &m, &engine_weights[size]);
}
