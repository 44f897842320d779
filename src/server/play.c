/*
 * play.c: the requests of a game's players: create (with a TPS or a PTN to
 * start from), join (by seat secret, invitation or identity), leave, move,
 * takebacks and draws offered and answered, resign; and matches: the next
 * game (rematch) and the match table (score). Each handler reads its
 * fields, asks games.c to change the game, and replies (request.h).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tak/score.h"

#define MATCH_GAMES_MAX 25 /* games in a match */

/* The followed game, for a seat holder only, while it goes on. */
static bool seated(const Request *r, LiveGame **out) {
    LiveGame *g = NULL;
    if (!request_followed(r, &g)) return false;
    if (r->ss->seat < 0)
        return request_fail(r, "only a player can do that (this connection watches)");
    if (tak_game_result(&g->game).end != TAK_END_NONE) return request_fail(r, "the game is over");
    *out = g;
    return true;
}

static bool against_engine(const LiveGame *g) { return g->info.engine_color >= 0; }

/* The server's clock rides on the reply, so a page can show game clocks right. */
bool play_on_ping(const Request *r) {
    return request_ok(r, json_pack("{s:I}", "now_ms", (json_int_t)clock_now_ms()));
}

/* A game's start from a "ptn" (its rules, moves and result) into info. */
static bool start_from_ptn(const Request *r, const char *text, StoredGame *info) {
    TakPtn ptn;
    TakError err;
    memset(&ptn, 0, sizeof ptn);
    if (!tak_ptn_read(text, strlen(text), &ptn, &err)) {
        char where[TAK_ERROR_MESSAGE_MAX + 40];
        tak_ptn_free(&ptn);
        return request_fail(r, "bad PTN: %s", tak_error_describe(&err, where, sizeof where));
    }
    bool ok = games_import_ptn(&ptn, text, info, &err);
    tak_ptn_free(&ptn);
    if (!ok) return request_fail(r, "%s", err.message);
    return true;
}

/* A game's start from a "tps" (NULL: the empty board of "size") and the rule fields into info. */
static bool start_from_tps(const Request *r, const char *tps, long size, StoredGame *info) {
    TakError err;
    if (tps) {
        TakPosition probe;
        if (!tak_tps_read(tps, NULL, &probe, &err))
            return request_fail(r, "bad TPS: %s", err.message);
        size = tak_position_size(&probe);
    }
    if (!request_rules(r, (int)size, &info->rules)) return false;
    if (tps) {
        TakPosition start;
        if (!tak_tps_read(tps, &info->rules, &start, &err))
            return request_fail(r, "bad TPS: %s", err.message);
        tak_tps_write(&start, info->start_tps, sizeof info->start_tps);
    }
    info->winner = -1;
    return true;
}

bool play_on_create(const Request *r) {
    static const char *const opponents[] = {"friend", "engine", NULL};
    static const char *const colors[] = {"white", "black", "random", NULL};
    long size, level;
    int opponent, color;
    const char *tps, *ptn;
    if (!request_int_field(r, "size", TAK_MIN_SIZE, TAK_MAX_SIZE, 5, &size) ||
        !request_int_field(r, "level", TAK_LEVEL_MIN, TAK_LEVEL_MAX, 3, &level) ||
        !request_choice_field(r, "opponent", opponents, 0, &opponent) ||
        !request_choice_field(r, "color", colors, 0, &color) ||
        !request_str_field(r, "tps", false, TAK_TPS_MAX - 1, &tps) ||
        !request_str_field(r, "ptn", false, MESSAGE_MAX, &ptn))
        return false;
    if (tps && ptn) return request_fail(r, "give a TPS or a PTN, not both");
    StoredClock clock;
    SeatPlayer player;
    if (!request_clock(r, &clock) || !players_of_request(r, &player)) return false;
    if (color == 2) color = games_random_color();

    StoredGame info;
    memset(&info, 0, sizeof info);
    if (!(ptn ? start_from_ptn(r, ptn, &info) : start_from_tps(r, tps, size, &info))) {
        stored_game_free(&info);
        return false;
    }
    games_random_code(info.id, STORE_ID_LEN);
    games_random_code(info.secret[color], STORE_SECRET_LEN);
    info.clock = clock;
    players_seat(&info, color, &player);
    info.engine_color = -1;
    info.engine_level = (int)level;
    if (opponent == 1)
        info.engine_color = !color;
    else
        games_random_code(info.invite, STORE_SECRET_LEN);

    TakError err;
    LiveGame *g = games_create(r->ss->server, &info, NULL, &err);
    stored_game_free(&info);
    if (g == NULL) return request_fail(r, "cannot create the game: %s", err.message);
    request_ok_created(r, g->info.id, color, g->info.secret[color], g->info.invite);
    session_attach(r->ss, g, color);
    return true;
}

