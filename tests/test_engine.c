/*
 * test_engine.c: the engine's contract (engine.h): legal moves everywhere,
 * limits of depth, nodes and time respected, stop from another thread,
 * threads, levels, MultiPV, finished games; and the road-in-one finder the
 * search relies on, checked against the core's tak_position_has_tak.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/engine/internal.h"
#include "support/support.h"
#include "tak/engine.h"

static TakMoveList list; /* 35 KB: kept off the stack */

static uint64_t rng_next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A position after `plies` random moves (spreads preferred, to grow stacks). */
static TakPosition random_position(int size, int plies, uint64_t *rng) {
    TakPosition pos;
    TakRules rules = support_rules(size);
    TakError err;
    assert_true(tak_position_init(&pos, &rules, &err));
    for (int i = 0; i < plies && !tak_position_is_over(&pos); i++) {
        int n = tak_moves_generate(&pos, &list);
        TakMove m = list.moves[rng_next(rng) % (uint64_t)n];
        if (rng_next(rng) % 2) /* try for a spread */
            for (int k = 0; k < 4; k++) {
                TakMove c = list.moves[rng_next(rng) % (uint64_t)n];
                if (tak_move_is_spread(c)) m = c;
            }
        TakUndo undo;
        tak_position_make(&pos, m, &undo);
    }
    return pos;
}

static void check_road_in_one(TakPosition *pos, int *taks) {
    BoardMasks m = board_masks(pos->rules.size);
    for (int c = 0; c < 2; c++) {
        TakMove found = engine_road_in_one(pos, c, &m);
        bool core = tak_position_has_tak(pos, (TakColor)c);
        *taks += core;
        if ((found != TAK_MOVE_NONE) != core) {
            char tps[TAK_TPS_MAX];
            fail_msg("road in one for %d: engine %d, core %d in %s", c, found != TAK_MOVE_NONE,
                     core, support_tps(pos, tps));
        }
        if (found != TAK_MOVE_NONE && c == pos->side) {
            assert_true(tak_move_is_legal(pos, found));
            TakUndo undo;
            tak_position_make(pos, found, &undo);
            assert_int_equal(pos->result.end, TAK_END_ROAD);
            assert_int_equal(pos->result.winner, c);
            tak_position_unmake(pos, found, &undo);
        }
    }
}

/* Plays a random move; `spreads`: one of up to six more draws that is a
 * spread instead, for tall stacks. */
static void random_step(TakPosition *pos, uint64_t *rng, bool spreads) {
    int n = tak_moves_generate(pos, &list);
    TakMove mv = list.moves[rng_next(rng) % (uint64_t)n];
    for (int k = 0; k < 6 && spreads; k++) {
        TakMove c = list.moves[rng_next(rng) % (uint64_t)n];
        if (tak_move_is_spread(c)) mv = c;
    }
    TakUndo undo;
    tak_position_make(pos, mv, &undo);
}

/* Every position of random games (half of them spread-heavy, for tall stacks). */
static void test_road_in_one_matches_core(void **state) {
    (void)state;
    uint64_t rng = 7;
    int taks = 0;
    for (int g = 0; g < 120; g++) {
        int size = 3 + g % 6;
        TakRules rules = support_rules(size);
        TakError err;
        TakPosition pos;
        assert_true(tak_position_init(&pos, &rules, &err));
        for (int ply = 0; ply < 160 && !tak_position_is_over(&pos); ply++) {
            check_road_in_one(&pos, &taks);
            random_step(&pos, &rng, g % 2);
        }
    }
    assert_true(taks > 100);
}

/* engine_parry_zone: wherever the opponent has a road in one, every move of
 * the side to move that changes none of the zone's squares (and does not end
 * the game itself) leaves the opponent's winning move legal and winning. */
static TakMoveList replies;

static void test_parry_zone_is_safe(void **state) {
    (void)state;
    uint64_t rng = 11;
    int threats = 0, dropped = 0, kept = 0;
    for (int g = 0; g < 160; g++) {
        int size = 3 + g % 6;
        TakRules rules = support_rules(size);
        TakError err;
        TakPosition pos;
        assert_true(tak_position_init(&pos, &rules, &err));
        BoardMasks m = board_masks(size);
        for (int ply = 0; ply < 160 && !tak_position_is_over(&pos); ply++) {
            int opp = pos.side ^ 1;
            TakMove w = engine_road_in_one(&pos, opp, &m);
            /* (The search asks only where the side to move cannot win at once.) */
            if (w != TAK_MOVE_NONE && engine_win_in_one(&pos, pos.side, &m) == TAK_MOVE_NONE) {
                threats++;
                TakBitboard zone = engine_parry_zone(&pos, opp, w, &m);
                TakBitboard empty = m.all & ~(pos.owner[0] | pos.owner[1]);
                int n = tak_moves_generate(&pos, &replies);
                for (int i = 0; i < n; i++) {
                    TakMove r = replies.moves[i];
                    TakBitboard changed = engine_move_squares(r, size);
                    if (changed & zone) {
                        kept++;
                        continue;
                    }
                    TakUndo u1, u2;
                    tak_position_make(&pos, r, &u1);
                    bool spread_fills = tak_move_is_spread(r) && (empty & ~changed) == 0;
                    if (pos.result.end == TAK_END_NONE) {
                        dropped++;
                        if (!tak_move_is_legal(&pos, w)) {
                            char tps[TAK_TPS_MAX];
                            fail_msg("%s: a move outside the zone made the win illegal",
                                     support_tps(&pos, tps));
                        }
                        tak_position_make(&pos, w, &u2);
                        assert_int_equal(pos.result.end, TAK_END_ROAD);
                        assert_int_equal(pos.result.winner, opp);
                        tak_position_unmake(&pos, w, &u2);
                    } else if (pos.result.winner != opp) {
                        /* Only a move the search keeps anyway may end the game
                         * other than by the opponent's road. */
                        int left = pos.stones[opp ^ 1] + pos.capstones[opp ^ 1];
                        assert_true(spread_fills || left == 0 || !(empty & (empty - 1)));
                    }
                    tak_position_unmake(&pos, r, &u1);
                }
            }
            random_step(&pos, &rng, g % 2);
        }
    }
    /* Not vacuous: many threats, and both kinds of reply. */
    assert_true(threats > 100);
    assert_true(dropped > 1000);
    assert_true(kept > 100);
}

