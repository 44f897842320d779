/*
 * cmd_bench.c: `tak bench`, the speed of move generation measured by perft on a
 * fixed set of positions: the start of every size and every position of
 * ../shared/spec/perft.md, with their published counts embedded, so a wrong
 * count fails loudly instead of being timed. Single-threaded on purpose: it
 * measures the generator, not the machine's core count.
 */
#include <string.h>

#include "cli.h"

static const CliCommand bench_command = {
    "bench",
    "[--quick]",
    "Times perft (one thread) on the start position of every size and on every\n"
    "position of the shared perft table, checking each count against the\n"
    "published one, and prints leaves, seconds and millions of leaves a second:\n"
    "  1. with bulk counting (tak_perft: the last ply is counted, not played),\n"
    "     then the 6x6 start at depth 5 (1,253,506,520 leaves; target <= 3 s);\n"
    "  2. making and unmaking every leaf (tak_perft_full).\n"
    "Exits 1 when a count differs from the published one.\n"
    "\n"
    "Options:\n"
    "  --quick   shallower depths and no 6x6 depth 5 (well under a second)\n"
    "  --help    show this help\n",
};

/* A position and its published perft counts (0: not published). */
typedef struct BenchPosition {
    const char *name;
    int size; /* for the empty board when tps is NULL */
    const char *tps;
    int depth;          /* depth timed by a full run */
    int quick_depth;    /* depth timed by --quick */
    uint64_t counts[8]; /* counts[d]: perft at depth d */
} BenchPosition;

/* From ../shared/spec/perft.md, one position a row. */
// clang-format off
static const BenchPosition positions[] = {
    {"start 3x3", 3, NULL, 7, 5, {1, 9, 72, 1200, 17792, 271812, 3712952, 52364896}},
    {"start 4x4", 4, NULL, 6, 4, {1, 16, 240, 7440, 216464, 6468872, 181954216, 5231815136u}},
    {"start 5x5", 5, NULL, 5, 3, {1, 25, 600, 43320, 2999784, 187855252, 11293470152u}},
    {"start 6x6", 6, NULL, 4, 3, {1, 36, 1260, 132720, 13586048, 1253506520, 112449385016u}},
    {"start 7x7", 7, NULL, 4, 3, {1, 49, 2352, 339696, 48051008, 6813380628u, 0}},
    {"start 8x8", 8, NULL, 4, 3, {1, 64, 4032, 764064, 142512336, 26642455192u, 0}},
    {"wall next to a stack", 0, "x5/x2,2S,x2/x2,121,x2/x5/x5 1 4", 3, 3,
     {1, 87, 6155, 461800}},
    {"carry limit, capstone on top", 0, "x5/x5/x2,121212C,x2/1,x4/1,x4 2 7", 3, 3,
     {1, 104, 7743, 592645}},
    {"middlegame full of stacks", 0,
     "x2,2,x,2/x,12,x,12,x/212,x2,2121C,x/x,1,112221,1,1/x5 2 21", 3, 3,
     {1, 85, 11204, 956736}},
    {"6x6 endgame (online game)", 0,
     "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/"
     "1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42",
     4, 3, {1, 140, 21402, 2774593, 395359484}},
    {"double road", 0, "1,1,x,1,1/2,2,21,2,2/x2,2,x2/x5/x5 1 7", 3, 3,
     {1, 66, 3727, 227794}},
    {"every move loses", 0,
     "x5/x5/x2,121212121212121212121212121212121212121212,x2/x5/x5 1 43", 2, 2, {1, 24, 0}},
    {"running out of pieces", 0,
     "x2,1,x2/221,2,x2,1121112/21,x,12112C,x2/x2,2,2,2S/x,21,12221C,222122121,x 2 36", 3, 3,
     {1, 128, 14873, 1724801}},
    {"completes only the opponent's road", 0,
     "1,1,221C,x,212C/x2,21,1,12/1,111112S,1,211,2/x2,121,1,x/x3,2,x 2 26", 3, 3,
     {1, 102, 10930, 791341}},
    {"8x8, an 8-high stack", 0, "x8/x8/x8/x8/x8/x8/x8/22221111,2,x6 1 9", 2, 2,
     {1, 694, 133417}},
};
// clang-format on

/* The headline figure of issue #3. */
static const BenchPosition headline = {
    .name = "start 6x6 (headline)",
    .size = 6,
    .depth = 5,
    .counts = {1, 36, 1260, 132720, 13586048, 1253506520, 112449385016u},
};

/* Make/unmake every leaf: a start, a middlegame full of stacks, an endgame. */
typedef struct FullCase {
    const BenchPosition *position;
    int depth, quick_depth;
} FullCase;

