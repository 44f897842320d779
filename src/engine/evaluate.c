/*
 * evaluate.c: the static evaluation. Features are counted from bitboards
 * (engine_features) and weighed linearly by the table of the board size
 * (weights.c), each with an opening and an end-of-game weight blended by the
 * phase, so tools/tune can refit the weights from games without touching
 * this file. The features follow what decides Tak games: where the pieces
 * stand (square tables), what the stacks hold within the carry limit, the
 * flat count with komi when the end is near, how far each side is from a
 * road and how many squares would complete one, and who holds each line.
 */
#include <stdio.h>

#include "internal.h"

/* Pieces of `color` among the first `n` under the top of a stack. */
static inline int below_count(TakStackBits bits, int n, int color) {
    if (n <= 0) return 0;
    TakStackBits below = bits >> 1;
    if (n < 128) below &= (((TakStackBits)1 << n) - 1);
    int ones = __builtin_popcountll((uint64_t)below) + __builtin_popcountll((uint64_t)(below >> 64));
    return color ? ones : n - ones;
}

/* Fewest empty squares to add to `own` for a chain from `start` to `goal`;
 * maxd + 1 when more than maxd (reach: what d additions reach; the last
 * one is not grown, since only its answer counts). */
static int road_distance(TakBitboard own, TakBitboard empty, TakBitboard start, TakBitboard goal,
                         int size, int maxd) {
    TakBitboard reach = board_flood(own & start, own, size);
    for (int d = 0;; d++) {
        if (reach & goal) return d;
        if (d == maxd) return maxd + 1;
        TakBitboard add = (board_neighbours(reach, size) | start) & empty & ~reach;
        if (!add) return maxd + 1;
        reach = board_flood(reach | add, own, size);
    }
}

/* The empty squares where a flat would complete a road of `road`: squares
 * that touch (or are) both edges of a direction through chains. A road
 * needs a square in every rank (file), so with two ranks (files) missing
 * no one square completes one that way and its floods are skipped. */
static TakBitboard critical_squares(TakBitboard road, TakBitboard empty, const BoardMasks *m,
                                    int size, int missing_ranks, int missing_files) {
    TakBitboard crit = 0;
    if (missing_ranks <= 1) {
        TakBitboard n = board_flood(road & m->north, road, size);
        TakBitboard s = board_flood(road & m->south, road, size);
        crit |= (board_neighbours(n, size) | m->north) & (board_neighbours(s, size) | m->south);
    }
    if (missing_files <= 1) {
        TakBitboard w = board_flood(road & m->west, road, size);
        TakBitboard e = board_flood(road & m->east, road, size);
        crit |= (board_neighbours(w, size) | m->west) & (board_neighbours(e, size) | m->east);
    }
    return crit & empty;
}

/* The number of chains of `road`, and the most ranks or files one spans. */
static int road_groups(TakBitboard road, const BoardMasks *m, int size, int *span) {
    int groups = 0, best = 0;
    while (road) {
        TakBitboard group = board_flood(road & -road, road, size);
        road &= ~group;
        groups++;
        if (__builtin_popcountll(group) <= best) continue;
        unsigned rank_set, file_set;
        board_lines(group, m, size, &rank_set, &file_set);
        int ranks = __builtin_popcount(rank_set), files = __builtin_popcount(file_set);
        int sp = ranks > files ? ranks : files;
        if (sp > best) best = sp;
    }
    *span = best;
    return groups;
}

static inline int sign(int x) { return (x > 0) - (x < 0); }

