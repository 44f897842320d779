/*
 * tei.c: the TEI session: parses each input line into tokens, keeps the
 * options and the game (with its history, for repetitions), and runs `go` in
 * a thread of its own so that the caller's thread stays free to answer
 * `isready`, `stop` and `quit`. Two locks: `out` keeps output lines whole
 * when both threads write, `lock` guards the search's state.
 */
#define _POSIX_C_SOURCE 200809L

#include "tak/tei.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "tak/engine.h"
#include "tak/game.h"
#include "tak/notation.h"

#define DEFAULT_NAME "Tak"
#define DEFAULT_AUTHOR "the Tak project"
#define DEFAULT_SIZE 6
#define DEFAULT_HASH_MB 64
#define HASH_MAX_MB 65536
#define THREADS_MAX 64
/* Output lines: an info line with a full PV is well under this. */
#define OUT_MAX 4096

struct TakTeiSession {
    TakTeiWrite write;
    void *user;
    pthread_mutex_t out;
    char name[64], author[64];
    bool no_search;

    /* Options and the game; touched by the caller's thread only. */
    TakEngine *engine;
    int half_komi, hash_mb, threads, threads_max, multipv, level;
    int size;
    TakGame game;

    /* The search. `searching` is true from `go` until its bestmove is out;
     * `joinable` until the thread has been joined. */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t thread;
    bool joinable, searching, stop_requested;
    TakPosition search_pos;
    uint64_t *history;
    size_t history_len;
    TakSearchLimits limits;
    int reports;
};

/* ---- Output ---------------------------------------------------------- */

