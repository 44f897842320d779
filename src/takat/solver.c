/*
 * solver.c: solving TAKAT by retrograde analysis. The positions reachable
 * from a root are enumerated breadth first (a hash set of exact keys, the
 * turns stored as a compressed child list), then values are settled pass by
 * pass: pass k settles the positions won or lost in exactly k turns, so the
 * distances are exact and a perfect player can always make progress. What no
 * pass settles is a draw, which is the project's repetition rule.
 *
 * The ko is dropped from a position's key when it cannot matter (the side to
 * move could not lift that stone anyway, or Black must drop): such positions
 * have the same turns and the same value.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UNSETTLED 0xFFFFu
/* Child codes for a turn that makes a stack of six: the game is over. */
#define CHILD_SIX ((uint32_t)0xFFFFFFFFu)

struct TakatSolution {
    uint64_t *keys;     /* index -> canonical key */
    uint32_t *slots;    /* hash table of index + 1; 0 = empty */
    uint64_t cap;       /* slots, a power of two */
    uint64_t count;
    uint8_t *value;     /* TakatValue per index */
    uint16_t *distance; /* turns to the end with best play; UNSETTLED for draws */
    uint8_t total[2];   /* the root's stones in all (a reduced game has fewer) */
    TakatSolveStats stats;
};

/* The position of key `key` in the solution's game. */
static void position_of(const TakatSolution *sol, uint64_t key, TakatPosition *pos) {
    takat_position_from_key(key, pos);
    pos->total[0] = sol->total[0];
    pos->total[1] = sol->total[1];
}

/* The key with an irrelevant ko removed. */
static uint64_t canonical_key(const TakatPosition *pos) {
    TakatPosition p = *pos;
    if (p.ko < TAKAT_CELLS && (!takat_can_lift(&p, p.ko, p.side) || takat_forced_drop(&p)))
        p.ko = TAKAT_NO_CELL;
    return takat_position_key(&p);
}

/* The index of `key`, or -1. */
static int64_t find(const TakatSolution *sol, uint64_t key) {
    uint64_t mask = sol->cap - 1;
    for (uint64_t h = tak_random_mix(key) & mask;; h = (h + 1) & mask) {
        uint32_t s = sol->slots[h];
        if (s == 0) return -1;
        if (sol->keys[s - 1] == key) return (int64_t)(s - 1);
    }
}

static bool rehash(TakatSolution *sol, uint64_t cap) {
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    free(sol->slots);
    sol->slots = slots;
    sol->cap = cap;
    for (uint64_t i = 0; i < sol->count; i++) {
        uint64_t h = tak_random_mix(sol->keys[i]) & (cap - 1);
        while (slots[h]) h = (h + 1) & (cap - 1);
        slots[h] = (uint32_t)(i + 1);
    }
    return true;
}

/* A growable array of 32- or 64-bit words. */
typedef struct {
    void *data;
    uint64_t n, cap;
    size_t size;
} Vec;

static bool vec_reserve(Vec *v, uint64_t n) {
    if (n <= v->cap) return true;
    uint64_t cap = v->cap ? v->cap : 1024;
    while (cap < n) cap *= 2;
    void *data = realloc(v->data, cap * v->size);
    if (!data) return false;
    v->data = data;
    v->cap = cap;
    return true;
}

/* Adds `key` when new (also to sol->keys through `keys`); returns its index or
 * -1 when out of memory. */
static int64_t intern(TakatSolution *sol, Vec *keys, uint64_t key) {
    int64_t i = find(sol, key);
    if (i >= 0) return i;
    if ((sol->count + 1) * 2 > sol->cap && !rehash(sol, sol->cap * 2)) return -1;
    if (!vec_reserve(keys, sol->count + 1)) return -1;
    sol->keys = keys->data;
    sol->keys[sol->count] = key;
    uint64_t h = tak_random_mix(key) & (sol->cap - 1);
    while (sol->slots[h]) h = (h + 1) & (sol->cap - 1);
    sol->slots[h] = (uint32_t)(sol->count + 1);
    keys->n = ++sol->count;
    return (int64_t)(sol->count - 1);
}

void takat_solution_free(TakatSolution *sol) {
    if (!sol) return;
    free(sol->keys);
    free(sol->slots);
    free(sol->value);
    free(sol->distance);
    free(sol);
}

