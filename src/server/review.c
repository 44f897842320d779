/*
 * review.c: the requests that look at games rather than play them: a past
 * position (view), the game in PTN (export), the engine's view of a
 * position once the game is over (analyze), and the free board of the
 * analysis page, checked square by square (setup). None changes a game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The position after the first `ply` plies of g. */
static TakPosition position_at(const LiveGame *g, long ply) {
    TakPosition pos = g->game.start;
    for (long i = 0; i < ply; i++) {
        TakUndo undo;
        tak_position_make(&pos, g->game.moves[i], &undo);
    }
    return pos;
}

/* The "ply" of the followed game a request looks at. */
static bool followed_ply(const Request *r, LiveGame **g, long *ply) {
    if (!request_followed(r, g) || !request_int_field(r, "ply", 0, 100000000, -1, ply))
        return false;
    if (*ply < 0 || (size_t)*ply > (*g)->game.count)
        return request_fail(r, "'ply' must be from 0 to %zu", (*g)->game.count);
    return true;
}

bool review_on_view(const Request *r) {
    LiveGame *g = NULL;
    long ply;
    if (!followed_ply(r, &g, &ply)) return false;
    TakPosition pos = position_at(g, ply);
    return request_ok(r, games_board_json(&pos, (size_t)ply));
}

bool review_on_export(const Request *r) {
    LiveGame *g = NULL;
    if (!request_followed(r, &g)) return false;
    TakError err;
    char *text = export_ptn(g, &err);
    if (text == NULL) return request_fail(r, "%s", err.message);
    request_ok(r, json_pack("{s:s}", "ptn", text));
    free(text);
    return true;
}

/* The engine's view of a past position: answered from a worker when its
 * bounded search ends (review_analysis_done, below). Only once the game is over, so
 * it cannot coach a player; one at a time per connection. */
bool review_on_analyze(const Request *r) {
    LiveGame *g = NULL;
    long ply;
    if (!followed_ply(r, &g, &ply)) return false;
    if (tak_game_result(&g->game).end == TAK_END_NONE)
        return request_fail(r, "analysis opens when the game is over");
    if (r->ss->analyses > 0)
        return request_fail(r, "one analysis at a time: wait for the last one");
    Server *server = r->ss->server;
    if (server->analyses_queued >= ANALYSES_QUEUED_MAX)
        return request_fail(r, "the engine is busy with other analyses: try again in a moment");
    EngineJob *job = calloc(1, sizeof *job);
    if (job == NULL) return request_fail(r, "out of memory");
    job->kind = JOB_ANALYZE;
    memcpy(job->game_id, g->info.id, sizeof job->game_id);
    job->session_id = r->ss->id;
    job->req = r->req ? json_incref(r->req) : NULL;
    job->ply = (size_t)ply;
    job->pos = position_at(g, ply);
    job->history_len = (size_t)ply;
    if (ply > 0) {
        job->history = malloc((size_t)ply * sizeof *job->history);
        if (job->history == NULL) {
            engine_job_free(job);
            return request_fail(r, "out of memory");
        }
        memcpy(job->history, g->game.hashes, (size_t)ply * sizeof *job->history);
    }
    r->ss->analyses++;
    server->analyses_queued++;
    engine_pool_submit(&server->pool, job);
    return true; /* the reply comes with the search's end */
}

/* One square of a setup board, as the state's board writes it: colours
 * bottom to top ('1' White, '2' Black), then 'S' or 'C' for the top stone.
 * Appends its TPS form ("12S", or "x") to tps. */
static bool setup_square(const Request *r, json_t *v, int sq, int size, char *tps, size_t cap) {
    const char *text = json_is_string(v) ? json_string_value(v) : NULL;
    char name[3];
    tak_square_name(sq, size, name);
    size_t n = text ? strlen(text) : 0;
    bool ok = text && n == json_string_length(v) && n <= 2 * TAK_MAX_RESERVE + 1;
    for (size_t i = 0; ok && i < n; i++) {
        bool last = i + 1 == n;
        ok = text[i] == '1' || text[i] == '2' ||
             (last && i > 0 && (text[i] == 'S' || text[i] == 'C'));
    }
    if (!ok)
        return request_fail(r,
                            "square %s: a stack is written as colours bottom to top (1 White, 2 "
                            "Black), then S or C for a wall or capstone on top",
                            name);
    size_t len = strlen(tps);
    if (len + n + 2 >= cap) return request_fail(r, "the board holds too many stones");
    strcat(tps, n ? text : "x");
    return true;
}

/* The setup reply: the board read, with the rules' defaults filled in and
 * its result, for the page to show. */