static void emit(TakTeiSession *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(TakTeiSession *s, const char *fmt, ...) {
    char buf[OUT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&s->out);
    s->write(buf, s->user);
    pthread_mutex_unlock(&s->out);
}

/* A short, printable copy of untrusted text, for quoting it in errors. */
static const char *quote(const char *text, char buf[48]) {
    size_t n = 0;
    for (; text[n] != '\0' && n < 40; n++) {
        unsigned char c = (unsigned char)text[n];
        buf[n] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
    }
    if (text[n] != '\0') {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

/* Writes the moves of a PV that are legal one after the other from `pos`. */
static size_t write_pv(const TakPosition *start, const TakMove *pv, int n, char *buf, size_t cap) {
    TakPosition pos = *start;
    size_t len = 0;
    for (int i = 0; i < n && i < TAK_PV_MAX; i++) {
        if (tak_position_is_over(&pos) || !tak_move_is_legal(&pos, pv[i])) break;
        char text[TAK_MOVE_TEXT_MAX];
        int k = tak_move_write(pv[i], tak_position_size(&pos), &pos, text);
        if (len + (size_t)k + 2 > cap) break;
        buf[len++] = ' ';
        memcpy(buf + len, text, (size_t)k);
        len += (size_t)k;
        TakUndo undo;
        tak_position_make(&pos, pv[i], &undo);
    }
    buf[len] = '\0';
    return len;
}

static void emit_info(TakTeiSession *s, const TakSearchInfo *info) {
    char pv[OUT_MAX - 256];
    write_pv(&s->search_pos, info->pv, info->pv_length, pv, sizeof pv);
    int64_t ms = info->time_ms > 0 ? info->time_ms : 0;
    uint64_t nps = ms > 0 ? info->nodes * 1000u / (uint64_t)ms : info->nodes;
    emit(s,
         "info depth %d seldepth %d multipv %d score cp %d nodes %" PRIu64 " nps %" PRIu64
         " time %" PRId64 " hashfull %d pv%s",
         info->depth, info->seldepth, info->multipv > 0 ? info->multipv : 1, info->score,
         info->nodes, nps, ms, info->hashfull, pv);
}

/* ---- Creating and freeing -------------------------------------------- */

static int processors(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return THREADS_MAX;
    return n > THREADS_MAX ? THREADS_MAX : (int)n;
}

/* A fresh game from the empty board of `size` under the session's komi. */
static bool rules_for(const TakTeiSession *s, int size, TakRules *rules, TakError *err) {
    if (!tak_rules_standard(rules, size, err)) return false;
    rules->half_komi = s->half_komi;
    /* The session only follows the game; a match runner adjudicates
     * repetitions. The engine still sees the history. */
    rules->repetition_draw = false;
    return true;
}

static bool new_game(TakTeiSession *s, int size, TakError *err) {
    TakRules rules;
    TakPosition start;
    TakGame game;
    if (!rules_for(s, size, &rules, err) || !tak_position_init(&start, &rules, err) ||
        !tak_game_init(&game, &start, err))
        return false;
    tak_game_free(&s->game);
    s->game = game;
    s->size = size;
    return true;
}

TakTeiSession *tak_tei_new(const TakTeiConfig *config, TakTeiWrite write, void *user) {
    TakTeiSession *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    s->write = write;
    s->user = user;
    snprintf(s->name, sizeof s->name, "%s", config && config->name ? config->name : DEFAULT_NAME);
    snprintf(s->author, sizeof s->author, "%s",
             config && config->author ? config->author : DEFAULT_AUTHOR);
    s->no_search = config && config->no_search;
    s->hash_mb = config && config->hash_mb > 0 ? config->hash_mb : DEFAULT_HASH_MB;
    s->threads = 1;
    s->threads_max = processors();
    s->multipv = 1;
    s->level = TAK_LEVEL_MAX;
    /* Without searches (fuzzing) there is no engine at all. */
    if (!s->no_search) s->engine = tak_engine_new((size_t)s->hash_mb, 1);
    TakRules rules;
    TakPosition start;
    if ((!s->no_search && s->engine == NULL) || !rules_for(s, DEFAULT_SIZE, &rules, NULL) ||
        !tak_position_init(&start, &rules, NULL) || !tak_game_init(&s->game, &start, NULL)) {
        if (s->engine) tak_engine_free(s->engine);
        free(s);
        return NULL;
    }
    s->size = DEFAULT_SIZE;
    pthread_mutex_init(&s->out, NULL);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->changed, NULL);
    return s;
}

/* ---- The search thread ----------------------------------------------- */

static void on_report(const TakSearchInfo *info, void *user) {
    TakTeiSession *s = user;
    s->reports++;
    emit_info(s, info);
}

static void finish_search(TakTeiSession *s, TakMove best) {
    if (best == TAK_MOVE_NONE || !tak_move_is_legal(&s->search_pos, best)) {
        TakMoveList *list = malloc(sizeof *list);
        int n = list ? tak_moves_generate(&s->search_pos, list) : 0;
        if (n > 0 && best != TAK_MOVE_NONE)
            emit(s, "info string error: the search returned an illegal move; playing a legal one");
        best = n > 0 ? list->moves[0] : TAK_MOVE_NONE;
        free(list);
    }
    char text[TAK_MOVE_TEXT_MAX] = "--";
    if (best != TAK_MOVE_NONE)
        tak_move_write(best, tak_position_size(&s->search_pos), &s->search_pos, text);
    /* The bestmove goes out under the lock that says "searching": a `go`
     * sent the moment the bestmove arrives must find the search over. */
    pthread_mutex_lock(&s->lock);
    emit(s, "bestmove %s", text);
    s->searching = false;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

static void *search_main(void *arg) {
    TakTeiSession *s = arg;
    TakSearchInfo final;
    memset(&final, 0, sizeof final);
    s->reports = 0;
    TakMove best = tak_engine_search(s->engine, &s->search_pos, s->history, s->history_len,
                                     &s->limits, on_report, s, &final);
    if (s->reports == 0 && final.depth > 0) emit_info(s, &final);
    /* `go infinite` must not answer before `stop`, however soon the search
     * itself ends (a forced win, a depth limit of the engine). */
    if (s->limits.infinite) {
        pthread_mutex_lock(&s->lock);
        while (!s->stop_requested) pthread_cond_wait(&s->changed, &s->lock);
        pthread_mutex_unlock(&s->lock);
    }
    finish_search(s, best);
    return NULL;
}

/* Joins a search thread whose bestmove is already out. */
static void reap(TakTeiSession *s) {
    if (!s->joinable) return;
    pthread_join(s->thread, NULL);
    s->joinable = false;
}

/* Stops the running search, if any, and returns once its bestmove is out.
 * The stop is repeated until the thread answers, so that a stop arriving
 * before the engine has started searching is not lost. */
static void stop_search(TakTeiSession *s) {
    if (!s->joinable) return;
    pthread_mutex_lock(&s->lock);
    s->stop_requested = true;
    pthread_cond_broadcast(&s->changed);
    while (s->searching) {
        tak_engine_stop(s->engine);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 20 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->changed, &s->lock, &until);
    }
    pthread_mutex_unlock(&s->lock);
    reap(s);
}

const TakGame *tak_tei_game(const TakTeiSession *s) { return &s->game; }

bool tak_tei_is_searching(TakTeiSession *s) {
    pthread_mutex_lock(&s->lock);
    bool searching = s->searching;
    pthread_mutex_unlock(&s->lock);
    return searching;
}

void tak_tei_wait(TakTeiSession *s) {
    if (s->joinable && s->limits.infinite) {
        stop_search(s);
        return;
    }
    pthread_mutex_lock(&s->lock);
    while (s->searching) pthread_cond_wait(&s->changed, &s->lock);
    pthread_mutex_unlock(&s->lock);
    reap(s);
}

void tak_tei_free(TakTeiSession *s) {
    if (s == NULL) return;
    stop_search(s);
    free(s->history);
    tak_game_free(&s->game);
    if (s->engine) tak_engine_free(s->engine);
    pthread_cond_destroy(&s->changed);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->out);
    free(s);
}

/* ---- Commands -------------------------------------------------------- */

typedef struct Tokens {
    char **v;
    int n;
} Tokens;

/* Parses a whole decimal integer in [min, max]. */
static bool parse_int(const char *text, long long min, long long max, long long *out) {
    if (text == NULL || *text == '\0') return false;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max) return false;
    *out = v;
    return true;
}

