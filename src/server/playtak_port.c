/*
 * playtak_port.c: PlayTak's text protocol on a TCP port of its own, as
 * playtak.com's port 10000 speaks it: the listener and each connection's
 * bytes (libev watchers on the server's loop, beside libwebsockets), cut
 * into lines of at most PT_LINE_MAX, limited to PT_LINES_BURST at once, and
 * the lines going back, queued up to PT_OUT_MAX. What a line means is
 * playtak_lines.c's; playtak_ws.c brings the same lines over a WebSocket. A connection is freed
 * only from the loop's idle watcher, so nothing frees one while a broadcast walks a game's
 * followers.
 */
#define _GNU_SOURCE /* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "playtak_port.h"

/* ---- sending ------------------------------------------------------------------ */

static void on_write(struct ev_loop *loop, ev_io *w, int revents);

void pt_close_later(PtConn *c) {
    if (c->dead) return;
    c->dead = true;
    if (c->wsi)
        lws_callback_on_writable(c->wsi); /* what is queued goes, then it closes */
    else
        ev_idle_start(c->port->loop, &c->port->reaper);
}

void pt_send(PtConn *c, const char *fmt, ...) {
    if (c->dead) return;
    char line[PT_LINE_MAX + 2];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n > sizeof line - 2) n = (int)sizeof line - 2; /* cut, never overrun */
    line[n++] = '\n';
    if (c->out_len + (size_t)n > PT_OUT_MAX) {
        /* A reader this slow would only fall further behind: drop it. */
        c->out_len = 0;
        return pt_close_later(c);
    }
    if (c->out_len + (size_t)n > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 4096;
        while (cap < c->out_len + (size_t)n) cap *= 2;
        char *p = realloc(c->out, cap);
        if (p == NULL) return pt_close_later(c);
        c->out = p;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, line, (size_t)n);
    c->out_len += (size_t)n;
    if (c->wsi)
        lws_callback_on_writable(c->wsi);
    else
        ev_io_start(c->port->loop, &c->wio);
}

static void on_write(struct ev_loop *loop, ev_io *w, int revents) {
    (void)revents;
    PtConn *c = w->data;
    while (c->out_len > 0) {
        ssize_t n = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n <= 0) {
            c->out_len = 0;
            return pt_close_later(c);
        }
        memmove(c->out, c->out + n, c->out_len - (size_t)n);
        c->out_len -= (size_t)n;
    }
    ev_io_stop(loop, w);
}

/* ---- connections ---------------------------------------------------------------- */

void pt_conn_free(PtConn *c) {
    PtPort *p = c->port;
    if (c->wsi) {
        *c->ws_slot = NULL; /* lws' per-connection data no longer names it */
    } else {
        ev_io_stop(p->loop, &c->rio);
        ev_io_stop(p->loop, &c->wio);
        /* What is queued goes if it can at once (a "Message" before a close). */
        if (c->out_len) (void)!send(c->fd, c->out, c->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);
        close(c->fd);
    }
    pt_conn_closing(c);
    session_close(&c->ss);
    if (c->prev)
        c->prev->next = c->next;
    else
        p->conns = c->next;
    if (c->next) c->next->prev = c->prev;
    free(c->out);
    free(c);
}

static void on_reap(struct ev_loop *loop, ev_idle *w, int revents) {
    (void)revents;
    PtPort *p = w->data;
    ev_idle_stop(loop, w);
    for (PtConn *c = p->conns, *next; c; c = next) {
        next = c->next;
        if (c->dead && !c->wsi) pt_conn_free(c); /* a WebSocket's goes when lws closes it */
    }
}

/* Cuts what arrived into lines: "\n" ends one, a "\r" before it is dropped,
 * and a line longer than PT_LINE_MAX is refused once and skipped to its end. */
void pt_take_bytes(PtConn *c, const char *buf, size_t len) {
    for (size_t i = 0; i < len && !c->dead; i++) {
        char ch = buf[i];
        if (ch != '\n') {
            if (c->in_cut) continue;
            if (c->in_len == PT_LINE_MAX) {
                c->in_cut = true;
                c->in_len = 0;
                pt_send(c, "Error:line too long (the limit is %d bytes)", PT_LINE_MAX);
                continue;
            }
            c->in[c->in_len++] = ch;
            continue;
        }
        if (c->in_cut) {
            c->in_cut = false;
            continue;
        }
        if (c->in_len && c->in[c->in_len - 1] == '\r') c->in_len--;
        c->in[c->in_len] = '\0';
        size_t len = c->in_len;
        c->in_len = 0;
        c->ss.server->messages++;
        if (!bucket_take(&c->lines, PT_LINES_BURST, PT_LINES_REFILL_MS)) {
            if (!c->flooded) pt_send(c, "Error:too many lines at once: slow down");
            c->flooded = true;
            continue;
        }
        c->flooded = false;
        pt_line(c, c->in, len);
    }
}

