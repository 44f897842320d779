/**
 * \file
 * move.h: a move packed in 32 bits, and the list move generation fills.
 *
 * Squares are numbered rank * size + file, so a1 is 0 and the numbering (like
 * every move) depends on the board size. A spread's drops are a bit set over
 * the carried pieces, counted from the bottom: bit i is set when piece i+1 is
 * the last one dropped on its square. So the highest set bit gives the count
 * lifted, the number of set bits the squares covered, and every sequence of
 * drops has exactly one code (this makes moves cheap to compare and hash).
 */
#ifndef TAK_MOVE_H
#define TAK_MOVE_H

#include <stdbool.h>
#include <stdint.h>

typedef uint32_t TakMove;

typedef enum TakMoveKind {
    TAK_PLACE_FLAT = 0,
    TAK_PLACE_WALL = 1,
    TAK_PLACE_CAP = 2,
    TAK_SPREAD = 3, /**< a stack move; drops == 0 is a pass (no-pass rule off),
                       always written with TAK_NORTH: one code per pass */
} TakMoveKind;

typedef enum TakDirection {
    TAK_NORTH = 0, /**< '+' toward higher ranks */
    TAK_SOUTH = 1, /**< '-' */
    TAK_EAST = 2,  /**< '>' toward higher files */
    TAK_WEST = 3,  /**< '<' */
} TakDirection;

/** No move: never generated, never legal. */
#define TAK_MOVE_NONE ((TakMove)0xFFFFFFFFu)

/** An upper bound on the legal moves of any position the rules allow (at most
 * 16 stacks can reach the carry limit of 8; each has at most 255 spreads along
 * each of its two lines; plus 192 placements), with margin. */
#define TAK_MAX_MOVES 8704

/** A placement of a piece of `kind` (flat, wall or capstone) on `square`. */
static inline TakMove tak_move_place(int square, TakMoveKind kind) {
    return (TakMove)square | ((TakMove)kind << 6);
}

/** A spread of the stack on `square` toward `dir`, dropping as `drops`
 * encodes (tak_drops_encode). */
static inline TakMove tak_move_spread(int square, TakDirection dir, unsigned drops) {
    return (TakMove)square | ((TakMove)TAK_SPREAD << 6) | ((TakMove)dir << 8) |
           ((TakMove)drops << 10);
}

/** A pass: lift the stack on `square` and put it all back (no-pass rule off). */
static inline TakMove tak_move_pass(int square) { return tak_move_spread(square, TAK_NORTH, 0); }

/** The square a move places on or lifts from. */
static inline int tak_move_square(TakMove m) { return (int)(m & 63u); }
/** What kind of move it is: a placement (of which piece) or a spread. */
static inline TakMoveKind tak_move_kind(TakMove m) { return (TakMoveKind)((m >> 6) & 3u); }
/** True for a spread (a pass included). */
static inline bool tak_move_is_spread(TakMove m) { return tak_move_kind(m) == TAK_SPREAD; }
/** The direction of a spread. */
static inline TakDirection tak_move_direction(TakMove m) { return (TakDirection)((m >> 8) & 3u); }
/** The drop code (see the top of this file); 0 for placements and passes. */
static inline unsigned tak_move_drops(TakMove m) { return (m >> 10) & 0xFFu; }
/** True for a pass (no-pass rule off): a stack lifted and put back. */
static inline bool tak_move_is_pass(TakMove m) {
    return tak_move_is_spread(m) && tak_move_drops(m) == 0;
}
/** Pieces lifted by a spread (0 for a pass). */
static inline int tak_move_count(TakMove m) {
    unsigned d = tak_move_drops(m);
    return d ? 32 - __builtin_clz(d) : 0;
}
/** Squares a spread covers. */
static inline int tak_move_distance(TakMove m) { return __builtin_popcount(tak_move_drops(m)); }

/** Builds a drop code from a list of drops (each >= 1). Returns 0 when the
 * list is empty, has a zero, or sums to more than 8. */
unsigned tak_drops_encode(const int *drops, int n);

/** Expands a drop code into drops[] (room for 8); returns how many. */
int tak_drops_decode(unsigned code, int drops[8]);

typedef struct TakMoveList {
    int count;
    TakMove moves[TAK_MAX_MOVES];
} TakMoveList;

#endif
