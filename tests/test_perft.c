/*
 * test_perft.c: the move generator against every number of
 * ../shared/spec/perft.md, read from the file itself so that a row added
 * there is checked here. Each (position, depth) is one test, run twice: with
 * tak_perft (bulk-counted leaves) and tak_perft_full (every leaf made and
 * unmade). Deep rows are skipped, visibly, unless TAK_SLOW_TESTS=1;
 * TAK_PERFT_MAX_NODES=N sets the limit by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/support.h"

/* Leaf counts run by default: with the core of this writing the whole
 * default set takes under 2 s at -O3 and about 3 s under ASan (bulk counting
 * does some 50M leaves a second). TAK_SLOW_TESTS=1 raises both limits (a
 * minute or two). */
#define FAST_NODES 15000000ull
#define FAST_FULL_NODES 3000000ull
#define SLOW_NODES 1000000000ull
#define SLOW_FULL_NODES 200000000ull

#define MAX_CASES 256

typedef struct PerftCase {
    char what[160]; /* "5x5 start" or the row's description */
    char tps[TAK_TPS_MAX];
    int size; /* for a start position (tps empty) */
    int depth;
    uint64_t nodes;
    bool full; /* tak_perft_full rather than tak_perft */
} PerftCase;

typedef struct Limits {
    uint64_t nodes, full_nodes;
} Limits;

static PerftCase cases[MAX_CASES];
static int case_count;
static int start_rows, position_rows; /* rows parsed, to check the parse itself */
static TakMoveList lists[3];

static Limits limits(void) {
    const char *slow = getenv("TAK_SLOW_TESTS");
    Limits l = {FAST_NODES, FAST_FULL_NODES};
    if (slow != NULL && strcmp(slow, "") != 0 && strcmp(slow, "0") != 0)
        l = (Limits){SLOW_NODES, SLOW_FULL_NODES};
    const char *max = getenv("TAK_PERFT_MAX_NODES");
    if (max != NULL && *max != '\0') {
        l.nodes = strtoull(max, NULL, 10);
        l.full_nodes = l.nodes;
    }
    return l;
}

static TakPosition case_position(const PerftCase *c) {
    if (c->tps[0] != '\0') return support_position(c->tps, NULL);
    TakRules r = support_rules(c->size);
    TakPosition pos;
    TakError err;
    if (!tak_position_init(&pos, &r, &err)) fail_msg("tak_position_init: %s", err.message);
    return pos;
}

/* Every node down to `depth`: tak_moves_count agrees with the generator. */
static void check_counts(TakPosition *pos, int depth) {
    TakMoveList *list = &lists[depth];
    int n = tak_moves_generate(pos, list);
    uint64_t counted = tak_moves_count(pos);
    if (counted != (uint64_t)n) {
        char tps[TAK_TPS_MAX];
        fail_msg("tak_moves_count %" PRIu64 " but %d generated in %s", counted, n,
                 support_tps(pos, tps));
    }
    if (depth == 0) return;
    for (int i = 0; i < n; i++) {
        TakUndo undo;
        tak_position_make(pos, list->moves[i], &undo);
        check_counts(pos, depth - 1);
        tak_position_unmake(pos, list->moves[i], &undo);
    }
}

static void test_perft_row(void **state) {
    const PerftCase *c = *state;
    Limits l = limits();
    if (c->nodes > (c->full ? l.full_nodes : l.nodes)) {
        print_message("skipped: %" PRIu64 " leaves (set TAK_SLOW_TESTS=1)\n", c->nodes);
        skip();
    }
    TakPosition pos = case_position(c);
    TakPosition before = pos;
    uint64_t got = c->full ? tak_perft_full(&pos, c->depth) : tak_perft(&pos, c->depth);
    if (got != c->nodes)
        fail_msg("%s %s depth %d: %" PRIu64 ", want %" PRIu64,
                 c->full ? "tak_perft_full" : "tak_perft", c->what, c->depth, got, c->nodes);
    assert_true(tak_position_equal(&pos, &before));
    assert_int_equal(pos.hash, before.hash);
    if (c->depth == 1) assert_int_equal(tak_moves_count(&pos), c->nodes);
    if (!c->full && c->depth <= 3) check_counts(&pos, c->depth < 2 ? c->depth - 1 : 1);
}

/* ---- reading perft.md --------------------------------------------------- */

static void add_case(const char *what, const char *tps, int size, int depth, uint64_t nodes) {
    for (int full = 0; full < 2; full++) {
        if (case_count == MAX_CASES) return;
        PerftCase *c = &cases[case_count++];
        snprintf(c->what, sizeof c->what, "%s", what);
        snprintf(c->tps, sizeof c->tps, "%s", tps);
        c->size = size;
        c->depth = depth;
        c->nodes = nodes;
        c->full = full;
    }
}

/* Splits a table row "| a | b | c |" into trimmed cells; returns how many. */
static int split_row(char *line, char *cells[], int max) {
    int n = 0;
    char *p = strchr(line, '|');
    while (p != NULL && n < max) {
        char *start = p + 1;
        p = strchr(start, '|');
        if (p == NULL) break;
        *p = '\0';
        while (isspace((unsigned char)*start)) start++;
        char *end = start + strlen(start);
        while (end > start && isspace((unsigned char)end[-1])) *--end = '\0';
        cells[n++] = start;
    }
    return n;
}

