/*
 * playtak_seeks.c: the lobby as PlayTak clients see it: every seek of the
 * lobby (the page's too) announced as "Seek new/remove", PlayTak's three
 * versions of "Seek" (read by tak_pt_client_read) posted as our seeks (one
 * naming an opponent shown to that player only, one naming the engine's seat
 * taken by the engine), the game list (sent on logging in and on asking, then
 * its news: a game listed as it starts, removed as it ends); and the name
 * shape the PlayTak port's lines and the lobby share (internal.h).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "playtak_port.h"

/* ---- reading and writing ------------------------------------------------------------ */

bool pt_ok_char(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

/* Our names may hold '-' and be 2 or 20 long; PlayTak's are a letter and
 * 3-15 letters, digits or '_': a name is shown to PlayTak clients in that
 * shape ("Anonymous" for a seat with none). */
void pt_shown_name(const char *name, char out[TAK_PT_NAME_MAX]) {
    size_t n = 0;
    if (name == NULL || name[0] == '\0') name = "Anonymous";
    if (!((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z'))) out[n++] = 'P';
    for (const char *q = name; *q && n < 16; q++) out[n++] = pt_ok_char(*q) ? *q : '_';
    while (n < 4) out[n++] = '_';
    out[n] = '\0';
}

int pt_game_no(Server *s, LiveGame *g) {
    if (g->pt_no == 0) g->pt_no = ++s->ptport->next_game;
    return g->pt_no;
}

/* ---- seeks --------------------------------------------------------------------------- */

static void send_seek(PtConn *c, const LobbySeek *k, const char *what) {
    static const char colors[] = "WBA";
    char name[TAK_PT_NAME_MAX], opp[TAK_PT_NAME_MAX] = "";
    pt_shown_name(k->player.name, name);
    if (k->opponent[0]) pt_shown_name(k->opponent, opp);
    pt_send(c, "Seek %s %d %s %d %lld %lld %c %d %d %d %d 0 %d %lld %s", what, k->no, name,
            k->rules.size, (long long)(k->clock.base_ms / 1000),
            (long long)(k->clock.increment_ms / 1000), colors[k->color],
            k->rules.half_komi < 0 ? 0 : k->rules.half_komi, k->rules.stones, k->rules.capstones,
            !k->rated, k->clock.extra_move, (long long)(k->clock.extra_ms / 1000), opp);
}

void playtak_port_names(Server *s, LobbyNameSearch *m) {
    for (PtConn *c = s->ptport ? s->ptport->conns : NULL; c && !m->exact; c = c->next)
        if (c->logged_in && !c->dead) lobby_name_seen(m, c->name);
}

/* A seek naming an opponent is shown to its seeker and that opponent only. */
static bool sees(const PtConn *c, const LobbySeek *k) {
    return c->logged_in && (k->seeker == &c->ss || lobby_seek_for(k, c->name));
}

void playtak_port_seek_changed(Server *s, const LobbySeek *k, bool added) {
    if (s->ptport == NULL) return;
    for (PtConn *c = s->ptport->conns; c; c = c->next)
        if (sees(c, k)) send_seek(c, k, added ? "new" : "remove");
}

void pt_send_seeks(PtConn *c) {
    int n;
    const LobbySeek *k = lobby_seeks(c->ss.server, &n);
    for (int i = 0; i < n; i++)
        if (sees(c, &k[i])) send_seek(c, &k[i], "new");
}

/* A seek read by tak_pt_client_read, in any of PlayTak's three versions;
 * size 0 takes one's seek back. A new seek replaces the old, as on PlayTak. */
bool pt_on_seek(PtConn *c, const TakPtSeek *k) {
    if (strlen(k->opponent) > STORE_NAME_LEN) return false;
    Server *s = c->ss.server;
    if (!bucket_take(&c->seeks, PT_SEEK_BURST, PT_SEEK_REFILL_MS)) {
        pt_send(c, "Error:too many seeks at once: wait a little");
        return true;
    }
    lobby_cancel(s, &c->ss, NULL);
    if (k->size == 0) return true;
    LobbySeek want;
    TakError err;
    memset(&want, 0, sizeof want);
    if (!tak_rules_standard(&want.rules, k->size, &err)) return false;
    if (k->pieces > 0) {
        want.rules.stones = k->pieces;
        want.rules.capstones = k->capstones;
    }
    want.rules.half_komi = k->half_komi;
    if (!tak_rules_validate(&want.rules, &err)) return false;
    want.clock.base_ms = (int64_t)k->time_s * 1000;
    want.clock.increment_ms = (int64_t)k->increment_s * 1000;
    if (k->trigger_move > 0 && k->extra_time_s > 0 && k->time_s > 0) {
        want.clock.extra_move = k->trigger_move;
        want.clock.extra_ms = (int64_t)k->extra_time_s * 1000;
    }
    want.color = k->color == 'W' ? 0 : k->color == 'B' ? 1 : 2;
    want.rated = !k->unrated && c->ss.player != 0; /* a guest's games are never rated */
    want.player.id = c->ss.player;
    snprintf(want.player.name, sizeof want.player.name, "%.20s", c->name);
    want.player.rating = players_rating_now(s, c->ss.player, 0);
    snprintf(want.opponent, sizeof want.opponent, "%.20s", k->opponent); /* checked above */
    const LobbySeek *posted = lobby_post(s, &c->ss, &want, &err);
    if (posted == NULL || !engine_seeks_challenged(s, posted, &err))
        pt_send(c, "Error:%s", err.message);
    return true;
}

/* ---- the game list ------------------------------------------------------------------ */

/* Whether g is in PlayTak's game list: going on, both seats taken (by
 * players, or one by the engine), as PlayTak lists its games and its bots'. */
static bool listed(const LiveGame *g) {
    const StoredGame *i = &g->info;
    for (int color = 0; color < 2; color++)
        if (!i->secret[color][0] && i->engine_color != color) return false;
    return tak_game_result(&g->game).end == TAK_END_NONE;
}

/* A seat's name as PlayTak clients are shown it; the engine's is TakEngineN. */
static void seat_name(const StoredGame *i, int color, char out[TAK_PT_NAME_MAX]) {
    char engine[TAK_PT_NAME_MAX];
    const char *name = i->name[color];
    if (i->engine_color == color && !name[0]) {
        engine_seeks_name(i->engine_level, engine, sizeof engine);
        name = engine;
    }
    pt_shown_name(name, out);
}

void pt_game_room(const LiveGame *g, char out[TAK_PT_ROOM_MAX]) {
    char name[2][TAK_PT_NAME_MAX];
    seat_name(&g->info, 0, name[0]);
    seat_name(&g->info, 1, name[1]);
    int first = strcmp(name[0], name[1]) > 0;
    snprintf(out, TAK_PT_ROOM_MAX, "%s-%s", name[first], name[!first]);
}

void pt_game_form(Server *s, LiveGame *g, char out[PT_LINE_MAX]) {
    const StoredGame *i = &g->info;
    char w[TAK_PT_NAME_MAX], b[TAK_PT_NAME_MAX];
    seat_name(i, 0, w);
    seat_name(i, 1, b);
    snprintf(out, PT_LINE_MAX, "%d %s %s %d %lld %lld %d %d %d %d 0 %d %lld", pt_game_no(s, g), w,
             b, i->rules.size, (long long)(i->clock.base_ms / 1000),
             (long long)(i->clock.increment_ms / 1000),
             i->rules.half_komi < 0 ? 0 : i->rules.half_komi, i->rules.stones, i->rules.capstones,
             !i->rated, i->clock.extra_move, (long long)(i->clock.extra_ms / 1000));
}

LiveGame *pt_game_numbered(Server *s, int no) {
    for (size_t b = 0; no > 0 && b < s->bucket_count; b++)
        for (LiveGame *g = s->buckets[b]; g; g = g->hnext)
            if (g->pt_no == no) return g;
    return NULL;
}

void playtak_port_game_listed(Server *s, LiveGame *g, bool gone) {
    if (s->ptport == NULL) return;
    bool now = !gone && listed(g);
    if (now == g->pt_listed) return;
    g->pt_listed = now;
    char form[PT_LINE_MAX];
    pt_game_form(s, g, form);
    for (PtConn *c = s->ptport->conns; c; c = c->next)
        if (c->logged_in) pt_send(c, "GameList %s %s", now ? "Add" : "Remove", form);
}

/* "GameList", and on logging in: the games listed now. */
void pt_send_game_list(PtConn *c) {
    Server *s = c->ss.server;
    char form[PT_LINE_MAX];
    for (size_t b = 0; b < s->bucket_count; b++)
        for (LiveGame *g = s->buckets[b]; g; g = g->hnext) {
            if (!g->pt_listed) continue;
            pt_game_form(s, g, form);
            pt_send(c, "GameList Add %s", form);
        }
}
