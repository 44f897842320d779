/*
 * tune.c: the tuner of the evaluation weights (src/engine/weights.c).
 *
 *   tune gen SIZE GAMES NODES SEED [HALF_KOMI] [--book FILE] [--scores]
 *            [--heldout FILE] > data.txt
 *       self-play with the engine (a few random plies first, then NODES per
 *       move) and one line per sampled position: size, half komi, result
 *       for White (1, 0.5, 0) and the position as TPS, each game's lines
 *       after a "# opening" line with the keys of its first positions (see
 *       the held-out openings below); a game that passes through an opening
 *       of the --heldout FILE is dropped whole; with --book, each
 *       game starts from a random line of FILE (one TPS a line, of SIZE)
 *       instead, with no random plies: positions from other games (ours
 *       against other engines, say) played on by the engine against itself;
 *       with --scores, each searched position's line carries the score of
 *       the search that chose its move ("@-35", as tune score writes), so
 *       one pass makes labelled data;
 *   tune ptn FILE... > data.txt
 *       the same lines from recorded games in PTN;
 *   tune heldout SIZE HELDOUT... -- DATA...
 *       checks that no game of the DATA passed through an opening of the
 *       held-out sets of SIZE (nor any of its images under the board's symmetries),
 *       and that every file records its games' openings; exits 1 if not;
 *   tune score NODES [--sizes 56] DATA... > scored.txt
 *       searches every position NODES nodes and writes its line again with
 *       the search's score for White after the result ("@-35");
 *   tune fit OUT.c [--k K] [--iterations N] [--sizes 3456] [--lambda L]
 *            [--heldout FILE]... DATA...
 *       for each size present, computes the features of every position and
 *       fits the weights (an opening and an end weight a feature) by
 *       logistic regression, from the current weights, by Adam; the target
 *       is the game's result, or on scored lines L * result + (1 - L) *
 *       sigmoid(score) (L 0.5 by default): the search's verdict on that very
 *       position is far less noisy than the result of a whole game; writes a
 *       whole weights.c to OUT.c. Sizes without data keep their current
 *       weights. With --heldout FILE (up to MAX_HELDOUT_FILES of them, and
 *       --sizes of one size), every game of DATA that passed through an
 *       opening of a FILE is left out whole, as with tune net, so a fit can
 *       use data made before a held-out set was (data made without opening
 *       records is then refused).
 *   tune policy OUT.c SIZE [--epochs N] [--lr R] [--l2 L] [--heldout FILE]...
 *            DATA...
 *       the move policy of SIZE (src/engine/policy.c): every line of DATA
 *       one ply after the line before it (tune gen samples one position in
 *       two, so about half of them) gives the move played between them,
 *       which the searches of the game chose; a softmax over each
 *       position's legal moves, linear in their features, is fitted to
 *       those moves by stochastic gradient descent (fixed seed, so the same
 *       data gives the same weights), one position in POLICY_VALID_EVERY
 *       held out to judge it; writes a whole policy_weights.c to OUT.c
 *       (other sizes' tables kept). --heldout as for tune fit.
 * train.sh runs one generation of games and the fit; README.md the recipe.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/internal.h"
#include "tak/engine.h"
#include "tak/match.h"
#include "tak/notation.h"
#include "tak/ptn.h"
#include "tak/tak.h"

static uint64_t rng_next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* An option's number: the whole of `text`, or NAN (which every range check
 * refuses) when it is not a finite one, as "x", "0.5x" or "inf". */
static double number(const char *text) {
    char *end;
    double v = strtod(text, &end);
    return end == text || *end || !isfinite(v) ? NAN : v;
}

/* An option's whole number, or -1 (which every range check refuses) when
 * `text` is not one, as "x" or "5x". */
static int whole(const char *text) {
    char *end;
    long v = strtol(text, &end, 10);
    return end == text || *end || v < 0 || v > 1000000000 ? -1 : (int)v;
}

/* One sampled position: "size half_komi result TPS". The features are
 * computed when fitting, so the same games serve every version of the
 * evaluation. */
static void emit(const TakPosition *pos, double result, const int *score) {
    if (pos->result.end != TAK_END_NONE || pos->ply < 6) return;
    BoardMasks m = board_masks(pos->rules.size);
    /* Positions with a win in one are the search's business, not the evaluation's. */
    if (engine_win_in_one(pos, pos->side, &m) != TAK_MOVE_NONE) return;
    char tps[TAK_TPS_MAX];
    if (tak_tps_write(pos, tps, sizeof tps) < 0) return;
    if (score) printf("%d %d %.1f @%d %s\n", pos->rules.size, pos->rules.half_komi, result, *score, tps);
    else printf("%d %d %.1f %s\n", pos->rules.size, pos->rules.half_komi, result, tps);
}

static double white_result(TakResult r) {
    return r.winner == TAK_WHITE ? 1.0 : r.winner == TAK_BLACK ? 0.0 : 0.5;
}

/* ---- the held-out openings --------------------------------------------- */

/* Every strength claim is measured from the held-out openings
 * (data/heldout/SIZE.tps), so no training game may pass through one of
 * them, nor through any of its images under the board's eight symmetries
 * (the fit trains on all eight). `tune gen --heldout` drops such games, and
 * writes before each game it keeps a line "# opening KEY..." with the keys of
 * its positions up to HELDOUT_MAX_PLY, so that `tune heldout` can check any
 * data file afterwards, whoever made it. A key is the same for all eight
 * images of a position and differs between positions. */
#define HELDOUT_MAX_PLY 8 /* the deepest opening a held-out set may hold */
#define MAX_HELDOUT_FILES 8 /* tune fit and tune net: --heldout files at most */

static uint64_t key_mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

/* What stands on one square: height, top piece's kind and the colours. */
static uint64_t square_code(const TakPosition *pos, int sq) {
    int height = pos->height[sq];
    if (height == 0) return 0;
    TakBitboard here = bit(sq);
    uint64_t kind = (pos->caps & here) ? 2 : (pos->walls & here) ? 1 : 0;
    TakStackBits colours = pos->stack[sq];
    if (height < 128) colours &= ((TakStackBits)1 << height) - 1;
    uint64_t h = key_mix((uint64_t)height, kind);
    return key_mix(key_mix(h, (uint64_t)colours), (uint64_t)(colours >> 64));
}

/* The smallest over the eight symmetries of the hash of the squares in
 * order, with the size, the side to move and the ply. Not the komi: an
 * opening is held out under any komi. */
static uint64_t position_key(const TakPosition *pos) {
    int size = pos->rules.size, n = size * size;
    uint64_t code[TAK_MAX_SQUARES], best = UINT64_MAX;
    for (int sym = 0; sym < 8; sym++) {
        for (int sq = 0; sq < n; sq++)
            code[engine_net_input_under(size, sym, sq * NET_SQ_INPUTS) / NET_SQ_INPUTS] = square_code(pos, sq);
        uint64_t h = key_mix(key_mix((uint64_t)size, pos->side), pos->ply);
        for (int sq = 0; sq < n; sq++) h = key_mix(h, code[sq]);
        if (h < best) best = h;
    }
    return best;
}

typedef struct KeySet {
    uint64_t *keys; /* sorted */
    size_t n;
} KeySet;

static int key_order(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool key_set_has(const KeySet *set, uint64_t key) {
    return set->n && bsearch(&key, set->keys, set->n, sizeof key, key_order);
}

/* Adds the keys of a held-out set's openings of `size` (one a line, a TPS
 * or plies from the empty board, as `tak book` writes them; '#' lines are
 * comments) to `set`; false, saying why, when the file cannot be read, a
 * line is not an opening of that size or an opening is deeper than
 * HELDOUT_MAX_PLY (the opening records would not show it). */
static bool key_set_read(KeySet *set, const char *path, int size, const char *who) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot read the held-out openings %s\n", who, path);
        return false;
    }
    TakRules rules;
    TakError err;
    if (!tak_rules_standard(&rules, size, &err)) {
        fprintf(stderr, "%s: %s\n", who, err.message);
        fclose(f);
        return false;
    }
    char buf[4096];
    size_t lineno = 0, cap = set->n;
    bool ok = true;
    while (ok && fgets(buf, sizeof buf, f)) {
        lineno++;
        buf[strcspn(buf, "\r\n")] = 0;
        const char *text = buf + strspn(buf, " \t");
        if (text[0] == 0 || text[0] == '#') continue;
        TakPosition pos;
        if (!tak_book_opening(text, &rules, &pos, &err)) {
            fprintf(stderr, "%s: %s line %zu: not an opening of %dx%d: %s\n", who, path, lineno, size, size,
                    err.message);
            ok = false;
        } else if (pos.ply > HELDOUT_MAX_PLY) {
            fprintf(stderr, "%s: %s line %zu: an opening of %u plies; held-out openings have at most %d\n",
                    who, path, lineno, pos.ply, HELDOUT_MAX_PLY);
            ok = false;
        } else {
            if (set->n == cap) {
                cap = cap ? 2 * cap : 256;
                uint64_t *grown = realloc(set->keys, cap * sizeof *grown);
                if (!grown) {
                    fprintf(stderr, "%s: out of memory\n", who);
                    ok = false;
                    break;
                }
                set->keys = grown;
            }
            set->keys[set->n++] = position_key(&pos);
        }
    }
    fclose(f);
    qsort(set->keys, set->n, sizeof *set->keys, key_order);
    return ok;
}

/* True when a "# opening KEY..." record names a key of `set`. */
static bool opening_through(const char *record, const KeySet *set) {
    const char *p = record + strlen("# opening");
    char *end;
    for (unsigned long long key; (key = strtoull(p, &end, 16)), end != p; p = end)
        if (key_set_has(set, key)) return true;
    return false;
}

/* The start positions of `tune gen --book FILE`: every line of FILE read as
 * a TPS of the rules' size; a line that is not one is an error. */
