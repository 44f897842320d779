/*
 * lobby.c: where players who do not know each other meet. A connection that
 * asks (lobby_join) follows the lobby: open seeks (size, komi, clock,
 * colour, the seeker's name), the games being played (to watch) and the
 * last games finished. A seek lives as long as its seeker's connection (at
 * most SEEKS_PER_SESSION each, SEEKS_MAX in all); the first to accept it
 * gets the game, both seats are given out at once and the seeker is told
 * with a "seek_accepted" message. Everything here is in memory: a restart
 * forgets the seeks (their seekers' connections are gone anyway). The
 * PlayTak port posts, cancels and takes seeks with the same functions
 * (lobby_post, lobby_cancel, lobby_take), and is told of each that comes and goes;
 * who may see and take a seek naming an opponent is the lobby's rule
 * (lobby_seek_for), the port's and the page's alike.
 *
 * The followers get the whole lobby as one message, at most twice a second:
 * one write shared by all of them, however many seeks or games changed
 * meanwhile, and the games listed are the first PLAYING_SHOWN. A seek naming
 * an opponent (PlayTak's) is left out of that shared message: its seeker and
 * the player it names get a message of their own with it, everyone else the
 * shared one, so the common case stays one message. A broadcast
 * is spread over LOBBY_SPREAD_MS, a slice of the followers every
 * LOBBY_SLICE_MS (lobby_tick), so a thousand followers never hold up the
 * loop, and the moves waiting behind it, for a thousand writes at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

#define SEEKS_MAX 1000
#define SEEKS_PER_SESSION 3
#define RECENT_MAX 20
#define PLAYING_SHOWN 20
#define LOBBY_EVERY_MS 500
#define LOBBY_SPREAD_MS 200 /* a broadcast reaches every follower within this */
#define LOBBY_SLICES (LOBBY_SPREAD_MS / LOBBY_SLICE_MS)
#define NAME_MAX_CHARS STORE_NAME_LEN

typedef struct Recent {
    char id[STORE_ID_LEN + 1];
    int size;
    char result[16];
    char name[2][STORE_NAME_LEN + 1]; /* the players' names by colour, "" for none */
    int engine_color, engine_level;   /* the engine's seat, or -1 */
} Recent;

struct Lobby {
    LobbySeek seeks[SEEKS_MAX];
    int next_no; /* the number the next seek gets (PlayTak names seeks by number) */
    int seek_count;
    int named; /* ... of them naming an opponent (0: every follower gets the shared message) */
    Session **subs;
    size_t sub_count, sub_cap;
    Recent recent[RECENT_MAX]; /* newest last */
    int recent_count;
    bool dirty;
    int64_t sent_ms; /* when the last broadcast began */
    Outbuf *sending; /* the broadcast under way, or NULL */
    size_t sent;     /* ... which subs[0 .. sent) have been given */
    size_t slice;    /* followers given it per tick */
};

static Lobby *lobby_of(Server *s) {
    if (s->lobby == NULL) s->lobby = calloc(1, sizeof *s->lobby);
    return s->lobby;
}

void lobby_changed(Server *s) {
    if (s->lobby) s->lobby->dirty = true;
}

/* ---- names ---------------------------------------------------------------- */

/* Why `name` cannot be a player's name, or NULL: 2 to 20 letters, digits,
 * '_' or '-' (ASCII, so no look-alike letters), not the engine's. */