static TakSearchLimits limits_nodes(uint64_t nodes) {
    TakSearchLimits l;
    memset(&l, 0, sizeof l);
    l.nodes = nodes;
    return l;
}

static void test_legal_moves_everywhere(void **state) {
    (void)state;
    TakEngine *e = tak_engine_new(4, 1);
    assert_non_null(e);
    uint64_t rng = 11;
    for (int g = 0; g < 120; g++) {
        int size = 3 + g % 6;
        TakPosition pos = random_position(size, (int)(rng_next(&rng) % 60), &rng);
        TakSearchLimits l = limits_nodes(2000);
        TakSearchInfo info;
        TakMove m = tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, &info);
        if (tak_position_is_over(&pos)) {
            assert_int_equal(m, TAK_MOVE_NONE);
        } else if (!tak_move_is_legal(&pos, m)) {
            char tps[TAK_TPS_MAX];
            fail_msg("illegal move %u in %s", m, support_tps(&pos, tps));
        }
    }
    tak_engine_free(e);
}

static void test_finished_game_has_no_move(void **state) {
    (void)state;
    TakEngine *e = tak_engine_new(1, 1);
    TakPosition pos = support_position("1,1,1/2,2,x/x3 2 3", NULL);
    assert_true(tak_position_is_over(&pos));
    TakSearchLimits l = limits_nodes(100);
    TakSearchInfo info;
    assert_int_equal(tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, &info), TAK_MOVE_NONE);
    assert_true(info.score <= -TAK_SCORE_WIN_MIN);
    tak_engine_free(e);
}

typedef struct Reports {
    int count, max_depth, lines[TAK_MULTIPV_MAX + 1];
    TakMove first[TAK_MULTIPV_MAX + 1];
} Reports;

static void on_report(const TakSearchInfo *info, void *user) {
    Reports *r = user;
    r->count++;
    if (info->depth > r->max_depth) r->max_depth = info->depth;
    if (info->multipv >= 1 && info->multipv <= TAK_MULTIPV_MAX) {
        r->lines[info->multipv]++;
        r->first[info->multipv] = info->pv[0];
    }
}

static void test_depth_limit(void **state) {
    (void)state;
    TakEngine *e = tak_engine_new(4, 1);
    TakPosition pos = support_position("x6/x6/x2,1,2,x2/x2,2,1,x2/x6/x6 1 3", NULL);
    for (int d = 1; d <= 4; d++) {
        TakSearchLimits l;
        memset(&l, 0, sizeof l);
        l.depth = d;
        Reports r = {0};
        TakSearchInfo info;
        TakMove m = tak_engine_search(e, &pos, NULL, 0, &l, on_report, &r, &info);
        assert_true(tak_move_is_legal(&pos, m));
        assert_int_equal(info.depth, d);
        assert_int_equal(r.max_depth, d);
    }
    tak_engine_free(e);
}

static void test_node_limit(void **state) {
    (void)state;
    TakEngine *e = tak_engine_new(4, 1);
    TakPosition pos = support_position("x5/x5/x,1,2,x2/x,2,1,x2/x5 1 3", NULL);
    const uint64_t limits[] = {1, 50, 1000, 20000};
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        TakSearchLimits l = limits_nodes(limits[i]);
        TakSearchInfo info;
        TakMove m = tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, &info);
        assert_true(tak_move_is_legal(&pos, m));
        assert_true(info.nodes <= limits[i]);
    }
    tak_engine_free(e);
}

/* A search stopped inside an iteration plays the best move of the last one
 * finished, or a move the unfinished one proved better: never one that only
 * failed low (its score an upper bound). Here, 4x4 at komi 2 (a game against
 * Tiltak, bench/ELO.md, twenty-third session), the iteration at depth 5
 * finds its first move below the window and stops after the next one, 2b2>,
 * failed low too: played, 2b2> lost to a road in four. */
static void test_stopped_iteration_plays_a_proven_move(void **state) {
    (void)state;
    TakRules rules = support_rules(4);
    rules.half_komi = 4;
    TakPosition pos = support_position("1,x,2,1/1,21,11112S,2/12,12,1,2/1,2,x,21 2 17", &rules);
    TakEngine *e = tak_engine_new(128, 1);
    TakSearchLimits l = limits_nodes(200000);
    TakMove m = tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, NULL);
    assert_true(tak_move_is_legal(&pos, m));
    TakUndo undo;
    tak_position_make(&pos, m, &undo);
    memset(&l, 0, sizeof l);
    l.depth = 6;
    TakSearchInfo info;
    tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, &info);
    if (info.score >= TAK_SCORE_WIN_MIN) {
        char text[TAK_MOVE_TEXT_MAX];
        tak_move_write(m, 4, NULL, text);
        fail_msg("%s loses by force", text);
    }
    tak_engine_free(e);
}

