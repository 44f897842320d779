/*
 * test_takat.c: TAKAT (shared/spec/takat.md), one test per rule and example,
 * in the spec's order; the notation and every refused position string; the
 * perft table; the generator held to takat_turn_check; the solver on an
 * endgame, its table check, save and load; the AI's levels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tak/takat.h"

static TakatPosition pos_of(const char *text) {
    TakatPosition pos;
    TakError err;
    if (!takat_position_parse(text, &pos, &err)) fail_msg("'%s' refused: %s", text, err.message);
    return pos;
}

static TakatTurn turn_of(const char *text) {
    TakatTurn t;
    TakError err;
    if (!takat_turn_parse(text, &t, &err)) fail_msg("turn '%s' refused: %s", text, err.message);
    return t;
}

/* The legal turns of a position as "a2 b2-c3 ...". */
static const char *turns_text(const TakatPosition *pos, char *buf) {
    TakatTurnList list;
    char t[TAKAT_TURN_MAX];
    buf[0] = '\0';
    int n = takat_turns_generate(pos, &list);
    for (int i = 0; i < n; i++) {
        if (i) strcat(buf, " ");
        strcat(buf, takat_turn_format(list.turns[i], t));
    }
    return buf;
}

static bool is_legal(const char *position, const char *turn) {
    TakatPosition pos = pos_of(position);
    return takat_turn_check(&pos, turn_of(turn), NULL);
}

/* The turn is refused and the reason contains `words`. */
static void assert_refused(const char *position, const char *turn, const char *words) {
    TakatPosition pos = pos_of(position);
    TakError err;
    if (takat_turn_check(&pos, turn_of(turn), &err))
        fail_msg("%s accepted in %s", turn, position);
    if (!strstr(err.message, words))
        fail_msg("%s in %s: '%s' lacks '%s'", turn, position, err.message, words);
}

/* ---- Examples of takat.md -------------------------------------------------- */

static void test_start_has_six_drops(void **state) {
    (void)state;
    TakatPosition pos;
    char buf[512];
    takat_position_start(&pos);
    assert_string_equal(turns_text(&pos, buf), "a2 b3 a1 c3 b1 c2");
    assert_int_equal(takat_reserve(&pos, TAKAT_WHITE), 6);
    assert_int_equal(takat_reserve(&pos, TAKAT_BLACK), 15);
}

static void test_black_must_drop_example(void **state) {
    (void)state;
    TakatPosition pos = pos_of("1,x,x,x,x,x,x 2 a2");
    char buf[512];
    assert_true(takat_forced_drop(&pos));
    assert_string_equal(turns_text(&pos, buf), "b3 a1 c3 b1 c2");
    assert_refused("1,x,x,x,x,x,x 2 a2", "b2", "centre");
    assert_refused("1,x,x,x,x,x,x 2 a2", "a2-b2", "must drop");
}

static void test_seed_example_heights(void **state) {
    (void)state;
    /* Centre 12 (height 2): its top may go to any neighbour of height <= 3. */
    const char *p = "221,111,2,12,x,x,x 1";
    char buf[512];
    TakatPosition pos = pos_of(p);
    assert_string_equal(turns_text(&pos, buf),
                        "c3 b1 c2 a2-b3 a2-a1 a2-b2 a1-b2 a1-b1 b2-a2 b2-b3 b2-a1 b2-c3 b2-b1 b2-c2");
    /* The single stone on a1 may not climb onto the 3 on a2. */
    assert_refused(p, "a1-a2", "at most 2");
}

static void test_safety_kinds(void **state) {
    (void)state;
    TakatPosition pos = pos_of("11,111,22,x,x,x,x 2");
    assert_int_equal(takat_safety(&pos, 0), TAKAT_TEMPORARY);
    assert_int_equal(takat_safety(&pos, 1), TAKAT_PERMANENT); /* b3 is red */
    assert_int_equal(takat_safety(&pos, 2), TAKAT_TEMPORARY); /* only two */
    /* 11: only White moves its top. */
    assert_refused("11,x,22,x,x,x,x 2", "a2-b2", "temporarily safe");
    assert_true(is_legal("11,x,22,x,x,x,x 1", "a2-b2"));
    /* 111 on a red cell: nobody moves it; on a plain cell it is only temporary. */
    assert_refused("x,111,22,x,x,x,x 1", "b3-b2", "permanently safe");
    assert_refused("x,111,22,x,x,x,x 2", "b3-b2", "permanently safe");
    assert_true(is_legal("111,x,22,x,x,x,x 1", "a2-b2"));
    /* A single stone is never safe: Black moves a white one. */
    assert_true(is_legal("1,x,22,x,x,x,x 2", "a2-b2"));
    /* Anyone may still move onto a safe stack. */
    assert_true(is_legal("x,111,x,22,x,x,2 2", "b2-b3"));
    assert_true(is_legal("2,11,x,x,x,x,2 2", "a2-b3"));
}

