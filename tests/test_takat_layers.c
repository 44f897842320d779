/*
 * test_takat_layers.c: the layer-by-layer solver of TAKAT (layers.c) on
 * reduced games (fewer stones, the same rules), small enough for every run:
 * its values agree with the hash-table solver (takat_solve) on every
 * position reachable from the start (2+3 up to 4+4 stones, the first game
 * where rule 2's two stacks of four can stand), the second path finds its tables
 * consistent and finds a value changed behind its back, a damaged file is
 * refused, and a run stopped after any layer goes on from there. The AI's
 * strongest level, given the tables, never lets a position's value slip and
 * wins what the tables say it wins.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tak/takat.h"

static char *temp_dir(void) {
    char *dir = strdup("/tmp/tak-layers-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

static void remove_dir(char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            remove(path);
        }
    if (d) closedir(d);
    rmdir(dir);
    free(dir);
}

static TakatLayers *solve_all(const char *dir, int white, int black) {
    TakatLayers *layers = takat_layers_open(dir, white, black, NULL);
    assert_non_null(layers);
    for (int n = takat_layers_top(layers); n >= 0; n--) {
        TakError err;
        TakatLayerStats st;
        assert_true(takat_layers_solve(layers, n, 2, &st, &err));
        assert_int_equal(st.layer, n);
        assert_true(st.positions > 0);
        assert_true(st.wins + st.losses + st.draws == st.positions);
    }
    return layers;
}

/* A set of position keys (open addressing), for walking the reachable positions. */
typedef struct KeySet {
    uint64_t *slot;
    size_t cap, count;
} KeySet;

static bool keyset_add(KeySet *s, uint64_t key) {
    size_t mask = s->cap - 1;
    for (size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & mask;; h = (h + 1) & mask) {
        if (s->slot[h] == key + 1) return false;
        if (s->slot[h] == 0) {
            s->slot[h] = key + 1;
            s->count++;
            assert_true(s->count < s->cap / 2);
            return true;
        }
    }
}

/* Every position reachable from the reduced start has one value in both solvers. */
static void check_against_hash_solver(int white, int black) {
    char *dir = temp_dir();
    TakatLayers *layers = solve_all(dir, white, black);
    TakatPosition start;
    takat_position_start_reduced(&start, white, black);
    TakError err;
    TakatSolution *sol = takat_solve(&start, 50000000, NULL, NULL, NULL, &err);
    assert_non_null(sol);

    KeySet seen = {calloc((size_t)1 << 23, sizeof(uint64_t)), (size_t)1 << 23, 0};
    TakatPosition *queue = malloc(((size_t)1 << 22) * sizeof *queue);
    assert_non_null(seen.slot);
    assert_non_null(queue);
    size_t head = 0, tail = 0;
    queue[tail++] = start;
    keyset_add(&seen, takat_position_key(&start));
    uint64_t compared = 0, wins = 0, losses = 0;
    while (head < tail) {
        TakatPosition pos = queue[head++];
        TakatValue a = takat_layers_value(layers, &pos, &err);
        TakatValue b = takat_solution_value(sol, &pos, NULL);
        assert_int_not_equal(a, TAKAT_VALUE_UNKNOWN);
        if (a != b) {
            char buf[TAKAT_POSITION_MAX];
            fail_msg("%s (%d,%d stones): layers say %d, the hash solver %d",
                     takat_position_format(&pos, buf), white, black, a, b);
        }
        compared++;
        wins += a == TAKAT_VALUE_WIN;
        losses += a == TAKAT_VALUE_LOSS;
        if (takat_has_six(&pos)) continue;
        TakatTurnList list;
        int n = takat_turns_generate(&pos, &list);
        for (int i = 0; i < n; i++) {
            TakatPosition next = pos;
            takat_position_apply(&next, list.turns[i]);
            if (keyset_add(&seen, takat_position_key(&next))) {
                assert_true(tail < ((size_t)1 << 22));
                queue[tail++] = next;
            }
        }
    }
    /* Not a vacuous comparison: games of this size have wins and losses. */
    assert_true(compared > 1000);
    assert_true(wins > 0 && losses > 0);
    free(queue);
    free(seen.slot);
    takat_solution_free(sol);
    takat_layers_close(layers);
    remove_dir(dir);
}

