/*
 * players.c: who plays, without passwords. A page keeps a long random
 * identity secret and sends it ("identify"); the store keeps only its
 * SHA-256, with the unique name the identity claimed once and for good, and
 * its Glicko-2 rating. A connection that identified plays under that name;
 * one that did not plays anonymously. The end of every game is recorded
 * here (the store's finish_game), which rates a rated game exactly once,
 * whichever process or restart sees the end. Also the JSON of the players'
 * pages and the leaderboard (GET /api/...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/evp.h>

#include "internal.h"

#define IDENTITY_MIN 20 /* characters of an identity secret: the page makes 32 */
#define IDENTITY_MAX 128
#define PROVISIONAL_RD 110.0 /* a rating this uncertain is shown with a '?' */
#define PAGE_GAMES 100       /* games on a player's page */
#define LEADERS 100          /* players on the leaderboard */
#define SWEEP_MAX 1000       /* rated games looked at when the server starts */
#define CLAIM_BURST 50       /* names claimed on one server at once, */
#define CLAIM_REFILL_MS 200  /* then five a second: a script cannot squat names by the thousand */

/* The store's key of a secret: its SHA-256 in hex. */
static bool secret_hash(const char *secret, char out[STORE_HASH_LEN + 1]) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(secret, strlen(secret), md, &n, EVP_sha256(), NULL) || n * 2 != STORE_HASH_LEN)
        return false;
    for (unsigned i = 0; i < n; i++) snprintf(out + 2 * i, 3, "%02x", md[i]);
    return true;
}

