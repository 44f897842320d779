/*
 * playtak_lines.c: what a PlayTak client's lines ask (Client.java's
 * commands at the commit in bench/PLAYTAK.md), done with the lobby's and the
 * games' own functions, and a game's changes told back as PlayTak's lines
 * (Game Start, moves, Time, Undo, offers, Over). A line the real server
 * would refuse gets its answer ("NOK", "Error:...", "Authentication
 * failure"); a move is played only in the connection's own seat, on its
 * turn, and only when the rules take it. The seeks and the game list are
 * playtak_seeks.c's, the chat playtak_chat.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "playtak_port.h"

/* A game starts for c: nothing else of its is open any more. */
static void start_game(PtConn *c, LiveGame *g, int color) {
    while (lobby_cancel(c->ss.server, &c->ss, NULL)) {}
    if (c->guest) memcpy(c->guest->game, g->info.id, sizeof c->guest->game);
    c->told_game = NULL;              /* a new game: its start is told, whatever was told before */
    session_attach(&c->ss, g, color); /* tells it the game (playtak_port_game_changed) */
}

void playtak_port_seek_taken(Server *s, Session *seeker, LiveGame *g, int color) {
    (void)s;
    start_game(seeker->pt, g, color);
}

bool pt_playing(const PtConn *c) {
    return c->ss.game && c->ss.seat >= 0 && !c->told_over &&
           tak_game_result(&c->ss.game->game).end == TAK_END_NONE;
}

static bool on_accept(PtConn *c, int no) {
    if (pt_playing(c)) return false;
    SeatPlayer taker;
    memset(&taker, 0, sizeof taker);
    taker.id = c->ss.player;
    snprintf(taker.name, sizeof taker.name, "%.20s", c->name);
    taker.rating = players_rating_now(c->ss.server, c->ss.player, 0);
    char why[TAK_ERROR_MESSAGE_MAX];
    int seat;
    LobbySeek taken;
    LiveGame *g = lobby_take(c->ss.server, &c->ss, NULL, no, &taker, &seat, &taken, why, sizeof why);
    if (g == NULL) return false;
    start_game(c, g, seat);
    if (taken.engine_level) engine_seeks_taken(c->ss.server, &taken); /* after its Game Start */
    return true;
}

/* ---- a game's changes, told --------------------------------------------------------- */

static void send_start(PtConn *c, LiveGame *g) {
    char w[TAK_PT_NAME_MAX], b[TAK_PT_NAME_MAX];
    const StoredGame *i = &g->info;
    pt_shown_name(i->name[0], w);
    pt_shown_name(i->name[1], b);
    pt_send(c, "Game Start %d %d %s vs %s %s %lld %d %d %d %d %lld", pt_game_no(c->ss.server, g),
            i->rules.size, w, b, c->ss.seat ? "black" : "white",
            (long long)(i->clock.base_ms / 1000), i->rules.half_komi < 0 ? 0 : i->rules.half_komi,
            i->rules.stones, i->rules.capstones, i->clock.extra_move,
            (long long)(i->clock.extra_ms / 1000));
}

/* A watcher (seat -1, by Observe) is told the game's form, its moves and
 * clocks and its end, as PlayTak tells spectators; its players' offers are theirs. */