/* The seat of g held by the connection's player (who may have lost its
 * secret: a new browser with the same identity), or -1. */
static int seat_of_player(const Session *ss, const LiveGame *g) {
    for (int c = 0; ss->player && c < 2; c++)
        if (g->info.player[c] == ss->player) return c;
    return -1;
}

bool play_on_join(const Request *r) {
    const char *id, *secret, *invite;
    SeatPlayer player;
    memset(&player, 0, sizeof player);
    if (!request_str_field(r, "game", true, 64, &id) ||
        !request_str_field(r, "token", false, 64, &secret) ||
        !request_str_field(r, "invite", false, 64, &invite))
        return false;
    /* Who takes the seat an invitation gives (a store read: only then). */
    if (invite && !secret && !players_of_request(r, &player)) return false;
    if (!secret_is_code(id, STORE_ID_LEN)) return request_fail(r, "no game %s", id);
    TakError err;
    Server *s = r->ss->server;
    LiveGame *g = games_find(s, id, &err);
    if (g == NULL) return request_fail(r, "%s", err.message);
    int seat = -1;
    bool issued = false;
    if (secret) {
        seat = secret_seat(secret, g->info.secret);
        if (seat < 0) {
            games_unload_if_idle(s, g);
            return request_fail(r, "that seat secret does not belong to game %s", id);
        }
    } else if (invite) {
        if (!secret_same(invite, g->info.invite)) {
            games_unload_if_idle(s, g);
            return request_fail(r, "that invitation has been used already, or is not for game %s",
                                id);
        }
        seat = secret_invited_seat(g->info.secret, g->info.engine_color);
        if (seat < 0 || !games_take_seat(s, g, seat, &player, &err)) {
            games_unload_if_idle(s, g);
            return request_fail(r, "cannot take the seat: %s",
                                seat < 0 ? "none is free" : err.message);
        }
        issued = true;
    } else if ((seat = seat_of_player(r->ss, g)) >= 0) {
        issued = true; /* the seat's secret, for a page that lost it */
    }
    request_ok_joined(r, g->info.id, seat, issued ? g->info.secret[seat] : NULL);
    session_attach(r->ss, g, seat);
    if (issued) {
        games_changed(s, g); /* everyone sees the seat taken */
        lobby_changed(s);
    }
    return true;
}

bool play_on_leave(const Request *r) {
    LiveGame *g = NULL;
    if (!request_followed(r, &g)) return false;
    session_detach(r->ss);
    return request_ok(r, NULL);
}

bool play_on_move(const Request *r) {
    LiveGame *g = NULL;
    const char *text;
    long ply;
    if (!seated(r, &g) || !request_str_field(r, "move", true, 32, &text) ||
        !request_int_field(r, "ply", 0, 100000000, -1, &ply))
        return false;
    int seat = r->ss->seat;
    if ((int)tak_position_side(&g->game.current) != seat)
        return request_fail(r, "it is not your turn (%s is to move)",
                            games_color_name(tak_position_side(&g->game.current)));
    if (ply >= 0 && (size_t)ply != g->game.count)
        return request_fail(r, "the game has moved on: it is at ply %zu, not %ld", g->game.count,
                            ply);
    TakMove move;
    TakError err;
    if (!tak_move_parse(&g->game.current, text, &move, &err))
        return request_fail(r, "illegal move '%s': %s", text, err.message);
    if (!games_play(r->ss->server, g, move, &err)) return request_fail(r, "%s", err.message);
    return request_ok(r, json_pack("{s:I}", "ply", (json_int_t)g->game.count));
}

/* Takes back `who`'s last move and anything played after it. */
static bool take_back(const Request *r, LiveGame *g, int who) {
    TakError err;
    if (!games_take_back(r->ss->server, g, who, &err)) return request_fail(r, "%s", err.message);
    return request_ok(r, json_pack("{s:I}", "ply", (json_int_t)g->game.count));
}