const char *lobby_bad_name(const char *name) {
    size_t n = strlen(name);
    if (n < 2 || n > NAME_MAX_CHARS) return "a name has 2 to 20 characters";
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return "a name is made of letters, digits, '_' and '-'";
    }
    /* The site's and the engine's words, alone or run together, with '_',
     * '-' or digits: "Tak", "TakEngine", "takbot_7", "Admin-2" are refused,
     * while "Takeshi" and "Engineer" are names like any other. */
    static const char *const reserved[] = {"engine", "tak", "bot", "admin", "server", "system"};
    char word[NAME_MAX_CHARS + 1];
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        if (name[i] != '_' && name[i] != '-')
            word[len++] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
    while (len > 0 && word[len - 1] >= '0' && word[len - 1] <= '9') len--;
    /* made[i]: word[0, i) is made of reserved words. */
    bool made[NAME_MAX_CHARS + 1] = {true};
    for (size_t i = 0; i < len; i++) {
        if (!made[i]) continue;
        for (size_t k = 0; k < sizeof reserved / sizeof *reserved; k++) {
            size_t m = strlen(reserved[k]);
            if (i + m <= len && memcmp(word + i, reserved[k], m) == 0) made[i + m] = true;
        }
    }
    if (len > 0 && made[len]) return "that name is kept for the engine and the site";
    return NULL;
}

/* ---- the lobby message ------------------------------------------------------ */

static json_t *clock_of(const StoredClock *c) {
    if (c->base_ms <= 0) return json_null();
    return json_pack("{s:I, s:I}", "base_ms", (json_int_t)c->base_ms, "increment_ms",
                     (json_int_t)c->increment_ms);
}

/* Who plays a listed game, into its entry: "white" and "black", the players'
 * names ("" for a player who gave none, and for the engine's seat), and for a
 * game against the engine its seat and level ("engine_color", "level"). */
static json_t *with_players(json_t *entry, char name[2][STORE_NAME_LEN + 1], int engine_color,
                            int engine_level) {
    json_object_set_new(entry, "white", json_string(name[0]));
    json_object_set_new(entry, "black", json_string(name[1]));
    if (engine_color >= 0) {
        json_object_set_new(entry, "engine_color", json_string(games_color_name(engine_color)));
        json_object_set_new(entry, "level", json_integer(engine_level));
    }
    return entry;
}

bool lobby_seek_for(const LobbySeek *k, const char *name) {
    if (k->opponent[0] == '\0') return true;
    if (name == NULL || name[0] == '\0') return false; /* an anonymous seat is nobody's */
    return strcasecmp(k->opponent, name) == 0; /* the shape was resolved when it was posted */
}

void lobby_name_seen(LobbyNameSearch *m, const char *name) {
    if (name == NULL || name[0] == '\0') return;
    if (strcasecmp(name, m->wanted) == 0) {
        m->exact = true;
        return;
    }
    char shown[TAK_PT_NAME_MAX];
    pt_shown_name(name, shown);
    if (strcasecmp(shown, m->wanted) != 0 || strcasecmp(name, m->name) == 0) return;
    m->count++; /* the same player seen twice in a row (page and port) counts once */
    snprintf(m->name, sizeof m->name, "%s", name);
}

/* A seek may name its opponent in the shape PlayTak clients are shown names
 * ("a_b" for "a-b", "Bob_" for "Bob"), which several names share. The name
 * given stands when a player has it (any case), online or in the store; else
 * it means the one player online with that shape, if exactly one, and the
 * seek names them from then on, so who sees and takes it is an exact match. */
static void resolve_opponent(Server *s, const Lobby *l, char opponent[STORE_NAME_LEN + 1]) {
    if (opponent[0] == '\0' || engine_seeks_level(opponent)) return;
    LobbyNameSearch m = {.wanted = opponent};
    for (size_t i = 0; i < l->sub_count && !m.exact; i++)
        if (l->subs[i]->player) lobby_name_seen(&m, l->subs[i]->player_name);
    if (!m.exact) playtak_port_names(s, &m);
    if (m.exact || m.count != 1) return;
    StoredPlayer p;
    bool found = false;
    TakError err;
    if (!s->store->ops->find_player(s->store, PLAYER_BY_NAME, opponent, &p, &found, &err) || found)
        return; /* a player offline has it exactly (or we cannot tell): it stays theirs */
    snprintf(opponent, STORE_NAME_LEN + 1, "%s", m.name);
}

/* Whether follower ss is shown seek k: one naming an opponent is its seeker's
 * (the connection, or the same player elsewhere) and the named player's only. */
