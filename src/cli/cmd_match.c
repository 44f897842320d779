/*
 * cmd_match.c: `tak match`, engines against each other: any TEI programs
 * (--engine CMD) or our own engine with options (--self "Level=5"), under a
 * clock, a node limit or a time per move, from an opening book, several games
 * at once. Prints each game as it ends and then the score, the Elo difference
 * with its 95% margin, LOS and the SPRT's standing. The work is the library's
 * (tak/match.h); this file reads arguments and writes files.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "tak/match.h"

static const CliCommand match_command = {
    "match",
    "(--engine CMD | --self [OPTS]) (--engine CMD | --self [OPTS]) (--tc S+I | --nodes N[,M] |\n"
    "       --movetime MS) [--size N] [--komi K] [--games N] [--concurrency N] [--book FILE]\n"
    "       [--ptn-out FILE] [--pgn-out DIR] [--sprt elo0=A,elo1=B[,alpha=X,beta=Y]]",
    "Plays a match between two engines and prints the result. Each side is a\n"
    "TEI engine program (--engine, a shell command line) or this program's own\n"
    "engine (--self, with TEI options as 'Name=Value,...', e.g. 'Level=5,Hash=32').\n"
    "Colours alternate for each opening; every opening is played twice.\n"
    "A game ends by the rules, by a third repetition (a draw), after --max-plies\n"
    "(a draw), or when an engine crashes, stops answering, oversteps its clock or\n"
    "plays an illegal move (it loses).\n"
    "\n"
    "Options:\n"
    "  --engine CMD       a side played by the TEI engine CMD\n"
    "  --self [OPTS]      a side played by our engine with options OPTS\n"
    "  --name NAME        name of the side given just before (default: from CMD/OPTS)\n"
    "  --tc S+I           a clock: S seconds per game plus I seconds per move\n"
    "  --nodes N          N nodes per move\n"
    "  --nodes N,M        N nodes per move for the first side, M for the second\n"
    "                     (engines count nodes differently: a way to give each\n"
    "                     about the same time, and a match load cannot skew)\n"
    "  --movetime MS      MS milliseconds per move\n"
    "  --size N           board size, 3..8 (6)\n"
    "  --komi K           komi in flats, halves allowed (0)\n"
    "  --games N          games to play (2)\n"
    "  --concurrency N    games at once (1)\n"
    "  --book FILE        openings, one TPS a line (made by 'tak book');\n"
    "                     without one every game starts from the empty board\n"
    "  --ptn-out FILE     write every game to FILE, one after another\n"
    "  --pgn-out DIR      write each game to DIR/game-NNNN.ptn (DIR is created)\n"
    "  --sprt PARAMS      stop once the SPRT decides (elo0 < elo1; alpha, beta 0.05)\n"
    "  --timeout MS       a move under --nodes taking longer is a hang (60000)\n"
    "  --max-plies N      adjudicate a game of N plies a draw (1000)\n"
    "  --quiet            print only the summary\n"
    "  --help             show this help\n",
};

typedef struct MatchArgs {
    TakMatchConfig config;
    int sides;
    char names[2][64];
    uint64_t nodes[2]; /* --nodes N,M: each side's count */
    const char *book, *ptn_out, *pgn_out;
    FILE *ptn_file;
    bool quiet;
} MatchArgs;

/* "10+0.1" -> base and increment in ms. */
static bool parse_tc(const char *text, int64_t *base, int64_t *inc) {
    char *end;
    errno = 0;
    double b = strtod(text, &end), i = 0;
    if (end == text || errno != 0) return false;
    if (*end == '+') {
        const char *p = end + 1;
        i = strtod(p, &end);
        if (end == p || errno != 0) return false;
    }
    if (*end != '\0' || !(b > 0 && b < 1e7) || !(i >= 0 && i < 1e6)) return false;
    *base = (int64_t)llround(b * 1000);
    *inc = (int64_t)llround(i * 1000);
    return *base > 0;
}

/* A default name: the program's file name, or "tak" with the options. */
static void default_name(const TakPlayerSpec *spec, char *buf, size_t cap) {
    if (spec->command == NULL) {
        snprintf(buf, cap, "tak%s%s%s", spec->options && *spec->options ? "(" : "",
                 spec->options ? spec->options : "", spec->options && *spec->options ? ")" : "");
        return;
    }
    const char *start = spec->command;
    while (*start == ' ') start++;
    size_t len = strcspn(start, " \t");
    const char *slash = NULL;
    for (const char *p = start; p < start + len; p++)
        if (*p == '/') slash = p;
    if (slash) {
        len -= (size_t)(slash + 1 - start);
        start = slash + 1;
    }
    snprintf(buf, cap, "%.*s", (int)len, start);
}

