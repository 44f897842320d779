/**
 * \file
 * ptn.h: whole games in PTN, read (and replayed, so every move is checked)
 * and written.
 *
 * Reading is tolerant of what other tools write (CRLF, a byte-order mark,
 * blank lines, trailing spaces, unknown tags, comments anywhere between
 * tokens, marks after plies, extra dots after move numbers) and strict about
 * everything else: a malformed tag, token or move, or an illegal move, fails
 * with the line and column, and for moves the move number and ply.
 *
 * Branches (variations) are read and written as PTN Ninja writes them: after
 * the main line, each branch after a blank line, headed by its name in a
 * comment and numbered from the move where it leaves its line, with "--"
 * for White's ply when it starts with Black's:
 *
 *     1. a1 e5
 *     2. c3 d3
 *     3. c4 d4
 *
 *     {2w1}
 *     2. b3 c2
 *
 *     {2w1/3b1}
 *     3. -- b2
 *
 * A name "A/B" is a branch of branch A (when A came before it), any other
 * name a branch of the main line.
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

/** A branch: another line of play that leaves the main line, or another
 * branch, at one ply. */
typedef struct TakPtnBranch {
    char *name;        /**< as in its heading comment: "2w1", "2w1/3b1" */
    int parent;        /**< the line it leaves: an index in branches, or -1 for the main line */
    size_t start;      /**< its first ply is an alternative to ply `start` (from 0) of that line */
    TakGame game;      /**< the whole line from the game's start: the first `start` plies of its
                        * parent's line, then its own */
    char **comments;   /**< comments[i]: comment after ply i of `game`; NULL below `start` */
    char **marks;      /**< marks[i], as in TakPtn; NULL below `start` */
    char *preface;     /**< comments after the heading and before its first ply, or NULL */
    char result[8];    /**< the result token that closed it, or "" */
} TakPtnBranch;

typedef struct TakPtn {
    TakPtnTag *tags; /**< in file order, unknown ones included */
    size_t tag_count;
    TakRules rules;  /**< from Size, Komi, Flats*, Caps* (standard otherwise) */
    TakGame game;    /**< start (TPS tag or empty board) and every move, replayed */
    char **comments; /**< comments[i]: comment after ply i (NULL if none); game.count entries */
    char **marks;    /**< marks[i]: the marks written after ply i ("'", "!?", "??", ...; the
                      * flattening '*' is the writer's own), or NULL; game.count entries
                      * (the array may be NULL) */
    char *preface;   /**< comments after the tags and before the first ply, or NULL */
    char result[8];  /**< the result token that closed the main line, or "" */
    TakPtnBranch *branches; /**< in file order; a branch comes after the line it leaves */
    size_t branch_count;
} TakPtn;

/** Parses and replays a PTN game of `len` bytes (need not be NUL-terminated).
 * On success *out owns memory: free it with tak_ptn_free. On failure *out is
 * left empty (safe to free) and err says what and where. */
bool tak_ptn_read(const char *text, size_t len, TakPtn *out, TakError *err);

/** Frees what tak_ptn_read or tak_ptn_from_game allocated. */
void tak_ptn_free(TakPtn *ptn);

/** The value of a tag (case-insensitive name), or NULL. */
const char *tak_ptn_tag(const TakPtn *ptn, const char *name);

/** Sets (or adds) a tag; false when out of memory or the name or value
 * cannot be written (a name must be letters, digits and '_'). */
bool tak_ptn_set_tag(TakPtn *ptn, const char *name, const char *value);

/** Builds a TakPtn from a game (copied), with the tags that describe its rules
 * (Size, Komi, Flats, Caps, TPS when it did not start empty) and Result. */
bool tak_ptn_from_game(TakPtn *ptn, const TakGame *game, TakError *err);

/** Adds an empty branch named `name` that leaves line `parent` (-1: the main
 * line; else an index in branches) at its ply `start` (from 0, before that
 * line's end), with the plies before it copied; returns its index, or -1
 * (err says why) for a bad parent, start or name (one line, no '{', '}' or
 * "/" at either end, not in use, and as PTN names branches: "A/..." for a
 * branch of branch A, a name not beginning with a branch's name and '/' for
 * a branch of the main line). Its plies are added with tak_ptn_play. */
int tak_ptn_add_branch(TakPtn *ptn, const char *name, int parent, size_t start, TakError *err);

/** Plays `move` at the end of line `line` (-1: the main line; else an index
 * in branches) with its comment and marks (either may be NULL; copies are
 * kept); false (err says why) when the move is illegal there. */
bool tak_ptn_play(TakPtn *ptn, int line, TakMove move, const char *comment, const char *marks,
                  TakError *err);

/** Writes the game as PTN text (tags, numbered moves, result, then the
 * branches, each after a blank line under its name). Returns a
 * malloc'd NUL-terminated string the caller frees, or NULL when out of memory. */
char *tak_ptn_write(const TakPtn *ptn);

#endif
