/*
 * takat_games.c: TAKAT games on the server (the second game, src/takat):
 * created, joined by seat secret or invitation, played turn by turn, the AI
 * answering from the engine pool's workers. The page draws what the state
 * says; every rule (legal turns, safety, ko, forced drop) is the module's.
 * Games live in memory only, a list on the Server: a restart ends them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define TAKAT_LIVE_MAX 2000 /* beyond this, idle games are dropped */

static const char *color_name(int c) { return c == TAKAT_WHITE ? "white" : "black"; }

TakatLive *takat_games_find(Server *s, const char *id) {
    for (TakatLive *t = s->takat_games; t; t = t->next)
        if (strcmp(t->id, id) == 0) return t;
    return NULL;
}

static void live_free(TakatLive *t) {
    free(t->game);
    free(t);
}

/* Drops games nobody follows and no AI thinks for, oldest first. */
static void make_room(Server *s) {
    TakatLive **p = &s->takat_games;
    while (*p && s->takat_count >= TAKAT_LIVE_MAX) {
        TakatLive *t = *p;
        if (t->subs == NULL && !t->ai_busy) {
            *p = t->next;
            live_free(t);
            s->takat_count--;
        } else {
            p = &t->next;
        }
    }
}

static void ai_kick(Server *s, TakatLive *t);

/* Who wins the position with perfect play, where the solved layers reach. */
static void judge(const Server *s, TakatLive *t) {
    t->perfect = TAKAT_VALUE_UNKNOWN;
    if (s->takat_layers && t->game->result == TAKAT_ONGOING)
        t->perfect = takat_layers_value(s->takat_layers, &t->game->pos, NULL);
}

TakatLive *takat_games_create(Server *s, int ai_color, int level, TakError *err) {
    make_room(s);
    if (s->takat_count >= TAKAT_LIVE_MAX) {
        tak_error_set(err, "too many TAKAT games are being played; try again later");
        return NULL;
    }
    TakatLive *t = calloc(1, sizeof *t);
    if (t) t->game = malloc(sizeof *t->game);
    if (t == NULL || t->game == NULL) {
        if (t) free(t);
        tak_error_set(err, "out of memory");
        return NULL;
    }
    do random_token(t->id, STORE_ID_LEN);
    while (takat_games_find(s, t->id));
    takat_game_init(t->game, NULL);
    t->ai_color = ai_color;
    t->level = level;
    t->resigned = -1;
    judge(s, t);
    char seed[9];
    random_token(seed, 8);
    for (int i = 0; i < 8; i++) t->seed = t->seed * 31 + (uint64_t)seed[i];
    /* Appended, so make_room drops the oldest first. */
    TakatLive **p = &s->takat_games;
    while (*p) p = &(*p)->next;
    *p = t;
    s->takat_count++;
    ai_kick(s, t);
    return t;
}

void takat_games_free_all(Server *s) {
    while (s->takat_games) {
        TakatLive *t = s->takat_games;
        s->takat_games = t->next;
        live_free(t);
    }
    s->takat_count = 0;
}

int takat_games_result(const TakatLive *t) {
    if (t->resigned >= 0) return t->resigned == TAKAT_WHITE ? TAKAT_BLACK_WINS : TAKAT_WHITE_WINS;
    return (int)t->game->result;
}

/* ---- the state ------------------------------------------------------------- */

