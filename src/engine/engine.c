/*
 * engine.c: the engine object of engine.h: its options, its table, its
 * per-thread search state (allocated when the thread count is set, never in
 * the search), and tak_engine_search, which runs Lazy SMP: every thread
 * searches its own copy of the position with the shared table; thread 0 runs
 * in the caller, keeps the clock, reports, and decides when all stop.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define ENGINE_MAX_THREADS 256

static void thread_free(SearchThread *t) {
    if (t == NULL) return;
    free(t->moves);
    free(t->scores);
    free(t->sort_keys);
    free(t->scratch);
    free(t->history);
    free(t->counter);
    free(t->corr);
    free(t->path);
    free(t->root_moves);
    free(t);
}

static SearchThread *thread_new(TakEngine *e, int id) {
    SearchThread *t = calloc(1, sizeof *t);
    if (t == NULL) return NULL;
    t->engine = e;
    t->id = id;
    t->moves = malloc(MOVE_STACK * sizeof *t->moves);
    t->scores = malloc(MOVE_STACK * sizeof *t->scores);
    t->sort_keys = malloc(TAK_MAX_MOVES * sizeof *t->sort_keys);
    t->scratch = malloc(sizeof *t->scratch);
    t->history = calloc(2, sizeof *t->history);
    t->counter = malloc(2 * sizeof *t->counter);
    if (t->counter) memset(t->counter, 0xFF, 2 * sizeof *t->counter);
    t->corr = calloc(2, sizeof *t->corr);
    if (!t->moves || !t->scores || !t->sort_keys || !t->scratch || !t->history || !t->counter || !t->corr) {
        thread_free(t);
        return NULL;
    }
    return t;
}

static void threads_free(TakEngine *e) {
    for (int i = 0; i < e->thread_count; i++) thread_free(e->threads[i]);
    free(e->threads);
    e->threads = NULL;
    e->thread_count = 0;
}

static bool threads_make(TakEngine *e, int count) {
    if (count < 1) count = 1;
    if (count > ENGINE_MAX_THREADS) count = ENGINE_MAX_THREADS;
    SearchThread **ts = calloc((size_t)count, sizeof *ts);
    if (ts == NULL) return false;
    for (int i = 0; i < count; i++) {
        ts[i] = thread_new(e, i);
        if (ts[i] == NULL) {
            for (int j = 0; j < i; j++) thread_free(ts[j]);
            free(ts);
            return false;
        }
    }
    threads_free(e);
    e->threads = ts;
    e->thread_count = count;
    return true;
}

TakEngine *tak_engine_new(size_t hash_mb, int threads) {
    TakEngine *e = calloc(1, sizeof *e);
    if (e == NULL) return NULL;
    atomic_init(&e->stop, false);
    e->level = TAK_LEVEL_MAX;
    e->multipv = 1;
    if (!tt_resize(&e->tt, hash_mb) || !threads_make(e, threads)) {
        tak_engine_free(e);
        return NULL;
    }
    return e;
}

void tak_engine_free(TakEngine *e) {
    if (e == NULL) return;
    threads_free(e);
    tt_free(&e->tt);
    free(e);
}

bool tak_engine_set_hash(TakEngine *e, size_t hash_mb) { return tt_resize(&e->tt, hash_mb); }

void tak_engine_set_threads(TakEngine *e, int threads) {
    if (threads != e->thread_count) threads_make(e, threads); /* keeps the old ones on failure */
}

void tak_engine_set_level(TakEngine *e, int level) {
    if (level < TAK_LEVEL_MIN) level = TAK_LEVEL_MIN;
    if (level > TAK_LEVEL_MAX) level = TAK_LEVEL_MAX;
    e->level = level;
}

void tak_engine_set_multipv(TakEngine *e, int lines) {
    if (lines < 1) lines = 1;
    if (lines > TAK_MULTIPV_MAX) lines = TAK_MULTIPV_MAX;
    e->multipv = lines;
}

