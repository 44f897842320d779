/*
 * test_tei.c: the TEI session driven line by line, its output captured: the
 * handshake in both dialects, options good and bad, positions that must be
 * refused without losing the last good one, searches that answer exactly one
 * legal bestmove, and isready/stop/quit answered while a search runs.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "support.h"
#include "tak/tei.h"

#define MAX_LINES 4096

typedef struct Capture {
    pthread_mutex_t lock;
    char *lines[MAX_LINES];
    int count;
    TakTeiSession *session;
    bool slow_bestmove; /* linger after taking a bestmove, to widen races */
} Capture;

static void sleep_ms(int ms);

static void capture_line(const char *line, void *user) {
    Capture *c = user;
    pthread_mutex_lock(&c->lock);
    if (c->count < MAX_LINES) c->lines[c->count++] = strdup(line);
    pthread_mutex_unlock(&c->lock);
    if (c->slow_bestmove && strncmp(line, "bestmove", 8) == 0) sleep_ms(2);
}

static int setup(void **state) {
    Capture *c = calloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    TakTeiConfig config = {.name = "TestEngine", .author = "Tester", .hash_mb = 8};
    c->session = tak_tei_new(&config, capture_line, c);
    if (c->session == NULL) return -1;
    *state = c;
    return 0;
}

static int teardown(void **state) {
    Capture *c = *state;
    tak_tei_free(c->session);
    for (int i = 0; i < c->count; i++) free(c->lines[i]);
    pthread_mutex_destroy(&c->lock);
    free(c);
    return 0;
}

static bool send(Capture *c, const char *line) {
    return tak_tei_handle(c->session, line, strlen(line));
}

static void clear(Capture *c) {
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->count; i++) free(c->lines[i]);
    c->count = 0;
    pthread_mutex_unlock(&c->lock);
}

/* How many lines start with `prefix`; *last gets the last of them. */
static int count_prefix(Capture *c, const char *prefix, char *last, size_t cap) {
    int n = 0;
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->count; i++)
        if (strncmp(c->lines[i], prefix, strlen(prefix)) == 0) {
            n++;
            if (last) snprintf(last, cap, "%s", c->lines[i]);
        }
    pthread_mutex_unlock(&c->lock);
    return n;
}

static void sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Waits (at most 60 s) for the search to end and returns its bestmove's text. */
static void wait_bestmove(Capture *c, char *move, size_t cap) {
    for (int i = 0; i < 6000 && tak_tei_is_searching(c->session); i++) sleep_ms(10);
    assert_false(tak_tei_is_searching(c->session));
    tak_tei_wait(c->session);
    char line[256];
    assert_int_equal(count_prefix(c, "bestmove ", line, sizeof line), 1);
    size_t n = strlen(line + 9) < cap - 1 ? strlen(line + 9) : cap - 1;
    memcpy(move, line + 9, n);
    move[n] = '\0';
}

static void assert_error_line(Capture *c, const char *what) {
    char line[512];
    if (count_prefix(c, "info string error: ", line, sizeof line) < 1)
        fail_msg("no error line after %s", what);
}

static void assert_legal_here(Capture *c, const char *move) {
    const TakGame *game = tak_tei_game(c->session);
    TakMove m;
    TakError err;
    if (!tak_move_parse(&game->current, move, &m, &err))
        fail_msg("bestmove '%s' is not legal: %s", move, err.message);
}

/* ---- The handshake --------------------------------------------------- */

static void handshake_lists_options_and_sizes(void **state) {
    Capture *c = *state;
    assert_true(send(c, "tei"));
    pthread_mutex_lock(&c->lock);
    int n = c->count;
    assert_true(n >= 8);
    assert_string_equal(c->lines[0], "id name TestEngine");
    assert_string_equal(c->lines[1], "id author Tester");
    assert_string_equal(c->lines[n - 1], "teiok");
    pthread_mutex_unlock(&c->lock);
    char line[512];
    assert_int_equal(count_prefix(c, "option name HalfKomi type spin default 0 min -20 max 20", NULL, 0), 1);
    assert_int_equal(count_prefix(c, "option name Hash type spin default 8 min 1 max", NULL, 0), 1);
    assert_int_equal(count_prefix(c, "option name Threads type spin default 1 min 1 max", NULL, 0), 1);
    assert_int_equal(count_prefix(c, "option name MultiPV type spin default 1 min 1 max 16", NULL, 0), 1);
    assert_int_equal(count_prefix(c, "option name Level type spin default 10 min 1 max 10", NULL, 0), 1);
    assert_int_equal(count_prefix(c, "size 3 4 5 6 7 8 halfkomi -20 -19", line, sizeof line), 1);
    assert_non_null(strstr(line, " 19 20"));
    assert_int_equal(count_prefix(c, "info string error", NULL, 0), 0);
}

