/*
 * takat_games.c: TAKAT games on the server (the second game, src/takat):
 * created, joined by seat secret or invitation, played turn by turn, the
 * engine answering from the engine pool's workers; and their requests
 * (takat_create, takat_join, takat_turn, takat_resign). The page draws what the state
 * says; every rule (legal turns, safety, ko, forced drop) is the module's.
 * Games live in memory only, a list on the Server: a restart ends them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define TAKAT_GAMES_MAX 2000 /* beyond this, idle games are dropped */

LiveTakatGame *takat_games_find(Server *s, const char *id) {
    for (LiveTakatGame *t = s->takat_games; t; t = t->next)
        if (strcmp(t->id, id) == 0) return t;
    return NULL;
}

static void live_free(LiveTakatGame *t) {
    free(t->game);
    free(t);
}

/* Drops games nobody follows and no engine thinks for, oldest first. */
static void make_room(Server *s) {
    LiveTakatGame **p = &s->takat_games;
    while (*p && s->takat_count >= TAKAT_GAMES_MAX) {
        LiveTakatGame *t = *p;
        if (t->subs == NULL && !t->engine_busy) {
            *p = t->next;
            live_free(t);
            s->takat_count--;
        } else {
            p = &t->next;
        }
    }
}

static void engine_kick(Server *s, LiveTakatGame *t);

/* Who wins the position with perfect play, where the solved layers reach. */
static void judge(const Server *s, LiveTakatGame *t) {
    t->perfect = TAKAT_VALUE_UNKNOWN;
    if (s->takat_layers && t->game->result == TAKAT_ONGOING)
        t->perfect = takat_layers_value(s->takat_layers, &t->game->pos, NULL);
}

LiveTakatGame *takat_games_create(Server *s, int engine_color, int engine_level, TakError *err) {
    make_room(s);
    if (s->takat_count >= TAKAT_GAMES_MAX) {
        tak_error_set(err, "too many TAKAT games are being played; try again later");
        return NULL;
    }
    LiveTakatGame *t = calloc(1, sizeof *t);
    if (t) t->game = malloc(sizeof *t->game);
    if (t == NULL || t->game == NULL) {
        if (t) free(t);
        tak_error_set(err, "out of memory");
        return NULL;
    }
    do games_random_code(t->id, STORE_ID_LEN);
    while (takat_games_find(s, t->id));
    takat_game_init(t->game, NULL);
    t->engine_color = engine_color;
    t->engine_level = engine_level;
    t->resigned = -1;
    judge(s, t);
    char seed[9];
    games_random_code(seed, 8);
    for (int i = 0; i < 8; i++) t->seed = t->seed * 31 + (uint64_t)seed[i];
    /* Appended, so make_room drops the oldest first. */
    LiveTakatGame **p = &s->takat_games;
    while (*p) p = &(*p)->next;
    *p = t;
    s->takat_count++;
    engine_kick(s, t);
    return t;
}

void takat_games_free_all(Server *s) {
    while (s->takat_games) {
        LiveTakatGame *t = s->takat_games;
        s->takat_games = t->next;
        live_free(t);
    }
    s->takat_count = 0;
}

int takat_games_result(const LiveTakatGame *t) {
    if (t->resigned >= 0) return t->resigned == TAKAT_WHITE ? TAKAT_BLACK_WINS : TAKAT_WHITE_WINS;
    return (int)t->game->result;
}

/* ---- the state ------------------------------------------------------------- */

