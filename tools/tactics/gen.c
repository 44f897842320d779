/*
 * gen.c: makes candidate positions for tests/data/tactics.txt. Plays games
 * with the engine at a low level and a seed, and at each position asks a
 * brute-force solver (the core's make/unmake and tak_position_has_tak only,
 * nothing of the engine) which moves win by road in 1, 2 or 3 moves or stop
 * the opponent's road in one. Prints suite lines; a person picks the ones
 * worth keeping. Usage: gen SIZE GAMES SEED [HALF_KOMI]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tak/engine.h"
#include "tak/notation.h"
#include "tak/tak.h"

static TakMoveList lists[12];

/* True when the side to move forces a road within n of its own moves. */
static bool solver_wins(TakPosition *p, int n, int lvl) {
    int att = p->side;
    if (tak_position_has_tak(p, att)) return true;
    if (n <= 1) return false;
    int cnt = tak_moves_generate(p, &lists[lvl]);
    for (int i = 0; i < cnt; i++) {
        TakMove m = lists[lvl].moves[i];
        TakUndo u;
        tak_position_make(p, m, &u);
        bool ok;
        if (p->result.end != TAK_END_NONE)
            ok = p->result.winner == att;
        else if (tak_position_has_tak(p, p->side))
            ok = false;
        else {
            int c2 = tak_moves_generate(p, &lists[lvl + 1]);
            ok = c2 > 0;
            for (int j = 0; j < c2 && ok; j++) {
                TakUndo u2;
                TakMove r = lists[lvl + 1].moves[j];
                tak_position_make(p, r, &u2);
                ok = p->result.end != TAK_END_NONE ? p->result.winner == att
                                                   : solver_wins(p, n - 1, lvl + 2);
                tak_position_unmake(p, r, &u2);
            }
        }
        tak_position_unmake(p, m, &u);
        if (ok) return true;
    }
    return false;
}

/* Writes the moves of pos that win in n (or block, n == 0) into out; returns how many. */
static int solver_answers(TakPosition *pos, int n, char *out, size_t cap) {
    static TakMoveList l;
    int cnt = tak_moves_generate(pos, &l), found = 0;
    out[0] = '\0';
    int att = pos->side;
    for (int i = 0; i < cnt; i++) {
        TakUndo u;
        TakMove m = l.moves[i];
        tak_position_make(pos, m, &u);
        bool good;
        if (pos->result.end != TAK_END_NONE)
            good = pos->result.winner == att && (n > 0 || true);
        else if (n == 0)
            good = !tak_position_has_tak(pos, pos->side);
        else if (n == 1 || tak_position_has_tak(pos, pos->side))
            good = false;
        else {
            static TakMoveList r;
            int c2 = tak_moves_generate(pos, &r);
            good = c2 > 0;
            for (int j = 0; j < c2 && good; j++) {
                TakUndo u2;
                tak_position_make(pos, r.moves[j], &u2);
                good = pos->result.end != TAK_END_NONE ? pos->result.winner == att
                                                       : solver_wins(pos, n - 1, 0);
                tak_position_unmake(pos, r.moves[j], &u2);
            }
        }
        tak_position_unmake(pos, m, &u);
        if (good) {
            char b[TAK_MOVE_TEXT_MAX];
            tak_move_write(m, pos->rules.size, pos, b);
            size_t len = strlen(out);
            snprintf(out + len, cap - len, "%s%s", found ? " " : "", b);
            found++;
        }
    }
    return found;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: gen SIZE GAMES SEED [HALF_KOMI]\n");
        return 2;
    }
    int size = atoi(argv[1]), games = atoi(argv[2]);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    TakRules rules;
    TakError err;
    if (!tak_rules_standard(&rules, size, &err)) return 2;
    rules.half_komi = argc > 4 ? atoi(argv[4]) : 0;
    TakEngine *e = tak_engine_new(16, 1);
    tak_engine_set_level(e, 4);
    static char answers[65536];
    for (int g = 0; g < games; g++) {
        tak_engine_set_seed(e, seed + (uint64_t)g);
        tak_engine_new_game(e);
        TakPosition pos;
        tak_position_init(&pos, &rules, &err);
        TakSearchLimits lim = {0};
        for (int ply = 0; ply < 200 && !tak_position_is_over(&pos); ply++) {
            char tps[TAK_TPS_MAX];
            tak_tps_write(&pos, tps, sizeof tps);
            int side = pos.side;
            if (pos.ply >= 4) {
                if (tak_position_has_tak(&pos, side)) {
                    solver_answers(&pos, 1, answers, sizeof answers);
                    printf("%s | %d | %s | win1 %dx%d\n", tps, rules.half_komi, answers, size, size);
                } else if (tak_position_has_tak(&pos, side ^ 1)) {
                    int n = solver_answers(&pos, 0, answers, sizeof answers);
                    if (n > 0 && n * 4 < (int)tak_moves_count(&pos))
                        printf("%s | %d | %s | block %dx%d\n", tps, rules.half_komi, answers, size,
                               size);
                } else if (solver_answers(&pos, 2, answers, sizeof answers) > 0) {
                    printf("%s | %d | %s | tinue2 %dx%d\n", tps, rules.half_komi, answers, size,
                           size);
                } else if (size <= 6 && solver_answers(&pos, 3, answers, sizeof answers) > 0) {
                    printf("%s | %d | %s | tinue3 %dx%d\n", tps, rules.half_komi, answers, size,
                           size);
                }
                fflush(stdout);
            }
            TakMove m = tak_engine_search(e, &pos, NULL, 0, &lim, NULL, NULL, NULL);
            if (m == TAK_MOVE_NONE) break;
            TakUndo u;
            tak_position_make(&pos, m, &u);
        }
    }
    tak_engine_free(e);
    return 0;
}
