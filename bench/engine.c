/*
 * engine.c (bench): the engine's figures. Prints, single-threaded so the
 * numbers are comparable and the node counts are a fingerprint of the search:
 *   1. fixed-depth searches of fixed positions: nodes, time, nodes/second,
 *      and the total node count as the bench signature;
 *   2. the tactics suite (tests/data/tactics.txt): solved or not, and time.
 * With --positions FILE, instead: every position of FILE (a TPS a line, komi
 * 2) searched to --depth D (default 6), and the nodes and CPU seconds of all
 * of them: how long a version of the search takes to a depth in real games'
 * middle games (bench/data/middlegame-5x5.tps), not six fixed positions.
 * Usage: engine [--quick] [--threads N] [--suite FILE] [--search-only]
 *        engine --positions FILE [--depth D] [--threads N]
 * Run from the repository root (the suite's default path is relative).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tak/engine.h"
#include "tak/notation.h"
#include "tak/tak.h"

typedef struct BenchPosition {
    const char *name, *tps;
    int depth, quick_depth;
} BenchPosition;

static const BenchPosition positions[] = {
    {"5x5 opening", "x5/x5/x,1,2,x2/x,2,1,x2/x5 1 3", 8, 6},
    {"6x6 start", "x6/x6/x6/x6/x6/x6 1 1", 7, 5},
    {"6x6 middlegame", "x2,2,x,2,x/x,12,x,12,x2/212,x2,2121C,x2/x,1,112221,1,1,x/x6/x6 2 21", 6, 5},
    {"6x6 endgame", "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/"
                    "1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42", 5, 4},
    {"7x7 opening", "x7/x7/x2,2,x4/x3,1,1,x2/x2,2,1,x3/x7/x7 2 5", 6, 4},
    {"8x8 opening", "x8/x8/x8/x3,2,1,x3/x3,1,2,x3/x8/x8/x8 1 3", 6, 4},
};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU seconds of the process: on a shared machine, single-threaded figures
 * taken from it do not depend on what else runs. */
static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int board_size(const char *tps) {
    int size = 1;
    for (const char *c = tps; *c && *c != ' '; c++) size += *c == '/';
    return size;
}

static bool read_position(const char *tps, int half_komi, TakPosition *pos) {
    TakRules rules;
    TakError err;
    if (!tak_rules_standard(&rules, board_size(tps), &err)) return false;
    rules.half_komi = half_komi;
    if (!tak_tps_read(tps, &rules, pos, &err)) {
        fprintf(stderr, "bad TPS %s: %s\n", tps, err.message);
        return false;
    }
    return true;
}

static void depth_report(const TakSearchInfo *info, void *user) {
    double *times = user;
    if (info->depth < 64 && times[info->depth] == 0) times[info->depth] = info->time_ms / 1000.0;
}

static uint64_t bench_search(bool quick, int threads) {
    printf("%-16s %5s %10s %8s %8s %10s  %s\n", "position", "depth", "nodes", "seconds", "cpu s",
           "nodes/cpu-s", "best (score); seconds to reach each depth");
    uint64_t total = 0;
    double total_time = 0, total_cpu = 0;
    for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
        const BenchPosition *b = &positions[i];
        TakPosition pos;
        if (!read_position(b->tps, 0, &pos)) exit(1);
        TakEngine *e = tak_engine_new(64, threads);
        TakSearchLimits lim;
        memset(&lim, 0, sizeof lim);
        lim.depth = quick ? b->quick_depth : b->depth;
        double times[64] = {0};
        TakSearchInfo info;
        double t0 = now_s(), c0 = cpu_s();
        TakMove m = tak_engine_search(e, &pos, NULL, 0, &lim, depth_report, times, &info);
        double t = now_s() - t0, c = cpu_s() - c0;
        char text[TAK_MOVE_TEXT_MAX];
        tak_move_write(m, pos.rules.size, &pos, text);
        printf("%-16s %5d %10llu %8.3f %8.3f %10.0f  %s (%d);", b->name, info.depth,
               (unsigned long long)info.nodes, t, c, info.nodes / (c > 0 ? c : 1e-9), text,
               info.score);
        for (int d = 1; d <= info.depth && d < 64; d++) printf(" %d:%.2f", d, times[d]);
        printf("\n");
        total += info.nodes;
        total_time += t;
        total_cpu += c;
        tak_engine_free(e);
    }
    printf("bench signature %llu nodes, %.3f s, %.3f cpu s, %.0f nodes/cpu-s\n\n",
           (unsigned long long)total, total_time, total_cpu,
           total / (total_cpu > 0 ? total_cpu : 1e-9));
    return total;
}

