/*
 * cmd_moves.c: `tak moves TPS`, the legal moves of a position in PTN, one a
 * line, in the order the generator produces them.
 */
#include <string.h>

#include "cli.h"

static const CliCommand moves_command = {
    "moves",
    "TPS",
    "Lists the legal moves of the position TPS (standard rules of its size) in\n"
    "PTN, one a line. A finished game has none.\n"
    "\n"
    "Options:\n"
    "  --help   show this help\n",
};

int cmd_moves(int argc, char **argv) {
    const CliCommand *cmd = &moves_command;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    const char *tps;
    int status = cli_single_argument(cmd, argc, argv, "TPS", &tps);
    if (status != CLI_OK) return status;
    TakPosition pos;
    status = cli_read_tps(cmd, tps, NULL, &pos);
    if (status != CLI_OK) return status;
    TakMoveList list;
    int n = tak_moves_generate(&pos, &list);
    for (int i = 0; i < n; i++) {
        char text[TAK_MOVE_TEXT_MAX];
        tak_move_write(list.moves[i], tak_position_size(&pos), &pos, text);
        puts(text);
    }
    return CLI_OK;
}