void tak_engine_set_seed(TakEngine *e, uint64_t seed) { e->seed = seed; }

void tak_engine_new_game(TakEngine *e) {
    tt_clear(&e->tt);
    for (int i = 0; i < e->thread_count; i++) {
        memset(e->threads[i]->history, 0, 2 * sizeof *e->threads[i]->history);
        memset(e->threads[i]->corr, 0, 2 * sizeof *e->threads[i]->corr);
        memset(e->threads[i]->counter, 0xFF, 2 * sizeof *e->threads[i]->counter);
    }
}

void tak_engine_stop(TakEngine *e) { atomic_store(&e->stop, true); }

uint64_t engine_total_nodes(const TakEngine *e) {
    uint64_t n = 0;
    for (int i = 0; i < e->thread_count; i++)
        n += atomic_load_explicit(&e->threads[i]->nodes, memory_order_relaxed);
    return n;
}

/* Folds the rules that change scores but not the position's hash (komi,
 * reserves) into the table's keys, so one table never mixes rule sets. */
static uint64_t rules_salt(const TakRules *r) {
    uint64_t x = (uint64_t)(r->half_komi + 64) | (uint64_t)r->stones << 8 |
                 (uint64_t)r->capstones << 16 | (uint64_t)r->size << 24 |
                 (uint64_t)r->no_pass << 32;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Prepares thread t for a search of `pos`; false when out of memory. */
static bool thread_prepare(SearchThread *t, const TakPosition *pos, const uint64_t *history,
                           size_t history_len, int root_count) {
    size_t cap = history_len + MAX_PLY + 4;
    uint64_t *path = realloc(t->path, cap * sizeof *path);
    if (path == NULL) return false;
    t->path = path;
    t->path_cap = cap;
    RootMove *rm = realloc(t->root_moves, (size_t)(root_count ? root_count : 1) * sizeof *rm);
    if (rm == NULL) return false;
    t->root_moves = rm;
    if (history_len) memcpy(path, history, history_len * sizeof *path);
    t->path_base = history_len;
    path[history_len] = pos->hash;
    t->pos = *pos;
    t->masks = board_masks(pos->rules.size);
    t->weights = &engine_weights[pos->rules.size];
    t->policy = policy_weights[pos->rules.size];
    t->key_salt = rules_salt(&pos->rules);
    atomic_store_explicit(&t->nodes, 0, memory_order_relaxed);
    t->seldepth = 0;
    t->completed_depth = 0;
    t->stopped = false;
    t->root_count = 0;
    memset(t->killers, 0xFF, sizeof t->killers);
    t->waiting_count[0] = t->waiting_count[1] = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < HISTORY_SIZE; i++) t->history[c][i] /= 2;
    return true;
}

/* Winning scores counted as this many hundredths when measuring a loss. */
#define JUDGE_WIN_CP 2000

static int judge_clamp(int score) {
    return score > JUDGE_WIN_CP ? JUDGE_WIN_CP : score < -JUDGE_WIN_CP ? -JUDGE_WIN_CP : score;
}

int tak_engine_judge_move(int before, int after, int mistake, int blunder, int *drop) {
    int lost = judge_clamp(before) - judge_clamp(after);
    if (drop) *drop = lost;
    bool lost_now = before > -TAK_SCORE_WIN_MIN && after <= -TAK_SCORE_WIN_MIN;
    return lost >= blunder || lost_now ? 2 : lost >= mistake ? 1 : 0;
}

#if ENGINE_THREADS
static void *worker_main(void *arg) {
    search_iterate(arg);
    return NULL;
}
#endif

static void info_from_root(const SearchThread *t, const TakEngine *e, TakSearchInfo *info) {
    memset(info, 0, sizeof *info);
    info->depth = t->completed_depth;
    info->seldepth = t->seldepth;
    info->multipv = 1;
    info->nodes = engine_total_nodes(e);
    info->time_ms = engine_now_ms() - e->start_ms;
    info->hashfull = tt_hashfull(&e->tt);
    if (t->root_count > 0) {
        const RootMove *rm = &t->root_moves[0];
        info->score = rm->score == -SCORE_INF ? 0 : rm->score;
        info->pv_length = rm->pv_length;
        memcpy(info->pv, rm->pv, (size_t)rm->pv_length * sizeof(TakMove));
    }
}

