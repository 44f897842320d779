/*
 * protocol.c: the WebSocket messages. Each message is one JSON object with a
 * "type" and, optionally, a "req" (a number or short string) that its reply
 * repeats; every request gets exactly one reply, "ok" (with its results) or
 * "error" (with a message for people), and the connection stays usable after
 * an error. Game states ("state") are pushed to every follower of a game.
 * The messages are listed in docs/server.md.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "tak/score.h"

static void send_reply(Session *ss, json_t *req, json_t *reply) {
    if (req) json_object_set(reply, "req", req);
    session_send_json(ss, reply);
}

/* Replaces each byte that does not start or continue a valid UTF-8 sequence
 * with '?'. Error messages quote the client's text cut at a byte count
 * ("%.20s"), which can split a character; jansson (rightly) refuses a string
 * that is not UTF-8, and the reply would be lost. */
static void utf8_repair(char *text) {
    unsigned char *p = (unsigned char *)text;
    while (*p) {
        int len = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3
                               : (*p & 0xF8) == 0xF0 ? 4 : 0;
        bool valid = len > 0 && !(len == 2 && *p < 0xC2) && !(len == 4 && *p > 0xF4);
        for (int i = 1; valid && i < len; i++) valid = (p[i] & 0xC0) == 0x80;
        if (valid && len == 3) {
            unsigned cp = (p[0] & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
            valid = cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF);
        } else if (valid && len == 4) {
            unsigned cp = (p[0] & 0x07u) << 18 | (p[1] & 0x3Fu) << 12 | (p[2] & 0x3Fu) << 6;
            valid = cp >= 0x10000 && cp <= 0x10FFFF;
        }
        if (!valid) {
            *p++ = '?';
            continue;
        }
        p += len;
    }
}

void protocol_error(Session *ss, json_t *req, const char *fmt, ...) {
    char text[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    utf8_repair(text);
    send_reply(ss, req, json_pack("{s:s, s:s}", "type", "error", "message", text));
}

void request_fail(const Request *r, const char *fmt, ...) {
    char text[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    utf8_repair(text);
    send_reply(r->ss, r->req,
               json_pack("{s:s, s:s, s:s}", "type", "error", "for", r->type, "message", text));
}

/* Replies "ok", with `extra`'s fields (may be NULL; its reference is taken). */
void request_ok(const Request *r, json_t *extra) {
    json_t *reply = extra ? extra : json_object();
    json_object_set_new(reply, "type", json_string("ok"));
    json_object_set_new(reply, "for", json_string(r->type));
    send_reply(r->ss, r->req, reply);
}

static const char *color_name(int c) { return c == TAK_WHITE ? "white" : "black"; }

/* ---- fields ----------------------------------------------------------------- */

/* A string field of at most `max` bytes: true with *out NULL when absent and
 * not required; false (after replying) when wrong. */
bool request_str_field(const Request *r, const char *key, bool required, size_t max,
                      const char **out) {
    json_t *v = json_object_get(r->msg, key);
    *out = NULL;
    if (v == NULL || json_is_null(v)) {
        if (!required) return true;
        request_fail(r, "'%s' is missing", key);
        return false;
    }
    if (!json_is_string(v)) {
        request_fail(r, "'%s' must be a string", key);
        return false;
    }
    if (json_string_length(v) > max || strlen(json_string_value(v)) != json_string_length(v)) {
        request_fail(r, "'%s' is too long or holds a NUL", key);
        return false;
    }
    *out = json_string_value(v);
    return true;
}

static bool int_field(const Request *r, const char *key, long min, long max, long dflt, long *out) {
    json_t *v = json_object_get(r->msg, key);
    *out = dflt;
    if (v == NULL || json_is_null(v)) return true;
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
        request_fail(r, "'%s' must be a whole number from %ld to %ld", key, min, max);
        return false;
    }
    *out = (long)json_integer_value(v);
    return true;
}

/* A time in seconds (whole or with up to 3 decimals) from 0 to `max`, as ms;
 * 0 when absent. */
static bool seconds_field(const Request *r, const char *key, long max, int64_t *ms) {
    json_t *v = json_object_get(r->msg, key);
    *ms = 0;
    if (v == NULL || json_is_null(v)) return true;
    double x = json_is_number(v) ? json_number_value(v) : -1;
    if (!(x >= 0 && x <= (double)max)) {
        request_fail(r, "'%s' must be a number of seconds from 0 to %ld", key, max);
        return false;
    }
    *ms = (int64_t)(x * 1000 + 0.5);
    return true;
}

static bool bool_field(const Request *r, const char *key, bool dflt, bool *out) {
    json_t *v = json_object_get(r->msg, key);
    *out = dflt;
    if (v == NULL || json_is_null(v)) return true;
    if (!json_is_boolean(v)) {
        request_fail(r, "'%s' must be true or false", key);
        return false;
    }
    *out = json_is_true(v);
    return true;
}

/* One of `names` (NULL-terminated); *out is its index, or dflt when absent. */
static bool choice_field(const Request *r, const char *key, const char *const *names, int dflt,
                         int *out) {
    const char *v;
    *out = dflt;
    if (!request_str_field(r, key, false, 32, &v)) return false;
    if (v == NULL) return true;
    for (int i = 0; names[i]; i++)
        if (strcmp(v, names[i]) == 0) return *out = i, true;
    request_fail(r, "'%s' must be one of: %s%s%s%s%s", key, names[0], names[1] ? ", " : "",
         names[1] ? names[1] : "", names[1] && names[2] ? ", " : "",
         names[1] && names[2] ? names[2] : "");
    return false;
}

static bool is_code(const char *s, size_t len) {
    if (strlen(s) != len) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '2' && *s <= '9'))) return false;
    return true;
}