static TakPosition *read_book(const char *path, const TakRules *rules, size_t *count) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "tune gen: cannot open book %s\n", path);
        return NULL;
    }
    TakPosition *book = NULL;
    size_t n = 0, cap = 0, lineno = 0;
    char buf[4096];
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        buf[strcspn(buf, "\r\n")] = 0;
        if (buf[0] == 0 || buf[0] == '#') continue; /* `tak book` says how it made the book */
        if (n == cap) {
            cap = cap ? cap * 2 : 1024;
            TakPosition *grown = realloc(book, cap * sizeof *book);
            if (!grown) {
                fprintf(stderr, "tune gen: out of memory reading book %s\n", path);
                free(book);
                fclose(f);
                return NULL;
            }
            book = grown;
        }
        TakError err;
        if (!tak_tps_read(buf, rules, &book[n], &err)) {
            fprintf(stderr, "tune gen: %s line %zu: %s\n", path, lineno, err.message);
            free(book);
            fclose(f);
            return NULL;
        }
        if (!tak_position_is_over(&book[n])) n++;
    }
    fclose(f);
    if (n == 0) {
        fprintf(stderr, "tune gen: no playable position in book %s\n", path);
        free(book);
        return NULL;
    }
    *count = n;
    return book;
}

static void keep_score(const TakSearchInfo *info, void *user) { *(int *)user = info->score; }

static int cmd_gen(int argc, char **argv) {
    /* SIZE GAMES NODES SEED [HALF_KOMI], with --book FILE, --heldout FILE
     * and --scores anywhere after gen. */
    const char *book_path = NULL, *heldout_path = NULL, *arg[5] = {0};
    int positional = 0;
    bool with_scores = false;
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--scores") == 0) {
            with_scores = true;
        } else if (strcmp(argv[a], "--book") == 0) {
            if (a + 1 >= argc) {
                fprintf(stderr, "tune gen: --book needs a file\n");
                return 2;
            }
            book_path = argv[++a];
        } else if (strcmp(argv[a], "--heldout") == 0) {
            if (a + 1 >= argc) {
                fprintf(stderr, "tune gen: --heldout needs a file\n");
                return 2;
            }
            heldout_path = argv[++a];
        } else if (positional < 5) {
            arg[positional++] = argv[a];
        } else {
            fprintf(stderr, "tune gen: unexpected '%s'\n", argv[a]);
            return 2;
        }
    }
    if (positional < 4) return 2;
    int size = atoi(arg[0]), games = atoi(arg[1]);
    uint64_t nodes = strtoull(arg[2], NULL, 10), rng = strtoull(arg[3], NULL, 10) * 2654435761u + 1;
    TakRules rules;
    TakError err;
    if (!tak_rules_standard(&rules, size, &err)) return 2;
    rules.half_komi = arg[4] ? atoi(arg[4]) : 0;
    size_t book_count = 0;
    TakPosition *book = NULL;
    if (book_path && !(book = read_book(book_path, &rules, &book_count))) return 1;
    KeySet heldout = {0};
    if (heldout_path && !key_set_read(&heldout, heldout_path, size, "tune gen")) {
        free(book), free(heldout.keys);
        return 1;
    }
    long dropped = 0;
    TakEngine *e = tak_engine_new(16, 1);
    static TakMoveList list;
    static TakPosition line[1024];
    static int scores[1024];
    static bool scored[1024];
    for (int g = 0; g < games; g++) {
        tak_engine_new_game(e);
        TakPosition pos;
        tak_position_init(&pos, &rules, &err);
        int random_plies = 2 + (int)(rng_next(&rng) % 5);
        if (book) {
            pos = book[rng_next(&rng) % book_count];
            random_plies = 0;
        }
        int first_ply = (int)pos.ply;
        uint64_t hashes[1024], opening[HELDOUT_MAX_PLY + 1];
        int n = 0, openings = 0;
        bool held_out = false;
        while (!tak_position_is_over(&pos) && n < 1000) {
            if (pos.ply <= HELDOUT_MAX_PLY) {
                opening[openings] = position_key(&pos);
                if (key_set_has(&heldout, opening[openings++])) {
                    held_out = true;
                    break;
                }
            }
            line[n] = pos;
            scored[n] = false;
            hashes[n++] = pos.hash;
            TakMove m;
            if ((int)pos.ply - first_ply < random_plies) {
                int c = tak_moves_generate(&pos, &list);
                m = list.moves[rng_next(&rng) % (uint64_t)c];
            } else {
                TakSearchLimits lim = {0};
                lim.nodes = nodes;
                int score = 0;
                m = tak_engine_search(e, &pos, hashes, (size_t)n - 1, &lim, keep_score, &score, NULL);
                /* The search's own score, for White: the label tune score would give. */
                scores[n - 1] = pos.side == TAK_BLACK ? -score : score;
                scored[n - 1] = true;
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
        if (held_out) {
            dropped++;
            continue;
        }
        if (pos.result.end == TAK_END_NONE) continue; /* cut short: no result to learn */
        double r = white_result(pos.result);
        printf("# opening");
        for (int i = 0; i < openings; i++) printf(" %016llx", (unsigned long long)opening[i]);
        printf("\n");
        /* Sample about one position in two, to keep them less correlated. */
        for (int i = 0; i < n; i++)
            if (rng_next(&rng) % 2 == 0) emit(&line[i], r, with_scores && scored[i] ? &scores[i] : NULL);
        fflush(stdout);
    }
    if (dropped)
        fprintf(stderr, "tune gen: %ld of %d games passed through a held-out opening and were dropped\n",
                dropped, games);
    tak_engine_free(e);
    free(book), free(heldout.keys);
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
                emit(&pos, white_result(r), NULL);
                TakUndo u;
                tak_position_make(&pos, ptn.game.moves[i], &u);
            }
        }
        tak_ptn_free(&ptn);
    }
    return 0;
}

/* One data line: "size half_komi result [@score] TPS". */
typedef struct DataLine {
    int size, half_komi;
    float result;
    float score;     /* the search's score for White, or NAN when the line has none */
    double ahead;    /* with --td, the game's scores from here on, blended (White's odds), or NAN */
    const char *tps; /* within the line */
    TakPosition pos;
} DataLine;

/* Parses `line`; false when it is not a sample (bad numbers, bad TPS). */
static bool parse_line(const char *line, DataLine *d) {
    int used = 0;
    if (sscanf(line, "%d %d %f %n", &d->size, &d->half_komi, &d->result, &used) != 3 || !used ||
        (d->result != 0 && d->result != 0.5f && d->result != 1) || d->half_komi < -20 ||
        d->half_komi > 20)
        return false;
    d->score = NAN;
    d->ahead = NAN;
    if (line[used] == '@') {
        int more = 0;
        if (sscanf(line + used, "@%f %n", &d->score, &more) != 1 || !more || !isfinite(d->score))
            return false;
        used += more;
    }
    TakRules rules;
    TakError err;
    if (!tak_rules_standard(&rules, d->size, &err)) return false;
    rules.half_komi = d->half_komi;
    d->tps = line + used;
    return tak_tps_read(d->tps, &rules, &d->pos, &err);
}

/* tune score NODES [--sizes LIST] DATA...: every line again, with the score
 * of a NODES-node search for White ("@score") after the result; lines of
 * other sizes, and lines that are not samples, are left out. */
static int cmd_score(int argc, char **argv) {
    if (argc < 4) return 2;
    uint64_t nodes = strtoull(argv[2], NULL, 10);
    const char *sizes = "345678";
    int a = 3;
    if (a + 1 < argc && strcmp(argv[a], "--sizes") == 0) sizes = argv[a + 1], a += 2;
    if (nodes == 0 || a >= argc) return 2;
    TakEngine *e = tak_engine_new(16, 1);
    if (!e) return 1;
    char line[TAK_TPS_MAX + 64];
    for (; a < argc; a++) {
        FILE *f = fopen(argv[a], "r");
        if (!f) {
            fprintf(stderr, "cannot read %s\n", argv[a]);
            tak_engine_free(e);
            return 1;
        }
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = 0;
            if (line[0] == '#') { /* the games' opening records stay with their lines */
                printf("%s\n", line);
                continue;
            }
            DataLine d;
            if (!parse_line(line, &d) || !isnan(d.score) || !strchr(sizes, '0' + d.size) ||
                tak_position_is_over(&d.pos))
                continue;
            tak_engine_new_game(e);
            TakSearchLimits lim = {0};
            lim.nodes = nodes;
            int score = 0;
            if (tak_engine_search(e, &d.pos, NULL, 0, &lim, keep_score, &score, NULL) == TAK_MOVE_NONE)
                continue;
            if (d.pos.side == TAK_BLACK) score = -score;
            printf("%d %d %.1f @%d %s\n", d.size, d.half_komi, d.result, score, d.tps);
        }
        fclose(f);
        fflush(stdout);
    }
    tak_engine_free(e);
    return 0;
}

/* tune heldout SIZE HELDOUT... -- DATA...: no game of DATA passed through a
 * held-out opening. A game's "# opening" line lists the keys of its first
 * positions; every sample is checked too (a file edited by hand, or a
 * sample at an opening's ply). A data file without opening records (made
 * before the check, or by another tool) cannot be vouched for: an error. */
