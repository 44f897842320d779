/*
 * board.h (internal): bitboard masks for each board size, Zobrist keys, and
 * the small counting tables move generation shares. Everything here is
 * constant; nothing is initialised at run time.
 */
#ifndef TAK_CORE_BOARD_H
#define TAK_CORE_BOARD_H

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

static inline TakBitboard board_file_last(int size) { return board_file_a[size] << (size - 1); }
static inline TakBitboard board_rank_1(int size) { return ((TakBitboard)1 << size) - 1; }
static inline TakBitboard board_rank_last(int size) {
    return board_rank_1(size) << (size * (size - 1));
}

static inline TakBitboard bit(int square) { return (TakBitboard)1 << square; }

/* The neighbours of every square in `b`, within the board. */
static inline TakBitboard board_neighbours(TakBitboard b, int size) {
    TakBitboard all = board_all[size];
    TakBitboard a = board_file_a[size];
    TakBitboard east = (b << 1) & ~a;
    TakBitboard west = (b >> 1) & ~board_file_last(size);
    return (east | west | (b << size) | (b >> size)) & all;
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
