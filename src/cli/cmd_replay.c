/*
 * cmd_replay.c: `tak replay FILE`, reading a PTN game and replaying every move,
 * then printing the final TPS and the result the game itself reached. The
 * Result tag is a claim by whoever wrote the file, so it is not printed:
 * what counts is the board (and the game's history, for repetition).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const CliCommand replay_command = {
    "replay",
    "[--branch NAME] FILE",
    "Reads the PTN game in FILE ('-' for stdin), replays every move, and prints\n"
    "the final position (TPS) and, on the last line, the result reached on the\n"
    "board: R-0, 0-R, F-0, 0-F, 1/2-1/2, or * when the game is not over there\n"
    "(a resignation or a loss on time is not on the board, so it prints *).\n"
    "A malformed or illegal move fails with its line, column, move and ply.\n"
    "Branches (variations, as PTN Ninja writes them) are read and checked too.\n"
    "\n"
    "Options:\n"
    "  --branch NAME   the end of that branch instead of the main line's\n"
    "  --help          show this help\n",
};

/* The result code of what happened on the board and in the game's history;
 * endings the game only records (resignation, time, agreement) are not. */
static const char *result_code(const TakGame *game) {
    TakResult result = tak_game_result(game);
    switch (result.end) {
    case TAK_END_RESIGNATION:
    case TAK_END_TIME:
    case TAK_END_AGREEMENT:
        return "*";
    default:
        return tak_result_code(result);
    }
}

int cmd_replay(int argc, char **argv) {
    const CliCommand *cmd = &replay_command;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    const char *path, *branch = NULL;
    if (argc > 1 && cli_option(argc, argv, &(int){1}, "--branch", &branch)) {
        if (branch == NULL || branch[0] == '\0') return cli_usage_error(cmd, "--branch needs a name");
        int skip = strchr(argv[1], '=') ? 1 : 2; /* "--branch=NAME" or "--branch NAME" */
        argc -= skip;
        argv += skip;
    }
    int status = cli_single_argument(cmd, argc, argv, "FILE", &path);
    if (status != CLI_OK) return status;

    size_t len;
    char *text = cli_read_file(path, &len);
    if (text == NULL) return cli_fail(cmd, "cannot read %s: %s", path, strerror(errno));
    TakPtn ptn;
    TakError err;
    tak_error_clear(&err);
    bool ok = tak_ptn_read(text, len, &ptn, &err);
    free(text);
    if (!ok) {
        tak_ptn_free(&ptn);
        return cli_fail_error(cmd, strcmp(path, "-") == 0 ? "stdin" : path, &err);
    }
    const TakGame *game = &ptn.game;
    const char *claimed = ptn.result[0] ? ptn.result : tak_ptn_tag(&ptn, "Result");
    if (branch) {
        size_t k = 0;
        while (k < ptn.branch_count && strcmp(ptn.branches[k].name, branch) != 0) k++;
        if (k == ptn.branch_count) {
            tak_ptn_free(&ptn);
            return cli_fail(cmd, "%s has no branch named %s", path, branch);
        }
        game = &ptn.branches[k].game;
        claimed = ptn.branches[k].result[0] ? ptn.branches[k].result : NULL;
    }
    char tps[TAK_TPS_MAX];
    tak_tps_write(&game->current, tps, sizeof tps);
    const char *board = result_code(game);
    /* The board decides; a file that claims another road or flat result is
     * still replayed, but the disagreement is worth a word. */
    if (claimed && (strchr(claimed, 'R') || strchr(claimed, 'F')) && strcmp(claimed, board) != 0)
        fprintf(stderr, "tak replay: warning: the file says %s, the board says %s\n", claimed,
                board);
    printf("%s\n%s\n", tps, board);
    tak_ptn_free(&ptn);
    return CLI_OK;
}