static bool all_digits(const char *s) {
    if (*s == '\0') return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return false;
    return true;
}

/* "| 5 | 25 | 600 | ... |": the start position of size 5. */
static void read_start_row(char *cells[], int n) {
    int size = atoi(cells[0]);
    char what[32];
    snprintf(what, sizeof what, "%dx%d start", size, size);
    for (int d = 1; d < n; d++)
        if (all_digits(cells[d])) add_case(what, "", size, d, strtoull(cells[d], NULL, 10));
    start_rows++;
}

/* "| what | `TPS` | 87 / 6155 / 461800 |" */
static void read_position_row(char *cells[], int n) {
    if (n < 3) return;
    char tps[TAK_TPS_MAX];
    const char *open = strchr(cells[1], '`');
    const char *close = open ? strchr(open + 1, '`') : NULL;
    if (close == NULL || (size_t)(close - open) >= sizeof tps) return;
    memcpy(tps, open + 1, (size_t)(close - open - 1));
    tps[close - open - 1] = '\0';
    int depth = 1;
    for (char *tok = strtok(cells[2], "/ "); tok; tok = strtok(NULL, "/ "), depth++)
        if (all_digits(tok)) add_case(cells[0], tps, 0, depth, strtoull(tok, NULL, 10));
    position_rows++;
}

/* "Deeper 3x3: d7 52364896, d8 679639648, d9 9209357840. 4x4 d7: 5231815136." */
static void read_deeper_line(char *line) {
    int size = 0, depth = 0;
    for (char *tok = strtok(line, " ,.:"); tok; tok = strtok(NULL, " ,.:")) {
        int a, b;
        char extra;
        if (sscanf(tok, "%dx%d%c", &a, &b, &extra) == 2 && a == b) {
            size = a;
        } else if (tok[0] == 'd' && all_digits(tok + 1)) {
            depth = atoi(tok + 1);
        } else if (all_digits(tok) && size && depth) {
            char what[32];
            snprintf(what, sizeof what, "%dx%d start", size, size);
            add_case(what, "", size, depth, strtoull(tok, NULL, 10));
            depth = 0;
        }
    }
}

static bool read_spec(void) {
    char path[1024];
    support_shared_path("spec/perft.md", path, sizeof path);
    char *text = support_read_file(path, NULL);
    if (text == NULL) {
        fprintf(stderr, "test_perft: cannot read %s (set TAK_SHARED)\n", path);
        return false;
    }
    for (char *line = text; *line;) {
        char *next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        else
            next = line + strlen(line);
        char *cells[12];
        if (strncmp(line, "Deeper", 6) == 0) {
            read_deeper_line(line);
        } else {
            int n = split_row(line, cells, 12);
            if (n >= 2 && strlen(cells[0]) == 1 && isdigit((unsigned char)cells[0][0]))
                read_start_row(cells, n);
            else if (n >= 3 && strchr(cells[1], '`') != NULL)
                read_position_row(cells, n);
        }
        line = next;
    }
    free(text);
    return true;
}

/* The parse found what perft.md held when this test was written: six start
 * rows, nine positions, the deeper 3x3 and 4x4 counts. */
static void test_perft_spec_read(void **state) {
    (void)state;
    assert_int_equal(start_rows, 6);
    assert_true(position_rows >= 9);
    bool deep3 = false;
    for (int i = 0; i < case_count; i++)
        if (cases[i].size == 3 && cases[i].depth == 9 && cases[i].nodes == 9209357840ull)
            deep3 = true;
    assert_true(deep3);
    assert_true(case_count < MAX_CASES);
}

/* Komi changes who wins a finished game, never whether it is finished. */
static void test_perft_komi_does_not_change_perft(void **state) {
    (void)state;
    static const char *tps[] = {
        "1,1,x,1,1/2,2,21,2,2/x2,2,x2/x5/x5 1 7",
        "x2,1,x2/221,2,x2,1121112/21,x,12112C,x2/x2,2,2,2S/x,21,12221C,222122121,x 2 36",
    };
    for (size_t i = 0; i < sizeof tps / sizeof tps[0]; i++) {
        TakPosition plain = support_position(tps[i], NULL);
        uint64_t want = tak_perft(&plain, 2);
        for (int half = -20; half <= 20; half += 7) {
            TakRules r = support_rules(5);
            r.half_komi = half;
            TakPosition pos = support_position(tps[i], &r);
            assert_int_equal(tak_perft(&pos, 2), want);
        }
    }
}

int main(void) {
    if (!read_spec()) return 1;
    static struct CMUnitTest tests[MAX_CASES + 2];
    static char names[MAX_CASES][200];
    int n = 0;
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_perft_spec_read);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_perft_komi_does_not_change_perft);
    for (int i = 0; i < case_count; i++) {
        snprintf(names[i], sizeof names[i], "%s %.150s depth %d",
                 cases[i].full ? "perft_full" : "perft", cases[i].what, cases[i].depth);
        tests[n++] = (struct CMUnitTest){names[i], test_perft_row, NULL, NULL, &cases[i]};
    }
    return _cmocka_run_group_tests("perft", tests, (size_t)n, NULL, NULL);
}
