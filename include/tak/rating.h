/**
 * \file
 * rating.h: Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2
 * system", 2013), for the players of `tak serve`. A rating is a strength
 * (1500 for a newcomer), its deviation (the uncertainty: 350 for a
 * newcomer, shrinking as games are played) and its volatility (how erratic
 * the player's results are). Pure functions: no state, no allocation.
 */
#ifndef TAK_RATING_H
#define TAK_RATING_H

#include <stddef.h>

#define TAK_RATING_START 1500.0
#define TAK_RATING_START_RD 350.0
#define TAK_RATING_START_VOLATILITY 0.06
#define TAK_RATING_TAU 0.5 /**< the system constant: how fast volatility may change */

typedef struct TakRating {
    double rating, rd, volatility;
} TakRating;

/** One game of a rating period: the opponent's rating before the period and
 * the score (1 a win, 0.5 a draw, 0 a loss). */
typedef struct TakRatingGame {
    TakRating opponent;
    double score;
} TakRatingGame;

/** A newcomer's rating (1500, 350, 0.06). */
TakRating tak_rating_new(void);

/** The player's rating after a rating period of `count` games (0: the
 * deviation only grows, by the volatility), with system constant `tau`
 * (TAK_RATING_TAU). The deviation never grows past TAK_RATING_START_RD. */
TakRating tak_rating_update(TakRating player, const TakRatingGame *games, size_t count, double tau);

/** The player's rating after `periods` rating periods without games (a
 * fraction counts in proportion): the deviation grows as step 6 of the paper
 * has it, sqrt(phi^2 + periods * sigma^2), never past TAK_RATING_START_RD. */
TakRating tak_rating_idle(TakRating player, double periods);

#endif