static void dialect_a_newgame_with_komi_option(void **state) {
    Capture *c = *state;
    assert_true(send(c, "setoption name HalfKomi value 4"));
    assert_true(send(c, "teinewgame 5"));
    assert_true(send(c, "position startpos moves a1 e5"));
    assert_int_equal(count_prefix(c, "info string", NULL, 0), 0);
    const TakGame *g = tak_tei_game(c->session);
    assert_int_equal(tak_position_size(&g->current), 5);
    assert_int_equal(g->current.rules.half_komi, 4);
    assert_int_equal(g->count, 2);
}

static void dialect_b_newgame_with_size_and_komi(void **state) {
    Capture *c = *state;
    assert_true(send(c, "teinewgame size 4 halfkomi -3"));
    assert_true(send(c, "position startpos"));
    assert_int_equal(count_prefix(c, "info string", NULL, 0), 0);
    const TakGame *g = tak_tei_game(c->session);
    assert_int_equal(tak_position_size(&g->current), 4);
    assert_int_equal(g->current.rules.half_komi, -3);
    /* Bad forms are refused and change nothing. */
    assert_true(send(c, "teinewgame size 9"));
    assert_true(send(c, "teinewgame size 5 halfkomi 21"));
    assert_true(send(c, "teinewgame halfkomi 2"));
    assert_true(send(c, "teinewgame x"));
    assert_int_equal(count_prefix(c, "info string error: teinewgame", NULL, 0), 4);
    assert_true(send(c, "position startpos"));
    g = tak_tei_game(c->session);
    assert_int_equal(tak_position_size(&g->current), 4);
    assert_int_equal(g->current.rules.half_komi, -3);
}

/* ---- Options --------------------------------------------------------- */

static void setoption_good_bad_and_unknown(void **state) {
    Capture *c = *state;
    assert_true(send(c, "setoption name Hash value 4"));
    assert_true(send(c, "setoption name hash value 2"));
    assert_true(send(c, "setoption name LEVEL value 3"));
    assert_true(send(c, "setoption name MultiPV value 2"));
    assert_true(send(c, "setoption name Threads value 1"));
    assert_true(send(c, "setoption name halfkomi value -20"));
    assert_int_equal(count_prefix(c, "info string", NULL, 0), 0);

    const char *bad[] = {
        "setoption name Hash value 0",       "setoption name Hash value x",
        "setoption name Level value 11",     "setoption name Level value 0",
        "setoption name MultiPV value 17",   "setoption name HalfKomi value 21",
        "setoption name HalfKomi value 2.5", "setoption name Threads value 100000",
        "setoption name Hash",               "setoption name Hash value",
        "setoption Hash value 4",            "setoption",
        "setoption name Level value 5 6",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        clear(c);
        assert_true(send(c, bad[i]));
        assert_error_line(c, bad[i]);
    }
    clear(c);
    assert_true(send(c, "setoption name Ponder value true"));
    char line[256];
    assert_int_equal(count_prefix(c, "info string ", line, sizeof line), 1);
    assert_non_null(strstr(line, "unknown option"));
    assert_null(strstr(line, "error"));
    /* The session is fine afterwards. */
    assert_true(send(c, "isready"));
    assert_int_equal(count_prefix(c, "readyok", NULL, 0), 1);
}

/* ---- Positions ------------------------------------------------------- */

