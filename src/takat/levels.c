/*
 * levels.c: the TAKAT AI's levels. Level 10 plays perfectly from the solved
 * table when it holds the position (the winner takes the fastest win, the
 * loser the slowest loss, a drawn side keeps the draw), else it searches
 * deep. Lower levels search less deep, judge the horizon by mobility and
 * blur their scores with noise, and now and then play a turn at random: the
 * kind of mistakes people make.
 */
#include "internal.h"

#include <stdlib.h>

/* A solved choice, or false when the table lacks a successor. */
static bool choose_solved(const TakatPosition *pos, const TakatTurnList *list,
                          const TakatSolution *sol, uint64_t *seed, TakatTurn *out) {
    int best_rank = -(1 << 30), ties = 0;
    for (int i = 0; i < list->count; i++) {
        TakatPosition next = *pos;
        takat_position_apply(&next, list->turns[i]);
        int d;
        TakatValue v = takat_solution_value(sol, &next, &d);
        int rank; /* higher is better for the mover */
        if (v == TAKAT_VALUE_UNKNOWN) return false;
        if (v == TAKAT_VALUE_LOSS)
            rank = 100000 - d; /* the opponent loses: fastest first */
        else if (v == TAKAT_VALUE_DRAW)
            rank = 0;
        else
            rank = -100000 + d; /* we lose: slowest first */
        if (rank > best_rank) {
            best_rank = rank;
            ties = 1;
            *out = list->turns[i];
        } else if (rank == best_rank && tak_random_next(seed) % (uint64_t)++ties == 0) {
            *out = list->turns[i];
        }
    }
    return true;
}

TakatTurn takat_ai_choose(const TakatPosition *pos, int level, const TakatSolution *sol,
                          uint64_t *seed) {
    TakatTurnList list;
    int n = takat_turns_generate(pos, &list);
    TakatTurn choice = n > 0 ? list.turns[0] : takat_drop(0);
    if (n <= 1) return choice;
    if (level < 1) level = 1;
    if (level > 10) level = 10;
    if (level == 10 && sol && takat_solution_value(sol, pos, NULL) != TAKAT_VALUE_UNKNOWN &&
        choose_solved(pos, &list, sol, seed, &choice))
        return choice;

    /* A blunder now and then: 25% of turns at level 1, none from level 7. */
    int blunder = level < 7 ? (7 - level) * 4 : 0;
    if ((int)(tak_random_next(seed) % 100) < blunder) return list.turns[tak_random_next(seed) % n];

    TakatSearcher s;
    takat_searcher_init(&s, 18, true);
    int depth = level == 10 ? 14 : level + 1;
    int noise = level >= 9 ? 0 : (9 - level) * 2; /* in mobility units */
    int best = -(1 << 30);
    for (int i = 0; i < n; i++) {
        TakatPosition next = *pos;
        takat_position_apply(&next, list.turns[i]);
        int score = -takat_negamax(&s, &next, depth - 1, 1, -TAKAT_MATE - 1, TAKAT_MATE + 1);
        if (noise && score > -TAKAT_MATE / 2 && score < TAKAT_MATE / 2)
            score += (int)(tak_random_next(seed) % (uint64_t)(2 * noise + 1)) - noise;
        score = score * 4 + (int)(tak_random_next(seed) % 4); /* random among equals */
        if (score > best) {
            best = score;
            choice = list.turns[i];
        }
    }
    takat_searcher_free(&s);
    return choice;
}
