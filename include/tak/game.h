/**
 * \file
 * game.h: a game with its history: the start, the moves played, takebacks,
 * repetition, and endings that are not on the board (resignation, time,
 * agreed draws). Owns heap memory: pair tak_game_init with tak_game_free.
 */
#ifndef TAK_GAME_H
#define TAK_GAME_H

#include <stdbool.h>
#include <stddef.h>

#include "tak/error.h"
#include "tak/position.h"

typedef struct TakGame {
    TakPosition start;   /**< where the game began */
    TakPosition current; /**< after every move in `moves` */
    TakMove *moves;
    uint64_t *hashes;    /**< hashes[i]: position hash before moves[i]; hashes[count]: current */
    size_t count, capacity;
    TakResult ended;     /**< set by tak_game_end (resign, time, agreement) or repetition */
} TakGame;

/** Starts a game from `start` (a copy is taken). */
bool tak_game_init(TakGame *game, const TakPosition *start, TakError *err);
/** Frees what the game owns (not the TakGame itself). */
void tak_game_free(TakGame *game);

/** The result: the board's, or an ending recorded by the game. */
TakResult tak_game_result(const TakGame *game);

/** Plays `move` if it is legal and the game is not over; applies the
 * repetition rule when the rules ask for it. On failure nothing changes. */
bool tak_game_play(TakGame *game, TakMove move, TakError *err);

/** Takes back the last move (and clears an ending recorded by the game). False
 * when there is nothing to take back. */
bool tak_game_undo(TakGame *game);

/** Records an ending that is not on the board: TAK_END_RESIGNATION or
 * TAK_END_TIME (winner given), TAK_END_AGREEMENT (winner -1). False when the
 * game is already over. */
bool tak_game_end(TakGame *game, TakEnd end, int winner);

/** How many times the current position has occurred in the game, itself included. */
int tak_game_occurrences(const TakGame *game);

/** The result code: "R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", or "*". */
const char *tak_result_code(TakResult result);

/** A sentence for people: "White wins by road", "Draw by repetition", ... */
const char *tak_result_describe(TakResult result, char *buf, size_t cap);

#endif
