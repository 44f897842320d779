/*
 * rating.c: Glicko-2, step by step as Glickman's paper numbers the steps,
 * on the Glicko-2 scale (mu, phi) and back. The new volatility is found by
 * the Illinois variant of regula falsi the paper gives (step 5.1-5.5).
 */
#include <math.h>

#include "tak/rating.h"

#define SCALE 173.7178 /* Glicko-2's scale: 400 / ln 10 */
#define CONVERGED 0.000001
#define PI 3.14159265358979323846

TakRating tak_rating_new(void) {
    return (TakRating){TAK_RATING_START, TAK_RATING_START_RD, TAK_RATING_START_VOLATILITY};
}

static double g_of(double phi) { return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI)); }

/* Step 5's function, whose root is the log of the new volatility squared. */
typedef struct VolatilityFn {
    double a, d2, p2, v, tau;
} VolatilityFn;

static double vol_f(const VolatilityFn *f, double x) {
    double ex = exp(x), den = f->p2 + f->v + ex;
    return ex * (f->d2 - f->p2 - f->v - ex) / (2.0 * den * den) - (x - f->a) / (f->tau * f->tau);
}

/* Step 5: the new volatility sigma', from the estimated improvement delta
 * and the variance v. */
static double new_volatility(double phi, double sigma, double delta, double v, double tau) {
    VolatilityFn f = {log(sigma * sigma), delta * delta, phi * phi, v, tau};
    double A = f.a, B;
    if (f.d2 > f.p2 + v) {
        B = log(f.d2 - f.p2 - v);
    } else {
        int k = 1;
        while (vol_f(&f, f.a - k * tau) < 0) k++;
        B = f.a - k * tau;
    }
    double fa = vol_f(&f, A), fb = vol_f(&f, B);
    while (fabs(B - A) > CONVERGED) {
        double C = A + (A - B) * fa / (fb - fa), fc = vol_f(&f, C);
        if (fc * fb <= 0) {
            A = B;
            fa = fb;
        } else {
            fa /= 2;
        }
        B = C;
        fb = fc;
    }
    return exp(A / 2);
}

TakRating tak_rating_update(TakRating player, const TakRatingGame *games, size_t count,
                            double tau) {
    double mu = (player.rating - 1500.0) / SCALE, phi = player.rd / SCALE;
    double sigma = player.volatility;
    TakRating out = player;
    if (count == 0) {
        /* Step 6 alone: a period without games only widens the deviation. */
        out.rd = fmin(sqrt(phi * phi + sigma * sigma) * SCALE, TAK_RATING_START_RD);
        return out;
    }
    /* Step 3 and 4: the variance of the estimate and the improvement. */
    double inv_v = 0, sum = 0;
    for (size_t i = 0; i < count; i++) {
        double mu_j = (games[i].opponent.rating - 1500.0) / SCALE;
        double g = g_of(games[i].opponent.rd / SCALE);
        double e = 1.0 / (1.0 + exp(-g * (mu - mu_j)));
        inv_v += g * g * e * (1 - e);
        sum += g * (games[i].score - e);
    }
    double v = 1.0 / inv_v, delta = v * sum;
    double sigma2 = new_volatility(phi, sigma, delta, v, tau);
    /* Steps 6 to 8. */
    double phi_star = sqrt(phi * phi + sigma2 * sigma2);
    double phi2 = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu2 = mu + phi2 * phi2 * sum;
    out.rating = mu2 * SCALE + 1500.0;
    out.rd = fmin(phi2 * SCALE, TAK_RATING_START_RD);
    out.volatility = sigma2;
    return out;
}

TakRating tak_rating_idle(TakRating player, double periods) {
    double phi = player.rd / SCALE, sigma = player.volatility;
    if (!(periods > 0)) return player;
    player.rd = fmin(sqrt(phi * phi + periods * sigma * sigma) * SCALE, TAK_RATING_START_RD);
    return player;
}
