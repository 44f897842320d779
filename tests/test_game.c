/*
 * test_game.c: TakGame, the game with a history: what it records as moves are
 * played, takebacks, counting occurrences, endings off the board, and the
 * result in words. The rules these serve (repetition, result codes) are
 * tested in test_rules.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "support/support.h"

static const char *after_opening = "x4,2/x5/x5/x5/1,x4 1 2";

static void play(TakGame *game, const char *text) {
    TakMove m = support_move(&game->current, text);
    TakError err;
    if (!tak_game_play(game, m, &err)) fail_msg("tak_game_play(%s) refused: %s", text, err.message);
}

static void test_init_copies_the_start(void **state) {
    (void)state;
    TakPosition start = support_position(after_opening, NULL);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    assert_int_equal(game.count, 0);
    assert_true(tak_position_equal(&game.start, &start));
    assert_true(tak_position_equal(&game.current, &start));
    assert_int_equal(game.hashes[0], start.hash);
    assert_int_equal(tak_game_result(&game).end, TAK_END_NONE);
    assert_int_equal(tak_game_result(&game).winner, -1);
    assert_int_equal(tak_game_occurrences(&game), 1);
    /* A copy: changing the caller's position changes nothing in the game. */
    TakPosition saved = start;
    support_play(&start, "c3");
    assert_true(tak_position_equal(&game.start, &saved));
    assert_true(tak_position_equal(&game.current, &saved));
    tak_game_free(&game);
}

static void test_play_records_moves_and_hashes(void **state) {
    (void)state;
    TakPosition start = support_position(after_opening, NULL);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    static const char *plies[] = {"c3", "d3", "Cc4", "Sd4", "c3>", "e5-"};
    TakPosition pos = start;
    for (size_t i = 0; i < sizeof plies / sizeof plies[0]; i++) {
        TakMove m = support_move(&pos, plies[i]);
        assert_int_equal(game.hashes[i], pos.hash);
        play(&game, plies[i]);
        support_play(&pos, plies[i]);
        assert_int_equal(game.count, i + 1);
        assert_int_equal(game.moves[i], m);
        assert_int_equal(game.hashes[i + 1], pos.hash);
        assert_true(tak_position_equal(&game.current, &pos));
    }
    assert_true(tak_position_equal(&game.start, &start));
    tak_game_free(&game);
}

static void test_illegal_move_changes_nothing(void **state) {
    (void)state;
    TakPosition start = support_position(after_opening, NULL);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    play(&game, "c3");
    TakPosition before = game.current;
    static const char *illegal[] = {"c3", "e5+", "2e5<", "c3+", "a1+", "Sa1"};
    for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++) {
        TakError err;
        err.message[0] = '\0';
        TakMove m = support_move_code(illegal[i], 5);
        if (tak_game_play(&game, m, &err)) fail_msg("tak_game_play accepted %s", illegal[i]);
        assert_true(err.message[0] != '\0');
        assert_int_equal(game.count, 1);
        assert_memory_equal(&game.current, &before, sizeof before);
    }
    TakError err;
    assert_false(tak_game_play(&game, TAK_MOVE_NONE, &err));
    assert_int_equal(game.count, 1);
    tak_game_free(&game);
}

static void test_long_game_grows_history(void **state) {
    (void)state;
    /* 1000 plies of shuffling back and forth (repetition off by default). */
    TakPosition start = support_position(after_opening, NULL);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    static const char *shuffle[] = {"a1>", "e5<", "b1<", "d5>"};
    for (int i = 0; i < 1000; i++) play(&game, shuffle[i % 4]);
    assert_int_equal(game.count, 1000);
    assert_true(game.capacity >= 1000);
    assert_int_equal(tak_game_occurrences(&game), 251);
    assert_int_equal(game.hashes[1000], start.hash);
    assert_int_equal(game.hashes[0], start.hash);
    assert_int_equal(game.moves[999], support_move_code("d5>", 5));
    assert_int_equal(tak_position_move_number(&game.current), 502);
    tak_game_free(&game);
}