static void test_movetime(void **state) {
    (void)state;
    TakEngine *e = tak_engine_new(8, 2);
    TakPosition pos = support_position("x5/x5/x,1,2,x2/x,2,1,x2/x5 1 3", NULL);
    TakSearchLimits l;
    memset(&l, 0, sizeof l);
    l.movetime_ms = 150;
    int64_t t0 = now_ms();
    TakMove m = tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, NULL);
    int64_t took = now_ms() - t0;
    assert_true(tak_move_is_legal(&pos, m));
    /* The engine aims 15 ms short of 150; the rest is slack for a loaded
     * machine (or a sanitizer build), where the thread may wait to run. */
    assert_true(took <= 150 + 100);
    assert_true(took >= 50);
    tak_engine_free(e);
}

static void test_clock_never_runs_out(void **state) {
    (void)state;
    TakEngine *e = tak_engine_new(8, 1);
    TakPosition pos = support_position("x6/x6/x2,1,2,x2/x2,2,1,x2/x6/x6 2 3", NULL);
    const int64_t clocks[] = {100, 300, 1000};
    for (int i = 0; i < 3; i++) {
        TakSearchLimits l;
        memset(&l, 0, sizeof l);
        l.time_left_ms[TAK_BLACK] = clocks[i];
        l.time_left_ms[TAK_WHITE] = 100000; /* not the engine's clock */
        int64_t t0 = now_ms();
        TakMove m = tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, NULL);
        int64_t took = now_ms() - t0;
        assert_true(tak_move_is_legal(&pos, m));
        /* The budget is a small share of the clock; allow for a loaded machine. */
        if (took >= clocks[i] / 2 + 40)
            fail_msg("took %lld ms of a %lld ms clock", (long long)took, (long long)clocks[i]);
    }
    tak_engine_free(e);
}

typedef struct StopArgs {
    TakEngine *engine;
    TakPosition pos;
    TakMove move;
    atomic_bool searching; /* the search has reported its first depth */
} StopArgs;

static void note_searching(const TakSearchInfo *info, void *user) {
    (void)info;
    atomic_store(&((StopArgs *)user)->searching, true);
}

static void *search_infinite(void *arg) {
    StopArgs *a = arg;
    TakSearchLimits l;
    memset(&l, 0, sizeof l);
    l.infinite = true;
    a->move = tak_engine_search(a->engine, &a->pos, NULL, 0, &l, note_searching, a, NULL);
    return NULL;
}

/* Limits of a clock: both sides with `left_ms` and `inc_ms` a move. */
static TakSearchLimits clock_limits(int64_t left_ms, int64_t inc_ms) {
    TakSearchLimits l;
    memset(&l, 0, sizeof l);
    l.time_left_ms[TAK_WHITE] = l.time_left_ms[TAK_BLACK] = left_ms;
    l.increment_ms[TAK_WHITE] = l.increment_ms[TAK_BLACK] = inc_ms;
    return l;
}

/* On a clock the search stops sooner when its best move has stood and goes
 * on when it has just changed or the score falls; never past the hard
 * limit; a fixed move time is used whole. */
static void test_time_up(void **state) {
    (void)state;
    TakPosition pos;
    TakRules rules = support_rules(6);
    TakError err;
    assert_true(tak_position_init(&pos, &rules, &err));
    TakSearchLimits l = clock_limits(60000, 500);
    TimeBudget b = engine_time_budget(&l, &pos);
    assert_true(b.clock);
    assert_true(b.soft_ms > 500 && b.soft_ms < 60000 / 10);
    assert_true(b.hard_ms > b.soft_ms && b.hard_ms <= 60000 / 3 + 500);
    /* Half the soft budget with nothing said: stop; a little less: go on. */
    int64_t half = b.soft_ms / 2;
    assert_true(engine_time_up(&b, half, 2, 0));
    assert_false(engine_time_up(&b, half - 5, 2, 0));
    /* A best move that stood for four iterations stops sooner... */
    assert_true(engine_time_up(&b, half * 8 / 10, 4, 0));
    /* ...one that just changed, or a falling score, goes on longer. */
    assert_false(engine_time_up(&b, half * 13 / 10, 0, 0));
    assert_false(engine_time_up(&b, half * 13 / 10, 2, 80));
    assert_true(engine_time_up(&b, half * 13 / 10, 2, 0));
    /* Never past the hard limit, however unsettled. */
    TimeBudget tight = {1000, 1200, true};
    assert_false(engine_time_up(&tight, 599, 0, 100));
    assert_true(engine_time_up(&tight, 600, 0, 100));
    /* A fixed move time is used whole. */
    memset(&l, 0, sizeof l);
    l.movetime_ms = 1000;
    b = engine_time_budget(&l, &pos);
    assert_false(b.clock);
    assert_false(engine_time_up(&b, b.soft_ms - 1, 4, 0));
    assert_true(engine_time_up(&b, b.soft_ms, 0, 0));
}

/* On 4x4, whose board and reserve start near twelve, the clock is planned
 * over the moves the game has left, not over at least twelve: with ten
 * squares empty a move may take a tenth of the time left. */
static void test_time_4x4(void **state) {
    (void)state;
    TakPosition pos = support_position("1,2,1,x/2,1,2,x/x4/x4 1 4", NULL);
    TakSearchLimits l = clock_limits(10000, 100);
    TimeBudget b = engine_time_budget(&l, &pos);
    assert_true(b.clock);
    assert_true(b.soft_ms >= 10000 / 10);
    assert_true(b.soft_ms < 10000 / 10 + 100);
}

