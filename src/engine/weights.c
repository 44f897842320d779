/*
 * weights.c: the evaluation weights by board size, in 1/16 of a hundredth
 * of a flat per feature unit (see the feature list in internal.h). This file
 * is data: tools/tune rewrites it (see tools/tune/README.md).
 */
#include "internal.h"

const char *const engine_feature_names[F_COUNT] = {
    "tempo", "flats", "flats_late", "walls", "caps", "support_flat", "support_hard",
    "captives_flat", "captives_hard", "center", "cap_center", "cap_free", "cap_near_wall",
    "adjacent", "liberties", "road_1", "road_2", "road_3", "road_rows", "wall_block",
    "cap_block", "stack_tall", "reserve_lead",
};

/* Hand-set starting values, the same for every size. */
#define W_DEFAULT                                                                            \
    {{480, 1600, 200, 800, 1280, 240, 480, 80, 80, 80, 160, 80, 160, 160, 48, 1280, 640,     \
      240, 160, 160, 160, 80, 0}}

const EvalWeights engine_weights[TAK_MAX_SIZE + 1] = {
    [3] = W_DEFAULT, [4] = W_DEFAULT, [5] = W_DEFAULT,
    [6] = W_DEFAULT, [7] = W_DEFAULT, [8] = W_DEFAULT,
};