static void bad_positions_keep_the_last_good_one(void **state) {
    Capture *c = *state;
    assert_true(send(c, "teinewgame 6"));
    assert_true(send(c, "position startpos moves a1 f6 Cc3"));
    assert_int_equal(count_prefix(c, "info string", NULL, 0), 0);
    char good[TAK_TPS_MAX], now[TAK_TPS_MAX];
    tak_tps_write(&tak_tei_game(c->session)->current, good, sizeof good);
    size_t plies = tak_tei_game(c->session)->count;
    assert_int_equal(plies, 3);

    const char *bad[] = {
        "position tps x6/x6/x6/x6/x6/x7 1 1",          /* row too long */
        "position tps x6/x6/x6/x6/x6/x6 3 1",          /* side 3 */
        "position tps x6/x6/x6/x6/x6 1 1",             /* wrong size is fine, but this... */
        "position tps",                                /* nothing */
        "position tps garbage",                        /* not a TPS */
        "position tps x9/x9/x9/x9/x9/x9/x9/x9/x9 1 1", /* nine rows */
        "position startpos moves a1 a1",               /* occupied */
        "position startpos moves a1 f6 Sc3 c3+",       /* a wall cannot move up off... ok, check */
        "position startpos moves a1 f6 Cc3 Cc4 Cd4",   /* a second capstone for White */
        "position startpos moves z9",                  /* off the board */
        "position startpos moves a1 f6 @#!",           /* garbage */
        "position startpos foo",                       /* junk before moves */
        "position",                                    /* nothing */
        "position fen rnbqkbnr",                       /* not ours */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        clear(c);
        assert_true(send(c, bad[i]));
        /* Some of these may be legal in other rules; only the refused ones
         * must leave the position alone. */
        if (count_prefix(c, "info string error: ", NULL, 0) == 0) {
            /* c3+ of a lone wall and a 5-row TPS are legal: restore. */
            assert_true(i == 2 || i == 7);
            assert_true(send(c, "position startpos moves a1 f6 Cc3"));
            continue;
        }
        tak_tps_write(&tak_tei_game(c->session)->current, now, sizeof now);
        if (strcmp(now, good) != 0) fail_msg("after '%s' the position is %s, want %s", bad[i], now, good);
        assert_int_equal(tak_tei_game(c->session)->count, plies);
    }
    /* The error names the move. */
    clear(c);
    assert_true(send(c, "position startpos moves a1 f6 b2 b2"));
    char line[512];
    assert_int_equal(count_prefix(c, "info string error: ", line, sizeof line), 1);
    assert_non_null(strstr(line, "move 4"));
    assert_non_null(strstr(line, "b2"));

    /* A TPS with moves after it. */
    clear(c);
    assert_true(send(c, "position tps x5/x5/x5/x5/x5 1 1 moves a1 e5 c3"));
    assert_int_equal(count_prefix(c, "info string", NULL, 0), 0);
    assert_int_equal(tak_position_size(&tak_tei_game(c->session)->current), 5);
    assert_int_equal(tak_tei_game(c->session)->count, 3);
}

static void hostile_lines_never_break_the_session(void **state) {
    Capture *c = *state;
    assert_true(send(c, "position startpos moves a1 f6"));
    size_t len = TAK_TEI_LINE_MAX + 10;
    char *huge = malloc(len);
    memset(huge, 'x', len);
    assert_true(tak_tei_handle(c->session, huge, len));
    assert_error_line(c, "a huge line");
    /* A long but acceptable line of junk moves. */
    memcpy(huge, "position startpos moves ", 24);
    for (size_t i = 24; i < 100000; i++) huge[i] = (i % 3 == 2) ? ' ' : "a1"[i % 3];
    assert_true(tak_tei_handle(c->session, huge, 100000));
    free(huge);
    const char binary[] = "go\0\xff\xfe depth \x01\x02\x7f\r\n";
    assert_true(tak_tei_handle(c->session, binary, sizeof binary - 1));
    /* "go" with junk and no limit left searches until stopped. */
    assert_true(tak_tei_is_searching(c->session));
    assert_true(send(c, "stop"));
    assert_int_equal(count_prefix(c, "bestmove ", NULL, 0), 1);
    clear(c);
    const char *junk[] = {"", "   ", "\t\r\n", "xyzzy", "\x80\x81\x82", "go1", "tei2",
                          "position startpos moves", "setoption name", "stop", "stop"};
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++)
        assert_true(tak_tei_handle(c->session, junk[i], strlen(junk[i])));
    assert_int_equal(count_prefix(c, "bestmove", NULL, 0), 0);
    assert_int_equal(count_prefix(c, "info string error: unknown command", NULL, 0), 4);
    assert_true(send(c, "isready"));
    assert_int_equal(count_prefix(c, "readyok", NULL, 0), 1);
}

/* ---- Searching ------------------------------------------------------- */