int engine_features(const TakPosition *pos, const BoardMasks *m, int f[F_COUNT]) {
    int size = pos->rules.size, carry_below = size - 1;
    TakBitboard occupied = pos->owner[0] | pos->owner[1];
    TakBitboard empty = m->all & ~occupied;
    for (int i = 0; i < F_COUNT; i++) f[i] = 0;

    /* Game phase: how near the end of the pieces or of the board. */
    int start = pos->rules.stones + pos->rules.capstones;
    int left0 = pos->stones[0] + pos->capstones[0], left1 = pos->stones[1] + pos->capstones[1];
    int left = left0 < left1 ? left0 : left1;
    int n_empty = __builtin_popcountll(empty);
    int total = start < size * size ? start : size * size;
    int remaining = left < n_empty ? left : n_empty;
    int phase = total > 0 ? EVAL_PHASE_MAX - EVAL_PHASE_MAX * remaining / total : EVAL_PHASE_MAX;
    if (phase < 0) phase = 0;

    f[F_TEMPO] = pos->side == TAK_WHITE ? 1 : -1;
    int flats[2];
    TakBitboard road[2];
    int maxd = size >= 7 ? 4 : 3;
    for (int c = 0; c < 2; c++) {
        int sign_c = c == 0 ? 1 : -1;
        TakBitboard own = pos->owner[c], opp = pos->owner[c ^ 1];
        TakBitboard fl = own & ~pos->walls & ~pos->caps;
        TakBitboard walls = own & pos->walls, caps = own & pos->caps;
        road[c] = own & ~pos->walls;
        flats[c] = __builtin_popcountll(fl);
        for (int k = 0; k < EVAL_SQ_CLASSES; k++) {
            TakBitboard cls = m->sq_class[k];
            if (!cls) break;
            f[F_PST_FLAT + k] += sign_c * __builtin_popcountll(fl & cls);
            f[F_PST_WALL + k] += sign_c * __builtin_popcountll(walls & cls);
            f[F_PST_CAP + k] += sign_c * __builtin_popcountll(caps & cls);
        }
        for (TakBitboard b = caps; b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            TakBitboard nb = board_neighbours(bit(sq), size);
            f[F_CAP_FREE] += sign_c * __builtin_popcountll(nb & ~pos->walls & ~pos->caps);
            f[F_CAP_NEAR_WALL] += sign_c * __builtin_popcountll(nb & opp & pos->walls);
        }
        TakBitboard opp_flats = opp & ~pos->walls & ~pos->caps;
        for (TakBitboard b = own; b; b &= b - 1) {
            int sq = __builtin_ctzll(b), h = pos->height[sq];
            if (h < 2) continue;
            int near = h - 1 < carry_below ? h - 1 : carry_below;
            int mine = below_count(pos->stack[sq], near, c);
            int mine_all = below_count(pos->stack[sq], h - 1, c);
            int kind = (caps >> sq) & 1 ? 2 : (walls >> sq) & 1 ? 1 : 0;
            f[F_SUPPORT_FLAT + kind] += sign_c * mine;
            f[F_CAPTIVE_FLAT + kind] += sign_c * (near - mine);
            f[F_DEEP_OWN] += sign_c * (mine_all - mine);
            f[F_DEEP_OPP] += sign_c * (h - 1 - near - (mine_all - mine));
            if (h >= 3) f[F_STACK_TALL] += sign_c;
            f[F_STACK_NEAR_OPP] +=
                sign_c * __builtin_popcountll(board_neighbours(bit(sq), size) & opp_flats);
        }
        f[F_RESERVE] += sign_c * pos->stones[c];

        TakBitboard r = road[c];
        f[F_ADJACENT] += sign_c * (__builtin_popcountll(r & ((r & m->not_east) << 1)) +
                                   __builtin_popcountll(r & (r << size)));
        f[F_LIBERTIES] += sign_c * __builtin_popcountll(board_neighbours(r, size) & empty);
        /* Every rank (file) a road lacks costs at least one placement: the
         * distances below skip the floods that could not beat what is known. */
        unsigned ranks, files;
        board_lines(r, m, size, &ranks, &files);
        int missing_ranks = size - __builtin_popcount(ranks);
        int missing_files = size - __builtin_popcount(files);
        int crit = __builtin_popcountll(
            critical_squares(r, empty, m, size, missing_ranks, missing_files));
        bool mover = c == pos->side;
        if (crit >= 1) f[mover ? F_ROAD1_MOVER : F_ROAD1_WAITER] += sign_c;
        if (crit >= 2) f[mover ? F_CRIT2_MOVER : F_CRIT2_WAITER] += sign_c;
        if (crit == 0) {
            int d = missing_ranks > maxd
                        ? maxd + 1
                        : road_distance(r, empty, m->south, m->north, size, maxd);
            /* The other direction counts only if nearer: searched no
             * farther than d - 1 (d <= maxd + 1), it gives d when not. */
            if (d > 2 && missing_files < d) {
                int d2 = road_distance(r, empty, m->west, m->east, size, d - 1);
                if (d2 < d) d = d2;
            }
            /* (maxd + 1: farther, or no way through; no feature.) */
            if (d >= 2 && d <= maxd) f[F_ROAD_2 + d - 2] += sign_c;
        }
        int span;
        f[F_GROUPS] += sign_c * road_groups(r, m, size, &span);
        f[F_ROAD_ROWS] += sign_c * span;
        /* Lines by count (1..8) and whether contested, counted without
         * branches: the lines with none land in the unused slots 0 and 9. */
        int lines[2 * (EVAL_LINE_MAX + 1)] = {0};
        for (int i = 0; i < size; i++) {
            for (int dir = 0; dir < 2; dir++) {
                TakBitboard line = dir ? m->file[i] : m->rank[i];
                int k = __builtin_popcountll(r & line); /* at most size <= EVAL_LINE_MAX */
                lines[(opp & line ? EVAL_LINE_MAX + 1 : 0) + k]++;
            }
        }
        for (int k = 1; k <= EVAL_LINE_MAX; k++) {
            f[F_LINE_OPEN + k - 1] += sign_c * lines[k];
            f[F_LINE_CONTESTED + k - 1] += sign_c * lines[EVAL_LINE_MAX + 1 + k];
        }
    }
    for (int c = 0; c < 2; c++) {
        int sign_c = c == 0 ? 1 : -1;
        TakBitboard near_opp = board_neighbours(road[c ^ 1], size);
        f[F_WALL_BLOCK] += sign_c * __builtin_popcountll(pos->owner[c] & pos->walls & near_opp);
        f[F_CAP_BLOCK] += sign_c * __builtin_popcountll(pos->owner[c] & pos->caps & near_opp);
    }

    /* The flat race: the count in half flats (komi included), and, as the
     * end nears (the fewer pieces a reserve holds or empty squares remain),
     * the count as it would stand after the mover's next flat and who
     * would win it. Both grow as the end comes closer, so a few weights
     * cover every distance from it. */
    int lead = 2 * (flats[0] - flats[1]) - pos->rules.half_komi;
    f[F_COUNT_LEAD] = lead;
    int ends = left < n_empty ? left : n_empty;
    int near = ends < 8 ? 8 - ends : 0;
    int after = lead + (pos->side == TAK_WHITE ? 2 : -2);
    f[F_RACE_NEAR] = near * (after < -12 ? -12 : after > 12 ? 12 : after);
    f[F_RACE_SIGN] = near * sign(after);
    return phase;
}

