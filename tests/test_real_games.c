/*
 * test_real_games.c: every game of ../shared/games/real/ (games played by
 * people and programs elsewhere) replays with tak_ptn_read to the number of
 * plies, final position and result that MANIFEST.tsv lists.
 *
 * The manifest's computed_result is the result on the board after the last
 * ply: a game its players ended by resignation or time has `*` there, whatever
 * its Result tag says. So it is compared with tak_position_result of the final
 * position, and, where the board decided the game, with tak_game_result too.
 * Every game is read once (group setup); each test reports every game it
 * finds wrong, by file name, then fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/support.h"

typedef struct Game {
    char file[64];
    int size;
    char komi[16];
    int plies;
    char computed[16];
    char final_tps[TAK_TPS_MAX];
    bool read; /* tak_ptn_read succeeded */
    char error[TAK_ERROR_MESSAGE_MAX + 48];
    TakPtn ptn;
} Game;

typedef struct Games {
    Game *games;
    int count;
} Games;

#define REAL_DIR "games/real"

/* Splits a TSV line in place; returns the number of fields. */
static int split_tsv(char *line, char *fields[], int max) {
    int n = 0;
    fields[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '\t') {
            *p = '\0';
            fields[n++] = p + 1;
        }
    return n;
}

static void read_game(Game *g) {
    char rel[128], path[1024];
    snprintf(rel, sizeof rel, REAL_DIR "/%s", g->file);
    support_shared_path(rel, path, sizeof path);
    size_t len;
    char *text = support_read_file(path, &len);
    if (text == NULL) {
        snprintf(g->error, sizeof g->error, "cannot read %.200s", path);
        return;
    }
    TakError err;
    tak_error_clear(&err);
    memset(&g->ptn, 0, sizeof g->ptn);
    g->read = tak_ptn_read(text, len, &g->ptn, &err);
    if (!g->read) {
        char where[TAK_ERROR_MESSAGE_MAX + 40];
        snprintf(g->error, sizeof g->error, "%s", tak_error_describe(&err, where, sizeof where));
    }
    free(text);
}

static int setup(void **state) {
    char path[1024];
    support_shared_path(REAL_DIR "/MANIFEST.tsv", path, sizeof path);
    char *text = support_read_file(path, NULL);
    if (text == NULL) {
        fprintf(stderr, "test_real_games: cannot read %s (set TAK_SHARED)\n", path);
        return -1;
    }
    Games *all = calloc(1, sizeof *all);
    int cap = 0;
    char *line = text;
    bool header = true;
    while (*line) {
        char *next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        else
            next = line + strlen(line);
        size_t n = strlen(line);
        if (n > 0 && line[n - 1] == '\r') line[n - 1] = '\0';
        char *f[8];
        if (header || *line == '\0') {
            header = false;
            line = next;
            continue;
        }
        if (split_tsv(line, f, 8) != 8) {
            fprintf(stderr, "test_real_games: MANIFEST.tsv line without 8 fields: %s\n", line);
            return -1;
        }
        if (all->count == cap) {
            cap = cap ? 2 * cap : 256;
            all->games = realloc(all->games, (size_t)cap * sizeof *all->games);
        }
        Game *g = &all->games[all->count++];
        memset(g, 0, sizeof *g);
        snprintf(g->file, sizeof g->file, "%s", f[0]);
        g->size = atoi(f[2]);
        snprintf(g->komi, sizeof g->komi, "%s", f[3]);
        g->plies = atoi(f[4]);
        snprintf(g->computed, sizeof g->computed, "%s", f[6]);
        snprintf(g->final_tps, sizeof g->final_tps, "%s", f[7]);
        read_game(g);
        line = next;
    }
    free(text);
    *state = all;
    return 0;
}

static int teardown(void **state) {
    Games *all = *state;
    for (int i = 0; i < all->count; i++)
        if (all->games[i].read) tak_ptn_free(&all->games[i].ptn);
    free(all->games);
    free(all);
    return 0;
}

/* Prints one game's mismatch (each test lists all of them, then fails). */
static int report(const Game *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int report(const Game *g, const char *fmt, ...) {
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    print_error("%s: %s\n", g->file, msg);
    return 1;
}

static void finish(int bad, int total, const char *what) {
    if (bad) fail_msg("%d of %d games: %s", bad, total, what);
}

/* ---- tests ----------------------------------------------------------- */

static void test_manifest_lists_every_game(void **state) {
    Games *all = *state;
    assert_true(all->count > 0);
    char path[1024];
    support_shared_path(REAL_DIR, path, sizeof path);
    DIR *dir = opendir(path);
    assert_non_null(dir);
    int files = 0, missing = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".ptn") != 0) continue;
        files++;
        bool listed = false;
        for (int i = 0; i < all->count && !listed; i++)
            listed = strcmp(all->games[i].file, e->d_name) == 0;
        if (!listed) {
            print_error("%s: not in MANIFEST.tsv\n", e->d_name);
            missing++;
        }
    }
    closedir(dir);
    assert_int_equal(missing, 0);
    assert_int_equal(files, all->count);
}

static void test_every_game_reads(void **state) {
    Games *all = *state;
    int bad = 0;
    for (int i = 0; i < all->count; i++)
        if (!all->games[i].read)
            bad += report(&all->games[i], "tak_ptn_read failed: %s", all->games[i].error);
    finish(bad, all->count, "not read");
}

