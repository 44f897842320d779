/*
 * game.c: a TAKAT game with its history, for front ends: takebacks and the
 * project's repetition rule (the third occurrence of a position, i.e. of
 * board, side to move and ko, is a draw).
 */
#include "internal.h"

#include <string.h>

static TakatResult result_of(const TakatGame *game) {
    TakatResult r = takat_position_result(&game->pos);
    if (r != TAKAT_ONGOING) return r;
    return takat_game_occurrences(game) >= 3 ? TAKAT_DRAW : TAKAT_ONGOING;
}

void takat_game_init(TakatGame *game, const TakatPosition *start) {
    if (start)
        game->start = *start;
    else
        takat_position_start(&game->start);
    game->pos = game->start;
    game->count = 0;
    game->keys[0] = takat_position_key(&game->pos);
    game->result = result_of(game);
}

bool takat_game_play(TakatGame *game, TakatTurn turn, TakError *err) {
    static const char *const ends[] = {"", "White has won", "Black has won", "it is drawn"};
    if (game->result != TAKAT_ONGOING)
        return tak_error_set(err, "the game is over: %s", ends[game->result]);
    if (game->count >= TAKAT_GAME_MAX_TURNS)
        return tak_error_set(err, "the game is too long to record (%d turns)", game->count);
    if (!takat_turn_check(&game->pos, turn, err)) return false;
    game->turns[game->count++] = turn;
    takat_position_apply(&game->pos, turn);
    game->keys[game->count] = takat_position_key(&game->pos);
    game->result = result_of(game);
    return true;
}

bool takat_game_undo(TakatGame *game) {
    if (game->count == 0) return false;
    game->count--;
    game->pos = game->start;
    for (int i = 0; i < game->count; i++) takat_position_apply(&game->pos, game->turns[i]);
    game->result = result_of(game);
    return true;
}

int takat_game_occurrences(const TakatGame *game) {
    return takat_key_occurrences(game->keys, game->count + 1, game->keys[game->count]);
}
