/*
 * test_tps.c: reading and writing TPS (notation.md, "TPS: a position in one
 * line"): round trips, the forms other tools write, reserves derived from
 * the board, and every error the spec names, each at its column and saying
 * what was wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* The spec's example: a 5x5 game in full flight. */
static const char *const spec_example =
    "x3,12,2S/x,22S,22C,11,21/121,212,12,1121C,1212S/21S,1,21,211S,12S/x,21S,2,x2 1 26";

static void expect_round_trip(const char *tps, const TakRules *rules) {
    TakPosition pos, again;
    TakError err;
    char buf[TAK_TPS_MAX];
    if (!tak_tps_read(tps, rules, &pos, &err)) fail_msg("refused \"%s\": %s", tps, err.message);
    int n = tak_tps_write(&pos, buf, sizeof buf);
    assert_int_equal(n, (int)strlen(buf));
    if (strcmp(buf, tps) != 0) fail_msg("\"%s\" was written back as \"%s\"", tps, buf);
    if (!tak_tps_read(buf, rules, &again, &err))
        fail_msg("refused its own \"%s\": %s", buf, err.message);
    assert_true(tak_position_equal(&pos, &again));
    assert_true(pos.hash == tak_position_compute_hash(&pos));
}

static void test_round_trips(void **state) {
    (void)state;
    static const char *const cases[] = {
        "x3/x3/x3 1 1",
        "x4/x4/x4/x4 2 1",
        "x5/x5/x5/x5/x5 1 1",
        "x6/x6/x6/x6/x6/x6 1 1",
        "x7/x7/x7/x7/x7/x7/x7 1 1",
        "x8/x8/x8/x8/x8/x8/x8/x8 1 1",
        "x4,2/x5/x5/x5/x5 2 1",
        "2,x4/x5/x5/x5/x4,1 1 2",
        "x,1,x3/x2,2S,x2/x5/1C,x3,2C/x5 2 5",
        "x3,1,x/x5/x5/x5/x5 1 2147483647",
        "1212121212121212S,x7/x8/x8/x8/x8/x8/x8/x7,21C 2 40",
        "x,1,x/2,x,2/x,1,x 1 3",
        NULL,
    };
    expect_round_trip(spec_example, NULL);
    for (int i = 0; cases[i]; i++) expect_round_trip(cases[i], NULL);
}

/* What other tools write that is not this library's own form reads to the
 * same position, and is written in the compressed form. */
static void test_other_forms(void **state) {
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"x,x,x,x,x/x5/x5/x5/x5 1 1", "x5/x5/x5/x5/x5 1 1"},
        {"x2,x,x2/x,x,x,x,x/x5/x5/x5 1 1", "x5/x5/x5/x5/x5 1 1"},
        {"  x5/x5/x5/x5/x5 1 1\n", "x5/x5/x5/x5/x5 1 1"},
        {"\tx5/x5/x5/x5/x5  2   3 \r\n", "x5/x5/x5/x5/x5 2 3"},
        {"x1,1,x1,x,x/x5/x5/x5/x5 1 007", "x,1,x3/x5/x5/x5/x5 1 7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TakPosition pos;
        TakError err;
        char buf[TAK_TPS_MAX];
        if (!tak_tps_read(cases[i].in, NULL, &pos, &err))
            fail_msg("refused \"%s\": %s", cases[i].in, err.message);
        tak_tps_write(&pos, buf, sizeof buf);
        assert_string_equal(buf, cases[i].out);
    }
}

