/*
 * server.c: the process: libwebsockets' context and event loop, one protocol
 * callback for both the page (HTTP GET of the embedded web/ files) and the
 * game WebSocket, the per-connection send queues, and start and stop. The
 * Server lives on tak_server_run's stack and is reached through the
 * context's user pointer.
 */
#define _POSIX_C_SOURCE 200809L /* sigset_t, pthread_sigmask */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

#include <ev.h>

#include "internal.h"

/* ---- shared messages ---------------------------------------------------------- */

Outbuf *outbuf_new(const char *text, size_t len) {
    Outbuf *b = malloc(sizeof *b);
    if (b == NULL) return NULL;
    b->data = malloc(LWS_PRE + len);
    if (b->data == NULL) {
        free(b);
        return NULL;
    }
    memcpy(b->data + LWS_PRE, text, len);
    b->len = len;
    b->refs = 1;
    return b;
}

Outbuf *outbuf_json(json_t *msg) {
    if (msg == NULL) return NULL;
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (text == NULL) return NULL;
    Outbuf *b = outbuf_new(text, strlen(text));
    free(text);
    return b;
}

void outbuf_release(Outbuf *b) {
    if (b && --b->refs == 0) {
        free(b->data);
        free(b);
    }
}

/* ---- sessions ------------------------------------------------------------------- */

void session_send(Session *ss, Outbuf *b) {
    if (b == NULL || ss->closing) return;
    if (ss->qlen == QUEUE_MAX) {
        /* A reader this slow would only fall further behind: drop it. */
        ss->closing = true;
        lws_callback_on_writable(ss->wsi);
        return;
    }
    b->refs++;
    ss->queue[(ss->qhead + ss->qlen++) % QUEUE_MAX] = b;
    lws_callback_on_writable(ss->wsi);
}

void session_send_json(Session *ss, json_t *msg) {
    Outbuf *b = outbuf_json(msg);
    session_send(ss, b);
    outbuf_release(b);
}

void session_detach(Session *ss) {
    LiveGame *g = ss->game;
    if (g == NULL) return;
    if (ss->prev)
        ss->prev->next = ss->next;
    else
        g->subs = ss->next;
    if (ss->next) ss->next->prev = ss->prev;
    ss->prev = ss->next = NULL;
    ss->game = NULL;
    ss->seat = -1;
    g->sub_count--;
    games_unload_if_idle(ss->server, g);
}

void session_attach(Session *ss, LiveGame *g, int seat) {
    takat_games_detach(ss); /* a connection follows one game of either kind */
    if (ss->game != g) {
        g->sub_count++; /* first, so detaching from g itself cannot unload it */
        session_detach(ss);
        ss->game = g;
        ss->analyses = 0; /* answers for the game left behind are dropped */
        ss->next = g->subs;
        if (g->subs) g->subs->prev = ss;
        g->subs = ss;
    }
    ss->seat = seat;
    Outbuf *b = games_state(g);
    session_send(ss, b);
    outbuf_release(b);
    chat_history(ss);
}

static void session_close(Session *ss) {
    lobby_session_closed(ss->server, ss);
    session_detach(ss);
    takat_games_detach(ss);
    while (ss->qlen) {
        outbuf_release(ss->queue[ss->qhead]);
        ss->qhead = (ss->qhead + 1) % QUEUE_MAX;
        ss->qlen--;
    }
    free(ss->rx);
    ss->rx = NULL;
}

