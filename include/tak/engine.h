/**
 * \file
 * engine.h: the Tak AI. An engine holds its transposition table, its options
 * and its worker threads; it searches one position at a time and can be
 * stopped from another thread. Keep one engine per concurrent search (the
 * server may hold many); engines share nothing.
 */
#ifndef TAK_ENGINE_H
#define TAK_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tak/position.h"

#define TAK_LEVEL_MIN 1
#define TAK_LEVEL_MAX 10 /**< full strength */
#define TAK_PV_MAX 64
#define TAK_MULTIPV_MAX 16

/** Scores are in hundredths of a flat, from the side to move's view. A won or
 * lost game is beyond +-TAK_SCORE_WIN_MIN: TAK_SCORE_WIN - plies to the end. */
#define TAK_SCORE_WIN 30000
#define TAK_SCORE_WIN_MIN 29000

/** What limits a search: any combination, the first reached stops it. Zero
 * means "no limit of this kind". With no limit at all the search runs until
 * tak_engine_stop (as `go infinite`). */
typedef struct TakSearchLimits {
    int depth;                /**< plies */
    uint64_t nodes;
    int64_t movetime_ms;      /**< exactly this long (minus a safety margin) */
    int64_t time_left_ms[2];  /**< the clocks, by colour: the engine budgets its own side's */
    int64_t increment_ms[2];
    int moves_to_go;          /**< moves to the next time control, 0 if none */
    bool infinite;            /**< search until stopped, whatever else is set */
} TakSearchLimits;

/** One line of analysis, reported after each completed depth (and for each
 * MultiPV line). */
typedef struct TakSearchInfo {
    int depth, seldepth;
    int multipv;              /**< 1-based line number */
    int score;                /**< see TAK_SCORE_WIN */
    uint64_t nodes;
    int64_t time_ms;
    int hashfull;             /**< per mille of the table in use */
    int pv_length;
    TakMove pv[TAK_PV_MAX];
} TakSearchInfo;

typedef void (*TakSearchReport)(const TakSearchInfo *info, void *user);

typedef struct TakEngine TakEngine;

/** A new engine with a table of `hash_mb` megabytes and `threads` search
 * threads, at full strength. NULL when out of memory. */
TakEngine *tak_engine_new(size_t hash_mb, int threads);
/** Stops the engine's threads and frees it and its table (NULL is fine). */
void tak_engine_free(TakEngine *engine);

/** Resizes the table to `hash_mb` megabytes (0 counts as 1; the table takes
 * the largest power of two of entries that fits) and clears it. Call it
 * between searches, never during one. Returns true when the new table is in
 * place; false only when it could not be allocated, and then nothing has
 * changed: the engine keeps its old table, entries and all, and searches as
 * before. */
bool tak_engine_set_hash(TakEngine *engine, size_t hash_mb);
/** The number of search threads of the next searches (at least 1). */
void tak_engine_set_threads(TakEngine *engine, int threads);
/** TAK_LEVEL_MIN (a beginner) .. TAK_LEVEL_MAX (full strength). */
void tak_engine_set_level(TakEngine *engine, int level);
/** How many best lines the next searches report (1..TAK_MULTIPV_MAX). */
void tak_engine_set_multipv(TakEngine *engine, int lines);
/** A seed for the choices lower levels make, so games can be replayed. */
void tak_engine_set_seed(TakEngine *engine, uint64_t seed);

/** Forgets everything learnt about the previous game (the table). */
void tak_engine_new_game(TakEngine *engine);

/** Searches `pos` and returns the best move (TAK_MOVE_NONE when there is no
 * legal move). `history` holds the hashes of the game's earlier positions
 * (may be NULL), so the search can see repetitions. `report` (may be NULL) is
 * called from the searching thread. Blocks until the search ends. */
TakMove tak_engine_search(TakEngine *engine, const TakPosition *pos, const uint64_t *history,
                          size_t history_len, const TakSearchLimits *limits,
                          TakSearchReport report, void *user, TakSearchInfo *final_info);

/** Asks a running search to finish now and return its best move. Safe to call
 * from any thread, at any time. */
void tak_engine_stop(TakEngine *engine);

/** How bad a move was, from the scores (for the mover, as searches give
 * them) of the position before it and the one after it (negated back to the
 * mover's view): 0 fine, 1 a mistake (it lost `mistake` hundredths of a flat
 * or more; wins count as 2000), 2 a blunder (`blunder` or more, or it turned
 * a game not lost into a lost one). *drop (may be NULL) is what it lost. */
int tak_engine_judge_move(int before, int after, int mistake, int blunder, int *drop);

/** The static evaluation of `pos` from the side to move's view, for tests and
 * tuning. */
int tak_engine_evaluate(const TakPosition *pos);

#endif