static void on_read(struct ev_loop *loop, ev_io *w, int revents) {
    (void)loop, (void)revents;
    PtConn *c = w->data;
    char buf[4096];
    ssize_t n = recv(c->fd, buf, sizeof buf, 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (n <= 0) {
        c->out_len = 0;
        ev_io_stop(loop, w);
        return pt_close_later(c);
    }
    pt_take_bytes(c, buf, (size_t)n);
}

static void on_accept(struct ev_loop *loop, ev_io *w, int revents) {
    (void)revents;
    PtPort *p = w->data;
    int fd = accept4(p->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    PtConn *c = pt_conn_new(p, fd, NULL);
    if (c == NULL) {
        close(fd);
        return;
    }
    ev_io_start(loop, &c->rio);
    pt_welcome(c);
}

PtConn *pt_conn_new(PtPort *p, int fd, struct lws *wsi) {
    PtConn *c = calloc(1, sizeof *c);
    if (c == NULL) return NULL;
    c->port = p;
    c->fd = fd;
    c->wsi = wsi;
    c->ss.server = p->server;
    c->ss.seat = -1;
    c->ss.pt = c;
    c->ss.id = ++p->server->next_session_id;
    if (fd >= 0) {
        ev_io_init(&c->rio, on_read, fd, EV_READ);
        ev_io_init(&c->wio, on_write, fd, EV_WRITE);
        c->rio.data = c->wio.data = c;
    }
    c->next = p->conns;
    if (p->conns) p->conns->prev = c;
    p->conns = c;
    return c;
}

void pt_welcome(PtConn *c) {
    pt_send(c, "Welcome!");
    pt_send(c, "Login or Register");
}

/* ---- start and stop ----------------------------------------------------------------- */

/* The TCP listener, on config->playtak_port. */
static bool listen_tcp(PtPort *p, Server *s, struct ev_loop *loop, TakError *err) {
    const TakServerConfig *config = s->config;
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)config->playtak_port);
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    if (config->host && inet_pton(AF_INET, config->host, &addr.sin_addr) != 1) {
        return tak_error_set(err, "the PlayTak port listens on an IPv4 address, not %s",
                             config->host);
    }
    int one = 1;
    p->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (p->fd < 0 || setsockopt(p->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(p->fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(p->fd, 128) != 0) {
        if (p->fd >= 0) close(p->fd);
        p->fd = -1;
        return tak_error_set(err, "cannot listen on PlayTak port %d (in use?)",
                             config->playtak_port);
    }
    socklen_t len = sizeof addr;
    getsockname(p->fd, (struct sockaddr *)&addr, &len);
    ev_io_init(&p->accept_io, on_accept, p->fd, EV_READ);
    p->accept_io.data = p;
    ev_io_start(loop, &p->accept_io);
    printf("tak serve: playtak port %d\n", ntohs(addr.sin_port));
    fflush(stdout);
    return true;
}

bool playtak_port_start(Server *s, struct ev_loop *loop, TakError *err) {
    PtPort *p = calloc(1, sizeof *p);
    if (p == NULL) return tak_error_set(err, "out of memory");
    p->server = s;
    p->loop = loop;
    p->fd = -1;
    ev_idle_init(&p->reaper, on_reap);
    p->reaper.data = p;
    s->ptport = p;
    if ((s->config->playtak_port >= 0 && !listen_tcp(p, s, loop, err)) ||
        (s->config->playtak_ws_port >= 0 && !pt_ws_listen(p, err))) {
        playtak_port_stop(s);
        return false;
    }
    return true;
}

void playtak_port_stop(Server *s) {
    PtPort *p = s->ptport;
    if (p == NULL) return;
    while (p->conns) pt_conn_free(p->conns);
    if (p->fd >= 0) {
        ev_io_stop(p->loop, &p->accept_io);
        close(p->fd);
    }
    ev_idle_stop(p->loop, &p->reaper);
    free(p);
    s->ptport = NULL;
}
