/*
 * session.c: a WebSocket connection (a Session): its messages received
 * whole from their fragments and handed to protocol.c, its queue of
 * messages to send (each an Outbuf, written once and shared by every
 * connection it goes to), and the game of either kind it follows.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- shared messages ------------------------------------------------------------ */

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
    /* A PlayTak connection reads no JSON: its game's changes reach it as
     * PlayTak's lines (playtak_port_game_changed). */
    if (b == NULL || ss->closing || ss->pt) return;
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
    clock_release(ss->server, g, clock_now_ms()); /* a player back after a restart */
    if (ss->pt) return playtak_port_game_changed(ss->server, ss, g);
    Outbuf *b = games_state(g);
    session_send(ss, b);
    outbuf_release(b);
    chat_history(ss);
}

void session_open(Session *ss, struct lws *wsi, Server *server) {
    memset(ss, 0, sizeof *ss);
    ss->wsi = wsi;
    ss->server = server;
    ss->is_ws = true;
    ss->seat = -1;
    ss->id = ++server->next_session_id;
}

void session_close(Session *ss) {
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

void session_receive(Session *ss, const void *in, size_t len) {
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
        request_error(ss, NULL, "message too large (the limit is %d bytes)", MESSAGE_MAX);
    else if (ss->rx_binary)
        request_error(ss, NULL, "binary messages are not accepted: send JSON text");
    else
        protocol_handle(ss, ss->rx ? ss->rx : "", ss->rx_len);
    ss->rx_len = 0;
    ss->rx_too_big = ss->rx_binary = false;
    /* Keep a small buffer for the next message; give a large one back. */
    free(ss->rx);
    ss->rx = NULL;
}

int session_write(Session *ss) {
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