static void test_undo_takes_back_one_ply(void **state) {
    (void)state;
    TakPosition start = support_position(after_opening, NULL);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    assert_false(tak_game_undo(&game));
    static const char *plies[] = {"c3", "Sc2", "Cb3", "d3", "b3>", "c2<"};
    TakPosition seen[7];
    seen[0] = game.current;
    for (int i = 0; i < 6; i++) {
        play(&game, plies[i]);
        seen[i + 1] = game.current;
    }
    for (int i = 6; i > 0; i--) {
        assert_true(tak_game_undo(&game));
        assert_int_equal(game.count, (size_t)(i - 1));
        assert_true(tak_position_equal(&game.current, &seen[i - 1]));
        assert_int_equal(game.current.hash, seen[i - 1].hash);
        assert_int_equal(game.current.hash, game.hashes[i - 1]);
        assert_int_equal(game.current.result.end, seen[i - 1].result.end);
    }
    assert_false(tak_game_undo(&game));
    /* Play on after the takebacks: a different line. */
    play(&game, "e4");
    assert_int_equal(game.count, 1);
    assert_int_equal(game.hashes[1], game.current.hash);
    tak_game_free(&game);
}

static void test_undo_after_a_road(void **state) {
    (void)state;
    TakPosition start = support_position("x5/x5/1,1,x,1,1/x5/2,2,x3 1 6", NULL);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    play(&game, "c3");
    TakResult r = tak_game_result(&game);
    assert_int_equal(r.end, TAK_END_ROAD);
    assert_int_equal(r.winner, TAK_WHITE);
    TakError err;
    assert_false(tak_game_play(&game, support_move_code("d1", 5), &err));
    assert_false(tak_game_end(&game, TAK_END_RESIGNATION, TAK_BLACK));
    assert_int_equal(tak_game_result(&game).end, TAK_END_ROAD);
    assert_true(tak_game_undo(&game));
    assert_int_equal(tak_game_result(&game).end, TAK_END_NONE);
    play(&game, "Sc3");
    assert_int_equal(tak_game_result(&game).end, TAK_END_NONE);
    tak_game_free(&game);
}

static void test_game_from_a_finished_position(void **state) {
    (void)state;
    TakPosition start = support_position("1,2,1/2,1,2/1,2,1 2 5", NULL);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    TakResult r = tak_game_result(&game);
    assert_int_equal(r.end, TAK_END_BOARD_FULL);
    assert_int_equal(r.winner, TAK_WHITE);
    assert_false(tak_game_end(&game, TAK_END_AGREEMENT, -1));
    assert_false(tak_game_undo(&game));
    tak_game_free(&game);
}

static void test_resign_before_any_move(void **state) {
    (void)state;
    TakRules r = support_rules(6);
    TakPosition start;
    assert_true(tak_position_init(&start, &r, NULL));
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    assert_true(tak_game_end(&game, TAK_END_RESIGNATION, TAK_BLACK));
    assert_string_equal(tak_result_code(tak_game_result(&game)), "0-1");
    TakError err;
    assert_false(tak_game_play(&game, tak_move_place(0, TAK_PLACE_FLAT), &err));
    assert_false(tak_game_end(&game, TAK_END_TIME, TAK_WHITE));
    assert_int_equal(tak_game_result(&game).end, TAK_END_RESIGNATION);
    tak_game_free(&game);
}

static void test_time_and_agreement(void **state) {
    (void)state;
    TakPosition start = support_position(after_opening, NULL);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    play(&game, "c3");
    assert_true(tak_game_end(&game, TAK_END_TIME, TAK_BLACK));
    TakResult r = tak_game_result(&game);
    assert_int_equal(r.end, TAK_END_TIME);
    assert_int_equal(r.winner, TAK_BLACK);
    assert_string_equal(tak_result_code(r), "0-1");
    assert_true(tak_game_undo(&game)); /* takes back c3 and the ending */
    assert_int_equal(game.count, 0);
    assert_int_equal(tak_game_result(&game).end, TAK_END_NONE);
    assert_true(tak_game_end(&game, TAK_END_AGREEMENT, -1));
    r = tak_game_result(&game);
    assert_int_equal(r.end, TAK_END_AGREEMENT);
    assert_int_equal(r.winner, -1);
    assert_string_equal(tak_result_code(r), "1/2-1/2");
    tak_game_free(&game);
}