bool play_on_takeback(const Request *r) {
    LiveGame *g = NULL;
    if (!seated(r, &g)) return false;
    int seat = r->ss->seat;
    if (against_engine(g)) return take_back(r, g, seat);
    if (g->game.count == 0 ||
        (g->game.count == 1 && (int)tak_position_side(&g->game.current) == seat))
        return request_fail(r, "there is no move of yours to take back");
    if (g->offer[OFFER_TAKEBACK] == seat) return request_fail(r, "you have asked already");
    g->offer[OFFER_TAKEBACK] = seat;
    games_changed(r->ss->server, g);
    return request_ok(r, NULL);
}

/* Ends g drawn by agreement. */
static bool agree_draw(const Request *r, LiveGame *g) {
    TakError err;
    if (!games_end(r->ss->server, g, TAK_END_AGREEMENT, -1, &err))
        return request_fail(r, "%s", err.message);
    return request_ok(r, NULL);
}

bool play_on_draw(const Request *r) {
    LiveGame *g = NULL;
    if (!seated(r, &g)) return false;
    int seat = r->ss->seat;
    if (against_engine(g)) return request_fail(r, "the engine plays on: it does not take draws");
    if (g->offer[OFFER_DRAW] == !seat) return agree_draw(r, g);
    if (g->offer[OFFER_DRAW] == seat) return request_fail(r, "you have offered a draw already");
    g->offer[OFFER_DRAW] = seat;
    games_changed(r->ss->server, g);
    return request_ok(r, NULL);
}

static bool answer(const Request *r, bool accept) {
    static const char *const whats[] = {"draw", "takeback", NULL};
    int what;
    LiveGame *g = NULL;
    if (!seated(r, &g) || !request_choice_field(r, "what", whats, -1, &what)) return false;
    if (what < 0) return request_fail(r, "'what' is missing (draw or takeback)");
    int seat = r->ss->seat;
    if (g->offer[what] != !seat)
        return request_fail(r, "your opponent has not offered a %s", whats[what]);
    if (!accept) {
        g->offer[what] = OFFER_DECLINED + g->offer[what]; /* the offerer is told */
        games_changed(r->ss->server, g);
        return request_ok(r, NULL);
    }
    return what == OFFER_DRAW ? agree_draw(r, g) : take_back(r, g, !seat);
}

bool play_on_accept(const Request *r) { return answer(r, true); }
bool play_on_decline(const Request *r) { return answer(r, false); }

bool play_on_resign(const Request *r) {
    LiveGame *g = NULL;
    if (!seated(r, &g)) return false;
    TakError err;
    if (!games_end(r->ss->server, g, TAK_END_RESIGNATION, !r->ss->seat, &err))
        return request_fail(r, "%s", err.message);
    return request_ok(r, NULL);
}

/* ---- matches: games in a row, first player alternating, the rule book's
 * scoring (tak/score.h). Nothing is stored beyond the games: the next game
 * of a match has an id derived from the previous one's, so either player
 * (and a page reloaded after a restart) finds it again. */

