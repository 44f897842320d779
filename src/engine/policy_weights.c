/*
 * policy_weights.c: the move policy's weights by board size (policy.c),
 * in POLICY_UNIT-ths of a logit, written by `tune policy` (each table's
 * made_by says how); a size without one is ordered by history and a
 * fixed preference alone (ordering.c).
 */
#include "internal.h"

static const int16_t policy_4[POLICY_FEATURES] = {
    16, 26, 49, 0, 0, 0, 0, 0, 0, 0, -72, -21, 49, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 18,
    10, 16, 49, -26, -22, -17, -5, 25, 0, 0, 0, 0, 0, -16, 31, 39,
    27, 10, -252, 4, 71, 81, 52, 0, 0, 0, 0, 0, 2, 15, 74, 0,
    0, 0, 0, 0, 0, -15, -30, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, -44, -30, 22, 142, 0, 0, 0, 0, 0,
    -132, -94, -22, 204, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 22, 7, 4, 57, -38, 4, 2, -12, 0, 0, 0, 0, -6, -18,
    -18, -5, 0, 0, 0, 0, 49, -22, -73, 0, 0, 0, 0, 0, -48, 2,
    0, 0, 0, -20, -151, -233, -110, 78, 228, 163, 0, 0, 71, 336, 220, -91,
    -312, -243, -28, 0, 56, -16, -50, -36, 0, 0, 0, 0, 0, 0, -1, -37,
    -53, -24, 3, 66, 0, 0, -11, -14, -22, 0, 0, 0, 0, 0, 0, 0,
    43, -37, -53, 15, -11, -6, -45,
};

const int16_t *const policy_weights[TAK_MAX_SIZE + 1] = {[4] = policy_4, };

const char *const policy_made_by[TAK_MAX_SIZE + 1] = {
    [4] = "tune policy /work/wt-exp/src/engine/policy_weights.c 4 --heldout data/heldout/4.txt /work/data/nn/n4f/c000001_4.txt /work/data/nn/n4f/c000002_4.txt /work/data/nn/n4f/c000003_4.txt /work/data/nn/n4f/c000004_4.txt /work/data/nn/n4f/c000005_4.txt /work/data/nn/n4f/c000006_4.txt /work/data/nn/n4f/c000007_4.txt /work/data/nn/n4f/c000008_4.txt /work/data/nn/n4f/c000009_4.txt /work/data/nn/n4f/c000010_4.txt /work/data/nn/n4f/c000011_4.txt /work/data/nn/n4f/c000012_4.txt /work/data/nn/n4f/c000013_4.txt /work/data/nn/n4f/c000014_4.txt /work/data/nn/n4f/c000015_4.txt /work/data/nn/n4f/c000016_4.txt /work/data/nn/n4f/c000017_4.txt /work/data/nn/n4f/c000018_4.txt /work/data/nn/n4f/c000019_4.txt /work/data/nn/n4f/c000021_4.txt /work/data/nn/n4f/c000022_4.txt /work/data/nn/n4f/c000023_4.txt /work/data/nn/n4f/c000024_4.txt /work/data/nn/n4f/c000025_4.txt /work/data/nn/n4f/c000026_4.txt /work/data/nn/n4f/c000027_4.txt /work/data/nn/n4f/c000028_4.txt /work/data/nn/n4f/c000029_4.txt /work/data/nn/n4f/c000030_4.txt /work/data/",
};