static void test_stack_bits_and_types(void **state) {
    (void)state;
    TakPosition pos = support_position("x4/x4/x4/x3,1122S 1 9", NULL);
    int d1 = tak_square_parse("d1", 4);
    assert_int_equal(d1, 3);
    assert_int_equal(tak_position_height(&pos, d1), 4);
    /* Bottom to top 1,1,2,2: top at bit 0, 1 for Black -> 0b0011. */
    assert_true(pos.stack[d1] == 3);
    assert_int_equal(tak_position_top_type(&pos, d1), TAK_WALL);
    assert_int_equal(tak_position_piece_color(&pos, d1, 0), TAK_WHITE);
    assert_int_equal(tak_position_piece_color(&pos, d1, 3), TAK_BLACK);
    assert_int_equal(tak_position_side(&pos), TAK_WHITE);
    assert_int_equal(tak_position_move_number(&pos), 9);

    TakRules rules = support_rules(4);
    rules.capstones = 1;
    assert_true(tak_tps_read("x4/x4/x2,21C,x/x4 2 3", &rules, &pos, NULL));
    int c2 = tak_square_parse("c2", 4);
    assert_int_equal(tak_position_top_type(&pos, c2), TAK_CAP);
    assert_int_equal(tak_position_piece_color(&pos, c2, 1), TAK_WHITE);
    assert_int_equal(tak_position_side(&pos), TAK_BLACK);
}

/* TPS carries no reserves: they are the starting counts less the pieces on
 * the board. */
static void test_reserves_derived(void **state) {
    (void)state;
    TakPosition pos = support_position(spec_example, NULL);
    int white = 0, black = 0, caps[2] = {0, 0};
    for (int sq = 0; sq < 25; sq++) {
        for (int level = 0; level < tak_position_height(&pos, sq); level++)
            *(tak_position_piece_color(&pos, sq, level) == TAK_WHITE ? &white : &black) += 1;
        if (tak_position_height(&pos, sq) && tak_position_top_type(&pos, sq) == TAK_CAP)
            caps[tak_position_piece_color(&pos, sq, tak_position_height(&pos, sq) - 1)]++;
    }
    assert_int_equal(pos.stones[0], 21 - (white - caps[0]));
    assert_int_equal(pos.stones[1], 21 - (black - caps[1]));
    assert_int_equal(pos.capstones[0], 1 - caps[0]);
    assert_int_equal(pos.capstones[1], 1 - caps[1]);

    /* A Traveler's game (20 stones): 21 White stones are too many. */
    TakRules rules;
    tak_rules_for_game_type(&rules, TAK_GAME_TRAVELERS);
    TakError err;
    assert_true(tak_tps_read("11111111111111111111,x4/x5/x5/x5/x5 2 12", &rules, &pos, &err));
    assert_int_equal(pos.stones[0], 0);
    assert_false(tak_tps_read("111111111111111111111,x4/x5/x5/x5/x5 2 12", &rules, &pos, &err));
    assert_non_null(strstr(err.message, "White stones"));
}

/* A position read from TPS equals the one reached by playing to it. */
static void test_matches_played_position(void **state) {
    (void)state;
    TakRules rules = support_rules(5);
    TakPosition played;
    assert_true(tak_position_init(&played, &rules, NULL));
    static const char *const plies[] = {"a1", "e5", "Cc3", "b1", "c3<", "Sd4", NULL};
    for (int i = 0; plies[i]; i++) {
        TakMove move;
        TakError err;
        if (!tak_move_parse(&played, plies[i], &move, &err))
            fail_msg("%s: %s", plies[i], err.message);
        assert_true(tak_position_apply(&played, move, &err));
    }
    TakPosition read = support_position("x4,1/x3,2S,x/x,1C,x3/x5/2,2,x3 1 4", NULL);
    assert_true(tak_position_equal(&played, &read));
    assert_true(played.hash == read.hash);
    char buf[TAK_TPS_MAX];
    tak_tps_write(&played, buf, sizeof buf);
    assert_string_equal(buf, "x4,1/x3,2S,x/x,1C,x3/x5/2,2,x3 1 4");
}

/* A finished position knows its result when it is read. */
static void test_result_computed(void **state) {
    (void)state;
    TakPosition pos = support_position("x3/x3/1,1,1 2 4", NULL);
    assert_int_equal(tak_position_result(&pos).end, TAK_END_ROAD);
    assert_int_equal(tak_position_result(&pos).winner, TAK_WHITE);
    pos = support_position("x3/x3/1,1,x 2 4", NULL);
    assert_int_equal(tak_position_result(&pos).end, TAK_END_NONE);
}

