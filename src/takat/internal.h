/*
 * internal.h: what the TAKAT files share beyond the public header: the board's
 * fixed tables and the bit tricks on stacks (colours, bottom stone at bit 0).
 */
#ifndef TAKAT_INTERNAL_H
#define TAKAT_INTERNAL_H

#include <time.h>

#include "tak/random.h"
#include "tak/takat.h"

/* Wall-clock seconds, for the solvers' timings. */
static inline double takat_seconds(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* How many of keys[0..count) are `key`: a position's occurrences in a game. */
static inline int takat_key_occurrences(const uint64_t *keys, int count, uint64_t key) {
    int n = 0;
    for (int i = 0; i < count; i++) n += keys[i] == key;
    return n;
}

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

/* The alpha-beta search (search.c), shared with the levels (levels.c). */
#define TAKAT_MATE 1000 /* a win in k turns scores TAKAT_MATE - k */

typedef struct TakatTTEntry {
    uint64_t key;
    int16_t score;
    int8_t depth;
    uint8_t bound; /* 1 lower, 2 upper, 3 exact */
    uint8_t best;  /* index of the best turn + 1, 0 = none */
} TakatTTEntry;

typedef struct TakatSearcher {
    TakatTTEntry *tt; /* NULL: no table */
    uint64_t tt_mask;
    uint64_t nodes;
    bool heuristic;   /* score the horizon with a mobility count (else 0) */
} TakatSearcher;

/* A searcher with a table of 2^table_bits entries, or none when memory is
 * refused (the search still runs, slower); free it with takat_searcher_free. */
void takat_searcher_init(TakatSearcher *s, unsigned table_bits, bool heuristic);
void takat_searcher_free(TakatSearcher *s);

/* Negamax score of `pos` for its side to move at `depth` turns. */
int takat_negamax(TakatSearcher *s, const TakatPosition *pos, int depth, int ply, int alpha,
                  int beta);

#endif
