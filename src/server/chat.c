/*
 * chat.c: talk in a game, in two rooms: the players' (the two seat holders)
 * and the spectators' (everyone watching), each read only by its own
 * members, so nobody coaches a player. A message is plain text of 1 to
 * CHAT_TEXT_MAX characters with no control or direction-override
 * characters; the page shows it as text, never as markup. Each connection
 * may send CHAT_BURST messages at once and then one every CHAT_REFILL_MS,
 * and each room takes at most ROOM_BURST at once and one every
 * ROOM_REFILL_MS from all its writers together, so neither one connection
 * nor many can flood a game. Every message goes to the store first, so the
 * chat survives a restart and the servers of a cluster share it: a message
 * saved by another process is announced (cluster.c) and read from the store
 * here. The last CHAT_KEEP messages of a room stay with the game while it
 * is in memory and are sent to whoever joins it. A PlayTak connection
 * (playtak_lines.c) talks in the same rooms, with the same limits, through
 * chat_say, and reads them as PlayTak's lines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define CHAT_TEXT_MAX 300 /* characters */
#define CHAT_KEEP 50
#define CHAT_BURST 5
#define CHAT_REFILL_MS 2000
#define ROOM_BURST 20
#define ROOM_REFILL_MS 500

enum { ROOM_PLAYERS, ROOM_SPECTATORS };
static const char *const room_names[] = {"players", "spectators"};

struct Chat {
    json_t *lines[2]; /* each room's last messages, in the order they came here */
    Bucket room_bucket[2];
};

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool bucket_take(Bucket *b, int burst, int refill_ms) {
    int64_t now = now_ms();
    if (b->stamp_ms == 0) {
        b->tokens = burst;
        b->stamp_ms = now;
    }
    int64_t gained = (now - b->stamp_ms) / refill_ms;
    if (gained > 0) {
        b->tokens = b->tokens + gained > burst ? burst : b->tokens + (int)gained;
        b->stamp_ms += gained * refill_ms;
    }
    if (b->tokens == 0) return false;
    if (b->tokens == burst) b->stamp_ms = now; /* a full bucket refills from now */
    b->tokens--;
    return true;
}

/* Why `text` (valid UTF-8: chat_say checks it) cannot be a message, or
 * NULL; *chars is its length in characters. */
static const char *bad_text(const char *text, size_t *chars) {
    const unsigned char *p = (const unsigned char *)text;
    size_t n = 0;
    bool visible = false;
    while (*p) {
        unsigned cp;
        int len = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;
        cp = len == 1 ? *p : len == 2 ? *p & 0x1Fu : len == 3 ? *p & 0x0Fu : *p & 0x07u;
        for (int i = 1; i < len; i++) cp = cp << 6 | (p[i] & 0x3Fu);
        if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
            return "a message may not hold control characters (line breaks, tabs, ...)";
        if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
            return "a message may not hold text-direction overrides";
        if (cp != ' ') visible = true;
        n++;
        p += len;
    }
    *chars = n;
    if (!visible) return "the message is empty";
    return NULL;
}

static const char *const from_names[] = {"white", "black", "spectator"};

/* Whether the room holds the message with this id already. */
static bool held(json_t *lines, json_int_t id) {
    size_t i;
    json_t *line;
    json_array_foreach(lines, i, line) {
        if (json_integer_value(json_object_get(line, "id")) == id) return true;
    }
    return false;
}

/* Takes the room's last messages from the store that are not held here yet
 * (sent by this process or another), and sends them to the room's members
 * when `tell`; the message numbered `port_told` (0: none) a PlayTak
 * connection sent, and the port has told its own connections, by name. */
static bool catch_up(Server *s, LiveGame *g, int room, bool tell, int64_t port_told,
                     TakError *err) {
    Chat *chat = g->chat;
    StoredChat *got = malloc(CHAT_KEEP * sizeof *got);
    size_t n = 0;
    if (got == NULL) return tak_error_set(err, "out of memory");
    if (!s->store->ops->load_chat(s->store, g->info.id, room, 0, CHAT_KEEP, got, &n, err)) {
        free(got);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (held(chat->lines[room], got[i].id)) continue;
        json_t *line =
            json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:I}", "type", "chat", "game", g->info.id,
                      "room", room_names[room], "from", got[i].from, "text", got[i].text, "time",
                      (json_int_t)got[i].time_ms, "id", (json_int_t)got[i].id);
        if (line == NULL) continue; /* not UTF-8: not written by this server */
        json_array_append(chat->lines[room], line);
        if (json_array_size(chat->lines[room]) > CHAT_KEEP) json_array_remove(chat->lines[room], 0);
        if (tell) {
            Outbuf *b = outbuf_json(json_incref(line));
            for (Session *ss = g->subs; ss; ss = ss->next) {
                if ((ss->seat >= 0) != (room == ROOM_PLAYERS)) continue;
                if (ss->pt) { /* a PlayTak connection reads it as PlayTak's chat */
                    if (got[i].id != port_told) playtak_port_chat(ss, got[i].from, got[i].text);
                }
                else
                    session_send(ss, b);
            }
            outbuf_release(b);
        }
        json_decref(line);
    }
    free(got);
    return true;
}