/* The id of the game after `id` in a match (ids are public anyway). */
static void next_game_id(const char *id, char out[STORE_ID_LEN + 1]) {
    static const char alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
    uint64_t h = 1469598103934665603ull; /* FNV-1a over "next:" and the id */
    for (const char *p = "next:"; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (const char *p = id; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (int i = 0; i < STORE_ID_LEN; i++) {
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ull;
        out[i] = alphabet[(h >> 59) & 31];
    }
    out[STORE_ID_LEN] = '\0';
}

/* Whether `next` is the rematch of `g`: the same players, colours swapped. */
static bool is_rematch(const LiveGame *g, const LiveGame *next) {
    for (int c = 0; c < 2; c++)
        if (strcmp(g->info.secret[c], next->info.secret[!c]) != 0) return false;
    return next->info.engine_color == (g->info.engine_color < 0 ? -1 : !g->info.engine_color);
}

/* Creates the game after g in its match, with the id `id`: the same rules
 * and opponent, colours swapped (so the first player alternates). */
static LiveGame *create_next(Server *s, const LiveGame *g, const char *id, TakError *err) {
    StoredGame info;
    memset(&info, 0, sizeof info);
    memcpy(info.id, id, sizeof info.id);
    info.rules = g->info.rules;
    memcpy(info.start_tps, g->info.start_tps, sizeof info.start_tps);
    for (int c = 0; c < 2; c++) memcpy(info.secret[c], g->info.secret[!c], sizeof info.secret[c]);
    memcpy(info.invite, g->info.invite, sizeof info.invite);
    info.engine_color = g->info.engine_color < 0 ? -1 : !g->info.engine_color;
    info.engine_level = g->info.engine_level;
    info.clock = g->info.clock;
    for (int c = 0; c < 2; c++) {
        /* The same players, with their ratings now (the last game may have changed them). */
        memcpy(info.name[c], g->info.name[!c], sizeof info.name[c]);
        info.player[c] = g->info.player[!c];
        info.rating[c] = players_rating_now(s, g->info.player[!c], g->info.rating[!c]);
    }
    info.rated = g->info.rated;
    info.winner = -1;
    return games_create(s, &info, NULL, err);
}

/* The next game of a match, after the followed one ends. Created by
 * whichever player asks first; the other joins it by asking too. The other
 * followers of the finished game are told with a "next" message. */
bool play_on_rematch(const Request *r) {
    long number, of;
    LiveGame *g = NULL;
    if (!request_followed(r, &g) ||
        !request_int_field(r, "number", 2, MATCH_GAMES_MAX, 2, &number) ||
        !request_int_field(r, "of", 2, MATCH_GAMES_MAX, 2, &of))
        return false;
    if (number > of) return request_fail(r, "'number' is past the match's %ld games", of);
    int seat = r->ss->seat;
    if (seat < 0) return request_fail(r, "only a player can do that (this connection watches)");
    if (tak_game_result(&g->game).end == TAK_END_NONE)
        return request_fail(r, "the game is not over yet");
    Server *s = r->ss->server;
    char id[STORE_ID_LEN + 1];
    next_game_id(g->info.id, id);
    TakError err;
    bool created = false;
    LiveGame *next = games_find(s, id, &err);
    if (next && !is_rematch(g, next)) {
        games_unload_if_idle(s, next);
        return request_fail(r, "cannot continue this match (game %s is another one)", id);
    }
    if (next == NULL) {
        next = create_next(s, g, id, &err);
        if (next == NULL) return request_fail(r, "cannot create the next game: %s", err.message);
        created = true;
    }
    int new_seat = !seat;
    json_t *reply = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i}", "game", next->info.id, "from",
                              g->info.id, "seat", games_color_name(new_seat), "token",
                              next->info.secret[new_seat], "number", (int)number, "of", (int)of);
    if (next->info.invite[0]) json_object_set_new(reply, "invite", json_string(next->info.invite));
    if (created)
        for (Session *o = g->subs; o; o = o->next)
            if (o != r->ss)
                session_send_json(o, json_pack("{s:s, s:s, s:s, s:i, s:i}", "type", "next", "game",
                                               next->info.id, "from", g->info.id, "number",
                                               (int)number, "of", (int)of));
    request_ok(r, reply);
    session_attach(r->ss, next, new_seat);
    return true;
}

/* A match table's row: the game's result and the points its winner scores
 * (the board's squares plus the winner's reserve). */
static json_t *score_row(const LiveGame *g) {
    TakResult res = tak_game_result(&g->game);
    json_t *row = json_pack("{s:s, s:I}", "game", g->info.id, "plies", (json_int_t)g->game.count);
    if (res.end == TAK_END_NONE) {
        json_object_set_new(row, "result", json_null());
        return row;
    }
    json_object_set_new(row, "result", json_string(tak_result_code(res)));
    json_object_set_new(row, "winner",
                        res.winner < 0 ? json_null() : json_string(games_color_name(res.winner)));
    json_object_set_new(row, "points", json_integer(tak_score_points(&g->game.current, res)));
    return row;
}

bool play_on_score(const Request *r) {
    json_t *ids = json_object_get(r->msg, "games");
    if (!json_is_array(ids) || json_array_size(ids) < 1 || json_array_size(ids) > MATCH_GAMES_MAX)
        return request_fail(r, "'games' must be a list of 1 to %d game ids", MATCH_GAMES_MAX);
    Server *s = r->ss->server;
    json_t *rows = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(ids, i, v) {
        const char *id = json_is_string(v) ? json_string_value(v) : "";
        TakError err;
        LiveGame *g = secret_is_code(id, STORE_ID_LEN) ? games_find(s, id, &err) : NULL;
        if (g == NULL) {
            json_decref(rows);
            return request_fail(r, "no game %.20s", id);
        }
        json_array_append_new(rows, score_row(g));
        games_unload_if_idle(s, g);
    }
    return request_ok(r, json_pack("{s:o}", "rows", rows));
}