static int cmd_heldout(int argc, char **argv) {
    int a = 3, dashes = 3;
    while (dashes < argc && strcmp(argv[dashes], "--") != 0) dashes++;
    if (argc < 3 || dashes == 3 || dashes + 1 >= argc) return 2;
    int size = atoi(argv[2]);
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE) return 2;
    KeySet set = {0};
    for (; a < dashes; a++)
        if (!key_set_read(&set, argv[a], size, "tune heldout")) {
            free(set.keys);
            return 1;
        }
    long games = 0, samples = 0, shared = 0;
    bool ok = true;
    static char line[TAK_TPS_MAX + 64];
    for (a++; a < argc; a++) {
        FILE *f = fopen(argv[a], "r");
        if (!f) {
            fprintf(stderr, "tune heldout: cannot read %s\n", argv[a]);
            ok = false;
            continue;
        }
        long lineno = 0, records = 0, file_samples = 0;
        while (fgets(line, sizeof line, f)) {
            lineno++;
            if (strncmp(line, "# opening", 9) == 0) {
                records++;
                if (opening_through(line, &set)) {
                    fprintf(stderr, "tune heldout: %s line %ld: a game through a held-out opening\n",
                            argv[a], lineno);
                    shared++;
                }
                continue;
            }
            DataLine d;
            if (line[0] == '#' || !parse_line(line, &d)) continue;
            file_samples++;
            if (key_set_has(&set, position_key(&d.pos))) {
                fprintf(stderr, "tune heldout: %s line %ld: a held-out opening\n", argv[a], lineno);
                shared++;
            }
        }
        fclose(f);
        if (file_samples && !records) {
            fprintf(stderr, "tune heldout: %s: %ld positions and no opening records, so its games"
                            " cannot be checked (made without tune gen's records)\n", argv[a], file_samples);
            ok = false;
        }
        games += records, samples += file_samples;
    }
    printf("tune heldout: %zu held-out openings; %ld games and %ld positions checked; %ld through a held-out"
           " opening\n", set.n, games, samples, shared);
    free(set.keys);
    return ok && shared == 0 ? 0 : 1;
}

/* ---- fitting ------------------------------------------------------------ */

/* A network's input seen fewer times than this in the training data (over
 * the eight symmetries) gets no weight. */
#define NET_MIN_SEEN 50

typedef struct Sample {
    float result;
    float score; /* the search's score for White, or NAN when not scored */
    uint8_t phase;
    int16_t f[F_COUNT];
} Sample;

typedef struct Data {
    Sample *s;
    size_t n, cap;
} Data;

/* Two weights a feature, as in EvalWeights: [i][0] opening, [i][1] end. */
typedef double Weights[F_COUNT][2];

static double eval_of(const Weights w, const Sample *s) {
    double open = 0, end = 0;
    for (int i = 0; i < F_COUNT; i++) {
        if (!s->f[i]) continue;
        open += w[i][0] * s->f[i];
        end += w[i][1] * s->f[i];
    }
    return (open * (EVAL_PHASE_MAX - s->phase) + end * s->phase) / (EVAL_PHASE_MAX * EVAL_SCALE);
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* White's odds in a search's score for White (a won or lost one is sure),
 * or the result where there is no score (NAN). */
static double odds(double score, double result, double k) {
    if (isnan(score)) return result;
    return score >= TAK_SCORE_WIN_MIN ? 1 : score <= -TAK_SCORE_WIN_MIN ? 0 : sigmoid(score / k);
}

/* What a sample's prediction is fitted to (see the header). */
static double target(const Sample *s, double k, double lambda) {
    if (isnan(s->score)) return s->result;
    return lambda * s->result + (1 - lambda) * odds(s->score, s->result, k);
}

/* The cross-entropy of the prediction sigmoid(eval / k) against target y. */
static double cross_entropy(double eval, double k, double y) {
    double p = sigmoid(eval / k);
    if (p < 1e-9) p = 1e-9;
    if (p > 1 - 1e-9) p = 1 - 1e-9;
    return -(y * log(p) + (1 - y) * log(1 - p));
}

/* Mean cross-entropy of sigmoid(eval / k) against the results, over the
 * samples with (index % 20 == 0) == held_out. */
static double loss(const Weights w, const Data *d, double k, double lambda, bool held_out) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++) {
        if ((i % 20 == 0) != held_out) continue;
        sum += cross_entropy(eval_of(w, &d->s[i]), k, target(&d->s[i], k, lambda));
        n++;
    }
    return n ? sum / n : 0;
}

/* How well the weights predict the results of other games (a set the fit
 * never sees, such as games against another engine): the mean cross-entropy
 * of sigmoid(eval / k) against the results at the scale k that fits them
 * best, so that weights of any scale compare. */
static double games_loss(const Weights w, const Data *d, double *best_k) {
    double *eval = malloc(d->n * sizeof *eval); /* the same for every k: worked out once */
    if (!eval) return NAN;
    for (size_t i = 0; i < d->n; i++) eval[i] = eval_of(w, &d->s[i]);
    double best = INFINITY;
    for (double k = 30; k <= 3000; k *= 1.05) {
        double sum = 0;
        for (size_t i = 0; i < d->n; i++) sum += cross_entropy(eval[i], k, d->s[i].result);
        if (d->n && sum / d->n < best) best = sum / d->n, *best_k = k;
    }
    free(eval);
    return best;
}

/* Logistic regression by Adam, full batch, from the current weights; one
 * sample in 20 is held out to watch for over-fitting. Then every weight is
 * scaled so that a flat on top is worth about 100 (a hundredth of a flat is
 * the search's unit), which is the same as choosing the sigmoid's scale. */
static void fit(Weights w, const Data *d, int size, double k, double lambda, int iterations) {
    if (k <= 0) { /* the scale at which the current weights fit the results (lambda 1) best */
        double best = loss(w, d, k = 100, 1, false);
        for (double c = 30; c <= 3000; c *= 1.1) {
            double e = loss(w, d, c, 1, false);
            if (e < best) best = e, k = c;
        }
    }
    fprintf(stderr, "size %d: sigmoid scale %.0f\n", size, k);
    fprintf(stderr, "size %d: %zu positions, start loss %.5f (held out %.5f)\n", size, d->n,
            loss(w, d, k, lambda, false), loss(w, d, k, lambda, true));
    static double m[F_COUNT][2], v[F_COUNT][2], g[F_COUNT][2];
    memset(m, 0, sizeof m);
    memset(v, 0, sizeof v);
    const double lr = 6.0, b1 = 0.9, b2 = 0.999;
    for (int it = 1; it <= iterations; it++) {
        memset(g, 0, sizeof g);
        size_t n = 0;
        for (size_t i = 0; i < d->n; i++) {
            if (i % 20 == 0) continue;
            const Sample *s = &d->s[i];
            double p = sigmoid(eval_of(w, s) / k);
            double grad = (p - target(s, k, lambda)) / (k * EVAL_PHASE_MAX * EVAL_SCALE);
            double go = grad * (EVAL_PHASE_MAX - s->phase), ge = grad * s->phase;
            for (int j = 0; j < F_COUNT; j++) {
                if (!s->f[j]) continue;
                g[j][0] += go * s->f[j];
                g[j][1] += ge * s->f[j];
            }
            n++;
        }
        for (int j = 0; j < F_COUNT; j++) {
            for (int t = 0; t < 2; t++) {
                double gj = g[j][t] / (double)n;
                m[j][t] = b1 * m[j][t] + (1 - b1) * gj;
                v[j][t] = b2 * v[j][t] + (1 - b2) * gj * gj;
                double mh = m[j][t] / (1 - pow(b1, it)), vh = v[j][t] / (1 - pow(b2, it));
                w[j][t] -= lr * mh / (sqrt(vh) + 1e-12);
            }
        }
        if (it % 100 == 0)
            fprintf(stderr, "  iteration %d: loss %.5f (held out %.5f)\n", it, loss(w, d, k, lambda, false),
                    loss(w, d, k, lambda, true));
    }
    /* A feature (almost) never seen keeps no weight: its value would be noise. */
    for (int j = 0; j < F_COUNT; j++) {
        size_t seen = 0;
        for (size_t i = 0; i < d->n && seen < 50; i++) seen += d->s[i].f[j] != 0;
        if (seen < 50) w[j][0] = w[j][1] = 0;
    }
    /* A flat's worth halfway through the game: the mean of the flat square
     * table over the board's squares... */
    BoardMasks masks = board_masks(size);
    double flat = 0;
    for (int c = 0; c < EVAL_SQ_CLASSES; c++)
        flat += __builtin_popcountll(masks.sq_class[c]) * (w[F_PST_FLAT + c][0] + w[F_PST_FLAT + c][1]) / 2;
    flat /= size * size;
    /* ... plus what placing it changes in the count and the reserve. */
    flat += 2 * (w[F_COUNT_LEAD][0] + w[F_COUNT_LEAD][1]) / 2 - (w[F_RESERVE][0] + w[F_RESERVE][1]) / 2;
    flat /= EVAL_SCALE;
    if (!isfinite(flat) || flat <= 1) {
        fprintf(stderr, "size %d: a flat is worth %g after the fit: kept unscaled\n", size, flat);
        flat = 100;
    }
    double scale = 100 / flat;
    for (int j = 0; j < F_COUNT; j++) {
        for (int t = 0; t < 2; t++) {
            w[j][t] *= scale;
            if (w[j][t] > 32000) w[j][t] = 32000;
            if (w[j][t] < -32000) w[j][t] = -32000;
        }
    }
    fprintf(stderr, "size %d: a flat was worth %.1f, weights scaled by %.3f (sigmoid scale %.1f)\n",
            size, flat, scale, k * scale);
}

static bool add_sample(Data *d, const Sample *s) {
    if (d->n == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 4096;
        Sample *grown = realloc(d->s, d->cap * sizeof *d->s);
        if (!grown) return false;
        d->s = grown;
    }
    d->s[d->n++] = *s;
    return true;
}

typedef bool SampleTaker(const DataLine *d, const BoardMasks *m, void *user);

/* Gives `d` to take() if its position is the evaluation's business: not
 * over, and no win in one for the side to move (the search's; older data
 * has them). False when take() is and returns false. */
static bool offer(const DataLine *d, SampleTaker *take, void *user) {
    BoardMasks m = board_masks(d->size);
    if (tak_position_is_over(&d->pos) ||
        engine_win_in_one(&d->pos, d->pos.side, &m) != TAK_MOVE_NONE)
        return true;
    return take(d, &m, user);
}

/* A game's lines, kept until its end so that each can be told what the
 * searches after it said (ahead, below), or left out with the game. */
typedef struct GameLines {
    DataLine *d;
    size_t n, cap;
} GameLines;

/* How read_samples reads DATA files, and what it left out of them. */
typedef struct Reading {
    int only_size;         /* the size read, or 0 for every size */
    double td, k;          /* td > 0: each line's `ahead` (flush_game), k the sigmoid scale */
    const KeySet *heldout; /* NULL, or openings whose games are left out whole */
    long games_out, lines_out; /* left out so far, over every file read */
} Reading;