static void test_stop_from_another_thread(void **state) {
    (void)state;
    for (int threads = 1; threads <= 2; threads++) {
        StopArgs a;
        a.engine = tak_engine_new(8, threads);
        a.pos = support_position("x5/x5/x,1,2,x2/x,2,1,x2/x5 1 3", NULL);
        a.move = TAK_MOVE_NONE;
        atomic_init(&a.searching, false);
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, search_infinite, &a), 0);
        /* A stop is for a running search (TEI repeats its stop until the
         * search answers): wait until this one runs, however busy the
         * machine, then a little more. */
        struct timespec ts = {0, 10 * 1000000};
        while (!atomic_load(&a.searching)) nanosleep(&ts, NULL);
        ts.tv_nsec = 80 * 1000000;
        nanosleep(&ts, NULL);
        int64_t t0 = now_ms();
        tak_engine_stop(a.engine);
        pthread_join(th, NULL);
        assert_true(now_ms() - t0 < 250); /* at once, give or take a busy machine */
        assert_true(tak_move_is_legal(&a.pos, a.move));
        tak_engine_free(a.engine);
    }
}

static void test_threads_agree_on_a_road(void **state) {
    (void)state;
    TakEngine *e = tak_engine_new(8, 3);
    /* White completes the third rank with c3. */
    TakPosition pos = support_position("2,2,x/x3/1,1,x 1 3", NULL);
    TakSearchLimits l;
    memset(&l, 0, sizeof l);
    l.depth = 6;
    TakSearchInfo info;
    TakMove m = tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, &info);
    assert_int_equal(m, support_move(&pos, "c1"));
    assert_int_equal(info.score, TAK_SCORE_WIN - 1);
    tak_engine_free(e);
}

static void test_multipv(void **state) {
    (void)state;
    TakEngine *e = tak_engine_new(4, 1);
    tak_engine_set_multipv(e, 3);
    TakPosition pos = support_position("x5/x5/x,1,2,x2/x,2,1,x2/x5 1 3", NULL);
    TakSearchLimits l;
    memset(&l, 0, sizeof l);
    l.depth = 3;
    Reports r = {0};
    TakMove m = tak_engine_search(e, &pos, NULL, 0, &l, on_report, &r, NULL);
    assert_true(tak_move_is_legal(&pos, m));
    assert_int_equal(r.lines[1], 3);
    assert_int_equal(r.lines[2], 3);
    assert_int_equal(r.lines[3], 3);
    assert_int_equal(r.lines[4], 0);
    assert_int_equal(r.first[1], m);
    assert_true(r.first[1] != r.first[2] && r.first[2] != r.first[3] && r.first[1] != r.first[3]);
    tak_engine_free(e);
}

static void test_levels(void **state) {
    (void)state;
    TakEngine *e = tak_engine_new(4, 1);
    /* White to move: c3 wins (third rank a3-b3-c3 is White's but c3). */
    TakPosition win = support_position("1,1,x/2,2,x/x3 1 3", NULL);
    /* White to move: Black threatens d4; White must block it. */
    TakPosition block = support_position("2,2,2,x/1,1,x2/x4/x4 1 4", NULL);
    uint64_t rng = 3;
    for (int level = TAK_LEVEL_MIN; level <= TAK_LEVEL_MAX; level++) {
        tak_engine_set_level(e, level);
        for (int seed = 0; seed < 5; seed++) {
            tak_engine_set_seed(e, (uint64_t)seed);
            TakSearchLimits l = limits_nodes(50000);
            TakMove m = tak_engine_search(e, &win, NULL, 0, &l, NULL, NULL, NULL);
            assert_int_equal(m, support_move(&win, "c3"));
            m = tak_engine_search(e, &block, NULL, 0, &l, NULL, NULL, NULL);
            TakPosition after = block;
            TakUndo undo;
            tak_position_make(&after, m, &undo);
            if (tak_position_has_tak(&after, TAK_BLACK)) fail_msg("level %d does not block", level);
            TakPosition pos = random_position(3 + seed, 20, &rng);
            m = tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, NULL);
            if (!tak_position_is_over(&pos)) assert_true(tak_move_is_legal(&pos, m));
        }
    }
    tak_engine_free(e);
}

static void test_levels_replay_with_a_seed(void **state) {
    (void)state;
    TakEngine *e = tak_engine_new(4, 1);
    tak_engine_set_level(e, 2);
    TakPosition pos = support_position("x5/x5/x,1,2,x2/x,2,1,x2/x5 1 3", NULL);
    TakSearchLimits l = limits_nodes(0);
    TakMove first[8];
    int distinct = 0;
    for (int s = 0; s < 8; s++) {
        tak_engine_set_seed(e, (uint64_t)s);
        first[s] = tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, NULL);
        tak_engine_new_game(e);
        assert_int_equal(tak_engine_search(e, &pos, NULL, 0, &l, NULL, NULL, NULL), first[s]);
        bool seen = false;
        for (int k = 0; k < s; k++) seen |= first[k] == first[s];
        distinct += !seen;
    }
    assert_true(distinct >= 2); /* a low level varies its play */
    tak_engine_free(e);
}

static void test_repetition_history_is_read(void **state) {
    (void)state;
    /* Every history entry is a position hash; a long history must be safe. */
    TakEngine *e = tak_engine_new(4, 1);
    TakPosition pos = support_position("x4/x,1,2,x/x,2,1,x/x4 1 3", NULL);
    uint64_t history[500];
    for (int i = 0; i < 500; i++) history[i] = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    history[498] = pos.hash;
    TakSearchLimits l;
    memset(&l, 0, sizeof l);
    l.depth = 4;
    TakMove m = tak_engine_search(e, &pos, history, 500, &l, NULL, NULL, NULL);
    assert_true(tak_move_is_legal(&pos, m));
    tak_engine_free(e);
}