void playtak_port_game_changed(Server *s, Session *ss, LiveGame *g) {
    PtConn *c = ss->pt;
    if (c == NULL) return;
    bool watching = ss->seat < 0;
    if (c->told_game != g) {
        c->told_game = g;
        c->told_ply = 0;
        c->told_over = c->told_draw = c->told_undo = false;
        if (watching) {
            char form[PT_LINE_MAX];
            pt_game_form(s, g, form);
            pt_send(c, "Observe %s", form);
        } else {
            send_start(c, g);
        }
    }
    if (c->told_over) return;
    int no = pt_game_no(s, g);
    bool changed = false;
    for (; c->told_ply > g->game.count; c->told_ply--, changed = true)
        pt_send(c, "Game#%d Undo", no);
    if (c->told_ply < g->game.count) {
        for (size_t i = c->told_ply; i < g->game.count; i++) {
            char text[64];
            bool own = c->own_move && i + 1 == g->game.count; /* PlayTak does not echo it */
            if (!own &&
                tak_pt_move_write(g->game.moves[i], g->info.rules.size, text, sizeof text) > 0)
                pt_send(c, "Game#%d %s", no, text);
        }
        c->told_ply = g->game.count;
        changed = true;
    }
    TakResult res = tak_game_result(&g->game);
    if (changed && clock_timed(g)) {
        int64_t left[2];
        clock_left(g, clock_now_ms(), left);
        pt_send(c, "Game#%d Time %lld %lld", no, (long long)(left[0] > 0 ? left[0] / 1000 : 0),
                (long long)(left[1] > 0 ? left[1] / 1000 : 0));
    }
    if (res.end != TAK_END_NONE) {
        c->told_over = true;
        pt_send(c, "Game#%d Over %s", no, tak_result_code(res));
        return;
    }
    if (watching) return;
    int opp = !ss->seat;
    bool draw = g->offer[OFFER_DRAW] == opp, undo = g->offer[OFFER_TAKEBACK] == opp;
    if (draw != c->told_draw) pt_send(c, "Game#%d %s", no, draw ? "OfferDraw" : "RemoveDraw");
    if (undo != c->told_undo) pt_send(c, "Game#%d %s", no, undo ? "RequestUndo" : "RemoveUndo");
    c->told_draw = draw;
    c->told_undo = undo;
}

/* ---- a game's commands: "Game#N ..." ---------------------------------------------------- */

static bool on_game(PtConn *c, const TakPtCommand *cmd) {
    if (!pt_playing(c) || cmd->game != c->ss.game->pt_no) return false;
    Server *s = c->ss.server;
    LiveGame *g = c->ss.game;
    int seat = c->ss.seat;
    TakError err;
    switch (cmd->kind) {
    case TAK_PT_CMD_MOVE: {
        TakMove move;
        if ((int)tak_position_side(&g->game.current) != seat) {
            pt_send(c, "NOK");
            pt_send(c, "Error:Not your turn");
            return true;
        }
        if (!tak_pt_move_to_move(&cmd->move, g->info.rules.size, &move, &err)) {
            pt_send(c, "NOK");
            pt_send(c, "Error:%s", err.message);
            return true;
        }
        c->own_move = true;
        bool ok = games_play(s, g, move, &err);
        c->own_move = false;
        if (!ok) {
            pt_send(c, "NOK");
            pt_send(c, "Error:%s", err.message);
            return true;
        }
        break;
    }
    case TAK_PT_CMD_RESIGN:
        games_end(s, g, TAK_END_RESIGNATION, !seat, &err);
        return true;
    case TAK_PT_CMD_OFFER_DRAW:
        if (g->info.engine_color >= 0) return false;
        if (g->offer[OFFER_DRAW] == !seat) {
            games_end(s, g, TAK_END_AGREEMENT, -1, &err);
        } else if (g->offer[OFFER_DRAW] != seat) {
            g->offer[OFFER_DRAW] = seat;
            games_changed(s, g);
        }
        break;
    case TAK_PT_CMD_REMOVE_DRAW:
        if (g->offer[OFFER_DRAW] == seat) {
            g->offer[OFFER_DRAW] = -1;
            games_changed(s, g);
        }
        break;
    case TAK_PT_CMD_REQUEST_UNDO:
        if (g->info.engine_color >= 0) {
            /* The engine answers as on the page: granted at once, or refused, saying why. */
            if (games_take_back(s, g, seat, &err)) break;
            pt_send(c, "NOK");
            pt_send(c, "Error:%s", err.message);
            return true;
        }
        if (g->offer[OFFER_TAKEBACK] == !seat) {
            /* both ask: the asker's move goes, as "accept" does */
            games_take_back(s, g, !seat, &err);
        } else if (g->offer[OFFER_TAKEBACK] != seat && g->game.count > 0) {
            g->offer[OFFER_TAKEBACK] = seat;
            games_changed(s, g);
        }
        break;
    case TAK_PT_CMD_REMOVE_UNDO:
        if (g->offer[OFFER_TAKEBACK] == seat) {
            g->offer[OFFER_TAKEBACK] = -1;
            games_changed(s, g);
        }
        break;
    default:
        return false;
    }
    pt_send(c, "OK");
    return true;
}

