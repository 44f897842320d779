/*
 * cmd_tei.c: `tak tei`, our engine speaking TEI on stdin and stdout for match
 * runners, game viewers and bots. All of the protocol is the library's
 * TakTeiSession; this file only moves lines, reading them with a bounded
 * buffer (an endless line is refused, not swallowed) and flushing each answer.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tak/tei.h"

static const CliCommand tei_command = {
    "tei",
    "[--hash MB]",
    "Runs the engine under the Tak Engine Interface (TEI, UCI with 'uci' renamed\n"
    "'tei'): commands on stdin, answers on stdout, one a line. Both dialects\n"
    "are understood: 'teinewgame 6' with komi from the HalfKomi option, and\n"
    "'teinewgame size 6 halfkomi 4'. Options: HalfKomi, Hash, Threads, MultiPV,\n"
    "Level (1..10). Scores are 'cp' in hundredths of a flat; a won game found\n"
    "by the search is 30000 less the plies to its end (lost: negative). Bad\n"
    "lines are answered 'info string error: ...'. At the end of the input a\n"
    "running search is finished (an infinite one stopped) and its bestmove\n"
    "written.\n"
    "\n"
    "Options:\n"
    "  --hash MB   the Hash option's default (64)\n"
    "  --help      show this help\n",
};

static void write_line(const char *line, void *user) {
    FILE *out = user;
    fputs(line, out);
    fputc('\n', out);
    fflush(out);
}

int cmd_tei(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return cli_help(&tei_command);
    long hash = 0;
    for (int i = 1; i < argc; i++) {
        const char *value;
        if (cli_option(argc, argv, &i, "--hash", &value)) {
            if (!cli_parse_int(value, 1, 65536, &hash))
                return cli_usage_error(&tei_command, "--hash needs megabytes, 1 to 65536");
        } else {
            return cli_usage_error(&tei_command, "unexpected argument '%s'", argv[i]);
        }
    }
    TakTeiConfig config = {.hash_mb = (int)hash};
    TakTeiSession *session = tak_tei_new(&config, write_line, stdout);
    char *buf = malloc((size_t)TAK_TEI_LINE_MAX + 1);
    if (session == NULL || buf == NULL) {
        tak_tei_free(session);
        free(buf);
        return cli_fail(&tei_command, "out of memory");
    }
    size_t n = 0;
    bool too_long = false, go_on = true;
    int ch;
    while (go_on && (ch = getchar()) != EOF) {
        if (ch != '\n') {
            if (n < TAK_TEI_LINE_MAX) buf[n++] = (char)ch;
            else too_long = true;
            continue;
        }
        /* A line over the limit is handed over at limit + 1 bytes, which
         * the session refuses as too long. */
        go_on = tak_tei_handle(session, buf, too_long ? (size_t)TAK_TEI_LINE_MAX + 1 : n);
        n = 0;
        too_long = false;
    }
    if (go_on && (n > 0 || too_long))
        go_on = tak_tei_handle(session, buf, too_long ? (size_t)TAK_TEI_LINE_MAX + 1 : n);
    if (go_on) tak_tei_wait(session);
    tak_tei_free(session);
    free(buf);
    return CLI_OK;
}