/* Compares secrets without stopping at the first difference. */
static bool same_secret(const char *a, const char *b) {
    size_t n = strlen(a);
    if (n == 0 || n != strlen(b)) return false;
    unsigned diff = 0;
    for (size_t i = 0; i < n; i++) diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

/* The seat (colour) whose secret is `token`, or -1. */
static int seat_of_secret(const char *token, char (*tokens)[STORE_SECRET_LEN + 1]) {
    int seat = -1;
    for (int c = 0; c < 2; c++)
        if (same_secret(token, tokens[c])) seat = c;
    return seat;
}

/* The seat an invitation takes: one without a secret that the engine does
 * not hold, or -1. */
static int invited_seat(char (*tokens)[STORE_SECRET_LEN + 1], int engine_color) {
    int seat = -1;
    for (int c = 0; c < 2; c++)
        if (tokens[c][0] == '\0' && engine_color != c) seat = c;
    return seat;
}

/* The reply to a create, of either game: the game, the creator's seat and
 * secret, and the invitation when a friend is to take the other seat. */
static void reply_created(const Request *r, const char *id, int color, const char *token,
                          const char *invite) {
    json_t *reply = json_pack("{s:s, s:s, s:s, s:I}", "game", id, "seat", color_name(color),
                              "token", token, "now_ms", (json_int_t)clock_now_ms());
    if (invite[0]) json_object_set_new(reply, "invite", json_string(invite));
    request_ok(r, reply);
}

/* The reply to a join, of either game: the game, the seat (null for a
 * watcher), and the seat's secret when the invitation has just issued it. */
static void reply_joined(const Request *r, const char *id, int seat, const char *issued) {
    json_t *reply = json_pack("{s:s, s:o, s:I}", "game", id, "seat",
                              seat < 0 ? json_null() : json_string(color_name(seat)), "now_ms",
                              (json_int_t)clock_now_ms());
    if (issued) json_object_set_new(reply, "token", json_string(issued));
    request_ok(r, reply);
}

/* ---- the game a request acts on ----------------------------------------------- */

/* The followed game, checking a "game" field names it. */
LiveGame *request_followed(const Request *r) {
    const char *id;
    if (!request_str_field(r, "game", false, 64, &id)) return NULL;
    LiveGame *g = r->ss->game;
    if (g == NULL) {
        request_fail(r, "join a game first");
        return NULL;
    }
    if (id && strcmp(id, g->info.id) != 0) {
        request_fail(r, "this connection follows game %s, not %s", g->info.id, id);
        return NULL;
    }
    return g;
}

/* The followed game, for a seat holder only, while it goes on. */
static LiveGame *seated(const Request *r) {
    LiveGame *g = request_followed(r);
    if (g == NULL) return NULL;
    if (r->ss->seat < 0) {
        request_fail(r, "only a player can do that (this connection watches)");
        return NULL;
    }
    if (tak_game_result(&g->game).end != TAK_END_NONE) {
        request_fail(r, "the game is over");
        return NULL;
    }
    return g;
}

static bool against_engine(const LiveGame *g) { return g->info.engine_color >= 0; }

/* ---- handlers ------------------------------------------------------------------ */

/* The server's clock rides on the reply, so a page can show game clocks right. */
static void on_ping(const Request *r) {
    request_ok(r, json_pack("{s:I}", "now_ms", (json_int_t)clock_now_ms()));
}

/* The rules of a new game: a PTN's, a TPS's size, or the fields. */
static bool new_rules(const Request *r, int size, TakRules *rules) {
    long stones, caps, half;
    bool no_pass;
    json_t *komi = json_object_get(r->msg, "komi");
    TakError err;
    if (!tak_rules_standard(rules, size, &err)) return request_fail(r, "%s", err.message), false;
    if (!int_field(r, "stones", 1, TAK_MAX_RESERVE, rules->stones, &stones) ||
        !int_field(r, "capstones", 0, TAK_MAX_RESERVE, rules->capstones, &caps) ||
        !bool_field(r, "no_pass", true, &no_pass))
        return false;
    half = 0;
    if (komi && !json_is_null(komi)) {
        double k = json_is_number(komi) ? json_number_value(komi) : 1e9;
        /* Range first: converting a double out of long's range is undefined. */
        if (!(k >= -TAK_MAX_HALF_KOMI / 2.0 && k <= TAK_MAX_HALF_KOMI / 2.0) ||
            k * 2 != (double)(half = (long)(k * 2)))
            return request_fail(r, "'komi' must be a whole or half number from -10 to 10"), false;
    }
    rules->stones = (int)stones;
    rules->capstones = (int)caps;
    rules->half_komi = (int)half;
    rules->no_pass = no_pass;
    if (!tak_rules_validate(rules, &err)) return request_fail(r, "%s", err.message), false;
    return true;
}

/* A time control: `time` (base seconds), `increment`, `extra_time` with
 * `extra_move`; all absent for no clock. */
static bool clock_fields(const Request *r, StoredClock *clock) {
    long extra_move;
    memset(clock, 0, sizeof *clock);
    if (!seconds_field(r, "time", 3 * 3600, &clock->base_ms) ||
        !seconds_field(r, "increment", 300, &clock->increment_ms) ||
        !seconds_field(r, "extra_time", 3 * 3600, &clock->extra_ms) ||
        !int_field(r, "extra_move", 0, 500, 0, &extra_move))
        return false;
    clock->extra_move = (int)extra_move;
    if (clock->base_ms == 0 && (clock->increment_ms || clock->extra_ms || clock->extra_move))
        return request_fail(r, "an increment or extra time needs a 'time' (the base time)"), false;
    if ((clock->extra_ms > 0) != (clock->extra_move > 0))
        return request_fail(r, "'extra_time' and 'extra_move' go together"), false;
    if (clock->base_ms > 0 && clock->base_ms < 1000)
        return request_fail(r, "'time' must be at least 1 second (or 0 for no clock)"), false;
    return true;
}

/* A seek for the lobby: the rules and clock as `create` takes them. */
static void on_seek(const Request *r) {
    static const char *const colors[] = {"white", "black", "random", NULL};
    long size;
    int color;
    bool rated;
    TakRules rules;
    StoredClock clock;
    if (!int_field(r, "size", TAK_MIN_SIZE, TAK_MAX_SIZE, 5, &size) ||
        !choice_field(r, "color", colors, 2, &color) || !new_rules(r, (int)size, &rules) ||
        !clock_fields(r, &clock) || !bool_field(r, "rated", false, &rated))
        return;
    lobby_on_seek(r, &rules, &clock, color, rated);
}

static void on_create(const Request *r) {
    static const char *const opponents[] = {"friend", "engine", NULL};
    static const char *const colors[] = {"white", "black", "random", NULL};
    long size, level;
    int opponent, color;
    const char *tps, *ptn_text;
    if (!int_field(r, "size", TAK_MIN_SIZE, TAK_MAX_SIZE, 5, &size) ||
        !int_field(r, "level", TAK_LEVEL_MIN, TAK_LEVEL_MAX, 3, &level) ||
        !choice_field(r, "opponent", opponents, 0, &opponent) ||
        !choice_field(r, "color", colors, 0, &color) ||
        !request_str_field(r, "tps", false, TAK_TPS_MAX - 1, &tps) ||
        !request_str_field(r, "ptn", false, MESSAGE_MAX, &ptn_text))
        return;
    if (tps && ptn_text) return request_fail(r, "give a TPS or a PTN, not both");
    StoredClock clock;
    SeatPlayer player;
    if (!clock_fields(r, &clock) || !request_player(r, &player)) return;
    if (color == 2) color = random_color();

    StoredGame info;
    memset(&info, 0, sizeof info);
    TakError err;
    TakPtn ptn;
    memset(&ptn, 0, sizeof ptn);
    if (ptn_text) {
        if (!tak_ptn_read(ptn_text, strlen(ptn_text), &ptn, &err)) {
            char where[TAK_ERROR_MESSAGE_MAX + 40];
            tak_ptn_free(&ptn);
            return request_fail(r, "bad PTN: %s", tak_error_describe(&err, where, sizeof where));
        }
        info.rules = ptn.rules;
        /* Kept, so its export gives back its tags, comments and marks. */
        info.import_ptn = stored_text_copy(ptn_text);
        if (info.import_ptn == NULL) {
            tak_ptn_free(&ptn);
            return request_fail(r, "out of memory");
        }
        if (tak_ptn_tag(&ptn, "TPS"))
            tak_tps_write(&ptn.game.start, info.start_tps, sizeof info.start_tps);
        info.move_count = ptn.game.count;
        info.moves = calloc(info.move_count ? info.move_count : 1, sizeof *info.moves);
        if (info.moves == NULL) {
            tak_ptn_free(&ptn);
            return request_fail(r, "out of memory");
        }
        TakPosition pos = ptn.game.start;
        for (size_t i = 0; i < ptn.game.count; i++) {
            TakUndo undo;
            tak_move_write(ptn.game.moves[i], info.rules.size, &pos, info.moves[i]);
            tak_position_make(&pos, ptn.game.moves[i], &undo);
        }
        if (ptn.game.ended.end != TAK_END_NONE) {
            info.end = (int)ptn.game.ended.end;
            info.winner = ptn.game.ended.winner;
        } else {
            info.winner = -1;
        }
        tak_ptn_free(&ptn);
    } else {
        if (tps) {
            TakPosition probe;
            if (!tak_tps_read(tps, NULL, &probe, &err)) return request_fail(r, "bad TPS: %s", err.message);
            size = tak_position_size(&probe);
        }
        if (!new_rules(r, (int)size, &info.rules)) return;
        if (tps) {
            TakPosition start;
            if (!tak_tps_read(tps, &info.rules, &start, &err))
                return request_fail(r, "bad TPS: %s", err.message);
            tak_tps_write(&start, info.start_tps, sizeof info.start_tps);
        }
        info.winner = -1;
    }
    random_token(info.id, STORE_ID_LEN);
    random_token(info.secret[color], STORE_SECRET_LEN);
    info.clock = clock;
    seat_player_set(&info, color, &player);
    info.engine_color = -1;
    info.engine_level = (int)level;
    if (opponent == 1)
        info.engine_color = !color;
    else
        random_token(info.invite, STORE_SECRET_LEN);

    LiveGame *g = games_create(r->ss->server, &info, NULL, &err);
    stored_game_free(&info);
    if (g == NULL) return request_fail(r, "cannot create the game: %s", err.message);
    reply_created(r, g->info.id, color, g->info.secret[color], g->info.invite);
    session_attach(r->ss, g, color);
}

/* The seat of g held by the connection's player (who may have lost its
 * secret: a new browser with the same identity), or -1. */
static int seat_of_player(const Session *ss, const LiveGame *g) {
    for (int c = 0; ss->player && c < 2; c++)
        if (g->info.player[c] == ss->player) return c;
    return -1;
}

static void on_join(const Request *r) {
    const char *id, *token, *invite;
    SeatPlayer player;
    memset(&player, 0, sizeof player);
    if (!request_str_field(r, "game", true, 64, &id) ||
        !request_str_field(r, "token", false, 64, &token) ||
        !request_str_field(r, "invite", false, 64, &invite))
        return;
    /* Who takes the seat an invitation gives (a store read: only then). */
    if (invite && !token && !request_player(r, &player)) return;
    if (!is_code(id, STORE_ID_LEN)) return request_fail(r, "no game %s", id);
    TakError err;
    Server *s = r->ss->server;
    LiveGame *g = games_find(s, id, &err);
    if (g == NULL) return request_fail(r, "%s", err.message);
    int seat = -1;
    bool issued = false;
    if (token) {
        seat = seat_of_secret(token, g->info.secret);
        if (seat < 0) {
            games_unload_if_idle(s, g);
            return request_fail(r, "that seat secret does not belong to game %s", id);
        }
    } else if (invite) {
        if (!same_secret(invite, g->info.invite)) {
            games_unload_if_idle(s, g);
            return request_fail(r, "that invitation has been used already, or is not for game %s", id);
        }
        seat = invited_seat(g->info.secret, g->info.engine_color);
        char secret[STORE_SECRET_LEN + 1];
        random_token(secret, STORE_SECRET_LEN);
        if (seat < 0 || !s->store->ops->take_seat(s->store, g->info.id, seat, secret, player.name,
                                                  player.id, player.rating, &err)) {
            games_unload_if_idle(s, g);
            return request_fail(r, "cannot take the seat: %s", seat < 0 ? "none is free" : err.message);
        }
        memcpy(g->info.secret[seat], secret, sizeof secret);
        seat_player_set(&g->info, seat, &player);
        g->info.invite[0] = '\0';
        issued = true;
    } else if ((seat = seat_of_player(r->ss, g)) >= 0) {
        issued = true; /* the seat's secret, for a page that lost it */
    }
    reply_joined(r, g->info.id, seat, issued ? g->info.secret[seat] : NULL);
    session_attach(r->ss, g, seat);
    if (issued) {
        games_changed(s, g); /* everyone sees the seat taken */
        lobby_changed(s);
    }
}

static void on_leave(const Request *r) {
    if (request_followed(r) == NULL) return;
    session_detach(r->ss);
    request_ok(r, NULL);
}

static void on_move(const Request *r) {
    LiveGame *g = seated(r);
    const char *text;
    long ply;
    if (g == NULL || !request_str_field(r, "move", true, 32, &text) ||
        !int_field(r, "ply", 0, 100000000, -1, &ply))
        return;
    int seat = r->ss->seat;
    if ((int)tak_position_side(&g->game.current) != seat)
        return request_fail(r, "it is not your turn (%s is to move)",
                    color_name(tak_position_side(&g->game.current)));
    if (ply >= 0 && (size_t)ply != g->game.count)
        return request_fail(r, "the game has moved on: it is at ply %zu, not %ld", g->game.count, ply);
    TakMove move;
    TakError err;
    if (!tak_move_parse(&g->game.current, text, &move, &err))
        return request_fail(r, "illegal move '%s': %s", text, err.message);
    if (!games_play(r->ss->server, g, move, &err)) return request_fail(r, "%s", err.message);
    request_ok(r, json_pack("{s:I}", "ply", (json_int_t)g->game.count));
}

/* Takes back `who`'s last move and anything played after it. */
static void take_back(const Request *r, LiveGame *g, int who) {
    size_t n = (int)tak_position_side(&g->game.current) == who ? 2 : 1;
    TakError err;
    if (n > g->game.count) return request_fail(r, "there is no move of yours to take back");
    if (!games_undo(r->ss->server, g, n, &err)) return request_fail(r, "%s", err.message);
    request_ok(r, json_pack("{s:I}", "ply", (json_int_t)g->game.count));
}

static void on_takeback(const Request *r) {
    LiveGame *g = seated(r);
    if (g == NULL) return;
    int seat = r->ss->seat;
    if (against_engine(g)) return take_back(r, g, seat);
    if (g->game.count == 0 ||
        (g->game.count == 1 && (int)tak_position_side(&g->game.current) == seat))
        return request_fail(r, "there is no move of yours to take back");
    if (g->offer[OFFER_TAKEBACK] == seat) return request_fail(r, "you have asked already");
    g->offer[OFFER_TAKEBACK] = seat;
    games_changed(r->ss->server, g);
    request_ok(r, NULL);
}

static void on_draw(const Request *r) {
    LiveGame *g = seated(r);
    if (g == NULL) return;
    int seat = r->ss->seat;
    TakError err;
    if (against_engine(g)) return request_fail(r, "the engine plays on: it does not take draws");
    if (g->offer[OFFER_DRAW] == !seat) {
        if (!games_end(r->ss->server, g, TAK_END_AGREEMENT, -1, &err))
            return request_fail(r, "%s", err.message);
        return request_ok(r, NULL);
    }
    if (g->offer[OFFER_DRAW] == seat) return request_fail(r, "you have offered a draw already");
    g->offer[OFFER_DRAW] = seat;
    games_changed(r->ss->server, g);
    request_ok(r, NULL);
}

static void answer(const Request *r, bool accept) {
    static const char *const whats[] = {"draw", "takeback", NULL};
    int what;
    LiveGame *g = seated(r);
    if (g == NULL || !choice_field(r, "what", whats, -1, &what)) return;
    if (what < 0) return request_fail(r, "'what' is missing (draw or takeback)");
    int seat = r->ss->seat;
    if (g->offer[what] != !seat) return request_fail(r, "your opponent has not offered a %s", whats[what]);
    TakError err;
    if (!accept) {
        g->offer[what] = OFFER_DECLINED + g->offer[what]; /* the offerer is told */
        games_changed(r->ss->server, g);
        return request_ok(r, NULL);
    }
    if (what == OFFER_DRAW) {
        if (!games_end(r->ss->server, g, TAK_END_AGREEMENT, -1, &err))
            return request_fail(r, "%s", err.message);
        return request_ok(r, NULL);
    }
    take_back(r, g, !seat);
}

static void on_accept(const Request *r) { answer(r, true); }
static void on_decline(const Request *r) { answer(r, false); }

static void on_resign(const Request *r) {
    LiveGame *g = seated(r);
    if (g == NULL) return;
    TakError err;
    if (!games_end(r->ss->server, g, TAK_END_RESIGNATION, !r->ss->seat, &err))
        return request_fail(r, "%s", err.message);
    request_ok(r, NULL);
}

static void on_view(const Request *r) {
    LiveGame *g = request_followed(r);
    long ply;
    if (g == NULL || !int_field(r, "ply", 0, 100000000, -1, &ply)) return;
    if (ply < 0 || (size_t)ply > g->game.count)
        return request_fail(r, "'ply' must be from 0 to %zu", g->game.count);
    TakPosition pos = g->game.start;
    for (long i = 0; i < ply; i++) {
        TakUndo undo;
        tak_position_make(&pos, g->game.moves[i], &undo);
    }
    request_ok(r, games_board_json(&pos, (size_t)ply));
}

/* The engine's view of a past position: answered from a worker when its
 * bounded search ends. Only once the game is over, so it cannot coach a
 * player; one at a time per connection. */
static void on_analyze(const Request *r) {
    LiveGame *g = request_followed(r);
    long ply;
    if (g == NULL || !int_field(r, "ply", 0, 100000000, -1, &ply)) return;
    if (ply < 0 || (size_t)ply > g->game.count)
        return request_fail(r, "'ply' must be from 0 to %zu", g->game.count);
    if (tak_game_result(&g->game).end == TAK_END_NONE)
        return request_fail(r, "analysis opens when the game is over");
    if (r->ss->analyses > 0) return request_fail(r, "one analysis at a time: wait for the last one");
    Server *server = r->ss->server;
    if (server->analyses_queued >= ANALYSES_QUEUED_MAX)
        return request_fail(r, "the engine is busy with other analyses: try again in a moment");
    EngineJob *job = calloc(1, sizeof *job);
    if (job == NULL) return request_fail(r, "out of memory");
    job->kind = JOB_ANALYZE;
    memcpy(job->game_id, g->info.id, sizeof job->game_id);
    job->session_id = r->ss->id;
    job->req = r->req ? json_incref(r->req) : NULL;
    job->ply = (size_t)ply;
    job->pos = g->game.start;
    for (long i = 0; i < ply; i++) {
        TakUndo undo;
        tak_position_make(&job->pos, g->game.moves[i], &undo);
    }
    job->history_len = (size_t)ply;
    if (ply > 0) {
        job->history = malloc((size_t)ply * sizeof *job->history);
        if (job->history == NULL) {
            engine_job_free(job);
            return request_fail(r, "out of memory");
        }
        memcpy(job->history, g->game.hashes, (size_t)ply * sizeof *job->history);
    }
    r->ss->analyses++;
    server->analyses_queued++;
    engine_pool_submit(&server->pool, job);
}

/* One square of a setup board, as the state's board writes it: colours
 * bottom to top ('1' White, '2' Black), then 'S' or 'C' for the top stone.
 * Appends its TPS form ("12S", or "x") to tps. */
static bool setup_square(const Request *r, json_t *v, int sq, int size, char *tps, size_t cap) {
    const char *text = json_is_string(v) ? json_string_value(v) : NULL;
    char name[3];
    tak_square_name(sq, size, name);
    size_t n = text ? strlen(text) : 0;
    bool ok = text && n == json_string_length(v) && n <= 2 * TAK_MAX_RESERVE + 1;
    for (size_t i = 0; ok && i < n; i++) {
        bool last = i + 1 == n;
        ok = text[i] == '1' || text[i] == '2' ||
             (last && i > 0 && (text[i] == 'S' || text[i] == 'C'));
    }
    if (!ok) {
        request_fail(r,
             "square %s: a stack is written as colours bottom to top (1 White, 2 Black), "
             "then S or C for a wall or capstone on top",
             name);
        return false;
    }
    size_t len = strlen(tps);
    if (len + n + 2 >= cap) return request_fail(r, "the board holds too many stones"), false;
    strcat(tps, n ? text : "x");
    return true;
}

/* Rule enforcement off: the page edits a board freely and the server checks
 * each edit by building the TPS and reading it with the game's rules
 * (reserves, one stack per square, capstones only on top). Nothing is
 * stored; `create` with the TPS continues from it as a game. */
static void on_setup(const Request *r) {
    static const char *const colors[] = {"white", "black", NULL};
    long size, move_number;
    int turn;
    json_t *board = json_object_get(r->msg, "board");
    if (!int_field(r, "size", TAK_MIN_SIZE, TAK_MAX_SIZE, 5, &size) ||
        !choice_field(r, "turn", colors, 0, &turn) ||
        !int_field(r, "move_number", 1, 10000, 0, &move_number))
        return;
    if (!json_is_array(board) || json_array_size(board) != (size_t)(size * size))
        return request_fail(r, "'board' must be an array of %ld squares (a1 first, along ranks)",
                    size * size);
    TakRules rules;
    if (!new_rules(r, (int)size, &rules)) return;
    char tps[TAK_TPS_MAX * 2] = "";
    bool empty = true;
    for (int rank = (int)size - 1; rank >= 0; rank--) {
        for (int file = 0; file < size; file++) {
            int sq = rank * (int)size + file;
            json_t *v = json_array_get(board, (size_t)sq);
            if (file) strcat(tps, ",");
            if (!setup_square(r, v, sq, (int)size, tps, sizeof tps - 16)) return;
            if (json_string_length(v)) empty = false;
        }
        if (rank) strcat(tps, "/");
    }
    /* The opening (each side places the other's flat) only on an empty board. */
    if (move_number == 0) move_number = empty ? 1 : 2;
    size_t len = strlen(tps);
    snprintf(tps + len, sizeof tps - len, " %d %ld", turn + 1, move_number);
    TakPosition pos;
    TakError err;
    if (!tak_tps_read(tps, &rules, &pos, &err)) return request_fail(r, "%s", err.message);
    json_t *reply = games_board_json(&pos, 0);
    json_object_set_new(reply, "size", json_integer(size));
    /* The rules read, defaults filled in, for the page to show. */
    json_object_set_new(reply, "stones", json_integer(rules.stones));
    json_object_set_new(reply, "capstones", json_integer(rules.capstones));
    json_object_set_new(reply, "no_pass", json_boolean(rules.no_pass));
    TakResult res = pos.result;
    if (res.end != TAK_END_NONE) {
        char text[100];
        json_object_set_new(reply, "result",
                            json_pack("{s:s, s:s, s:i}", "code", tak_result_code(res), "text",
                                      tak_result_describe(res, text, sizeof text), "winner",
                                      res.winner));
    } else {
        json_object_set_new(reply, "result", json_null());
    }
    request_ok(r, reply);
}

/* ---- matches: games in a row, first player alternating, the rule book's
 * scoring (tak/score.h). Nothing is stored beyond the games: the next game
 * of a match has an id derived from the previous one's, so either player
 * (and a page reloaded after a restart) finds it again. */

#define MATCH_GAMES_MAX 25

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

/* The next game of a match, after the followed one ends: the same rules and
 * opponent, colours swapped (so the first player alternates). Created by
 * whichever player asks first; the other joins it by asking too. The other
 * followers of the finished game are told with a "next" message. */
static void on_rematch(const Request *r) {
    long number, of;
    LiveGame *g = request_followed(r);
    if (g == NULL || !int_field(r, "number", 2, MATCH_GAMES_MAX, 2, &number) ||
        !int_field(r, "of", 2, MATCH_GAMES_MAX, 2, &of))
        return;
    if (number > of) return request_fail(r, "'number' is past the match's %ld games", of);
    int seat = r->ss->seat;
    if (seat < 0) return request_fail(r, "only a player can do that (this connection watches)");
    if (tak_game_result(&g->game).end == TAK_END_NONE) return request_fail(r, "the game is not over yet");
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
        StoredGame info;
        memset(&info, 0, sizeof info);
        memcpy(info.id, id, sizeof info.id);
        info.rules = g->info.rules;
        memcpy(info.start_tps, g->info.start_tps, sizeof info.start_tps);
        for (int c = 0; c < 2; c++)
            memcpy(info.secret[c], g->info.secret[!c], sizeof info.secret[c]);
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
        next = games_create(s, &info, NULL, &err);
        if (next == NULL) return request_fail(r, "cannot create the next game: %s", err.message);
        created = true;
    }
    int new_seat = !seat;
    json_t *reply = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i}", "game", next->info.id, "from",
                              g->info.id, "seat", color_name(new_seat), "token",
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
}

