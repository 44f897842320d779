/*
 * cli.h: what the `tak` command's files share: the subcommands, the exit
 * codes every command uses, and small helpers for arguments and input.
 *
 * Each subcommand lives in its own file, cmd_<name>.c, as
 * `int cmd_<name>(argc, argv)`, where argv[0] is the subcommand's name;
 * main.c only dispatches. Files without the prefix are helpers: args.c
 * (this header's cli_ functions) and play_*.c (the parts of cmd_play.c).
 */
#ifndef TAK_CLI_H
#define TAK_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tak/tak.h"

/* Exit codes of every command. */
enum {
    CLI_OK = 0,        /* success */
    CLI_BAD_INPUT = 1, /* the input was refused: a bad TPS, an illegal move, ... */
    CLI_USAGE = 2,     /* the command line itself was wrong */
};

int cmd_perft(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_tei(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_book(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_playtak(int argc, char **argv);

/* Describes one command for its --help text and its usage errors. */
typedef struct CliCommand {
    const char *name;  /* "perft" */
    const char *usage; /* "[--size N | --tps TPS] [--divide] [--full] DEPTH" */
    const char *help;  /* the rest of --help: what it does, its options */
} CliCommand;

/* Prints "usage: tak NAME USAGE" and the help text to stdout; returns CLI_OK. */
int cli_help(const CliCommand *cmd);

/* Prints "tak NAME: <message>", the usage line and a pointer to --help to
 * stderr; returns CLI_USAGE. */
int cli_usage_error(const CliCommand *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints "tak NAME: <message>" to stderr; returns CLI_BAD_INPUT. */
int cli_fail(const CliCommand *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* As cli_fail, with a library error: "tak NAME: CONTEXT: line L, column C:
 * message" (no CONTEXT when it is NULL). Returns CLI_BAD_INPUT. */
int cli_fail_error(const CliCommand *cmd, const char *context, const TakError *err);

/* Reads a TPS under `rules` (NULL: the standard rules of its size); on
 * failure says "bad TPS" and why, and returns CLI_BAD_INPUT. */
int cli_read_tps(const CliCommand *cmd, const char *tps, const TakRules *rules, TakPosition *pos);

/* For a command that takes one argument and no option but --help: finds
 * it in argv (after an optional "--") and sets *arg, or reports a missing
 * WHAT, an unknown option or an extra argument as wrong usage. Returns
 * CLI_OK or CLI_USAGE. */
int cli_single_argument(const CliCommand *cmd, int argc, char **argv, const char *what,
                        const char **arg);

/* True when argv[*i] is the option `name`: either "NAME VALUE" (taking the
 * next argument, advancing *i) or "NAME=VALUE". *value is NULL when the
 * option was given without a value; the caller reports that. */
bool cli_option(int argc, char **argv, int *i, const char *name, const char **value);

/* True when some argument before a lone "--" is "--help" or "-h". */
bool cli_wants_help(int argc, char **argv);

/* Parses a whole decimal integer in [min, max]. */
bool cli_parse_int(const char *text, long min, long max, long *out);

/* Parses two whole integers joined by `sep` ("3,5", "18-21"), the first in
 * [min_a, max_a] and the second in [min_b, max_b]. */
bool cli_parse_pair(const char *text, char sep, long min_a, long max_a, long min_b, long max_b,
                    long *a, long *b);

/* Reads the value of a TAKAT command's --stones W,B (a reduced game: White
 * 1-6, Black 1-15 stones); on bad input reports wrong usage, sets *rc and
 * returns false. */
bool cli_takat_stones(const CliCommand *cmd, const char *value, long *white, long *black, int *rc);

/* Parses a komi in flats, whole or half ("2", "2.5", "-0.5", "1.0") into
 * half-flats within the library's range. */
bool cli_parse_komi(const char *text, int *half_komi);

/* Reads a whole file, or stdin when path is "-", NUL-terminated. Returns a
 * malloc'd buffer (the caller frees) with its length in *len, or NULL with
 * errno set. */
char *cli_read_file(const char *path, size_t *len);

/* Seconds on a monotonic clock, for timing. */
double cli_seconds(void);

#endif