/* ---- Rule 1, in order ------------------------------------------------------ */

static void test_drop_rules(void **state) {
    (void)state;
    assert_refused("1,x,x,x,x,x,x 2", "a2", "not empty");
    assert_refused("x,x,x,x,x,x,x 1", "b2", "centre");
    /* White's six stones are all on the board. */
    assert_refused("111,2,x,x,111,x,22 1", "a1", "no stones left");
    assert_true(is_legal("111,2,x,x,11,x,22 1", "a1"));
}

static void test_move_rules(void **state) {
    (void)state;
    assert_refused("1,x,2,x,x,x,x 1", "c3-b2", "empty");
    assert_refused("1,x,2,x,x,x,x 1", "a2-c3", "not adjacent");
    assert_refused("1,x,2,x,x,x,x 1", "a2-c2", "not adjacent");
    assert_true(is_legal("1,x,2,x,x,x,x 1", "a2-a1"));
    assert_true(is_legal("1,x,2,x,x,x,x 1", "a2-b2"));
    /* N+1: from a height of 1 onto at most 2. */
    assert_true(is_legal("1,12,2,x,x,x,x 1", "a2-b3"));
    assert_refused("1,122,2,x,x,x,x 1", "a2-b3", "at most 2");
    /* Only one stone moves; the stones under it stay. */
    TakatPosition pos = pos_of("x,x,x,121,x,x,x 2");
    takat_position_apply(&pos, turn_of("b2-c3"));
    char buf[TAKAT_POSITION_MAX];
    assert_string_equal(takat_position_format(&pos, buf), "x,x,x,12,1,x,x 1 c3");
}

static void test_forced_drop_exception(void **state) {
    (void)state;
    /* Black 1 < White 5 but no empty ring cell: Black may move. */
    TakatPosition pos = pos_of("1,1,1,x,1,1,2 2");
    assert_false(takat_forced_drop(&pos));
    assert_true(is_legal("1,1,1,x,1,1,2 2", "c2-b2"));
    /* Equal numbers: no forced drop. */
    assert_true(is_legal("1,x,2,x,x,x,x 2", "a2-b2"));
    /* Buried stones count: White 2 (one buried) vs Black 1 forces a drop. */
    assert_refused("x,x,12,x,1,x,x 2", "c3-b2", "must drop");
}

static void test_ko_limits_moves_only(void **state) {
    (void)state;
    /* Black's last turn put a stone on a2: White may not move it ... */
    assert_refused("2,1,x,x,x,x,x 1 a2", "a2-b2", "ko");
    /* ... but may move another stone, and drop. */
    assert_true(is_legal("2,1,x,x,x,x,x 1 a2", "b3-b2"));
    assert_true(is_legal("2,1,x,x,x,x,x 1 a2", "a1"));
    /* A move's target is the ko cell too; the ko lasts one turn. */
    TakatPosition pos = pos_of("2,1,x,x,x,x,x 1 a2");
    takat_position_apply(&pos, turn_of("b3-b2"));
    assert_int_equal(pos.ko, takat_cell_from_name("b2"));
    assert_true(takat_turn_check(&pos, turn_of("a2-a1"), NULL));
    assert_false(takat_turn_check(&pos, turn_of("b2-c3"), NULL));
}

/* ---- Rules 2 and 3 ------------------------------------------------------------ */

static void test_no_adjacent_safe_fours(void **state) {
    (void)state;
    /* c3-b2 makes 21211 (safe White top) beside 2111 on a2. */
    assert_refused("2111,x,x,2121,221,x,x 1", "c3-b2", "four or more");
    /* Different colours on top are fine. */
    assert_true(is_legal("2122,x,x,2121,221,x,x 1", "c3-b2"));
    /* Not adjacent (a2 and c3): fine. */
    assert_true(is_legal("2111,x,x,x,2211,x,1 1", "c2-b2"));
}

static void test_rule2_judged_after_turn(void **state) {
    (void)state;
    /* Taking the black stone off 22112 leaves 2211, safe, beside 2111. */
    assert_refused("2111,x,x,22112,x,x,x 1", "b2-c3", "four or more");
    TakatPosition pos = pos_of("2111,x,x,22112,x,x,x 1");
    assert_false(takat_breaks_adjacency(&pos));
    char buf[512];
    /* Only b2-a2 is left to the stack: it unsafes a2's top in the same turn. */
    assert_string_equal(turns_text(&pos, buf), "b3 a1 c3 b1 c2 a2-b3 a2-a1 a2-b2 b2-a2");
}

