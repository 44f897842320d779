/*
 * policy_weights.c: the move policy's weights by board size (policy.c),
 * written by `tune policy` (tools/tune/README.md); a size without a table
 * is ordered by history and a fixed preference alone (ordering.c).
 */
#include "internal.h"

const int16_t *const policy_weights[TAK_MAX_SIZE + 1] = {0};

const char *const policy_made_by[TAK_MAX_SIZE + 1] = {0};