static void test_evaluate_is_from_side_to_move(void **state) {
    (void)state;
    /* Swapping the colours and the side to move keeps the score (no komi). */
    TakPosition w = support_position("x5/x5/x2,1,x2/x,2,1,x2/x5 1 3", NULL);
    TakPosition b = support_position("x5/x5/x2,2,x2/x,1,2,x2/x5 2 3", NULL);
    assert_int_equal(tak_engine_evaluate(&w), tak_engine_evaluate(&b));
    TakPosition up = support_position("x5/x5/1,1,1,x2/x5/2,x4 1 3", NULL);
    assert_true(tak_engine_evaluate(&up) > 0); /* White is two flats up */
    TakRules komi = support_rules(5);
    komi.half_komi = 8;
    TakPosition late = support_position("1,1,1,1,2/2,2,2,1,x/1,2,1,2,1/2,1,2,1,2/1,2,1,2,1 1 15", &komi);
    TakPosition none = support_position("1,1,1,1,2/2,2,2,1,x/1,2,1,2,1/2,1,2,1,2/1,2,1,2,1 1 15", NULL);
    assert_true(tak_engine_evaluate(&late) < tak_engine_evaluate(&none)); /* komi counts */
    TakPosition over = support_position("1,1,1/2,2,x/x3 2 3", NULL);
    assert_true(tak_engine_evaluate(&over) <= -TAK_SCORE_WIN_MIN);
}


/* `pos` seen through symmetry `sym` (0..7: rotations, then mirrored), or with
 * the colours swapped as well when `swap`. */
static TakPosition transformed(const TakPosition *pos, int sym, bool swap) {
    int size = pos->rules.size;
    TakPosition out;
    TakError err;
    assert_true(tak_position_clear(&out, &pos->rules, &err));
    for (int sq = 0; sq < size * size; sq++) {
        int h = pos->height[sq];
        if (!h) continue;
        int r = sq / size, f = sq % size;
        for (int k = 0; k < sym % 4; k++) { /* rotate a quarter turn */
            int t = r;
            r = f;
            f = size - 1 - t;
        }
        if (sym >= 4) f = size - 1 - f;
        TakStackBits bits = pos->stack[sq];
        if (swap) bits ^= h >= 128 ? ~(TakStackBits)0 : (((TakStackBits)1 << h) - 1);
        TakPieceType top = tak_position_top_type(pos, sq);
        tak_position_put_stack(&out, r * size + f, h, bits, top);
    }
    TakColor side = (TakColor)(swap ? pos->side ^ 1 : pos->side);
    assert_true(tak_position_finish(&out, side, tak_position_move_number(pos), &err));
    return out;
}

static int linear_of(const TakPosition *pos) {
    BoardMasks m = board_masks(pos->rules.size);
    return engine_evaluate_linear(pos, &m, &engine_weights[pos->rules.size]);
}

static void test_evaluation_symmetries(void **state) {
    (void)state;
    /* The linear terms: the board's eight symmetries and the colour swap
     * (no komi) change nothing, since the square tables are folded and
     * every feature is counted alike for both colours. The whole
     * evaluation (the network too, where a size has one): the colour swap
     * changes nothing; the network is symmetric only as far as its
     * training made it (test_net_inputs_follow_symmetries). */
    uint64_t rng = 99;
    for (int size = 3; size <= 8; size++) {
        for (int i = 0; i < 40; i++) {
            TakPosition pos = random_position(size, 4 + (int)(rng_next(&rng) % 60), &rng);
            if (tak_position_is_over(&pos)) continue;
            int linear = linear_of(&pos), score = tak_engine_evaluate(&pos);
            const EvalNet *net = engine_nets[size];
            assert_int_equal(score, linear + (net ? engine_net_eval(&pos, net) : 0));
            for (int sym = 0; sym < 8; sym++) {
                TakPosition t = transformed(&pos, sym, false);
                if (tak_position_is_over(&t)) continue;
                assert_int_equal(linear_of(&t), linear);
                TakPosition s = transformed(&pos, sym, true);
                if (tak_position_is_over(&s)) continue;
                assert_int_equal(linear_of(&s), linear);
            }
            TakPosition swapped = transformed(&pos, 0, true);
            if (!tak_position_is_over(&swapped)) assert_int_equal(tak_engine_evaluate(&swapped), score);
        }
    }
}

