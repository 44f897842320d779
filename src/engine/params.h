/*
 * params.h: the numbers the search and the clock are tuned by, in one
 * place, each with what it does. Scores are in hundredths of a flat (the
 * evaluation's unit), depths in plies. Changing one changes the engine:
 * measure it by a match (bench/ELO.md) and note the new bench signature
 * (bench/ENGINE.md).
 */
#ifndef TAK_ENGINE_PARAMS_H
#define TAK_ENGINE_PARAMS_H

/* ---- search.c ------------------------------------------------------------ */

/* Reverse futility: at depth <= FUTILITY_DEPTH a node whose evaluation
 * beats beta by FUTILITY_MARGIN a ply of depth left (less FUTILITY_IMPROVING
 * when the evaluation has risen since the side's last move) stands pat. */
#define FUTILITY_DEPTH 3
#define FUTILITY_MARGIN 90
#define FUTILITY_IMPROVING 30

/* Null move: from NULL_MIN_DEPTH on, when the evaluation is at least beta,
 * the side to move passes and a search NULL_REDUCTION + depth /
 * NULL_REDUCTION_DIVISOR plies shallower must still reach beta. */
#define NULL_MIN_DEPTH 3
#define NULL_REDUCTION 2
#define NULL_REDUCTION_DIVISOR 4
/* ... and only while both sides have more than NULL_MIN_PIECES in reserve
 * and more than NULL_MIN_EMPTY squares are empty (near the end, passing is
 * a resource the rules deny). */
#define NULL_MIN_PIECES 4
#define NULL_MIN_EMPTY 4

/* Late-move pruning: at depth d <= LMP_DEPTH, after LMP_LIMIT[d] quiet moves
 * of a node that is neither a PV node nor under a threat, the rest are not
 * tried. */
#define LMP_DEPTH 3
#define LMP_LIMITS {0, 10, 18, 30}

/* Late-move reductions: the i-th move tried at depth d (both at least
 * LMR_MIN) is searched LMR_BASE + ln(d) ln(i) / LMR_DIVISOR plies shallower
 * (a ply less at PV nodes, a ply more when not improving). */
#define LMR_MIN 3
#define LMR_BASE 0.25
#define LMR_DIVISOR 2.6

/* A node with no move from the table, at depth >= UNKNOWN_NODE_DEPTH, is
 * searched a ply shallower (its first move is a guess). */
#define UNKNOWN_NODE_DEPTH 4

/* A node under a road threat is searched a ply deeper while it is fewer
 * plies from the root than the iteration's depth plus
 * THREAT_EXTENSION_PLIES; past that, quiescence answers threats, at most
 * QS_MAX_DEPTH plies deep. The wider limits before (twice the depth plus
 * 8, and 6) spent most of a 4x4 search on threats and scored less against
 * Tiltak at equal nodes and on the clock (bench/ELO.md, twenty-fifth
 * session). */
#define THREAT_EXTENSION_PLIES 0
#define QS_MAX_DEPTH 3

/* Aspiration: from ASPIRATION_DEPTH on, an iteration first searches
 * ASPIRATION_WINDOW either side of the last score, and a search that falls
 * outside widens that side ASPIRATION_GROWTH times. */
#define ASPIRATION_DEPTH 4
#define ASPIRATION_WINDOW 35
#define ASPIRATION_GROWTH 3

/* Correction history: each search result moves its entry by a weight of
 * depth + 1 (at most CORR_WEIGHT_MAX) in CORR_WEIGHT_TOTAL. */
#define CORR_WEIGHT_MAX 16
#define CORR_WEIGHT_TOTAL 256

/* ---- timeman.c ----------------------------------------------------------- */

/* Never plan past the time left minus CLOCK_RESERVE_MS and a
 * CLOCK_RESERVE_DIVISOR-th of it (but always allow a quarter of it). */
#define CLOCK_RESERVE_MS 50
#define CLOCK_RESERVE_DIVISOR 20
/* With a fixed time a move, stop a tenth early, at most MOVETIME_MARGIN_MS. */
#define MOVETIME_MARGIN_MS 50
/* A game is reckoned to last as many more moves as the smaller of the
 * reserve and the empty squares, kept between these. 4x4 has its own
 * floor: its board and reserve are near 12 from the start, so a floor of 12
 * planned every move of the middle game as though more were left than are,
 * and clock went unused (bench/ELO.md, thirty-eighth session). */
#define MOVES_LEFT_MIN 12
#define MOVES_LEFT_MIN_4X4 8
#define MOVES_LEFT_MAX 30
/* A move's share: the time left over the moves left, plus INC_SHARE_PER_MILLE
 * of the increment; a move may run to HARD_SHARES shares, at most a
 * HARD_CLOCK_DIVISOR-th of the time left plus the increment. */
#define INC_SHARE_PER_MILLE 800
#define HARD_SHARES 4
#define HARD_CLOCK_DIVISOR 3
/* Per mille of the share a search takes, by how many iterations its best
 * move has stood (0, 1, 2, 3, 4 or more). */
#define STABILITY_PER_MILLE {1500, 1200, 1000, 850, 700}
/* A falling score buys more time: 1/SCORE_DROP_DIVISOR of the share a
 * hundredth of a flat lost, counting at most SCORE_DROP_MAX. */
#define SCORE_DROP_DIVISOR 200
#define SCORE_DROP_MAX 100

#endif