static bool shown_to(const LobbySeek *k, const Session *ss) {
    if (k->opponent[0] == '\0') return true;
    if (ss == NULL) return false;
    if (k->seeker == ss) return true;
    if (ss->player == 0) return false; /* a name is needed to be named */
    return k->player.id == ss->player || lobby_seek_for(k, ss->player_name);
}

/* Whether follower ss needs a lobby message of its own: a seek names it, or is its. */
static bool own_view(const Lobby *l, const Session *ss) {
    for (int i = 0, seen = 0; seen < l->named && i < l->seek_count; i++) {
        if (l->seeks[i].opponent[0] == '\0') continue;
        seen++;
        if (shown_to(&l->seeks[i], ss)) return true;
    }
    return false;
}

/* The lobby as `viewer` is shown it; NULL: the message shared by every
 * follower no seek names. */
static json_t *lobby_json(Server *s, const Session *viewer) {
    Lobby *l = lobby_of(s);
    static const char *const colors[] = {"white", "black", "random"};
    json_t *seeks = json_array(), *playing = json_array(), *recent = json_array();
    for (int i = 0; i < l->seek_count; i++) {
        const LobbySeek *k = &l->seeks[i];
        if (!shown_to(k, viewer)) continue;
        json_t *seek = json_pack("{s:s, s:s, s:i, s:f, s:o, s:s, s:b, s:i}", "id", k->id, "name",
                                 k->player.name, "size", k->rules.size, "komi",
                                 k->rules.half_komi / 2.0, "clock", clock_of(&k->clock), "color",
                                 colors[k->color], "rated", k->rated, "rating",
                                 (int)(k->player.rating + 0.5));
        if (k->opponent[0]) json_object_set_new(seek, "opponent", json_string(k->opponent));
        json_array_append_new(seeks, seek);
    }
    for (size_t b = 0; b < s->bucket_count && json_array_size(playing) < PLAYING_SHOWN; b++)
        for (LiveGame *g = s->buckets[b]; g && json_array_size(playing) < PLAYING_SHOWN; g = g->hnext) {
            bool seated = g->info.secret[0][0] && g->info.secret[1][0];
            bool engine = g->info.engine_color >= 0;
            if (tak_game_result(&g->game).end != TAK_END_NONE || !(seated || engine)) continue;
            json_t *entry =
                json_pack("{s:s, s:i, s:o, s:o}", "id", g->info.id, "size", g->info.rules.size,
                          "engine", json_boolean(engine), "clock", clock_of(&g->info.clock));
            json_array_append_new(playing, with_players(entry, g->info.name, g->info.engine_color,
                                                        g->info.engine_level));
        }
    for (int i = l->recent_count; i-- > 0;) {
        Recent *r = &l->recent[i];
        json_t *entry =
            json_pack("{s:s, s:i, s:s}", "id", r->id, "size", r->size, "result", r->result);
        json_array_append_new(recent,
                              with_players(entry, r->name, r->engine_color, r->engine_level));
    }
    return json_pack("{s:s, s:o, s:o, s:o, s:[i,i]}", "type", "lobby", "seeks", seeks, "playing",
                     playing, "recent", recent, "levels", TAK_LEVEL_MIN, TAK_LEVEL_MAX);
}

/* Gives the broadcast under way to the next slice of followers (a follower
 * some seek names gets its own, made now, so it is as fresh as the shared one). */
static void send_slice(Server *s, Lobby *l) {
    size_t end = l->sent + l->slice < l->sub_count ? l->sent + l->slice : l->sub_count;
    for (; l->sent < end; l->sent++) {
        Session *ss = l->subs[l->sent];
        if (own_view(l, ss))
            session_send_json(ss, lobby_json(s, ss));
        else
            session_send(ss, l->sending);
    }
    if (l->sent == l->sub_count) {
        outbuf_release(l->sending);
        l->sending = NULL;
    }
}

