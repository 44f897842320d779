/*
 * board.h (internal): the one set of bitboard helpers, shared by the core and
 * the engine (the engine includes it; nothing here knows of the engine):
 * masks of each board size, steps, neighbours, flood fill and roads, the
 * masks of one size that a search computes once (BoardMasks), Zobrist keys,
 * and the small counting tables move generation shares. Everything here is
 * constant or computed on the caller's stack; nothing is initialised at run
 * time.
 */
#ifndef TAK_CORE_BOARD_H
#define TAK_CORE_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "tak/position.h"
#include "tak/random.h"

/* All squares of a board of size s (index s). */
static const TakBitboard board_all[TAK_MAX_SIZE + 1] = {
    0, 0, 0,
    0x1FFull, 0xFFFFull, 0x1FFFFFFull, 0xFFFFFFFFFull,
    0x1FFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull,
};

/* The a-file (west edge) of a board of size s. */
static const TakBitboard board_file_a[TAK_MAX_SIZE + 1] = {
    0, 0, 0,
    0x49ull, 0x1111ull, 0x108421ull, 0x41041041ull,
    0x40810204081ull, 0x0101010101010101ull,
};

static inline TakBitboard bit(int square) { return (TakBitboard)1 << square; }

/* Rank `rank` (0: rank 1, the south edge) and file `file` (0: the a-file,
 * the west edge) of a board of size `size`. */
static inline TakBitboard board_rank(int size, int rank) {
    return (((TakBitboard)1 << size) - 1) << (rank * size);
}
static inline TakBitboard board_file(int size, int file) { return board_file_a[size] << file; }

/* The neighbours of every square in `b`, within the board. */
static inline TakBitboard board_neighbours(TakBitboard b, int size) {
    TakBitboard all = board_all[size];
    TakBitboard a = board_file_a[size];
    TakBitboard east = (b << 1) & ~a;
    TakBitboard west = (b >> 1) & ~board_file(size, size - 1);
    return (east | west | (b << size) | (b >> size)) & all;
}

/* Grows `seed` through `through` (4-connected) until it stops: `seed` and
 * every square of `through` joined to it. */
static inline TakBitboard board_flood(TakBitboard seed, TakBitboard through, int size) {
    TakBitboard seen = seed;
    for (;;) {
        TakBitboard next = seen | (board_neighbours(seen, size) & through);
        if (next == seen) return seen;
        seen = next;
    }
}

/* Grows `from` through `through` until it stops; true once it meets `goal`. */
static inline bool board_flood_reaches(TakBitboard from, TakBitboard through, TakBitboard goal,
                                       int size) {
    TakBitboard seen = from & through;
    for (;;) {
        if (seen & goal) return true;
        TakBitboard next = (seen | board_neighbours(seen, size)) & through;
        if (next == seen) return false;
        seen = next;
    }
}

/* True when the squares `r` hold a road (north-south or east-west). */
static inline bool board_has_road(TakBitboard r, int size) {
    if (__builtin_popcountll(r) < size) return false;
    TakBitboard north = board_rank(size, size - 1), east = board_file(size, size - 1);
    TakBitboard s = r & board_rank(size, 0), w = r & board_file_a[size];
    if (s && (r & north) && (board_flood(s, r, size) & north)) return true;
    if (w && (r & east) && (board_flood(w, r, size) & east)) return true;
    return false;
}

/* Square steps for each TakDirection. */
static inline int board_step(TakDirection dir, int size) {
    switch (dir) {
    case TAK_NORTH: return size;
    case TAK_SOUTH: return -size;
    case TAK_EAST: return 1;
    default: return -1;
    }
}

/* How many squares lie beyond `square` in direction `dir` before the edge. */
static inline int board_room(int square, TakDirection dir, int size) {
    int file = square % size, rank = square / size;
    switch (dir) {
    case TAK_NORTH: return size - 1 - rank;
    case TAK_SOUTH: return rank;
    case TAK_EAST: return size - 1 - file;
    default: return file;
    }
}

/* ---- The masks of one size ---------------------------------------------
 * What the evaluation and the tactics ask of a board many times a node,
 * computed once per search (board_masks) and passed by pointer. */
typedef struct BoardMasks {
    TakBitboard all, north, south, east, west; /* edges: rank last, rank 1, file last, file a */
    TakBitboard not_east, not_west;            /* all but the last file / the a-file */
    TakBitboard rank[8], file[8];              /* each rank and file (size of them) */
    TakBitboard sq_class[10];                  /* squares alike under the board's symmetries */
    TakBitboard keep[3];  /* squares with 1, 2, 4 more squares east of them in their rank */
    TakBitboard gather;   /* multiplier taking bit 0 of each rank to one bit each (board_lines) */
} BoardMasks;

