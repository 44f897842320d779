/*
 * test_tactics.c: the tactics suite of tests/data/tactics.txt (road in one
 * by placement, spread and capstone; blocking the opponent's road in one;
 * Tinue in 2 and 3; sizes 3 to 8, with and without komi). Each position is
 * searched with a node budget and the move must be in the line's right set.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/support.h"
#include "tak/engine.h"

#define SUITE "tests/data/tactics.txt"

static int board_size(const char *tps) {
    int size = 1;
    for (const char *c = tps; *c && *c != ' '; c++) size += *c == '/';
    return size;
}

static void test_suite(void **state) {
    (void)state;
    char *text = support_read_file(SUITE, NULL);
    if (text == NULL) fail_msg("cannot read %s (run from the repository root)", SUITE);
    TakEngine *e = tak_engine_new(16, 1);
    int count = 0, sizes = 0, komi = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == '\0') continue;
        char *fields[4];
        char *p = line;
        for (int k = 0; k < 4; k++) {
            fields[k] = p;
            char *bar = k < 3 ? strchr(p, '|') : NULL;
            if (k < 3 && bar == NULL) fail_msg("line without 4 fields: %s", line);
            if (bar) {
                *bar = '\0';
                p = bar + 1;
            }
        }
        TakRules rules = support_rules(board_size(fields[0]));
        rules.half_komi = atoi(fields[1]);
        komi |= rules.half_komi != 0;
        sizes |= 1 << rules.size;
        TakPosition pos = support_position(fields[0], &rules);
        tak_engine_new_game(e);
        TakSearchLimits lim;
        memset(&lim, 0, sizeof lim);
        /* Tinue needs a few plies; a road in one or a block needs almost none. */
        lim.nodes = strstr(fields[3], "Tinue") ? 400000 : 40000;
        lim.depth = 10;
        TakMove m = tak_engine_search(e, &pos, NULL, 0, &lim, NULL, NULL, NULL);
        if (!tak_move_is_legal(&pos, m)) fail_msg("illegal move in %s", fields[0]);
        char played[TAK_MOVE_TEXT_MAX];
        tak_move_write(m, rules.size, &pos, played);
        bool right = false;
        char *tsave = NULL;
        for (char *tok = strtok_r(fields[2], " \t", &tsave); tok; tok = strtok_r(NULL, " \t", &tsave))
            right |= strcmp(tok, played) == 0;
        if (!right) fail_msg("%s: played %s in %s (%s)", fields[3], played, fields[0], fields[2]);
        count++;
    }
    tak_engine_free(e);
    free(text);
    assert_true(count >= 40);
    assert_int_equal(sizes, 0x1F8); /* every size 3..8 */
    assert_true(komi);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