static void test_six_wins_even_by_black(void **state) {
    (void)state;
    const char *p = "1212,x,x,12112,2212,x,x 2";
    assert_true(is_legal(p, "c3-b2"));
    TakatPosition pos = pos_of(p);
    takat_position_apply(&pos, turn_of("c3-b2"));
    assert_true(takat_has_six(&pos));
    assert_int_equal(takat_position_result(&pos), TAKAT_WHITE_WINS);
    TakatTurnList list;
    assert_int_equal(takat_turns_generate(&pos, &list), 0);
}

static void test_six_breaking_rule2_is_illegal(void **state) {
    (void)state;
    /* 121122 would be six with a safe Black top beside 1122. */
    assert_refused("1122,x,x,12112,2212,x,x 2", "c3-b2", "four or more");
}

static void test_no_legal_turn_loses(void **state) {
    (void)state;
    TakatPosition pos = pos_of("x,11111,2222,x,2222,x,221 2 c2");
    assert_true(takat_turn_check(&pos, turn_of("c3-c2"), NULL));
    takat_position_apply(&pos, turn_of("c3-c2"));
    TakatTurnList list;
    assert_int_equal(takat_turns_generate(&pos, &list), 0);
    assert_int_equal(takat_position_result(&pos), TAKAT_BLACK_WINS);
    TakatPosition start;
    takat_position_start(&start);
    assert_int_equal(takat_position_result(&start), TAKAT_ONGOING);
}

static void test_third_repetition_draws(void **state) {
    (void)state;
    TakatGame *game = malloc(sizeof *game);
    TakatPosition start = pos_of("1,x,x,x,2,x,x 1 c3");
    takat_game_init(game, &start);
    const char *cycle[] = {"a2-a1", "c3-c2", "a1-a2", "c2-c3"};
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 4; i++) {
            assert_int_equal(game->result, TAKAT_ONGOING);
            assert_true(takat_game_play(game, turn_of(cycle[i]), NULL));
        }
        assert_int_equal(takat_game_occurrences(game), round + 2);
    }
    assert_int_equal(game->result, TAKAT_DRAW);
    TakError err;
    assert_false(takat_game_play(game, turn_of("a2-a1"), &err));
    assert_non_null(strstr(err.message, "over"));
    assert_true(takat_game_undo(game));
    assert_int_equal(game->result, TAKAT_ONGOING);
    /* An illegal turn is refused with its reason and changes nothing. */
    assert_false(takat_game_play(game, turn_of("b2"), &err));
    assert_non_null(strstr(err.message, "centre"));
    assert_int_equal(game->count, 7);
    free(game);
}

/* ---- Notation ---------------------------------------------------------------- */

static void test_notation_round_trips(void **state) {
    (void)state;
    const char *texts[] = {"x,x,x,x,x,x,x 1", "x,x,1,x,x,x,x 2 a1",
                           "x,11111,2222,x,2222,x,221 2 c2", "121212,x,x,x,x,x,x 1",
                           "2,2,2,222222,222222,x,1 1 b2"};
    char buf[TAKAT_POSITION_MAX];
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        TakatPosition pos = pos_of(texts[i]);
        assert_string_equal(takat_position_format(&pos, buf), texts[i]);
        TakatPosition back;
        assert_true(takat_position_from_key(takat_position_key(&pos), &back));
        assert_memory_equal(&back, &pos, sizeof pos);
    }
    const char *turns[] = {"a2", "b3", "a1", "b2", "c3", "b1", "c2", "b2-c3", "a1-a2"};
    char t[TAKAT_TURN_MAX];
    for (size_t i = 0; i < sizeof turns / sizeof turns[0]; i++)
        assert_string_equal(takat_turn_format(turn_of(turns[i]), t), turns[i]);
    TakatTurn turn;
    assert_false(takat_turn_parse("d4", &turn, NULL));
    assert_false(takat_turn_parse("a2-a2", &turn, NULL));
    assert_false(takat_turn_parse("a2-", &turn, NULL));
    assert_false(takat_turn_parse("a2x", &turn, NULL));
    assert_false(takat_turn_parse("", &turn, NULL));
}