/* With td > 0, gives the game's lines their `ahead`, the TD(td) return of
 * the scores from each to the game's end: ahead = (1 - td) * odds(here) +
 * td * (the next line's ahead), the result after the last (so td 0 would be
 * the line's own score, and each step toward 1 leans on what the searches
 * of the positions after it found, in effect a deeper search of this one,
 * and in the end on the result); then offers them in order, or, when the
 * game passed through a held-out opening (`through`), none of them. */
static bool flush_game(GameLines *g, Reading *how, bool through, SampleTaker *take, void *user) {
    bool ok = true;
    if (through) {
        how->games_out++;
        how->lines_out += (long)g->n;
        g->n = 0;
        return true;
    }
    double after = g->n ? g->d[g->n - 1].result : 0;
    for (size_t i = g->n; how->td > 0 && i-- > 0;) {
        after = (1 - how->td) * odds(g->d[i].score, g->d[i].result, how->k) + how->td * after;
        g->d[i].ahead = after;
    }
    for (size_t i = 0; i < g->n && ok; i++) ok = offer(&g->d[i], take, user);
    g->n = 0;
    return ok;
}

/* Calls take() for every sample line of the DATA file `path` (of size
 * how->only_size, or of any size when it is 0) whose position is the
 * evaluation's business (offer). A game's lines are those after one
 * "# opening" line. With how->heldout, a game that passed through one of
 * its openings (its record names one, or one of its lines is one) is left
 * out whole and counted in *how; a file of samples without opening records
 * is then an error, as its games cannot be told apart. With how->td > 0,
 * a game's lines (each a later ply than the one before, with one result)
 * are first given their `ahead` (flush_game); otherwise `ahead` is NAN.
 * False when the file cannot be read or vouched for, or take() returns
 * false (it says why). */
static bool read_samples(const char *path, Reading *how, SampleTaker *take, void *user) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        return false;
    }
    char line[TAK_TPS_MAX + 64];
    long lineno = 0, bad = 0, records = 0, samples = 0;
    bool ok = true, whole_games = how->td > 0 || how->heldout, through = false;
    GameLines game = {0};
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#') { /* a game's opening record: the game before it is over */
            if (whole_games) ok = flush_game(&game, how, through, take, user);
            through = false;
            if (strncmp(line, "# opening", strlen("# opening")) == 0) {
                records++;
                through = how->heldout && opening_through(line, how->heldout);
            }
            continue;
        }
        DataLine d;
        if (!parse_line(line, &d)) {
            bad++;
            continue;
        }
        if (how->only_size && d.size != how->only_size) continue;
        samples++;
        if (how->heldout && d.pos.ply <= HELDOUT_MAX_PLY && key_set_has(how->heldout, position_key(&d.pos)))
            through = true;
        d.tps = NULL; /* the line is not kept */
        if (!whole_games) {
            ok = offer(&d, take, user);
            continue;
        }
        /* A line that does not follow the last (an earlier or the same
         * ply, another result, size or komi) starts a game of its own,
         * as in files without opening records (tune ptn's). */
        const DataLine *last = game.n ? &game.d[game.n - 1] : NULL;
        if (!how->heldout && last &&
            (d.pos.ply <= last->pos.ply || d.result != last->result || d.size != last->size ||
             d.half_komi != last->half_komi) &&
            !(ok = flush_game(&game, how, false, take, user)))
            break;
        if (game.n == game.cap) {
            size_t cap = game.cap ? 2 * game.cap : 256;
            DataLine *grown = realloc(game.d, cap * sizeof *grown);
            if (!grown) {
                fprintf(stderr, "out of memory reading %s\n", path);
                ok = false;
                break;
            }
            game.d = grown;
            game.cap = cap;
        }
        game.d[game.n++] = d;
    }
    if (ok && how->heldout && samples && !records) {
        fprintf(stderr, "%s: %ld positions and no opening records, so the games through a held-out"
                        " opening cannot be left out (made without tune gen's records)\n", path, samples);
        ok = false;
    }
    if (ok && whole_games) ok = flush_game(&game, how, through, take, user);
    free(game.d);
    fclose(f);
    if (bad) fprintf(stderr, "%s: %ld of %ld lines skipped (not a sample)\n", path, bad, lineno);
    return ok;
}

/* A sample's features, added to the data of its size. */
static bool take_features(const DataLine *d, const BoardMasks *m, void *user) {
    Data *data = user;
    int feats[F_COUNT];
    Sample s;
    s.result = d->result;
    s.score = d->score;
    s.phase = (uint8_t)engine_features(&d->pos, m, feats);
    for (int i = 0; i < F_COUNT; i++) s.f[i] = (int16_t)feats[i];
    return add_sample(&data[d->size], &s);
}

/* Reads "size half_komi result [@score] TPS" lines and computes their features. */
static bool read_data(const char *path, Reading *how, Data data[TAK_MAX_SIZE + 1]) {
    return read_samples(path, how, take_features, data);
}

/* Reads each --heldout FILE of `files` (count n) as openings of `size` into
 * `set`; false, saying why, when one cannot be read. */
static bool heldout_read(KeySet *set, const char **files, int n, int size, const char *who) {
    for (int i = 0; i < n; i++)
        if (!key_set_read(set, files[i], size, who)) return false;
    return true;
}

/* Says what the held-out openings left out of a fit's data. */
static void heldout_report(const Reading *how, const char *who) {
    if (how->heldout)
        fprintf(stderr, "%s: %zu held-out openings; %ld games (%ld positions) through one left out\n", who,
                how->heldout->n, how->games_out, how->lines_out);
}

#define TEMPORARY_MAX 4096

/* The temporary file a table for `path` is written to first (PATH.tmp,
 * named in `tmp`), or NULL, saying why. */
static FILE *open_temporary(const char *path, char tmp[TEMPORARY_MAX]) {
    if (snprintf(tmp, TEMPORARY_MAX, "%s.tmp", path) >= TEMPORARY_MAX) {
        fprintf(stderr, "tune: the path %s is too long\n", path);
        return NULL;
    }
    FILE *out = fopen(tmp, "w");
    if (!out) fprintf(stderr, "tune: cannot write %s\n", tmp);
    return out;
}

/* Closes `out`, written to `tmp`, and renames it over `path`: a failed
 * write leaves `path` as it was and no `tmp` behind. */
static bool commit_file(FILE *out, const char *tmp, const char *path) {
    bool ok = !ferror(out);
    ok = fclose(out) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "tune: writing %s failed\n", path);
        remove(tmp);
        return false;
    }
    return true;
}

static void write_weights(FILE *out, Weights w[TAK_MAX_SIZE + 1]) {
    fprintf(out, "/*\n * weights.c: the evaluation weights by board size, in 1/16 of a hundredth\n"
                 " * of a flat per feature unit, {opening, end of game} (see the feature list\n"
                 " * in internal.h). This file is data: tools/tune rewrites it (see\n"
                 " * tools/tune/README.md).\n */\n"
                 "#include \"internal.h\"\n\n"
                 "const EvalWeights engine_weights[TAK_MAX_SIZE + 1] = {\n");
    for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++) {
        fprintf(out, "    [%d] = {{\n", size);
        for (int i = 0; i < F_COUNT; i++) {
            char buf[32];
            fprintf(out, "        {%ld, %ld}, /* %s */\n", lround(w[size][i][0]),
                    lround(w[size][i][1]), engine_feature_name(i, buf));
        }
        fprintf(out, "    }},\n");
    }
    fprintf(out, "};\n");
}

/* Writes the weights to `path` through a temporary file renamed over it, so
 * a failed write never leaves a half-written weights.c; refuses weights that
 * are not finite or do not fit the table's int16_t. */
static bool save_weights(const char *path, Weights w[TAK_MAX_SIZE + 1]) {
    for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++)
        for (int i = 0; i < F_COUNT; i++)
            for (int t = 0; t < 2; t++)
                if (!isfinite(w[size][i][t]) || fabs(w[size][i][t]) > 32767) {
                    fprintf(stderr, "tune: size %d weight %d is %g: nothing written\n", size, i,
                            w[size][i][t]);
                    return false;
                }
    char tmp[TEMPORARY_MAX];
    FILE *out = open_temporary(path, tmp);
    if (!out) return false;
    write_weights(out, w);
    return commit_file(out, tmp, path);
}

/* Fits the weights of one size to `data`, saying how well they predicted the
 * results of `games` (when there are any) before and after. */
static void fit_and_judge(Weights w, const Data *data, const Data *games, int size, double k,
                          double lambda, int iterations) {
    double k_games = 0, before = games->n ? games_loss(w, games, &k_games) : 0;
    fit(w, data, size, k, lambda, iterations);
    if (!games->n) return;
    double after = games_loss(w, games, &k_games);
    fprintf(stderr, "size %d: %zu positions of --games, loss %.5f before the fit, %.5f after"
                    " (scale %.0f)\n", size, games->n, before, after, k_games);
}

/* tune fit OUT.c [--k K] [--iterations N] [--sizes LIST] [--lambda L] [--games OTHER]
 *          [--heldout FILE]... DATA... */
