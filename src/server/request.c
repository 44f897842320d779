/*
 * request.c: the one reply every request gets, the readers of its fields and
 * the seats' secrets (request.h says how a handler uses them). A reader that
 * finds a field wrong replies the error itself and returns false, so a
 * handler only passes the failure on.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- replies ----------------------------------------------------------------- */

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
        int len = *p < 0x80             ? 1
                  : (*p & 0xE0) == 0xC0 ? 2
                  : (*p & 0xF0) == 0xE0 ? 3
                  : (*p & 0xF8) == 0xF0 ? 4
                                        : 0;
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

/* The error reply, for a request of type `type` (NULL before one is known). */
static void send_error(Session *ss, json_t *req, const char *type, const char *fmt, va_list ap) {
    char text[300];
    vsnprintf(text, sizeof text, fmt, ap);
    utf8_repair(text);
    json_t *reply = json_pack("{s:s}", "type", "error");
    if (type) json_object_set_new(reply, "for", json_string(type));
    json_object_set_new(reply, "message", json_string(text));
    send_reply(ss, req, reply);
}

void request_error(Session *ss, json_t *req, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    send_error(ss, req, NULL, fmt, ap);
    va_end(ap);
}

bool request_fail(const Request *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    send_error(r->ss, r->req, r->type, fmt, ap);
    va_end(ap);
    return false;
}

bool request_ok(const Request *r, json_t *extra) {
    json_t *reply = extra ? extra : json_object();
    json_object_set_new(reply, "type", json_string("ok"));
    json_object_set_new(reply, "for", json_string(r->type));
    send_reply(r->ss, r->req, reply);
    return true;
}

bool request_ok_created(const Request *r, const char *id, int color, const char *secret,
                        const char *invite) {
    json_t *reply = json_pack("{s:s, s:s, s:s, s:I}", "game", id, "seat", games_color_name(color),
                              "token", secret, "now_ms", (json_int_t)clock_now_ms());
    if (invite[0]) json_object_set_new(reply, "invite", json_string(invite));
    return request_ok(r, reply);
}

bool request_ok_joined(const Request *r, const char *id, int seat, const char *issued) {
    json_t *reply = json_pack("{s:s, s:o, s:I}", "game", id, "seat",
                              seat < 0 ? json_null() : json_string(games_color_name(seat)),
                              "now_ms", (json_int_t)clock_now_ms());
    if (issued) json_object_set_new(reply, "token", json_string(issued));
    return request_ok(r, reply);
}

/* ---- fields ------------------------------------------------------------------ */

bool request_str_field(const Request *r, const char *key, bool required, size_t max,
                       const char **out) {
    json_t *v = json_object_get(r->msg, key);
    *out = NULL;
    if (v == NULL || json_is_null(v))
        return required ? request_fail(r, "'%s' is missing", key) : true;
    if (!json_is_string(v)) return request_fail(r, "'%s' must be a string", key);
    if (json_string_length(v) > max || strlen(json_string_value(v)) != json_string_length(v))
        return request_fail(r, "'%s' is too long or holds a NUL", key);
    *out = json_string_value(v);
    return true;
}

bool request_int_field(const Request *r, const char *key, long min, long max, long dflt,
                       long *out) {
    json_t *v = json_object_get(r->msg, key);
    *out = dflt;
    if (v == NULL || json_is_null(v)) return true;
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
        return request_fail(r, "'%s' must be a whole number from %ld to %ld", key, min, max);
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
    if (!(x >= 0 && x <= (double)max))
        return request_fail(r, "'%s' must be a number of seconds from 0 to %ld", key, max);
    *ms = (int64_t)(x * 1000 + 0.5);
    return true;
}

bool request_bool_field(const Request *r, const char *key, bool dflt, bool *out) {
    json_t *v = json_object_get(r->msg, key);
    *out = dflt;
    if (v == NULL || json_is_null(v)) return true;
    if (!json_is_boolean(v)) return request_fail(r, "'%s' must be true or false", key);
    *out = json_is_true(v);
    return true;
}