static void test_rules_argument(void **state) {
    (void)state;
    TakPosition pos;
    TakError err;
    TakRules rules = support_rules(6);
    assert_false(tak_tps_read("x5/x5/x5/x5/x5 1 1", &rules, &pos, &err));
    assert_non_null(strstr(err.message, "5x5"));
    assert_non_null(strstr(err.message, "6x6"));
    rules = support_rules(5);
    rules.half_komi = 3;
    assert_true(tak_tps_read("x5/x5/x5/x5/x5 1 1", &rules, &pos, &err));
    assert_int_equal(pos.rules.half_komi, 3);
    rules.stones = 0;
    assert_false(tak_tps_read("x5/x5/x5/x5/x5 1 1", &rules, &pos, &err));
}

typedef struct ErrorCase {
    const char *tps;
    int column;       /* where the error must point */
    const char *says; /* a phrase the message must contain */
} ErrorCase;

static void expect_errors(const ErrorCase *cases, size_t n) {
    for (size_t i = 0; i < n; i++) {
        TakPosition pos, before;
        memset(&pos, 0xA5, sizeof pos);
        before = pos;
        TakError err;
        if (tak_tps_read(cases[i].tps, NULL, &pos, &err)) fail_msg("accepted \"%s\"", cases[i].tps);
        if (memcmp(&pos, &before, sizeof pos) != 0)
            fail_msg("\"%s\": the output was changed on failure", cases[i].tps);
        if (err.column != cases[i].column || !strstr(err.message, cases[i].says))
            fail_msg("\"%s\": column %d \"%s\", want column %d and \"%s\"", cases[i].tps,
                     err.column, err.message, cases[i].column, cases[i].says);
        assert_int_equal(err.line, 0);
    }
}

static void test_row_errors(void **state) {
    (void)state;
    static const ErrorCase cases[] = {
        {"x5/x5/x5/x5/x4 1 1", 13, "rank 1 has 4 squares, not 5"},
        {"x5/x4/x5/x5/x5 1 1", 4, "rank 4 has 4 squares"},
        {"x5/x5/x5/x5/x6 1 1", 14, "more than 5 empty squares"},
        {"x5/x5/x5/x5/x3,1,1,1 1 1", 20, "rank 1 has more than 5 squares"},
        {"x5/x5/x5/x5/x4,x,x 1 1", 18, "rank 1 has more than 5 squares"},
        {"x5/x5//x5/x5 1 1", 7, "a square is missing"},
        {"x5/x5/x5/x5/x4, 1 1", 16, "a square is missing"},
        {"x5/x5/,x5/x5/x5 1 1", 7, "a square is missing"},
        {"x2/x2 1 1", 1, "2 rows"},
        {"x9/x9/x9/x9/x9/x9/x9/x9/x9 1 1", 1, "9 rows"},
        {"x0,x5/x5/x5/x5/x5 1 1", 2, "a run of 0"},
        {"", 1, "empty"},
        {"   ", 4, "empty"},
    };
    expect_errors(cases, sizeof cases / sizeof cases[0]);
}

static void test_character_errors(void **state) {
    (void)state;
    static const ErrorCase cases[] = {
        {"x5/x5/x5/x5/x4,3 1 1", 16, "'3' is not a square"},
        {"x5/x5/x5/x5/x4,13 1 1", 17, "'3' is not a colour"},
        {"x5/x5/x5/x5/x4,1s 1 1", 17, "capitals"},
        {"x5/x5/x5/x5/x4,X 1 1", 16, "'X' is not a square"},
        {"x5/x5/x5/x5/x4,1F 1 1", 17, "unexpected 'F'"},
        {"x5/x5/x5/x5/x4,S 1 1", 16, "must follow the colour"},
        {"x5/x5/x5/x5/x3;x2 1 1", 15, "unexpected ';' after an empty square"},
        {"x5/x5/x5/x5/x3,1;x 1 1", 17, "unexpected ';' in a stack"},
        {"x5/x5/x5/x5/x4,1\x01 1 1", 17, "byte 0x01"},
        {"x5/x5/x5/x5/x2a,x2 1 1", 15, "unexpected 'a' after an empty square"},
        {"x5/x5/x5/x5/x5/ 1 1", 1, "rank 6 has 5 squares, not 6"},
        {"x5/x5/x5/x5/x5\x7f 1 1", 15, "unexpected byte 0x7F"},
    };
    expect_errors(cases, sizeof cases / sizeof cases[0]);
}