/* The match table's rows: for each game, its result and the points its
 * winner scores (the board's squares plus the winner's reserve). */
static void on_score(const Request *r) {
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
        LiveGame *g = is_code(id, STORE_ID_LEN) ? games_find(s, id, &err) : NULL;
        if (g == NULL) {
            json_decref(rows);
            return request_fail(r, "no game %.20s", id);
        }
        TakResult res = tak_game_result(&g->game);
        json_t *row =
            json_pack("{s:s, s:I}", "game", g->info.id, "plies", (json_int_t)g->game.count);
        if (res.end == TAK_END_NONE) {
            json_object_set_new(row, "result", json_null());
        } else {
            json_object_set_new(row, "result", json_string(tak_result_code(res)));
            json_object_set_new(row, "winner",
                                res.winner < 0 ? json_null() : json_string(color_name(res.winner)));
            json_object_set_new(row, "points",
                                json_integer(tak_score_points(&g->game.current, res)));
        }
        json_array_append_new(rows, row);
        games_unload_if_idle(s, g);
    }
    request_ok(r, json_pack("{s:o}", "rows", rows));
}

/* ---- TAKAT (the second game): its own messages, its own games ---------------- */

/* The TAKAT game the connection follows, checking a "game" field names it. */
static TakatLive *takat_followed(const Request *r) {
    const char *id;
    if (!request_str_field(r, "game", false, 64, &id)) return NULL;
    TakatLive *t = r->ss->takat;
    if (t == NULL) return request_fail(r, "join a TAKAT game first"), NULL;
    if (id && strcmp(id, t->id) != 0)
        return request_fail(r, "this connection follows game %s, not %s", t->id, id), NULL;
    return t;
}