/* Pass by pass settling over the stored graph (see the file comment). */
static void settle(TakatSolution *sol, const uint64_t *first, const uint32_t *child,
                   TakatSolveProgress progress, void *user) {
    uint64_t n = sol->count;
    uint8_t *value = sol->value;
    uint16_t *dist = sol->distance;
    for (uint64_t i = 0; i < n; i++) dist[i] = UNSETTLED;
    TakatSolveStats *st = &sol->stats;
    for (int pass = 0; pass < (int)UNSETTLED; pass++) {
        uint64_t settled = 0;
        for (uint64_t i = 0; i < n; i++) {
            if (dist[i] != UNSETTLED) continue;
            bool win = false, all_won = true;
            int longest = -1;
            for (uint64_t e = first[i]; e < first[i + 1]; e++) {
                uint32_t c = child[e];
                int cv, cd;
                if (c == CHILD_SIX) {
                    /* Over at once: won for White, so a win for the mover if White. */
                    cv = (sol->keys[i] >> 49 & 1) == TAKAT_WHITE ? TAKAT_VALUE_LOSS
                                                                  : TAKAT_VALUE_WIN;
                    cd = 0;
                } else {
                    cd = dist[c];
                    cv = value[c];
                }
                /* Only what earlier passes settled counts: exact distances. */
                if (cd == (int)UNSETTLED || cd >= pass) {
                    all_won = false;
                    continue;
                }
                if (cv == TAKAT_VALUE_LOSS) {
                    win = true;
                    break;
                }
                if (cd > longest) longest = cd;
            }
            if (win) {
                value[i] = TAKAT_VALUE_WIN;
            } else if (all_won && longest == pass - 1) {
                value[i] = TAKAT_VALUE_LOSS; /* also no turn at all, in pass 0 */
            } else {
                continue;
            }
            dist[i] = (uint16_t)pass;
            settled++;
        }
        /* Nothing settled in a pass after the first two: nothing ever will
         * be (pass 1 may settle nothing while a six-making win waits). */
        if (settled == 0 && pass > 1) break;
        st->passes = pass + 1;
        if (settled) st->longest = pass;
        if (progress) progress("retrograde", st, user);
    }
    st->wins = st->losses = st->draws = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (dist[i] == UNSETTLED) value[i] = TAKAT_VALUE_DRAW;
        st->wins += value[i] == TAKAT_VALUE_WIN;
        st->losses += value[i] == TAKAT_VALUE_LOSS;
        st->draws += value[i] == TAKAT_VALUE_DRAW;
    }
}

TakatSolution *takat_solve(const TakatPosition *root, uint64_t max_positions,
                           TakatSolveProgress progress, void *user, TakatSolveStats *stats,
                           TakError *err) {
    double t0 = takat_seconds();
    TakatPosition start;
    if (!root) {
        takat_position_start(&start);
        root = &start;
    }
    TakatSolution *sol = calloc(1, sizeof *sol);
    Vec keys = {NULL, 0, 0, sizeof(uint64_t)};
    Vec first = {NULL, 0, 0, sizeof(uint64_t)};
    Vec child = {NULL, 0, 0, sizeof(uint32_t)};
    if (sol) {
        sol->total[0] = root->total[0];
        sol->total[1] = root->total[1];
    }
    bool ok = sol && rehash(sol, 1 << 16) && intern(sol, &keys, canonical_key(root)) == 0;
    if (max_positions > UINT32_MAX - 2) max_positions = UINT32_MAX - 2;
    const char *why = "out of memory";

    /* Breadth first: index i's children are interned as i is expanded, so
     * first[i]..first[i+1] are its turns in child[]. */
    for (uint64_t i = 0; ok && i < sol->count; i++) {
        TakatPosition pos;
        position_of(sol, sol->keys[i], &pos);
        TakatTurnList list;
        int n = takat_has_six(&pos) ? 0 : takat_turns_generate(&pos, &list);
        ok = vec_reserve(&first, i + 2) && vec_reserve(&child, child.n + (uint64_t)n);
        if (!ok) break;
        ((uint64_t *)first.data)[i] = child.n;
        for (int t = 0; t < n; t++) {
            TakatPosition next = pos;
            takat_position_apply(&next, list.turns[t]);
            int64_t c = CHILD_SIX;
            if (!takat_has_six(&next)) {
                c = intern(sol, &keys, canonical_key(&next));
                if (c < 0) {
                    ok = false;
                    break;
                }
            }
            ((uint32_t *)child.data)[child.n++] = (uint32_t)c;
        }
        if (sol->count > max_positions) {
            ok = false;
            why = "position limit reached";
        }
        if (progress && (i & 0xFFFFF) == 0) {
            sol->stats.positions = sol->count;
            sol->stats.links = child.n;
            sol->stats.seconds = takat_seconds() - t0;
            progress("enumerate", &sol->stats, user);
        }
    }
    if (ok) ((uint64_t *)first.data)[sol->count] = child.n;
    if (sol) {
        sol->stats.positions = sol->count;
        sol->stats.links = child.n;
        sol->stats.complete = ok;
    }
    if (ok) {
        sol->value = calloc(sol->count, 1);
        sol->distance = malloc(sol->count * sizeof *sol->distance);
        ok = sol->value && sol->distance;
    }
    if (ok) settle(sol, first.data, child.data, progress, user);
    free(first.data);
    free(child.data);
    if (sol) sol->stats.seconds = takat_seconds() - t0;
    if (stats) *stats = sol ? sol->stats : (TakatSolveStats){0};
    if (!ok) {
        if (sol)
            tak_error_set(err, "%s after %llu positions", why, (unsigned long long)sol->count);
        else
            tak_error_set(err, "%s", why);
        takat_solution_free(sol);
        return NULL;
    }
    return sol;
}

TakatSolveStats takat_solution_stats(const TakatSolution *sol) { return sol->stats; }

