/*
 * server.c: the process: libwebsockets' context on libev's loop, the one
 * callback that hands each connection's events to http.c or session.c and
 * the engine pool's finished searches to their files, the timers (clocks,
 * the store's heartbeat, the lobby), and start and stop. The Server lives on
 * tak_server_run's stack and is reached through the context's user pointer.
 */
#define _POSIX_C_SOURCE 200809L /* sigset_t, pthread_sigmask */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <ev.h>

#include "internal.h"

/* ---- the callback -------------------------------------------------------------------- */

/* The engine pool's finished searches, each to the file that asked for it. */
static void jobs_done(Server *server) {
    EngineJob *job = engine_pool_take_done(&server->pool);
    while (job) {
        EngineJob *next = job->next;
        if (job->kind == JOB_ANALYZE)
            review_analysis_done(server, job);
        else if (job->kind == JOB_TAKAT)
            takat_games_engine_done(server, job);
        else
            games_engine_done(server, job);
        engine_job_free(job);
        job = next;
    }
}

/* One callback for every connection: an HTTP one goes to http.c, a
 * WebSocket to session.c. */
static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len) {
    Session *ss = user;
    Server *server = lws_context_user(lws_get_context(wsi));
    switch (reason) {
    case LWS_CALLBACK_HTTP:
        ss->wsi = wsi;
        ss->server = server;
        return http_start(wsi, ss, in ? (const char *)in : "/");
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return http_write(wsi, ss);
    case LWS_CALLBACK_ESTABLISHED:
        session_open(ss, wsi, server);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        session_receive(ss, in, len);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return session_write(ss);
    case LWS_CALLBACK_CLOSED:
        if (ss->is_ws) session_close(ss);
        return 0;
    case LWS_CALLBACK_CLOSED_HTTP:
        if (ss && !ss->is_ws) http_closed(ss);
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (server) jobs_done(server);
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols protocols[] = {
    {"tak", callback, sizeof(Session), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- start and stop ------------------------------------------------------------------- */

void tak_server_config_default(TakServerConfig *config) {
    memset(config, 0, sizeof *config);
    config->port = 8080;
    config->db_path = "tak.db";
    config->engine_threads = 2;
    config->engine_movetime_ms = 2000;
    config->playtak_port = -1;
    config->playtak_ws_port = -1;
}

/* Room for many connections: the soft limit up to the hard one (at most 1 << 17). */
static void raise_file_limit(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
    rlim_t want = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (1 << 17) ? (1 << 17) : rl.rlim_max;
    if (rl.rlim_cur < want) {
        rl.rlim_cur = want;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* SIGINT and SIGTERM, and the caller's stop flag (checked four times a
 * second), end the loop. */
static void on_signal(struct ev_loop *loop, ev_signal *w, int revents) {
    (void)w, (void)revents;
    ev_break(loop, EVBREAK_ALL);
}

static void on_lobby_tick(struct ev_loop *loop, ev_timer *w, int revents) {
    (void)loop, (void)revents;
    lobby_tick(w->data);
}

/* Tells the store this server is up, every STORE_HEARTBEAT_MS: the clocks of
 * a server that stops go on from where they were when it comes back. */
static void heartbeat(Server *s, int64_t now) {
    if (now - s->heartbeat_ms < STORE_HEARTBEAT_MS) return;
    TakError err;
    if (!s->store->ops->heartbeat(s->store, now, false, &err) && !s->config->quiet)
        fprintf(stderr, "tak serve: %s\n", err.message);
    s->heartbeat_ms = now;
}

static void on_tick(struct ev_loop *loop, ev_timer *w, int revents) {
    (void)revents;
    Server *server = w->data;
    heartbeat(server, clock_now_ms());
    clock_tick(server);
    if (*server->config->stop) ev_break(loop, EVBREAK_ALL);
}

/* The solved layers of TAKAT: the directory must exist; which layers are
 * there is said on stderr (the solver may still be writing the lower ones). */
static bool open_takat_layers(Server *server, const TakServerConfig *config, TakError *err) {
    TakatLayers *layers =
        takat_layers_open(config->takat_layers, TAKAT_STONES_WHITE, TAKAT_STONES_BLACK, err);
    if (layers == NULL) return false;
    int top = takat_layers_top(layers), low = top + 1;
    while (low > 0 && takat_layers_have(layers, low - 1)) low--;
    if (!config->quiet) {
        if (low > top)
            fprintf(stderr, "tak serve: no solved TAKAT layers in %s yet\n", config->takat_layers);
        else
            fprintf(stderr, "tak serve: TAKAT layers %d-%d of 0-%d solved: level 10 plays perfectly "
                            "from %d stones on the board\n",
                    low, top, top, low);
    }
    server->takat_layers = layers;
    return true;
}

bool tak_server_run(const TakServerConfig *config, TakError *err) {
    Server server;
    memset(&server, 0, sizeof server);
    server.config = config;
    server.bucket_count = 1 << 14;
    server.buckets = calloc(server.bucket_count, sizeof *server.buckets);
    if (server.buckets == NULL) return tak_error_set(err, "out of memory");
    /* What is started is stopped in the opposite order, from the label
     * below the last thing that started (or all of it after the loop). */
    bool ok = false;
    if (config->takat_layers && !open_takat_layers(&server, config, err)) goto free_buckets;
    server.store = store_open(config->db_path, err);
    if (server.store == NULL) goto close_layers;
    /* The clocks that ran when the last server stopped go on from where they were. */
    server.heartbeat_ms = clock_now_ms();
    if (!server.store->ops->heartbeat(server.store, server.heartbeat_ms, true, err))
        goto close_store;
    raise_file_limit();
    lws_set_log_level(config->quiet ? 0 : LLL_ERR, NULL);

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = config->port;
    info.iface = config->host;
    info.protocols = protocols;
    info.user = &server;
    info.gid = -1;
    info.uid = -1;
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_DISABLE_IPV6;
    /* libev's loop (epoll) rather than lws' own poll(), whose cost grows
     * with every open connection: 10,000 idle sockets made each wakeup slow. */
    struct ev_loop *loop = ev_loop_new(EVFLAG_AUTO);
    if (loop == NULL) {
        tak_error_set(err, "cannot create the event loop");
        goto close_store;
    }
    void *foreign_loops[1] = {loop};
    info.options |= LWS_SERVER_OPTION_LIBEV;
    info.foreign_loops = foreign_loops;
    struct lws_context *ctx = lws_create_context(&info);
    if (ctx == NULL) {
        tak_error_set(err, "cannot listen on %s port %d (in use?)",
                      config->host ? config->host : "all interfaces", config->port);
        goto destroy_loop;
    }
    server.context = ctx;

    /* The workers must not take the signals meant to stop the loop. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    bool started = engine_pool_start(&server.pool, config->engine_threads,
                                     config->engine_movetime_ms, server.takat_layers, ctx);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!started) {
        tak_error_set(err, "cannot start the engine threads");
        goto stop_pool;
    }

    /* Processes sharing a PostgreSQL store tell each other of changes. */
    if (store_is_postgres(config->db_path)) {
        server.cluster = cluster_start(&server, loop, config->db_path, err);
        if (server.cluster == NULL) goto stop_pool;
    }

    /* PlayTak's protocol, for the bots and clients written for PlayTak. */
    if ((config->playtak_port >= 0 || config->playtak_ws_port >= 0) &&
        !playtak_port_start(&server, loop, err))
        goto stop_pool;

    /* The engine's standing seeks, before anyone can look at the lobby. */
    if (config->engine_seeks && !engine_seeks_post(&server, config->engine_seeks, err))
        goto stop_port;

    /* Rated games whose end no process recorded are rated now. */
    players_sweep(&server);

    struct lws_vhost *vh = lws_get_vhost_by_name(ctx, "default");
    int port = vh ? lws_get_vhost_listen_port(vh) : config->port;
    printf("tak serve: open http://%s:%d/\n", config->host ? config->host : "localhost", port);
    fflush(stdout);

    ev_signal sigint, sigterm;
    ev_signal_init(&sigint, on_signal, SIGINT);
    ev_signal_init(&sigterm, on_signal, SIGTERM);
    ev_signal_start(loop, &sigint);
    ev_signal_start(loop, &sigterm);
    ev_timer tick;
    ev_timer_init(&tick, on_tick, 0.25, 0.25);
    tick.data = &server;
    ev_timer_start(loop, &tick);
    ev_timer lobby_timer;
    ev_timer_init(&lobby_timer, on_lobby_tick, LOBBY_SLICE_MS / 1000.0, LOBBY_SLICE_MS / 1000.0);
    lobby_timer.data = &server;
    ev_timer_start(loop, &lobby_timer);
    ev_run(loop, 0);
    ev_signal_stop(loop, &sigint);
    ev_signal_stop(loop, &sigterm);
    ev_timer_stop(loop, &tick);
    ev_timer_stop(loop, &lobby_timer);

    if (!config->quiet)
        fprintf(stderr, "tak serve: stopping (%llu messages, %llu moves served)\n",
                (unsigned long long)server.messages, (unsigned long long)server.moves);
    ok = true;
stop_port:
    playtak_port_stop(&server);
stop_pool:
    engine_pool_stop(&server.pool);
    cluster_stop(server.cluster);
    lws_context_destroy(ctx);
destroy_loop:
    ev_loop_destroy(loop);
    games_free_all(&server);
    takat_games_free_all(&server);
    lobby_free(&server);
close_store:
    server.store->ops->close(server.store);
close_layers:
    takat_layers_close(server.takat_layers);
free_buckets:
    free(server.buckets);
    return ok;
}
