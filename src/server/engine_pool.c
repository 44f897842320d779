/*
 * engine_pool.c: engine opponents think in worker threads, one TakEngine
 * each, so the event loop never waits for a search. The loop queues jobs;
 * a worker searches and posts the job back, then wakes the loop with
 * lws_cancel_service (the one libwebsockets call safe from other threads),
 * whose callback takes the finished jobs and plays their moves.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct Worker {
    EnginePool *pool;
    int index;
} Worker;

static void *work(void *arg) {
    Worker *w = arg;
    EnginePool *pool = w->pool;
    TakEngine *engine = pool->engines[w->index];
    free(w);
    pthread_mutex_lock(&pool->mutex);
    for (;;) {
        while (!pool->stopping && pool->todo == NULL) pthread_cond_wait(&pool->wake, &pool->mutex);
        if (pool->stopping) break;
        EngineJob *job = pool->todo;
        pool->todo = job->next;
        if (pool->todo == NULL) pool->todo_tail = NULL;
        pthread_mutex_unlock(&pool->mutex);

        if (job->kind == JOB_TAKAT) {
            job->takat_turn = takat_ai_choose_in_game(job->takat, job->level, NULL,
                                                      pool->takat_layers, &job->seed);
            pthread_mutex_lock(&pool->mutex);
            job->next = pool->done;
            pool->done = job;
            lws_cancel_service(pool->context);
            continue;
        }
        TakSearchLimits limits;
        memset(&limits, 0, sizeof limits);
        limits.movetime_ms = pool->movetime_ms;
        if (job->kind == JOB_ANALYZE) {
            /* Full strength, but bounded: review must not hold a worker long. */
            limits.movetime_ms = pool->analyze_ms;
            limits.depth = ANALYZE_DEPTH_MAX;
            tak_engine_set_level(engine, TAK_LEVEL_MAX);
        } else {
            tak_engine_set_level(engine, job->level);
            /* On a clock: a share of the time left and most of the increment,
             * never more than the server's own bound. */
            if (job->time_left_ms > 0) {
                int64_t t = job->time_left_ms / 25 + job->increment_ms * 3 / 4;
                if (t > job->time_left_ms / 3) t = job->time_left_ms / 3;
                if (t < 1) t = 1;
                if (t < limits.movetime_ms) limits.movetime_ms = (int)t;
            }
        }
        memset(&job->info, 0, sizeof job->info);
        job->best = tak_engine_search(engine, &job->pos, job->history, job->history_len, &limits,
                                      NULL, NULL, &job->info);

        pthread_mutex_lock(&pool->mutex);
        /* Newest first here; take_done reverses. */
        job->next = pool->done;
        pool->done = job;
        lws_cancel_service(pool->context);
    }
    pthread_mutex_unlock(&pool->mutex);
    return NULL;
}

bool engine_pool_start(EnginePool *pool, int threads, int movetime_ms, TakatLayers *takat_layers,
                       struct lws_context *ctx) {
    memset(pool, 0, sizeof *pool);
    pool->takat_layers = takat_layers;
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pool->movetime_ms = movetime_ms;
    pool->analyze_ms = movetime_ms < ANALYZE_MS_MAX ? movetime_ms : ANALYZE_MS_MAX;
    pool->context = ctx;
    pool->threads = calloc((size_t)threads, sizeof *pool->threads);
    pool->engines = calloc((size_t)threads, sizeof *pool->engines);
    if (pool->threads == NULL || pool->engines == NULL) return false;
    for (int i = 0; i < threads; i++) {
        pool->engines[i] = tak_engine_new(16, 1);
        Worker *w = malloc(sizeof *w);
        bool started = false;
        if (w && pool->engines[i]) {
            w->pool = pool;
            w->index = i;
            started = pthread_create(&pool->threads[i], NULL, work, w) == 0;
        }
        if (!started) {
            free(w);
            if (pool->engines[i]) tak_engine_free(pool->engines[i]);
            pool->engines[i] = NULL;
            return false;
        }
        pool->count++;
    }
    return true;
}

void engine_job_free(EngineJob *job) {
    if (job->req) json_decref(job->req);
    free(job->history);
    free(job->takat);
    free(job);
}

static void free_list(EngineJob *j) {
    while (j) {
        EngineJob *next = j->next;
        engine_job_free(j);
        j = next;
    }
}

void engine_pool_stop(EnginePool *pool) {
    pthread_mutex_lock(&pool->mutex);
    pool->stopping = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (int i = 0; i < pool->count; i++) tak_engine_stop(pool->engines[i]);
    for (int i = 0; i < pool->count; i++) pthread_join(pool->threads[i], NULL);
    for (int i = 0; i < pool->count; i++) tak_engine_free(pool->engines[i]);
    free_list(pool->todo);
    free_list(pool->done);
    free(pool->threads);
    free(pool->engines);
    pthread_mutex_destroy(&pool->mutex);
    pthread_cond_destroy(&pool->wake);
    memset(pool, 0, sizeof *pool);
}

void engine_pool_submit(EnginePool *pool, EngineJob *job) {
    job->next = NULL;
    pthread_mutex_lock(&pool->mutex);
    /* A player waiting for the engine's move goes before every analysis
     * (review can wait a moment; a game in progress should not). */
    EngineJob **at = &pool->todo;
    if (job->kind == JOB_ANALYZE)
        at = pool->todo_tail ? &pool->todo_tail->next : &pool->todo;
    else
        while (*at && (*at)->kind != JOB_ANALYZE) at = &(*at)->next;
    job->next = *at;
    *at = job;
    if (job->next == NULL) pool->todo_tail = job;
    pthread_cond_signal(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
}

EngineJob *engine_pool_take_done(EnginePool *pool) {
    pthread_mutex_lock(&pool->mutex);
    EngineJob *j = pool->done, *oldest_first = NULL;
    pool->done = NULL;
    pthread_mutex_unlock(&pool->mutex);
    while (j) {
        EngineJob *next = j->next;
        j->next = oldest_first;
        oldest_first = j;
        j = next;
    }
    return oldest_first;
}
