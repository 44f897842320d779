/*
 * moves.c: `tak moves TPS`, the legal moves of a position in PTN, one a
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
    int first = 1;
    if (first < argc && strcmp(argv[first], "--") == 0) first++;
    if (first >= argc) return cli_usage_error(cmd, "missing TPS");
    if (first == 1 && argv[first][0] == '-')
        return cli_usage_error(cmd, "unknown option '%s'", argv[first]);
    if (first + 1 < argc) return cli_usage_error(cmd, "unexpected argument '%s'", argv[first + 1]);

    TakPosition pos;
    TakError err;
    char why[TAK_ERROR_MESSAGE_MAX + 64];
    if (!tak_tps_read(argv[first], NULL, &pos, &err))
        return cli_fail(cmd, "bad TPS '%s': %s", argv[first],
                        tak_error_describe(&err, why, sizeof why));
    TakMoveList list;
    int n = tak_moves_generate(&pos, &list);
    for (int i = 0; i < n; i++) {
        char text[TAK_MOVE_TEXT_MAX];
        tak_move_write(list.moves[i], tak_position_size(&pos), &pos, text);
        puts(text);
    }
    return CLI_OK;
}
