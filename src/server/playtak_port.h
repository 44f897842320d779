/*
 * playtak_port.h: what the files of the PlayTak port share: playtak_port.c
 * (the listener, each connection's bytes, lines and flood limit),
 * playtak_lines.c (what each line asks, and the game's changes told as
 * PlayTak's lines), playtak_seeks.c (seeks, the game list) and playtak_chat.c
 * (shouts, tells, rooms). A connection is a Session like a WebSocket's, so
 * the lobby and the games hold it as they hold any other.
 */
#ifndef TAK_SERVER_PLAYTAK_PORT_H
#define TAK_SERVER_PLAYTAK_PORT_H

#include <ev.h>

#include "internal.h"
#include "tak/playtak.h"

#define PT_LINE_MAX 1024       /* a longer client line is cut off and refused */
#define PT_OUT_MAX (256 << 10) /* bytes waiting for a slow reader before it is dropped */
#define PT_LINES_BURST 100     /* lines a connection may send at once, */
#define PT_LINES_REFILL_MS 10  /* then one per 10 ms (a bot needs a few a second) */
#define PT_CHAT_CHARS 256      /* PlayTak's chat is cut to this many characters */
#define PT_ROOMS_MAX 8         /* PlayTak rooms one connection may be in */
#define PT_SEEK_BURST 5        /* seeks posted at once (each is news to every client), */
#define PT_SEEK_REFILL_MS 1000 /* then one a second */
#define PT_GUESTS_MAX 256      /* guests' rejoin tokens remembered */

typedef struct PtGuest {
    char token[21];
    char name[TAK_PT_NAME_MAX];
    char game[STORE_ID_LEN + 1]; /* the game it last started, resumed on a login with the token */
} PtGuest;

struct PtConn {
    Session ss; /* ss.pt points back here; ss.player is 0 for a guest */
    PtPort *port;
    int fd;           /* a TCP connection's socket, or -1 on a WebSocket */
    ev_io rio, wio;   /* ... and its watchers */
    struct lws *wsi;  /* a WebSocket's connection (playtak_ws.c), or NULL */
    PtConn **ws_slot; /* ... and lws' per-connection data, which points here */
    char in[PT_LINE_MAX + 1];
    size_t in_len;
    bool in_cut; /* the line under way was too long: skipped to its end */
    char *out;
    size_t out_len, out_cap;
    bool dead; /* closed once the loop next writes it (never freed mid-broadcast) */
    bool logged_in;
    char name[TAK_PT_NAME_MAX];
    Bucket lines, seeks; /* its chat's is ss.chat_bucket, shared with the page's chat */
    bool flooded;        /* told it is sending too fast, until a line gets through */
    /* What it has been told of the game it plays (ss.game). */
    LiveGame *told_game;
    size_t told_ply;
    bool told_over, told_draw, told_undo;
    bool own_move;  /* the move being played is its own: PlayTak does not echo it */
    PtGuest *guest; /* a guest with a rejoin token: its entry, or NULL */
    char rooms[PT_ROOMS_MAX][TAK_PT_ROOM_MAX]; /* the rooms it joined ("" a free slot) */
    PtConn *prev, *next;
};

struct PtPort {
    Server *server;
    struct ev_loop *loop;
    int fd;
    ev_io accept_io;
    ev_idle reaper; /* closes dead connections outside any callback chain */
    PtConn *conns;
    int online;
    int next_guest, next_game;
    PtGuest guests[PT_GUESTS_MAX]; /* a ring */
    int guest_next;
};

/* Queues one line (a newline is added) for c; a reader PT_OUT_MAX behind is dropped. */
void pt_send(PtConn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Marks c to be closed (its queued lines are written first, as far as they go). */
void pt_close_later(PtConn *c);
/* A connection (a TCP socket fd, or a WebSocket wsi with fd -1), in the port's list. */
PtConn *pt_conn_new(PtPort *p, int fd, struct lws *wsi);
/* Says PlayTak's greeting ("Welcome!", "Login or Register"). */
void pt_welcome(PtConn *c);
/* Leaves everything and frees c (a TCP one's socket closed). */
void pt_conn_free(PtConn *c);
/* Bytes received: cut into lines, each handed to pt_line, within the limits. */
void pt_take_bytes(PtConn *c, const char *buf, size_t len);
/* Listens for PlayTak's WebSocket (config->playtak_ws_port) on a vhost of the
 * server's lws context (playtak_ws.c). */
bool pt_ws_listen(PtPort *p, TakError *err);

/* playtak_seeks.c: a byte of PlayTak's names (pt_shown_name, our names in
 * PlayTak's shape, is in internal.h: the lobby matches seeks by it); a game's
 * number on the port, given when first needed; the seeks and the game list
 * sent to c; a "Seek" line's seek posted (false: NOK). */
bool pt_ok_char(char ch);
int pt_game_no(Server *s, LiveGame *g);
void pt_send_seeks(PtConn *c);
void pt_send_game_list(PtConn *c);
/* A game as PlayTak's game list and Observe show it ("NO WHITE BLACK SIZE TIME
 * INCR KOMI PIECES CAPS UNRATED 0 TRIGGER AMOUNT"); the loaded game of a number, or NULL. */
void pt_game_form(Server *s, LiveGame *g, char out[PT_LINE_MAX]);
LiveGame *pt_game_numbered(Server *s, int no);
/* The PlayTak room of a game, as PlayTak's clients name it when they watch
 * one: its players' names as shown, sorted, joined by '-'. */
void pt_game_room(const LiveGame *g, char out[TAK_PT_ROOM_MAX]);
bool pt_on_seek(PtConn *c, const TakPtSeek *k);

/* playtak_lines.c: whether c plays a game that goes on; the logged-in
 * connection of a name (any case), or NULL. */
bool pt_playing(const PtConn *c);
PtConn *pt_logged_in_as(PtPort *port, const char *name);

/* playtak_chat.c: Shout, Tell, JoinRoom, LeaveRoom, ShoutRoom from c, answered. */
void pt_on_shout(PtConn *c, const char *text);
void pt_on_tell(PtConn *c, const char *name, const char *text);
void pt_on_join_room(PtConn *c, const char *room);
void pt_on_leave_room(PtConn *c, const char *room);
void pt_on_shout_room(PtConn *c, const char *room, const char *text);

/* One whole line from c (no line ending), len bytes within PT_LINE_MAX, read
 * by tak_pt_client_read (playtak.h) and obeyed; its control bytes are made spaces. */
void pt_line(PtConn *c, char *line, size_t len);
/* A connection about to close: its seek and its game are left (playtak_lines.c). */
void pt_conn_closing(PtConn *c);

#endif