static void test_occurrences_count_side_to_move(void **state) {
    (void)state;
    TakPosition start = support_position(after_opening, NULL);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    /* Each side moves a stone out and back: only after the fourth ply is the
     * start position back, and then it counts twice. */
    play(&game, "a1+");
    play(&game, "e5-");
    play(&game, "a2-");
    assert_int_equal(tak_game_occurrences(&game), 1);
    play(&game, "e4+");
    assert_int_equal(tak_game_occurrences(&game), 2);
    tak_game_free(&game);
}

static void test_repetition_rule_in_a_game_from_tps(void **state) {
    (void)state;
    /* Black to move at the start; the third occurrence of it ends the game. */
    TakRules r = support_rules(4);
    r.repetition_draw = true;
    TakPosition start = support_position("x3,1/x4/x4/2,x3 2 3", &r);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    static const char *cycle[] = {"a1+", "d4-", "a2-", "d3+"};
    for (int i = 0; i < 7; i++) play(&game, cycle[i % 4]);
    assert_int_equal(tak_game_result(&game).end, TAK_END_NONE);
    play(&game, cycle[3]);
    assert_int_equal(tak_game_occurrences(&game), 3);
    assert_int_equal(tak_game_result(&game).end, TAK_END_REPETITION);
    assert_false(tak_position_is_over(&game.current)); /* the board knows nothing of it */
    tak_game_free(&game);
}

static void test_result_describe(void **state) {
    (void)state;
    static const struct {
        TakResult r;
        const char *contains;
    } cases[] = {
        {{TAK_END_ROAD, TAK_WHITE}, "White"},        {{TAK_END_ROAD, TAK_BLACK}, "Black"},
        {{TAK_END_BOARD_FULL, TAK_BLACK}, "Black"},  {{TAK_END_RESERVES, TAK_WHITE}, "White"},
        {{TAK_END_RESIGNATION, TAK_BLACK}, "Black"}, {{TAK_END_TIME, TAK_WHITE}, "White"},
        {{TAK_END_REPETITION, -1}, "epetition"},     {{TAK_END_AGREEMENT, -1}, "greement"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[128];
        const char *text = tak_result_describe(cases[i].r, buf, sizeof buf);
        assert_ptr_equal(text, buf);
        if (strstr(text, cases[i].contains) == NULL)
            fail_msg("\"%s\" does not say \"%s\"", text, cases[i].contains);
    }
    /* A small buffer is filled and terminated, never overrun. */
    char small[8];
    memset(small, 'z', sizeof small);
    tak_result_describe((TakResult){TAK_END_ROAD, TAK_WHITE}, small, 6);
    assert_true(strlen(small) <= 5);
    assert_int_equal(small[6], 'z');
    assert_int_equal(small[7], 'z');
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_copies_the_start),
        cmocka_unit_test(test_play_records_moves_and_hashes),
        cmocka_unit_test(test_illegal_move_changes_nothing),
        cmocka_unit_test(test_long_game_grows_history),
        cmocka_unit_test(test_undo_takes_back_one_ply),
        cmocka_unit_test(test_undo_after_a_road),
        cmocka_unit_test(test_game_from_a_finished_position),
        cmocka_unit_test(test_resign_before_any_move),
        cmocka_unit_test(test_time_and_agreement),
        cmocka_unit_test(test_occurrences_count_side_to_move),
        cmocka_unit_test(test_repetition_rule_in_a_game_from_tps),
        cmocka_unit_test(test_result_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