static int parse_args(int argc, char **argv, MatchArgs *a) {
    const CliCommand *cmd = &match_command;
    TakMatchConfig *c = &a->config;
    c->size = 6;
    c->games = 2;
    c->concurrency = 1;
    int limits = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        long n;
        if (cli_option(argc, argv, &i, "--engine", &v)) {
            if (v == NULL || *v == '\0') return cli_usage_error(cmd, "--engine needs a command");
            if (a->sides == 2) return cli_usage_error(cmd, "more than two sides");
            c->players[a->sides++] = (TakPlayerSpec){.command = v};
        } else if (strcmp(arg, "--self") == 0 || strncmp(arg, "--self=", 7) == 0) {
            if (a->sides == 2) return cli_usage_error(cmd, "more than two sides");
            const char *opts = arg[6] == '=' ? arg + 7 : NULL;
            /* The options are optional: take the next argument unless it is an option. */
            if (opts == NULL && i + 1 < argc && argv[i + 1][0] != '-') opts = argv[++i];
            c->players[a->sides++] = (TakPlayerSpec){.options = opts};
        } else if (cli_option(argc, argv, &i, "--name", &v)) {
            if (v == NULL || a->sides == 0) return cli_usage_error(cmd, "--name follows a side and needs a name");
            snprintf(a->names[a->sides - 1], sizeof a->names[0], "%s", v);
        } else if (cli_option(argc, argv, &i, "--tc", &v)) {
            if (v == NULL || !parse_tc(v, &c->base_ms, &c->increment_ms))
                return cli_usage_error(cmd, "--tc needs SECONDS+INCREMENT, e.g. 10+0.1");
            limits++;
        } else if (cli_option(argc, argv, &i, "--nodes", &v)) {
            long m;
            if (cli_parse_int(v, 1, 1000000000000L, &n))
                m = n;
            else if (!cli_parse_pair(v, ',', 1, 1000000000000L, 1, 1000000000000L, &n, &m))
                return cli_usage_error(cmd, "--nodes needs a count, or one for each side as N,M");
            c->nodes = (uint64_t)n;
            a->nodes[0] = (uint64_t)n;
            a->nodes[1] = (uint64_t)m;
            limits++;
        } else if (cli_option(argc, argv, &i, "--movetime", &v)) {
            if (!cli_parse_int(v, 1, 100000000L, &n)) return cli_usage_error(cmd, "--movetime needs milliseconds");
            c->movetime_ms = n;
            limits++;
        } else if (cli_option(argc, argv, &i, "--size", &v)) {
            if (!cli_parse_int(v, TAK_MIN_SIZE, TAK_MAX_SIZE, &n)) return cli_usage_error(cmd, "--size needs 3..8");
            c->size = (int)n;
        } else if (cli_option(argc, argv, &i, "--komi", &v)) {
            if (!cli_parse_komi(v, &c->half_komi)) return cli_usage_error(cmd, "bad --komi '%s'", v ? v : "");
        } else if (cli_option(argc, argv, &i, "--games", &v)) {
            if (!cli_parse_int(v, 1, 10000000, &n)) return cli_usage_error(cmd, "--games needs a count");
            c->games = (int)n;
        } else if (cli_option(argc, argv, &i, "--concurrency", &v)) {
            if (!cli_parse_int(v, 1, 256, &n)) return cli_usage_error(cmd, "--concurrency needs 1..256");
            c->concurrency = (int)n;
        } else if (cli_option(argc, argv, &i, "--timeout", &v)) {
            if (!cli_parse_int(v, 1, 100000000L, &n)) return cli_usage_error(cmd, "--timeout needs milliseconds");
            c->timeout_ms = n;
        } else if (cli_option(argc, argv, &i, "--max-plies", &v)) {
            if (!cli_parse_int(v, 1, 1000000, &n)) return cli_usage_error(cmd, "--max-plies needs a count");
            c->max_plies = (int)n;
        } else if (cli_option(argc, argv, &i, "--book", &v)) {
            if (v == NULL) return cli_usage_error(cmd, "--book needs a file");
            a->book = v;
        } else if (cli_option(argc, argv, &i, "--ptn-out", &v)) {
            if (v == NULL) return cli_usage_error(cmd, "--ptn-out needs a file");
            a->ptn_out = v;
        } else if (cli_option(argc, argv, &i, "--pgn-out", &v) || cli_option(argc, argv, &i, "--ptn-dir", &v)) {
            if (v == NULL) return cli_usage_error(cmd, "--pgn-out needs a directory");
            a->pgn_out = v;
        } else if (cli_option(argc, argv, &i, "--sprt", &v)) {
            TakError err;
            if (v == NULL || !tak_sprt_parse(v, &c->sprt, &err))
                return cli_usage_error(cmd, "--sprt: %s", v ? err.message : "needs parameters");
            c->sprt_enabled = true;
        } else if (strcmp(arg, "--quiet") == 0) {
            a->quiet = true;
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", arg);
        }
    }
    if (a->sides != 2) return cli_usage_error(cmd, "give two sides (--engine CMD or --self)");
    if (limits != 1) return cli_usage_error(cmd, "give one of --tc, --nodes, --movetime");
    for (int s = 0; s < 2; s++)
        if (a->names[s][0] == '\0') default_name(&c->players[s], a->names[s], sizeof a->names[0]);
    if (strcmp(a->names[0], a->names[1]) == 0) {
        strncat(a->names[0], "-1", sizeof a->names[0] - strlen(a->names[0]) - 1);
        strncat(a->names[1], "-2", sizeof a->names[1] - strlen(a->names[1]) - 1);
    }
    for (int s = 0; s < 2; s++) {
        c->players[s].name = a->names[s];
        c->players[s].nodes = a->nodes[s];
    }
    return CLI_OK;
}

