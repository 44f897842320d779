/*
 * cluster.c: the other `tak serve` processes sharing a PostgreSQL store.
 * After every local change to a game (already committed to the store) this
 * process sends NOTIFY on channel tak_games with the game's id, its plies,
 * its offers and whether its engine thinks, pipelined (the loop does not wait
 * for the answer); a connection of its own LISTENs, its socket watched by the
 * event loop (no polling), and each notification from another process makes
 * games_refresh reload that game, if followed here, and push it to its
 * followers. A lost connection is retried every second, then every loaded
 * game is refreshed (notifications may have been missed).
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <libpq-fe.h>

#include "internal.h"

#define CHANNEL "tak_games"

struct Cluster {
    Server *server;
    struct ev_loop *loop;
    char *conninfo;
    PGconn *conn; /* NULL while reconnecting */
    int pending;  /* NOTIFYs sent whose SYNC has not come back */
    ev_io io;
    ev_timer retry;
};

static void quiet_log(const Cluster *c, const char *what, const char *message) {
    if (c->server->config->quiet) return;
    size_t n = strcspn(message, "\n");
    fprintf(stderr, "tak serve: shared store: %s: %.*s\n", what, (int)n, message);
}

/* A notification's payload: "ID PLIES DRAW TAKEBACK THINKING", offers as
 * LiveGame.offer holds them (-1..3), or "chat ID ROOM" for a chat message.
 * Anything else (another program on the channel) is ignored. */
static void on_notification(Cluster *c, const char *payload) {
    char id[STORE_ID_LEN + 2];
    long plies;
    int offer[2], thinking, end = 0, room;
    if (sscanf(payload, "chat %11s %d%n", id, &room, &end) == 2 && payload[end] == '\0' &&
        strlen(id) == STORE_ID_LEN)
        return chat_refresh(c->server, id, room);
    end = 0;
    if (sscanf(payload, "%11s %ld %d %d %d%n", id, &plies, &offer[0], &offer[1], &thinking, &end) !=
            5 ||
        payload[end] != '\0' || strlen(id) != STORE_ID_LEN || plies < 0)
        return;
    for (int i = 0; i < 2; i++)
        if (offer[i] < -1 || offer[i] > OFFER_DECLINED + 1) return;
    games_refresh(c->server, id, (size_t)plies, offer, thinking != 0);
}

static void lost(Cluster *c);

/* Hands over every notification libpq has read, but this process's own. */
static void drain(Cluster *c) {
    PGnotify *n;
    int self = PQbackendPID(c->conn);
    while ((n = PQnotifies(c->conn)) != NULL) {
        if (n->be_pid != self) on_notification(c, n->extra);
        PQfreemem(n);
    }
}

/* Takes the answers to the NOTIFYs sent, as far as they have come: each
 * query's result, a NULL, then the SYNC that ends it. */
static void take_results(Cluster *c) {
    while (c->pending > 0 && !PQisBusy(c->conn)) {
        PGresult *r = PQgetResult(c->conn);
        if (r == NULL) continue; /* the end of one query's results */
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_PIPELINE_SYNC)
            c->pending--;
        else if (st != PGRES_TUPLES_OK && st != PGRES_PIPELINE_ABORTED)
            quiet_log(c, "cannot tell the other servers", PQresultErrorMessage(r));
        PQclear(r);
    }
}

/* Watches for reading, and for writing while libpq has unsent bytes. */
static void watch(Cluster *c, bool want_write) {
    int events = EV_READ | (want_write ? EV_WRITE : 0);
    if ((c->io.events & (EV_READ | EV_WRITE)) == events) return;
    ev_io_stop(c->loop, &c->io);
    ev_io_set(&c->io, PQsocket(c->conn), events);
    ev_io_start(c->loop, &c->io);
}

/* Sends what libpq still holds and watches for writing while some is left;
 * false (the connection given up) when the socket failed. */
static bool flush(Cluster *c) {
    int left = PQflush(c->conn);
    if (left < 0) {
        quiet_log(c, "connection lost", PQerrorMessage(c->conn));
        lost(c);
        return false;
    }
    watch(c, left == 1);
    return true;
}

static void on_io(struct ev_loop *loop, ev_io *w, int revents) {
    (void)loop;
    Cluster *c = w->data;
    if (c->conn == NULL) return;
    if ((revents & EV_WRITE) && !flush(c)) return;
    if (!PQconsumeInput(c->conn)) { /* the socket is non-blocking: this never waits */
        quiet_log(c, "connection lost", PQerrorMessage(c->conn));
        lost(c);
        return;
    }
    take_results(c);
    drain(c);
}

