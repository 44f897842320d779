/**
 * \file
 * score.h: multi-game scoring from the rule book (seed 003): the winner of a
 * game scores the squares of the board (25 on 5x5) plus the pieces left in
 * their reserve; a draw scores nothing. The first player of a match's first
 * game is drawn at random, then players take turns going first.
 *
 * Players are numbered 0 and 1 for the whole match, whatever colour they play.
 */
#ifndef TAK_SCORE_H
#define TAK_SCORE_H

#include "tak/position.h"

#define TAK_SCORE_MAX_GAMES 1000

typedef struct TakMatchScore {
    int games;               /**< games recorded */
    int points[2];           /**< total points of each player */
    int wins[2];
    int draws;
    int first_player;        /**< who moved first in game 1 */
} TakMatchScore;

/** A match with no game played; `first_player` (0 or 1, drawn at random by
 * the caller) moves first in game 1. */
void tak_score_init(TakMatchScore *score, int first_player);

/** The player who moves first (plays White) in game `game` (1-based):
 * the first player of game 1, then alternating. */
int tak_score_first_player(const TakMatchScore *score, int game);

/** Points for a game that ended in `pos` with `result`: the board's squares
 * plus the winner's unplayed stones and capstones; 0 for a draw or an
 * unfinished game. */
int tak_score_points(const TakPosition *pos, TakResult result);

/** Records a game: `winner` is the player (0 or 1) or -1 for a draw;
 * `points` from tak_score_points. */
void tak_score_record(TakMatchScore *score, int winner, int points);

/** The player ahead on points, or -1 when level. */
int tak_score_leader(const TakMatchScore *score);

#endif