bool request_choice_field(const Request *r, const char *key, const char *const *names, int dflt,
                          int *out) {
    const char *v;
    *out = dflt;
    if (!request_str_field(r, key, false, 32, &v)) return false;
    if (v == NULL) return true;
    for (int i = 0; names[i]; i++)
        if (strcmp(v, names[i]) == 0) return *out = i, true;
    return request_fail(r, "'%s' must be one of: %s%s%s%s%s", key, names[0], names[1] ? ", " : "",
                        names[1] ? names[1] : "", names[1] && names[2] ? ", " : "",
                        names[1] && names[2] ? names[2] : "");
}

bool request_rules(const Request *r, int size, TakRules *rules) {
    long stones, caps, half;
    bool no_pass;
    json_t *komi = json_object_get(r->msg, "komi");
    TakError err;
    if (!tak_rules_standard(rules, size, &err)) return request_fail(r, "%s", err.message);
    if (!request_int_field(r, "stones", 1, TAK_MAX_RESERVE, rules->stones, &stones) ||
        !request_int_field(r, "capstones", 0, TAK_MAX_RESERVE, rules->capstones, &caps) ||
        !request_bool_field(r, "no_pass", true, &no_pass))
        return false;
    half = 0;
    if (komi && !json_is_null(komi)) {
        double k = json_is_number(komi) ? json_number_value(komi) : 1e9;
        /* Range first: converting a double out of long's range is undefined. */
        if (!(k >= -TAK_MAX_HALF_KOMI / 2.0 && k <= TAK_MAX_HALF_KOMI / 2.0) ||
            k * 2 != (double)(half = (long)(k * 2)))
            return request_fail(r, "'komi' must be a whole or half number from -10 to 10");
    }
    rules->stones = (int)stones;
    rules->capstones = (int)caps;
    rules->half_komi = (int)half;
    rules->no_pass = no_pass;
    if (!tak_rules_validate(rules, &err)) return request_fail(r, "%s", err.message);
    return true;
}

bool request_clock(const Request *r, StoredClock *clock) {
    long extra_move;
    memset(clock, 0, sizeof *clock);
    if (!seconds_field(r, "time", 3 * 3600, &clock->base_ms) ||
        !seconds_field(r, "increment", 300, &clock->increment_ms) ||
        !seconds_field(r, "extra_time", 3 * 3600, &clock->extra_ms) ||
        !request_int_field(r, "extra_move", 0, 500, 0, &extra_move))
        return false;
    clock->extra_move = (int)extra_move;
    if (clock->base_ms == 0 && (clock->increment_ms || clock->extra_ms || clock->extra_move))
        return request_fail(r, "an increment or extra time needs a 'time' (the base time)");
    if ((clock->extra_ms > 0) != (clock->extra_move > 0))
        return request_fail(r, "'extra_time' and 'extra_move' go together");
    if (clock->base_ms > 0 && clock->base_ms < 1000)
        return request_fail(r, "'time' must be at least 1 second (or 0 for no clock)");
    return true;
}

bool request_followed(const Request *r, LiveGame **out) {
    const char *id;
    if (!request_str_field(r, "game", false, 64, &id)) return false;
    LiveGame *g = r->ss->game;
    if (g == NULL) return request_fail(r, "join a game first");
    if (id && strcmp(id, g->info.id) != 0)
        return request_fail(r, "this connection follows game %s, not %s", g->info.id, id);
    *out = g;
    return true;
}

/* ---- secrets ------------------------------------------------------------------ */

bool secret_is_code(const char *s, size_t len) {
    if (strlen(s) != len) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '2' && *s <= '9'))) return false;
    return true;
}

bool secret_same(const char *a, const char *b) {
    size_t n = strlen(a);
    if (n == 0 || n != strlen(b)) return false;
    unsigned diff = 0;
    for (size_t i = 0; i < n; i++) diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

int secret_seat(const char *secret, char (*secrets)[STORE_SECRET_LEN + 1]) {
    int seat = -1;
    for (int c = 0; c < 2; c++)
        if (secret_same(secret, secrets[c])) seat = c;
    return seat;
}

int secret_invited_seat(char (*secrets)[STORE_SECRET_LEN + 1], int engine_color) {
    int seat = -1;
    for (int c = 0; c < 2; c++)
        if (secrets[c][0] == '\0' && engine_color != c) seat = c;
    return seat;
}
