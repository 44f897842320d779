/*
 * tune.c: the Texel-style tuner of the evaluation weights (src/engine/weights.c).
 *
 *   tune gen SIZE GAMES NODES SEED [HALF_KOMI] > data.txt
 *       self-play with the engine (a few random plies first, then NODES per
 *       move) and one line per sampled position: size, result for White
 *       (1, 0.5, 0) and the feature vector of engine_features;
 *   tune ptn FILE... > data.txt
 *       the same lines from recorded games in PTN (the shared real games);
 *   tune fit OUT.c DATA...
 *       for each size present, fits the weights minimising the mean squared
 *       error between sigmoid(eval / K) and the result (K fitted first), from
 *       the current weights, by Adam; writes a whole weights.c to OUT.c.
 *       Sizes without data keep their current weights.
 * See README.md for the recipe that made the committed weights.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/internal.h"
#include "tak/engine.h"
#include "tak/notation.h"
#include "tak/ptn.h"
#include "tak/tak.h"

static uint64_t rng_next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static void emit(const TakPosition *pos, double result) {
    if (pos->result.end != TAK_END_NONE || pos->ply < 6) return;
    BbMasks m = bb_masks(pos->rules.size);
    /* Positions with a road in one are the search's business, not the evaluation's. */
    if (engine_road_in_one(pos, pos->side, &m) != TAK_MOVE_NONE) return;
    int f[F_COUNT];
    engine_features(pos, &m, f);
    printf("%d %.1f", pos->rules.size, result);
    for (int i = 0; i < F_COUNT; i++) printf(" %d", f[i]);
    printf("\n");
}

static double white_result(TakResult r) {
    return r.winner == TAK_WHITE ? 1.0 : r.winner == TAK_BLACK ? 0.0 : 0.5;
}

static int cmd_gen(int argc, char **argv) {
    if (argc < 6) return 2;
    int size = atoi(argv[2]), games = atoi(argv[3]);
    uint64_t nodes = strtoull(argv[4], NULL, 10), rng = strtoull(argv[5], NULL, 10) * 2654435761u + 1;
    TakRules rules;
    TakError err;
    if (!tak_rules_standard(&rules, size, &err)) return 2;
    rules.half_komi = argc > 6 ? atoi(argv[6]) : 0;
    TakEngine *e = tak_engine_new(16, 1);
    static TakMoveList list;
    static TakPosition line[1024];
    for (int g = 0; g < games; g++) {
        tak_engine_new_game(e);
        TakPosition pos;
        tak_position_init(&pos, &rules, &err);
        uint64_t hashes[1024];
        int n = 0, random_plies = 2 + (int)(rng_next(&rng) % 5);
        while (!tak_position_is_over(&pos) && n < 1000) {
            line[n] = pos;
            hashes[n++] = pos.hash;
            TakMove m;
            if ((int)pos.ply < random_plies) {
                int c = tak_moves_generate(&pos, &list);
                m = list.moves[rng_next(&rng) % (uint64_t)c];
            } else {
                TakSearchLimits lim = {0};
                lim.nodes = nodes;
                m = tak_engine_search(e, &pos, hashes, (size_t)n - 1, &lim, NULL, NULL, NULL);
            }
            if (m == TAK_MOVE_NONE) break;
            TakUndo u;
            tak_position_make(&pos, m, &u);
            /* A long repetition is a draw (the rules' option, on for engine matches). */
            int seen = 0;
            for (int i = 0; i < n; i++) seen += hashes[i] == pos.hash;
            if (seen >= 2) {
                pos.result.end = TAK_END_REPETITION;
                pos.result.winner = -1;
            }
        }
        double r = white_result(pos.result);
        /* Sample about one position in three, to keep them less correlated. */
        for (int i = 0; i < n; i++)
            if (rng_next(&rng) % 3 == 0) emit(&line[i], r);
        fflush(stdout);
    }
    tak_engine_free(e);
    return 0;
}

static int cmd_ptn(int argc, char **argv) {
    for (int a = 2; a < argc; a++) {
        FILE *f = fopen(argv[a], "rb");
        if (!f) continue;
        static char buf[1 << 20];
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        TakPtn ptn;
        TakError err;
        if (!tak_ptn_read(buf, len, &ptn, &err)) {
            tak_ptn_free(&ptn);
            continue;
        }
        TakResult r = tak_game_result(&ptn.game);
        const char *tag = tak_ptn_tag(&ptn, "Result");
        if (r.end == TAK_END_NONE && tag) { /* resignation, time: trust the tag */
            if (tag[0] == '0' && tag[1] == '-') r.winner = TAK_BLACK, r.end = TAK_END_RESIGNATION;
            else if (tag[0] != '0' && tag[1] == '-') r.winner = TAK_WHITE, r.end = TAK_END_RESIGNATION;
        }
        if (r.end != TAK_END_NONE) {
            TakPosition pos = ptn.game.start;
            for (size_t i = 0; i < ptn.game.count; i++) {
                emit(&pos, white_result(r));
                TakUndo u;
                tak_position_make(&pos, ptn.game.moves[i], &u);
            }
        }
        tak_ptn_free(&ptn);
    }
    return 0;
}

/* ---- fitting ------------------------------------------------------------ */

typedef struct Sample {
    float result;
    int16_t f[F_COUNT];
} Sample;

