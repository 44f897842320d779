/*
 * cmd_book.c: `tak book`, making an opening book for matches: random legal
 * openings of a few plies that a shallow search finds near equal, one TPS a
 * line after a comment saying how the book was made (so it can be made
 * again: the same arguments give the same book).
 */
#include <string.h>

#include "cli.h"
#include "tak/match.h"

static const CliCommand book_command = {
    "book",
    "--size N --count M [--komi K] [--seed S] [--plies MIN-MAX] [--depth D] [--max-score CP]\n"
    "       [--flats] [--moves]",
    "Writes M distinct openings for N x N matches to stdout, one TPS a line:\n"
    "MIN..MAX random legal plies from the empty board (2-4), kept when a search\n"
    "of depth D (3) scores them within CP hundredths of a flat (60) of equal.\n"
    "Fewer than M may come out when few openings qualify (a message says so).\n"
    "`tak match --book` reads either form of line.\n"
    "\n"
    "Options:\n"
    "  --size N        board size, 3..8\n"
    "  --count M       openings wanted\n"
    "  --komi K        komi in flats, halves allowed (0)\n"
    "  --seed S        random seed (1)\n"
    "  --plies MIN-MAX plies of each opening (2-4)\n"
    "  --depth D       depth of the judging search (3)\n"
    "  --max-score CP  largest |score| kept (60)\n"
    "  --flats         random plies place flats only, as players' openings do\n"
    "  --moves         write each opening as its plies (\"a1 e5 c3 b2\"), as\n"
    "                  racetrack's books do, rather than as TPS\n"
    "  --help          show this help\n",
};

/* Each opening as it is found: a deep book takes many minutes, and a file
 * filling line by line shows how far it has got. */
static void print_tps(const char *tps, void *user) {
    (void)user;
    printf("%s\n", tps);
    fflush(stdout);
}

int cmd_book(int argc, char **argv) {
    const CliCommand *cmd = &book_command;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    TakBookConfig c = {.seed = 1, .min_plies = 2, .max_plies = 4, .depth = 3, .max_score = 60};
    long n;
    const char *size = NULL, *count = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (cli_option(argc, argv, &i, "--size", &v)) {
            size = v;
        } else if (cli_option(argc, argv, &i, "--count", &v)) {
            count = v;
        } else if (cli_option(argc, argv, &i, "--komi", &v)) {
            if (!cli_parse_komi(v, &c.half_komi)) return cli_usage_error(cmd, "bad --komi");
        } else if (cli_option(argc, argv, &i, "--seed", &v)) {
            if (!cli_parse_int(v, 0, 0x7fffffffffffffffL, &n)) return cli_usage_error(cmd, "bad --seed");
            c.seed = (uint64_t)n;
        } else if (cli_option(argc, argv, &i, "--plies", &v)) {
            int lo, hi, used = 0;
            if (v == NULL || sscanf(v, "%d-%d%n", &lo, &hi, &used) != 2 || v[used] != '\0' || lo < 1 ||
                hi < lo || hi > 16)
                return cli_usage_error(cmd, "--plies needs MIN-MAX, 1 <= MIN <= MAX <= 16");
            c.min_plies = lo;
            c.max_plies = hi;
        } else if (cli_option(argc, argv, &i, "--depth", &v)) {
            if (!cli_parse_int(v, 1, 64, &n)) return cli_usage_error(cmd, "--depth needs 1..64");
            c.depth = (int)n;
        } else if (strcmp(argv[i], "--flats") == 0) {
            c.flats_only = true;
        } else if (strcmp(argv[i], "--moves") == 0) {
            c.as_moves = true;
        } else if (cli_option(argc, argv, &i, "--max-score", &v)) {
            if (!cli_parse_int(v, 1, 100000, &n)) return cli_usage_error(cmd, "--max-score needs a positive number");
            c.max_score = (int)n;
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    if (size == NULL || count == NULL) return cli_usage_error(cmd, "give --size and --count");
    if (!cli_parse_int(size, TAK_MIN_SIZE, TAK_MAX_SIZE, &n)) return cli_usage_error(cmd, "--size needs 3..8");
    c.size = (int)n;
    if (!cli_parse_int(count, 1, 1000000, &n)) return cli_usage_error(cmd, "--count needs 1..1000000");
    c.count = (int)n;
    printf("# tak book --size %d --count %d --komi %g --seed %llu --plies %d-%d --depth %d --max-score %d%s%s\n",
           c.size, c.count, c.half_komi / 2.0, (unsigned long long)c.seed, c.min_plies, c.max_plies,
           c.depth, c.max_score, c.flats_only ? " --flats" : "", c.as_moves ? " --moves" : "");
    TakError err;
    int made = tak_book_generate(&c, print_tps, NULL, &err);
    if (made < 0) return cli_fail(cmd, "%s", err.message);
    if (made < c.count) fprintf(stderr, "tak book: only %d openings qualified (of %d wanted)\n", made, c.count);
    return CLI_OK;
}
