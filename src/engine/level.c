/*
 * level.c: playing strength. Lower levels search shallower under a small
 * node budget and choose among the moves near the best with a softmax, so
 * their mistakes are the human kind (a deeper threat missed, a slightly worse
 * move) and never a road in one left on the board: a road win scores beyond
 * any margin and a move that allows a road in one scores as a loss.
 *
 * Calibrated to keep each level's strength as the engine improves: the
 * learned evaluation spreads its scores less, so at the first calibration's
 * temperatures the low levels chose nearly at random (level 1 0-19-1 and
 * level 3 1-19 against the same levels of 1f56c01), and level 8's deeper
 * search made it far stronger (35-5). Retuned on 5x5, komi 2, 40 games a
 * level against 1f56c01's (bench/ELO.md "Levels"): levels 1-8 then scored
 * 39-69% there, and each level beat the one below. The evaluations since
 * made level 1 stronger again (85-32-3 in 120 games): its temperature went
 * from 64 to 70 (58-55-7). Level 1 is the most sensitive: at 80 it scored
 * 36-83-1.
 */
#include "internal.h"
#include "tak/random.h"

LevelParams engine_level_params(int level) {
    static const LevelParams table[TAK_LEVEL_MAX + 1] = {
        [1] = {1, 400, 70, 100},
        [2] = {1, 1500, 54, 90},
        [3] = {2, 4000, 54, 96},
        [4] = {2, 12000, 46, 84},
        [5] = {3, 30000, 40, 80},
        [6] = {3, 80000, 35, 80},
        [7] = {4, 200000, 25, 60},
        [8] = {4, 300000, 20, 50},
        [9] = {7, 2000000, 8, 25},
        [10] = {0, 0, 0, 0},
    };
    if (level < TAK_LEVEL_MIN) level = TAK_LEVEL_MIN;
    if (level > TAK_LEVEL_MAX) level = TAK_LEVEL_MAX;
    return table[level];
}

/* e^x for x <= 0, as (1 + x/256)^256: close enough for choosing, and no libm. */
static double exp_neg(double x) {
    if (x < -40) return 0;
    double y = 1 + x / 256;
    if (y < 0) return 0;
    for (int i = 0; i < 8; i++) y *= y;
    return y;
}

TakMove engine_level_choose(const RootMove *moves, int count, const LevelParams *lp,
                            uint64_t *rng) {
    if (count <= 0) return TAK_MOVE_NONE;
    int best = moves[0].score;
    if (lp->temperature <= 0 || best >= TAK_SCORE_WIN_MIN || best <= -TAK_SCORE_WIN_MIN)
        return moves[0].move;
    double weights[TAK_MULTIPV_MAX * 4], total = 0;
    int n = 0;
    for (int i = 0; i < count && n < TAK_MULTIPV_MAX * 4; i++) {
        int s = moves[i].score;
        if (s <= best - lp->margin || s <= -TAK_SCORE_WIN_MIN) continue;
        weights[n] = exp_neg((double)(s - best) / lp->temperature);
        total += weights[n];
        n++;
    }
    if (n <= 1) return moves[0].move;
    double x = (double)(tak_random_next(rng) >> 11) / 9007199254740992.0 * total;
    int k = 0, i = 0;
    for (; i < count; i++) {
        int s = moves[i].score;
        if (s <= best - lp->margin || s <= -TAK_SCORE_WIN_MIN) continue;
        if (x < weights[k] || k == n - 1) return moves[i].move;
        x -= weights[k++];
    }
    return moves[0].move;
}
