/*
 * bitboard.h (engine-internal): board masks and shifts the evaluation and the
 * tactics share. The core keeps its own (src/core/board.h); these are the
 * engine's copy so that the engine depends on the public headers only.
 */
#ifndef TAK_ENGINE_BITBOARD_H
#define TAK_ENGINE_BITBOARD_H

#include "tak/position.h"

static inline TakBitboard bb_bit(int square) { return (TakBitboard)1 << square; }

static inline TakBitboard bb_all(int size) {
    return size == 8 ? ~(TakBitboard)0 : ((TakBitboard)1 << (size * size)) - 1;
}

static inline TakBitboard bb_rank(int size, int rank) {
    return (((TakBitboard)1 << size) - 1) << (rank * size);
}

static inline TakBitboard bb_file(int size, int file) {
    TakBitboard b = 0;
    for (int r = 0; r < size; r++) b |= bb_bit(r * size + file);
    return b;
}

/* The four edges of a board, computed once per size into a small table. */
typedef struct BbMasks {
    TakBitboard all, north, south, east, west; /* edges: rank last, rank 1, file last, file a */
    TakBitboard not_east, not_west;            /* all but the last file / the a-file */
    TakBitboard rank[8], file[8];              /* each rank and file (size of them) */
    TakBitboard sq_class[10];                  /* squares alike under the board's symmetries */
    TakBitboard keep[3];  /* squares with 1, 2, 4 more squares east of them in their rank */
    TakBitboard gather;   /* multiplier taking bit 0 of each rank to one bit each (bb_lines) */
} BbMasks;

/* The class of a square under the board's 8 symmetries: 0 the corners, then
 * outward-in by distance from the edges (size 8 and 7: 10 classes). */
static inline int bb_square_class(int sq, int size) {
    int r = sq / size, f = sq % size;
    if (r > size - 1 - r) r = size - 1 - r;
    if (f > size - 1 - f) f = size - 1 - f;
    int a = r < f ? r : f, b = r < f ? f : r;
    return b * (b + 1) / 2 + a;
}

static inline BbMasks bb_masks(int size) {
    BbMasks m;
    m.all = bb_all(size);
    m.south = bb_rank(size, 0);
    m.north = bb_rank(size, size - 1);
    m.west = bb_file(size, 0);
    m.east = bb_file(size, size - 1);
    m.not_east = m.all & ~m.east;
    m.not_west = m.all & ~m.west;
    for (int i = 0; i < 8; i++) {
        m.rank[i] = i < size ? bb_rank(size, i) : 0;
        m.file[i] = i < size ? m.west << i : 0;
    }
    for (int i = 0; i < 10; i++) m.sq_class[i] = 0;
    for (int sq = 0; sq < size * size; sq++) m.sq_class[bb_square_class(sq, size)] |= bb_bit(sq);
    for (int k = 0; k < 3; k++) {
        m.keep[k] = 0;
        for (int f = 0; f + (1 << k) < size; f++) m.keep[k] |= m.west << f;
    }
    m.gather = 0;
    for (int j = 0; j < size; j++) m.gather |= (TakBitboard)1 << (j * (size - 1));
    return m;
}

/* The orthogonal neighbours of the squares of `b`, within the board. */
static inline TakBitboard bb_neighbours(TakBitboard b, const BbMasks *m, int size) {
    return (((b & m->not_east) << 1) | ((b & m->not_west) >> 1) | (b << size) | (b >> size)) &
           m->all;
}

/* Grows `seed` through `through` (4-connected) until it stops. */
static inline TakBitboard bb_flood(TakBitboard seed, TakBitboard through, const BbMasks *m,
                                   int size) {
    TakBitboard seen = seed;
    for (;;) {
        TakBitboard next = seen | (bb_neighbours(seen, m, size) & through);
        if (next == seen) return seen;
        seen = next;
    }
}

/* The ranks and the files (bit i: rank or file i) that hold a square of `b`.
 * Files: the ranks folded onto the first (shifts by whole ranks keep files).
 * Ranks: each rank's squares or-ed into its a-file square, then a multiply
 * moves rank i's a-file bit (bit i * size) to bit (size - 1)^2 + i; the
 * multiplier's terms land on distinct bits, so nothing carries. */
static inline void bb_lines(TakBitboard b, const BbMasks *m, int size, unsigned *ranks,
                            unsigned *files) {
    unsigned full = (1u << size) - 1;
    TakBitboard f = b | b >> (4 * size);
    f |= f >> (2 * size);
    f |= f >> size;
    *files = (unsigned)f & full;
    TakBitboard r = b | ((b >> 1) & m->keep[0]);
    r |= (r >> 2) & m->keep[1];
    r |= (r >> 4) & m->keep[2];
    *ranks = (unsigned)(((r & m->west) * m->gather) >> ((size - 1) * (size - 1))) & full;
}

/* True when the squares `r` hold a road (north-south or east-west). */
static inline bool bb_has_road(TakBitboard r, const BbMasks *m, int size) {
    if (__builtin_popcountll(r) < size) return false;
    TakBitboard s = r & m->south, w = r & m->west;
    if (s && (r & m->north) && (bb_flood(s, r, m, size) & m->north)) return true;
    if (w && (r & m->east) && (bb_flood(w, r, m, size) & m->east)) return true;
    return false;
}

#endif