TakMove tak_engine_search(TakEngine *e, const TakPosition *pos, const uint64_t *history,
                          size_t history_len, const TakSearchLimits *limits,
                          TakSearchReport report, void *user, TakSearchInfo *final_info) {
    atomic_store(&e->stop, false);
    e->start_ms = engine_now_ms();
    TakSearchLimits none;
    memset(&none, 0, sizeof none);
    e->limits = limits ? *limits : none;
    e->report = report;
    e->report_user = user;
    e->level_params = engine_level_params(e->level);
    e->budget = engine_time_budget(&e->limits, pos);
    e->depth_limit = e->limits.depth;
    e->node_limit = e->limits.nodes;
    if (e->limits.infinite) e->depth_limit = 0, e->node_limit = 0;
    const LevelParams *lp = &e->level_params;
    if (lp->max_depth && (!e->depth_limit || e->depth_limit > lp->max_depth))
        e->depth_limit = lp->max_depth;
    if (lp->max_nodes && (!e->node_limit || e->node_limit > lp->max_nodes))
        e->node_limit = lp->max_nodes;

    TakSearchInfo info;
    memset(&info, 0, sizeof info);
    uint64_t root_count = pos->result.end == TAK_END_NONE ? tak_moves_count(pos) : 0;
    if (root_count == 0) {
        if (pos->result.end != TAK_END_NONE) info.score = search_terminal_score(pos, 0);
        if (final_info) *final_info = info;
        return TAK_MOVE_NONE;
    }
    tt_new_search(&e->tt);
    /* Lower levels search with one thread so that a seed replays a game. */
    int threads = lp->margin ? 1 : e->thread_count;
    for (int i = 0; i < threads; i++)
        if (!thread_prepare(e->threads[i], pos, history, history_len, (int)root_count)) {
            if (i == 0) {
                if (final_info) *final_info = info;
                TakMoveList *list = e->threads[0]->scratch;
                return tak_moves_generate(pos, list) > 0 ? list->moves[0] : TAK_MOVE_NONE;
            }
            threads = i;
        }
    for (int i = threads; i < e->thread_count; i++)
        atomic_store_explicit(&e->threads[i]->nodes, 0, memory_order_relaxed);

    int started = 1;
#if ENGINE_THREADS
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&e->threads[i]->handle, NULL, worker_main, e->threads[i]) != 0) break;
        started++;
    }
#endif
    SearchThread *main_thread = e->threads[0];
    search_iterate(main_thread);
    /* An infinite search waits for its stop (from another thread: none
     * without threads, where it ends when the search does). */
    if (e->limits.infinite && ENGINE_THREADS)
        while (!atomic_load(&e->stop)) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    atomic_store(&e->stop, true);
#if ENGINE_THREADS
    for (int i = 1; i < started; i++) pthread_join(e->threads[i]->handle, NULL);
#endif

    /* The deepest finished thread answers (the main one on a tie). */
    SearchThread *best = main_thread;
    for (int i = 1; i < started; i++) {
        SearchThread *t = e->threads[i];
        if (t->completed_depth > best->completed_depth && t->root_count > 0 &&
            t->root_moves[0].score > -SCORE_INF)
            best = t;
    }
    TakMove move = best->root_moves[0].move;
    if (lp->margin) {
        uint64_t rng = e->seed ^ pos->hash ^ 0xD1B54A32D192ED03ull;
        move = engine_level_choose(main_thread->root_moves, main_thread->root_count, lp, &rng);
    }
    info_from_root(best, e, &info);
    if (move != info.pv[0]) {
        info.pv[0] = move;
        info.pv_length = 1;
    }
    if (final_info) *final_info = info;
    return move;
}