const char *engine_feature_name(int i, char buf[32]) {
    static const struct {
        int first, count;
        const char *name;
    } groups[] = {
        {F_TEMPO, 1, "tempo"},
        {F_PST_FLAT, EVAL_SQ_CLASSES, "pst_flat"},
        {F_PST_WALL, EVAL_SQ_CLASSES, "pst_wall"},
        {F_PST_CAP, EVAL_SQ_CLASSES, "pst_cap"},
        {F_SUPPORT_FLAT, 1, "support_flat"},
        {F_SUPPORT_WALL, 1, "support_wall"},
        {F_SUPPORT_CAP, 1, "support_cap"},
        {F_CAPTIVE_FLAT, 1, "captive_flat"},
        {F_CAPTIVE_WALL, 1, "captive_wall"},
        {F_CAPTIVE_CAP, 1, "captive_cap"},
        {F_DEEP_OWN, 1, "deep_own"},
        {F_DEEP_OPP, 1, "deep_opp"},
        {F_STACK_TALL, 1, "stack_tall"},
        {F_STACK_NEAR_OPP, 1, "stack_near_opp"},
        {F_RESERVE, 1, "reserve"},
        {F_COUNT_LEAD, 1, "count_lead"},
        {F_RACE_NEAR, 1, "race_near"},
        {F_RACE_SIGN, 1, "race_sign"},
        {F_ROAD1_MOVER, 1, "road1_mover"},
        {F_ROAD1_WAITER, 1, "road1_waiter"},
        {F_CRIT2_MOVER, 1, "crit2_mover"},
        {F_CRIT2_WAITER, 1, "crit2_waiter"},
        {F_ROAD_2, 1, "road_2"},
        {F_ROAD_3, 1, "road_3"},
        {F_ROAD_4, 1, "road_4"},
        {F_ROAD_ROWS, 1, "road_rows"},
        {F_GROUPS, 1, "groups"},
        {F_ADJACENT, 1, "adjacent"},
        {F_LIBERTIES, 1, "liberties"},
        {F_LINE_OPEN, EVAL_LINE_MAX, "line_open"},
        {F_LINE_CONTESTED, EVAL_LINE_MAX, "line_contested"},
        {F_CAP_FREE, 1, "cap_free"},
        {F_CAP_NEAR_WALL, 1, "cap_near_wall"},
        {F_WALL_BLOCK, 1, "wall_block"},
        {F_CAP_BLOCK, 1, "cap_block"},
    };
    for (size_t g = sizeof groups / sizeof groups[0]; g-- > 0;) {
        if (i < groups[g].first) continue;
        if (groups[g].count == 1) return groups[g].name;
        snprintf(buf, 32, "%s_%d", groups[g].name, i - groups[g].first);
        return buf;
    }
    return "?";
}