static int compare_u16(const void *a, const void *b) {
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* The network's inputs of `pos`, each moved by symmetry `sym`, sorted. */
static int net_inputs_sorted(const TakPosition *pos, int sym, uint16_t idx[NET_MAX_ACTIVE]) {
    int n = engine_net_inputs(pos, idx);
    for (int i = 0; i < n; i++) idx[i] = (uint16_t)engine_net_input_under(pos->rules.size, sym, idx[i]);
    qsort(idx, (size_t)n, sizeof *idx, compare_u16);
    return n;
}

static void test_net_inputs_follow_symmetries(void **state) {
    (void)state;
    /* What the trainer relies on to show each position under all eight
     * symmetries: the inputs of a turned or mirrored board are those of
     * the board moved by one of engine_net_input_under's symmetries; and
     * from the side to move's view, swapping the colours (no komi) gives
     * the same inputs. Every input stays in range. */
    uint64_t rng = 7;
    static uint16_t a[NET_MAX_ACTIVE], b[NET_MAX_ACTIVE];
    for (int size = 3; size <= 8; size++) {
        int count = engine_net_input_count(size);
        for (int i = 0; i < 30; i++) {
            TakPosition pos = random_position(size, 4 + (int)(rng_next(&rng) % 80), &rng);
            if (tak_position_is_over(&pos)) continue;
            int n = net_inputs_sorted(&pos, 0, a);
            for (int j = 0; j < n; j++) assert_true(a[j] < count);
            for (int t = 0; t < 8; t++) {
                TakPosition turned = transformed(&pos, t, false);
                int m = net_inputs_sorted(&turned, 0, b);
                assert_int_equal(m, n);
                bool found = false;
                for (int sym = 0; sym < 8 && !found; sym++) {
                    net_inputs_sorted(&pos, sym, a);
                    found = memcmp(a, b, (size_t)n * sizeof *a) == 0;
                }
                assert_true(found);
            }
            TakPosition swapped = transformed(&pos, 0, true);
            net_inputs_sorted(&pos, 0, a);
            assert_int_equal(net_inputs_sorted(&swapped, 0, b), n);
            assert_memory_equal(a, b, (size_t)n * sizeof *a);
        }
    }
}

static void test_net_forward(void **state) {
    (void)state;
    /* A network by hand, two blocks wide: hidden unit 0 fires (clipped at 1)
     * for the mover's flat on a1 and for each piece under the mover's top
     * there, unit 1 of the second block for the other side's flat on a1,
     * with output weights 0.5 and -0.25. */
    enum { H = 2 * NET_BLOCK, OTHER = NET_BLOCK + 1 };
    static float w1[(5 * 5 * NET_SQ_INPUTS + 2 * NET_RESERVE + 6 + 18) * H];
    float b1[H] = {0}, w2[H] = {0};
    memset(w1, 0, sizeof w1);
    w1[0 * H + 0] = 0.75f;     /* a1 (square 0), slot 0: own flat */
    w1[6 * H + 0] = 0.5f;      /* a1, one below the top, own */
    w1[3 * H + OTHER] = 1.0f;  /* a1, slot 3: the other's flat */
    w2[0] = 0.5f;
    w2[OTHER] = -0.25f;
    EvalNet net = {engine_net_input_count(5), H, w1, b1, w2, 0.002f, "by hand"};
    assert_int_equal(net.inputs, 5 * 5 * NET_SQ_INPUTS + 2 * NET_RESERVE + 6 + 18);
    /* White to move, White's flat on a1: (0.75 * 0.5 + 0.002) * 100 -> 38. */
    TakPosition pos = support_position("x5/x5/x5/x5/1,x3,2 1 2", NULL);
    assert_int_equal(engine_net_eval(&pos, &net), 38);
    /* Black to move: that flat is the other side's: -0.25 + 0.002 -> -25. */
    pos = support_position("x5/x5/x5/x5/1,x3,2 2 2", NULL);
    assert_int_equal(engine_net_eval(&pos, &net), -25);
    /* White's flat on White's flat: 0.75 + 0.5 clipped to 1 -> 0.502 -> 50. */
    pos = support_position("x5/x5/x5/x4,2/11,x4 1 3", NULL);
    assert_int_equal(engine_net_eval(&pos, &net), 50);
    /* The same stack mirrored onto e5: no weight there, the bias alone. */
    pos = support_position("x4,11/x5/x5/x4,2/x5 1 3", NULL);
    assert_int_equal(engine_net_eval(&pos, &net), 0);
}

/* The networks are stored in int8 (internal.h: NetStored) and expanded at
 * start-up: every built-in network's floats are its stored bytes expanded,
 * packing them again gives the same bytes (so `tune net --init` writes a
 * network back unchanged), and each weight is within half a step of the
 * float it came from. */
static void test_net_stored_form(void **state) {
    (void)state;
    int seen = 0;
    for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++) {
        const EvalNet *net = engine_nets[size];
        const NetStored *st = &engine_nets_stored[size];
        if (!net) continue;
        seen++;
        assert_non_null(st->w1);
        assert_ptr_equal(st->w1_out, net->w1);
        size_t n = (size_t)net->inputs * net->hidden;
        assert_true(engine_net_width_ok(net->hidden));
        int8_t *q = malloc(n);
        float *max = malloc((size_t)net->inputs * sizeof *max), *w = malloc(n * sizeof *w);
        assert_true(q && max && w);
        engine_net_unpack(st->w1, st->w1_max, net->inputs, net->hidden, w);
        assert_memory_equal(w, net->w1, n * sizeof *w);
        engine_net_pack(net->w1, net->inputs, net->hidden, q, max);
        assert_memory_equal(q, st->w1, n);
        assert_memory_equal(max, st->w1_max, (size_t)net->inputs * sizeof *max);
        free(q), free(max), free(w);
    }
    assert_true(seen > 0);
    float row[NET_BLOCK], back[NET_BLOCK], m;
    int8_t q[NET_BLOCK];
    for (int j = 0; j < NET_BLOCK; j++) row[j] = (float)((j * 37 % 101) - 50) / 313.0f;
    engine_net_pack(row, 1, NET_BLOCK, q, &m);
    engine_net_unpack(q, &m, 1, NET_BLOCK, back);
    assert_true(m == 50.0f / 313.0f);
    for (int j = 0; j < NET_BLOCK; j++) assert_true(fabsf(back[j] - row[j]) <= m / 254 * 1.0001f);
}

static void features_of(const char *tps, int f[F_COUNT]) {
    TakPosition pos = support_position(tps, NULL);
    BoardMasks m = board_masks(pos.rules.size);
    engine_features(&pos, &m, f);
}

static void test_road_features(void **state) {
    (void)state;
    int f[F_COUNT];
    /* White needs e1 (one square), Black to move: a threat by the waiting side. */
    features_of("x5/x5/x5/2,2,x3/1,1,1,1,x 2 5", f);
    assert_int_equal(f[F_ROAD1_WAITER], 1);
    assert_int_equal(f[F_ROAD1_MOVER], 0);
    assert_int_equal(f[F_CRIT2_WAITER], 0);
    /* Two squares complete White's road (e1, e2): one block cannot stop it. */
    features_of("x5/x5/2,2,2,x2/1,1,1,1,x/1,1,1,1,x 2 8", f);
    assert_int_equal(f[F_CRIT2_WAITER], 1);
    /* a1 and e1 both needed: two placements away, no critical square. */
    features_of("x5/x5/x5/2,2,x3/x,1,1,1,x 2 4", f);
    assert_int_equal(f[F_ROAD1_WAITER], 0);
    assert_int_equal(f[F_ROAD_2], 1);
    /* A wall blocks: White's walls are no road. */
    features_of("x5/x5/x5/2,2,x3/1,1,1S,1,x 2 5", f);
    assert_int_equal(f[F_ROAD1_WAITER], 0);
    /* Lines: White holds four squares of rank 1, Black none there. */
    features_of("x5/x5/x5/2,2,x3/1,1,1,1,x 2 5", f);
    assert_int_equal(f[F_LINE_OPEN + 3], 1);
}