/* The class of a square under the board's 8 symmetries: 0 the corners, then
 * outward-in by distance from the edges (size 8 and 7: 10 classes). */
static inline int board_square_class(int sq, int size) {
    int r = sq / size, f = sq % size;
    if (r > size - 1 - r) r = size - 1 - r;
    if (f > size - 1 - f) f = size - 1 - f;
    int a = r < f ? r : f, b = r < f ? f : r;
    return b * (b + 1) / 2 + a;
}

static inline BoardMasks board_masks(int size) {
    BoardMasks m;
    m.all = board_all[size];
    m.south = board_rank(size, 0);
    m.north = board_rank(size, size - 1);
    m.west = board_file(size, 0);
    m.east = board_file(size, size - 1);
    m.not_east = m.all & ~m.east;
    m.not_west = m.all & ~m.west;
    for (int i = 0; i < 8; i++) {
        m.rank[i] = i < size ? board_rank(size, i) : 0;
        m.file[i] = i < size ? board_file(size, i) : 0;
    }
    for (int i = 0; i < 10; i++) m.sq_class[i] = 0;
    for (int sq = 0; sq < size * size; sq++) m.sq_class[board_square_class(sq, size)] |= bit(sq);
    for (int k = 0; k < 3; k++) {
        m.keep[k] = 0;
        for (int f = 0; f + (1 << k) < size; f++) m.keep[k] |= m.west << f;
    }
    m.gather = 0;
    for (int j = 0; j < size; j++) m.gather |= (TakBitboard)1 << (j * (size - 1));
    return m;
}

/* The ranks and the files (bit i: rank or file i) that hold a square of `b`.
 * Files: the ranks folded onto the first (shifts by whole ranks keep files).
 * Ranks: each rank's squares or-ed into its a-file square, then a multiply
 * moves rank i's a-file bit (bit i * size) to bit (size - 1)^2 + i; the
 * multiplier's terms land on distinct bits, so nothing carries. */
static inline void board_lines(TakBitboard b, const BoardMasks *m, int size, unsigned *ranks,
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

/* ---- Zobrist keys ----------------------------------------------------
 * Keys are a fixed function of their index (the splitmix64 finaliser), so
 * there is no table to build or share between threads. Indices: one per
 * (square, level, colour) piece, one per (square, wall/cap) top, one for
 * Black to move. Levels run to 127, the most pieces a stack can hold. */
static inline uint64_t zobrist_piece(int square, int level, int color) {
    return tak_random_mix(((uint64_t)square << 8 | (uint64_t)level << 1 | (uint64_t)color) + 1);
}
static inline uint64_t zobrist_top(int square, TakPieceType type) {
    return tak_random_mix(((uint64_t)1 << 20) + ((uint64_t)square << 2) + (uint64_t)type);
}
static inline uint64_t zobrist_black_to_move(void) { return tak_random_mix((uint64_t)1 << 24); }

/* ---- Counting tables ---------------------------------------------------
 * spread_count[c][n]: the spreads that lift 1..c pieces and travel at most n
 * squares (compositions of k into at most n parts, summed over k).
 * A capstone that may also flatten a wall right after n free squares adds
 * C(c-1, n) spreads: those whose last drop is the capstone alone. */
static const uint16_t spread_count[9][9] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 1, 1, 1, 1, 1, 1, 1, 1},
    {0, 2, 3, 3, 3, 3, 3, 3, 3},
    {0, 3, 6, 7, 7, 7, 7, 7, 7},
    {0, 4, 10, 14, 15, 15, 15, 15, 15},
    {0, 5, 15, 25, 30, 31, 31, 31, 31},
    {0, 6, 21, 41, 56, 62, 63, 63, 63},
    {0, 7, 28, 63, 98, 119, 126, 127, 127},
    {0, 8, 36, 92, 162, 218, 246, 254, 255},
};
static const uint8_t flatten_count[9][9] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 1, 0, 0, 0, 0, 0, 0, 0},
    {1, 2, 1, 0, 0, 0, 0, 0, 0},
    {1, 3, 3, 1, 0, 0, 0, 0, 0},
    {1, 4, 6, 4, 1, 0, 0, 0, 0},
    {1, 5, 10, 10, 5, 1, 0, 0, 0},
    {1, 6, 15, 20, 15, 6, 1, 0, 0},
    {1, 7, 21, 35, 35, 21, 7, 1, 0},
};

/* A stack mask of the top n pieces. */
static inline TakStackBits stack_top_mask(int n) {
    return n >= 128 ? ~(TakStackBits)0 : (((TakStackBits)1 << n) - 1);
}

#endif