/* ---- watching: "Observe NO", "Unobserve NO" ------------------------------------------------ */

/* A connection follows one game: a player's own comes first (NOK while it
 * plays), and observing another game leaves the one watched before. */
static bool on_observe(PtConn *c, int no) {
    LiveGame *g = pt_game_numbered(c->ss.server, no);
    if (g == NULL || !g->pt_listed || pt_playing(c)) return false;
    c->told_game = NULL;           /* its form and moves are told (anew, if watched already) */
    session_attach(&c->ss, g, -1); /* tells it the game (playtak_port_game_changed) */
    return true;
}

static bool on_unobserve(PtConn *c, int no) {
    LiveGame *g = pt_game_numbered(c->ss.server, no);
    if (g == NULL) return false;
    if (c->ss.game == g && c->ss.seat < 0) {
        c->told_game = NULL;
        session_detach(&c->ss); /* may unload g: not used after */
    }
    pt_send(c, "OK");
    return true;
}

/* ---- logging in --------------------------------------------------------------------- */

PtConn *pt_logged_in_as(PtPort *port, const char *name) {
    for (PtConn *o = port->conns; o; o = o->next)
        if (o->logged_in && !o->dead && strcasecmp(o->name, name) == 0) return o;
    return NULL;
}

/* The game c's player left going (a lost connection): PlayTak gives it back
 * on the next login, with every move so far. A player's seat is found by its
 * id; a guest's only by the game its rejoin token last started (a guest's
 * name alone proves nothing). Only loaded games are looked at. */
static void resume(PtConn *c) {
    Server *s = c->ss.server;
    LiveGame *g = NULL;
    if (c->guest && c->guest->game[0]) g = games_loaded(s, c->guest->game);
    for (size_t b = 0; g == NULL && c->ss.player && b < s->bucket_count; b++)
        for (LiveGame *h = s->buckets[b]; h && g == NULL; h = h->hnext)
            if ((h->info.player[0] == c->ss.player || h->info.player[1] == c->ss.player) &&
                tak_game_result(&h->game).end == TAK_END_NONE)
                g = h;
    if (g == NULL || tak_game_result(&g->game).end != TAK_END_NONE) return;
    for (int color = 0; color < 2; color++)
        if (c->ss.player
                ? g->info.player[color] == c->ss.player
                : g->info.player[color] == 0 && strcmp(g->info.name[color], c->name) == 0) {
            c->told_game = NULL;
            session_attach(&c->ss, g, color);
            pt_send(c, "Message Your game is resumed");
            return;
        }
}

static void welcome(PtConn *c, const char *name) {
    PtConn *old = pt_logged_in_as(c->port, name);
    if (old) {
        pt_send(old, "Message You've logged in from another window. Disconnecting");
        pt_close_later(old);
        old->logged_in = false;
    }
    snprintf(c->name, sizeof c->name, "%s", name);
    c->logged_in = true;
    c->port->online++;
    char shown[TAK_PT_NAME_MAX];
    pt_shown_name(c->name, shown); /* as its games and seeks show it */
    pt_send(c, "Welcome %s!", shown);
    pt_send_seeks(c);
    pt_send_game_list(c); /* then its news, as PlayTak's listeners get them */
    pt_send(c, "Online %d", c->port->online);
    resume(c);
}

/* "Login Guest [TOKEN]": a guest, named as PlayTak names them; the same
 * token (20 small letters, or none: tak_pt_client_read checks) gets the same name back. */
static void on_login_guest(PtConn *c, const char *token) {
    PtPort *port = c->port;
    size_t n = strlen(token);
    for (int i = 0; n && i < PT_GUESTS_MAX; i++)
        if (strcmp(port->guests[i].token, token) == 0) {
            c->guest = &port->guests[i];
            return welcome(c, port->guests[i].name);
        }
    char name[TAK_PT_NAME_MAX];
    snprintf(name, sizeof name, "Guest%d", ++port->next_guest);
    if (n) {
        PtGuest *g = &port->guests[port->guest_next++ % PT_GUESTS_MAX];
        memcpy(g->token, token, n + 1);
        memcpy(g->name, name, sizeof name);
        g->game[0] = '\0';
        c->guest = g;
    }
    welcome(c, name);
}