static void test_layers_agree_with_hash_solver(void **state) {
    (void)state;
    check_against_hash_solver(2, 3);
    check_against_hash_solver(2, 4);
    check_against_hash_solver(3, 4);
    check_against_hash_solver(4, 4); /* the first with rule 2: two stacks of four */
}

static void test_layers_verify_consistent(void **state) {
    (void)state;
    char *dir = temp_dir();
    TakatLayers *layers = solve_all(dir, 3, 4);
    TakatLayers *again = takat_layers_open(dir, 3, 4, NULL); /* reads the files afresh */
    for (int n = 0; n <= takat_layers_top(again); n++)
        assert_int_equal(takat_layers_verify(again, n, 3, NULL), 0);
    takat_layers_close(again);
    takat_layers_close(layers);
    remove_dir(dir);
}

/* The file format (docs/takat-solution.md): an 80-byte header whose
 * checksum, FNV-1a 64 over the 64-bit words of values, is at byte 64, then
 * the values, 2 bits a position, 32 to a word. */
static unsigned char *read_file(const char *path, long *size) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)*size);
    assert_int_equal(fread(data, 1, (size_t)*size, f), (size_t)*size);
    fclose(f);
    return data;
}

static void write_file(const char *path, const unsigned char *data, long size) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
}

static void test_layers_damage_and_tampering(void **state) {
    (void)state;
    char *dir = temp_dir();
    takat_layers_close(solve_all(dir, 2, 4));
    char path[512];
    snprintf(path, sizeof path, "%s/takat-2-4-layer05.bin", dir);
    long size;
    unsigned char *data = read_file(path, &size);
    assert_true(size > 80);

    /* A flipped byte: refused by its checksum, named in the error. */
    unsigned char *bad = malloc((size_t)size);
    memcpy(bad, data, (size_t)size);
    bad[size / 2] ^= 0x40;
    write_file(path, bad, size);
    TakatLayers *layers = takat_layers_open(dir, 2, 4, NULL);
    TakError err;
    assert_int_equal(takat_layers_verify(layers, 5, 2, &err), UINT64_MAX);
    assert_non_null(strstr(err.message, "checksum"));
    takat_layers_close(layers);

    /* A win turned into a loss with the checksum made good: the second path
     * still finds it, since the value no longer follows from the turns. */
    memcpy(bad, data, (size_t)size);
    long at = 80;
    while (at < size && (bad[at] & 3) != 1) at++;
    assert_true(at < size);
    bad[at] ^= 3;
    uint64_t h = 1469598103934665603ull;
    for (long i = 80; i + 8 <= size; i += 8) {
        uint64_t word;
        memcpy(&word, bad + i, 8);
        h ^= word;
        h *= 1099511628211ull;
    }
    memcpy(bad + 64, &h, 8);
    write_file(path, bad, size);
    layers = takat_layers_open(dir, 2, 4, NULL);
    uint64_t found = takat_layers_verify(layers, 5, 2, &err);
    assert_true(found >= 1 && found != UINT64_MAX);
    takat_layers_close(layers);

    /* Cut short: looking a position up (which maps the file rather than
     * reading it) refuses it by its size. */
    char first[512];
    snprintf(first, sizeof first, "%s/takat-2-4-layer00.bin", dir);
    long first_size;
    unsigned char *start_layer = read_file(first, &first_size);
    write_file(first, start_layer, first_size - 8);
    TakatPosition start;
    takat_position_start_reduced(&start, 2, 4);
    layers = takat_layers_open(dir, 2, 4, NULL);
    assert_int_equal(takat_layers_value(layers, &start, &err), TAKAT_VALUE_UNKNOWN);
    assert_non_null(strstr(err.message, "not the size its header says"));
    takat_layers_close(layers);
    write_file(first, start_layer, first_size);
    layers = takat_layers_open(dir, 2, 4, NULL);
    assert_int_not_equal(takat_layers_value(layers, &start, &err), TAKAT_VALUE_UNKNOWN);
    takat_layers_close(layers);
    free(start_layer);

    /* A layer of another game is not taken for this one's. */
    write_file(path, data, size);
    layers = takat_layers_open(dir, 2, 3, NULL);
    assert_false(takat_layers_have(layers, 5));
    takat_layers_close(layers);
    free(bad);
    free(data);
    remove_dir(dir);
}