/* A static score stays clear of the scores of won and lost games. */
static inline int short_of_a_win(int score) {
    const int most = TAK_SCORE_WIN_MIN - 100;
    return score > most ? most : score < -most ? -most : score;
}

int engine_evaluate_linear(const TakPosition *pos, const BoardMasks *m, const EvalWeights *w) {
    int f[F_COUNT];
    int phase = engine_features(pos, m, f);
    /* 32-bit sums (a loop the compiler vectorises) cannot overflow: no
     * feature exceeds 256 in size (64 squares, 4 neighbours each; 128
     * pieces), so 82 of them times a 16-bit weight stay below 2^30. */
    int open = 0, end = 0;
    for (int i = 0; i < F_COUNT; i++) {
        open += f[i] * w->w[i][0];
        end += f[i] * w->w[i][1];
    }
    int64_t sum = (int64_t)open * (EVAL_PHASE_MAX - phase) + (int64_t)end * phase;
    int score = short_of_a_win((int)(sum / (EVAL_PHASE_MAX * EVAL_SCALE)));
    return pos->side == TAK_WHITE ? score : -score;
}

int engine_evaluate(const TakPosition *pos, const BoardMasks *m, const EvalWeights *w) {
    int score = engine_evaluate_linear(pos, m, w);
    const EvalNet *net = engine_nets[pos->rules.size];
    if (!net) return score;
    return short_of_a_win(score + engine_net_eval(pos, net));
}

int tak_engine_evaluate(const TakPosition *pos) {
    int size = pos->rules.size;
    if (pos->result.end != TAK_END_NONE) return search_terminal_score(pos, 0);
    BoardMasks m = board_masks(size);
    return engine_evaluate(pos, &m, &engine_weights[size]);
}