/* The game's chat rooms, read from the store when first needed. */
static Chat *chat_of(Server *s, LiveGame *g) {
    if (g->chat == NULL) {
        g->chat = calloc(1, sizeof *g->chat);
        if (g->chat == NULL) return NULL;
        for (int i = 0; i < 2; i++) g->chat->lines[i] = json_array();
        TakError err;
        for (int room = 0; room < 2; room++)
            if (!catch_up(s, g, room, false, 0, &err) && !s->config->quiet)
                fprintf(stderr, "tak serve: chat of %s: %s\n", g->info.id, err.message);
    }
    return g->chat;
}

void chat_refresh(Server *s, const char *id, int room) {
    LiveGame *g = games_loaded(s, id);
    TakError err;
    if (g == NULL || g->chat == NULL || room < 0 || room > 1) return; /* read when first needed */
    if (!catch_up(s, g, room, true, 0, &err) && !s->config->quiet)
        fprintf(stderr, "tak serve: chat of %s: %s\n", id, err.message);
}

bool chat_may_send(Session *ss) {
    return bucket_take(&ss->chat_bucket, CHAT_BURST, CHAT_REFILL_MS);
}

bool chat_say(Session *ss, const char *text, TakError *err) {
    LiveGame *g = ss->game;
    if (g == NULL) return tak_error_set(err, "no game is followed");
    /* A PlayTak line's bytes are anyone's: bad_text reads UTF-8 only, and the
     * page's messages are JSON strings (jansson's json_string checks it). */
    json_t *utf8 = json_string(text);
    if (utf8 == NULL) return tak_error_set(err, "a message is UTF-8 text");
    json_decref(utf8);
    size_t chars = 0;
    const char *why = bad_text(text, &chars);
    if (why) return tak_error_set(err, "%s", why);
    if (chars > CHAT_TEXT_MAX)
        return tak_error_set(err, "the message is %zu characters long: at most %d", chars,
                             CHAT_TEXT_MAX);
    int seat = ss->seat, room = seat >= 0 ? ROOM_PLAYERS : ROOM_SPECTATORS;
    if (!chat_may_send(ss)) return tak_error_set(err, "too many messages: wait a few seconds");
    Server *s = ss->server;
    Chat *chat = chat_of(s, g);
    if (chat == NULL) return tak_error_set(err, "out of memory");
    if (!bucket_take(&chat->room_bucket[room], ROOM_BURST, ROOM_REFILL_MS))
        return tak_error_set(err, "the %s' room is busy: wait a moment", room_names[room]);
    StoredChat *line = calloc(1, sizeof *line);
    if (line == NULL) return tak_error_set(err, "out of memory");
    line->room = room;
    snprintf(line->from, sizeof line->from, "%s", from_names[seat >= 0 ? seat : 2]);
    snprintf(line->text, sizeof line->text, "%s", text);
    line->time_ms = clock_now_ms();
    int64_t id;
    TakError store_err;
    bool saved = s->store->ops->add_chat(s->store, g->info.id, line, &id, &store_err);
    free(line);
    if (!saved) return tak_error_set(err, "cannot keep the message: %s", store_err.message);
    /* From the store, with whatever another process saved meanwhile. */
    if (!catch_up(s, g, room, true, ss->pt ? id : 0, err)) return false;
    cluster_announce_chat(s->cluster, g->info.id, room);
    return true;
}

bool chat_on_send(const Request *r) {
    LiveGame *g = NULL;
    const char *text;
    if (!request_followed(r, &g) || !request_str_field(r, "text", true, 4 * CHAT_TEXT_MAX, &text)) return false;
    TakError err;
    if (!chat_say(r->ss, text, &err)) return request_fail(r, "%s", err.message);
    return request_ok(r, NULL);
}

void chat_history(Session *ss) {
    LiveGame *g = ss->game;
    if (g == NULL || chat_of(ss->server, g) == NULL) return;
    int room = ss->seat >= 0 ? ROOM_PLAYERS : ROOM_SPECTATORS;
    if (json_array_size(g->chat->lines[room]) == 0) return;
    session_send_json(ss, json_pack("{s:s, s:s, s:O}", "type", "chat_history", "game",
                                    g->info.id, "messages", g->chat->lines[room]));
}

void chat_free(Chat *chat) {
    if (chat == NULL) return;
    for (int i = 0; i < 2; i++) json_decref(chat->lines[i]);
    free(chat);
}