static void print_elo(const TakMatchScore *sc) {
    TakEloEstimate e;
    if (!tak_elo_estimate(sc, &e)) return;
    if (isinf(e.elo)) printf("Elo difference: %sinf, LOS: %.1f %%\n", e.elo > 0 ? "+" : "-", e.los * 100);
    else if (isinf(e.margin)) printf("Elo difference: %+.1f +/- inf, LOS: %.1f %%\n", e.elo, e.los * 100);
    else printf("Elo difference: %+.1f +/- %.1f, LOS: %.1f %%\n", e.elo, e.margin, e.los * 100);
}

static void on_game(const TakMatchGame *g, const TakMatchScore *sc, void *user) {
    MatchArgs *a = user;
    const TakMatchConfig *c = &a->config;
    TakResult r = tak_game_result(g->game);
    if (!a->quiet) {
        int n = sc->wins + sc->losses + sc->draws;
        printf("Game %d (%s vs %s): %s {%s}  score %d-%d-%d [%.3f] %d\n", g->index + 1,
               c->players[g->white].name, c->players[1 - g->white].name, tak_result_code(r),
               g->termination, sc->wins, sc->losses, sc->draws,
               (sc->wins + 0.5 * sc->draws) / n, n);
        fflush(stdout);
    }
    if (g->ptn == NULL) {
        fprintf(stderr, "tak match: game %d could not be written as PTN\n", g->index + 1);
        return;
    }
    if (a->ptn_file) {
        fprintf(a->ptn_file, "%s\n", g->ptn);
        fflush(a->ptn_file);
    }
    if (a->pgn_out) {
        char path[4096];
        snprintf(path, sizeof path, "%s/game-%04d.ptn", a->pgn_out, g->index + 1);
        FILE *f = fopen(path, "w");
        if (f == NULL || fputs(g->ptn, f) < 0) fprintf(stderr, "tak match: cannot write %s\n", path);
        if (f) fclose(f);
    }
}

int cmd_match(int argc, char **argv) {
    const CliCommand *cmd = &match_command;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    MatchArgs a;
    memset(&a, 0, sizeof a);
    int status = parse_args(argc, argv, &a);
    if (status != CLI_OK) return status;
    TakMatchConfig *c = &a.config;
    char **book = NULL;
    size_t book_count = 0;
    if (a.book) {
        size_t len;
        char *text = cli_read_file(a.book, &len);
        if (text == NULL) return cli_fail(cmd, "cannot read %s: %s", a.book, strerror(errno));
        TakError err;
        char why[TAK_ERROR_MESSAGE_MAX + 64];
        bool ok = tak_book_read(text, len, c->size, &book, &book_count, &err);
        free(text);
        if (!ok) return cli_fail(cmd, "%s: %s", a.book, tak_error_describe(&err, why, sizeof why));
        if (book_count == 0) return cli_fail(cmd, "%s has no openings", a.book);
        c->openings = (const char *const *)book;
        c->opening_count = book_count;
    }
    if (a.pgn_out && mkdir(a.pgn_out, 0777) != 0 && errno != EEXIST) {
        tak_book_free(book, book_count);
        return cli_fail(cmd, "cannot create %s: %s", a.pgn_out, strerror(errno));
    }
    if (a.ptn_out && (a.ptn_file = fopen(a.ptn_out, "w")) == NULL) {
        tak_book_free(book, book_count);
        return cli_fail(cmd, "cannot write %s: %s", a.ptn_out, strerror(errno));
    }
    c->report = on_game;
    c->user = &a;
    TakMatchOutcome out;
    TakError err;
    bool ok = tak_match_run(c, &out, &err);
    if (a.ptn_file) fclose(a.ptn_file);
    tak_book_free(book, book_count);
    if (!ok) return cli_fail(cmd, "%s", err.message);

    const TakMatchScore *sc = &out.score;
    int n = sc->wins + sc->losses + sc->draws;
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", c->players[0].name, c->players[1].name,
           sc->wins, sc->losses, sc->draws, n ? (sc->wins + 0.5 * sc->draws) / n : 0.0, n);
    print_elo(sc);
    if (c->sprt_enabled) {
        double lo, hi;
        tak_sprt_bounds(&c->sprt, &lo, &hi);
        const char *state = out.sprt == TAK_SPRT_ACCEPT_H1   ? "H1 accepted"
                            : out.sprt == TAK_SPRT_ACCEPT_H0 ? "H0 accepted"
                                                             : "no decision yet";
        printf("SPRT: elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f [%.2f, %.2f], %s\n", c->sprt.elo0,
               c->sprt.elo1, c->sprt.alpha, c->sprt.beta, out.llr, lo, hi, state);
    }
    return CLI_OK;
}