static TakatLive *takat_seated(const Request *r) {
    TakatLive *t = takat_followed(r);
    if (t == NULL) return NULL;
    if (r->ss->seat < 0)
        return request_fail(r, "only a player can do that (this connection watches)"), NULL;
    if (takat_games_result(t) != TAKAT_ONGOING) return request_fail(r, "the game is over"), NULL;
    return t;
}

static void on_takat_create(const Request *r) {
    static const char *const opponents[] = {"friend", "engine", NULL};
    static const char *const colors[] = {"white", "black", "random", NULL};
    long level;
    int opponent, color;
    if (!int_field(r, "level", 1, 10, 3, &level) ||
        !choice_field(r, "opponent", opponents, 0, &opponent) ||
        !choice_field(r, "color", colors, 0, &color))
        return;
    if (color == 2) color = random_color();
    TakError err;
    TakatLive *t = takat_games_create(r->ss->server, opponent == 1 ? !color : -1, (int)level, &err);
    if (t == NULL) return request_fail(r, "%s", err.message);
    random_token(t->token[color], STORE_SECRET_LEN);
    if (opponent == 0) random_token(t->invite, STORE_SECRET_LEN);
    reply_created(r, t->id, color, t->token[color], t->invite);
    takat_games_attach(r->ss, t, color);
}

