/*
 * test_match_stats.c: the match statistics against values worked out by hand
 * (and with an independent script): Elo of a score, the 95% margin, LOS, the
 * SPRT's bounds, LLR and decisions, and reading an --sprt argument.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tak/match_stats.h"

static void assert_near(double got, double want, double tolerance) {
    if (fabs(got - want) > tolerance)
        fail_msg("got %.9f, want %.9f (+- %g)", got, want, tolerance);
}

static void elo_of_known_scores(void **state) {
    (void)state;
    assert_near(tak_elo_from_score(0.5), 0.0, 1e-12);
    /* 3:1 odds: 400 * log10(3). */
    assert_near(tak_elo_from_score(0.75), 190.848501887865, 1e-9);
    assert_near(tak_elo_from_score(0.25), -190.848501887865, 1e-9);
    /* 10:1 odds is 400 Elo by definition. */
    assert_near(tak_elo_from_score(10.0 / 11.0), 400.0, 1e-9);
    assert_near(tak_score_from_elo(400.0), 10.0 / 11.0, 1e-12);
    assert_true(isinf(tak_elo_from_score(1.0)) && tak_elo_from_score(1.0) > 0);
    assert_true(isinf(tak_elo_from_score(0.0)) && tak_elo_from_score(0.0) < 0);
}

static void estimate_with_margin(void **state) {
    (void)state;
    TakEloEstimate e;
    /* 60-40-0: s = 0.6, per-game variance 0.24, standard error 0.04899;
     * the interval [0.50398, 0.69602] in Elo is [2.77, 143.91]. */
    TakMatchScore a = {60, 40, 0};
    assert_true(tak_elo_estimate(&a, &e));
    assert_near(e.score, 0.6, 1e-12);
    assert_near(e.elo, 70.43650362227247, 1e-9);
    assert_near(e.margin, 70.57117989417667, 1e-6);
    /* LOS = Phi(20 / sqrt(100)) = Phi(2). */
    assert_near(e.los, 0.9772498680518208, 1e-9);

    TakMatchScore b = {30, 20, 50};
    assert_true(tak_elo_estimate(&b, &e));
    assert_near(e.elo, 34.86007028756008, 1e-9);
    assert_near(e.margin, 48.470228059870166, 1e-6);
    assert_near(e.los, 0.9213503964748575, 1e-9);

    /* Even scores: no difference, LOS one half. */
    TakMatchScore c = {10, 10, 5};
    assert_true(tak_elo_estimate(&c, &e));
    assert_near(e.elo, 0.0, 1e-12);
    assert_near(e.los, 0.5, 1e-12);

    /* All won: infinite Elo, unknown margin. */
    TakMatchScore d = {4, 0, 0};
    assert_true(tak_elo_estimate(&d, &e));
    assert_true(isinf(e.elo) && isinf(e.margin));

    TakMatchScore none = {0, 0, 0};
    assert_false(tak_elo_estimate(&none, &e));
    assert_near(tak_los(0, 0), 0.5, 0);
}

static void sprt_bounds_and_llr(void **state) {
    (void)state;
    TakSprt t = {.elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05};
    double lo, hi;
    tak_sprt_bounds(&t, &lo, &hi);
    /* ln(0.05 / 0.95) and its negative. */
    assert_near(lo, -2.9444389791664403, 1e-12);
    assert_near(hi, 2.9444389791664403, 1e-12);

    /* 100-80-20: N = 200, s = 0.55, var = 0.2225, s0 = 0.5, s1 = 0.5143871:
     * 200 * 0.0143871 * (1.1 - 1.0143871) / 0.445 = 0.55359. */
    TakMatchScore a = {100, 80, 20};
    assert_near(tak_sprt_llr(&t, &a), 0.5535853251116892, 1e-9);
    TakMatchScore b = {80, 100, 20};
    assert_near(tak_sprt_llr(&t, &b), -0.7396447122814539, 1e-9);
    double llr;
    assert_int_equal(tak_sprt_status(&t, &a, &llr), TAK_SPRT_CONTINUE);
    assert_near(llr, 0.5535853251116892, 1e-9);

    TakMatchScore c = {1000, 800, 1200};
    assert_near(tak_sprt_llr(&t, &c), 7.577676364435016, 1e-9);
    assert_int_equal(tak_sprt_status(&t, &c, NULL), TAK_SPRT_ACCEPT_H1);
    TakMatchScore d = {800, 1000, 1200};
    assert_int_equal(tak_sprt_status(&t, &d, NULL), TAK_SPRT_ACCEPT_H0);

    /* No information yet. */
    TakMatchScore draws = {0, 0, 7};
    assert_near(tak_sprt_llr(&t, &draws), 0.0, 0);
}

static void sprt_arguments(void **state) {
    (void)state;
    TakSprt t;
    TakError err;
    assert_true(tak_sprt_parse("elo0=0,elo1=10,alpha=0.05,beta=0.1", &t, &err));
    assert_near(t.elo0, 0, 0);
    assert_near(t.elo1, 10, 0);
    assert_near(t.alpha, 0.05, 0);
    assert_near(t.beta, 0.1, 0);
    assert_true(tak_sprt_parse("ELO1=5,elo0=-5", &t, &err));
    assert_near(t.alpha, 0.05, 0);
    assert_false(tak_sprt_parse("elo0=10,elo1=0", &t, &err));
    assert_false(tak_sprt_parse("elo0=0", &t, &err));
    assert_false(tak_sprt_parse("elo0=0,elo1=x", &t, &err));
    assert_false(tak_sprt_parse("elo0=0,elo1=5,gamma=1", &t, &err));
    assert_false(tak_sprt_parse("elo0=0,,elo1=5", &t, &err));
    assert_false(tak_sprt_parse("elo0=0,elo1=5,alpha=0.7", &t, &err));
    assert_false(tak_sprt_parse("", &t, &err));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elo_of_known_scores),
        cmocka_unit_test(estimate_with_margin),
        cmocka_unit_test(sprt_bounds_and_llr),
        cmocka_unit_test(sprt_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