static FILE *open_or_exit(const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    return f;
}

/* Runs the suite: each position searched with a node budget; a solve is a
 * move in the right set. */
static void bench_tactics(const char *path, bool quick, int threads) {
    FILE *f = open_or_exit(path);
    char line[4096];
    int total = 0, solved = 0;
    double all = 0;
    TakEngine *e = tak_engine_new(32, threads);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *fields[4] = {0};
        char *p = line;
        for (int k = 0; k < 4; k++) {
            fields[k] = p;
            char *bar = strchr(p, '|');
            if (bar == NULL) break;
            *bar = '\0';
            p = bar + 1;
        }
        if (fields[3] == NULL) continue;
        TakPosition pos;
        if (!read_position(fields[0], atoi(fields[1]), &pos)) continue;
        tak_engine_new_game(e);
        TakSearchLimits lim;
        memset(&lim, 0, sizeof lim);
        lim.nodes = quick ? 200000 : 2000000;
        lim.depth = 12;
        TakSearchInfo info;
        double t0 = now_s();
        TakMove m = tak_engine_search(e, &pos, NULL, 0, &lim, NULL, NULL, &info);
        double t = now_s() - t0;
        char text[TAK_MOVE_TEXT_MAX];
        tak_move_write(m, pos.rules.size, &pos, text);
        bool ok = false;
        for (char *tok = strtok(fields[2], " \t"); tok; tok = strtok(NULL, " \t"))
            if (strcmp(tok, text) == 0) ok = true;
        total++;
        solved += ok;
        all += t;
        char *desc = fields[3];
        while (*desc == ' ') desc++;
        desc[strcspn(desc, "\n")] = '\0';
        printf("%-4s %6.3f s %8llu nodes depth %2d %-10s %s\n", ok ? "ok" : "MISS", t,
               (unsigned long long)info.nodes, info.depth, text, desc);
    }
    fclose(f);
    tak_engine_free(e);
    printf("tactics: %d/%d solved, %.3f s in all, %.3f s a position\n", solved, total, all,
           total ? all / total : 0);
}

/* Every position of `path` to `depth`, komi 2, a new game each. */
static void bench_positions(const char *path, int depth, int threads) {
    FILE *f = open_or_exit(path);
    char line[4096];
    int count = 0;
    uint64_t nodes = 0;
    double cpu = 0;
    TakEngine *e = tak_engine_new(64, threads);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        TakPosition pos;
        if (!read_position(line, 4, &pos)) exit(1);
        tak_engine_new_game(e);
        TakSearchLimits lim;
        memset(&lim, 0, sizeof lim);
        lim.depth = depth;
        TakSearchInfo info;
        double c0 = cpu_s();
        tak_engine_search(e, &pos, NULL, 0, &lim, NULL, NULL, &info);
        cpu += cpu_s() - c0;
        nodes += info.nodes;
        count++;
    }
    fclose(f);
    tak_engine_free(e);
    printf("%d positions to depth %d: %llu nodes, %.2f cpu s, %.0f nodes/cpu-s\n", count, depth,
           (unsigned long long)nodes, cpu, nodes / (cpu > 0 ? cpu : 1e-9));
}

int main(int argc, char **argv) {
    bool quick = false, search_only = false;
    int threads = 1, depth = 6;
    const char *suite = "tests/data/tactics.txt", *positions_file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--suite") == 0 && i + 1 < argc)
            suite = argv[++i];
        else if (strcmp(argv[i], "--search-only") == 0)
            search_only = true; /* for profiling the search: no tactics suite */
        else if (strcmp(argv[i], "--positions") == 0 && i + 1 < argc)
            positions_file = argv[++i];
        else if (strcmp(argv[i], "--depth") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
            depth = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: engine [--quick] [--threads N] [--suite FILE] [--search-only]\n"
                            "       engine --positions FILE [--depth D] [--threads N]\n");
            return 2;
        }
    }
    if (positions_file) {
        bench_positions(positions_file, depth, threads);
        return 0;
    }
    bench_search(quick, threads);
    if (!search_only) bench_tactics(suite, quick, threads);
    return 0;
}
