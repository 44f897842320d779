/**
 * \file
 * match_stats.h: the statistics of an engine match: the Elo difference a
 * score means, its 95% error margin, the likelihood of superiority (LOS),
 * and a sequential probability ratio test (SPRT) that can stop a match as
 * soon as the result is clear. Pure functions of the win/loss/draw counts.
 *
 * Elo is logistic: an expected score s means 400 * log10(s / (1 - s)).
 */
#ifndef TAK_MATCH_STATS_H
#define TAK_MATCH_STATS_H

#include <stdbool.h>

#include "tak/error.h"

/** Results from the first player's view. */
typedef struct TakMatchScore {
    int wins, losses, draws;
} TakMatchScore;

/** The Elo difference for an expected score in (0, 1); +-INFINITY at 1 and 0. */
double tak_elo_from_score(double score);
/** The expected score of an Elo difference. */
double tak_score_from_elo(double elo);

typedef struct TakEloEstimate {
    double score;  /**< (wins + draws / 2) / games */
    double elo;    /**< from the score; +-INFINITY when every game was won or lost */
    double margin; /**< half the width of the 95% interval, in Elo (INFINITY when unknown) */
    double los;    /**< likelihood of superiority, 0..1, from wins and losses only */
} TakEloEstimate;

/** The estimate from a score; false (and *out untouched) with no games. The
 * margin treats games as independent trinomial trials (mean score +- 1.96
 * standard errors, converted to Elo at each end, halved). */
bool tak_elo_estimate(const TakMatchScore *score, TakEloEstimate *out);

/** LOS = Phi((W - L) / sqrt(W + L)); 0.5 when W + L = 0. */
double tak_los(int wins, int losses);

/** An SPRT of H0: Elo = elo0 against H1: Elo = elo1. */
typedef struct TakSprt {
    double elo0, elo1, alpha, beta;
} TakSprt;

typedef enum TakSprtStatus {
    TAK_SPRT_CONTINUE = 0,
    TAK_SPRT_ACCEPT_H0, /**< not better than elo0: LLR fell to the lower bound */
    TAK_SPRT_ACCEPT_H1, /**< better than elo1: LLR reached the upper bound */
} TakSprtStatus;

/** Reads "elo0=0,elo1=10,alpha=0.05,beta=0.05" (any order; alpha and beta
 * default to 0.05). Needs elo0 < elo1 and 0 < alpha, beta < 0.5. */
bool tak_sprt_parse(const char *text, TakSprt *out, TakError *err);

/** Bounds of the LLR: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha). */
void tak_sprt_bounds(const TakSprt *sprt, double *lower, double *upper);

/** The log-likelihood ratio, in the normal approximation to the trinomial
 * (the generalised SPRT of fishtest and cutechess's successors):
 *   LLR = N (s1 - s0)(2 s - s0 - s1) / (2 var)
 * with s the mean score, var the per-game variance of the score and s0, s1
 * the scores of elo0 and elo1. 0 while var is 0 (no games, or all alike). */
double tak_sprt_llr(const TakSprt *sprt, const TakMatchScore *score);

/** Where the test stands after `score`. */
TakSprtStatus tak_sprt_status(const TakSprt *sprt, const TakMatchScore *score, double *llr);

#endif