/* Collects one message from its fragments, within MESSAGE_MAX. */
static void receive(Session *ss, const void *in, size_t len) {
    struct lws *wsi = ss->wsi;
    if (lws_frame_is_binary(wsi)) ss->rx_binary = true;
    if (!ss->rx_too_big && !ss->rx_binary) {
        if (ss->rx_len + len > MESSAGE_MAX) {
            ss->rx_too_big = true;
        } else {
            if (ss->rx == NULL) ss->rx = malloc(MESSAGE_MAX);
            if (ss->rx == NULL) {
                ss->rx_too_big = true;
            } else {
                memcpy(ss->rx + ss->rx_len, in, len);
                ss->rx_len += len;
            }
        }
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0) return;
    if (ss->rx_too_big)
        protocol_error(ss, NULL, "message too large (the limit is %d bytes)", MESSAGE_MAX);
    else if (ss->rx_binary)
        protocol_error(ss, NULL, "binary messages are not accepted: send JSON text");
    else
        protocol_handle(ss, ss->rx ? ss->rx : "", ss->rx_len);
    ss->rx_len = 0;
    ss->rx_too_big = ss->rx_binary = false;
    /* Keep a small buffer for the next message; give a large one back. */
    free(ss->rx);
    ss->rx = NULL;
}

static int write_next(Session *ss) {
    if (ss->closing) {
        lws_close_reason(ss->wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION,
                         (unsigned char *)"too slow", 8);
        return -1;
    }
    if (ss->qlen == 0) return 0;
    Outbuf *b = ss->queue[ss->qhead];
    ss->qhead = (ss->qhead + 1) % QUEUE_MAX;
    ss->qlen--;
    int n = lws_write(ss->wsi, b->data + LWS_PRE, b->len, LWS_WRITE_TEXT);
    outbuf_release(b);
    if (n < 0) return -1;
    if (ss->qlen) lws_callback_on_writable(ss->wsi);
    return 0;
}

/* ---- the page --------------------------------------------------------------------- */

static const Asset *find_asset(const char *uri) {
    /* The page's own addresses: games, TAKAT games, players, the leaderboard, the analysis board. */
    if (strcmp(uri, "/") == 0 || strncmp(uri, "/g/", 3) == 0 || strncmp(uri, "/t/", 3) == 0 ||
        strncmp(uri, "/p/", 3) == 0 || strcmp(uri, "/players") == 0 || strcmp(uri, "/analysis") == 0)
        uri = "/index.html";
    for (unsigned i = 0; i < web_asset_count; i++)
        if (strcmp(uri + 1, web_assets[i].path) == 0) return &web_assets[i];
    return NULL;
}

/* A request header's value into buf (cut to "" when absent or longer than
 * buf: then it is as if not sent). */
static const char *header(struct lws *wsi, enum lws_token_indexes h, char *buf, int size) {
    if (lws_hdr_total_length(wsi, h) >= size || lws_hdr_copy(wsi, buf, size, h) < 0) buf[0] = '\0';
    return buf;
}

static const char *skip_space(const char *v) {
    while (*v == ' ' || *v == '\t') v++;
    return v;
}

/* Whether an Accept-Encoding value takes gzip: a "gzip" (or "x-gzip") coding
 * whose q is not 0, or else a "*" whose q is not 0. */
static bool accepts_gzip(const char *v) {
    double gzip_q = -1, any_q = -1;
    while (*v) {
        v = skip_space(v);
        const char *name = v;
        while (*v && *v != ',' && *v != ';' && *v != ' ' && *v != '\t') v++;
        size_t n = (size_t)(v - name);
        double q = 1;
        while (*v && *v != ',') {
            v = skip_space(*v == ';' ? v + 1 : v);
            if ((*v == 'q' || *v == 'Q') && *skip_space(v + 1) == '=') q = strtod(skip_space(v + 1) + 1, NULL);
            while (*v && *v != ',' && *v != ';') v++;
        }
        if ((n == 4 && strncasecmp(name, "gzip", 4) == 0) || (n == 6 && strncasecmp(name, "x-gzip", 6) == 0))
            gzip_q = q;
        else if (n == 1 && *name == '*')
            any_q = q;
        if (*v == ',') v++;
    }
    return gzip_q >= 0 ? gzip_q > 0 : any_q > 0;
}

/* Whether an If-None-Match value names this entity tag ("*", or one of its
 * comma-separated tags, weak ones too: the comparison is the weak one). */