static int cmd_fit(int argc, char **argv) {
    if (argc < 4) return 2;
    double k = 0; /* 0: fitted to the current weights first */
    double lambda = 0.5;
    int iterations = 1000, held = 0;
    const char *sizes = "345678";
    const char *games = NULL; /* --games: results to judge the fit by, never fitted */
    const char *heldout[MAX_HELDOUT_FILES];
    int a = 3;
    for (; a + 1 < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
        if (strcmp(argv[a], "--k") == 0) k = number(argv[a + 1]);
        else if (strcmp(argv[a], "--iterations") == 0) iterations = whole(argv[a + 1]);
        else if (strcmp(argv[a], "--sizes") == 0) sizes = argv[a + 1];
        else if (strcmp(argv[a], "--lambda") == 0) lambda = number(argv[a + 1]);
        else if (strcmp(argv[a], "--games") == 0) games = argv[a + 1];
        else if (strcmp(argv[a], "--heldout") == 0 && held < MAX_HELDOUT_FILES) heldout[held++] = argv[a + 1];
        else return 2;
    }
    if (!(lambda >= 0 && lambda <= 1) || isnan(k) || iterations < 0) return 2;
    /* Held-out openings are of one size: the fit is then of that size alone. */
    if (held && (strlen(sizes) != 1 || sizes[0] < '0' + TAK_MIN_SIZE || sizes[0] > '0' + TAK_MAX_SIZE)) {
        fprintf(stderr, "tune fit: --heldout needs --sizes with one size (the openings' size)\n");
        return 2;
    }
    KeySet set = {0};
    if (held && !heldout_read(&set, heldout, held, sizes[0] - '0', "tune fit")) {
        free(set.keys);
        return 1;
    }
    Reading how = {0, 0, 0, held ? &set : NULL, 0, 0};
    static Data data[TAK_MAX_SIZE + 1], other[TAK_MAX_SIZE + 1];
    bool ok = true;
    for (; a < argc && ok; a++) ok = read_data(argv[a], &how, data);
    if (ok && games) ok = read_data(games, &how, other);
    free(set.keys);
    if (!ok) return 1;
    heldout_report(&how, "tune fit");
    static Weights w[TAK_MAX_SIZE + 1];
    for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++) {
        for (int i = 0; i < F_COUNT; i++)
            for (int t = 0; t < 2; t++) w[size][i][t] = engine_weights[size].w[i][t];
        bool wanted = strchr(sizes, '0' + size) != NULL;
        if (wanted && data[size].n >= 500)
            fit_and_judge(w[size], &data[size], &other[size], size, k, lambda, iterations);
        free(data[size].s);
        free(other[size].s);
    }
    return save_weights(argv[2], w) ? 0 : 1;
}

/* ---- carrying weights to another size ------------------------------------ */

/* The feature of board `from` that plays the part of feature i on board
 * `to`: a square class by its distances from the edges (capped at the
 * smaller board's), a line by how many squares it lacks; the rest as is. */
static int carried_feature(int i, int from, int to) {
    int groups[3] = {F_PST_FLAT, F_PST_WALL, F_PST_CAP};
    for (int g = 0; g < 3; g++) {
        if (i < groups[g] || i >= groups[g] + EVAL_SQ_CLASSES) continue;
        int k = i - groups[g], b = 0;
        while ((b + 1) * (b + 2) / 2 <= k) b++;
        int a = k - b * (b + 1) / 2, cap = (from - 1) / 2;
        if (a > cap) a = cap;
        if (b > cap) b = cap;
        return groups[g] + b * (b + 1) / 2 + a;
    }
    int lines[2] = {F_LINE_OPEN, F_LINE_CONTESTED};
    for (int g = 0; g < 2; g++) {
        if (i < lines[g] || i >= lines[g] + EVAL_LINE_MAX) continue;
        int k = i - lines[g] + 1 - (to - from);
        if (k < 1) k = 1;
        if (k > from) k = from;
        return lines[g] + k - 1;
    }
    return i;
}

/* tune carry OUT.c FROM TO...: the weights of size FROM carried to each TO. */
static int cmd_carry(int argc, char **argv) {
    if (argc < 5) return 2;
    int from = atoi(argv[3]);
    if (from < TAK_MIN_SIZE || from > TAK_MAX_SIZE) return 2;
    static Weights w[TAK_MAX_SIZE + 1];
    for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++)
        for (int i = 0; i < F_COUNT; i++)
            for (int t = 0; t < 2; t++) w[size][i][t] = engine_weights[size].w[i][t];
    for (int a = 4; a < argc; a++) {
        int to = atoi(argv[a]);
        if (to < TAK_MIN_SIZE || to > TAK_MAX_SIZE) return 2;
        for (int i = 0; i < F_COUNT; i++)
            for (int t = 0; t < 2; t++) w[to][i][t] = engine_weights[from].w[carried_feature(i, from, to)][t];
    }
    return save_weights(argv[2], w) ? 0 : 1;
}

/* ---- the network's correction (src/engine/net.c) ------------------------ */

/* One position for the network: its inputs (board as it is), the linear
 * evaluation and the target, both from the side to move's view. */
typedef struct NetData {
    uint16_t *idx;    /* every sample's inputs, one after another */
    size_t *start;    /* sample i's are idx[start[i] .. start[i + 1]) */
    float *lin, *tgt; /* linear evaluation (hundredths), target probability */
    size_t n, cap, idx_n, idx_cap;
} NetData;

static bool net_add(NetData *d, const uint16_t *idx, int n, float lin, float tgt) {
    if (d->n + 2 > d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 1 << 16;
        size_t *st = realloc(d->start, cap * sizeof *st);
        if (st) d->start = st;
        float *l = realloc(d->lin, cap * sizeof *l);
        if (l) d->lin = l;
        float *t = realloc(d->tgt, cap * sizeof *t);
        if (t) d->tgt = t;
        if (!st || !l || !t) return false;
        d->cap = cap;
        if (!d->n) d->start[0] = 0;
    }
    if (d->idx_n + (size_t)n > d->idx_cap) {
        size_t cap = d->idx_cap ? 2 * d->idx_cap : 1 << 20;
        while (cap < d->idx_n + (size_t)n) cap *= 2;
        uint16_t *x = realloc(d->idx, cap * sizeof *x);
        if (!x) return false;
        d->idx = x;
        d->idx_cap = cap;
    }
    memcpy(d->idx + d->idx_n, idx, (size_t)n * sizeof *idx);
    d->idx_n += (size_t)n;
    d->lin[d->n] = lin;
    d->tgt[d->n] = tgt;
    d->start[++d->n] = d->idx_n;
    return true;
}

/* What net_read keeps of a sample: its inputs, linear evaluation and target. */
typedef struct NetReader {
    NetData *d;
    double k, lambda;
    const char *path;
} NetReader;

static bool take_net_sample(const DataLine *dl, const BoardMasks *m, void *user) {
    NetReader *r = user;
    Sample s = {.result = dl->result, .score = dl->score};
    double t = isnan(dl->ahead) ? target(&s, r->k, r->lambda)
                                : r->lambda * dl->result + (1 - r->lambda) * dl->ahead;
    if (dl->pos.side == TAK_BLACK) t = 1 - t;
    uint16_t idx[NET_MAX_ACTIVE];
    int n = engine_net_inputs(&dl->pos, idx);
    float lin = (float)engine_evaluate_linear(&dl->pos, m, &engine_weights[dl->size]);
    if (net_add(r->d, idx, n, lin, (float)t)) return true;
    fprintf(stderr, "tune net: out of memory reading %s\n", r->path);
    return false;
}

/* Reads the positions of `size` in DATA lines for the network; the target
 * is as tune fit's (L * result + (1 - L) * sigmoid(score / k)), from the
 * side to move's view, with the score's odds replaced by `ahead` when td > 0
 * (read_samples). */
static bool net_read(const char *path, Reading *how, double lambda, NetData *d) {
    NetReader r = {d, how->k, lambda, path};
    return read_samples(path, how, take_net_sample, &r);
}

typedef struct NetParams {
    int hidden;
    float *w1, *b1, *w2, b2; /* [inputs][hidden], [hidden], [hidden] */
} NetParams;

static bool net_params_alloc(NetParams *p, int inputs, int hidden) {
    p->hidden = hidden;
    p->w1 = calloc((size_t)inputs * hidden, sizeof(float));
    p->b1 = calloc((size_t)hidden, sizeof(float));
    p->w2 = calloc((size_t)hidden, sizeof(float));
    return p->w1 && p->b1 && p->w2;
}

static void net_params_free(NetParams *p) { free(p->w1), free(p->b1), free(p->w2); }

/* The loss of sample i under symmetry sym; adds its gradient to g unless g is NULL. */
static double net_sample(const NetParams *p, const NetData *d, size_t i, const uint16_t *map, int inputs,
                         int sym, double k, NetParams *g) {
    uint16_t idx[NET_MAX_ACTIVE];
    int n = (int)(d->start[i + 1] - d->start[i]);
    for (int j = 0; j < n; j++) idx[j] = map[(size_t)sym * inputs + d->idx[d->start[i] + j]];
    EvalNet net = {inputs, p->hidden, p->w1, p->b1, p->w2, p->b2, NULL};
    float h[NET_HIDDEN_MAX];
    double out = engine_net_forward(&net, idx, n, h);
    double pr = sigmoid((d->lin[i] + out) / k), t = d->tgt[i];
    double e = pr < 1e-9 ? 1e-9 : pr > 1 - 1e-9 ? 1 - 1e-9 : pr;
    double l = -(t * log(e) + (1 - t) * log(1 - e));
    if (!g) return l;
    double dout = (pr - t) / k * NET_OUTPUT_SCALE;
    g->b2 += (float)dout;
    float dh[NET_HIDDEN_MAX];
    for (int j = 0; j < p->hidden; j++) {
        float a = h[j] < 0 ? 0 : h[j] > 1 ? 1 : h[j];
        g->w2[j] += (float)(dout * a);
        dh[j] = h[j] > 0 && h[j] < 1 ? (float)(dout * p->w2[j]) : 0;
        g->b1[j] += dh[j];
    }
    for (int q = 0; q < n; q++) {
        float *row = g->w1 + (size_t)idx[q] * p->hidden;
        for (int j = 0; j < p->hidden; j++) row[j] += dh[j];
    }
    return l;
}

static double net_loss(const NetParams *p, const NetData *d, const uint16_t *map, int inputs, double k) {
    double sum = 0;
    for (size_t i = 0; i < d->n; i++) sum += net_sample(p, d, i, map, inputs, 0, k, NULL);
    return d->n ? sum / (double)d->n : 0;
}