/* "Login NAME SECRET": a player of the page, whose password is its identity secret. */
static void on_login(PtConn *c, const char *name, const char *secret) {
    StoredPlayer pl;
    bool found = false;
    TakError err;
    if (strlen(name) > STORE_NAME_LEN ||
        !players_by_secret(c->ss.server, secret, &pl, &found, &err) || !found ||
        strcasecmp(pl.name, name) != 0)
        return pt_send(c, "Authentication failure");
    c->ss.player = pl.id;
    memcpy(c->ss.player_name, pl.name, sizeof pl.name);
    welcome(c, pl.name);
}

/* ---- the dispatch ----------------------------------------------------------------------- */

/* A line refused by the reader gets PlayTak's NOK; a game's line also says
 * why, as a refused move does. */
void pt_line(PtConn *c, char *line, size_t len) {
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)line[i] < ' ')
            line[i] = ' '; /* no control bytes go back out in a Tell */
    TakPtCommand cmd;
    TakError err;
    if (!tak_pt_client_read(line, len, &cmd, &err)) {
        pt_send(c, "NOK");
        if (c->logged_in && strncmp(line, "Game#", 5) == 0) pt_send(c, "Error:%s", err.message);
        return;
    }
    if (cmd.kind == TAK_PT_CMD_QUIT) return pt_close_later(c);
    if (cmd.kind == TAK_PT_CMD_PING) return pt_send(c, "OK");
    if (!c->logged_in) {
        switch (cmd.kind) {
        case TAK_PT_CMD_CLIENT:
        case TAK_PT_CMD_PROTOCOL:
            return pt_send(c, "OK");
        case TAK_PT_CMD_LOGIN_GUEST:
            return on_login_guest(c, cmd.secret);
        case TAK_PT_CMD_LOGIN:
            return on_login(c, cmd.name, cmd.secret);
        default:
            return pt_send(c, "NOK");
        }
    }
    bool ok = true;
    switch (cmd.kind) {
    case TAK_PT_CMD_SEEK:
        ok = !pt_playing(c) && pt_on_seek(c, &cmd.seek);
        break;
    case TAK_PT_CMD_ACCEPT:
        ok = on_accept(c, cmd.game);
        break;
    case TAK_PT_CMD_MOVE:
    case TAK_PT_CMD_RESIGN:
    case TAK_PT_CMD_OFFER_DRAW:
    case TAK_PT_CMD_REMOVE_DRAW:
    case TAK_PT_CMD_REQUEST_UNDO:
    case TAK_PT_CMD_REMOVE_UNDO:
        ok = on_game(c, &cmd);
        break;
    case TAK_PT_CMD_LIST:
        pt_send_seeks(c);
        break;
    case TAK_PT_CMD_GAME_LIST:
        pt_send_game_list(c);
        break;
    case TAK_PT_CMD_SHOUT:
        pt_on_shout(c, cmd.text);
        break;
    case TAK_PT_CMD_TELL:
        pt_on_tell(c, cmd.name, cmd.text);
        break;
    case TAK_PT_CMD_OBSERVE:
        ok = on_observe(c, cmd.game);
        break;
    case TAK_PT_CMD_UNOBSERVE:
        ok = on_unobserve(c, cmd.game);
        break;
    case TAK_PT_CMD_JOIN_ROOM:
        pt_on_join_room(c, cmd.room);
        break;
    case TAK_PT_CMD_LEAVE_ROOM:
        pt_on_leave_room(c, cmd.room);
        break;
    case TAK_PT_CMD_SHOUT_ROOM:
        pt_on_shout_room(c, cmd.room, cmd.text);
        break;
    default:
        ok = false; /* Client, Protocol and Login are for before logging in */
    }
    if (!ok) pt_send(c, "NOK");
}

void pt_conn_closing(PtConn *c) {
    if (c->logged_in) c->port->online--;
    c->logged_in = false;
}
