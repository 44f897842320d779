/**
 * \file
 * notation.h: TPS (positions) and single PTN plies (moves), read and written
 * as ../shared/spec/notation.md describes. Whole PTN files are in ptn.h.
 *
 * Readers accept what other Tak tools write and reject everything malformed
 * with an error naming what was wrong and where (the column, or the token).
 */
#ifndef TAK_NOTATION_H
#define TAK_NOTATION_H

#include <stdbool.h>
#include <stddef.h>

#include "tak/error.h"
#include "tak/position.h"

/** Room for any TPS this library writes, terminator included. */
#define TAK_TPS_MAX 1024
/** Room for any ply this library writes, terminator included. */
#define TAK_MOVE_TEXT_MAX 24

/* ---- TPS -------------------------------------------------------------- */

/** Reads a TPS. The board size comes from the TPS; `rules` (may be NULL for
 * the standard rules of that size) gives reserves, komi and options, and its
 * size must match. Leading and trailing white space is ignored. On failure
 * `out` is untouched. */
bool tak_tps_read(const char *tps, const TakRules *rules, TakPosition *out, TakError *err);

/** Writes the TPS of `pos` into buf (at least TAK_TPS_MAX bytes for any
 * position); returns the length, or -1 when cap is too small. */
int tak_tps_write(const TakPosition *pos, char *buf, size_t cap);

/* ---- Squares ---------------------------------------------------------- */

/** "c4" -> square index for a board of `size`; -1 when not a square of it. */
int tak_square_parse(const char *text, int size);
/** Writes a square name ("c4") into buf (at least 3 bytes). */
void tak_square_name(int square, int size, char buf[3]);

/* ---- Plies ------------------------------------------------------------ */

/** Marks that may follow a ply. */
enum {
    TAK_MARK_FLATTEN = 1 << 0, /**< '*' */
    TAK_MARK_TAK = 1 << 1,     /**< "'" */
    TAK_MARK_TINUE = 1 << 2,   /**< "''" or '"' */
    TAK_MARK_GOOD = 1 << 3,    /**< '!' or '!!' */
    TAK_MARK_BAD = 1 << 4,     /**< '?' or '??' */
    TAK_MARK_INTERESTING = 1 << 5, /**< '!?' or '?!' */
};

/** A ply as written, before it is checked against a position. */
typedef struct TakPly {
    TakMove move;
    int piece;   /**< for a spread, the trailing 'S'/'C' as TakPieceType, or -1 */
    int marks;   /**< TAK_MARK_* bits */
} TakPly;

/** Reads one ply written for a board of `size` ("Sd3", "3b2+111", "e4<*'").
 * Checks only the syntax and the board's bounds (square, carry limit, drops
 * that sum to the count and stay on the board). A pass (no-pass rule off) is
 * written as a count and a square with no direction, e.g. "1c3". */
bool tak_ply_parse(const char *text, int size, TakPly *out, TakError *err);

/** Reads a ply and checks it is legal in `pos` (including a trailing piece
 * letter, and that the game is not over); on success fills *move. */
bool tak_move_parse(const TakPosition *pos, const char *text, TakMove *move, TakError *err);

/** Writes `move` as PTN in the short form ("a1", "Sd3", "a1>", "3b2+111"),
 * with '*' when it flattens a wall in `pos` (the position before the move;
 * may be NULL to leave the mark out). `size` is the board size. Returns the
 * length. buf needs TAK_MOVE_TEXT_MAX bytes. */
int tak_move_write(TakMove move, int size, const TakPosition *pos, char *buf);

/** As tak_move_write, in the long form that always writes the count and the
 * drops ("1a1>1"). */
int tak_move_write_long(TakMove move, int size, const TakPosition *pos, char *buf);

#endif