TakatValue takat_solution_value(const TakatSolution *sol, const TakatPosition *pos,
                                int *distance) {
    if (distance) *distance = 0;
    if (takat_has_six(pos))
        return pos->side == TAKAT_WHITE ? TAKAT_VALUE_WIN : TAKAT_VALUE_LOSS;
    int64_t i = find(sol, canonical_key(pos));
    if (i < 0) return TAKAT_VALUE_UNKNOWN;
    if (distance && sol->distance[i] != UNSETTLED) *distance = sol->distance[i];
    return (TakatValue)sol->value[i];
}

uint64_t takat_solution_verify(const TakatSolution *sol) {
    uint64_t bad = 0;
    for (uint64_t i = 0; i < sol->count; i++) {
        TakatPosition pos;
        position_of(sol, sol->keys[i], &pos);
        TakatTurnList list;
        int n = takat_turns_generate(&pos, &list);
        int v = sol->value[i], d = v == TAKAT_VALUE_DRAW ? -1 : sol->distance[i];
        bool to_loss_before = false, any_loss = false, any_draw = false, any_unknown = false;
        int longest_win = -1;
        for (int t = 0; t < n; t++) {
            TakatPosition next = pos;
            takat_position_apply(&next, list.turns[t]);
            int cd;
            TakatValue cv = takat_solution_value(sol, &next, &cd);
            any_unknown |= cv == TAKAT_VALUE_UNKNOWN;
            any_draw |= cv == TAKAT_VALUE_DRAW;
            if (cv == TAKAT_VALUE_LOSS) {
                any_loss = true;
                to_loss_before |= cd == d - 1;
            }
            if (cv == TAKAT_VALUE_WIN && cd > longest_win) longest_win = cd;
        }
        bool sound;
        if (any_unknown)
            sound = false;
        else if (v == TAKAT_VALUE_WIN)
            sound = to_loss_before;
        else if (v == TAKAT_VALUE_LOSS)
            sound = !any_loss && !any_draw && longest_win == d - 1;
        else
            sound = !any_loss && any_draw;
        bad += !sound;
    }
    return bad;
}

/* File: "TAKATSOL" 8 bytes, count (u64), then count x (key u64, value u8,
 * distance u16), little-endian as the machine writes it, then the stats. */
bool takat_solution_save(const TakatSolution *sol, const char *path, TakError *err) {
    if (sol->total[0] != TAKAT_STONES_WHITE || sol->total[1] != TAKAT_STONES_BLACK)
        return tak_error_set(err, "only a table of the real game (6 and 15 stones) is saved");
    FILE *f = fopen(path, "wb");
    if (!f) return tak_error_set(err, "cannot write %s", path);
    bool ok = fwrite("TAKATSOL", 1, 8, f) == 8 && fwrite(&sol->count, 8, 1, f) == 1 &&
              fwrite(&sol->stats, sizeof sol->stats, 1, f) == 1;
    for (uint64_t i = 0; ok && i < sol->count; i++)
        ok = fwrite(&sol->keys[i], 8, 1, f) == 1 && fwrite(&sol->value[i], 1, 1, f) == 1 &&
             fwrite(&sol->distance[i], 2, 1, f) == 1;
    if (fclose(f) != 0) ok = false;
    return ok ? true : tak_error_set(err, "error writing %s", path);
}

TakatSolution *takat_solution_load(const char *path, TakError *err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        tak_error_set(err, "cannot read %s", path);
        return NULL;
    }
    char magic[8];
    uint64_t count = 0;
    TakatSolution *sol = calloc(1, sizeof *sol);
    if (sol) {
        sol->total[0] = TAKAT_STONES_WHITE;
        sol->total[1] = TAKAT_STONES_BLACK;
    }
    bool ok = sol && fread(magic, 1, 8, f) == 8 && memcmp(magic, "TAKATSOL", 8) == 0 &&
              fread(&count, 8, 1, f) == 1 && count < UINT32_MAX &&
              fread(&sol->stats, sizeof sol->stats, 1, f) == 1;
    if (ok) {
        sol->keys = malloc(count * sizeof *sol->keys + 1);
        sol->value = malloc(count + 1);
        sol->distance = malloc(count * sizeof *sol->distance + 1);
        ok = sol->keys && sol->value && sol->distance;
    }
    for (uint64_t i = 0; ok && i < count; i++) {
        TakatPosition p;
        ok = fread(&sol->keys[i], 8, 1, f) == 1 && fread(&sol->value[i], 1, 1, f) == 1 &&
             fread(&sol->distance[i], 2, 1, f) == 1 && sol->value[i] >= TAKAT_VALUE_WIN &&
             sol->value[i] <= TAKAT_VALUE_DRAW && takat_position_from_key(sol->keys[i], &p);
    }
    fclose(f);
    if (ok) {
        sol->count = count;
        uint64_t cap = 1 << 16;
        while (cap < 2 * count + 2) cap *= 2;
        ok = rehash(sol, cap);
    }
    if (!ok) {
        tak_error_set(err, "%s is not a TAKAT solution file (or is damaged)", path);
        takat_solution_free(sol);
        return NULL;
    }
    return sol;
}
