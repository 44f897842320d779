/*
 * internal.h: what the TAKAT files share beyond the public header: the board's
 * fixed tables and the bit tricks on stacks (colours, bottom stone at bit 0).
 */
#ifndef TAKAT_INTERNAL_H
#define TAKAT_INTERNAL_H

#include "tak/takat.h"

/* Neighbours of each cell as a 7-bit mask. */
extern const uint8_t takat_neighbours[TAKAT_CELLS];
/* The 12 links as pairs of cells. */
extern const uint8_t takat_links[12][2];

/* Colour of the top stone (needs a non-empty stack). */
static inline int top_color(const TakatPosition *pos, int cell) {
    return (pos->stones[cell] >> (pos->height[cell] - 1)) & 1;
}

/* Whether the top two stones are of one colour (needs height >= 2). */
static inline bool top_two_same(const TakatPosition *pos, int cell) {
    unsigned two = (pos->stones[cell] >> (pos->height[cell] - 2)) & 3u;
    return two == 0 || two == 3;
}

/* Whether the top three stones are of one colour (needs height >= 3). */
static inline bool top_three_same(const TakatPosition *pos, int cell) {
    unsigned three = (pos->stones[cell] >> (pos->height[cell] - 3)) & 7u;
    return three == 0 || three == 7;
}

/* Rule 2 on the links touching `a` or `b` only (a move changes no other stack). */
bool takat_breaks_adjacency_near(const TakatPosition *pos, int a, int b);

#endif
