/*
 * session.c: what a PlayTak client knows, kept from the server's lines: its
 * name, its games (each a TakGame, so every ply the server reports is checked
 * by our rules), their clocks, and the requests standing in them. The server
 * sends a player's own moves only when it replays a game on reconnection, so
 * a "Game Start" for a game already held starts it again from the empty board.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

void tak_pt_session_init(TakPtSession *s) { memset(s, 0, sizeof *s); }

static void game_free(TakPtGame *g) {
    if (g->active) tak_game_free(&g->game);
    memset(g, 0, sizeof *g);
}

void tak_pt_session_free(TakPtSession *s) {
    for (int i = 0; i < TAK_PT_GAMES_MAX; i++) game_free(&s->games[i]);
    tak_pt_session_init(s);
}

TakPtGame *tak_pt_session_game(TakPtSession *s, int no) {
    for (int i = 0; i < TAK_PT_GAMES_MAX; i++)
        if (s->games[i].active && s->games[i].start.no == no) return &s->games[i];
    return NULL;
}

void tak_pt_session_forget(TakPtSession *s, int no) {
    TakPtGame *g = tak_pt_session_game(s, no);
    if (g) game_free(g);
}

bool tak_pt_game_is_our_turn(const TakPtGame *g) {
    return g->active && !g->over && !tak_position_is_over(&g->game.current) &&
           tak_position_side(&g->game.current) == g->start.color;
}

static const TakPtListed *find_listed(const TakPtSession *s, int no) {
    for (int i = 0; i < TAK_PT_LISTED_MAX; i++)
        if (s->listed[i].no == no) return &s->listed[i];
    return NULL;
}

static bool start_game(TakPtSession *s, const TakPtStart *st, TakError *err) {
    TakRules rules;
    if (!tak_rules_standard(&rules, st->size, err)) return false;
    rules.stones = st->pieces;
    rules.capstones = st->capstones;
    rules.half_komi = st->half_komi;
    TakError why;
    if (!tak_rules_validate(&rules, &why))
        return tak_error_set(err, "game %d: rules this library cannot play: %s", st->no, why.message);
    TakPosition pos;
    if (!tak_position_init(&pos, &rules, err)) return false;
    /* The new history first, so that a failure leaves the session as it was. */
    TakGame game;
    if (!tak_game_init(&game, &pos, err)) return false;

    TakPtGame *g = tak_pt_session_game(s, st->no);
    if (g) {
        s->resumed++; /* a reconnection: the server replays every ply next */
    } else {
        for (int i = 0; i < TAK_PT_GAMES_MAX && !g; i++)
            if (!s->games[i].active) g = &s->games[i];
        /* Else make room: a finished game the caller did not forget. */
        for (int i = 0; i < TAK_PT_GAMES_MAX && !g; i++)
            if (s->games[i].over) g = &s->games[i];
        if (!g) {
            tak_game_free(&game);
            return tak_error_set(err, "game %d: already in %d games", st->no, TAK_PT_GAMES_MAX);
        }
    }
    game_free(g);
    g->game = game;
    g->active = true;
    g->start = *st;
    const TakPtListed *l = find_listed(s, st->no);
    g->increment_ms = l ? (int64_t)l->increment_s * 1000 : -1;
    g->time_ms[0] = g->time_ms[1] = (int64_t)st->time_s * 1000;
    return true;
}

static TakPtGame *held(TakPtSession *s, const TakPtMessage *m, TakError *err) {
    TakPtGame *g = tak_pt_session_game(s, m->game);
    if (!g) tak_error_set(err, "%s for game %d, which this session is not playing",
                          tak_pt_kind_name(m->kind), m->game);
    return g;
}

static void set_over(TakPtGame *g, const char *result) {
    g->over = true;
    snprintf(g->result, sizeof g->result, "%s", result);
    g->draw_offered = g->undo_requested = false;
    if (tak_position_is_over(&g->game.current)) return;
    /* An ending the board does not show: record it so the game's PTN says it. */
    if (strcmp(result, "1-0") == 0 || strcmp(result, "0-1") == 0) {
        TakEnd end = TAK_END_RESIGNATION;
        tak_game_end(&g->game, end, result[0] == '1' ? TAK_WHITE : TAK_BLACK);
    } else if (strcmp(result, "1/2-1/2") == 0) {
        tak_game_end(&g->game, TAK_END_AGREEMENT, -1);
    }
}