/* Refuses commands that would change what a running search uses. */
static bool busy(TakTeiSession *s, const char *command) {
    if (!tak_tei_is_searching(s)) {
        reap(s);
        return false;
    }
    emit(s, "info string error: '%s' while searching; send stop first", command);
    return true;
}

static void cmd_tei(TakTeiSession *s) {
    emit(s, "id name %s", s->name);
    emit(s, "id author %s", s->author);
    emit(s, "option name HalfKomi type spin default 0 min %d max %d", -TAK_MAX_HALF_KOMI,
         TAK_MAX_HALF_KOMI);
    emit(s, "option name Hash type spin default %d min 1 max %d", s->hash_mb, HASH_MAX_MB);
    emit(s, "option name Threads type spin default 1 min 1 max %d", s->threads_max);
    emit(s, "option name MultiPV type spin default 1 min 1 max %d", TAK_MULTIPV_MAX);
    emit(s, "option name Level type spin default %d min %d max %d", TAK_LEVEL_MAX, TAK_LEVEL_MIN,
         TAK_LEVEL_MAX);
    char line[512];
    int n = snprintf(line, sizeof line, "size");
    for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %d", size);
    n += snprintf(line + n, sizeof line - (size_t)n, " halfkomi");
    for (int k = -TAK_MAX_HALF_KOMI; k <= TAK_MAX_HALF_KOMI; k++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %d", k);
    emit(s, "%s", line);
    emit(s, "teiok");
}

static void cmd_setoption(TakTeiSession *s, const Tokens *t) {
    if (busy(s, "setoption")) return;
    if (t->n < 3 || strcasecmp(t->v[1], "name") != 0) {
        emit(s, "info string error: setoption needs 'name <option> value <value>'");
        return;
    }
    /* The name may be several words, up to "value". */
    int value_at = t->n;
    for (int i = 2; i < t->n; i++)
        if (strcasecmp(t->v[i], "value") == 0) {
            value_at = i;
            break;
        }
    char name[64] = "", q[48];
    for (int i = 2; i < value_at; i++) {
        size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, "%s%s", i > 2 ? " " : "", t->v[i]);
    }
    const char *value = value_at + 1 < t->n ? t->v[value_at + 1] : NULL;
    if (value_at + 2 < t->n) {
        emit(s, "info string error: setoption %s: one value expected", quote(name, q));
        return;
    }
    struct {
        const char *name;
        long long min, max;
    } spins[] = {
        {"HalfKomi", -TAK_MAX_HALF_KOMI, TAK_MAX_HALF_KOMI},
        {"Hash", 1, HASH_MAX_MB},
        {"Threads", 1, s->threads_max},
        {"MultiPV", 1, TAK_MULTIPV_MAX},
        {"Level", TAK_LEVEL_MIN, TAK_LEVEL_MAX},
    };
    int which = -1;
    for (int i = 0; i < (int)(sizeof spins / sizeof spins[0]); i++)
        if (strcasecmp(name, spins[i].name) == 0) which = i;
    if (which < 0) {
        emit(s, "info string unknown option '%s' ignored", quote(name, q));
        return;
    }
    long long v;
    if (!parse_int(value, spins[which].min, spins[which].max, &v)) {
        emit(s, "info string error: option %s needs a whole number from %lld to %lld, not '%s'",
             spins[which].name, spins[which].min, spins[which].max, value ? quote(value, q) : "");
        return;
    }
    switch (which) {
    case 0: s->half_komi = (int)v; break;
    case 1:
        if (s->engine && !tak_engine_set_hash(s->engine, (size_t)v)) {
            emit(s, "info string error: cannot allocate %lld MB for the hash; keeping %d MB", v,
                 s->hash_mb);
            return;
        }
        s->hash_mb = (int)v;
        break;
    case 2:
        s->threads = (int)v;
        if (s->engine) tak_engine_set_threads(s->engine, s->threads);
        break;
    case 3:
        s->multipv = (int)v;
        if (s->engine) tak_engine_set_multipv(s->engine, s->multipv);
        break;
    case 4:
        s->level = (int)v;
        if (s->engine) tak_engine_set_level(s->engine, s->level);
        break;
    }
}

