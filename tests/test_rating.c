/*
 * test_rating.c: Glicko-2 (tak/rating.h) against the worked example of
 * Glickman's paper, and the properties the server leans on: a win raises,
 * a loss lowers, a draw between equals changes nothing but the deviation,
 * and a period without games only widens the deviation (capped at 350).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tak/rating.h"

/* "Example of the Glicko-2 system", section "Example calculation". */
static void test_glickman_example(void **state) {
    (void)state;
    TakRating p = {1500, 200, 0.06};
    TakRatingGame games[3] = {
        {{1400, 30, 0.06}, 1},
        {{1550, 100, 0.06}, 0},
        {{1700, 300, 0.06}, 0},
    };
    TakRating q = tak_rating_update(p, games, 3, 0.5);
    assert_float_equal(q.rating, 1464.06, 0.01);
    assert_float_equal(q.rd, 151.52, 0.01);
    assert_float_equal(q.volatility, 0.05999, 0.00001);
}

static void test_win_loss_draw(void **state) {
    (void)state;
    TakRating a = tak_rating_new(), b = tak_rating_new();
    TakRatingGame win = {b, 1}, loss = {b, 0}, draw = {b, 0.5};
    TakRating w = tak_rating_update(a, &win, 1, TAK_RATING_TAU);
    TakRating l = tak_rating_update(a, &loss, 1, TAK_RATING_TAU);
    TakRating d = tak_rating_update(a, &draw, 1, TAK_RATING_TAU);
    assert_true(w.rating > 1500 && l.rating < 1500);
    assert_float_equal(w.rating - 1500, 1500 - l.rating, 1e-9); /* symmetric between equals */
    assert_float_equal(d.rating, 1500, 1e-9);
    assert_true(w.rd < 350 && d.rd < 350);
}

static void test_idle_period_widens_to_the_cap(void **state) {
    (void)state;
    TakRating p = {1700, 50, 0.06};
    TakRating q = tak_rating_update(p, NULL, 0, TAK_RATING_TAU);
    assert_float_equal(q.rating, 1700, 0);
    assert_float_equal(q.rd, 51.07, 0.01); /* sqrt(50^2 + (0.06 * 173.7178)^2) */
    TakRating fresh = tak_rating_update(tak_rating_new(), NULL, 0, TAK_RATING_TAU);
    assert_float_equal(fresh.rd, 350, 0);
}

static void test_idle_periods(void **state) {
    (void)state;
    TakRating p = {1700, 50, 0.06};
    assert_float_equal(tak_rating_idle(p, 0).rd, 50, 0);
    assert_float_equal(tak_rating_idle(p, 1).rd, tak_rating_update(p, NULL, 0, TAK_RATING_TAU).rd,
                       1e-9);
    assert_float_equal(tak_rating_idle(p, 30).rd, 75.8, 0.1); /* a month of days */
    assert_float_equal(tak_rating_idle(p, 1e6).rd, 350, 0);
    assert_float_equal(tak_rating_idle(p, 30).rating, 1700, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glickman_example),
        cmocka_unit_test(test_win_loss_draw),
        cmocka_unit_test(test_idle_period_widens_to_the_cap),
        cmocka_unit_test(test_idle_periods),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