static json_t *state_json(const LiveTakatGame *t) {
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
        int winner = result == TAKAT_WHITE_WINS ? TAKAT_WHITE : TAKAT_BLACK;
        res = json_pack("{s:o, s:s}", "winner",
                        result == TAKAT_DRAW ? json_null() : json_string(games_color_name(winner)),
                        "text", text);
    }
    char posbuf[TAKAT_POSITION_MAX];
    json_t *seats = json_object();
    for (int c = 0; c < 2; c++)
        json_object_set_new(seats, games_color_name(c),
                            json_string(t->engine_color == c ? "engine"
                                        : t->secret[c][0] ? "taken"
                                                         : "open"));
    /* Perfect play's verdict, while the game goes on: the winner's colour or "draw". */
    json_t *perfect = json_null();
    if (result == TAKAT_ONGOING && t->perfect != TAKAT_VALUE_UNKNOWN)
        perfect = json_string(t->perfect == TAKAT_VALUE_DRAW ? "draw"
                              : t->perfect == TAKAT_VALUE_WIN ? games_color_name(pos->side)
                                                              : games_color_name(!pos->side));
    return json_pack("{s:s, s:s, s:o, s:o, s:s, s:o, s:s, s:o, s:[i,i], s:b, s:o, s:o, s:i, s:o, "
                     "s:o, s:i, s:b, s:s, s:o, s:o}",
                     "type", "takat_state", "game", t->id, "cells", cells, "names", names, "centre",
                     takat_cell_name(TAKAT_CENTRE), "red", red, "turn", games_color_name(pos->side), "ko",
                     pos->ko == TAKAT_NO_CELL ? json_null() : json_string(takat_cell_name(pos->ko)),
                     "reserve", takat_reserve(pos, TAKAT_WHITE), takat_reserve(pos, TAKAT_BLACK),
                     "forced_drop", takat_forced_drop(pos), "safety", safety, "legal", legal, "ply",
                     g->count, "moves", moves, "result", res, "level", t->engine_level, "thinking",
                     t->engine_busy, "position", takat_position_format(pos, posbuf), "seats", seats,
                     "perfect", perfect);
}

static void broadcast(LiveTakatGame *t) {
    if (t->subs == NULL) return;
    Outbuf *b = outbuf_json(state_json(t));
    for (Session *ss = t->subs; ss; ss = ss->tnext) session_send(ss, b);
    outbuf_release(b);
}

/* ---- followers ----------------------------------------------------------------- */