static void adam_step(float *w, const float *g, float *m, float *v, size_t n, double lr, double scale,
                      double decay, int t) {
    const double b1 = 0.9, b2 = 0.999;
    double c1 = 1 - pow(b1, t), c2 = 1 - pow(b2, t);
    for (size_t i = 0; i < n; i++) {
        double gi = g[i] * scale;
        m[i] = (float)(b1 * m[i] + (1 - b1) * gi);
        v[i] = (float)(b2 * v[i] + (1 - b2) * gi * gi);
        w[i] -= (float)(lr * ((m[i] / c1) / (sqrt(v[i] / c2) + 1e-8) + decay * w[i]));
    }
}

/* Writes net_weights.c with `p` as the network of `size` and every other
 * size's network as it is now. */
/* `v` as a C float literal with `digits` significant digits: "%g" alone
 * writes a whole number without a point ("0", "1"), and "0f" is no literal
 * (a weight of an input the data never showed stays at its start, and the
 * start can be exactly 0). */
static const char *float_literal(char buf[40], double v, int digits) {
    if (!isfinite(v)) v = 0; /* save_net refuses such a network before writing */
    int n = snprintf(buf, 36, "%.*g", digits, v);
    if (!strpbrk(buf, ".eEn")) memcpy(buf + n, ".0", 3);
    strcat(buf, "f");
    return buf;
}

/* The command line that made a table, as its made_by string: "tune" and
 * the arguments, cut at `cap`, with what would end the C string or comment
 * it goes in replaced. */
static void made_by_text(char *made_by, size_t cap, int argc, char **argv) {
    snprintf(made_by, cap, "tune");
    for (int a = 1; a < argc; a++) {
        size_t used = strlen(made_by);
        if (snprintf(made_by + used, cap - used, " %s", argv[a]) >= (int)(cap - used)) break;
        for (char *c = made_by + used; *c; c++)
            if (*c == '"' || *c == '\\' || *c == '*') *c = '_'; /* kept out of the C string and comment */
    }
}

static bool save_net(const char *path, int size, const NetParams *p, int argc, char **argv) {
    int inputs_of_size = engine_net_input_count(size);
    bool finite = isfinite(p->b2);
    for (size_t i = 0; finite && i < (size_t)inputs_of_size * p->hidden; i++) finite = isfinite(p->w1[i]);
    for (int j = 0; finite && j < p->hidden; j++) finite = isfinite(p->b1[j]) && isfinite(p->w2[j]);
    if (!finite) {
        fprintf(stderr, "tune net: the fit diverged (a weight is not a number): nothing written\n");
        return false;
    }
    char tmp[TEMPORARY_MAX];
    FILE *out = open_temporary(path, tmp);
    if (!out) return false;
    char made_by[1024];
    made_by_text(made_by, sizeof made_by, argc, argv);
    fprintf(out, "/*\n * net_weights.c: the evaluation network of each board size (net.c), written\n"
                 " * by `tune net` (each network's made_by says how); a size without one is\n"
                 " * evaluated by the linear terms alone.\n */\n#include \"internal.h\"\n");
    for (int s = TAK_MIN_SIZE; s <= TAK_MAX_SIZE; s++) {
        const EvalNet *old = engine_nets[s];
        if (s != size && !old) continue;
        int inputs = engine_net_input_count(s), hidden = s == size ? p->hidden : old->hidden;
        char num[40];
        const float *w1 = s == size ? p->w1 : old->w1, *b1 = s == size ? p->b1 : old->b1;
        const float *w2 = s == size ? p->w2 : old->w2;
        float b2 = s == size ? p->b2 : old->b2;
        const char *by = s == size ? made_by : old->made_by ? old->made_by : "";
        /* The first layer in its stored form (internal.h: NetStored). */
        int8_t *q = malloc((size_t)inputs * hidden);
        float *max = malloc((size_t)inputs * sizeof *max);
        if (!q || !max) {
            free(q), free(max), fclose(out), remove(tmp);
            fprintf(stderr, "tune: out of memory\n");
            return false;
        }
        engine_net_pack(w1, inputs, hidden, q, max);
        fprintf(out, "\n#if NET_BUILT(%d)", s);
        fprintf(out, "\n/* w1_%d as 127ths of each row's largest magnitude (w1_max_%d), expanded\n"
                     " * into w1_%d at start-up (net.c). */\n", s, s, s);
        fprintf(out, "static const int8_t w1_stored_%d[%d * %d] = {\n", s, inputs, hidden);
        for (int i = 0; i < inputs; i++) {
            fprintf(out, "   ");
            for (int j = 0; j < hidden; j++) fprintf(out, " %d,", q[(size_t)i * hidden + j]);
            fprintf(out, "\n");
        }
        fprintf(out, "};\nstatic const float w1_max_%d[%d] = {", s, inputs);
        for (int i = 0; i < inputs; i++) fprintf(out, "%s%s", i ? ", " : "", float_literal(num, max[i], 9));
        fprintf(out, "};\nstatic float w1_%d[%d * %d];\n", s, inputs, hidden);
        free(q), free(max);
        fprintf(out, "static const float b1_%d[%d] = {", s, hidden);
        for (int j = 0; j < hidden; j++) fprintf(out, "%s%s", j ? ", " : "", float_literal(num, b1[j], 6));
        fprintf(out, "};\nstatic const float w2_%d[%d] = {", s, hidden);
        for (int j = 0; j < hidden; j++) fprintf(out, "%s%s", j ? ", " : "", float_literal(num, w2[j], 6));
        fprintf(out, "};\nstatic const EvalNet net_%d = {%d, %d, w1_%d, b1_%d, w2_%d, %s,\n    \"%s\"};\n#endif\n",
                s, inputs, hidden, s, s, s, float_literal(num, b2, 6), by);
    }
    fprintf(out, "\nconst EvalNet *const engine_nets[TAK_MAX_SIZE + 1] = {\n");
    for (int s = TAK_MIN_SIZE; s <= TAK_MAX_SIZE; s++)
        if (s == size || engine_nets[s]) fprintf(out, "#if NET_BUILT(%d)\n    [%d] = &net_%d,\n#endif\n", s, s, s);
    fprintf(out, "};\n\nconst NetStored engine_nets_stored[TAK_MAX_SIZE + 1] = {\n");
    for (int s = TAK_MIN_SIZE; s <= TAK_MAX_SIZE; s++)
        if (s == size || engine_nets[s])
            fprintf(out, "#if NET_BUILT(%d)\n    [%d] = {w1_stored_%d, w1_max_%d, w1_%d},\n#endif\n", s, s, s, s, s);
    fprintf(out, "};\n");
    return commit_file(out, tmp, path);
}

/* tune net OUT.c SIZE [--k K] [--lambda L] [--td T] [--epochs N] [--lr R] [--decay D]
 *          [--hidden H] [--valid FILE] [--valid-lambda L] [--init] [--heldout FILE]... DATA...:
 * fits the network of SIZE (from scratch with H hidden units, by default
 * NET_HIDDEN_DEFAULT, or with --init from the one this tuner was built
 * with, at its width) so that the linear evaluation plus its output
 * predicts the target as tune fit's does; each sample is seen under a random
 * one of the board's eight symmetries each epoch. With --td T (0 <= T < 1;
 * 0 by default), a training position's score in the target is the TD(T)
 * return of its game's scores from it on (flush_game) rather than its own.
 * --init --epochs 0 prints how well the built-in network predicts DATA and
 * --valid; the held-out targets mix results and their own scores by
 * --valid-lambda (by default L), so fits of different L and T can be
 * judged on one scale. With --heldout FILE (repeated for more sets, up to
 * MAX_HELDOUT_FILES), every game of DATA and --valid that passed through
 * one of FILE's openings is left out whole (read_samples), so data played
 * before a set was held out can still be fitted, clear of it. */
