/**
 * \file
 * tei.h: one TEI session (../shared/spec/tei.md) as a library object, so the
 * protocol can be driven and tested without processes. The caller feeds input
 * lines; the session writes its answers through a callback. Searches run in a
 * thread of the session, so `isready`, `stop` and `quit` are answered at once.
 *
 * Both dialects are understood: `teinewgame 6` with komi from the HalfKomi
 * option (A), and `teinewgame size 6 halfkomi 4` (B).
 *
 * Scores: `score cp N` in hundredths of a flat from the engine's side, the
 * only kind the spec and match runners (racetrack) read; a won game found by
 * the search is TAK_SCORE_WIN (30000) less the plies to its end, a lost one
 * the negative of that, so 29000 or more means a win is certain.
 */
#ifndef TAK_TEI_H
#define TAK_TEI_H

#include <stdbool.h>
#include <stddef.h>

#include "tak/game.h"

/** Longest input line the session reads (a `position` with a long game fits
 * easily); longer lines are refused with an error. */
#define TAK_TEI_LINE_MAX (1 << 20)

/** Receives one output line, without its newline. Called from the caller's
 * thread and from the search thread, never from two at once. */
typedef void (*TakTeiWrite)(const char *line, void *user);

typedef struct TakTeiConfig {
    const char *name;   /**< `id name`, NULL for the library's default */
    const char *author; /**< `id author`, NULL for the default */
    int hash_mb;        /**< the Hash option's default (0: 64) */
    bool no_search;     /**< `go` answers the first legal move without searching
                           (for fuzzing the protocol without the engine's cost) */
} TakTeiConfig;

typedef struct TakTeiSession TakTeiSession;

/** A new session writing through `write`. `config` may be NULL for the
 * defaults. NULL when out of memory (or when the engine cannot be made). */
TakTeiSession *tak_tei_new(const TakTeiConfig *config, TakTeiWrite write, void *user);

/** Stops a running search (its `bestmove` is written) and frees everything. */
void tak_tei_free(TakTeiSession *session);

/** Handles one input line of `len` bytes (need not be NUL-terminated; a
 * trailing "\n" or "\r\n" is allowed; any bytes are safe). Returns false once
 * the line was `quit` (any search is stopped and its bestmove written), true
 * otherwise: bad lines are answered with `info string error: ...`. */
bool tak_tei_handle(TakTeiSession *session, const char *line, size_t len);

/** The game as the last good `position` (or `teinewgame`) left it. Only for
 * the caller's thread, and valid until the next tak_tei_handle. */
const TakGame *tak_tei_game(const TakTeiSession *session);

/** True while a `go` has not yet written its `bestmove`. */
bool tak_tei_is_searching(TakTeiSession *session);

/** Waits until the running search (if any) has written its `bestmove`; a
 * `go infinite`, which would never end by itself, is stopped. For the end of
 * the input, and for tests. */
void tak_tei_wait(TakTeiSession *session);

#endif