void takat_games_detach(Session *ss) {
    LiveTakatGame *t = ss->takat;
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

void takat_games_attach(Session *ss, LiveTakatGame *t, int seat) {
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

/* ---- turns and the engine ------------------------------------------------------------ */

bool takat_games_take_turn(Server *s, LiveTakatGame *t, TakatTurn turn, TakError *err) {
    if (takat_games_result(t) != TAKAT_ONGOING) return tak_error_set(err, "the game is over");
    if (!takat_game_play(t->game, turn, err)) return false;
    s->moves++;
    judge(s, t);
    engine_kick(s, t);
    broadcast(t);
    return true;
}

void takat_games_resign(Server *s, LiveTakatGame *t, int color) {
    (void)s;
    t->resigned = color;
    broadcast(t);
}

static void engine_kick(Server *s, LiveTakatGame *t) {
    if (t->engine_color < 0 || t->engine_busy || takat_games_result(t) != TAKAT_ONGOING) return;
    if ((int)t->game->pos.side != t->engine_color) return;
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
    job->level = t->engine_level;
    job->seed = t->seed++;
    t->engine_busy = true;
    engine_pool_submit(&s->pool, job);
}

void takat_games_engine_done(Server *s, EngineJob *job) {
    LiveTakatGame *t = takat_games_find(s, job->game_id);
    if (t == NULL) return;
    t->engine_busy = false;
    if (job->ply != (size_t)t->game->count || takat_games_result(t) != TAKAT_ONGOING) {
        engine_kick(s, t);
        return;
    }
    TakError err;
    if (!takat_games_take_turn(s, t, job->takat_turn, &err) && !s->config->quiet)
        fprintf(stderr, "tak serve: TAKAT engine turn in %s: %s\n", t->id, err.message);
}

/* ---- requests ---------------------------------------------------------------------- */

/* The TAKAT game the connection follows, checking a "game" field names it. */
static bool followed(const Request *r, LiveTakatGame **out) {
    const char *id;
    if (!request_str_field(r, "game", false, 64, &id)) return false;
    LiveTakatGame *t = r->ss->takat;
    if (t == NULL) return request_fail(r, "join a TAKAT game first");
    if (id && strcmp(id, t->id) != 0)
        return request_fail(r, "this connection follows game %s, not %s", t->id, id);
    *out = t;
    return true;
}

/* The followed game, for a seat holder only, while it goes on. */
static bool seated(const Request *r, LiveTakatGame **out) {
    LiveTakatGame *t = NULL;
    if (!followed(r, &t)) return false;
    if (r->ss->seat < 0) return request_fail(r, "only a player can do that (this connection watches)");
    if (takat_games_result(t) != TAKAT_ONGOING) return request_fail(r, "the game is over");
    *out = t;
    return true;
}

bool takat_games_on_create(const Request *r) {
    static const char *const opponents[] = {"friend", "engine", NULL};
    static const char *const colors[] = {"white", "black", "random", NULL};
    long level;
    int opponent, color;
    if (!request_int_field(r, "level", 1, 10, 3, &level) ||
        !request_choice_field(r, "opponent", opponents, 0, &opponent) ||
        !request_choice_field(r, "color", colors, 0, &color))
        return false;
    if (color == 2) color = games_random_color();
    TakError err;
    LiveTakatGame *t =
        takat_games_create(r->ss->server, opponent == 1 ? !color : -1, (int)level, &err);
    if (t == NULL) return request_fail(r, "%s", err.message);
    games_random_code(t->secret[color], STORE_SECRET_LEN);
    if (opponent == 0) games_random_code(t->invite, STORE_SECRET_LEN);
    request_ok_created(r, t->id, color, t->secret[color], t->invite);
    takat_games_attach(r->ss, t, color);
    return true;
}

bool takat_games_on_join(const Request *r) {
    const char *id, *secret, *invite;
    if (!request_str_field(r, "game", true, 64, &id) ||
        !request_str_field(r, "token", false, 64, &secret) ||
        !request_str_field(r, "invite", false, 64, &invite))
        return false;
    LiveTakatGame *t = secret_is_code(id, STORE_ID_LEN) ? takat_games_find(r->ss->server, id) : NULL;
    if (t == NULL)
        return request_fail(r, "no TAKAT game %s (they last until the server restarts)", id);
    int seat = -1;
    bool issued = false;
    if (secret) {
        seat = secret_seat(secret, t->secret);
        if (seat < 0) return request_fail(r, "that seat secret does not belong to game %s", id);
    } else if (invite) {
        if (!secret_same(invite, t->invite))
            return request_fail(r, "that invitation has been used already, or is not for game %s",
                                id);
        seat = secret_invited_seat(t->secret, t->engine_color);
        if (seat < 0) return request_fail(r, "cannot take the seat: none is free");
        games_random_code(t->secret[seat], STORE_SECRET_LEN);
        t->invite[0] = '\0';
        issued = true;
    }
    request_ok_joined(r, t->id, seat, issued ? t->secret[seat] : NULL);
    takat_games_attach(r->ss, t, seat);
    return true;
}

bool takat_games_on_turn(const Request *r) {
    LiveTakatGame *t = NULL;
    const char *text;
    long ply;
    if (!seated(r, &t) || !request_str_field(r, "turn", true, 16, &text) ||
        !request_int_field(r, "ply", 0, TAKAT_GAME_MAX_TURNS, -1, &ply))
        return false;
    if ((int)t->game->pos.side != r->ss->seat)
        return request_fail(r, "it is not your turn (%s is to move)",
                            games_color_name(t->game->pos.side));
    if (ply >= 0 && ply != t->game->count)
        return request_fail(r, "the game has moved on: it is at turn %d, not %ld", t->game->count,
                            ply);
    TakatTurn turn;
    TakError err;
    if (!takat_turn_parse(text, &turn, &err))
        return request_fail(r, "bad turn '%s': %s", text, err.message);
    if (!takat_games_take_turn(r->ss->server, t, turn, &err))
        return request_fail(r, "illegal turn '%s': %s", text, err.message);
    return request_ok(r, json_pack("{s:i}", "ply", t->game->count));
}

bool takat_games_on_resign(const Request *r) {
    LiveTakatGame *t = NULL;
    if (!seated(r, &t)) return false;
    takat_games_resign(r->ss->server, t, r->ss->seat);
    return request_ok(r, NULL);
}