static void on_takat_join(const Request *r) {
    const char *id, *token, *invite;
    if (!request_str_field(r, "game", true, 64, &id) || !request_str_field(r, "token", false, 64, &token) ||
        !request_str_field(r, "invite", false, 64, &invite))
        return;
    TakatLive *t = is_code(id, STORE_ID_LEN) ? takat_games_find(r->ss->server, id) : NULL;
    if (t == NULL) return request_fail(r, "no TAKAT game %s (they last until the server restarts)", id);
    int seat = -1;
    bool issued = false;
    if (token) {
        seat = seat_of_secret(token, t->token);
        if (seat < 0) return request_fail(r, "that seat secret does not belong to game %s", id);
    } else if (invite) {
        if (!same_secret(invite, t->invite))
            return request_fail(r, "that invitation has been used already, or is not for game %s", id);
        seat = invited_seat(t->token, t->ai_color);
        if (seat < 0) return request_fail(r, "cannot take the seat: none is free");
        random_token(t->token[seat], STORE_SECRET_LEN);
        t->invite[0] = '\0';
        issued = true;
    }
    reply_joined(r, t->id, seat, issued ? t->token[seat] : NULL);
    takat_games_attach(r->ss, t, seat);
}

static void on_takat_turn(const Request *r) {
    TakatLive *t = takat_seated(r);
    const char *text;
    long ply;
    if (t == NULL || !request_str_field(r, "turn", true, 16, &text) ||
        !int_field(r, "ply", 0, TAKAT_GAME_MAX_TURNS, -1, &ply))
        return;
    if ((int)t->game->pos.side != r->ss->seat)
        return request_fail(r, "it is not your turn (%s is to move)", color_name(t->game->pos.side));
    if (ply >= 0 && ply != t->game->count)
        return request_fail(r, "the game has moved on: it is at turn %d, not %ld", t->game->count, ply);
    TakatTurn turn;
    TakError err;
    if (!takat_turn_parse(text, &turn, &err))
        return request_fail(r, "bad turn '%s': %s", text, err.message);
    if (!takat_games_play(r->ss->server, t, turn, &err))
        return request_fail(r, "illegal turn '%s': %s", text, err.message);
    request_ok(r, json_pack("{s:i}", "ply", t->game->count));
}