static void test_top_only_errors(void **state) {
    (void)state;
    static const ErrorCase cases[] = {
        {"x5/x5/x5/x5/x4,1S2 1 3", 17, "a wall can only be the top piece"},
        {"x5/x5/x5/x5/x4,1C2 1 3", 17, "a capstone can only be the top piece"},
        {"x5/x5/x5/x5/x4,S12 1 3", 16, "must follow the colour"},
        {"x5/x5/x5/x5/x4,1SC 1 3", 18, "only one of wall and capstone"},
        {"x5/x5/x5/x5/x4,1CS 1 3", 18, "only one of wall and capstone"},
    };
    expect_errors(cases, sizeof cases / sizeof cases[0]);
}

static void test_reserve_errors(void **state) {
    (void)state;
    static const ErrorCase cases[] = {
        /* 22 White stones on 5x5 (21 each). */
        {"1111111111111111111111,x4/x5/x5/x5/x5 2 12", 1, "too many White stones: 22"},
        {"11111111111,2,11111111111,x2/x5/x5/x5/x5 2 12", 15, "too many White stones: 22"},
        /* The count is the whole board's, at the stack that went over. */
        {"1111111111111111111111,11111,x3/x5/x5/x5/x5 2 12", 1,
         "too many White stones: 27 on the board, but a reserve holds 21"},
        {"1111111111111111111111,1C,x3/x5/x5/x5/x5 2 12", 1, "too many White stones: 22 on"},
        {"2222222222222222222222,x4/x5/x5/x5/x5 2 12", 1, "too many Black stones"},
        /* A capstone is not a stone: 21 stones and the capstone fit. */
        {"1C,1C,x3/x5/x5/x5/x5 1 3", 5, "too many White capstones: 2"},
        {"2C,x,2C,x2/x5/x5/x5/x5 1 3", 7, "too many Black capstones: 2"},
        {"x3,1C/x4/x4/x4 1 3", 5, "too many White capstones: 1"},
        /* More than both reserves in one stack. */
        {"1212121212121212121212121212121212121212121212121212121212121212"
         "12121212121212121212121212121212121212121212121212121212121212121,x7/"
         "x8/x8/x8/x8/x8/x8/x8 1 70",
         129, "more pieces than both reserves"},
    };
    expect_errors(cases, sizeof cases / sizeof cases[0]);
    TakPosition pos;
    assert_true(tak_tps_read("111111111111111111111C,x4/x5/x5/x5/x5 2 12", NULL, &pos, NULL));
}

static void test_side_errors(void **state) {
    (void)state;
    static const ErrorCase cases[] = {
        {"x5/x5/x5/x5/x5 0 1", 16, "side to move must be 1 or 2, not '0'"},
        {"x5/x5/x5/x5/x5 3 1", 16, "not '3'"},
        {"x5/x5/x5/x5/x5 12 1", 16, "not '12'"},
        {"x5/x5/x5/x5/x5 w 1", 16, "not 'w'"},
        {"x5/x5/x5/x5/x5 -1 1", 16, "not '-1'"},
        {"x5/x5/x5/x5/x5", 15, "side to move is missing"},
        {"x5/x5/x5/x5/x5,1 1", 16, "rank 1 has more than 5"},
    };
    expect_errors(cases, sizeof cases / sizeof cases[0]);
}