static void test_rules_from_tags(void **state) {
    Games *all = *state;
    int bad = 0;
    for (int i = 0; i < all->count; i++) {
        const Game *g = &all->games[i];
        if (!g->read) continue;
        double komi = strtod(g->komi, NULL);
        int want_half = (int)(komi * 2 + (komi < 0 ? -0.5 : 0.5));
        if (g->ptn.rules.size != g->size || g->ptn.rules.half_komi != want_half)
            bad += report(g, "rules size %d half komi %d, want size %d komi %s", g->ptn.rules.size,
                          g->ptn.rules.half_komi, g->size, g->komi);
        else if (g->ptn.game.current.rules.size != g->size ||
                 g->ptn.game.current.rules.half_komi != want_half)
            bad += report(g, "the game is played under other rules than the PTN's");
    }
    finish(bad, all->count, "rules differ from the tags");
}

static void test_ply_count(void **state) {
    Games *all = *state;
    int bad = 0;
    for (int i = 0; i < all->count; i++) {
        const Game *g = &all->games[i];
        if (g->read && g->ptn.game.count != (size_t)g->plies)
            bad += report(g, "%zu plies, want %d", g->ptn.game.count, g->plies);
    }
    finish(bad, all->count, "wrong number of plies");
}

static void test_final_tps(void **state) {
    Games *all = *state;
    int bad = 0;
    for (int i = 0; i < all->count; i++) {
        const Game *g = &all->games[i];
        if (!g->read) continue;
        char tps[TAK_TPS_MAX];
        if (tak_tps_write(&g->ptn.game.current, tps, sizeof tps) < 0)
            bad += report(g, "tak_tps_write failed");
        else if (strcmp(tps, g->final_tps) != 0)
            bad += report(g, "final position %s, want %s", tps, g->final_tps);
    }
    finish(bad, all->count, "wrong final position");
}

static void test_computed_result(void **state) {
    Games *all = *state;
    int bad = 0;
    for (int i = 0; i < all->count; i++) {
        const Game *g = &all->games[i];
        if (!g->read) continue;
        const char *board = tak_result_code(tak_position_result(&g->ptn.game.current));
        const char *game = tak_result_code(tak_game_result(&g->ptn.game));
        if (strcmp(board, g->computed) != 0)
            bad += report(g, "result on the board %s, want %s", board, g->computed);
        else if (strcmp(g->computed, "*") != 0 && strcmp(game, g->computed) != 0)
            bad += report(g, "the board says %s but tak_game_result says %s", board, game);
    }
    finish(bad, all->count, "wrong result");
}

/* The game's history is consistent: replaying the moves from the start with
 * tak_position_apply passes through hashes[], ends at `current`, and undoing
 * every move comes back to the start. The final TPS reads back equal. */
static void test_history_replays_and_undoes(void **state) {
    Games *all = *state;
    int bad = 0;
    for (int i = 0; i < all->count; i++) {
        const Game *g = &all->games[i];
        if (!g->read) continue;
        const TakGame *game = &g->ptn.game;
        TakPosition pos = game->start;
        bool ok = true;
        for (size_t k = 0; k < game->count && ok; k++) {
            TakError err;
            if (game->hashes[k] != pos.hash) {
                bad += report(g, "hashes[%zu] is not the hash before ply %zu", k, k + 1);
                ok = false;
            } else if (!tak_position_apply(&pos, game->moves[k], &err)) {
                bad += report(g, "ply %zu does not replay: %s", k + 1, err.message);
                ok = false;
            }
        }
        if (!ok) continue;
        if (!tak_position_equal(&pos, &game->current) || game->hashes[game->count] != pos.hash) {
            bad += report(g, "replaying the moves does not give the final position");
            continue;
        }
        char tps[TAK_TPS_MAX];
        TakPosition back;
        TakError err;
        support_tps(&game->current, tps);
        if (!tak_tps_read(tps, &game->current.rules, &back, &err) ||
            !tak_position_equal(&back, &game->current) || back.hash != game->current.hash ||
            back.result.end != game->current.result.end ||
            back.result.winner != game->current.result.winner) {
            bad += report(g, "the final TPS %s does not read back to the same position", tps);
            continue;
        }
        TakGame copy;
        if (!tak_game_init(&copy, &game->start, &err)) {
            bad += report(g, "tak_game_init: %s", err.message);
            continue;
        }
        for (size_t k = 0; k < game->count && ok; k++)
            ok = tak_game_play(&copy, game->moves[k], &err);
        if (!ok) bad += report(g, "tak_game_play refuses a move: %s", err.message);
        while (ok && copy.count > 0) {
            ok = tak_game_undo(&copy);
            if (!ok) bad += report(g, "tak_game_undo fails with %zu plies left", copy.count);
        }
        if (ok && (!tak_position_equal(&copy.current, &game->start) ||
                   copy.current.hash != game->start.hash))
            bad += report(g, "undoing every ply does not give the start back");
        tak_game_free(&copy);
    }
    finish(bad, all->count, "inconsistent history");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_manifest_lists_every_game),
        cmocka_unit_test(test_every_game_reads),
        cmocka_unit_test(test_rules_from_tags),
        cmocka_unit_test(test_ply_count),
        cmocka_unit_test(test_final_tps),
        cmocka_unit_test(test_computed_result),
        cmocka_unit_test(test_history_replays_and_undoes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
