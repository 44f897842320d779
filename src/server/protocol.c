/*
 * protocol.c: the WebSocket messages. Each message is one JSON object with a
 * "type" and, optionally, a "req" (a number or short string) that its reply
 * repeats; every request gets exactly one reply, "ok" (with its results) or
 * "error" (with a message for people), and the connection stays usable after
 * an error. Game states ("state") are pushed to every follower of a game.
 * This file is the table of requests and the dispatch, nothing else: each
 * handler lives with its family (request.h: how to write one), and a new
 * request is its handler and a row here. The messages are listed in
 * docs/server.md.
 */
#include <string.h>

#include "internal.h"

typedef struct Handler {
    const char *type;
    RequestHandler run;
} Handler;

static const Handler handlers[] = {
    /* play.c: a game's players and its match */
    {"ping", play_on_ping},
    {"create", play_on_create},
    {"join", play_on_join},
    {"leave", play_on_leave},
    {"move", play_on_move},
    {"takeback", play_on_takeback},
    {"draw", play_on_draw},
    {"accept", play_on_accept},
    {"decline", play_on_decline},
    {"resign", play_on_resign},
    {"rematch", play_on_rematch},
    {"score", play_on_score},
    /* review.c: looking at positions, finished games and set-up boards */
    {"view", review_on_view},
    {"export", review_on_export},
    {"analyze", review_on_analyze},
    {"setup", review_on_setup},
    /* takat_games.c: the second game */
    {"takat_create", takat_games_on_create},
    {"takat_join", takat_games_on_join},
    {"takat_turn", takat_games_on_turn},
    {"takat_resign", takat_games_on_resign},
    /* chat.c, lobby.c, players.c */
    {"chat", chat_on_send},
    {"lobby", lobby_on_join},
    {"seek", lobby_on_seek},
    {"unseek", lobby_on_unseek},
    {"accept_seek", lobby_on_accept},
    {"identify", players_on_identify},
};

static const Handler *find_handler(const char *type) {
    for (size_t i = 0; i < sizeof handlers / sizeof *handlers; i++)
        if (strcmp(type, handlers[i].type) == 0) return &handlers[i];
    return NULL;
}

/* A parsed message: checks its "req" and "type" and runs its handler. */
static void dispatch(Session *ss, json_t *msg) {
    json_t *req = json_object_get(msg, "req"), *type = json_object_get(msg, "type");
    const Handler *h = json_is_string(type) ? find_handler(json_string_value(type)) : NULL;
    if (!json_is_object(msg)) {
        request_error(ss, NULL, "a message must be a JSON object");
    } else if (req &&
               !(json_is_integer(req) || (json_is_string(req) && json_string_length(req) <= 64))) {
        request_error(ss, NULL, "'req' must be a number or a short string");
    } else if (!json_is_string(type)) {
        request_error(ss, req, "'type' is missing or not a string");
    } else if (h == NULL) {
        request_error(ss, req, "unknown message type '%.40s'", json_string_value(type));
    } else {
        Request r = {ss, msg, req, h->type};
        h->run(&r);
    }
}

void protocol_handle(Session *ss, const char *text, size_t len) {
    json_error_t jerr;
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    ss->server->messages++;
    if (msg == NULL) {
        request_error(ss, NULL, "malformed JSON (line %d, column %d): %s", jerr.line, jerr.column,
                      jerr.text);
        return;
    }
    dispatch(ss, msg);
    json_decref(msg);
}
