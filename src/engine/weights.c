/*
 * weights.c: the evaluation weights by board size, in 1/16 of a hundredth
 * of a flat per feature unit (see the feature list in internal.h). This file
 * is data: tools/tune rewrites it (see tools/tune/README.md).
 */
#include "internal.h"

const char *const engine_feature_names[F_COUNT] = {
    "tempo",
    "flats",
    "flats_late",
    "walls",
    "caps",
    "support_flat",
    "support_hard",
    "captives_flat",
    "captives_hard",
    "center",
    "cap_center",
    "cap_free",
    "cap_near_wall",
    "adjacent",
    "liberties",
    "road_1",
    "road_2",
    "road_3",
    "road_rows",
    "wall_block",
    "cap_block",
    "stack_tall",
    "reserve_lead",
};

const EvalWeights engine_weights[TAK_MAX_SIZE + 1] = {
    [3] = {{
        2743, /* tempo */
        2504, /* flats */
        164, /* flats_late */
        75, /* walls */
        1280, /* caps */
        1232, /* support_flat */
        602, /* support_hard */
        -778, /* captives_flat */
        219, /* captives_hard */
        -440, /* center */
        160, /* cap_center */
        80, /* cap_free */
        160, /* cap_near_wall */
        1283, /* adjacent */
        763, /* liberties */
        1094, /* road_1 */
        -387, /* road_2 */
        1300, /* road_3 */
        -884, /* road_rows */
        -76, /* wall_block */
        160, /* cap_block */
        1030, /* stack_tall */
        -631, /* reserve_lead */
    }},
    [4] = {{
        2148, /* tempo */
        -249, /* flats */
        635, /* flats_late */
        601, /* walls */
        1280, /* caps */
        1245, /* support_flat */
        1616, /* support_hard */
        -1099, /* captives_flat */
        92, /* captives_hard */
        432, /* center */
        160, /* cap_center */
        80, /* cap_free */
        160, /* cap_near_wall */
        -253, /* adjacent */
        374, /* liberties */
        1199, /* road_1 */
        1094, /* road_2 */
        -91, /* road_3 */
        245, /* road_rows */
        773, /* wall_block */
        160, /* cap_block */
        507, /* stack_tall */
        -396, /* reserve_lead */
    }},
    [5] = {{
        1276, /* tempo */
        755, /* flats */
        381, /* flats_late */
        -36, /* walls */
        -1233, /* caps */
        1051, /* support_flat */
        2054, /* support_hard */
        -1017, /* captives_flat */
        -760, /* captives_hard */
        37, /* center */
        384, /* cap_center */
        138, /* cap_free */
        48, /* cap_near_wall */
        824, /* adjacent */
        -257, /* liberties */
        1470, /* road_1 */
        827, /* road_2 */
        350, /* road_3 */
        540, /* road_rows */
        -5, /* wall_block */
        627, /* cap_block */
        -3, /* stack_tall */
        -22, /* reserve_lead */
    }},
    [6] = {{
        1396, /* tempo */
        1488, /* flats */
        435, /* flats_late */
        -212, /* walls */
        4327, /* caps */
        1175, /* support_flat */
        2294, /* support_hard */
        -1465, /* captives_flat */
        154, /* captives_hard */
        194, /* center */
        484, /* cap_center */
        -429, /* cap_free */
        -642, /* cap_near_wall */
        -1011, /* adjacent */
        -18, /* liberties */
        1465, /* road_1 */
        858, /* road_2 */
        128, /* road_3 */
        911, /* road_rows */
        799, /* wall_block */
        807, /* cap_block */
        -711, /* stack_tall */
        -372, /* reserve_lead */
    }},
    [7] = {{
        1396, /* tempo */
        1488, /* flats */
        435, /* flats_late */
        -212, /* walls */
        4327, /* caps */
        1175, /* support_flat */
        2294, /* support_hard */
        -1465, /* captives_flat */
        154, /* captives_hard */
        194, /* center */
        484, /* cap_center */
        -429, /* cap_free */
        -642, /* cap_near_wall */
        -1011, /* adjacent */
        -18, /* liberties */
        1465, /* road_1 */
        1700, /* road_2 */
        800, /* road_3 */
        1400, /* road_rows */
        799, /* wall_block */
        807, /* cap_block */
        -711, /* stack_tall */
        -372, /* reserve_lead */
    }},
    [8] = {{
        1396, /* tempo */
        1488, /* flats */
        435, /* flats_late */
        -212, /* walls */
        4327, /* caps */
        1175, /* support_flat */
        2294, /* support_hard */
        -1465, /* captives_flat */
        154, /* captives_hard */
        194, /* center */
        484, /* cap_center */
        -429, /* cap_free */
        -642, /* cap_near_wall */
        -1011, /* adjacent */
        -18, /* liberties */
        1465, /* road_1 */
        858, /* road_2 */
        128, /* road_3 */
        911, /* road_rows */
        799, /* wall_block */
        807, /* cap_block */
        -711, /* stack_tall */
        -372, /* reserve_lead */
    }},
};