static const FullCase full_cases[] = {
    {&positions[2], 4, 3},
    {&positions[8], 3, 2},
    {&positions[9], 3, 2},
};

typedef struct Totals {
    uint64_t leaves;
    double seconds;
    int wrong;
} Totals;

/* Writes n with thousands separators into buf (32 bytes hold any uint64_t). */
static const char *grouped(uint64_t n, char buf[32]) {
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    int out = 0;
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0) buf[out++] = ',';
        buf[out++] = digits[i];
    }
    buf[out] = '\0';
    return buf;
}

/* One row; depth and runs are left blank when negative (the total). */
static void print_row(const char *name, int depth, int runs, uint64_t leaves, double seconds) {
    char count[32], depth_text[12] = "", runs_text[12] = "";
    if (depth >= 0) snprintf(depth_text, sizeof depth_text, "%d", depth);
    if (runs >= 0) snprintf(runs_text, sizeof runs_text, "%d", runs);
    printf("  %-36s %5s %16s %7s %9.4f", name, depth_text, grouped(leaves, count), runs_text,
           seconds);
    if (seconds > 0 && leaves > 0)
        printf(" %10.1f", (double)leaves / seconds / 1e6);
    else
        printf(" %10s", "-");
}

static void print_header(const char *title) {
    printf("%s\n  %-36s %5s %16s %7s %9s %10s\n", title, "position", "depth", "leaves", "runs",
           "seconds", "Mleaves/s");
}

static void print_total(const Totals *t) {
    print_row("total", -1, -1, t->leaves, t->seconds);
    printf("\n");
}

/* Times perft on one position, prints its row, and checks the count. A
 * short perft is run again until min_seconds have passed, and the row shows
 * one run's leaves and its mean time, so that small positions are timed as
 * well as big ones. */
static void run(const BenchPosition *bp, int depth, bool full, double min_seconds, Totals *totals) {
    TakPosition pos;
    TakError err;
    TakRules rules;
    bool ok = bp->tps != NULL ? tak_tps_read(bp->tps, NULL, &pos, &err)
                              : tak_rules_standard(&rules, bp->size, &err) &&
                                    tak_position_init(&pos, &rules, &err);
    if (!ok) {
        char why[TAK_ERROR_MESSAGE_MAX + 64];
        printf("  %-36s cannot be set up: %s\n", bp->name,
               tak_error_describe(&err, why, sizeof why));
        totals->wrong++;
        return;
    }
    uint64_t leaves = 0;
    int runs = 0;
    double start = cli_seconds(), elapsed;
    do {
        leaves = full ? tak_perft_full(&pos, depth) : tak_perft(&pos, depth);
        runs++;
        elapsed = cli_seconds() - start;
    } while (elapsed < min_seconds);
    double seconds = elapsed / runs;
    print_row(bp->name, depth, runs, leaves, seconds);
    uint64_t want = bp->counts[depth];
    if (leaves != want) {
        char count[32];
        printf("  WRONG: published %s", grouped(want, count));
        totals->wrong++;
    }
    printf("\n");
    fflush(stdout);
    totals->leaves += leaves;
    totals->seconds += seconds;
}

int cmd_bench(int argc, char **argv) {
    const CliCommand *cmd = &bench_command;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (argv[i][0] == '-')
            return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        else
            return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
    }

    double min_seconds = quick ? 0 : 0.2;
    Totals bulk = {0}, full = {0};
    print_header("Perft with bulk counting (tak_perft), one thread");
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++)
        run(&positions[i], quick ? positions[i].quick_depth : positions[i].depth, false,
            min_seconds, &bulk);
    print_total(&bulk);
    if (!quick) {
        Totals head = {0};
        printf("\n");
        print_header("The 6x6 start at depth 5 with bulk counting, one thread (target: <= 3 s)");
        run(&headline, headline.depth, false, 0, &head);
        bulk.wrong += head.wrong;
    }

    printf("\n");
    print_header("Perft making and unmaking every leaf (tak_perft_full), one thread");
    for (size_t i = 0; i < sizeof full_cases / sizeof full_cases[0]; i++) {
        const FullCase *fc = &full_cases[i];
        run(fc->position, quick ? fc->quick_depth : fc->depth, true, min_seconds, &full);
    }
    print_total(&full);

    int wrong = bulk.wrong + full.wrong;
    if (wrong > 0) {
        fprintf(stderr, "tak bench: %d count%s differ from the published perft table\n", wrong,
                wrong == 1 ? "" : "s");
        return CLI_BAD_INPUT;
    }
    return CLI_OK;
}
