/*
 * request.h: what every request handler uses (request.c), as redis's
 * networking.c and object.c serve its commands: the one reply each request
 * gets, the readers of a message's fields (which reply themselves when a
 * field is wrong), and the seats' secrets. A handler reads its fields, acts,
 * and ends with `return request_ok(...)` or `return request_fail(...)`.
 */
#ifndef TAK_SERVER_REQUEST_H
#define TAK_SERVER_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "store.h"
#include "tak/tak.h"

struct Session;
struct LiveGame;

/* One message being answered: its connection, the parsed message, its
 * "req" (borrowed; NULL when the client sent none) and its type. */
typedef struct Request {
    struct Session *ss;
    json_t *msg;
    json_t *req;
    const char *type;
} Request;

/* A handler: true when it replied "ok", false when it replied an error. */
typedef bool (*RequestHandler)(const Request *r);

/* ---- replies: exactly one per request ------------------------------------------ */

/* Replies "ok" with `extra`'s fields (may be NULL; its reference is taken);
 * returns true. */
bool request_ok(const Request *r, json_t *extra);
/* Replies an error, a message for people; returns false, so a handler writes
 * `return request_fail(r, ...)` (like tak_error_set). */
bool request_fail(const Request *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Replies an error to a message that is not (yet) a request: malformed, too
 * large, of no known type. `req` may be NULL. */
void request_error(struct Session *ss, json_t *req, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The reply to a create, of either game: the game, the creator's seat and
 * secret, and the invitation when a friend is to take the other seat ("" for none). */
bool request_ok_created(const Request *r, const char *id, int color, const char *secret,
                        const char *invite);
/* The reply to a join, of either game: the game, the seat (-1 for a
 * watcher), and the seat's secret when it has just been issued (else NULL). */
bool request_ok_joined(const Request *r, const char *id, int seat, const char *issued);

/* ---- fields: each is optional unless said, and replies when wrong --------------- */

/* A string of at most `max` bytes: true with *out NULL when absent and not
 * required; false (after replying) when wrong. */
bool request_str_field(const Request *r, const char *key, bool required, size_t max,
                       const char **out);
/* A whole number from min to max; dflt when absent. */
bool request_int_field(const Request *r, const char *key, long min, long max, long dflt, long *out);
/* true or false; dflt when absent. */
bool request_bool_field(const Request *r, const char *key, bool dflt, bool *out);
/* One of `names` (NULL-terminated, at most three); *out is its index, or dflt when absent. */
bool request_choice_field(const Request *r, const char *key, const char *const *names, int dflt,
                          int *out);
/* The rules of a new game of `size`: "stones", "capstones", "komi", "no_pass". */
bool request_rules(const Request *r, int size, TakRules *rules);
/* A time control: "time" (base seconds), "increment", "extra_time" with
 * "extra_move"; all absent for no clock. */
bool request_clock(const Request *r, StoredClock *clock);
/* The game the connection follows, checking a "game" field names it; false
 * (after replying) when none. */
bool request_followed(const Request *r, struct LiveGame **out);

/* ---- secrets: seats, invitations and ids ------------------------------------------ */

/* Whether s is `len` characters of the alphabet ids and secrets are made of. */
bool secret_is_code(const char *s, size_t len);
/* Compares two secrets without stopping at the first difference; "" matches nothing. */
bool secret_same(const char *a, const char *b);
/* The seat (colour) whose secret is `secret`, or -1. */
int secret_seat(const char *secret, char (*secrets)[STORE_SECRET_LEN + 1]);
/* The seat an invitation takes: one without a secret that the engine does
 * not hold, or -1. */
int secret_invited_seat(char (*secrets)[STORE_SECRET_LEN + 1], int engine_color);

#endif
