/*
 * internal.h (notation): scanners the public readers and the PTN reader
 * share. Each reads exactly `len` bytes (no terminator needed) and reports
 * errors with a 1-based column relative to `text` and no line, so a caller
 * reading a larger document can move the error to its own line and column
 * with notation_error_relocate.
 */
#ifndef TAK_NOTATION_INTERNAL_H
#define TAK_NOTATION_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "tak/notation.h"
#include "tak/ptn.h"

/* The square named by exactly two bytes ("c4") on a board of `size`, or -1. */
int notation_square_scan(const char *text, size_t len, int size);

/* tak_ply_parse on a span. */
bool notation_ply_scan(const char *text, size_t len, int size, TakPly *out, TakError *err);

/* Checks a parsed ply against `pos`: the trailing piece letter of a spread,
 * then the rules (tak_move_check). Errors have no location. */
bool notation_ply_check(const TakPosition *pos, const TakPly *ply, TakError *err);

/* tak_tps_read on a span (white space around it allowed). */
bool notation_tps_scan(const char *text, size_t len, const TakRules *rules, TakPosition *out,
                       TakError *err);

/* Fills `err` with a message pointing at byte `index` of the text (column
 * index + 1, no line). Always returns false. */
bool notation_fail(TakError *err, size_t index, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A byte as people should see it in a message: 'x' when printable, else
 * "byte 0x1F" (buf needs 12 bytes). */
const char *notation_byte_name(unsigned char c, char buf[12]);

/* Moves an error found in a piece of text that starts at (line, column) of
 * a larger document: a relative column c becomes column + c - 1 (an error
 * with no column points at the start of the piece), and the line is set.
 * When `prefix` is not NULL it is put before the message ("move 5 (Black)
 * 3c3+12: "). */
void notation_error_relocate(TakError *err, int line, int column, const char *prefix);

/* ---- PTN ------------------------------------------------------------- */

/* Where a tag's value begins in the PTN text, for errors about it. */
typedef struct NotationSite {
    int line, column;
} NotationSite;

/* True when `name` (len bytes) is a tag name this library writes: letters,
 * digits and '_', at least one. */
bool notation_tag_name_ok(const char *name, size_t len);

/* Tag names compare without regard to case. */
bool notation_name_equal(const char *a, const char *b);

/* A NUL-terminated copy of `len` bytes at `text`, or NULL when out of memory. */
char *notation_copy(const char *text, size_t len);

/* Appends a tag (copies of name and value) without looking for an existing
 * one; false when out of memory. */
bool notation_ptn_append_tag(TakPtn *ptn, const char *name, size_t name_len, const char *value,
                             size_t value_len);

/* The rules and the start position the tags of `ptn` describe (Size, Komi,
 * Flats*, Caps*, Opening, TPS); sites[i] locates tag i for errors. */
bool notation_ptn_setup(const TakPtn *ptn, const NotationSite *sites, TakRules *rules,
                        TakPosition *start, TakError *err);

/* The canonical result code ("R-0", "1/2-1/2", "0-0", ...) of a result token
 * as other tools write it, or NULL when `text` is not one. */
const char *notation_result_scan(const char *text, size_t len);

/* False when two result codes name different winners ("R-0" and "1-0"
 * agree: White won; "1-0" and "1/2-1/2" do not). "0-0" and "*" say nothing
 * and agree with every code. */
bool notation_results_agree(const char *a, const char *b);

/* Applies a result code read from the file: a win or draw by other means
 * ends a game still in progress (resignation, agreement); road and flat
 * codes, "0-0" (aborted) and "*" change nothing, since the board decides. */
void notation_result_apply(TakGame *game, const char *code);

/* ---- Lines of play (ptn_lines.c) ----------------------------------------- */

/* A line of a TakPtn as the reader and writer see it: the main line or a
 * branch, through pointers into the TakPtn. */
typedef struct NotationLine {
    TakGame *game;
    char ***comments, ***marks; /* a comment and marks a ply of game */
    char **preface;             /* comments before its first ply */
    char *result;               /* 8 bytes */
} NotationLine;

/* Line `index` of ptn: -1 the main line, else that branch. */
NotationLine notation_line(TakPtn *ptn, int index);

/* Entries allocated in a line's comment and mark arrays for n plies. */
size_t notation_line_capacity(size_t n);

/* Room in the line's comment and mark arrays for one more ply (NULL arrays
 * are allocated); false when out of memory. */
bool notation_line_room(NotationLine *line);

/* The branch named by `len` bytes at `name`, or -1. */
int notation_branch_find(const TakPtn *ptn, const char *name, size_t len);

/* The line a branch named by `len` bytes at `name` leaves: the branch its
 * name begins with (the longest "A" of "A/..."), or -1 for the main line. */
int notation_branch_parent(const TakPtn *ptn, const char *name, size_t len);

/* Frees `count` comments and marks and the arrays (either may be NULL). */
void notation_line_free(char **comments, char **marks, size_t count);

/* Frees every branch of ptn and empties the list. */
void notation_branches_free(TakPtn *ptn);

#endif
