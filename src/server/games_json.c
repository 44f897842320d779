/*
 * games_json.c: a game as the page sees it: the board of a position, and the
 * state message pushed to a game's followers (built once per change and
 * shared by all of them, games.c drops it when the game changes).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *games_color_name(int color) { return color == TAK_WHITE ? "white" : "black"; }

json_t *games_board_json(const TakPosition *pos, size_t ply) {
    int size = tak_position_size(pos);
    json_t *board = json_array();
    for (int sq = 0; sq < size * size; sq++) {
        char text[TAK_MAX_RESERVE * 2 + 2];
        int h = tak_position_height(pos, sq), n = 0;
        for (int level = 0; level < h && n < (int)sizeof text - 2; level++)
            text[n++] = tak_position_piece_color(pos, sq, level) == TAK_WHITE ? '1' : '2';
        if (h > 0) {
            TakPieceType top = tak_position_top_type(pos, sq);
            if (top == TAK_WALL) text[n++] = 'S';
            if (top == TAK_CAP) text[n++] = 'C';
        }
        text[n] = '\0';
        json_array_append_new(board, json_string(text));
    }
    char tps[TAK_TPS_MAX];
    if (tak_tps_write(pos, tps, sizeof tps) < 0) tps[0] = '\0';
    int flats[2];
    tak_position_flat_counts(pos, flats);
    return json_pack("{s:I, s:s, s:i, s:o, s:s, s:[[i,i],[i,i]], s:[i,i], s:[b,b]}",
                     "ply", (json_int_t)ply, "turn", games_color_name(tak_position_side(pos)),
                     "move_number", (int)tak_position_move_number(pos), "board", board, "tps",
                     tps, "stash", pos->stones[0], pos->capstones[0], pos->stones[1],
                     pos->capstones[1], "flats", flats[0], flats[1], "tak",
                     tak_position_has_tak(pos, TAK_WHITE), tak_position_has_tak(pos, TAK_BLACK));
}

static json_t *seat_json(const LiveGame *g, int c) {
    if (g->info.engine_color == c) return json_string("engine");
    return json_string(g->info.secret[c][0] ? "taken" : "open");
}

static json_t *name_json(const LiveGame *g, int c) {
    return g->info.name[c][0] ? json_string(g->info.name[c]) : json_null();
}

/* A seat's player's rating when the game began, and after it once rated. */
static json_t *rating_json(const LiveGame *g, int c) {
    if (g->info.rating[c] <= 0) return json_null();
    json_t *after = g->info.rating_after[c].rating > 0
                        ? json_integer((json_int_t)(g->info.rating_after[c].rating + 0.5))
                        : json_null();
    return json_pack("{s:I, s:o}", "before", (json_int_t)(g->info.rating[c] + 0.5), "after", after);
}

static json_t *offer_json(int c) { return c < 0 || c > 1 ? json_null() : json_string(games_color_name(c)); }
static json_t *declined_json(int c) {
    return c >= OFFER_DECLINED ? json_string(games_color_name(c - OFFER_DECLINED)) : json_null();
}

/* The squares of the winner's road, by name, when the game ended by one. */
static json_t *road_json(const TakPosition *pos, TakResult r) {
    json_t *a = json_array();
    if (r.end != TAK_END_ROAD || r.winner < 0) return a;
    TakBitboard road = tak_position_road_squares(pos, (TakColor)r.winner);
    for (int sq = 0; sq < 64; sq++) {
        if (!((road >> sq) & 1)) continue;
        char name[3];
        tak_square_name(sq, tak_position_size(pos), name);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

Outbuf *games_state(LiveGame *g) {
    if (g->state) {
        g->state->refs++;
        return g->state;
    }
    const TakPosition *pos = &g->game.current;
    json_t *msg = games_board_json(pos, g->game.count);
    json_t *moves = json_array();
    for (size_t i = 0; i < g->info.move_count; i++)
        json_array_append_new(moves, json_string(g->info.moves[i]));
    json_t *legal = json_array();
    TakResult r = tak_game_result(&g->game);
    if (r.end == TAK_END_NONE) {
        TakMoveList *list = malloc(sizeof *list); /* 35 KB: off the stack */
        int n = list ? tak_moves_generate(pos, list) : 0;
        for (int i = 0; i < n; i++) {
            char text[TAK_MOVE_TEXT_MAX];
            tak_move_write_long(list->moves[i], g->info.rules.size, NULL, text);
            json_array_append_new(legal, json_string(text));
        }
        free(list);
    }
    json_t *result = json_null();
    if (r.end != TAK_END_NONE) {
        char text[100];
        result = json_pack("{s:s, s:s, s:i, s:o}", "code", tak_result_code(r), "text",
                           tak_result_describe(r, text, sizeof text), "winner", r.winner,
                           "road", road_json(pos, r));
    }
    json_object_set_new(msg, "type", json_string("state"));
    json_object_set_new(msg, "game", json_string(g->info.id));
    json_object_set_new(msg, "size", json_integer(g->info.rules.size));
    json_object_set_new(msg, "komi", json_real(g->info.rules.half_komi / 2.0));
    json_object_set_new(msg, "stones", json_integer(g->info.rules.stones));
    json_object_set_new(msg, "capstones", json_integer(g->info.rules.capstones));
    json_object_set_new(msg, "no_pass", json_boolean(g->info.rules.no_pass));
    json_object_set_new(msg, "start", json_string(g->info.start_tps));
    json_object_set_new(msg, "seats", json_pack("{s:o, s:o}", "white", seat_json(g, 0), "black",
                                                seat_json(g, 1)));
    json_object_set_new(msg, "level", json_integer(g->info.engine_level));
    /* A search of a position since changed (by another process) is not thinking. */
    bool thinking = (g->engine_busy && g->busy_generation == g->generation) || g->thinking_elsewhere;
    json_object_set_new(msg, "thinking", json_boolean(thinking));
    json_object_set_new(msg, "offers",
                        json_pack("{s:o, s:o}", "draw", offer_json(g->offer[OFFER_DRAW]),
                                  "takeback", offer_json(g->offer[OFFER_TAKEBACK])));
    json_object_set_new(msg, "declined",
                        json_pack("{s:o, s:o}", "draw", declined_json(g->offer[OFFER_DRAW]),
                                  "takeback", declined_json(g->offer[OFFER_TAKEBACK])));
    json_object_set_new(msg, "moves", moves);
    json_object_set_new(msg, "legal", legal);
    json_object_set_new(msg, "result", result);
    json_object_set_new(msg, "clock", clock_json(g));
    json_object_set_new(msg, "names", json_pack("{s:o, s:o}", "white", name_json(g, 0), "black",
                                                name_json(g, 1)));
    json_object_set_new(msg, "rated", json_boolean(g->info.rated));
    json_object_set_new(
        msg, "ratings",
        json_pack("{s:o, s:o}", "white", rating_json(g, 0), "black", rating_json(g, 1)));
    g->state = outbuf_json(msg);
    if (g->state == NULL) return NULL;
    g->state->refs++;
    return g->state;
}
