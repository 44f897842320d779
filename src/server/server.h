/*
 * server.h: `tak serve`, the web app's server: HTTP for the page and a
 * WebSocket for playing, watching and reviewing games, one process with
 * libwebsockets' event loop, games kept in a store (SQLite), engine searches
 * in worker threads. The CLI only fills a TakServerConfig and calls
 * tak_server_run.
 */
#ifndef TAK_SERVER_H
#define TAK_SERVER_H

#include <signal.h>
#include <stdbool.h>

#include "tak/error.h"

typedef struct TakServerConfig {
    const char *host;     /* interface to listen on; NULL for all */
    int port;             /* 0: any free port (printed) */
    const char *db_path;  /* the SQLite file, created when missing, or a
                           * postgresql:// URI (a store shared by processes) */
    int engine_threads;   /* worker threads for engine opponents (>= 1) */
    int engine_movetime_ms; /* the most an engine move may take */
    bool quiet;           /* no log lines beyond the address */
    /* The layered tables of TAKAT (`tak takat layers solve DIR`), or NULL:
     * where the solved layers reach, level 10 plays perfectly and the page
     * shows who wins with perfect play. */
    const char *takat_layers;
    /* Set (by a signal handler) to ask the server to stop; checked after
     * every turn of the event loop. */
    volatile sig_atomic_t *stop;
    /* PlayTak's text protocol (TCP lines, as PlayTak's port 10000) on this
     * port, mapped onto the same lobby, games and players; 0: any free port
     * (printed as "tak serve: playtak port N"); negative: off. */
    int playtak_port;
    /* The same lines over a WebSocket (as PlayTak's port 9999 and its web
     * client: a binary or text frame per line), on this port; the same
     * values (printed as "tak serve: playtak websocket port N"). */
    int playtak_ws_port;
    /* The engine's standing seeks in the lobby, as PlayTak's bots keep theirs:
     * "LEVEL:SIZE:MIN+SEC[:COLOR]" by commas (engine_seeks.c), or NULL for none. */
    const char *engine_seeks;
} TakServerConfig;

/* Defaults: all interfaces, port 8080, "tak.db", 2 engine threads, 2 s, no PlayTak port. */
void tak_server_config_default(TakServerConfig *config);

/* Opens the store, listens, prints "tak serve: open http://HOST:PORT/" on
 * stdout, and serves until *config->stop is set. Returns false (with err) when
 * it cannot start; true after a clean stop. */
bool tak_server_run(const TakServerConfig *config, TakError *err);

#endif