/* A refused position string: the message contains `words`, at `column`. */
static void assert_bad(const char *text, int column, const char *words) {
    TakatPosition pos;
    takat_position_start(&pos);
    pos.side = 1; /* a marker: must be left untouched */
    TakError err;
    if (takat_position_parse(text, &pos, &err)) fail_msg("'%s' accepted", text);
    if (!strstr(err.message, words)) fail_msg("'%s': '%s' lacks '%s'", text, err.message, words);
    if (err.column != column) fail_msg("'%s': column %d, want %d", text, err.column, column);
    assert_int_equal(pos.side, 1);
}

static void test_bad_position_strings(void **state) {
    (void)state;
    assert_bad("x,x,x,x,x,x 1", 12, "6 cells");
    assert_bad("x,x,x,x,x,x,x,x 1", 14, "more than 7");
    assert_bad("", 1, "0 cells");
    assert_bad("x,x,y,x,x,x,x 1", 5, "unknown character 'y'");
    assert_bad("x,x,13,x,x,x,x 1", 6, "unknown character '3'");
    assert_bad("x,,x,x,x,x,x 1", 3, "blank");
    assert_bad("x,x,x1,x,x,x,x 1", 6, "x (empty) followed");
    assert_bad("1111112,x,x,x,x,x,x 1", 7, "higher than 6");
    assert_bad("1111,111,x,x,x,x,x 1", 1, "7 white stones");
    assert_bad("22222,22222,22222,2,x,x,x 1", 1, "16 black stones");
    assert_bad("x,x,x,x,x,x,x 3", 15, "bad side");
    assert_bad("x,x,x,x,x,x,x 12", 15, "bad side");
    assert_bad("x,x,x,x,x,x,x", 14, "side to move");
    assert_bad("x,x,x,x,x,x,x 1 d4", 17, "bad ko cell");
    assert_bad("x,x,x,x,x,x,x 1 a", 17, "bad ko cell");
    assert_bad("x,x,x,x,x,x,x 1 a2", 17, "empty");
    assert_bad("1,x,x,x,x,x,x 1 a2 b3", 20, "unexpected");
}

/* ---- Perft and the generator against the checker -------------------------------- */

static void test_perft_table(void **state) {
    (void)state;
    static const uint64_t start[] = {6, 30, 210, 996, 9930, 86532, 957258};
    static const uint64_t late[] = {5, 9, 59, 194};
    TakatPosition pos;
    takat_position_start(&pos);
    for (int d = 1; d <= 7; d++) assert_int_equal(takat_perft(&pos, d), start[d - 1]);
    pos = pos_of("x,11111,2222,x,2222,x,221 2 c2");
    for (int d = 1; d <= 4; d++) assert_int_equal(takat_perft(&pos, d), late[d - 1]);
}

/* Every possible turn: generated exactly when the checker accepts it. */
static void agree(const TakatPosition *pos, int depth, uint64_t *checked) {
    TakatTurnList list;
    int n = takat_turns_generate(pos, &list);
    for (int from = 0; from <= TAKAT_CELLS; from++)
        for (int to = 0; to < TAKAT_CELLS; to++) {
            TakatTurn t = {(uint8_t)from, (uint8_t)to};
            if (from == to) continue;
            bool generated = false;
            for (int i = 0; i < n; i++) generated |= takat_turn_equal(list.turns[i], t);
            char buf[TAKAT_POSITION_MAX], tb[TAKAT_TURN_MAX];
            if (generated != takat_turn_check(pos, t, NULL))
                fail_msg("%s in %s: generator and checker differ",
                         takat_turn_format(t, tb), takat_position_format(pos, buf));
            (*checked)++;
        }
    if (depth == 0) return;
    for (int i = 0; i < n; i++) {
        TakatPosition next = *pos;
        takat_position_apply(&next, list.turns[i]);
        agree(&next, depth - 1, checked);
    }
}

static void test_generator_agrees_with_checker(void **state) {
    (void)state;
    uint64_t checked = 0;
    TakatPosition pos;
    takat_position_start(&pos);
    agree(&pos, 5, &checked);
    const char *others[] = {"x,11111,2222,x,2222,x,221 2 c2", "1212,x,x,12112,2212,x,x 2",
                            "2111,x,x,22112,x,x,x 1", "221,111,2,12,x,x,x 1"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        pos = pos_of(others[i]);
        agree(&pos, 3, &checked);
    }
    assert_true(checked > 100000);
}

/* ---- Solver, search and levels ----------------------------------------------- */

typedef struct ProofLog {
    int calls, last_depth;
} ProofLog;

static void proof_log(int depth, const TakatSearchResult *sofar, void *user) {
    ProofLog *log = user;
    (void)sofar;
    log->calls++;
    log->last_depth = depth;
}

