/**
 * \file
 * match.h: engine matches. Two players, each an engine program speaking TEI
 * over pipes or this library's own engine (in process, through the same TEI
 * session a program would use), play a series of games from an opening
 * book, alternating colours for each opening, several games at once. A
 * player that crashes, hangs, runs out of time or plays an illegal move
 * loses that game and is restarted for the next; the runner never waits
 * forever. Also: generating and reading opening books.
 */
#ifndef TAK_MATCH_H
#define TAK_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tak/error.h"
#include "tak/game.h"
#include "tak/match_stats.h"

typedef struct TakPlayerSpec {
    const char *name;    /**< for the PTN's Player tags and reports */
    const char *command; /**< a shell command line starting a TEI engine; NULL: our engine */
    const char *options; /**< "Name=Value,Name=Value", sent as setoption (may be NULL) */
    uint64_t nodes;      /**< under a nodes limit, this player's own count (0: the match's) */
} TakPlayerSpec;

/** One finished game, as the runner reports it. */
typedef struct TakMatchGame {
    int index;               /**< 0-based, in the order games were scheduled */
    int white;               /**< 0 when players[0] had White */
    const TakGame *game;     /**< the moves, and the result (tak_game_result) */
    const char *termination; /**< why it ended, in words ("road", "time forfeit", ...) */
    const char *ptn;         /**< the game as PTN, with Player1/Player2 and the rules' tags */
    const char *opening;     /**< the opening's TPS, or NULL for the empty board */
} TakMatchGame;

/** Called (under the runner's lock, from any worker) after each game, with the
 * score so far from players[0]'s view. */
typedef void (*TakMatchReport)(const TakMatchGame *game, const TakMatchScore *score, void *user);

typedef struct TakMatchConfig {
    TakPlayerSpec players[2];
    int size, half_komi;
    int games;        /**< to play (fewer when the SPRT stops the match) */
    int concurrency;  /**< games at once, each in its own thread */
    /** The time control: one of a clock (base + increment per move), nodes,
     * or a fixed time per move; the first one set is used. */
    int64_t base_ms, increment_ms;
    uint64_t nodes;
    int64_t movetime_ms;
    int64_t margin_ms;   /**< overstepping the clock by this much is forgiven (0: 100) */
    int64_t timeout_ms;  /**< a move under a nodes limit taking longer is a hang (0: 60 s);
                            also bounds the wait for tei/isready (else 10 s) */
    int max_plies;       /**< a game this long is a draw (0: 1000) */
    const char *const *openings; /**< TPS lines; NULL or none: the empty board */
    size_t opening_count;
    bool sprt_enabled;
    TakSprt sprt;        /**< stops the match early when it decides */
    int self_hash_mb;    /**< default Hash of an in-process engine (0: 16) */
    TakMatchReport report;
    void *user;
} TakMatchConfig;

typedef struct TakMatchOutcome {
    TakMatchScore score;  /**< from players[0]'s view */
    int played;
    TakSprtStatus sprt;   /**< TAK_SPRT_CONTINUE when not enabled or undecided */
    double llr;
} TakMatchOutcome;

/** Plays the match. Blocks until the games are over. False (with err) when
 * the configuration is wrong or a thread cannot be started; a broken engine
 * is not an error but a lost game. Needs no signal handling: writes to an
 * engine that died fail with EPIPE instead of raising SIGPIPE. */
bool tak_match_run(const TakMatchConfig *config, TakMatchOutcome *out, TakError *err);

/* ---- Opening books --------------------------------------------------- */

typedef struct TakBookConfig {
    int size, half_komi;
    int count;          /**< openings wanted */
    uint64_t seed;
    int min_plies, max_plies; /**< random legal plies from the empty board (2..4) */
    int depth;          /**< of the search that judges an opening (0: 3) */
    int max_score;      /**< |score| in hundredths of a flat an opening may have (0: 60) */
    bool flats_only;    /**< random plies place flats only, as players' openings do */
    bool as_moves;      /**< emit each opening as its plies ("a1 e5 c3 b2"), not as TPS */
} TakBookConfig;

/** Generates up to `count` distinct openings, each written (as TPS, or as its
 * plies with as_moves) through `emit`; returns how many, or -1 (with err) on
 * a bad configuration or when out of memory. Gives up after many rejected
 * tries, so may return fewer. */
int tak_book_generate(const TakBookConfig *config, void (*emit)(const char *line, void *user),
                      void *user, TakError *err);

/** Reads one opening of a book under `rules` into *pos: a TPS, or the plies
 * from the empty board separated by spaces, as racetrack's books write them
 * ("a1 e5 c3 b2"). False, with err's column, when it is neither or a ply is
 * illegal. */
bool tak_book_opening(const char *line, const TakRules *rules, TakPosition *pos, TakError *err);

/** Reads a book: one opening a line (tak_book_opening: a TPS or plies);
 * blank lines and lines starting with '#' are skipped. Every opening must be
 * a legal position of `size` with the game not over. On success *lines
 * (malloc'd, free with tak_book_free) holds each opening as TPS. */
bool tak_book_read(const char *text, size_t len, int size, char ***lines, size_t *count,
                   TakError *err);
void tak_book_free(char **lines, size_t count);

#endif