static void on_takat_resign(const Request *r) {
    TakatLive *t = takat_seated(r);
    if (t == NULL) return;
    takat_games_resign(r->ss->server, t, r->ss->seat);
    request_ok(r, NULL);
}

static void on_export(const Request *r) {
    LiveGame *g = request_followed(r);
    if (g == NULL) return;
    TakError err;
    char *text = games_export_ptn(g, &err);
    if (text == NULL) return request_fail(r, "%s", err.message);
    request_ok(r, json_pack("{s:s}", "ptn", text));
    free(text);
}

typedef struct Handler {
    const char *type;
    void (*run)(const Request *r);
} Handler;

static const Handler handlers[] = {
    {"ping", on_ping},
    {"create", on_create},
    {"join", on_join},
    {"leave", on_leave},
    {"move", on_move},
    {"takeback", on_takeback},
    {"draw", on_draw},
    {"accept", on_accept},
    {"decline", on_decline},
    {"resign", on_resign},
    {"view", on_view},
    {"export", on_export},
    {"analyze", on_analyze},
    {"setup", on_setup},
    {"rematch", on_rematch},
    {"score", on_score},
    {"takat_create", on_takat_create},
    {"takat_join", on_takat_join},
    {"takat_turn", on_takat_turn},
    {"takat_resign", on_takat_resign},
    {"chat", chat_on_send},
    {"lobby", lobby_on_join},
    {"seek", on_seek},
    {"unseek", lobby_on_unseek},
    {"accept_seek", lobby_on_accept},
    {"identify", players_on_identify},
};