static bool listen_now(Cluster *c, TakError *err) {
    PGconn *conn = PQconnectdb(c->conninfo);
    PGresult *r = NULL;
    if (conn && PQstatus(conn) == CONNECTION_OK) r = PQexec(conn, "LISTEN " CHANNEL);
    if (r == NULL || PQresultStatus(r) != PGRES_COMMAND_OK) {
        const char *m = r ? PQresultErrorMessage(r) : conn ? PQerrorMessage(conn) : "out of memory";
        tak_error_set(err, "cannot listen for other servers: %.*s", (int)strcspn(m, "\n"), m);
        PQclear(r);
        PQfinish(conn);
        return false;
    }
    PQclear(r);
    /* From here NOTIFYs are sent without waiting for their answers, which
     * on_io takes as they come: no round trip holds up the loop. */
    if (PQsetnonblocking(conn, 1) != 0 || PQenterPipelineMode(conn) != 1) {
        tak_error_set(err, "cannot listen for other servers: no pipeline mode");
        PQfinish(conn);
        return false;
    }
    c->conn = conn;
    c->pending = 0;
    ev_io_init(&c->io, on_io, PQsocket(conn), EV_READ);
    c->io.data = c;
    ev_io_start(c->loop, &c->io);
    return true;
}

static void lost(Cluster *c) {
    ev_io_stop(c->loop, &c->io);
    PQfinish(c->conn);
    c->conn = NULL;
    ev_timer_again(c->loop, &c->retry);
}

static void on_retry(struct ev_loop *loop, ev_timer *w, int revents) {
    (void)revents;
    Cluster *c = w->data;
    TakError err;
    if (c->conn == NULL && !listen_now(c, &err)) return; /* the timer repeats */
    ev_timer_stop(loop, w);
    quiet_log(c, "listening again", "refreshing every game followed here");
    games_refresh_all(c->server);
}

Cluster *cluster_start(Server *s, struct ev_loop *loop, const char *conninfo, TakError *err) {
    Cluster *c = calloc(1, sizeof *c);
    if (c == NULL || (c->conninfo = strdup(conninfo)) == NULL) {
        free(c);
        tak_error_set(err, "out of memory");
        return NULL;
    }
    c->server = s;
    c->loop = loop;
    ev_init(&c->retry, on_retry);
    c->retry.repeat = 1.0;
    c->retry.data = c;
    if (!listen_now(c, err)) {
        free(c->conninfo);
        free(c);
        return NULL;
    }
    return c;
}

void cluster_stop(Cluster *c) {
    if (c == NULL) return;
    ev_timer_stop(c->loop, &c->retry);
    if (c->conn) {
        ev_io_stop(c->loop, &c->io);
        PQfinish(c->conn);
    }
    free(c->conninfo);
    free(c);
}

/* Sends `payload` to the other processes. */
static void notify(Cluster *c, const char *payload) {
    /* Not listening since the connection broke: connect now rather than
     * lose this word; the retry timer, still due, refreshes every game. */
    TakError err;
    if (c->conn == NULL && !listen_now(c, &err)) {
        quiet_log(c, "cannot tell the other servers", err.message);
        return;
    }
    const char *params[1] = {payload};
    if (!PQsendQueryParams(c->conn, "SELECT pg_notify('" CHANNEL "', $1)", 1, NULL, params, NULL,
                           NULL, 0) ||
        !PQpipelineSync(c->conn)) {
        quiet_log(c, "cannot tell the other servers", PQerrorMessage(c->conn));
        if (PQstatus(c->conn) != CONNECTION_OK) lost(c);
        return;
    }
    c->pending++;
    flush(c);
}

void cluster_announce(Cluster *c, const LiveGame *g) {
    if (c == NULL) return;
    char payload[64];
    snprintf(payload, sizeof payload, "%s %zu %d %d %d", g->info.id, g->game.count,
             g->offer[OFFER_DRAW], g->offer[OFFER_TAKEBACK], g->engine_busy ? 1 : 0);
    notify(c, payload);
}

void cluster_announce_chat(Cluster *c, const char *id, int room) {
    if (c == NULL) return;
    char payload[64];
    snprintf(payload, sizeof payload, "chat %s %d", id, room);
    notify(c, payload);
}