static json_t *state_json(const TakatLive *t) {
    const TakatGame *g = t->game;
    const TakatPosition *pos = &g->pos;
    json_t *cells = json_array(), *names = json_array(), *red = json_array(),
           *safety = json_array();
    for (int c = 0; c < TAKAT_CELLS; c++) {
        char stack[TAKAT_MAX_HEIGHT + 1];
        int h = pos->height[c];
        for (int l = 0; l < h; l++) stack[l] = takat_stone(pos, c, l) == TAKAT_WHITE ? '1' : '2';
        stack[h] = '\0';
        json_array_append_new(cells, json_string(stack));
        json_array_append_new(names, json_string(takat_cell_name(c)));
        if (takat_cell_is_red(c)) json_array_append_new(red, json_string(takat_cell_name(c)));
        static const char *const kinds[] = {"unsafe", "temporary", "permanent"};
        json_array_append_new(safety, json_string(h ? kinds[takat_safety(pos, c)] : "unsafe"));
    }
    int result = takat_games_result(t);
    json_t *legal = json_array(), *moves = json_array();
    if (result == TAKAT_ONGOING) {
        TakatTurnList list;
        int n = takat_turns_generate(pos, &list);
        for (int i = 0; i < n; i++) {
            char text[TAKAT_TURN_MAX];
            json_array_append_new(legal, json_string(takat_turn_format(list.turns[i], text)));
        }
    }
    for (int i = 0; i < g->count; i++) {
        char text[TAKAT_TURN_MAX];
        json_array_append_new(moves, json_string(takat_turn_format(g->turns[i], text)));
    }
    json_t *res = json_null();
    if (result != TAKAT_ONGOING) {
        const char *text =
            result == TAKAT_DRAW ? "Draw by the third repetition"
            : t->resigned >= 0   ? (result == TAKAT_WHITE_WINS ? "White wins: Black resigned"
                                                               : "Black wins: White resigned")
            : result == TAKAT_WHITE_WINS && takat_has_six(pos) ? "White wins: a stack of six"
            : result == TAKAT_WHITE_WINS                       ? "White wins: Black cannot move"
                                                               : "Black wins: White cannot move";
        res = json_pack("{s:o, s:s}", "winner",
                        result == TAKAT_DRAW
                            ? json_null()
                            : json_string(result == TAKAT_WHITE_WINS ? "white" : "black"),
                        "text", text);
    }
    char posbuf[TAKAT_POSITION_MAX];
    json_t *seats = json_object();
    for (int c = 0; c < 2; c++)
        json_object_set_new(seats, color_name(c),
                            json_string(t->ai_color == c ? "engine"
                                        : t->token[c][0] ? "taken"
                                                         : "open"));
    /* Perfect play's verdict, while the game goes on: the winner's colour or "draw". */
    json_t *perfect = json_null();
    if (result == TAKAT_ONGOING && t->perfect != TAKAT_VALUE_UNKNOWN)
        perfect = json_string(t->perfect == TAKAT_VALUE_DRAW ? "draw"
                              : t->perfect == TAKAT_VALUE_WIN ? color_name(pos->side)
                                                              : color_name(!pos->side));
    return json_pack("{s:s, s:s, s:o, s:o, s:s, s:o, s:s, s:o, s:[i,i], s:b, s:o, s:o, s:i, s:o, "
                     "s:o, s:i, s:b, s:s, s:o, s:o}",
                     "type", "takat_state", "game", t->id, "cells", cells, "names", names, "centre",
                     takat_cell_name(TAKAT_CENTRE), "red", red, "turn", color_name(pos->side), "ko",
                     pos->ko == TAKAT_NO_CELL ? json_null() : json_string(takat_cell_name(pos->ko)),
                     "reserve", takat_reserve(pos, TAKAT_WHITE), takat_reserve(pos, TAKAT_BLACK),
                     "forced_drop", takat_forced_drop(pos), "safety", safety, "legal", legal, "ply",
                     g->count, "moves", moves, "result", res, "level", t->level, "thinking",
                     t->ai_busy, "position", takat_position_format(pos, posbuf), "seats", seats,
                     "perfect", perfect);
}

static void broadcast(TakatLive *t) {
    if (t->subs == NULL) return;
    Outbuf *b = outbuf_json(state_json(t));
    for (Session *ss = t->subs; ss; ss = ss->tnext) session_send(ss, b);
    outbuf_release(b);
}

/* ---- followers ----------------------------------------------------------------- */

void takat_games_detach(Session *ss) {
    TakatLive *t = ss->takat;
    if (t == NULL) return;
    if (ss->tprev)
        ss->tprev->tnext = ss->tnext;
    else
        t->subs = ss->tnext;
    if (ss->tnext) ss->tnext->tprev = ss->tprev;
    ss->tprev = ss->tnext = NULL;
    ss->takat = NULL;
    ss->seat = -1;
}

void takat_games_attach(Session *ss, TakatLive *t, int seat) {
    session_detach(ss); /* a connection follows one game of either kind */
    if (ss->takat != t) {
        takat_games_detach(ss);
        ss->takat = t;
        ss->tnext = t->subs;
        if (t->subs) t->subs->tprev = ss;
        t->subs = ss;
    }
    ss->seat = seat;
    /* Everyone gets the state again: cheap, and seats may have changed. */
    broadcast(t);
}

/* ---- turns and the AI --------------------------------------------------------------- */

bool takat_games_play(Server *s, TakatLive *t, TakatTurn turn, TakError *err) {
    if (takat_games_result(t) != TAKAT_ONGOING) return tak_error_set(err, "the game is over");
    if (!takat_game_play(t->game, turn, err)) return false;
    s->moves++;
    judge(s, t);
    ai_kick(s, t);
    broadcast(t);
    return true;
}

void takat_games_resign(Server *s, TakatLive *t, int color) {
    (void)s;
    t->resigned = color;
    broadcast(t);
}

static void ai_kick(Server *s, TakatLive *t) {
    if (t->ai_color < 0 || t->ai_busy || takat_games_result(t) != TAKAT_ONGOING) return;
    if ((int)t->game->pos.side != t->ai_color) return;
    EngineJob *job = calloc(1, sizeof *job);
    if (job == NULL) return;
    job->kind = JOB_TAKAT;
    memcpy(job->game_id, t->id, sizeof job->game_id);
    job->takat = malloc(sizeof *job->takat);
    if (job->takat == NULL) {
        free(job);
        return;
    }
    *job->takat = *t->game;
    job->ply = (size_t)t->game->count;
    job->level = t->level;
    job->seed = t->seed++;
    t->ai_busy = true;
    engine_pool_submit(&s->pool, job);
}

void takat_games_ai_done(Server *s, EngineJob *job) {
    TakatLive *t = takat_games_find(s, job->game_id);
    if (t == NULL) return;
    t->ai_busy = false;
    if (job->ply != (size_t)t->game->count || takat_games_result(t) != TAKAT_ONGOING) {
        ai_kick(s, t);
        return;
    }
    TakError err;
    if (!takat_games_play(s, t, job->takat_turn, &err) && !s->config->quiet)
        fprintf(stderr, "tak serve: TAKAT AI turn in %s: %s\n", t->id, err.message);
}