static int cmd_net(int argc, char **argv) {
    if (argc < 5) return 2;
    int size = whole(argv[3]), epochs = 20, held = 0, hidden = 0;
    double k = 66, lambda = 0.25, lr = 1e-3, decay = 0, valid_lambda = 0, td = 0;
    const char *valid = NULL, *heldout[MAX_HELDOUT_FILES];
    bool init = false, own_valid_lambda = false;
    int a = 4;
    for (; a + 1 < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
        if (strcmp(argv[a], "--init") == 0) {
            init = true;
            a--; /* a flag without a value */
        } else if (strcmp(argv[a], "--k") == 0) k = number(argv[a + 1]);
        else if (strcmp(argv[a], "--lambda") == 0) lambda = number(argv[a + 1]);
        else if (strcmp(argv[a], "--epochs") == 0) epochs = whole(argv[a + 1]);
        else if (strcmp(argv[a], "--lr") == 0) lr = number(argv[a + 1]);
        else if (strcmp(argv[a], "--decay") == 0) decay = number(argv[a + 1]);
        else if (strcmp(argv[a], "--valid") == 0) valid = argv[a + 1];
        else if (strcmp(argv[a], "--td") == 0) td = number(argv[a + 1]);
        else if (strcmp(argv[a], "--hidden") == 0) {
            hidden = whole(argv[a + 1]);
            if (hidden == 0) hidden = -1; /* refused below, not taken as unset */
        }
        else if (strcmp(argv[a], "--heldout") == 0 && held < MAX_HELDOUT_FILES) heldout[held++] = argv[a + 1];
        else if (strcmp(argv[a], "--valid-lambda") == 0) {
            valid_lambda = number(argv[a + 1]);
            own_valid_lambda = true;
        } else return 2;
    }
    if (!own_valid_lambda) valid_lambda = lambda;
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE || !(lambda >= 0 && lambda <= 1) ||
        !(valid_lambda >= 0 && valid_lambda <= 1) || !(td >= 0 && td < 1) || !(k > 0) || !(lr > 0) ||
        !(decay >= 0) || epochs < 0)
        return 2;
    if (init && !engine_nets[size]) {
        fprintf(stderr, "tune net: --init: this tuner has no network for size %d\n", size);
        return 1;
    }
    if (init && hidden && hidden != engine_nets[size]->hidden) {
        fprintf(stderr, "tune net: --init goes on from a network of %d hidden units, not --hidden %d\n",
                engine_nets[size]->hidden, hidden);
        return 1;
    }
    if (!hidden) hidden = init ? engine_nets[size]->hidden : NET_HIDDEN_DEFAULT;
    if (!engine_net_width_ok(hidden)) {
        fprintf(stderr, "tune net: --hidden %d: a multiple of %d from %d to %d\n", hidden, NET_BLOCK, NET_BLOCK,
                NET_HIDDEN_MAX);
        return 1;
    }
    KeySet set = {0};
    if (held && !heldout_read(&set, heldout, held, size, "tune net")) {
        free(set.keys);
        return 1;
    }
    /* The held-out targets keep their own scores (td 0), so fits are judged on one scale. */
    Reading how = {size, td, k, held ? &set : NULL, 0, 0}, how_valid = {size, 0, k, how.heldout, 0, 0};
    NetData train = {0}, test = {0};
    bool read = true;
    for (; a < argc && read; a++) read = net_read(argv[a], &how, lambda, &train);
    if (read && valid) read = net_read(valid, &how_valid, valid_lambda, &test);
    how.games_out += how_valid.games_out, how.lines_out += how_valid.lines_out;
    free(set.keys);
    if (!read) return 1;
    heldout_report(&how, "tune net");
    if (train.n < 1000) {
        fprintf(stderr, "tune net: %zu positions of size %d, too few\n", train.n, size);
        return 1;
    }
    int inputs = engine_net_input_count(size);
    /* map[sym][input]: each input under each symmetry. */
    uint16_t *map = malloc(8 * (size_t)inputs * sizeof *map);
    size_t nw = (size_t)inputs * hidden;
    NetParams p = {0}, g = {0}, m = {0}, v = {0};
    bool allocated = net_params_alloc(&p, inputs, hidden) & net_params_alloc(&g, inputs, hidden) &
                     net_params_alloc(&m, inputs, hidden) & net_params_alloc(&v, inputs, hidden);
    size_t *order = malloc(train.n * sizeof *order);
    if (!map || !allocated || !order) {
        fprintf(stderr, "tune net: out of memory\n");
        return 1;
    }
    for (int sym = 0; sym < 8; sym++)
        for (int i = 0; i < inputs; i++) map[(size_t)sym * inputs + i] = (uint16_t)engine_net_input_under(size, sym, i);
    uint64_t rng = 12345;
    if (init) {
        const EvalNet *old = engine_nets[size];
        memcpy(p.w1, old->w1, nw * sizeof(float));
        memcpy(p.b1, old->b1, (size_t)hidden * sizeof(float));
        memcpy(p.w2, old->w2, (size_t)hidden * sizeof(float));
        p.b2 = old->b2;
    } else {
        for (size_t i = 0; i < nw; i++) p.w1[i] = (float)(((double)(rng_next(&rng) % 20001) / 10000.0 - 1) * 0.05);
        for (int j = 0; j < hidden; j++) p.b1[j] = 0.5f;
    }
    fprintf(stderr, "size %d: %zu positions (%zu held out), %d inputs, %d hidden units; loss of %s %.5f (held out"
                    " %.5f)\n",
            size, train.n, test.n, inputs, hidden, init ? "the built-in network" : "the linear terms",
            net_loss(&p, &train, map, inputs, k), net_loss(&p, &test, map, inputs, k));
    for (size_t i = 0; i < train.n; i++) order[i] = i;
    const size_t batch = 256;
    int t = 0;
    for (int ep = 1; ep <= epochs; ep++) {
        for (size_t i = train.n - 1; i > 0; i--) {
            size_t j = rng_next(&rng) % (i + 1), x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        double sum = 0, rate = ep > epochs * 3 / 4 ? lr / 4 : lr;
        for (size_t s = 0; s < train.n; s += batch) {
            size_t end = s + batch < train.n ? s + batch : train.n;
            memset(g.w1, 0, nw * sizeof(float));
            memset(g.b1, 0, (size_t)hidden * sizeof(float));
            memset(g.w2, 0, (size_t)hidden * sizeof(float));
            g.b2 = 0;
            for (size_t i = s; i < end; i++)
                sum += net_sample(&p, &train, order[i], map, inputs, (int)(rng_next(&rng) % 8), k, &g);
            t++;
            double scale = 1.0 / (double)(end - s);
            adam_step(p.w1, g.w1, m.w1, v.w1, nw, rate, scale, decay, t);
            adam_step(p.b1, g.b1, m.b1, v.b1, (size_t)hidden, rate, scale, 0, t);
            adam_step(p.w2, g.w2, m.w2, v.w2, (size_t)hidden, rate, scale, 0, t);
            adam_step(&p.b2, &g.b2, &m.b2, &v.b2, 1, rate, scale, 0, t);
        }
        fprintf(stderr, "  epoch %d: loss %.5f (held out %.5f)\n", ep, sum / (double)train.n,
                net_loss(&p, &test, map, inputs, k));
    }
    if (epochs > 0) {
        /* An input the data showed fewer than NET_MIN_SEEN times (under any
         * symmetry) has learned nothing: its row is its random start, noise
         * for the positions that have it and bytes the page must download
         * (random weights do not compress). Such rows are written as 0, as
         * tune fit gives a rare feature no weight. (Not with --init: the
         * network it starts from may have learnt them from other data.) */
        size_t *seen = calloc((size_t)inputs, sizeof *seen);
        if (!seen) {
            fprintf(stderr, "tune net: out of memory\n");
            return 1;
        }
        for (size_t i = 0; i < train.idx_n; i++)
            for (int sym = 0; sym < 8; sym++) seen[map[(size_t)sym * inputs + train.idx[i]]]++;
        int cleared = 0;
        for (int i = 0; i < inputs && !init; i++)
            if (seen[i] < NET_MIN_SEEN) {
                memset(p.w1 + (size_t)i * hidden, 0, (size_t)hidden * sizeof(float));
                cleared++;
            }
        free(seen);
        fprintf(stderr, "fitted: loss %.5f (held out %.5f); %d of %d inputs seen fewer than %d times, their"
                        " weights 0\n",
                net_loss(&p, &train, map, inputs, k), net_loss(&p, &test, map, inputs, k), cleared, inputs,
                NET_MIN_SEEN);
    }
    bool ok = save_net(argv[2], size, &p, argc, argv);
    free(map), free(order);
    net_params_free(&p), net_params_free(&g), net_params_free(&m), net_params_free(&v);
    free(train.idx), free(train.start), free(train.lin), free(train.tgt);
    free(test.idx), free(test.start), free(test.lin), free(test.tgt);
    return ok ? 0 : 1;
}

/* ---- tune policy: the move policy (src/engine/policy.c) ---------------- */

/* The first ply whose move a policy learns from: tune gen's games begin
 * with up to six random plies. */
#define POLICY_FIRST_PLY 6
#define POLICY_VALID_EVERY 20 /* one position in this many judges the fit */
#define POLICY_MIN_POSITIONS 200 /* fewer to fit: refused */

/* A position's legal moves as features, and which of them was played. */
typedef struct PolicyMove {
    uint8_t n, f[POLICY_ACTIVE];
} PolicyMove;

typedef struct PolicySet {
    PolicyMove *moves;       /* every position's moves, one after another */
    size_t moves_n, moves_cap;
    size_t *first;           /* a position's first move in moves; first[n] = moves_n */
    uint16_t *played, *pref; /* the move played; its place by order_preference's order */
    size_t n, cap;
} PolicySet;

typedef struct PolicyReading {
    TakPosition prev; /* the last position offered, whose successor may follow */
    bool have;
    long unmatched;   /* a line one ply after the last that no move reaches */
    PolicySet train, valid;
    TakMoveList list;
} PolicyReading;

static bool policy_grow(PolicySet *s, int moves) {
    if (s->n + 2 > s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4096;
        size_t *first = realloc(s->first, s->cap * sizeof *first);
        if (first) s->first = first;
        uint16_t *played = realloc(s->played, s->cap * sizeof *played);
        if (played) s->played = played;
        uint16_t *pref = realloc(s->pref, s->cap * sizeof *pref);
        if (pref) s->pref = pref;
        if (!first || !played || !pref) return false;
    }
    while (s->moves_n + (size_t)moves > s->moves_cap) {
        s->moves_cap = s->moves_cap ? 2 * s->moves_cap : 1 << 16;
        PolicyMove *grown = realloc(s->moves, s->moves_cap * sizeof *grown);
        if (!grown) return false;
        s->moves = grown;
    }
    return true;
}

/* A line one ply after the one before (the move between them is the one
 * the game's search played) makes a sample of the one before. */
static bool take_policy(const DataLine *d, const BoardMasks *m, void *user) {
    PolicyReading *r = user;
    TakPosition prev = r->prev;
    bool follows = r->have && d->pos.ply == prev.ply + 1 && prev.ply >= POLICY_FIRST_PLY;
    r->prev = d->pos;
    r->have = true;
    if (!follows) return true;
    int n = tak_moves_generate(&prev, &r->list), played = -1;
    for (int i = 0; i < n && played < 0; i++) {
        TakUndo u;
        tak_position_make(&prev, r->list.moves[i], &u);
        if (prev.hash == d->pos.hash && prev.owner[0] == d->pos.owner[0] && prev.owner[1] == d->pos.owner[1])
            played = i;
        tak_position_unmake(&prev, r->list.moves[i], &u);
    }
    if (played < 0) {
        r->unmatched++;
        return true;
    }
    PolicySet *s = prev.hash % POLICY_VALID_EVERY == 0 ? &r->valid : &r->train;
    if (!policy_grow(s, n)) {
        fprintf(stderr, "tune policy: out of memory\n");
        return false;
    }
    PolicyNode node = policy_node(&prev, m);
    int pref = order_preference(r->list.moves[played]), place = 0;
    s->first[s->n] = s->moves_n;
    for (int i = 0; i < n; i++) {
        PolicyMove *pm = &s->moves[s->moves_n++];
        pm->n = (uint8_t)policy_features(&prev, m, &node, r->list.moves[i], pm->f);
        place += order_preference(r->list.moves[i]) > pref;
    }
    s->played[s->n] = (uint16_t)played;
    s->pref[s->n] = (uint16_t)place;
    s->n++;
    s->first[s->n] = s->moves_n;
    return true;
}

