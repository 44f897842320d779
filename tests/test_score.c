/*
 * test_score.c: the rule book's multi-game scoring (tak/score.h): points for
 * a road, a flat win, a resignation and a draw; who goes first in each game;
 * the running totals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/support.h"
#include "tak/score.h"

static void test_road_win_scores_board_plus_reserve(void **state) {
    (void)state;
    /* 3x3: White has a road a1-a2-a3 and 10 - 3 = 7 stones left. */
    TakPosition pos = support_position("1,x,2/1,x,x/1,x,x 2 3", NULL);
    TakResult r = tak_position_result(&pos);
    assert_int_equal(r.end, TAK_END_ROAD);
    assert_int_equal(r.winner, TAK_WHITE);
    assert_int_equal(pos.stones[TAK_WHITE], 7);
    assert_int_equal(tak_score_points(&pos, r), 9 + 7);
}

static void test_capstones_count_and_draws_score_nothing(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/x5/x5/x5/x5 1 1", NULL);
    TakResult resign = {TAK_END_RESIGNATION, TAK_BLACK};
    assert_int_equal(tak_score_points(&pos, resign), 25 + 21 + 1);
    TakResult draw = {TAK_END_AGREEMENT, -1};
    assert_int_equal(tak_score_points(&pos, draw), 0);
    TakResult none = {TAK_END_NONE, -1};
    assert_int_equal(tak_score_points(&pos, none), 0);
}

static void test_first_player_alternates(void **state) {
    (void)state;
    TakMatchScore s;
    tak_score_init(&s, 1);
    assert_int_equal(tak_score_first_player(&s, 1), 1);
    assert_int_equal(tak_score_first_player(&s, 2), 0);
    assert_int_equal(tak_score_first_player(&s, 3), 1);
    tak_score_init(&s, 0);
    assert_int_equal(tak_score_first_player(&s, 1), 0);
    assert_int_equal(tak_score_first_player(&s, 4), 1);
}

static void test_totals(void **state) {
    (void)state;
    TakMatchScore s;
    tak_score_init(&s, 0);
    assert_int_equal(tak_score_leader(&s), -1);
    tak_score_record(&s, 0, 29);
    tak_score_record(&s, -1, 0);
    tak_score_record(&s, 1, 31);
    assert_int_equal(s.games, 3);
    assert_int_equal(s.points[0], 29);
    assert_int_equal(s.points[1], 31);
    assert_int_equal(s.wins[0], 1);
    assert_int_equal(s.wins[1], 1);
    assert_int_equal(s.draws, 1);
    assert_int_equal(tak_score_leader(&s), 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_road_win_scores_board_plus_reserve),
        cmocka_unit_test(test_capstones_count_and_draws_score_nothing),
        cmocka_unit_test(test_first_player_alternates),
        cmocka_unit_test(test_totals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
