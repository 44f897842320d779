/* game.c: a game's history, takebacks, repetition and endings off the board. */
#include "tak/game.h"

#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

static const TakResult no_result = {TAK_END_NONE, -1};

bool tak_game_init(TakGame *game, const TakPosition *start, TakError *err) {
    game->start = *start;
    game->current = *start;
    game->count = 0;
    game->capacity = 64;
    game->ended = no_result;
    game->moves = malloc(game->capacity * sizeof *game->moves);
    game->hashes = malloc((game->capacity + 1) * sizeof *game->hashes);
    if (!game->moves || !game->hashes) {
        tak_game_free(game);
        return tak_error_set(err, "out of memory");
    }
    game->hashes[0] = start->hash;
    return true;
}

void tak_game_free(TakGame *game) {
    free(game->moves);
    free(game->hashes);
    game->moves = NULL;
    game->hashes = NULL;
    game->count = game->capacity = 0;
}

TakResult tak_game_result(const TakGame *game) {
    if (game->current.result.end != TAK_END_NONE) return game->current.result;
    return game->ended;
}

static bool game_is_over(const TakGame *game) {
    return tak_game_result(game).end != TAK_END_NONE;
}

static bool game_grow(TakGame *game) {
    if (game->count < game->capacity) return true;
    size_t capacity = game->capacity * 2;
    TakMove *moves = realloc(game->moves, capacity * sizeof *moves);
    if (!moves) return false;
    game->moves = moves;
    uint64_t *hashes = realloc(game->hashes, (capacity + 1) * sizeof *hashes);
    if (!hashes) return false;
    game->hashes = hashes;
    game->capacity = capacity;
    return true;
}

int tak_game_occurrences(const TakGame *game) {
    /* Positions with equal hashes are taken as equal: with 64-bit keys a
     * false match in one game is far less likely than a hardware fault. */
    uint64_t now = game->hashes[game->count];
    int seen = 0;
    for (size_t i = 0; i <= game->count; i++) seen += game->hashes[i] == now;
    return seen;
}

bool tak_game_play(TakGame *game, TakMove move, TakError *err) {
    if (game_is_over(game)) return tak_error_set(err, "the game is over");
    if (!tak_move_check(&game->current, move, err)) return false;
    if (!game_grow(game)) return tak_error_set(err, "out of memory");
    TakUndo undo;
    tak_position_make(&game->current, move, &undo);
    game->moves[game->count++] = move;
    game->hashes[game->count] = game->current.hash;
    if (game->current.rules.repetition_draw && game->current.result.end == TAK_END_NONE &&
        tak_game_occurrences(game) >= 3) {
        game->ended.end = TAK_END_REPETITION;
        game->ended.winner = -1;
    }
    return true;
}

bool tak_game_undo(TakGame *game) {
    if (game->count == 0) return false;
    /* Replaying from the start needs no undo records to be kept, and
     * takebacks are rare enough that the cost does not matter. */
    TakPosition pos = game->start;
    for (size_t i = 0; i + 1 < game->count; i++) {
        TakUndo undo;
        tak_position_make(&pos, game->moves[i], &undo);
    }
    game->current = pos;
    game->count--;
    game->ended = no_result;
    return true;
}

bool tak_game_end(TakGame *game, TakEnd end, int winner) {
    if (game_is_over(game)) return false;
    if (end == TAK_END_AGREEMENT || end == TAK_END_REPETITION) winner = -1;
    else if (end != TAK_END_RESIGNATION && end != TAK_END_TIME) return false;
    else if (winner != TAK_WHITE && winner != TAK_BLACK) return false;
    game->ended.end = end;
    game->ended.winner = winner;
    return true;
}

const char *tak_result_code(TakResult result) {
    switch (result.end) {
    case TAK_END_NONE: return "*";
    case TAK_END_ROAD: return result.winner == TAK_WHITE ? "R-0" : "0-R";
    case TAK_END_BOARD_FULL:
    case TAK_END_RESERVES:
        return result.winner == TAK_WHITE ? "F-0" : result.winner == TAK_BLACK ? "0-F" : "1/2-1/2";
    case TAK_END_RESIGNATION:
    case TAK_END_TIME: return result.winner == TAK_WHITE ? "1-0" : "0-1";
    default: return "1/2-1/2";
    }
}

const char *tak_result_describe(TakResult result, char *buf, size_t cap) {
    const char *who = result.winner == TAK_WHITE || result.winner == TAK_BLACK
                          ? tak_color_name(result.winner) : NULL;
    switch (result.end) {
    case TAK_END_NONE: snprintf(buf, cap, "Game in progress"); break;
    case TAK_END_ROAD: snprintf(buf, cap, "%s wins by road", who ? who : "Nobody"); break;
    case TAK_END_BOARD_FULL:
    case TAK_END_RESERVES:
        if (who)
            snprintf(buf, cap, "%s wins on flats (%s)", who,
                     result.end == TAK_END_BOARD_FULL ? "board full" : "a reserve ran out");
        else
            snprintf(buf, cap, "Draw on flats (%s)",
                     result.end == TAK_END_BOARD_FULL ? "board full" : "a reserve ran out");
        break;
    case TAK_END_REPETITION: snprintf(buf, cap, "Draw by threefold repetition"); break;
    case TAK_END_RESIGNATION: snprintf(buf, cap, "%s wins by resignation", who ? who : "Nobody"); break;
    case TAK_END_TIME: snprintf(buf, cap, "%s wins on time", who ? who : "Nobody"); break;
    case TAK_END_AGREEMENT: snprintf(buf, cap, "Draw by agreement"); break;
    }
    return buf;
}