static void go_depth_returns_a_legal_move(void **state) {
    Capture *c = *state;
    const char *positions[] = {
        "position startpos",
        "position startpos moves a1 f6 d4",
        "position tps x5/x5/x2,1,x2/x5/2,x4 1 2",
        "position tps 2,x3/x4/x4/x3,1 2 1",
    };
    const char *news[] = {"teinewgame 6", "teinewgame 6", "teinewgame 5", "teinewgame 4"};
    for (size_t p = 0; p < sizeof positions / sizeof positions[0]; p++) {
        for (int depth = 1; depth <= 3; depth++) {
            clear(c);
            assert_true(send(c, news[p]));
            assert_true(send(c, positions[p]));
            char go[32], move[64];
            snprintf(go, sizeof go, "go depth %d", depth);
            assert_true(send(c, go));
            wait_bestmove(c, move, sizeof move);
            assert_legal_here(c, move);
            assert_true(count_prefix(c, "info depth ", NULL, 0) >= 1);
        }
    }
    /* An info line has what a GUI reads. */
    char line[1024];
    count_prefix(c, "info depth ", line, sizeof line);
    const char *fields[] = {" seldepth ", " score ", " nodes ", " nps ", " time ", " pv "};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strstr(line, fields[i]) == NULL) fail_msg("'%s' lacks '%s'", line, fields[i]);
}

static void go_with_clocks_and_nodes(void **state) {
    Capture *c = *state;
    char move[64];
    assert_true(send(c, "position startpos moves a1 f6 c3"));
    assert_true(send(c, "go wtime 300 btime 200 winc 10 binc 10 movestogo 5"));
    wait_bestmove(c, move, sizeof move);
    assert_legal_here(c, move);
    clear(c);
    assert_true(send(c, "go nodes 500"));
    wait_bestmove(c, move, sizeof move);
    assert_legal_here(c, move);
    clear(c);
    assert_true(send(c, "go movetime 50"));
    wait_bestmove(c, move, sizeof move);
    assert_legal_here(c, move);
    /* An exhausted clock still gets a move, not an endless search. */
    clear(c);
    assert_true(send(c, "go wtime 0 btime -5"));
    wait_bestmove(c, move, sizeof move);
    assert_legal_here(c, move);
    /* Bad parameters are reported, and the search still answers. */
    clear(c);
    assert_true(send(c, "go depth x nodes 100 banana"));
    wait_bestmove(c, move, sizeof move);
    assert_int_equal(count_prefix(c, "info string error: go", NULL, 0), 2);
}

static void finished_game_answers_no_move(void **state) {
    Capture *c = *state;
    /* White's road along the bottom row of a 3x3 board. */
    assert_true(send(c, "position tps x3/2,2,x/1,1,1 2 3"));
    assert_int_equal(count_prefix(c, "info string", NULL, 0), 0);
    assert_true(send(c, "go depth 2"));
    char move[64];
    wait_bestmove(c, move, sizeof move);
    assert_string_equal(move, "--");
}

/* Searches the 5x5 position `tps` to depth 3; its best move into `move`,
 * its last info line into `line`. */
static void search_5x5(Capture *c, const char *tps, char move[64], char line[1024]) {
    char position[256];
    snprintf(position, sizeof position, "position tps %s", tps);
    assert_true(send(c, "teinewgame 5"));
    assert_true(send(c, position));
    assert_true(send(c, "go depth 3"));
    wait_bestmove(c, move, 64);
    count_prefix(c, "info depth ", line, 1024);
}

static void finds_a_road_in_one(void **state) {
    char move[64], line[1024];
    /* White to move: a1..d1 are White's; e1 makes the road. */
    search_5x5(*state, "x5/x5/2,2,2,x2/x5/1,1,1,1,x 1 4", move, line);
    assert_string_equal(move, "e1");
    assert_non_null(strstr(line, "score cp 29999 "));
}

/* White to move, and Black threatens two roads (rows 4 and 2) that one move
 * cannot both block: lost in two plies, written as a cp score. */
static void scores_a_lost_game_as_cp(void **state) {
    char move[64], line[1024];
    search_5x5(*state, "x,1,x,1,x/2,2,2,2,x/1,x,1,x,1/x,2,2,2,2/1,x,1,x,1 1 9", move, line);
    assert_non_null(strstr(line, "score cp -29998 "));
}