static void test_move_number_errors(void **state) {
    (void)state;
    static const ErrorCase cases[] = {
        {"x5/x5/x5/x5/x5 1 0", 18, "at least 1, not 0"},
        {"x5/x5/x5/x5/x5 1 00", 18, "at least 1, not 0"},
        {"x5/x5/x5/x5/x5 1 -1", 18, "positive whole number"},
        {"x5/x5/x5/x5/x5 1 -0", 18, "positive whole number"},
        {"x5/x5/x5/x5/x5 1 +5", 18, "positive whole number"},
        {"x5/x5/x5/x5/x5 1 2147483648", 18, "2^31 or more"},
        {"x5/x5/x5/x5/x5 1 4294967297", 18, "2^31 or more"},
        {"x5/x5/x5/x5/x5 1 99999999999999999999999", 18, "2^31 or more"},
        {"x5/x5/x5/x5/x5 1 abc", 18, "not 'a'"},
        {"x5/x5/x5/x5/x5 1 1.5", 19, "whole number, not '.'"},
        {"x5/x5/x5/x5/x5 1 1e3", 19, "whole number, not 'e'"},
        {"x5/x5/x5/x5/x5 1 0x10", 19, "whole number, not 'x'"},
        {"x5/x5/x5/x5/x5 1", 17, "move number is missing"},
        {"x5/x5/x5/x5/x5 1 1 1", 20, "unexpected text after the move number"},
        {"x5/x5/x5/x5/x5 1 1 x", 20, "unexpected text after the move number"},
    };
    expect_errors(cases, sizeof cases / sizeof cases[0]);
    TakPosition pos;
    assert_true(tak_tps_read("x5/x5/x5/x5/x5 1 2147483647", NULL, &pos, NULL));
    assert_int_equal(tak_position_move_number(&pos), 2147483647L);
}

/* Errors are described with their column by tak_error_describe. */
static void test_error_described(void **state) {
    (void)state;
    TakPosition pos;
    TakError err;
    char buf[300];
    assert_false(tak_tps_read("x5/x5/x5/x5/x4,1S2 1 3", NULL, &pos, &err));
    assert_string_equal(tak_error_describe(&err, buf, sizeof buf),
                        "column 17: a wall can only be the top piece of a stack");
    assert_false(tak_tps_read(NULL, NULL, &pos, &err));
}

static void test_write_buffer(void **state) {
    (void)state;
    TakPosition pos = support_position(spec_example, NULL);
    size_t n = strlen(spec_example);
    char buf[TAK_TPS_MAX];
    assert_int_equal(tak_tps_write(&pos, buf, n + 1), (int)n);
    assert_string_equal(buf, spec_example);
    memset(buf, 'z', sizeof buf);
    assert_int_equal(tak_tps_write(&pos, buf, n), -1);
    assert_int_equal(buf[n - 1], '\0');
    assert_int_equal(tak_tps_write(&pos, buf, 0), -1);

    /* The longest positions fit TAK_TPS_MAX: every piece of 8x8 on the board,
     * one stack per square with walls on top. */
    char tps[TAK_TPS_MAX * 2];
    size_t k = 0;
    int placed = 0;
    for (int row = 0; row < 8; row++) {
        for (int file = 0; file < 8; file++) {
            int h = row * 8 + file < 36 ? 2 : 1;
            for (int i = 0; i < h; i++, placed++) tps[k++] = placed % 2 ? '2' : '1';
            tps[k++] = 'S';
            tps[k++] = file < 7 ? ',' : row < 7 ? '/' : ' ';
        }
    }
    strcpy(tps + k, "2 2000000000");
    expect_round_trip(tps, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_other_forms),
        cmocka_unit_test(test_stack_bits_and_types),
        cmocka_unit_test(test_reserves_derived),
        cmocka_unit_test(test_matches_played_position),
        cmocka_unit_test(test_result_computed),
        cmocka_unit_test(test_rules_argument),
        cmocka_unit_test(test_row_errors),
        cmocka_unit_test(test_character_errors),
        cmocka_unit_test(test_top_only_errors),
        cmocka_unit_test(test_reserve_errors),
        cmocka_unit_test(test_side_errors),
        cmocka_unit_test(test_move_number_errors),
        cmocka_unit_test(test_error_described),
        cmocka_unit_test(test_write_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