/* The softmax of one position's moves under `w` into p; returns the log of
 * the played move's probability. */
static double policy_softmax(const PolicySet *s, size_t k, const double *w, double *p) {
    size_t a = s->first[k], n = s->first[k + 1] - a;
    double top = -1e300, sum = 0;
    for (size_t i = 0; i < n; i++) {
        const PolicyMove *pm = &s->moves[a + i];
        double z = 0;
        for (int j = 0; j < pm->n; j++) z += w[pm->f[j]];
        p[i] = z;
        top = z > top ? z : top;
    }
    for (size_t i = 0; i < n; i++) sum += p[i] = exp(p[i] - top);
    for (size_t i = 0; i < n; i++) p[i] /= sum;
    return log(p[s->played[k]] > 1e-300 ? p[s->played[k]] : 1e-300);
}

/* Loss (mean negative log-likelihood), the share of positions whose played
 * move comes first, and the played move's mean place, under `w`; and the
 * mean place by order_preference (ties after). */
static void policy_judge(const PolicySet *s, const double *w, double *p, const char *name) {
    double loss = 0, place = 0, pref_place = 0;
    long first = 0;
    for (size_t k = 0; k < s->n; k++) {
        loss -= policy_softmax(s, k, w, p);
        size_t n = s->first[k + 1] - s->first[k];
        int ahead = 0;
        for (size_t i = 0; i < n; i++) ahead += p[i] > p[s->played[k]];
        first += ahead == 0;
        place += ahead;
        pref_place += s->pref[k];
    }
    double n = s->n ? (double)s->n : 1;
    fprintf(stderr, "tune policy: %s %zu positions: loss %.4f, played move first %.1f%%, its mean place %.2f"
                    " (%.2f by the fixed preference)\n",
            name, s->n, loss / n, 100.0 * first / n, place / n, pref_place / n);
}

static void policy_free(PolicySet *s) {
    free(s->moves), free(s->first), free(s->played), free(s->pref);
}

/* Writes policy_weights.c with `w` for `size` (as POLICY_UNIT-ths) and the
 * other sizes' tables as they are, through a temporary file. */
static bool save_policy(const char *path, int size, const double *w, int argc, char **argv) {
    int16_t q[POLICY_FEATURES];
    for (int i = 0; i < POLICY_FEATURES; i++) {
        double v = w[i] * POLICY_UNIT;
        if (!isfinite(v) || fabs(v) > 32767) {
            fprintf(stderr, "tune policy: weight %d is %g: nothing written\n", i, w[i]);
            return false;
        }
        q[i] = (int16_t)lround(v);
    }
    char tmp[TEMPORARY_MAX], made_by[1024];
    made_by_text(made_by, sizeof made_by, argc, argv);
    FILE *out = open_temporary(path, tmp);
    if (!out) return false;
    fprintf(out, "/*\n * policy_weights.c: the move policy's weights by board size (policy.c),\n"
                 " * in POLICY_UNIT-ths of a logit, written by `tune policy` (each table's\n"
                 " * made_by says how); a size without one is ordered by history and a\n"
                 " * fixed preference alone (ordering.c).\n */\n#include \"internal.h\"\n");
    for (int s = TAK_MIN_SIZE; s <= TAK_MAX_SIZE; s++) {
        const int16_t *old = policy_weights[s];
        if (s != size && !old) continue;
        const int16_t *t = s == size ? q : old;
        fprintf(out, "\nstatic const int16_t policy_%d[POLICY_FEATURES] = {", s);
        for (int i = 0; i < POLICY_FEATURES; i++) fprintf(out, "%s%d,", i % 16 ? " " : "\n    ", t[i]);
        fprintf(out, "\n};\n");
    }
    fprintf(out, "\nconst int16_t *const policy_weights[TAK_MAX_SIZE + 1] = {");
    for (int s = TAK_MIN_SIZE; s <= TAK_MAX_SIZE; s++)
        if (s == size || policy_weights[s]) fprintf(out, "[%d] = policy_%d, ", s, s);
    fprintf(out, "};\n\nconst char *const policy_made_by[TAK_MAX_SIZE + 1] = {");
    for (int s = TAK_MIN_SIZE; s <= TAK_MAX_SIZE; s++) {
        const char *by = s == size ? made_by : policy_weights[s] ? policy_made_by[s] : NULL;
        if (by) fprintf(out, "\n    [%d] = \"%s\",", s, by);
    }
    fprintf(out, "\n};\n");
    return commit_file(out, tmp, path);
}

/* tune policy OUT.c SIZE [--epochs N] [--lr R] [--l2 L] [--heldout FILE]... DATA... */
static int cmd_policy(int argc, char **argv) {
    if (argc < 5) return 2;
    int size = atoi(argv[3]), epochs = 8, held = 0;
    double lr = 0.01, l2 = 1e-6;
    const char *heldout[MAX_HELDOUT_FILES];
    int a = 4;
    for (; a + 1 < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
        if (strcmp(argv[a], "--epochs") == 0) epochs = whole(argv[a + 1]);
        else if (strcmp(argv[a], "--lr") == 0) lr = number(argv[a + 1]);
        else if (strcmp(argv[a], "--l2") == 0) l2 = number(argv[a + 1]);
        else if (strcmp(argv[a], "--heldout") == 0 && held < MAX_HELDOUT_FILES) heldout[held++] = argv[a + 1];
        else return 2;
    }
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE || epochs < 0 || !(lr > 0) || !(l2 >= 0) || a >= argc)
        return 2;
    KeySet set = {0};
    if (held && !heldout_read(&set, heldout, held, size, "tune policy")) {
        free(set.keys);
        return 1;
    }
    Reading how = {size, 0, 0, held ? &set : NULL, 0, 0};
    static PolicyReading r;
    bool ok = true;
    for (; a < argc && ok; a++) {
        r.have = false; /* no sample spans two files */
        ok = read_samples(argv[a], &how, take_policy, &r);
    }
    free(set.keys);
    double *w = calloc(POLICY_FEATURES, sizeof *w), *p = malloc(TAK_MAX_MOVES * sizeof *p);
    size_t *order = malloc((r.train.n ? r.train.n : 1) * sizeof *order);
    if (ok && (!w || !p || !order)) {
        fprintf(stderr, "tune policy: out of memory\n");
        ok = false;
    }
    if (ok && r.train.n < POLICY_MIN_POSITIONS) {
        fprintf(stderr, "tune policy: %zu positions of size %d with the move played: too few to fit\n",
                r.train.n, size);
        ok = false;
    }
    if (ok) {
        heldout_report(&how, "tune policy");
        fprintf(stderr, "tune policy: %zu positions (%zu moves) to fit, %zu to judge; %ld lines no move"
                        " reached\n", r.train.n, r.train.moves_n, r.valid.n, r.unmatched);
        uint64_t rng = 12345;
        for (size_t k = 0; k < r.train.n; k++) order[k] = k;
        for (int e = 0; e < epochs; e++) {
            for (size_t k = r.train.n; k > 1; k--) { /* a fresh order each epoch */
                size_t j = rng_next(&rng) % k, t = order[k - 1];
                order[k - 1] = order[j], order[j] = t;
            }
            double rate = lr * (1.0 - (double)e / (epochs + 1));
            for (size_t k = 0; k < r.train.n; k++) {
                size_t i = order[k], first = r.train.first[i], n = r.train.first[i + 1] - first;
                policy_softmax(&r.train, i, w, p);
                p[r.train.played[i]] -= 1; /* the gradient of the loss by each move's logit */
                for (size_t m = 0; m < n; m++) {
                    const PolicyMove *pm = &r.train.moves[first + m];
                    for (int j = 0; j < pm->n; j++) w[pm->f[j]] -= rate * p[m];
                }
                if (l2 > 0 && k % 64 == 0)
                    for (int j = 0; j < POLICY_FEATURES; j++) w[j] -= rate * 64 * l2 * w[j];
            }
            fprintf(stderr, "tune policy: epoch %d of %d\n", e + 1, epochs);
            policy_judge(&r.valid, w, p, "judged on");
        }
        policy_judge(&r.train, w, p, "fitted to");
        ok = save_policy(argv[2], size, w, argc, argv);
    }
    free(w), free(p), free(order);
    policy_free(&r.train), policy_free(&r.valid);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    int rc = 2;
    if (argc >= 2 && strcmp(argv[1], "gen") == 0) rc = cmd_gen(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "ptn") == 0) rc = cmd_ptn(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "score") == 0) rc = cmd_score(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "fit") == 0) rc = cmd_fit(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "carry") == 0) rc = cmd_carry(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "net") == 0) rc = cmd_net(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "heldout") == 0) rc = cmd_heldout(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "policy") == 0) rc = cmd_policy(argc, argv);
    if (rc == 2)
        fprintf(stderr, "usage: tune gen SIZE GAMES NODES SEED [HALF_KOMI] [--book FILE] [--scores]\n"
                        "                [--heldout FILE]\n"
                        "       tune ptn FILE...\n"
                        "       tune heldout SIZE HELDOUT... -- DATA...\n"
                        "       tune score NODES [--sizes 56] DATA...\n"
                        "       tune fit OUT.c [--k K] [--iterations N] [--sizes 3456] [--lambda L]\n"
                        "                [--games OTHER] [--heldout FILE]... DATA...\n"
                        "       tune carry OUT.c FROM TO...\n"
                        "       tune net OUT.c SIZE [--k K] [--lambda L] [--td T] [--epochs N] [--lr R]\n"
                        "                [--decay D] [--hidden H] [--valid FILE] [--valid-lambda L] [--init]\n"
                        "                [--heldout FILE]... DATA...\n"
                        "       tune policy OUT.c SIZE [--epochs N] [--lr R] [--l2 L] [--heldout FILE]... DATA...\n");
    return rc;
}
