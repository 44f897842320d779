/*
 * levels.c: the TAKAT AI's levels. Level 10 plays perfectly from the solved
 * table when it holds the position (the winner takes the fastest win, the
 * loser the slowest loss, a drawn side keeps the draw), else it searches
 * deep. Lower levels search less deep, judge the horizon by mobility and
 * blur their scores with noise, and now and then play a turn at random: the
 * kind of mistakes people make.
 */
#include "internal.h"

#include <stdint.h>
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

/* Whether the side to move in `pos` (key `key`, not yet among `keys`) has a
 * turn to a position that would then stand a third time: a draw. */
static bool draw_reply(const TakatPosition *pos, const uint64_t *keys, int key_count,
                       uint64_t key) {
    TakatTurnList list;
    int n = takat_turns_generate(pos, &list);
    for (int i = 0; i < n; i++) {
        TakatPosition next = *pos;
        takat_position_apply(&next, list.turns[i]);
        uint64_t k = takat_position_key(&next);
        if (takat_key_occurrences(keys, key_count, k) + (k == key) >= 2) return true;
    }
    return false;
}

/* A turn that keeps the position's value by the layered tables (a won
 * position stays won, a drawn one drawn), chosen among those by: the
 * fastest win or slowest loss the search sees; for the winner, never a
 * third occurrence (a draw) nor a turn the loser can answer with one, then
 * a position new to the game before one seen, then a drop before a move (a
 * drop is never undone: progress); the loser likes a repetition. `keys` are the game's positions so far (may be
 * NULL). False when a table is missing. */
static bool choose_layers(const TakatPosition *pos, const TakatTurnList *list, TakatLayers *layers,
                          const uint64_t *keys, int key_count, uint64_t *seed, TakatTurn *out) {
    TakError err;
    TakatValue v = takat_layers_value(layers, pos, &err);
    if (v == TAKAT_VALUE_UNKNOWN) return false;
    TakatValue want = v == TAKAT_VALUE_WIN    ? TAKAT_VALUE_LOSS
                      : v == TAKAT_VALUE_DRAW ? TAKAT_VALUE_DRAW
                                              : TAKAT_VALUE_WIN;
    TakatSearcher s;
    takat_searcher_init(&s, 16, true);
    int64_t best = INT64_MIN;
    for (int i = 0; i < list->count; i++) {
        TakatPosition next = *pos;
        takat_position_apply(&next, list->turns[i]);
        TakatValue cv = takat_layers_value(layers, &next, &err);
        if (cv == TAKAT_VALUE_UNKNOWN) {
            takat_searcher_free(&s);
            return false;
        }
        if (cv != want) continue;
        uint64_t key = takat_position_key(&next);
        int seen = keys ? takat_key_occurrences(keys, key_count, key) : 0;
        if (keys && v == TAKAT_VALUE_WIN && seen < 2 && draw_reply(&next, keys, key_count, key))
            seen = 2; /* the loser could answer with a third occurrence */
        int64_t score = -takat_negamax(&s, &next, 5, 1, -TAKAT_MATE - 1, TAKAT_MATE + 1);
        if (v == TAKAT_VALUE_WIN)
            score = score * 64 - (seen >= 2) * ((int64_t)1 << 40) + (seen == 0) * 16 +
                    takat_is_drop(list->turns[i]) * 8;
        else
            score = score * 64 + (seen >= 2) * 16;
        score += (int64_t)(tak_random_next(seed) % 4);
        if (score > best) {
            best = score;
            *out = list->turns[i];
        }
    }
    takat_searcher_free(&s);
    return best != INT64_MIN; /* (a value the tables hold always has such a turn) */
}

static TakatTurn choose(const TakatPosition *pos, const uint64_t *keys, int key_count, int level,
                        const TakatSolution *sol, TakatLayers *layers, uint64_t *seed) {
    TakatTurnList list;
    int n = takat_turns_generate(pos, &list);
    TakatTurn choice = n > 0 ? list.turns[0] : takat_drop(0);
    if (n <= 1) return choice;
    if (level < 1) level = 1;
    if (level > 10) level = 10;
    if (level == 10 && sol && takat_solution_value(sol, pos, NULL) != TAKAT_VALUE_UNKNOWN &&
        choose_solved(pos, &list, sol, seed, &choice))
        return choice;
    if (level == 10 && layers && choose_layers(pos, &list, layers, keys, key_count, seed, &choice))
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

TakatTurn takat_ai_choose(const TakatPosition *pos, int level, const TakatSolution *sol,
                          TakatLayers *layers, uint64_t *seed) {
    return choose(pos, NULL, 0, level, sol, layers, seed);
}

TakatTurn takat_ai_choose_in_game(const TakatGame *game, int level, const TakatSolution *sol,
                                  TakatLayers *layers, uint64_t *seed) {
    return choose(&game->pos, game->keys, game->count + 1, level, sol, layers, seed);
}