static void stop_ends_an_infinite_search(void **state) {
    Capture *c = *state;
    assert_true(send(c, "position startpos moves a1 f6"));
    assert_true(send(c, "go infinite"));
    sleep_ms(200);
    assert_true(tak_tei_is_searching(c->session));
    assert_int_equal(count_prefix(c, "bestmove", NULL, 0), 0);
    assert_true(send(c, "stop"));
    /* stop returns after the bestmove is out. */
    char line[256];
    assert_int_equal(count_prefix(c, "bestmove ", line, sizeof line), 1);
    assert_legal_here(c, line + 9);
    assert_false(tak_tei_is_searching(c->session));
    /* A stop right after go is not lost. */
    clear(c);
    assert_true(send(c, "go infinite"));
    assert_true(send(c, "stop"));
    assert_int_equal(count_prefix(c, "bestmove ", NULL, 0), 1);
}

static void isready_during_a_search(void **state) {
    Capture *c = *state;
    assert_true(send(c, "position startpos moves a1 f6"));
    assert_true(send(c, "go infinite"));
    sleep_ms(50);
    assert_true(send(c, "isready"));
    assert_int_equal(count_prefix(c, "readyok", NULL, 0), 1);
    assert_int_equal(count_prefix(c, "bestmove", NULL, 0), 0);
    /* Commands that would disturb the search are refused, position is not. */
    assert_true(send(c, "go depth 1"));
    assert_true(send(c, "setoption name Hash value 1"));
    assert_true(send(c, "teinewgame 5"));
    assert_int_equal(count_prefix(c, "info string error: ", NULL, 0), 3);
    assert_true(send(c, "position startpos moves a1 f6 c3"));
    assert_int_equal(count_prefix(c, "bestmove", NULL, 0), 0);
    assert_true(send(c, "stop"));
    char line[256];
    assert_int_equal(count_prefix(c, "bestmove ", line, sizeof line), 1);
    /* The move answers the position the search started from. */
    TakPosition pos = support_position("x6/x6/x6/x6/x6/1,x5 1 2", NULL);
    TakMove m;
    TakError err;
    if (!tak_move_parse(&pos, line + 9, &m, &err)) fail_msg("%s: %s", line, err.message);
}

static void exactly_one_bestmove_per_go(void **state) {
    Capture *c = *state;
    assert_true(send(c, "position startpos"));
    for (int i = 0; i < 5; i++) {
        assert_true(send(c, "go depth 2"));
        if (i % 2) assert_true(send(c, "stop"));
        tak_tei_wait(c->session);
    }
    assert_true(send(c, "stop")); /* no search: nothing */
    assert_int_equal(count_prefix(c, "bestmove ", NULL, 0), 5);
}

/* A runner sends the next go the moment it reads bestmove; that go must
 * not find the search still "running". */
static void go_right_after_bestmove_is_accepted(void **state) {
    Capture *c = *state;
    assert_true(send(c, "teinewgame 4"));
    assert_true(send(c, "position startpos moves a1 d4"));
    c->slow_bestmove = true;
    for (int i = 1; i <= 30; i++) {
        assert_true(send(c, "go depth 1"));
        for (int wait = 0; count_prefix(c, "bestmove ", NULL, 0) < i; wait++) {
            if (wait > 100000) fail_msg("go %d got no bestmove", i);
            struct timespec t = {0, 10000};
            nanosleep(&t, NULL);
        }
    }
    assert_int_equal(count_prefix(c, "info string error", NULL, 0), 0);
    tak_tei_wait(c->session);
}

static void quit_during_a_search(void **state) {
    Capture *c = *state;
    assert_true(send(c, "go infinite"));
    assert_false(send(c, "quit"));
    assert_int_equal(count_prefix(c, "bestmove ", NULL, 0), 1);
    /* Freeing with a search running also answers it. */
    clear(c);
    assert_true(send(c, "go infinite"));
    tak_tei_free(c->session);
    assert_int_equal(count_prefix(c, "bestmove ", NULL, 0), 1);
    c->session = tak_tei_new(NULL, capture_line, c);
    assert_non_null(c->session);
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(handshake_lists_options_and_sizes),
        T(dialect_a_newgame_with_komi_option),
        T(dialect_b_newgame_with_size_and_komi),
        T(setoption_good_bad_and_unknown),
        T(bad_positions_keep_the_last_good_one),
        T(hostile_lines_never_break_the_session),
        T(go_depth_returns_a_legal_move),
        T(go_with_clocks_and_nodes),
        T(finished_game_answers_no_move),
        T(finds_a_road_in_one),
        T(scores_a_lost_game_as_cp),
        T(stop_ends_an_infinite_search),
        T(isready_during_a_search),
        T(exactly_one_bestmove_per_go),
        T(go_right_after_bestmove_is_accepted),
        T(quit_during_a_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
