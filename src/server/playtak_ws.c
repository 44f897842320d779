/*
 * playtak_ws.c: PlayTak's lines over a WebSocket, as its port 9999 serves
 * its web client: a vhost of the server's lws context on a port of its own,
 * whose subprotocol is PlayTak's "binary". Each message received is bytes of
 * lines (a last one without "\n" ends with the message); each line sent is
 * one binary frame ending in "\n", as tak-server's Websocket.java writes it.
 * The connection is the same PtConn as a TCP one; only the bytes differ.
 */
#include <stdio.h>
#include <string.h>

#include "playtak_port.h"

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len) {
    PtConn **slot = user;
    Server *server = lws_context_user(lws_get_context(wsi));
    PtPort *p = server ? server->ptport : NULL; /* NULL once the port has stopped */
    PtConn *c = slot ? *slot : NULL;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        if (p == NULL || (c = pt_conn_new(p, -1, wsi)) == NULL) return -1;
        *slot = c;
        c->ws_slot = slot;
        pt_welcome(c);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        if (c == NULL) return -1;
        pt_take_bytes(c, in, len);
        if (!c->dead && lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0 &&
            (c->in_len > 0 || c->in_cut))
            pt_take_bytes(c, "\n", 1); /* the message's last line */
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        if (c == NULL) return -1;
        if (c->out_len == 0) return c->dead ? -1 : 0;
        const char *nl = memchr(c->out, '\n', c->out_len);
        size_t n = nl ? (size_t)(nl - c->out) + 1 : c->out_len;
        unsigned char frame[LWS_PRE + PT_LINE_MAX + 2];
        if (n > PT_LINE_MAX + 1) n = PT_LINE_MAX + 1; /* pt_send never queues longer */
        memcpy(frame + LWS_PRE, c->out, n);
        memmove(c->out, c->out + n, c->out_len - n);
        c->out_len -= n;
        if (lws_write(wsi, frame + LWS_PRE, n, LWS_WRITE_BINARY) < (int)n) return -1;
        if (c->out_len || c->dead) lws_callback_on_writable(wsi);
        return 0;
    }
    case LWS_CALLBACK_CLOSED:
        if (c) pt_conn_free(c);
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

/* Static, as lws keeps them until the context goes, after the port has. */
static const struct lws_protocols protocols[] = {
    {"binary", callback, sizeof(PtConn *), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

bool pt_ws_listen(PtPort *p, TakError *err) {
    Server *s = p->server;
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = s->config->playtak_ws_port;
    info.iface = s->config->host;
    info.protocols = protocols;
    info.vhost_name = "playtak";
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    struct lws_vhost *vh = lws_create_vhost(s->context, &info);
    if (vh == NULL)
        return tak_error_set(err, "cannot listen on PlayTak WebSocket port %d (in use?)",
                             s->config->playtak_ws_port);
    printf("tak serve: playtak websocket port %d\n", lws_get_vhost_listen_port(vh));
    fflush(stdout);
    return true;
}
