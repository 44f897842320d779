/*
 * cmd_perft.c: `tak perft`, counting the move sequences of a given depth from a
 * start position or a TPS: the standard check of a move generator against
 * the published tables (../shared/spec/perft.md). The count is always the
 * last line alone, so scripts can read it with `tail -n 1`.
 */
#include <string.h>

#include "cli.h"

static const CliCommand perft_command = {
    "perft",
    "[--size N | --tps TPS] [--divide] [--full] DEPTH",
    "Counts the move sequences of DEPTH plies from the empty board of size N\n"
    "(default 5) or from the position TPS, under the standard rules of its size\n"
    "(komi does not change the count). Prints the count alone on the last line.\n"
    "\n"
    "Options:\n"
    "  --size N    start from the empty N x N board (3..8)\n"
    "  --tps TPS   start from this position\n"
    "  --divide    first list each legal move (PTN) with the count below it,\n"
    "              one 'MOVE COUNT' a line, then the total\n"
    "  --full      make and unmake every move, the last ply's too (slower;\n"
    "              checks make/unmake) instead of counting the last ply\n"
    "  --help      show this help\n",
};

/* The options after parsing. */
typedef struct PerftArgs {
    const char *size;
    const char *tps;
    const char *depth;
    bool divide, full;
} PerftArgs;

static int parse_args(int argc, char **argv, PerftArgs *args) {
    const CliCommand *cmd = &perft_command;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value;
        if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "--") == 0) {
                options_done = true;
            } else if (cli_option(argc, argv, &i, "--size", &value)) {
                if (value == NULL) return cli_usage_error(cmd, "--size needs a value");
                args->size = value;
            } else if (cli_option(argc, argv, &i, "--tps", &value)) {
                if (value == NULL) return cli_usage_error(cmd, "--tps needs a value");
                args->tps = value;
            } else if (strcmp(arg, "--divide") == 0) {
                args->divide = true;
            } else if (strcmp(arg, "--full") == 0) {
                args->full = true;
            } else {
                return cli_usage_error(cmd, "unknown option '%s'", arg);
            }
        } else if (args->depth == NULL) {
            args->depth = arg;
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", arg);
        }
    }
    if (args->size != NULL && args->tps != NULL)
        return cli_usage_error(cmd, "give --size or --tps, not both");
    if (args->depth == NULL) return cli_usage_error(cmd, "missing DEPTH");
    return CLI_OK;
}

/* The start position the arguments name; reports what is wrong. */
static int load_position(const PerftArgs *args, TakPosition *pos) {
    const CliCommand *cmd = &perft_command;
    if (args->tps != NULL) return cli_read_tps(cmd, args->tps, NULL, pos);
    long size = 5;
    if (args->size != NULL && !cli_parse_int(args->size, TAK_MIN_SIZE, TAK_MAX_SIZE, &size))
        return cli_fail(cmd, "bad size '%s': a board is %d to %d squares wide", args->size,
                        TAK_MIN_SIZE, TAK_MAX_SIZE);
    TakRules rules;
    TakError err;
    if (!tak_rules_standard(&rules, (int)size, &err) || !tak_position_init(pos, &rules, &err))
        return cli_fail_error(cmd, NULL, &err);
    return CLI_OK;
}

static uint64_t count(TakPosition *pos, int depth, bool full) {
    return full ? tak_perft_full(pos, depth) : tak_perft(pos, depth);
}

/* Prints each root move with the count of its subtree; returns the total. */
static uint64_t divide(TakPosition *pos, int depth, bool full) {
    if (depth <= 0) return 1;
    TakMoveList list;
    int n = tak_moves_generate(pos, &list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        TakMove move = list.moves[i];
        char text[TAK_MOVE_TEXT_MAX];
        tak_move_write(move, tak_position_size(pos), pos, text);
        TakUndo undo;
        tak_position_make(pos, move, &undo);
        uint64_t sub = count(pos, depth - 1, full);
        tak_position_unmake(pos, move, &undo);
        printf("%s %llu\n", text, (unsigned long long)sub);
        total += sub;
    }
    return total;
}

int cmd_perft(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return cli_help(&perft_command);
    PerftArgs args = {0};
    int status = parse_args(argc, argv, &args);
    if (status != CLI_OK) return status;
    long depth;
    if (!cli_parse_int(args.depth, 0, 64, &depth))
        return cli_usage_error(&perft_command,
                               "DEPTH must be a whole number from 0 to 64, not '%s'", args.depth);
    TakPosition pos;
    status = load_position(&args, &pos);
    if (status != CLI_OK) return status;
    uint64_t total =
        args.divide ? divide(&pos, (int)depth, args.full) : count(&pos, (int)depth, args.full);
    printf("%llu\n", (unsigned long long)total);
    return CLI_OK;
}
