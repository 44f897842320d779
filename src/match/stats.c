/*
 * stats.c: Elo, error margins, LOS and the SPRT of an engine match, from the
 * win/loss/draw counts alone. Kept apart from the match runner so the numbers
 * can be checked against known values (tests/test_match_stats.c).
 */
#define _POSIX_C_SOURCE 200809L

#include "tak/match_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The two-sided 95% quantile of the normal distribution. */
#define Z95 1.959963984540054

double tak_elo_from_score(double score) {
    if (score <= 0.0) return -INFINITY;
    if (score >= 1.0) return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

double tak_score_from_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

double tak_los(int wins, int losses) {
    if (wins + losses <= 0) return 0.5;
    return 0.5 * (1.0 + erf((double)(wins - losses) / sqrt(2.0 * (double)(wins + losses))));
}

/* Mean and per-game variance of the score (1, 0, 1/2 per game). */
static void moments(const TakMatchScore *sc, double *mean, double *var) {
    double n = (double)sc->wins + sc->losses + sc->draws;
    double s = (sc->wins + 0.5 * sc->draws) / n;
    double w = sc->wins / n, l = sc->losses / n, d = sc->draws / n;
    *mean = s;
    *var = w * (1 - s) * (1 - s) + l * s * s + d * (0.5 - s) * (0.5 - s);
}

bool tak_elo_estimate(const TakMatchScore *sc, TakEloEstimate *out) {
    int n = sc->wins + sc->losses + sc->draws;
    if (n <= 0 || sc->wins < 0 || sc->losses < 0 || sc->draws < 0) return false;
    double s, var;
    moments(sc, &s, &var);
    double se = sqrt(var / n);
    TakEloEstimate e;
    e.score = s;
    e.elo = tak_elo_from_score(s);
    double lo = s - Z95 * se, hi = s + Z95 * se;
    if (lo <= 0.0 || hi >= 1.0 || isinf(e.elo))
        e.margin = INFINITY;
    else
        e.margin = (tak_elo_from_score(hi) - tak_elo_from_score(lo)) / 2.0;
    e.los = tak_los(sc->wins, sc->losses);
    *out = e;
    return true;
}

bool tak_sprt_parse(const char *text, TakSprt *out, TakError *err) {
    TakSprt t = {.elo0 = 0, .elo1 = 0, .alpha = 0.05, .beta = 0.05};
    bool has0 = false, has1 = false;
    const char *p = text;
    while (p != NULL && *p != '\0') {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[64];
        if (len == 0 || len >= sizeof item) return tak_error_set(err, "bad SPRT item near '%s'", p);
        memcpy(item, p, len);
        item[len] = '\0';
        char *eq = strchr(item, '=');
        if (eq == NULL) return tak_error_set(err, "SPRT item '%s' has no '='", item);
        *eq = '\0';
        char *num_end;
        double v = strtod(eq + 1, &num_end);
        if (eq[1] == '\0' || *num_end != '\0' || !isfinite(v))
            return tak_error_set(err, "SPRT %s: '%s' is not a number", item, eq + 1);
        if (strcasecmp(item, "elo0") == 0) t.elo0 = v, has0 = true;
        else if (strcasecmp(item, "elo1") == 0) t.elo1 = v, has1 = true;
        else if (strcasecmp(item, "alpha") == 0) t.alpha = v;
        else if (strcasecmp(item, "beta") == 0) t.beta = v;
        else return tak_error_set(err, "unknown SPRT parameter '%s'", item);
        p = end ? end + 1 : NULL;
    }
    if (!has0 || !has1) return tak_error_set(err, "SPRT needs elo0 and elo1");
    if (!(t.elo0 < t.elo1)) return tak_error_set(err, "SPRT needs elo0 < elo1");
    if (!(t.alpha > 0 && t.alpha < 0.5 && t.beta > 0 && t.beta < 0.5))
        return tak_error_set(err, "SPRT alpha and beta must be between 0 and 0.5");
    *out = t;
    return true;
}

void tak_sprt_bounds(const TakSprt *sprt, double *lower, double *upper) {
    *lower = log(sprt->beta / (1.0 - sprt->alpha));
    *upper = log((1.0 - sprt->beta) / sprt->alpha);
}

double tak_sprt_llr(const TakSprt *sprt, const TakMatchScore *sc) {
    int n = sc->wins + sc->losses + sc->draws;
    if (n <= 0) return 0.0;
    double s, var;
    moments(sc, &s, &var);
    if (var <= 0.0) return 0.0;
    double s0 = tak_score_from_elo(sprt->elo0), s1 = tak_score_from_elo(sprt->elo1);
    return n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
}

TakSprtStatus tak_sprt_status(const TakSprt *sprt, const TakMatchScore *score, double *llr) {
    double lower, upper, v = tak_sprt_llr(sprt, score);
    tak_sprt_bounds(sprt, &lower, &upper);
    if (llr) *llr = v;
    if (v >= upper) return TAK_SPRT_ACCEPT_H1;
    if (v <= lower) return TAK_SPRT_ACCEPT_H0;
    return TAK_SPRT_CONTINUE;
}
