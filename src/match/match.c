/*
 * match.c: the match runner. Worker threads take the next game number, play
 * it with their own pair of players (restarted after a crash or hang), and
 * add the result to the shared score under one lock, where the SPRT may also
 * decide to start no more games. Each game is driven the way a match runner
 * drives TEI engines: `position ... moves ...` and `go` for every move.
 */
#define _POSIX_C_SOURCE 200809L

#include "tak/match.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "player.h"
#include "tak/notation.h"
#include "tak/ptn.h"

#define LINE_MAX_LEN 8192
#define HANDSHAKE_MS 10000
#define HANG_GRACE_MS 2000

typedef struct Shared {
    const TakMatchConfig *config;
    pthread_mutex_t lock;
    int next_game;
    bool stopping;
    TakMatchOutcome outcome;
} Shared;

/* A worker's two players: slot i plays config->players[i]. */
typedef struct Worker {
    Shared *shared;
    pthread_t thread;
    Player *players[2];
} Worker;

/* A growing string. */
typedef struct Text {
    char *s;
    size_t len, cap;
} Text;

static bool text_add(Text *t, const char *s) {
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        while (cap < t->len + n + 1) cap *= 2;
        char *bigger = realloc(t->s, cap);
        if (bigger == NULL) return false;
        t->s = bigger;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n + 1);
    t->len += n;
    return true;
}

/* Sends "setoption" for each "Name=Value" of an options string. */
static bool send_options(Player *p, const char *options, int64_t deadline) {
    if (options == NULL) return true;
    const char *o = options;
    while (*o != '\0') {
        const char *end = strchr(o, ',');
        size_t len = end ? (size_t)(end - o) : strlen(o);
        char item[256], line[300];
        if (len > 0 && len < sizeof item) {
            memcpy(item, o, len);
            item[len] = '\0';
            char *eq = strchr(item, '=');
            if (eq) *eq = '\0';
            snprintf(line, sizeof line, "setoption name %s value %s", item, eq ? eq + 1 : "");
            if (!player_send(p, line, deadline)) return false;
        }
        if (end == NULL) break;
        o = end + 1;
    }
    return true;
}

/* Waits for a line starting with `want` (a whole word). */
static bool expect(Player *p, const char *want, int64_t deadline) {
    char line[LINE_MAX_LEN];
    size_t n = strlen(want);
    for (;;) {
        if (player_read(p, line, sizeof line, deadline) != 1) return false;
        if (strncmp(line, want, n) == 0 && (line[n] == '\0' || line[n] == ' ')) return true;
    }
}

/* Starts (when needed) and prepares a player for a new game. */
static bool prepare(Worker *w, int slot, const TakMatchConfig *c, const char **why) {
    const TakPlayerSpec *spec = &c->players[slot];
    /* A short --timeout shortens the handshake's wait too. */
    int64_t wait = c->timeout_ms > 0 && c->timeout_ms < HANDSHAKE_MS ? c->timeout_ms : HANDSHAKE_MS;
    int64_t deadline = player_now_ms() + wait;
    char line[128];
    if (w->players[slot] == NULL) {
        TakError err;
        w->players[slot] = player_start(spec, c->self_hash_mb > 0 ? c->self_hash_mb : 16, &err);
        if (w->players[slot] == NULL) {
            *why = "engine could not be started";
            return false;
        }
        if (!player_send(w->players[slot], "tei", deadline) ||
            !expect(w->players[slot], "teiok", deadline) ||
            !send_options(w->players[slot], spec->options, deadline)) {
            *why = "engine did not complete the tei handshake";
            return false;
        }
    }
    Player *p = w->players[slot];
    snprintf(line, sizeof line, "setoption name HalfKomi value %d", c->half_komi);
    bool ok = player_send(p, line, deadline);
    snprintf(line, sizeof line, "teinewgame %d", c->size);
    ok = ok && player_send(p, line, deadline) && player_send(p, "isready", deadline) &&
         expect(p, "readyok", deadline);
    if (!ok) *why = "engine did not answer isready";
    return ok;
}

static void drop_player(Worker *w, int slot) {
    player_stop(w->players[slot]);
    w->players[slot] = NULL;
}

typedef enum Fault { FAULT_NONE, FAULT_CRASH, FAULT_HANG, FAULT_TIME, FAULT_ILLEGAL } Fault;