static void test_flat_race_features(void **state) {
    (void)state;
    int f[F_COUNT];
    TakRules komi = support_rules(5);
    komi.half_komi = 4;
    /* One empty square: the game ends within a ply or two and the count
     * decides, komi included. White leads 13-11 on the board, 2 flats of
     * komi make it even; White moves, and its next flat would win it. */
    TakPosition pos = support_position(
        "1,1,1,1,2/2,2,2,1,x/1,2,1,2,1/2,1,2,1,2/1,2,1,2,1 1 15", &komi);
    BoardMasks m = board_masks(5);
    engine_features(&pos, &m, f);
    assert_int_equal(f[F_COUNT_LEAD], 2 * (13 - 11) - 4);
    assert_int_equal(f[F_RACE_SIGN], 7);      /* nearness 8 - 1, White's */
    assert_int_equal(f[F_RACE_NEAR], 7 * 2);  /* one flat more, in half flats */
    /* Black to move in the same count: Black's next flat would win it. */
    TakPosition black = support_position(
        "1,1,1,1,2/2,2,2,1,x/1,2,1,2,1/2,1,2,1,2/1,2,1,2,1 2 15", &komi);
    engine_features(&black, &m, f);
    assert_int_equal(f[F_RACE_SIGN], -7);
}


/* The mark a move gets (what tak analyze and the page's graph show). */
static void test_judge_move(void **state) {
    (void)state;
    int drop;
    assert_int_equal(tak_engine_judge_move(50, 40, 100, 300, &drop), 0);
    assert_int_equal(drop, 10);
    assert_int_equal(tak_engine_judge_move(50, -50, 100, 300, &drop), 1); /* 100: a mistake */
    assert_int_equal(tak_engine_judge_move(50, -249, 100, 300, NULL), 1);
    assert_int_equal(tak_engine_judge_move(50, -250, 100, 300, NULL), 2); /* 300: a blunder */
    /* A won position thrown away counts the win as 2000. */
    assert_int_equal(tak_engine_judge_move(TAK_SCORE_WIN - 5, 1700, 100, 300, &drop), 2);
    assert_int_equal(drop, 300);
    assert_int_equal(tak_engine_judge_move(TAK_SCORE_WIN - 5, 1950, 100, 300, NULL), 0);
    /* Into a lost game from one not lost is a blunder, however small the drop in
     * clamped terms; a lost game staying lost is not. */
    assert_int_equal(tak_engine_judge_move(-1990, -(TAK_SCORE_WIN - 3), 100, 300, NULL), 2);
    assert_int_equal(tak_engine_judge_move(-(TAK_SCORE_WIN - 9), -(TAK_SCORE_WIN - 3), 100, 300, NULL), 0);
}

static void test_flat_win_in_one_matches_core(void **state) {
    (void)state;
    /* Along random games to their end: the finder names a move exactly when
     * some placement ends the game on the flat count for the mover, and the
     * move it names does. */
    uint64_t rng = 5;
    int found = 0;
    for (int game = 0; game < 300; game++) {
        int size = 3 + game % 3;
        TakRules rules = support_rules(size);
        rules.half_komi = (int)(rng_next(&rng) % 5) - 2;
        TakPosition pos;
        TakError err;
        assert_true(tak_position_init(&pos, &rules, &err));
        BoardMasks m = board_masks(size);
        while (!tak_position_is_over(&pos)) {
            int n = tak_moves_generate(&pos, &list);
            bool flat_win = false;
            for (int i = 0; i < n && pos.ply >= 2; i++) {
                if (tak_move_is_spread(list.moves[i])) continue;
                TakUndo undo;
                tak_position_make(&pos, list.moves[i], &undo);
                bool on_flats = pos.result.end == TAK_END_BOARD_FULL || pos.result.end == TAK_END_RESERVES;
                if (on_flats && pos.result.winner == (int)(pos.side ^ 1)) flat_win = true;
                tak_position_unmake(&pos, list.moves[i], &undo);
            }
            TakMove w = engine_flat_win_in_one(&pos, pos.side, &m);
            /* (A placement that also makes a road ends the game by the road.) */
            if (engine_road_in_one(&pos, pos.side, &m) == TAK_MOVE_NONE)
                assert_int_equal(w != TAK_MOVE_NONE, flat_win);
            if (w != TAK_MOVE_NONE) {
                found++;
                TakPosition after = pos;
                TakUndo undo;
                assert_true(tak_move_is_legal(&pos, w));
                tak_position_make(&after, w, &undo);
                assert_int_equal(after.result.winner, (int)pos.side);
            }
            TakMove mv = list.moves[rng_next(&rng) % (uint64_t)n];
            TakUndo undo;
            tak_position_make(&pos, mv, &undo);
        }
    }
    assert_true(found > 20);
}

/* Whether `active` holds feature `f`. */
static bool has_feature(const uint8_t *active, int n, int f) {
    for (int i = 0; i < n; i++)
        if (active[i] == f) return true;
    return false;
}

static int road_count(const TakPosition *pos, int color) {
    return __builtin_popcountll(pos->owner[color] & ~pos->walls);
}

