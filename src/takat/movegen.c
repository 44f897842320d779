/*
 * movegen.c: the legal turns of a TAKAT position, in the order of takat.md's
 * rules: the piece rules (reserve, drop target, safety, adjacency, the N+1
 * height rule, forced drop, ko), then rule 2 on the position after the turn.
 * The generator is the fast path; takat_turn_check says why a turn is refused
 * and the tests hold the two to the same answers.
 */
#include "internal.h"

void takat_position_apply(TakatPosition *pos, TakatTurn turn) {
    int to = turn.to;
    int side = pos->side;
    if (takat_is_drop(turn)) {
        pos->height[to] = 1;
        pos->stones[to] = (uint8_t)side;
        pos->on_board[side]++;
    } else {
        int from = turn.from;
        int h = --pos->height[from];
        unsigned color = (pos->stones[from] >> h) & 1u;
        pos->stones[from] &= (uint8_t)((1u << h) - 1);
        pos->stones[to] |= (uint8_t)(color << pos->height[to]);
        pos->height[to]++;
    }
    pos->ko = (uint8_t)to;
    pos->side = (uint8_t)(side ^ 1);
}

/* Whether moving the top of `from` to `to` (already allowed by the piece
 * rules) leaves two adjacent tall safe stacks; `broken` says the position
 * before the turn already had such a pair, so every link must be looked at. */
static bool move_breaks(const TakatPosition *pos, int from, int to, bool broken) {
    if (!broken && pos->height[to] < 3 && pos->height[from] < 5) return false;
    TakatPosition next = *pos;
    takat_position_apply(&next, takat_move(from, to));
    return broken ? takat_breaks_adjacency(&next) : takat_breaks_adjacency_near(&next, from, to);
}

int takat_turns_generate(const TakatPosition *pos, TakatTurnList *list) {
    int n = 0;
    list->count = 0;
    if (takat_has_six(pos)) return 0;
    int side = pos->side;
    bool broken = takat_breaks_adjacency(pos);
    /* A drop changes no other stack, so it is legal unless the board already
     * breaks rule 2 (which no reachable position does). */
    if (takat_reserve(pos, side) > 0 && !broken)
        for (int c = 0; c < TAKAT_CELLS; c++)
            if (c != TAKAT_CENTRE && pos->height[c] == 0) list->turns[n++] = takat_drop(c);
    if (!takat_forced_drop(pos)) {
        for (int from = 0; from < TAKAT_CELLS; from++) {
            if (from == pos->ko || !takat_can_lift(pos, from, side)) continue;
            int limit = pos->height[from] + 1;
            for (int to = 0; to < TAKAT_CELLS; to++) {
                if (!((takat_neighbours[from] >> to) & 1) || pos->height[to] > limit) continue;
                if (move_breaks(pos, from, to, broken)) continue;
                list->turns[n++] = takat_move(from, to);
            }
        }
    }
    list->count = n;
    return n;
}

static bool valid_cell(int c) { return c >= 0 && c < TAKAT_CELLS; }

bool takat_turn_check(const TakatPosition *pos, TakatTurn turn, TakError *err) {
    char text[TAKAT_TURN_MAX];
    int side = pos->side;
    const char *me = takat_color_name(side);
    if (takat_has_six(pos)) return tak_error_set(err, "the game is over: a stack of six stands");
    if (!valid_cell(turn.to) || (!takat_is_drop(turn) && !valid_cell(turn.from)))
        return tak_error_set(err, "no such cell");
    const char *to = takat_cell_name(turn.to);
    if (takat_is_drop(turn)) {
        if (takat_reserve(pos, side) == 0)
            return tak_error_set(err, "%s has no stones left to drop", me);
        if (turn.to == TAKAT_CENTRE)
            return tak_error_set(err, "no drop on the centre b2: it can only be moved into");
        if (pos->height[turn.to] != 0)
            return tak_error_set(err, "%s is not empty: stones are dropped only on empty cells", to);
    } else {
        const char *from = takat_cell_name(turn.from);
        int h = pos->height[turn.from];
        if (turn.from == turn.to) return tak_error_set(err, "a move needs two different cells");
        if (h == 0) return tak_error_set(err, "%s is empty: there is no stone to move", from);
        TakatSafety safety = takat_safety(pos, turn.from);
        if (safety == TAKAT_PERMANENT)
            return tak_error_set(err,
                                 "the top stone of %s is permanently safe (three of one colour "
                                 "on a red cell): nobody may move it",
                                 from);
        if (safety == TAKAT_TEMPORARY && top_color(pos, turn.from) != side)
            return tak_error_set(err,
                                 "the top stone of %s is temporarily safe (two %s stones on "
                                 "top): only %s may move it",
                                 from, takat_color_name(side ^ 1), takat_color_name(side ^ 1));
        if (!takat_cells_adjacent(turn.from, turn.to))
            return tak_error_set(err, "%s and %s are not adjacent", from, to);
        if (pos->height[turn.to] > h + 1)
            return tak_error_set(err,
                                 "a stone leaving a stack of %d may move onto a stack of at "
                                 "most %d, and %s holds %d",
                                 h, h + 1, to, pos->height[turn.to]);
        if (takat_forced_drop(pos))
            return tak_error_set(err,
                                 "Black has fewer stones on the board than White (%d < %d) "
                                 "and must drop",
                                 pos->on_board[TAKAT_BLACK], pos->on_board[TAKAT_WHITE]);
        if (turn.from == pos->ko)
            return tak_error_set(err,
                                 "ko: %s's last turn put a stone on %s, so its top stone "
                                 "cannot be moved this turn",
                                 takat_color_name(side ^ 1), from);
    }
    TakatPosition next = *pos;
    takat_position_apply(&next, turn);
    if (takat_breaks_adjacency(&next))
        return tak_error_set(err,
                             "%s would leave two adjacent stacks of four or more with safe "
                             "tops of the same colour",
                             err ? takat_turn_format(turn, text) : "");
    tak_error_clear(err);
    return true;
}

TakatResult takat_position_result(const TakatPosition *pos) {
    if (takat_has_six(pos)) return TAKAT_WHITE_WINS;
    TakatTurnList list;
    if (takat_turns_generate(pos, &list) > 0) return TAKAT_ONGOING;
    return pos->side == TAKAT_WHITE ? TAKAT_BLACK_WINS : TAKAT_WHITE_WINS;
}