bool tak_pt_session_feed(TakPtSession *s, const TakPtMessage *m, TakError *err) {
    tak_error_clear(err);
    TakPtGame *g;
    switch (m->kind) {
    case TAK_PT_SEEK_NEW:
    case TAK_PT_SEEK_REMOVE:
        for (int i = 0; i < s->seek_count; i++)
            if (s->seeks[i].no == m->seek.no) s->seeks[i--] = s->seeks[--s->seek_count];
        if (m->kind == TAK_PT_SEEK_NEW && s->seek_count < TAK_PT_SEEKS_MAX)
            s->seeks[s->seek_count++] = m->seek;
        return true;
    case TAK_PT_LOGGED_IN:
        s->seek_count = 0;
        s->logged_in = true;
        snprintf(s->name, sizeof s->name, "%s", m->name);
        return true;
    case TAK_PT_GAMELIST_ADD:
        s->listed[s->listed_next] = m->listed;
        s->listed_next = (s->listed_next + 1) % TAK_PT_LISTED_MAX;
        /* On a reconnection the list comes after the game started again. */
        g = tak_pt_session_game(s, m->listed.no);
        if (g && g->increment_ms < 0) g->increment_ms = (int64_t)m->listed.increment_s * 1000;
        return true;
    case TAK_PT_GAME_START:
        return start_game(s, &m->start, err);
    case TAK_PT_GAME_MOVE: {
        if (!(g = held(s, m, err))) return false;
        if (g->over) return tak_error_set(err, "a move in game %d, which is over", m->game);
        TakMove move;
        TakError why;
        if (!tak_pt_move_to_move(&m->move, g->start.size, &move, &why) ||
            !tak_game_play(&g->game, move, &why))
            return tak_error_set(err, "game %d, ply %zu: %s", m->game, g->game.count + 1,
                                 why.message);
        g->draw_offered = g->undo_requested = false;
        return true;
    }
    case TAK_PT_GAME_TIME:
        if (!(g = held(s, m, err))) return false;
        g->time_ms[0] = m->time_ms[0];
        g->time_ms[1] = m->time_ms[1];
        return true;
    case TAK_PT_GAME_UNDO:
        if (!(g = held(s, m, err))) return false;
        if (!tak_game_undo(&g->game))
            return tak_error_set(err, "an undo in game %d, which has no ply to take back", m->game);
        g->undo_requested = false;
        return true;
    case TAK_PT_GAME_OVER:
        if (!(g = held(s, m, err))) return false;
        set_over(g, m->result);
        return true;
    case TAK_PT_GAME_ABANDONED:
        if (!(g = held(s, m, err))) return false;
        g->abandoned = true;
        /* The player who quit loses. */
        set_over(g, strcmp(m->name, g->start.white) == 0 ? "0-1" : "1-0");
        return true;
    case TAK_PT_GAME_OFFER_DRAW:
    case TAK_PT_GAME_REMOVE_DRAW:
        if (!(g = held(s, m, err))) return false;
        g->draw_offered = m->kind == TAK_PT_GAME_OFFER_DRAW;
        return true;
    case TAK_PT_GAME_REQUEST_UNDO:
    case TAK_PT_GAME_REMOVE_UNDO:
        if (!(g = held(s, m, err))) return false;
        g->undo_requested = m->kind == TAK_PT_GAME_REQUEST_UNDO;
        return true;
    default:
        return true; /* nothing a session keeps */
    }
}

bool tak_pt_session_play(TakPtSession *s, int no, TakMove move, TakError *err) {
    tak_error_clear(err);
    TakPtGame *g = tak_pt_session_game(s, no);
    if (!g) return tak_error_set(err, "no game %d", no);
    if (!tak_pt_game_is_our_turn(g)) return tak_error_set(err, "not our turn in game %d", no);
    if (!tak_game_play(&g->game, move, err)) return false;
    g->draw_offered = g->undo_requested = false;
    return true;
}