/* Why `secret` cannot be an identity secret, or NULL. */
static const char *bad_identity(const char *secret) {
    size_t n = strlen(secret);
    if (n < IDENTITY_MIN || n > IDENTITY_MAX)
        return "'identity' must be a secret of 20 to 128 characters";
    for (size_t i = 0; i < n; i++) {
        char c = secret[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return "'identity' is made of letters, digits, '_' and '-'";
    }
    return NULL;
}

static double round1(double x) { return (double)(long long)(x * 10 + (x < 0 ? -0.5 : 0.5)) / 10; }

json_t *players_json(const StoredPlayer *p) {
    return json_pack("{s:s, s:f, s:f, s:f, s:i, s:b, s:I}", "name", p->name, "rating",
                     round1(p->rating.rating), "rd", round1(p->rating.rd), "volatility",
                     p->rating.volatility, "games", p->rated_games, "provisional",
                     p->rating.rd > PROVISIONAL_RD, "since", (json_int_t)p->created_s);
}

/* ---- identify -------------------------------------------------------------- */

/* "identify": `identity` (the secret), and `name` to claim one for a new
 * identity. The reply carries `player` (null for an identity that has not
 * claimed a name yet); from then on the connection plays under that name. */
bool players_on_identify(const Request *r) {
    Server *s = r->ss->server;
    const char *secret, *name;
    if (!request_str_field(r, "identity", true, IDENTITY_MAX + 1, &secret) ||
        !request_str_field(r, "name", false, 64, &name))
        return false;
    const char *why = bad_identity(secret);
    if (why) return request_fail(r, "%s", why);
    if (name && (why = lobby_bad_name(name))) return request_fail(r, "%s", why);
    char hash[STORE_HASH_LEN + 1];
    if (!secret_hash(secret, hash)) return request_fail(r, "cannot hash the identity");
    StoredPlayer p;
    bool found = false, taken = false;
    TakError err;
    if (!s->store->ops->find_player(s->store, PLAYER_BY_HASH, hash, &p, &found, &err))
        return request_fail(r, "%s", err.message);
    if (!found && name) {
        if (!bucket_take(&s->new_players, CLAIM_BURST, CLAIM_REFILL_MS))
            return request_fail(r, "too many new names at once on this server: try again in a "
                                   "few seconds");
        if (!s->store->ops->create_player(s->store, hash, name, &p, &taken, &err))
            return request_fail(r, "%s", err.message);
        if (taken)
            return request_fail(r,
                                "the name '%s' is taken (names are unique in any case): pick "
                                "another",
                                name);
        found = true;
    }
    if (found && name && strcasecmp(name, p.name) != 0)
        return request_fail(r, "this identity's name is '%s' already: a name cannot be changed",
                            p.name);
    if (!found) {
        r->ss->player = 0;
        r->ss->player_name[0] = '\0';
        return request_ok(r, json_pack("{s:n}", "player"));
    }
    r->ss->player = p.id;
    memcpy(r->ss->player_name, p.name, sizeof p.name);
    lobby_changed(r->ss->server); /* a seek may name this player: its lobby shows it now */
    return request_ok(r, json_pack("{s:o}", "player", players_json(&p)));
}

bool players_by_secret(Server *s, const char *secret, StoredPlayer *out, bool *found,
                       TakError *err) {
    char hash[STORE_HASH_LEN + 1];
    *found = false;
    if (bad_identity(secret)) return true; /* no secret of ours: nobody */
    if (!secret_hash(secret, hash)) return tak_error_set(err, "cannot hash the identity");
    return s->store->ops->find_player(s->store, PLAYER_BY_HASH, hash, out, found, err);
}

/* ---- a seat's player -------------------------------------------------------- */

bool players_of_request(const Request *r, SeatPlayer *out) {
    const char *name;
    memset(out, 0, sizeof *out);
    if (!request_str_field(r, "name", false, 64, &name)) return false;
    Session *ss = r->ss;
    if (ss->player == 0) {
        if (name == NULL) return true; /* anonymous */
        const char *why = lobby_bad_name(name);
        if (why) return request_fail(r, "%s", why);
        StoredPlayer owner;
        bool taken = false;
        TakError err;
        Server *s = ss->server;
        if (s->store->ops->find_player(s->store, PLAYER_BY_NAME, name, &owner, &taken, &err) &&
            taken)
            return request_fail(
                r, "the name '%s' is taken (names are unique in any case): pick another", name);
        return request_fail(r,
                            "to play as '%s', claim the name first: send 'identify' with your "
                            "identity secret and the name",
                            name);
    }
    if (name && strcasecmp(name, ss->player_name) != 0)
        return request_fail(r, "this connection plays as '%s', not '%s'", ss->player_name, name);
    Server *s = ss->server;
    StoredPlayer p;
    bool found = false;
    TakError err;
    char key[24];
    snprintf(key, sizeof key, "%lld", (long long)ss->player);
    if (!s->store->ops->find_player(s->store, PLAYER_BY_ID, key, &p, &found, &err))
        return request_fail(r, "%s", err.message);
    if (!found) return request_fail(r, "your player is gone from the store");
    out->id = p.id;
    memcpy(out->name, p.name, sizeof p.name);
    out->rating = p.rating.rating;
    return true;
}

double players_rating_now(Server *s, int64_t player, double dflt) {
    StoredPlayer p;
    bool found = false;
    TakError err;
    char key[24];
    snprintf(key, sizeof key, "%lld", (long long)player);
    if (player == 0 || !s->store->ops->find_player(s->store, PLAYER_BY_ID, key, &p, &found, &err) ||
        !found)
        return dflt;
    return p.rating.rating;
}

void players_seat(StoredGame *info, int color, const SeatPlayer *p) {
    memcpy(info->name[color], p->name, sizeof info->name[color]);
    info->player[color] = p->id;
    info->rating[color] = p->rating;
}

/* ---- the end of a game -------------------------------------------------------- */

void players_game_over(Server *s, LiveGame *g) {
    TakResult res = tak_game_result(&g->game);
    if (res.end == TAK_END_NONE || g->info.result[0]) return;
    const char *code = tak_result_code(res);
    double white_score = res.winner == TAK_WHITE ? 1 : res.winner == TAK_BLACK ? 0 : 0.5;
    bool rated = false;
    TakRating after[2];
    TakError err;
    int64_t now = clock_now_ms() / 1000;
    if (!s->store->ops->finish_game(s->store, g->info.id, code, (int)res.end, white_score, now,
                                    &rated, after, &err)) {
        /* Not recorded: the next load of the game (or start of a server) tries again. */
        if (!s->config->quiet)
            fprintf(stderr, "tak serve: recording the end of %s: %s\n", g->info.id, err.message);
        return;
    }
    snprintf(g->info.result, sizeof g->info.result, "%s", code);
    g->info.result_end = (int)res.end;
    g->info.finished_s = now;
    if (rated) memcpy(g->info.rating_after, after, sizeof after);
}

void players_sweep(Server *s) {
    char(*ids)[STORE_ID_LEN + 1] = malloc(SWEEP_MAX * sizeof *ids);
    size_t n = 0;
    TakError err;
    if (ids == NULL) return;
    if (!s->store->ops->unfinished_rated(s->store, SWEEP_MAX, ids, &n, &err)) n = 0;
    for (size_t i = 0; i < n; i++) {
        /* Loading a game records its end when it has one (games_find). */
        LiveGame *g = games_find(s, ids[i], &err);
        if (g) games_unload_if_idle(s, g);
    }
    free(ids);
}

/* ---- the players' pages' JSON ---------------------------------------------------- */

static json_t *rating_or_null(double r) { return r > 0 ? json_real(round1(r)) : json_null(); }

/* How a game ended, in one word for the page to phrase, or NULL while it
 * goes on. A game recorded before the store kept the way it ended, and that
 * ended on the board, says it by its result code (R or F). */
static const char *ending(const StoredGameSummary *g) {
    static const char *const words[] = {
        [TAK_END_ROAD] = "road",
        [TAK_END_BOARD_FULL] = "flats",
        [TAK_END_RESERVES] = "reserves",
        [TAK_END_REPETITION] = "repetition",
        [TAK_END_RESIGNATION] = "resignation",
        [TAK_END_TIME] = "time",
        [TAK_END_AGREEMENT] = "agreement",
    };
    if (!g->result[0]) return NULL;
    if (g->end > 0 && g->end < (int)(sizeof words / sizeof *words) && words[g->end])
        return words[g->end];
    if (strchr(g->result, 'R')) return "road";
    if (strchr(g->result, 'F')) return "flats";
    return NULL; /* a draw or a win whose way was not kept */
}

static json_t *clock_or_null(const StoredClock *c) {
    if (c->base_ms <= 0) return json_null();
    return json_pack("{s:I, s:I}", "base_ms", (json_int_t)c->base_ms, "increment_ms",
                     (json_int_t)c->increment_ms);
}

/* GET /api/players/NAME: the player, their games (newest first) and their
 * rating after each rated game (oldest first). */
static json_t *player_page(Server *s, const char *name, int *status) {
    StoredPlayer p;
    bool found = false;
    TakError err;
    if (lobby_bad_name(name) ||
        !s->store->ops->find_player(s->store, PLAYER_BY_NAME, name, &p, &found, &err) || !found) {
        *status = 404;
        return json_pack("{s:s}", "error", "no such player");
    }
    StoredGameSummary *games = malloc(PAGE_GAMES * sizeof *games);
    size_t n = 0;
    if (games == NULL ||
        !s->store->ops->player_games(s->store, p.id, PAGE_GAMES, games, &n, &err)) {
        free(games);
        *status = 500;
        return json_pack("{s:s}", "error", games ? err.message : "out of memory");
    }
    json_t *list = json_array(), *history = json_array();
    for (size_t i = 0; i < n; i++) {
        const StoredGameSummary *g = &games[i];
        char ptn[64], opponent[40];
        snprintf(ptn, sizeof ptn, "/api/games/%s.ptn", g->id);
        if (g->engine_level > 0)
            snprintf(opponent, sizeof opponent, "Tak engine, level %d", g->engine_level);
        json_t *row = json_pack("{s:s, s:I, s:o, s:i, s:s, s:o, s:o, s:o, s:b, s:o, s:o, s:s}",
                                "game", g->id, "created", (json_int_t)g->created_s, "finished",
                                g->finished_s ? json_integer(g->finished_s) : json_null(), "size",
                                g->size, "color", g->color ? "black" : "white", "opponent",
                                g->opponent[0] ? json_string(g->opponent) : json_null(), "engine",
                                g->engine_level > 0 ? json_string(opponent) : json_null(), "result",
                                g->result[0] ? json_string(g->result) : json_null(), "rated",
                                g->rated, "rating_before", rating_or_null(g->rating_before),
                                "rating_after", rating_or_null(g->rating_after.rating), "ptn", ptn);
        const char *end = ending(g);
        json_object_set_new(row, "end", end ? json_string(end) : json_null());
        json_object_set_new(row, "clock", clock_or_null(&g->clock));
        json_object_set_new(row, "plies", json_integer(g->plies));
        json_array_append_new(list, row);
    }
    for (size_t i = n; i-- > 0;)
        if (games[i].rating_after.rating > 0)
            json_array_append_new(history, json_pack("{s:s, s:I, s:f, s:f}", "game", games[i].id,
                                                     "time", (json_int_t)games[i].finished_s,
                                                     "rating", round1(games[i].rating_after.rating),
                                                     "rd", round1(games[i].rating_after.rd)));
    free(games);
    json_t *out = players_json(&p);
    json_object_set_new(out, "history", history);
    json_object_set_new(out, "recent", list);
    return out;
}

/* GET /api/leaderboard: the best-rated players with a rated game. */
static json_t *leaderboard(Server *s, int *status) {
    StoredPlayer *p = malloc(LEADERS * sizeof *p);
    size_t n = 0;
    TakError err;
    if (p == NULL || !s->store->ops->leaderboard(s->store, LEADERS, p, &n, &err)) {
        free(p);
        *status = 500;
        return json_pack("{s:s}", "error", p ? err.message : "out of memory");
    }
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(list, players_json(&p[i]));
    free(p);
    return json_pack("{s:o}", "players", list);
}

/* GET /api/games/ID.ptn: a game's PTN, as the "export" message gives it. */
static char *game_ptn(Server *s, const char *rest, int *status) {
    char id[STORE_ID_LEN + 1];
    size_t n = strlen(rest);
    if (n != STORE_ID_LEN + 4 || strcmp(rest + STORE_ID_LEN, ".ptn") != 0) return NULL;
    memcpy(id, rest, STORE_ID_LEN);
    id[STORE_ID_LEN] = '\0';
    for (int i = 0; i < STORE_ID_LEN; i++)
        if (!((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= '2' && id[i] <= '9'))) return NULL;
    TakError err;
    LiveGame *g = games_find(s, id, &err);
    if (g == NULL) return NULL;
    char *text = export_ptn(g, &err);
    games_unload_if_idle(s, g);
    if (text == NULL) *status = 500;
    return text;
}

char *players_http(Server *s, const char *uri, int *status, const char **mime) {
    json_t *out = NULL;
    *status = 200;
    *mime = "application/json";
    if (strncmp(uri, "/api/players/", 13) == 0) {
        out = player_page(s, uri + 13, status);
    } else if (strcmp(uri, "/api/leaderboard") == 0) {
        out = leaderboard(s, status);
    } else if (strncmp(uri, "/api/games/", 11) == 0) {
        char *text = game_ptn(s, uri + 11, status);
        if (text) {
            *mime = "text/plain; charset=utf-8";
            return text;
        }
        if (*status == 200) *status = 404;
        out = json_pack("{s:s}", "error", *status == 404 ? "no such game" : "cannot write it");
    } else {
        *status = 404;
        out = json_pack("{s:s}", "error", "no such API");
    }
    char *text = out ? json_dumps(out, JSON_COMPACT) : NULL;
    json_decref(out);
    return text;
}