static void cmd_newgame(TakTeiSession *s, const Tokens *t) {
    if (busy(s, "teinewgame")) return;
    long long size = s->size, komi = s->half_komi;
    char q[48];
    if (t->n == 2) {
        if (!parse_int(t->v[1], TAK_MIN_SIZE, TAK_MAX_SIZE, &size)) {
            emit(s, "info string error: teinewgame: size '%s' is not %d to %d", quote(t->v[1], q),
                 TAK_MIN_SIZE, TAK_MAX_SIZE);
            return;
        }
    } else if (t->n > 2) {
        bool has_size = false;
        for (int i = 1; i < t->n; i += 2) {
            const char *key = t->v[i], *value = i + 1 < t->n ? t->v[i + 1] : NULL;
            if (strcasecmp(key, "size") == 0 && parse_int(value, TAK_MIN_SIZE, TAK_MAX_SIZE, &size)) {
                has_size = true;
            } else if (strcasecmp(key, "halfkomi") == 0 &&
                       parse_int(value, -TAK_MAX_HALF_KOMI, TAK_MAX_HALF_KOMI, &komi)) {
            } else {
                emit(s, "info string error: teinewgame: bad '%s %s' (expected 'size 3..8 "
                        "[halfkomi -20..20]')",
                     quote(key, q), value ? value : "");
                return;
            }
        }
        if (!has_size) {
            emit(s, "info string error: teinewgame: no size");
            return;
        }
    }
    int old_komi = s->half_komi;
    s->half_komi = (int)komi;
    TakError err;
    if (!new_game(s, (int)size, &err)) {
        s->half_komi = old_komi;
        emit(s, "info string error: teinewgame: %s", err.message);
        return;
    }
    if (s->engine) tak_engine_new_game(s->engine);
}

/* The board size a TPS describes: its rows. */
static int tps_size(const char *board) {
    int rows = 1;
    for (const char *p = board; *p != '\0' && *p != ' '; p++) rows += *p == '/';
    return rows;
}