/* The policy's features of every move of random positions of every size:
 * in range, and for a spread the road squares it gains each side and the
 * mover's longest line after it are those of the position it leads to. */
static void test_policy_features(void **state) {
    (void)state;
    uint64_t rng = 77;
    int spreads = 0;
    for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++) {
        BoardMasks m = board_masks(size);
        for (int game = 0; game < 30; game++) {
            TakPosition pos = random_position(size, 10 + (int)(rng_next(&rng) % 40), &rng);
            if (tak_position_is_over(&pos)) continue;
            PolicyNode node = policy_node(&pos, &m);
            int side = pos.side, n = tak_moves_generate(&pos, &list);
            for (int i = 0; i < n; i++) {
                TakMove mv = list.moves[i];
                uint8_t active[POLICY_ACTIVE];
                int k = policy_features(&pos, &m, &node, mv, active);
                assert_true(k >= 6 && k <= POLICY_ACTIVE);
                for (int j = 0; j < k; j++) assert_true(active[j] < POLICY_FEATURES);
                if (!tak_move_is_spread(mv)) {
                    assert_int_equal(k, 6);
                    continue;
                }
                spreads++;
                int own = road_count(&pos, side), opp = road_count(&pos, side ^ 1);
                TakUndo undo;
                tak_position_make(&pos, mv, &undo);
                int own_gain = road_count(&pos, side) - own, opp_gain = road_count(&pos, side ^ 1) - opp;
                int longest = 0;
                for (int l = 0; l < size; l++) {
                    int r = __builtin_popcountll(pos.owner[side] & ~pos.walls & m.rank[l]);
                    int f = __builtin_popcountll(pos.owner[side] & ~pos.walls & m.file[l]);
                    longest = r > longest ? r : longest;
                    longest = f > longest ? f : longest;
                }
                tak_position_unmake(&pos, mv, &undo);
                int most = POLICY_GAIN_MAX;
                own_gain = own_gain < -most ? -most : own_gain > most ? most : own_gain;
                opp_gain = opp_gain < -most ? -most : opp_gain > most ? most : opp_gain;
                assert_true(has_feature(active, k, POLICY_SPREAD_OWN_GAIN + own_gain + most));
                assert_true(has_feature(active, k, POLICY_SPREAD_OPP_GAIN + opp_gain + most));
                assert_true(has_feature(active, k, POLICY_SPREAD_LINE + longest));
                assert_true(has_feature(active, k, POLICY_SPREAD_COUNT + tak_move_count(mv) - 1));
            }
        }
    }
    assert_true(spreads > 1000);
}

/* A placement's features, by hand: White's flat on c1 beside a1 b1 (its
 * own) and c2 (Black's); a wall on a4, a corner. */
static void test_policy_placements(void **state) {
    (void)state;
    TakPosition pos = support_position("x4/x4/x2,2,x/1,1,x2 1 3", NULL);
    BoardMasks m = board_masks(4);
    PolicyNode node = policy_node(&pos, &m);
    uint8_t active[POLICY_ACTIVE];
    int k = policy_features(&pos, &m, &node, support_move(&pos, "c1"), active);
    assert_int_equal(k, 6);
    int flat = TAK_PLACE_FLAT, wall = TAK_PLACE_WALL;
    assert_true(has_feature(active, k, POLICY_PLACE_CLASS + flat * POLICY_CLASSES + board_square_class(2, 4)));
    assert_true(has_feature(active, k, POLICY_PLACE_OWN_NEAR + flat * POLICY_NEAR + 1));
    assert_true(has_feature(active, k, POLICY_PLACE_OPP_NEAR + flat * POLICY_NEAR + 1));
    assert_true(has_feature(active, k, POLICY_PLACE_OWN_LINE + flat * POLICY_LINES + 2));
    assert_true(has_feature(active, k, POLICY_PLACE_OPP_LINE + flat * POLICY_LINES + 1));
    k = policy_features(&pos, &m, &node, support_move(&pos, "Sa4"), active);
    assert_true(has_feature(active, k, POLICY_PLACE_CLASS + wall * POLICY_CLASSES + 0));
    assert_true(has_feature(active, k, POLICY_PLACE_OWN_NEAR + wall * POLICY_NEAR + 0));
    assert_true(has_feature(active, k, POLICY_PLACE_OWN_LINE + wall * POLICY_LINES + 1));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_road_in_one_matches_core),
        cmocka_unit_test(test_parry_zone_is_safe),
        cmocka_unit_test(test_legal_moves_everywhere),
        cmocka_unit_test(test_finished_game_has_no_move),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_node_limit),
        cmocka_unit_test(test_stopped_iteration_plays_a_proven_move),
        cmocka_unit_test(test_movetime),
        cmocka_unit_test(test_clock_never_runs_out),
        cmocka_unit_test(test_time_up),
        cmocka_unit_test(test_time_4x4),
        cmocka_unit_test(test_stop_from_another_thread),
        cmocka_unit_test(test_threads_agree_on_a_road),
        cmocka_unit_test(test_multipv),
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_levels_replay_with_a_seed),
        cmocka_unit_test(test_repetition_history_is_read),
        cmocka_unit_test(test_evaluate_is_from_side_to_move),
        cmocka_unit_test(test_evaluation_symmetries),
        cmocka_unit_test(test_net_inputs_follow_symmetries),
        cmocka_unit_test(test_net_forward),
        cmocka_unit_test(test_net_stored_form),
        cmocka_unit_test(test_road_features),
        cmocka_unit_test(test_flat_race_features),
        cmocka_unit_test(test_flat_win_in_one_matches_core),
        cmocka_unit_test(test_policy_features),
        cmocka_unit_test(test_policy_placements),
        cmocka_unit_test(test_judge_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