void lobby_tick(Server *s) {
    Lobby *l = s->lobby;
    if (l == NULL) return;
    if (l->sending) return send_slice(s, l);
    if (!l->dirty) return;
    /* Twice a second at most: fresh enough for people, and a thousand
     * followers cost the moves little (bench/SERVER.md). */
    int64_t now = clock_now_ms();
    if (now - l->sent_ms < LOBBY_EVERY_MS) return;
    l->sent_ms = now;
    l->dirty = false;
    if (l->sub_count == 0) return;
    l->sending = outbuf_json(lobby_json(s, NULL));
    if (l->sending == NULL) return;
    l->sent = 0;
    l->slice = (l->sub_count + LOBBY_SLICES - 1) / LOBBY_SLICES;
    send_slice(s, l);
}

void lobby_game_over(Server *s, const LiveGame *g) {
    Lobby *l = lobby_of(s);
    if (l == NULL) return;
    if (l->recent_count == RECENT_MAX) {
        memmove(&l->recent[0], &l->recent[1], (RECENT_MAX - 1) * sizeof *l->recent);
        l->recent_count--;
    }
    Recent *r = &l->recent[l->recent_count++];
    memcpy(r->id, g->info.id, sizeof r->id);
    r->size = g->info.rules.size;
    snprintf(r->result, sizeof r->result, "%s", tak_result_code(tak_game_result(&g->game)));
    memcpy(r->name, g->info.name, sizeof r->name);
    r->engine_color = g->info.engine_color;
    r->engine_level = g->info.engine_level;
    l->dirty = true;
}

/* ---- followers and seekers that leave ------------------------------------ */

static void remove_seek(Server *s, Lobby *l, int i) {
    playtak_port_seek_changed(s, &l->seeks[i], false);
    l->named -= l->seeks[i].opponent[0] != '\0';
    l->seeks[i] = l->seeks[--l->seek_count];
    l->dirty = true;
}

const LobbySeek *lobby_seeks(Server *s, int *count) {
    *count = s->lobby ? s->lobby->seek_count : 0;
    return s->lobby ? s->lobby->seeks : NULL;
}

void lobby_session_closed(Server *s, Session *ss) {
    Lobby *l = s->lobby;
    if (l == NULL) return;
    for (int i = l->seek_count; i-- > 0;)
        if (l->seeks[i].seeker == ss) remove_seek(s, l, i);
    for (size_t i = 0; i < l->sub_count; i++)
        if (l->subs[i] == ss) {
            /* Keep subs[0 .. sent) the followers given the broadcast under way. */
            size_t last = --l->sub_count;
            if (i < l->sent) {
                l->subs[i] = l->subs[l->sent - 1];
                l->subs[l->sent - 1] = l->subs[last];
                l->sent--;
            } else {
                l->subs[i] = l->subs[last];
            }
            break;
        }
}

void lobby_free(Server *s) {
    if (s->lobby == NULL) return;
    outbuf_release(s->lobby->sending);
    free(s->lobby->subs);
    free(s->lobby);
    s->lobby = NULL;
}

/* ---- requests ---------------------------------------------------------------- */

bool lobby_on_join(const Request *r) {
    Server *s = r->ss->server;
    Lobby *l = lobby_of(s);
    if (l == NULL) return request_fail(r, "out of memory");
    bool known = false;
    for (size_t i = 0; i < l->sub_count; i++) known |= l->subs[i] == r->ss;
    if (!known) {
        if (l->sub_count == l->sub_cap) {
            size_t cap = l->sub_cap ? l->sub_cap * 2 : 64;
            Session **p = realloc(l->subs, cap * sizeof *p);
            if (p == NULL) return request_fail(r, "out of memory");
            l->subs = p;
            l->sub_cap = cap;
        }
        l->subs[l->sub_count++] = r->ss;
    }
    request_ok(r, NULL);
    session_send_json(r->ss, lobby_json(s, r->ss));
    return true;
}

/* A seek: the rules and clock as "create" takes them, the seeker's colour
 * (2: random), rated or not. */
