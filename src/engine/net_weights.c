/*
 * net_weights.c: the evaluation network of each board size (net.c), written
 * by `tune net`; a size without one is evaluated by the linear terms alone.
 */
#include "internal.h"

const EvalNet *const engine_nets[TAK_MAX_SIZE + 1] = {0};
