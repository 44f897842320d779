/*
 * ptn.h: whole games in PTN, read (and replayed, so every move is checked)
 * and written.
 *
 * Reading is tolerant of what other tools write (CRLF, a byte-order mark,
 * blank lines, trailing spaces, unknown tags, comments anywhere between
 * tokens, marks after plies, extra dots after move numbers) and strict about
 * everything else: a malformed tag, token or move, or an illegal move, fails
 * with the line and column, and for moves the move number and ply.
 */
#ifndef TAK_PTN_H
#define TAK_PTN_H

#include <stdbool.h>
#include <stddef.h>

#include "tak/error.h"
#include "tak/game.h"

typedef struct TakPtnTag {
    char *name;
    char *value;
} TakPtnTag;

typedef struct TakPtn {
    TakPtnTag *tags; /* in file order, unknown ones included */
    size_t tag_count;
    TakRules rules;  /* from Size, Komi, Flats*, Caps* (standard otherwise) */
    TakGame game;    /* start (TPS tag or empty board) and every move, replayed */
    char **comments; /* comments[i]: comment after ply i (NULL if none); game.count entries */
    char **marks;    /* marks[i]: the marks written after ply i ("'", "!?", "??", ...; the
                      * flattening '*' is the writer's own), or NULL; game.count entries
                      * (the array may be NULL) */
    char *preface;   /* comments after the tags and before the first ply, or NULL */
    char result[8];  /* the result token that closed the move text, or "" */
} TakPtn;

/* Parses and replays a PTN game of `len` bytes (need not be NUL-terminated).
 * On success *out owns memory: free it with tak_ptn_free. On failure *out is
 * left empty (safe to free) and err says what and where. */
bool tak_ptn_read(const char *text, size_t len, TakPtn *out, TakError *err);

/* Frees what tak_ptn_read or tak_ptn_from_game allocated. */
void tak_ptn_free(TakPtn *ptn);

/* The value of a tag (case-insensitive name), or NULL. */
const char *tak_ptn_tag(const TakPtn *ptn, const char *name);

/* Sets (or adds) a tag; false when out of memory or the name or value
 * cannot be written (a name must be letters, digits and '_'). */
bool tak_ptn_set_tag(TakPtn *ptn, const char *name, const char *value);

/* Builds a TakPtn from a game (copied), with the tags that describe its rules
 * (Size, Komi, Flats, Caps, TPS when it did not start empty) and Result. */
bool tak_ptn_from_game(TakPtn *ptn, const TakGame *game, TakError *err);

/* Writes the game as PTN text (tags, numbered moves, result). Returns a
 * malloc'd NUL-terminated string the caller frees, or NULL when out of memory. */
char *tak_ptn_write(const TakPtn *ptn);

#endif