/* Stopped after any layer, a run goes on from the files and ends with the
 * same tables as a run that never stopped, whatever the number of threads. */
static void test_layers_resume(void **state) {
    (void)state;
    char *whole = temp_dir(), *parts = temp_dir();
    takat_layers_close(solve_all(whole, 2, 4));
    TakatLayers *layers = takat_layers_open(parts, 2, 4, NULL);
    int top = takat_layers_top(layers);
    assert_false(takat_layers_have(layers, top));
    assert_false(takat_layers_solve(layers, top - 1, 1, NULL, NULL)); /* needs the layer above */
    for (int n = top; n >= 3; n--) assert_true(takat_layers_solve(layers, n, 1, NULL, NULL));
    takat_layers_close(layers);
    layers = takat_layers_open(parts, 2, 4, NULL);
    assert_true(takat_layers_have(layers, 3));
    assert_false(takat_layers_have(layers, 2));
    for (int n = 2; n >= 0; n--) assert_true(takat_layers_solve(layers, n, 7, NULL, NULL));
    TakatLayers *ref = takat_layers_open(whole, 2, 4, NULL);
    for (int n = 0; n <= top; n++) {
        TakatLayerStats a, b;
        assert_true(takat_layers_stats(layers, n, &a));
        assert_true(takat_layers_stats(ref, n, &b));
        assert_true(a.positions == b.positions && a.wins == b.wins && a.losses == b.losses &&
                    a.draws == b.draws && a.checksum == b.checksum);
    }
    TakatPosition start;
    takat_position_start_reduced(&start, 2, 4);
    assert_int_equal(takat_layers_value(layers, &start, NULL),
                     takat_layers_value(ref, &start, NULL));
    /* A position of the real game is not looked up in a reduced game's tables. */
    TakatPosition real;
    takat_position_start(&real);
    TakError err;
    assert_int_equal(takat_layers_value(layers, &real, &err), TAKAT_VALUE_UNKNOWN);
    takat_layers_close(ref);
    takat_layers_close(layers);
    remove_dir(whole);
    remove_dir(parts);
}

/* The value of the position for `color`: 2 won, 1 drawn, 0 lost. */
static int value_for(TakatLayers *layers, const TakatPosition *pos, int color) {
    TakatValue v = takat_layers_value(layers, pos, NULL);
    assert_int_not_equal(v, TAKAT_VALUE_UNKNOWN);
    if (v == TAKAT_VALUE_DRAW) return 1;
    return (v == TAKAT_VALUE_WIN) == (pos->side == color) ? 2 : 0;
}

/* Stopped within a layer after every piece of every round (the stop flag
 * is up from the start, so each call does one piece, saves and gives up),
 * a run goes on from the saved point each time and ends with the same
 * values and figures as a run that never stopped (not always the same
 * number of rounds: with two threads a round may decide some positions of
 * the next, as the order of the threads' work allows). */
static void test_layers_resume_within_a_layer(void **state) {
    (void)state;
    char *whole = temp_dir(), *parts = temp_dir();
    TakatLayers *ref = solve_all(whole, 3, 4);
    TakatLayers *layers = takat_layers_open(parts, 3, 4, NULL);
    volatile sig_atomic_t stop = 1;
    takat_layers_on_checkpoint(layers, -1, &stop);
    int stops = 0, resumed = 0;
    char part[600];
    for (int n = takat_layers_top(layers); n >= 0; n--) {
        snprintf(part, sizeof part, "%s/takat-3-4-layer%02d.part", parts, n);
        TakError err;
        TakatLayerStats a, b;
        while (!takat_layers_solve(layers, n, 2, &a, &err)) {
            assert_non_null(strstr(err.message, "saved"));
            assert_int_equal(access(part, R_OK), 0);
            assert_true(++stops < 100000);
        }
        assert_int_not_equal(access(part, F_OK), 0); /* removed once the layer is written */
        resumed += a.resumed_round >= 0;
        assert_true(takat_layers_stats(ref, n, &b));
        assert_true(a.checksum == b.checksum && a.wins == b.wins &&
                    a.losses == b.losses && a.draws == b.draws);
    }
    assert_true(stops > 20 && resumed >= 2); /* it did stop, in several layers */
    /* A damaged saved point is refused, not taken up. */
    stop = 1;
    snprintf(part, sizeof part, "%s/takat-3-4-layer%02d.part", whole, 6);
    remove(part);
    char bin[600];
    snprintf(bin, sizeof bin, "%s/takat-3-4-layer%02d.bin", whole, 6);
    remove(bin);
    TakError err;
    takat_layers_on_checkpoint(ref, -1, &stop);
    assert_false(takat_layers_solve(ref, 6, 1, NULL, &err));
    FILE *f = fopen(part, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 200, SEEK_SET), 0);
    int c = fgetc(f);
    assert_int_equal(fseek(f, 200, SEEK_SET), 0);
    fputc(c ^ 0x10, f);
    fclose(f);
    stop = 0;
    assert_false(takat_layers_solve(ref, 6, 1, NULL, &err));
    assert_non_null(strstr(err.message, "checksum"));
    remove(part);
    assert_true(takat_layers_solve(ref, 6, 1, NULL, &err)); /* from its start again */
    takat_layers_close(ref);
    takat_layers_close(layers);
    remove_dir(whole);
    remove_dir(parts);
}