void protocol_handle(Session *ss, const char *text, size_t len) {
    json_error_t jerr;
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    ss->server->messages++;
    if (msg == NULL)
        return protocol_error(ss, NULL, "malformed JSON (line %d, column %d): %s", jerr.line,
                              jerr.column, jerr.text);
    Request r = {ss, msg, NULL, "?"};
    if (!json_is_object(msg)) {
        protocol_error(ss, NULL, "a message must be a JSON object");
    } else {
        json_t *req = json_object_get(msg, "req");
        if (req &&
            !(json_is_integer(req) || (json_is_string(req) && json_string_length(req) <= 64))) {
            protocol_error(ss, NULL, "'req' must be a number or a short string");
        } else {
            r.req = req;
            json_t *type = json_object_get(msg, "type");
            const Handler *h = NULL;
            for (size_t i = 0;
                 type && json_is_string(type) && i < sizeof handlers / sizeof *handlers; i++)
                if (strcmp(json_string_value(type), handlers[i].type) == 0) h = &handlers[i];
            if (h) {
                r.type = h->type;
                h->run(&r);
            } else if (type == NULL || !json_is_string(type)) {
                protocol_error(ss, req, "'type' is missing or not a string");
            } else {
                protocol_error(ss, req, "unknown message type '%.40s'", json_string_value(type));
            }
        }
    }
    json_decref(msg);
}