bool lobby_on_seek(const Request *r) {
    static const char *const colors[] = {"white", "black", "random", NULL};
    long size;
    int color;
    bool rated;
    TakRules rules;
    StoredClock clock;
    if (!request_int_field(r, "size", TAK_MIN_SIZE, TAK_MAX_SIZE, 5, &size) ||
        !request_choice_field(r, "color", colors, 2, &color) || !request_rules(r, (int)size, &rules) ||
        !request_clock(r, &clock) || !request_bool_field(r, "rated", false, &rated))
        return false;
    Server *s = r->ss->server;
    SeatPlayer player;
    if (!players_of_request(r, &player)) return false;
    if (player.id == 0)
        return request_fail(r, "a seek is posted under a name: send 'identify' with your "
                               "identity secret and a name first");
    LobbySeek want;
    memset(&want, 0, sizeof want);
    want.player = player;
    want.rated = rated;
    want.rules = rules;
    want.clock = clock;
    want.color = color;
    TakError err;
    const LobbySeek *k = lobby_post(s, r->ss, &want, &err);
    if (k == NULL) return request_fail(r, "%s", err.message);
    return request_ok(r, json_pack("{s:s}", "seek", k->id));
}

const LobbySeek *lobby_post(Server *s, Session *seeker, const LobbySeek *want, TakError *err) {
    Lobby *l = lobby_of(s);
    if (l == NULL) {
        tak_error_set(err, "out of memory");
        return NULL;
    }
    int mine = 0;
    for (int i = 0; seeker && i < l->seek_count; i++) mine += l->seeks[i].seeker == seeker;
    if (mine >= SEEKS_PER_SESSION) {
        tak_error_set(err, "you have %d open seeks already: cancel one first", mine);
        return NULL;
    }
    if (l->seek_count >= SEEKS_MAX) {
        tak_error_set(err, "the lobby is full: try again soon");
        return NULL;
    }
    LobbySeek *k = &l->seeks[l->seek_count++];
    *k = *want;
    games_random_code(k->id, STORE_ID_LEN);
    k->no = ++l->next_no;
    k->seeker = seeker;
    resolve_opponent(s, l, k->opponent);
    l->named += k->opponent[0] != '\0';
    l->dirty = true;
    playtak_port_seek_changed(s, k, true);
    return k;
}

bool lobby_cancel(Server *s, Session *seeker, const char *id) {
    Lobby *l = s->lobby;
    for (int i = 0; l && i < l->seek_count; i++)
        if (l->seeks[i].seeker == seeker && (id == NULL || strcmp(l->seeks[i].id, id) == 0)) {
            remove_seek(s, l, i);
            return true;
        }
    return false;
}

bool lobby_on_unseek(const Request *r) {
    const char *id;
    if (!request_str_field(r, "seek", true, 64, &id)) return false;
    if (!lobby_cancel(r->ss->server, r->ss, id)) return request_fail(r, "you have no open seek %s", id);
    return request_ok(r, NULL);
}

bool lobby_on_accept(const Request *r) {
    const char *id;
    SeatPlayer taker;
    if (!request_str_field(r, "seek", true, 64, &id) || !players_of_request(r, &taker)) return false;
    char why[TAK_ERROR_MESSAGE_MAX];
    int mine;
    LobbySeek taken;
    LiveGame *g = lobby_take(r->ss->server, r->ss, id, -1, &taker, &mine, &taken, why, sizeof why);
    if (g == NULL) return request_fail(r, "%s", why);
    request_ok(r, json_pack("{s:s, s:s, s:s, s:I}", "game", g->info.id, "seat",
                            mine ? "black" : "white", "token", g->info.secret[mine], "now_ms",
                            (json_int_t)clock_now_ms()));
    session_attach(r->ss, g, mine);
    if (taken.engine_level) engine_seeks_taken(r->ss->server, &taken);
    return true;
}

/* Starts the game of seek i for `taker` (the engine at taker_level when that
 * is not 0) and tells the seeker; the taker's colour in *seat, the seek in *taken. */