/* Level 10 with the tables plays `perfect`, the other side plays at random
 * (or also level 10): the perfect side's value never drops, and once won the
 * game ends in its win, with no draw by repetition on the way. */
static void play_against(TakatLayers *layers, int white, int black, int perfect, bool both,
                         uint64_t seed) {
    TakatGame *game = malloc(sizeof *game);
    assert_non_null(game);
    TakatPosition start;
    takat_position_start_reduced(&start, white, black);
    takat_game_init(game, &start);
    int value = value_for(layers, &game->pos, perfect), turns = 0;
    while (game->result == TAKAT_ONGOING && turns < 400) {
        TakatTurn t;
        if (game->pos.side == perfect || both) {
            t = takat_ai_choose_in_game(game, 10, NULL, layers, &seed);
        } else {
            TakatTurnList list;
            int n = takat_turns_generate(&game->pos, &list);
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            t = list.turns[(seed >> 33) % (uint64_t)n];
        }
        assert_true(takat_game_play(game, t, NULL));
        turns++;
        if (game->result != TAKAT_ONGOING || takat_has_six(&game->pos)) break;
        int now = value_for(layers, &game->pos, perfect);
        assert_true(now >= value);
        value = now;
    }
    int won = perfect == TAKAT_WHITE ? TAKAT_WHITE_WINS : TAKAT_BLACK_WINS;
    if (value == 2) assert_int_equal(game->result, won);
    if (value == 1) assert_true(game->result != (TakatResult)(won == TAKAT_WHITE_WINS ? TAKAT_BLACK_WINS : TAKAT_WHITE_WINS));
    free(game);
}

static void test_layers_perfect_play(void **state) {
    (void)state;
    char *dir = temp_dir();
    TakatLayers *layers = solve_all(dir, 3, 5); /* White to move loses */
    TakatPosition start;
    takat_position_start_reduced(&start, 3, 5);
    assert_int_equal(takat_layers_value(layers, &start, NULL), TAKAT_VALUE_LOSS);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        play_against(layers, 3, 5, TAKAT_BLACK, false, seed);
        play_against(layers, 3, 5, TAKAT_WHITE, false, seed);
    }
    play_against(layers, 3, 5, TAKAT_BLACK, true, 7);
    takat_layers_close(layers);
    remove_dir(dir);
    dir = temp_dir();
    layers = solve_all(dir, 2, 3); /* a draw */
    for (uint64_t seed = 1; seed <= 2; seed++) {
        play_against(layers, 2, 3, TAKAT_WHITE, false, seed);
        play_against(layers, 2, 3, TAKAT_BLACK, false, seed);
    }
    takat_layers_close(layers);
    remove_dir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layers_agree_with_hash_solver),
        cmocka_unit_test(test_layers_verify_consistent),
        cmocka_unit_test(test_layers_damage_and_tampering),
        cmocka_unit_test(test_layers_resume),
        cmocka_unit_test(test_layers_resume_within_a_layer),
        cmocka_unit_test(test_layers_perfect_play),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