static void cmd_position(TakTeiSession *s, const Tokens *t) {
    char q[48];
    if (t->n < 2) {
        emit(s, "info string error: position needs 'startpos' or 'tps <tps>'");
        return;
    }
    int moves_at = t->n;
    for (int i = 1; i < t->n; i++)
        if (strcmp(t->v[i], "moves") == 0) {
            moves_at = i;
            break;
        }
    TakRules rules;
    TakPosition start;
    TakError err;
    tak_error_clear(&err);
    if (strcasecmp(t->v[1], "startpos") == 0) {
        if (moves_at != 2) {
            emit(s, "info string error: position startpos: unexpected '%s'", quote(t->v[2], q));
            return;
        }
        if (!rules_for(s, s->size, &rules, &err) || !tak_position_init(&start, &rules, &err)) {
            emit(s, "info string error: position startpos: %s", err.message);
            return;
        }
    } else if (strcasecmp(t->v[1], "tps") == 0) {
        if (moves_at == 2) {
            emit(s, "info string error: position tps: no TPS given");
            return;
        }
        /* The TPS is the tokens up to "moves", joined again. */
        size_t len = 0;
        for (int i = 2; i < moves_at; i++) len += strlen(t->v[i]) + 1;
        if (len > TAK_TPS_MAX) {
            emit(s, "info string error: position tps: the TPS is too long (%zu bytes)", len);
            return;
        }
        char tps[TAK_TPS_MAX + 1];
        tps[0] = '\0';
        for (int i = 2; i < moves_at; i++) {
            strcat(tps, t->v[i]);
            if (i + 1 < moves_at) strcat(tps, " ");
        }
        int size = tps_size(tps);
        if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE) {
            emit(s, "info string error: position tps: %d rows; a board has %d to %d", size,
                 TAK_MIN_SIZE, TAK_MAX_SIZE);
            return;
        }
        if (!rules_for(s, size, &rules, &err) || !tak_tps_read(tps, &rules, &start, &err)) {
            char where[TAK_ERROR_MESSAGE_MAX + 64];
            emit(s, "info string error: position tps: %s",
                 tak_error_describe(&err, where, sizeof where));
            return;
        }
    } else {
        emit(s, "info string error: position needs 'startpos' or 'tps', not '%s'",
             quote(t->v[1], q));
        return;
    }
    TakGame game;
    if (!tak_game_init(&game, &start, &err)) {
        emit(s, "info string error: position: %s", err.message);
        return;
    }
    for (int i = moves_at + 1; i < t->n; i++) {
        TakMove move;
        if (!tak_move_parse(&game.current, t->v[i], &move, &err) ||
            !tak_game_play(&game, move, &err)) {
            emit(s, "info string error: position: move %d '%s': %s; position unchanged",
                 i - moves_at, quote(t->v[i], q), err.message);
            tak_game_free(&game);
            return;
        }
    }
    /* The running search has its own copy; the game can change under it. */
    tak_game_free(&s->game);
    s->game = game;
}

/* Reads `go`'s parameters into limits for the side to move. Bad parameters
 * are reported and left out: a `go` always gets its bestmove. */
static void parse_go(TakTeiSession *s, const Tokens *t, TakSearchLimits *limits) {
    memset(limits, 0, sizeof *limits);
    char q[48];
    for (int i = 1; i < t->n; i++) {
        const char *key = t->v[i];
        if (strcasecmp(key, "infinite") == 0) {
            limits->infinite = true;
            continue;
        }
        if (strcasecmp(key, "ponder") == 0) continue;
        static const char *const keys[] = {"wtime", "btime", "winc", "binc",
                                           "movestogo", "movetime", "depth", "nodes"};
        int k = -1;
        for (int j = 0; j < 8; j++)
            if (strcasecmp(key, keys[j]) == 0) k = j;
        if (k < 0) {
            emit(s, "info string error: go: unknown parameter '%s' ignored", quote(key, q));
            continue;
        }
        long long v;
        const char *value = i + 1 < t->n ? t->v[i + 1] : NULL;
        if (!parse_int(value, INT64_MIN / 2, INT64_MAX / 2, &v)) {
            emit(s, "info string error: go: %s needs a whole number", keys[k]);
            /* Skip the bad value itself, unless it is the next parameter. */
            bool is_key = value == NULL || strcasecmp(value, "infinite") == 0;
            for (int j = 0; j < 8 && !is_key; j++) is_key = strcasecmp(value, keys[j]) == 0;
            if (!is_key) i++;
            continue;
        }
        i++;
        switch (k) {
        /* A clock at or below zero still means "no time": 1 ms, since 0 would
         * mean "no limit" to the engine. */
        case 0: limits->time_left_ms[TAK_WHITE] = v > 0 ? v : 1; break;
        case 1: limits->time_left_ms[TAK_BLACK] = v > 0 ? v : 1; break;
        case 2: limits->increment_ms[TAK_WHITE] = v > 0 ? v : 0; break;
        case 3: limits->increment_ms[TAK_BLACK] = v > 0 ? v : 0; break;
        case 4: limits->moves_to_go = v > 0 && v < INT_MAX ? (int)v : 0; break;
        case 5: limits->movetime_ms = v > 0 ? v : 1; break;
        case 6: limits->depth = v < 1 ? 1 : v > 1000 ? 1000 : (int)v; break;
        case 7: limits->nodes = v > 0 ? (uint64_t)v : 1; break;
        }
    }
}

