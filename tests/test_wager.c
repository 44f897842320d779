/*
 * test_wager.c: the University gambling rules (tak/wager.h): antes, bids,
 * calling Tak and who owes a penalty, the end reward, a drawn pot; and that
 * no coin is ever made or lost (balances plus pot sum to zero).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tak/wager.h"

static void assert_conserved(const TakWager *w) {
    assert_int_equal(w->balance[0] + w->balance[1] + w->pot, 0);
}

static void test_ante(void **state) {
    (void)state;
    TakWager w;
    tak_wager_init(&w);
    assert_int_equal(w.pot, 0);
    assert_int_equal(w.last_caller, -1);
    tak_wager_start_game(&w);
    assert_int_equal(w.pot, 2 * TAK_WAGER_ANTE);
    assert_int_equal(w.balance[0], -10);
    assert_int_equal(w.balance[1], -10);
    assert_conserved(&w);
}

static void test_high_bidder_moves_first_and_pays(void **state) {
    (void)state;
    TakWager w;
    tak_wager_init(&w);
    tak_wager_start_game(&w);
    int bids[2] = {3, 5};
    assert_int_equal(tak_wager_bid(&w, bids, 0), 1);
    assert_int_equal(w.first, 1);
    assert_int_equal(w.pot, 25);
    assert_int_equal(w.balance[0], -10); /* the second player pays nothing extra */
    assert_int_equal(w.balance[1], -15);
    assert_conserved(&w);
}

static void test_equal_bids_and_clamping(void **state) {
    (void)state;
    TakWager w;
    tak_wager_init(&w);
    tak_wager_start_game(&w);
    int tie[2] = {4, 4};
    assert_int_equal(tak_wager_bid(&w, tie, 0), 0);
    assert_int_equal(w.pot, 24);
    tak_wager_init(&w);
    tak_wager_start_game(&w);
    assert_int_equal(tak_wager_bid(&w, tie, 1), 1);
    assert_int_equal(w.balance[1], -14);
    tak_wager_init(&w);
    tak_wager_start_game(&w);
    int wild[2] = {-5, 1000};
    assert_int_equal(tak_wager_bid(&w, wild, 0), 1);
    assert_int_equal(w.bid[0], 0);
    assert_int_equal(w.bid[1], TAK_WAGER_MAX_BID);
    assert_conserved(&w);
}

/* White calls, Black pays; White calls again: free (nobody pays twice in a
 * row); Black calls: White pays; Black again: free; White calls: Black pays. */
static void test_nobody_pays_twice_in_a_row(void **state) {
    (void)state;
    TakWager w;
    tak_wager_init(&w);
    tak_wager_start_game(&w);
    assert_true(tak_wager_call_is_owed(&w, 0));
    assert_true(tak_wager_call_tak(&w, 0));
    tak_wager_pay_penalty(&w, 1);
    assert_int_equal(w.pot, 22);
    assert_false(tak_wager_call_is_owed(&w, 0));
    assert_false(tak_wager_call_tak(&w, 0));
    assert_int_equal(w.pot, 22);
    assert_true(tak_wager_call_tak(&w, 1));
    tak_wager_pay_penalty(&w, 0);
    assert_false(tak_wager_call_tak(&w, 1));
    assert_true(tak_wager_call_tak(&w, 0));
    tak_wager_pay_penalty(&w, 1);
    assert_int_equal(w.pot, 26);
    assert_int_equal(w.balance[0], -12);
    assert_int_equal(w.balance[1], -14);
    assert_conserved(&w);
}

static void test_winner_takes_pot_and_bonus(void **state) {
    (void)state;
    TakWager w;
    tak_wager_init(&w);
    tak_wager_start_game(&w);
    int bids[2] = {2, 0};
    tak_wager_bid(&w, bids, 0);
    tak_wager_call_tak(&w, 0);
    tak_wager_pay_penalty(&w, 1);
    /* Pot 20 + 2 + 2 = 24; player 0 wins with 5 unplayed pieces. */
    TakWagerSettlement s = tak_wager_finish(&w, 0, 5);
    assert_int_equal(s.winner, 0);
    assert_int_equal(s.pot, 24);
    assert_int_equal(s.bonus, 5);
    assert_int_equal(w.pot, 0);
    assert_int_equal(w.balance[0], -12 + 24 + 5);
    assert_int_equal(w.balance[1], -12 - 5);
    assert_int_equal(w.last_caller, -1);
    assert_conserved(&w);
}

static void test_draw_shares_the_pot(void **state) {
    (void)state;
    TakWager w;
    tak_wager_init(&w);
    tak_wager_start_game(&w);
    int bids[2] = {0, 3};
    tak_wager_bid(&w, bids, 0);
    TakWagerSettlement s = tak_wager_finish(&w, -1, 0);
    assert_int_equal(s.winner, -1);
    assert_int_equal(s.pot, 23);
    assert_int_equal(s.carried, 1);
    assert_int_equal(w.pot, 1);
    assert_int_equal(w.balance[0], 1);
    assert_int_equal(w.balance[1], -2);
    assert_conserved(&w);
    /* The odd coin stays in the next game's pot. */
    tak_wager_start_game(&w);
    assert_int_equal(w.pot, 21);
    assert_conserved(&w);
}

static void test_new_game_forgets_the_token(void **state) {
    (void)state;
    TakWager w;
    tak_wager_init(&w);
    tak_wager_start_game(&w);
    tak_wager_call_tak(&w, 1);
    tak_wager_pay_penalty(&w, 0);
    tak_wager_finish(&w, 1, 0);
    tak_wager_start_game(&w);
    assert_true(tak_wager_call_is_owed(&w, 1));
    assert_conserved(&w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ante),
        cmocka_unit_test(test_high_bidder_moves_first_and_pays),
        cmocka_unit_test(test_equal_bids_and_clamping),
        cmocka_unit_test(test_nobody_pays_twice_in_a_row),
        cmocka_unit_test(test_winner_takes_pot_and_bonus),
        cmocka_unit_test(test_draw_shares_the_pot),
        cmocka_unit_test(test_new_game_forgets_the_token),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