static json_t *setup_json(const TakPosition *pos, long size, const TakRules *rules) {
    json_t *reply = games_board_json(pos, 0);
    json_object_set_new(reply, "size", json_integer(size));
    json_object_set_new(reply, "stones", json_integer(rules->stones));
    json_object_set_new(reply, "capstones", json_integer(rules->capstones));
    json_object_set_new(reply, "no_pass", json_boolean(rules->no_pass));
    TakResult res = pos->result;
    if (res.end == TAK_END_NONE) {
        json_object_set_new(reply, "result", json_null());
        return reply;
    }
    char text[100];
    json_object_set_new(reply, "result",
                        json_pack("{s:s, s:s, s:i}", "code", tak_result_code(res), "text",
                                  tak_result_describe(res, text, sizeof text), "winner",
                                  res.winner));
    return reply;
}

/* Rule enforcement off: the page edits a board freely and the server checks
 * each edit by building the TPS and reading it with the game's rules
 * (reserves, one stack per square, capstones only on top). Nothing is
 * stored; `create` with the TPS continues from it as a game. */
bool review_on_setup(const Request *r) {
    static const char *const colors[] = {"white", "black", NULL};
    long size, move_number;
    int turn;
    json_t *board = json_object_get(r->msg, "board");
    if (!request_int_field(r, "size", TAK_MIN_SIZE, TAK_MAX_SIZE, 5, &size) ||
        !request_choice_field(r, "turn", colors, 0, &turn) ||
        !request_int_field(r, "move_number", 1, 10000, 0, &move_number))
        return false;
    if (!json_is_array(board) || json_array_size(board) != (size_t)(size * size))
        return request_fail(r, "'board' must be an array of %ld squares (a1 first, along ranks)",
                            size * size);
    TakRules rules;
    if (!request_rules(r, (int)size, &rules)) return false;
    char tps[TAK_TPS_MAX * 2] = "";
    bool empty = true;
    for (int rank = (int)size - 1; rank >= 0; rank--) {
        for (int file = 0; file < size; file++) {
            int sq = rank * (int)size + file;
            json_t *v = json_array_get(board, (size_t)sq);
            if (file) strcat(tps, ",");
            if (!setup_square(r, v, sq, (int)size, tps, sizeof tps - 16)) return false;
            if (json_string_length(v)) empty = false;
        }
        if (rank) strcat(tps, "/");
    }
    /* The opening (each side places the other's flat) only on an empty board. */
    if (move_number == 0) move_number = empty ? 1 : 2;
    size_t len = strlen(tps);
    snprintf(tps + len, sizeof tps - len, " %d %ld", turn + 1, move_number);
    TakPosition pos;
    TakError err;
    if (!tak_tps_read(tps, &rules, &pos, &err)) return request_fail(r, "%s", err.message);
    return request_ok(r, setup_json(&pos, size, &rules));
}

/* ---- the answer to "analyze" ----------------------------------------------------- */

/* The asker of an analysis, if it still follows the game. */
static Session *asker(LiveGame *g, uint64_t id) {
    for (Session *ss = g ? g->subs : NULL; ss; ss = ss->next)
        if (ss->id == id) return ss;
    return NULL;
}

void review_analysis_done(Server *s, EngineJob *job) {
    if (s->analyses_queued > 0) s->analyses_queued--;
    Session *ss = asker(games_loaded(s, job->game_id), job->session_id);
    if (ss == NULL) return; /* gone, or following another game: nobody to tell */
    if (ss->analyses > 0) ss->analyses--;
    const TakSearchInfo *info = &job->info;
    int size = tak_position_size(&job->pos);
    /* The line in PTN, each move written in the position it is played in. */
    json_t *pv = json_array();
    TakPosition pos = job->pos;
    for (int i = 0; i < info->pv_length && !tak_position_is_over(&pos); i++) {
        char text[TAK_MOVE_TEXT_MAX];
        TakUndo undo;
        tak_move_write(info->pv[i], size, &pos, text);
        json_array_append_new(pv, json_string(text));
        tak_position_make(&pos, info->pv[i], &undo);
    }
    /* Scores go out from White's view, as the page shows them. */
    int sign = tak_position_side(&job->pos) == TAK_WHITE ? 1 : -1, score = info->score * sign;
    json_t *win_in = json_null();
    if (info->score >= TAK_SCORE_WIN_MIN || info->score <= -TAK_SCORE_WIN_MIN) {
        int plies = TAK_SCORE_WIN - (info->score < 0 ? -info->score : info->score);
        win_in = json_integer(score > 0 ? plies : -plies);
    }
    json_t *reply = json_pack(
        "{s:s, s:s, s:I, s:i, s:o, s:i, s:I, s:I, s:o, s:o}", "type", "ok", "for", "analyze", "ply",
        (json_int_t)job->ply, "score", score, "win_in", win_in, "depth", info->depth, "nodes",
        (json_int_t)info->nodes, "time_ms", (json_int_t)info->time_ms, "best",
        json_array_size(pv) ? json_incref(json_array_get(pv, 0)) : json_null(), "pv", pv);
    if (job->req) json_object_set(reply, "req", job->req);
    session_send_json(ss, reply);
}