static void cmd_go(TakTeiSession *s, const Tokens *t) {
    if (busy(s, "go")) return;
    TakSearchLimits limits;
    parse_go(s, t, &limits);
    s->search_pos = s->game.current;
    if (tak_game_result(&s->game).end != TAK_END_NONE || tak_moves_count(&s->search_pos) == 0) {
        emit(s, "bestmove --");
        return;
    }
    if (s->no_search) {
        s->searching = true;
        finish_search(s, TAK_MOVE_NONE);
        return;
    }
    /* The earlier positions of the game, for repetitions. */
    uint64_t *history = NULL;
    size_t n = s->game.count;
    if (n > 0) {
        history = malloc(n * sizeof *history);
        if (history == NULL) {
            emit(s, "info string error: out of memory; searching without the game's history");
            n = 0;
        } else {
            memcpy(history, s->game.hashes, n * sizeof *history);
        }
    }
    free(s->history);
    s->history = history;
    s->history_len = n;
    s->limits = limits;
    s->stop_requested = false;
    s->searching = true;
    if (pthread_create(&s->thread, NULL, search_main, s) != 0) {
        /* No thread: answer at once rather than never. */
        emit(s, "info string error: cannot start the search thread");
        finish_search(s, TAK_MOVE_NONE);
        return;
    }
    s->joinable = true;
}

/* ---- Lines ----------------------------------------------------------- */

/* Splits a copy of the line at white space and control bytes. */
static bool tokenize(const char *line, size_t len, char **copy, Tokens *t) {
    char *buf = malloc(len + 1);
    char **v = malloc((len / 2 + 2) * sizeof *v);
    if (buf == NULL || v == NULL) {
        free(buf);
        free(v);
        return false;
    }
    int n = 0;
    bool in_token = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        bool separator = c <= ' ' || c == 0x7f;
        buf[i] = separator ? '\0' : (char)c;
        if (!separator && !in_token) v[n++] = buf + i;
        in_token = !separator;
    }
    buf[len] = '\0';
    *copy = buf;
    t->v = v;
    t->n = n;
    return true;
}

bool tak_tei_handle(TakTeiSession *s, const char *line, size_t len) {
    if (len > TAK_TEI_LINE_MAX) {
        emit(s, "info string error: line too long (%zu bytes; at most %d)", len, TAK_TEI_LINE_MAX);
        return true;
    }
    char *copy;
    Tokens t;
    if (!tokenize(line, len, &copy, &t)) {
        emit(s, "info string error: out of memory");
        return true;
    }
    bool go_on = true;
    char q[48];
    const char *c = t.n > 0 ? t.v[0] : "";
    if (t.n == 0) {
        /* An empty line is no command. */
    } else if (strcmp(c, "tei") == 0) {
        cmd_tei(s);
    } else if (strcmp(c, "isready") == 0) {
        emit(s, "readyok");
    } else if (strcmp(c, "setoption") == 0) {
        cmd_setoption(s, &t);
    } else if (strcmp(c, "teinewgame") == 0) {
        cmd_newgame(s, &t);
    } else if (strcmp(c, "position") == 0) {
        cmd_position(s, &t);
    } else if (strcmp(c, "go") == 0) {
        cmd_go(s, &t);
    } else if (strcmp(c, "stop") == 0) {
        stop_search(s);
    } else if (strcmp(c, "quit") == 0) {
        stop_search(s);
        go_on = false;
    } else if (strcmp(c, "ponderhit") == 0 || strcmp(c, "debug") == 0) {
        emit(s, "info string '%s' is not supported; ignored", c);
    } else {
        emit(s, "info string error: unknown command '%s'", quote(c, q));
    }
    free(copy);
    free(t.v);
    return go_on;
}