/* Asks the player to move; fills *move or returns what went wrong. */
static Fault ask_move(Player *p, const TakMatchConfig *c, const TakPlayerSpec *spec, const TakGame *game,
                      const Text *setup, int64_t clocks[2], TakMove *move, char *bad, size_t bad_cap) {
    TakColor side = tak_position_side(&game->current);
    char go[256];
    int64_t now = player_now_ms(), deadline, allowed = -1;
    if (c->base_ms > 0) {
        snprintf(go, sizeof go, "go wtime %" PRId64 " btime %" PRId64 " winc %" PRId64 " binc %" PRId64,
                 clocks[0], clocks[1], c->increment_ms, c->increment_ms);
        allowed = clocks[side] + (c->margin_ms > 0 ? c->margin_ms : 100);
        deadline = now + allowed + HANG_GRACE_MS;
    } else if (c->nodes > 0) {
        snprintf(go, sizeof go, "go nodes %" PRIu64, spec->nodes > 0 ? spec->nodes : c->nodes);
        deadline = now + (c->timeout_ms > 0 ? c->timeout_ms : 60000);
    } else {
        snprintf(go, sizeof go, "go movetime %" PRId64, c->movetime_ms);
        allowed = c->movetime_ms + (c->margin_ms > 0 ? c->margin_ms : 100) + 1000;
        deadline = now + allowed + HANG_GRACE_MS;
    }
    if (!player_send(p, setup->s, deadline) || !player_send(p, go, deadline)) return FAULT_CRASH;
    char line[LINE_MAX_LEN];
    for (;;) {
        int r = player_read(p, line, sizeof line, deadline);
        if (r < 0) return FAULT_CRASH;
        if (r == 0) return FAULT_HANG;
        if (strncmp(line, "bestmove", 8) == 0 && (line[8] == ' ' || line[8] == '\0')) break;
    }
    int64_t used = player_now_ms() - now;
    if (allowed >= 0 && used > allowed) return FAULT_TIME;
    if (c->base_ms > 0) {
        clocks[side] += c->increment_ms - used;
        /* Overstepping within the margin is forgiven, not carried over. */
        if (clocks[side] < 1) clocks[side] = 1;
    }
    char *text = line + 8;
    while (*text == ' ') text++;
    char *end = text;
    while (*end != '\0' && *end != ' ') end++;
    *end = '\0';
    size_t k = strlen(text) < bad_cap - 1 ? strlen(text) : bad_cap - 1;
    memcpy(bad, text, k);
    bad[k] = '\0';
    TakError err;
    if (!tak_move_parse(&game->current, text, move, &err)) return FAULT_ILLEGAL;
    return FAULT_NONE;
}

static const char *describe_end(TakResult r) {
    switch (r.end) {
    case TAK_END_ROAD: return "road";
    case TAK_END_BOARD_FULL: return "board full, flats counted";
    case TAK_END_RESERVES: return "reserve empty, flats counted";
    case TAK_END_REPETITION: return "threefold repetition";
    default: return "";
    }
}

/* Plays game `index`; reports it under the lock. */
static void play_game(Worker *w, int index) {
    Shared *sh = w->shared;
    const TakMatchConfig *c = sh->config;
    const char *opening = c->opening_count > 0 ? c->openings[(size_t)(index / 2) % c->opening_count] : NULL;
    int white = index % 2; /* slot playing White: players[0] on even games */
    TakRules rules;
    TakPosition start;
    TakGame game;
    TakError err;
    tak_rules_standard(&rules, c->size, NULL);
    rules.half_komi = c->half_komi;
    rules.repetition_draw = true;
    bool ok = opening ? tak_tps_read(opening, &rules, &start, &err)
                      : tak_position_init(&start, &rules, &err);
    if (!ok || !tak_game_init(&game, &start, &err)) return; /* openings were checked before */

    char termination[160] = "";
    const char *why = NULL;
    /* Both must be ready; one that is not loses. */
    for (int slot = 0; slot < 2 && why == NULL; slot++) {
        if (!prepare(w, slot, c, &why)) {
            int loser_color = slot == white ? TAK_WHITE : TAK_BLACK;
            tak_game_end(&game, TAK_END_RESIGNATION, 1 - loser_color);
            snprintf(termination, sizeof termination, "%s: %s", c->players[slot].name, why);
            drop_player(w, slot);
        }
    }

    Text setup = {0};
    ok = text_add(&setup, opening ? "position tps " : "position startpos");
    if (opening) ok = ok && text_add(&setup, opening);
    ok = ok && text_add(&setup, " moves");
    int64_t clocks[2] = {c->base_ms, c->base_ms};
    int max_plies = c->max_plies > 0 ? c->max_plies : 1000;
    while (ok && tak_game_result(&game).end == TAK_END_NONE) {
        if ((int)game.count >= max_plies) {
            tak_game_end(&game, TAK_END_AGREEMENT, -1);
            snprintf(termination, sizeof termination, "adjudicated: %d plies", max_plies);
            break;
        }
        TakColor side = tak_position_side(&game.current);
        int slot = side == TAK_WHITE ? white : 1 - white;
        TakMove move;
        char bad[64];
        Fault f = ask_move(w->players[slot], c, &c->players[slot], &game, &setup, clocks, &move, bad,
                           sizeof bad);
        if (f == FAULT_NONE && !tak_game_play(&game, move, &err)) f = FAULT_ILLEGAL;
        if (f != FAULT_NONE) {
            const char *name = c->players[slot].name;
            tak_game_end(&game, f == FAULT_TIME || f == FAULT_HANG ? TAK_END_TIME : TAK_END_RESIGNATION,
                         1 - side);
            if (f == FAULT_CRASH) snprintf(termination, sizeof termination, "%s: engine crashed or quit", name);
            if (f == FAULT_HANG) snprintf(termination, sizeof termination, "%s: engine stopped answering", name);
            if (f == FAULT_TIME) snprintf(termination, sizeof termination, "%s: time forfeit", name);
            if (f == FAULT_ILLEGAL) snprintf(termination, sizeof termination, "%s: illegal move '%s'", name, bad);
            /* Whatever state it is in, it starts afresh next game. */
            if (f != FAULT_TIME && f != FAULT_ILLEGAL) drop_player(w, slot);
            break;
        }
        char text[TAK_MOVE_TEXT_MAX + 1] = " ";
        tak_move_write(move, c->size, NULL, text + 1);
        ok = text_add(&setup, text);
    }
    free(setup.s);
    TakResult result = tak_game_result(&game);
    if (termination[0] == '\0') snprintf(termination, sizeof termination, "%s", describe_end(result));

    TakPtn ptn;
    char *ptn_text = NULL;
    if (tak_ptn_from_game(&ptn, &game, &err)) {
        char round[16];
        snprintf(round, sizeof round, "%d", index + 1);
        tak_ptn_set_tag(&ptn, "Event", "tak match");
        tak_ptn_set_tag(&ptn, "Round", round);
        tak_ptn_set_tag(&ptn, "Player1", c->players[white].name);
        tak_ptn_set_tag(&ptn, "Player2", c->players[1 - white].name);
        tak_ptn_set_tag(&ptn, "Termination", termination);
        ptn_text = tak_ptn_write(&ptn);
        tak_ptn_free(&ptn);
    }

    pthread_mutex_lock(&sh->lock);
    TakMatchScore *sc = &sh->outcome.score;
    if (result.winner < 0) sc->draws++;
    else if ((result.winner == TAK_WHITE) == (white == 0)) sc->wins++;
    else sc->losses++;
    sh->outcome.played++;
    if (c->sprt_enabled) {
        sh->outcome.sprt = tak_sprt_status(&c->sprt, sc, &sh->outcome.llr);
        if (sh->outcome.sprt != TAK_SPRT_CONTINUE) sh->stopping = true;
    }
    if (c->report) {
        TakMatchGame g = {.index = index, .white = white, .game = &game, .termination = termination,
                          .ptn = ptn_text, .opening = opening};
        c->report(&g, sc, c->user);
    }
    pthread_mutex_unlock(&sh->lock);
    free(ptn_text);
    tak_game_free(&game);
}