typedef struct Data {
    Sample *s;
    size_t n, cap;
} Data;

static double predict(const double *w, const Sample *s, double k) {
    double e = 0;
    for (int i = 0; i < F_COUNT; i++) e += w[i] * s->f[i];
    e /= EVAL_SCALE;
    return 1.0 / (1.0 + exp(-e / k));
}

static double error(const double *w, const Data *d, double k) {
    double sum = 0;
    for (size_t i = 0; i < d->n; i++) {
        double p = predict(w, &d->s[i], k) - d->s[i].result;
        sum += p * p;
    }
    return d->n ? sum / d->n : 0;
}

static void fit(double *w, const Data *d, int size) {
    /* K: the scale that best fits the current weights (in hundredths of a flat). */
    double k = 100, best = error(w, d, k);
    for (double c = 20; c <= 1000; c *= 1.1) {
        double e = error(w, d, c);
        if (e < best) best = e, k = c;
    }
    fprintf(stderr, "size %d: %zu positions, K %.0f, error %.5f\n", size, d->n, k, best);
    double m[F_COUNT] = {0}, v[F_COUNT] = {0}, g[F_COUNT];
    const double lr = 8.0, b1 = 0.9, b2 = 0.999;
    for (int it = 1; it <= 600; it++) {
        memset(g, 0, sizeof g);
        for (size_t i = 0; i < d->n; i++) {
            const Sample *s = &d->s[i];
            double p = predict(w, s, k);
            double grad = (p - s->result) * p * (1 - p) / (k * EVAL_SCALE);
            for (int j = 0; j < F_COUNT; j++) g[j] += grad * s->f[j];
        }
        for (int j = 0; j < F_COUNT; j++) {
            g[j] = 2 * g[j] / d->n;
            m[j] = b1 * m[j] + (1 - b1) * g[j];
            v[j] = b2 * v[j] + (1 - b2) * g[j] * g[j];
            double mh = m[j] / (1 - pow(b1, it)), vh = v[j] / (1 - pow(b2, it));
            w[j] -= lr * mh / (sqrt(vh) + 1e-12);
            if (w[j] > 30000) w[j] = 30000;
            if (w[j] < -30000) w[j] = -30000;
        }
        if (it % 100 == 0) fprintf(stderr, "  iteration %d: error %.5f\n", it, error(w, d, k));
    }
}

static int cmd_fit(int argc, char **argv) {
    if (argc < 4) return 2;
    Data data[TAK_MAX_SIZE + 1] = {{0}};
    for (int a = 3; a < argc; a++) {
        FILE *f = fopen(argv[a], "r");
        if (!f) {
            fprintf(stderr, "cannot read %s\n", argv[a]);
            return 1;
        }
        int size;
        float result;
        while (fscanf(f, "%d %f", &size, &result) == 2) {
            Sample s;
            s.result = result;
            bool ok = size >= TAK_MIN_SIZE && size <= TAK_MAX_SIZE;
            for (int i = 0; i < F_COUNT; i++) {
                int x;
                if (fscanf(f, "%d", &x) != 1) ok = false;
                s.f[i] = (int16_t)x;
            }
            if (!ok) break;
            Data *d = &data[size];
            if (d->n == d->cap) {
                d->cap = d->cap ? 2 * d->cap : 4096;
                d->s = realloc(d->s, d->cap * sizeof *d->s);
                if (!d->s) return 1;
            }
            d->s[d->n++] = s;
        }
        fclose(f);
    }
    double w[TAK_MAX_SIZE + 1][F_COUNT];
    for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++) {
        for (int i = 0; i < F_COUNT; i++) w[size][i] = engine_weights[size].w[i];
        if (data[size].n >= 500) fit(w[size], &data[size], size);
        free(data[size].s);
    }
    FILE *out = fopen(argv[2], "w");
    if (!out) return 1;
    fprintf(out, "/*\n * weights.c: the evaluation weights by board size, in 1/16 of a hundredth\n"
                 " * of a flat per feature unit (see the feature list in internal.h). This file\n"
                 " * is data: tools/tune rewrites it (see tools/tune/README.md).\n */\n"
                 "#include \"internal.h\"\n\nconst char *const engine_feature_names[F_COUNT] = {\n");
    for (int i = 0; i < F_COUNT; i++) fprintf(out, "    \"%s\",\n", engine_feature_names[i]);
    fprintf(out, "};\n\nconst EvalWeights engine_weights[TAK_MAX_SIZE + 1] = {\n");
    for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++) {
        fprintf(out, "    [%d] = {{\n", size);
        for (int i = 0; i < F_COUNT; i++)
            fprintf(out, "        %ld, /* %s */\n", lround(w[size][i]), engine_feature_names[i]);
        fprintf(out, "    }},\n");
    }
    fprintf(out, "};\n");
    fclose(out);
    return 0;
}

int main(int argc, char **argv) {
    int rc = 2;
    if (argc >= 2 && strcmp(argv[1], "gen") == 0) rc = cmd_gen(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "ptn") == 0) rc = cmd_ptn(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "fit") == 0) rc = cmd_fit(argc, argv);
    if (rc == 2)
        fprintf(stderr, "usage: tune gen SIZE GAMES NODES SEED [HALF_KOMI]\n"
                        "       tune ptn FILE...\n"
                        "       tune fit OUT.c DATA...\n");
    return rc;
}
