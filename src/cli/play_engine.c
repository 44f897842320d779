/*
 * play_engine.c: the engine as an opponent in the terminal. The search runs
 * in its own thread so that the main thread can watch the keyboard: Enter
 * makes it move now (tak_engine_stop). While it thinks, its best line and
 * evaluation are shown on one line that each report rewrites.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "play.h"
#include "tak/random.h"

uint32_t play_random(uint64_t *rng, uint32_t n) {
    return (uint32_t)((tak_random_next(rng) >> 32) % n);
}

bool play_engine_init(PlayEngine *pe, int level, int64_t think_ms, uint64_t seed, bool live) {
    memset(pe, 0, sizeof *pe);
    pe->engine = tak_engine_new(16, 1);
    if (pe->engine == NULL) return false;
    pe->level = level;
    pe->think_ms = think_ms;
    pe->live = live;
    tak_engine_set_level(pe->engine, level);
    tak_engine_set_seed(pe->engine, seed);
    return true;
}

void play_engine_free(PlayEngine *pe) {
    if (pe->engine) tak_engine_free(pe->engine);
    pe->engine = NULL;
}

const char *play_score_text(int score, char *buf, size_t cap) {
    if (score >= TAK_SCORE_WIN_MIN)
        snprintf(buf, cap, "wins in %d", (TAK_SCORE_WIN - score + 1) / 2);
    else if (score <= -TAK_SCORE_WIN_MIN)
        snprintf(buf, cap, "loses in %d", (TAK_SCORE_WIN + score + 1) / 2);
    else
        snprintf(buf, cap, "%+.2f", score / 100.0);
    return buf;
}

typedef struct Think {
    PlayEngine *pe;
    const TakGame *game;
    TakSearchLimits limits;
    TakSearchInfo info;
    TakMove move;
    atomic_bool done;
    int shown; /* characters of the live line on screen */
} Think;

/* Called from the search thread after each depth: rewrites the live line. */
static void report(const TakSearchInfo *info, void *user) {
    Think *t = user;
    if (!t->pe->live) return;
    TakPosition pos = t->game->current;
    int size = tak_position_size(&pos);
    char line[160], score[32];
    int n = snprintf(line, sizeof line, "  thinking: depth %d, eval %s for %s, line", info->depth,
                     play_score_text(info->score, score, sizeof score),
                     tak_color_name(tak_position_side(&pos)));
    for (int i = 0; i < info->pv_length && n < 110; i++) {
        char text[TAK_MOVE_TEXT_MAX];
        if (!tak_move_is_legal(&pos, info->pv[i])) break;
        tak_move_write(info->pv[i], size, &pos, text);
        n += snprintf(line + n, sizeof line - (size_t)n, " %s", text);
        TakUndo undo;
        tak_position_make(&pos, info->pv[i], &undo);
    }
    printf("\r\033[K%s  (Enter: move now)", line);
    fflush(stdout);
    t->shown = 1;
}

static void *think_main(void *arg) {
    Think *t = arg;
    const TakGame *g = t->game;
    t->move = tak_engine_search(t->pe->engine, &g->current, g->hashes, g->count, &t->limits,
                                report, t, &t->info);
    atomic_store(&t->done, true);
    return NULL;
}

TakMove play_engine_think(PlayEngine *pe, const TakGame *game, PlayInput *in, TakSearchInfo *info) {
    Think t = {.pe = pe, .game = game};
    t.limits.movetime_ms = pe->think_ms;
    atomic_init(&t.done, false);
    pthread_t thread;
    if (!pe->live || pthread_create(&thread, NULL, think_main, &t) != 0) {
        think_main(&t);
    } else {
        while (!atomic_load(&t.done))
            if (play_input_key_pressed(in, 50)) tak_engine_stop(pe->engine);
        pthread_join(thread, NULL);
    }
    if (t.shown) {
        printf("\r\033[K");
        fflush(stdout);
    }
    if (info) *info = t.info;
    return t.move;
}

int play_engine_evaluate(PlayEngine *pe, const TakGame *game) {
    TakSearchLimits limits = {.depth = 3, .nodes = 20000};
    TakSearchInfo info;
    tak_engine_search(pe->engine, &game->current, game->hashes, game->count, &limits, NULL, NULL,
                      &info);
    return info.score;
}

int play_engine_bid(int size, uint64_t *rng) {
    /* 3x3 is a forced win for the first player and 4x4 favours it clearly;
     * from 5x5 on the first move is worth about a flat or two. */
    static const int base[TAK_MAX_SIZE + 1] = {[3] = 12, [4] = 6, [5] = 3, [6] = 2, [7] = 2, [8] = 2};
    int b = size >= TAK_MIN_SIZE && size <= TAK_MAX_SIZE ? base[size] : 2;
    return b + (int)play_random(rng, 3) - 1;
}