static void test_solver_endgame(void **state) {
    (void)state;
    TakatPosition root = pos_of("x,11111,2222,x,2222,x,221 2 c2");
    TakatSolveStats st;
    TakError err;
    TakatSolution *sol = takat_solve(&root, 10000000, NULL, NULL, &st, &err);
    assert_non_null(sol);
    assert_true(st.complete);
    assert_int_equal(st.positions, st.wins + st.losses + st.draws);
    int d;
    assert_int_equal(takat_solution_value(sol, &root, &d), TAKAT_VALUE_WIN);
    assert_int_equal(d, 1);
    assert_int_equal(takat_solution_verify(sol), 0);

    /* Every settled position agrees with alpha-beta to its distance, on a sample. */
    TakatTurnList list;
    int n = takat_turns_generate(&root, &list);
    for (int i = 0; i < n; i++) {
        TakatPosition next = root;
        takat_position_apply(&next, list.turns[i]);
        TakatValue v = takat_solution_value(sol, &next, &d);
        if (v == TAKAT_VALUE_DRAW || takat_position_result(&next) != TAKAT_ONGOING) continue;
        TakatSearchResult r = takat_search(&next, d);
        assert_int_equal(r.score, v == TAKAT_VALUE_WIN ? 1000 - d : -(1000 - d));
        /* The proof search (small table, so its slots are contested) agrees,
         * reports every depth, and finds nothing one turn shorter. */
        ProofLog log = {0, 0};
        r = takat_prove(&next, d + 5, 1, proof_log, &log);
        assert_int_equal(r.score, v == TAKAT_VALUE_WIN ? 1000 - d : -(1000 - d));
        assert_int_equal(log.last_depth, d);
        assert_int_equal(log.calls, d);
        assert_int_equal(takat_prove(&next, d - 1, 1, NULL, NULL).score, 0);
    }

    const char *path = "build/test_takat_solution.bin";
    assert_true(takat_solution_save(sol, path, &err));
    TakatSolution *back = takat_solution_load(path, &err);
    assert_non_null(back);
    assert_int_equal(takat_solution_stats(back).positions, st.positions);
    assert_int_equal(takat_solution_value(back, &root, &d), TAKAT_VALUE_WIN);
    remove(path);
    assert_null(takat_solution_load("build/no-such-file", &err));

    /* Level 10 takes the win at once. */
    uint64_t seed = 1;
    TakatTurn t = takat_ai_choose(&root, 10, back, NULL, &seed);
    char buf[TAKAT_TURN_MAX];
    assert_string_equal(takat_turn_format(t, buf), "c3-c2");
    takat_solution_free(back);
    takat_solution_free(sol);

    /* A limit too small stops the enumeration with a message. */
    assert_null(takat_solve(&root, 1000, NULL, NULL, &st, &err));
    assert_false(st.complete);
    assert_non_null(strstr(err.message, "limit"));
}

static void test_levels_play_legal_turns(void **state) {
    (void)state;
    uint64_t seed = 42;
    for (int level = 1; level <= 10; level += 3) {
        TakatGame *game = malloc(sizeof *game);
        takat_game_init(game, NULL);
        for (int ply = 0; ply < 40 && game->result == TAKAT_ONGOING; ply++) {
            TakatTurn t = takat_ai_choose(&game->pos, level < 10 ? level : 6, NULL, NULL, &seed);
            assert_true(takat_game_play(game, t, NULL));
        }
        free(game);
    }
    TakatPosition root = pos_of("x,11111,2222,x,2222,x,221 2 c2");
    TakatSearchResult r = takat_search(&root, 3);
    assert_int_equal(r.score, 999);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_has_six_drops),
        cmocka_unit_test(test_black_must_drop_example),
        cmocka_unit_test(test_seed_example_heights),
        cmocka_unit_test(test_safety_kinds),
        cmocka_unit_test(test_drop_rules),
        cmocka_unit_test(test_move_rules),
        cmocka_unit_test(test_forced_drop_exception),
        cmocka_unit_test(test_ko_limits_moves_only),
        cmocka_unit_test(test_no_adjacent_safe_fours),
        cmocka_unit_test(test_rule2_judged_after_turn),
        cmocka_unit_test(test_six_wins_even_by_black),
        cmocka_unit_test(test_six_breaking_rule2_is_illegal),
        cmocka_unit_test(test_no_legal_turn_loses),
        cmocka_unit_test(test_third_repetition_draws),
        cmocka_unit_test(test_notation_round_trips),
        cmocka_unit_test(test_bad_position_strings),
        cmocka_unit_test(test_perft_table),
        cmocka_unit_test(test_generator_agrees_with_checker),
        cmocka_unit_test(test_solver_endgame),
        cmocka_unit_test(test_levels_play_legal_turns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
