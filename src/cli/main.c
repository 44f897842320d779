/*
 * main.c: the `tak` command. Only dispatches to a subcommand (one file each)
 * and prints the overview; everything else lives with the subcommand.
 */
#include <string.h>

#include "cli.h"
#include "tak/version.h"

typedef struct Subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} Subcommand;

int cmd_takat(int argc, char **argv); /* cmd_takat.c: TAKAT, the second game */
int cmd_serve(int argc, char **argv); /* cmd_serve.c: the web app */

static const Subcommand subcommands[] = {
    {"play", cmd_play, "play a game in the terminal, against the computer or a second human"},
    {"perft", cmd_perft, "count the move sequences of a given depth from a position"},
    {"moves", cmd_moves, "list the legal moves of a position (TPS) in PTN"},
    {"replay", cmd_replay, "replay a PTN game; print its final TPS and its result"},
    {"bench", cmd_bench, "measure move generation speed (perft) on a fixed set of positions"},
    {"tei", cmd_tei, "run the engine under the Tak Engine Interface (stdin/stdout)"},
    {"match", cmd_match, "play engines against each other; score, Elo, SPRT"},
    {"book", cmd_book, "make an opening book of balanced positions for matches"},
    {"analyze", cmd_analyze, "evaluate a position, or every move of a game"},
    {"takat", cmd_takat, "TAKAT, the second game: perft, moves, solve, play"},
    {"serve", cmd_serve, "serve the web app: play, watch and review games in a browser"},
    {"playtak", cmd_playtak, "play on a PlayTak server (playtak.com) as a bot"},
};

static void overview(FILE *out) {
    fprintf(out, "usage: tak COMMAND [OPTIONS] [ARGS]\n"
                 "\n"
                 "Commands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(out, "  %-8s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(out, "\n"
                 "Run 'tak COMMAND --help' for a command's options; 'tak --version' for the version.\n"
                 "Exit status: 0 success, 1 bad input (the message says what), 2 wrong usage.\n");
}

static const Subcommand *find(const char *name) {
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(subcommands[i].name, name) == 0) return &subcommands[i];
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        overview(stderr);
        return CLI_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        overview(stdout);
        return CLI_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("tak %s\n", tak_version());
        return CLI_OK;
    }
    if (strcmp(name, "help") == 0) {
        if (argc == 2) {
            overview(stdout);
            return CLI_OK;
        }
        /* "tak help perft" is the same as "tak perft --help". */
        const Subcommand *sub = find(argv[2]);
        if (sub == NULL) {
            fprintf(stderr, "tak: unknown command '%s'\n", argv[2]);
            return CLI_USAGE;
        }
        char help_flag[] = "--help";
        char *args[] = {argv[2], help_flag, NULL};
        return sub->run(2, args);
    }
    const Subcommand *sub = find(name);
    if (sub == NULL) {
        fprintf(stderr, "tak: unknown command '%s'\n\n", name);
        overview(stderr);
        return CLI_USAGE;
    }
    return sub->run(argc - 1, argv + 1);
}