static void *worker_main(void *arg) {
    Worker *w = arg;
    Shared *sh = w->shared;
    for (;;) {
        pthread_mutex_lock(&sh->lock);
        int index = sh->stopping || sh->next_game >= sh->config->games ? -1 : sh->next_game++;
        pthread_mutex_unlock(&sh->lock);
        if (index < 0) break;
        play_game(w, index);
    }
    drop_player(w, 0);
    drop_player(w, 1);
    return NULL;
}

bool tak_match_run(const TakMatchConfig *c, TakMatchOutcome *out, TakError *err) {
    TakRules rules;
    if (!tak_rules_standard(&rules, c->size, err)) return false;
    rules.half_komi = c->half_komi;
    if (!tak_rules_validate(&rules, err)) return false;
    if (c->games < 1) return tak_error_set(err, "a match needs at least one game");
    if (c->base_ms <= 0 && c->nodes == 0 && c->movetime_ms <= 0)
        return tak_error_set(err, "no time control (a clock, nodes or a time per move)");
    for (int i = 0; i < 2; i++)
        if (c->players[i].name == NULL) return tak_error_set(err, "player %d has no name", i + 1);
    for (size_t i = 0; i < c->opening_count; i++) {
        TakPosition pos;
        if (!tak_tps_read(c->openings[i], &rules, &pos, err)) return false;
    }
    int threads = c->concurrency < 1 ? 1 : c->concurrency > c->games ? c->games : c->concurrency;
    Shared sh = {.config = c};
    pthread_mutex_init(&sh.lock, NULL);
    Worker *workers = calloc((size_t)threads, sizeof *workers);
    if (workers == NULL) {
        pthread_mutex_destroy(&sh.lock);
        return tak_error_set(err, "out of memory");
    }
    int started = 0;
    for (; started < threads; started++) {
        workers[started].shared = &sh;
        if (pthread_create(&workers[started].thread, NULL, worker_main, &workers[started]) != 0) break;
    }
    for (int i = 0; i < started; i++) pthread_join(workers[i].thread, NULL);
    free(workers);
    pthread_mutex_destroy(&sh.lock);
    if (started == 0) return tak_error_set(err, "cannot start a thread");
    if (c->sprt_enabled && sh.outcome.sprt == TAK_SPRT_CONTINUE)
        sh.outcome.sprt = tak_sprt_status(&c->sprt, &sh.outcome.score, &sh.outcome.llr);
    *out = sh.outcome;
    return true;
}
