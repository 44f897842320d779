/*
 * playtak_chat.c: PlayTak's chat on the port: Shout (to every PlayTak
 * connection: the page has no room for everyone), Tell (to a connection of
 * the port, or to the page opponent of one's game through the game's players'
 * room, chat.c's, which is the only private talk the page has), and PlayTak's
 * named rooms (JoinRoom, ShoutRoom, LeaveRoom), each connection keeping the
 * few it is in; the room of a game, as PlayTak's clients name it, is the
 * page's spectators' room for the port's watchers of that game. One budget,
 * the page's chat's, covers all of a connection's messages.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "playtak_port.h"

/* ---- text ------------------------------------------------------------------------------ */

/* How many bytes of `text` make its first PT_CHAT_CHARS characters (UTF-8):
 * PlayTak's chat is cut there, never inside a character. */
static int chat_cut(const char *text) {
    size_t i = 0;
    for (int chars = 0; text[i] && chars < PT_CHAT_CHARS; chars++) {
        i++;
        while (((unsigned char)text[i] & 0xC0) == 0x80) i++; /* the character's other bytes */
    }
    return (int)i;
}

/* Shouts and tells take from the same budget as the page's chat (chat_may_send). */
static bool may_talk(PtConn *c) {
    if (chat_may_send(&c->ss)) return true;
    pt_send(c, "Error:too many messages: wait a little");
    return false;
}

void pt_on_shout(PtConn *c, const char *text) {
    if (!may_talk(c)) return;
    int n = chat_cut(text);
    for (PtConn *o = c->port->conns; o; o = o->next)
        if (o->logged_in) pt_send(o, "Shout <%s> %.*s", c->name, n, text);
}

/* The name of the opponent in c's game, going on or just over (a "gg"), or
 * NULL when it holds no seat (with the engine, its seat is nobody's to Tell). */
static const char *opponent(const PtConn *c) {
    if (c->ss.game == NULL || c->ss.seat < 0 || c->ss.game->info.engine_color >= 0) return NULL;
    const char *name = c->ss.game->info.name[!c->ss.seat];
    return name[0] ? name : NULL;
}

static bool is_name(const char *ours, const char *asked) {
    char shown[TAK_PT_NAME_MAX];
    pt_shown_name(ours, shown);
    return strcasecmp(ours, asked) == 0 || strcasecmp(shown, asked) == 0;
}

/* "Tell NAME TEXT": to a PlayTak connection of that name; else, to the
 * opponent of one's game playing on the page, in the game's players' room
 * (the page has no other private messages, so anyone else is "No such player"). */
void pt_on_tell(PtConn *c, const char *name, const char *text) {
    PtConn *to = pt_logged_in_as(c->port, name);
    int n = chat_cut(text);
    if (to) {
        if (!may_talk(c)) return;
        pt_send(to, "Tell <%s> %.*s", c->name, n, text);
        pt_send(c, "Told <%s> %.*s", to->name, n, text);
        return;
    }
    const char *opp = opponent(c);
    if (opp == NULL || !is_name(opp, name)) return pt_send(c, "No such player");
    char said[TAK_PT_TEXT_MAX];
    snprintf(said, sizeof said, "%.*s", n, text);
    TakError err;
    if (!chat_say(&c->ss, said, &err)) return pt_send(c, "Error:%s", err.message);
    char shown[TAK_PT_NAME_MAX];
    pt_shown_name(opp, shown);
    pt_send(c, "Told <%s> %s", shown, said);
}

/* Which of c's rooms `room` is, or -1. */
static int room_index(const PtConn *c, const char *room) {
    for (int i = 0; i < PT_ROOMS_MAX; i++)
        if (c->rooms[i][0] && strcmp(c->rooms[i], room) == 0) return i;
    return -1;
}

void playtak_port_chat(Session *ss, const char *from, const char *text) {
    PtConn *c = ss->pt;
    if (!c->logged_in) return;
    if (ss->seat < 0) { /* the spectators' room: a watcher in the game's room hears it */
        char room[TAK_PT_ROOM_MAX];
        pt_game_room(ss->game, room);
        if (room_index(c, room) >= 0)
            pt_send(c, "ShoutRoom %s <Spectator> %.*s", room, chat_cut(text), text);
        return;
    }
    if (strcmp(from, ss->seat ? "black" : "white") == 0) return; /* its own: it was Told */
    char shown[TAK_PT_NAME_MAX];
    pt_shown_name(ss->game->info.name[!ss->seat], shown);
    pt_send(c, "Tell <%s> %.*s", shown, chat_cut(text), text);
}

/* ---- rooms ----------------------------------------------------------------------------- */

void pt_on_join_room(PtConn *c, const char *room) {
    if (room_index(c, room) < 0) {
        int i;
        for (i = 0; i < PT_ROOMS_MAX && c->rooms[i][0]; i++) {}
        if (i == PT_ROOMS_MAX)
            return pt_send(c, "Error:you are in %d rooms already: leave one first", PT_ROOMS_MAX);
        snprintf(c->rooms[i], sizeof c->rooms[i], "%s", room);
    }
    pt_send(c, "Joined room %s", room);
}

void pt_on_leave_room(PtConn *c, const char *room) {
    int i = room_index(c, room);
    if (i >= 0) c->rooms[i][0] = '\0';
    pt_send(c, "OK");
}

/* Whether `room` is the room of the game c watches, which is the page's
 * spectators' room too. */
static bool watched_room(const PtConn *c, const char *room) {
    if (c->ss.game == NULL || c->ss.seat >= 0) return false;
    char own[TAK_PT_ROOM_MAX];
    pt_game_room(c->ss.game, own);
    return strcmp(own, room) == 0;
}

/* As PlayTak: to every member of the room, the sender too if it is one; a
 * room nobody is in swallows it. A watcher's message in its game's room goes
 * to the page's spectators too, under the page's rules for text. */
void pt_on_shout_room(PtConn *c, const char *room, const char *text) {
    int n = chat_cut(text);
    if (watched_room(c, room)) {
        char said[TAK_PT_TEXT_MAX];
        snprintf(said, sizeof said, "%.*s", n, text);
        TakError err;
        if (!chat_say(&c->ss, said, &err)) return pt_send(c, "Error:%s", err.message);
    } else if (!may_talk(c)) {
        return;
    }
    for (PtConn *o = c->port->conns; o; o = o->next)
        if (o->logged_in && room_index(o, room) >= 0)
            pt_send(o, "ShoutRoom %s <%s> %.*s", room, c->name, n, text);
}
