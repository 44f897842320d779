/*
 * cmd_serve.c: `tak serve`, the web app: parses the options, turns SIGINT and
 * SIGTERM into a stop request, and runs the server (src/server/).
 */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include <signal.h>
#include <string.h>

#include "../server/server.h"
#include "cli.h"

static const CliCommand command = {
    "serve",
    "[--port N] [--host ADDR] [--db FILE|URI] [--engine-threads N] [--engine-movetime MS]\n"
    "       [--takat-layers DIR] [--playtak-port N] [--playtak-ws-port N]\n"
    "       [--engine-seeks LIST] [--quiet]",
    "Serves the web app: play Tak in the browser against the engine or a friend, watch\n"
    "and review games. Prints the address to open, then serves until interrupted.\n"
    "\n"
    "  --port N              port to listen on (8080; 0 picks a free one)\n"
    "  --host ADDR           interface to listen on (all)\n"
    "  --db FILE             the SQLite file games are kept in, created when missing\n"
    "                        (tak.db in the current directory)\n"
    "  --db postgresql://... a PostgreSQL database instead (libpq URI); several\n"
    "                        servers sharing it share their games\n"
    "  --engine-threads N    searches the engine runs at once (2)\n"
    "  --engine-movetime MS  the most one engine move may take (2000)\n"
    "  --takat-layers DIR    the solved tables of TAKAT ('tak takat layers solve DIR'):\n"
    "                        where they reach, level 10 plays perfectly and the page\n"
    "                        says who wins with perfect play\n"
    "  --playtak-port N      also speak PlayTak's text protocol (TCP lines, as\n"
    "                        playtak.com's port 10000) on port N, for the bots and\n"
    "                        clients written for PlayTak, in the same lobby and games\n"
    "                        (off; 0 picks a free one, printed)\n"
    "  --playtak-ws-port N   the same over a WebSocket, as PlayTak's port 9999 and\n"
    "                        its web client (off; 0 picks a free one, printed)\n"
    "  --engine-seeks LIST   the engine's standing seeks in the lobby, for the page\n"
    "                        and PlayTak clients alike, posted again when taken:\n"
    "                        LEVEL:SIZE:MIN+SEC[:COLOR] by commas, the engine's\n"
    "                        colour W, B or A (either); e.g. 3:5:3+2,7:6:10+5:W\n"
    "                        (shown as TakEngine3, TakEngine7)\n"
    "  --quiet               no log lines beyond the address\n"
    "  --help                this help\n"
    "\n"
    "A game's creator gets a secret link to their seat; a friend's invitation link\n"
    "takes the other seat; the game's public link watches. Every acknowledged move\n"
    "is in the database: a restarted server resumes every game.\n",
};

/* The one flag a signal handler may set; the loop checks it each turn. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig) {
    (void)sig;
    stop_requested = 1;
}

int cmd_serve(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return cli_help(&command);
    TakServerConfig config;
    tak_server_config_default(&config);
    for (int i = 1; i < argc; i++) {
        const char *v;
        long n;
        if (cli_option(argc, argv, &i, "--port", &v)) {
            if (!v || !cli_parse_int(v, 0, 65535, &n))
                return cli_usage_error(&command, "--port needs a port number (0..65535)");
            config.port = (int)n;
        } else if (cli_option(argc, argv, &i, "--playtak-port", &v)) {
            if (!v || !cli_parse_int(v, 0, 65535, &n))
                return cli_usage_error(&command, "--playtak-port needs a port number (0..65535)");
            config.playtak_port = (int)n;
        } else if (cli_option(argc, argv, &i, "--playtak-ws-port", &v)) {
            if (!v || !cli_parse_int(v, 0, 65535, &n))
                return cli_usage_error(&command, "--playtak-ws-port needs a port (0..65535)");
            config.playtak_ws_port = (int)n;
        } else if (cli_option(argc, argv, &i, "--engine-seeks", &v)) {
            if (!v || !*v) return cli_usage_error(&command, "--engine-seeks needs a list of seeks");
            config.engine_seeks = v;
        } else if (cli_option(argc, argv, &i, "--host", &v)) {
            if (!v || !*v) return cli_usage_error(&command, "--host needs an address");
            config.host = v;
        } else if (cli_option(argc, argv, &i, "--db", &v)) {
            if (!v || !*v) return cli_usage_error(&command, "--db needs a file name or a URI");
            config.db_path = v;
        } else if (cli_option(argc, argv, &i, "--engine-threads", &v)) {
            if (!v || !cli_parse_int(v, 1, 64, &n))
                return cli_usage_error(&command, "--engine-threads needs a number (1..64)");
            config.engine_threads = (int)n;
        } else if (cli_option(argc, argv, &i, "--engine-movetime", &v)) {
            if (!v || !cli_parse_int(v, 1, 600000, &n))
                return cli_usage_error(&command, "--engine-movetime needs milliseconds");
            config.engine_movetime_ms = (int)n;
        } else if (cli_option(argc, argv, &i, "--takat-layers", &v)) {
            if (!v || !*v) return cli_usage_error(&command, "--takat-layers needs a directory");
            config.takat_layers = v;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            config.quiet = true;
        } else {
            return cli_usage_error(&command, "unexpected argument '%s'", argv[i]);
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    config.stop = &stop_requested;
    TakError err;
    if (!tak_server_run(&config, &err)) return cli_fail(&command, "%s", err.message);
    return CLI_OK;
}