static LiveGame *take(Server *s, Lobby *l, int i, const SeatPlayer *taker, int taker_level,
                      int *seat, LobbySeek *taken, char *why, size_t cap) {
    LobbySeek k = l->seeks[i];
    int seeker_color = k.color == 2 ? games_random_color() : k.color;
    StoredGame info;
    memset(&info, 0, sizeof info);
    games_random_code(info.id, STORE_ID_LEN);
    games_random_code(info.secret[0], STORE_SECRET_LEN);
    games_random_code(info.secret[1], STORE_SECRET_LEN);
    info.rules = k.rules;
    info.clock = k.clock;
    /* The seeker's rating now: a game ended since the seek was posted may have changed it. */
    k.player.rating = players_rating_now(s, k.player.id, k.player.rating);
    players_seat(&info, seeker_color, &k.player);
    players_seat(&info, !seeker_color, taker);
    info.rated = k.rated;
    info.engine_color = -1;
    info.engine_level = TAK_LEVEL_MIN;
    /* The engine's seat, the seeker's or the taker's, is one no secret opens. */
    int engine_color = k.engine_level ? seeker_color : taker_level ? !seeker_color : -1;
    if (engine_color >= 0) {
        info.engine_color = engine_color;
        info.engine_level = k.engine_level ? k.engine_level : taker_level;
        info.secret[engine_color][0] = '\0';
        info.rated = false;
    }
    info.winner = -1;
    TakError err;
    LiveGame *g = games_create(s, &info, NULL, &err);
    if (g == NULL) return snprintf(why, cap, "cannot start the game: %s", err.message), NULL;
    remove_seek(s, l, i); /* taken: a second accept finds it gone */
    *seat = !seeker_color;
    *taken = k;
    if (k.engine_level) return g; /* it stands: the caller posts it again (engine_seeks_taken) */
    if (k.seeker->pt)
        playtak_port_seek_taken(s, k.seeker, g, seeker_color);
    else
        session_send_json(k.seeker, json_pack("{s:s, s:s, s:s, s:s, s:s}", "type",
                                              "seek_accepted", "seek", k.id, "game", g->info.id,
                                              "seat", seeker_color ? "black" : "white", "token",
                                              g->info.secret[seeker_color]));
    return g;
}

static int seek_index(const Lobby *l, const char *id, int no) {
    for (int j = 0; l && j < l->seek_count; j++)
        if (id ? strcmp(l->seeks[j].id, id) == 0 : l->seeks[j].no == no) return j;
    return -1;
}

LiveGame *lobby_take(Server *s, Session *taker_ss, const char *id, int no, const SeatPlayer *taker,
                     int *seat, LobbySeek *taken, char *why, size_t cap) {
    Lobby *l = s->lobby;
    int i = seek_index(l, id, no);
    if (i < 0) {
        if (id)
            snprintf(why, cap, "seek %s is gone: someone else took it, or its player left", id);
        else
            snprintf(why, cap, "seek %d is gone: someone else took it, or its player left", no);
        return NULL;
    }
    const LobbySeek *k = &l->seeks[i];
    if (k->seeker == taker_ss) return snprintf(why, cap, "that is your own seek"), NULL;
    if (taker->id && taker->id == k->player.id)
        return snprintf(why, cap, "that is your own seek (from another connection)"), NULL;
    if (k->rated && taker->id == 0)
        return snprintf(why, cap, "a rated game is played under a name: send 'identify' with "
                                  "your identity secret and a name first"),
               NULL;
    if (!lobby_seek_for(k, taker->name))
        return snprintf(why, cap, "that seek is for %s only", k->opponent), NULL;
    return take(s, l, i, taker, 0, seat, taken, why, cap);
}

LiveGame *lobby_take_for_engine(Server *s, const char *id, int level, char *why, size_t cap) {
    Lobby *l = s->lobby;
    int i = seek_index(l, id, -1);
    if (i < 0) return snprintf(why, cap, "seek %s is gone", id), NULL;
    SeatPlayer engine;
    memset(&engine, 0, sizeof engine);
    engine_seeks_name(level, engine.name, sizeof engine.name);
    int seat;
    LobbySeek taken;
    return take(s, l, i, &engine, level, &seat, &taken, why, cap);
}