static bool etag_matches(const char *v, const char *etag) {
    size_t len = strlen(etag);
    if (strcmp(skip_space(v), "*") == 0) return true;
    while (*v) {
        v = skip_space(v);
        if (strncmp(v, "W/", 2) == 0) v += 2;
        if (strncmp(v, etag, len) == 0 && (*skip_space(v + len) == ',' || *skip_space(v + len) == '\0'))
            return true;
        while (*v && *v != ',') v++;
        if (*v == ',') v++;
    }
    return false;
}

static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **p,
                      unsigned char *end) {
    return lws_add_http_header_by_name(wsi, (const unsigned char *)name, (const unsigned char *)value,
                                       (int)strlen(value), p, end);
}

/* Body bytes sent so far live in ss->rx_len (unused by HTTP connections).
 * An API answer (/api/...) is made now, into ss->body, and sent as an asset
 * of its own. A file of the page is sent gzip'd to a client that takes
 * gzip, and with its ETag: every answer says no-cache, so a browser asks
 * again each time, and a copy it holds is answered 304, with no body. */
static int http_start(struct lws *wsi, Session *ss, const char *uri) {
    int status = HTTP_STATUS_OK;
    free(ss->body);
    ss->body = NULL;
    if (strncmp(uri, "/api/", 5) == 0) {
        const char *mime;
        ss->body = players_http(ss->server, uri, &status, &mime);
        if (ss->body == NULL) {
            lws_return_http_status(wsi, HTTP_STATUS_INTERNAL_SERVER_ERROR, "out of memory");
            return lws_http_transaction_completed(wsi) ? -1 : 0;
        }
        ss->body_asset = (Asset){.path = "", .mime = mime, .data = (const unsigned char *)ss->body,
                                 .len = (unsigned)strlen(ss->body)};
        ss->asset = &ss->body_asset;
    } else {
        ss->asset = find_asset(uri);
    }
    if (ss->asset == NULL) {
        /* An address the page does not know: its 404 page (web/404.html),
         * sent plain and without an ETag, so it is never answered 304. */
        const Asset *page = find_asset("/404.html");
        if (page == NULL) {
            lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, "not found");
            return lws_http_transaction_completed(wsi) ? -1 : 0;
        }
        status = HTTP_STATUS_NOT_FOUND;
        ss->body_asset = (Asset){.path = "", .mime = page->mime, .data = page->data, .len = page->len};
        ss->asset = &ss->body_asset;
    }
    const Asset *a = ss->asset;
    char value[1024];
    ss->gzip = a->gz && accepts_gzip(header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING, value, sizeof value));
    bool unchanged = a->etag && etag_matches(header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH, value, sizeof value), a->etag);
    unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start,
                                       *end = buf + sizeof buf - 1;
    if (unchanged ? lws_add_http_header_status(wsi, HTTP_STATUS_NOT_MODIFIED, &p, end)
                  : lws_add_http_common_headers(wsi, (unsigned)status, a->mime, ss->gzip ? a->gz_len : a->len,
                                                &p, end))
        return -1;
    if (add_header(wsi, "cache-control:", "no-cache", &p, end) ||
        (!unchanged && add_header(wsi, "x-content-type-options:", "nosniff", &p, end)) ||
        (a->etag && add_header(wsi, "etag:", a->etag, &p, end)) ||
        (a->gz && add_header(wsi, "vary:", "Accept-Encoding", &p, end)) ||
        (ss->gzip && !unchanged && add_header(wsi, "content-encoding:", "gzip", &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    if (unchanged) {
        ss->asset = NULL;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    ss->rx_len = 0;
    lws_callback_on_writable(wsi);
    return 0;
}

static int http_write(struct lws *wsi, Session *ss) {
    if (ss->asset == NULL) return 0;
    const unsigned char *data = ss->gzip ? ss->asset->gz : ss->asset->data;
    unsigned char buf[LWS_PRE + 16384];
    size_t left = (ss->gzip ? ss->asset->gz_len : ss->asset->len) - ss->rx_len, n = left < 16384 ? left : 16384;
    memcpy(buf + LWS_PRE, data + ss->rx_len, n);
    bool last = n == left;
    if (lws_write(wsi, buf + LWS_PRE, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n)
        return -1;
    ss->rx_len += n;
    if (!last) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    ss->asset = NULL;
    free(ss->body);
    ss->body = NULL;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* ---- the callback -------------------------------------------------------------------- */

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
        memset(ss, 0, sizeof *ss);
        ss->wsi = wsi;
        ss->server = server;
        ss->is_ws = true;
        ss->seat = -1;
        ss->id = ++server->next_session_id;
        return 0;
    case LWS_CALLBACK_RECEIVE:
        receive(ss, in, len);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return write_next(ss);
    case LWS_CALLBACK_CLOSED:
        if (ss->is_ws) session_close(ss);
        return 0;
    case LWS_CALLBACK_CLOSED_HTTP:
        if (ss && !ss->is_ws) {
            free(ss->body);
            ss->body = NULL;
            ss->asset = NULL;
        }
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (server) {
            EngineJob *job = engine_pool_take_done(&server->pool);
            while (job) {
                EngineJob *next = job->next;
                if (job->kind == JOB_ANALYZE)
                    games_analysis_done(server, job);
                else if (job->kind == JOB_TAKAT)
                    takat_games_ai_done(server, job);
                else
                    games_engine_done(server, job);
                engine_job_free(job);
                job = next;
            }
        }
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

static void on_tick(struct ev_loop *loop, ev_timer *w, int revents) {
    (void)revents;
    Server *server = w->data;
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
    if (config->takat_layers && !open_takat_layers(&server, config, err)) {
        free(server.buckets);
        return false;
    }
    server.store = store_open(config->db_path, err);
    if (server.store == NULL) {
        takat_layers_close(server.takat_layers);
        free(server.buckets);
        return false;
    }
    /* The clocks that ran when the last server stopped go on from where they were. */
    server.heartbeat_ms = clock_now_ms();
    if (!server.store->ops->heartbeat(server.store, server.heartbeat_ms, true, err)) {
        server.store->ops->close(server.store);
        takat_layers_close(server.takat_layers);
        free(server.buckets);
        return false;
    }
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
        server.store->ops->close(server.store);
        takat_layers_close(server.takat_layers);
        free(server.buckets);
        return tak_error_set(err, "cannot create the event loop");
    }
    void *foreign_loops[1] = {loop};
    info.options |= LWS_SERVER_OPTION_LIBEV;
    info.foreign_loops = foreign_loops;
    struct lws_context *ctx = lws_create_context(&info);
    if (ctx == NULL) {
        ev_loop_destroy(loop);
        server.store->ops->close(server.store);
        takat_layers_close(server.takat_layers);
        free(server.buckets);
        return tak_error_set(err, "cannot listen on %s port %d (in use?)",
                             config->host ? config->host : "all interfaces", config->port);
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
        engine_pool_stop(&server.pool);
        lws_context_destroy(ctx);
        ev_loop_destroy(loop);
        server.store->ops->close(server.store);
        takat_layers_close(server.takat_layers);
        free(server.buckets);
        return tak_error_set(err, "cannot start the engine threads");
    }

    /* Processes sharing a PostgreSQL store tell each other of changes. */
    if (store_is_postgres(config->db_path)) {
        server.cluster = cluster_start(&server, loop, config->db_path, err);
        if (server.cluster == NULL) {
            engine_pool_stop(&server.pool);
            lws_context_destroy(ctx);
            ev_loop_destroy(loop);
            server.store->ops->close(server.store);
            takat_layers_close(server.takat_layers);
            free(server.buckets);
            return false;
        }
    }

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
    engine_pool_stop(&server.pool);
    cluster_stop(server.cluster);
    lws_context_destroy(ctx);
    ev_loop_destroy(loop);
    games_free_all(&server);
    takat_games_free_all(&server);
    lobby_free(&server);
    server.store->ops->close(server.store);
    takat_layers_close(server.takat_layers);
    free(server.buckets);
    return true;
}
