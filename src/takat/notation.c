/*
 * notation.c: TAKAT's notation (takat.md): turns ("a2" drops, "b2-c3" moves)
 * and position strings ("x,x,1,x,x,x,x 2 a1"), read with an error naming the
 * column and the token for every malformed case, and written back.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

static bool is_space(char c) { return c == ' ' || c == '\t'; }

/* Fails with the 1-based column of `at` in `text`. */
#define FAIL_AT(at, ...) tak_error_set_at(err, 1, (int)((at) - text) + 1, __VA_ARGS__)

bool takat_position_parse(const char *text, TakatPosition *pos, TakError *err) {
    TakatPosition p;
    takat_position_start(&p);
    const char *s = text;
    while (is_space(*s)) s++;
    for (int cell = 0; cell < TAKAT_CELLS; cell++) {
        const char *token = s;
        int h = 0;
        if (*s == 'x') {
            s++;
        } else {
            while (*s == '1' || *s == '2') {
                if (h == TAKAT_MAX_HEIGHT)
                    return FAIL_AT(s, "cell %d (%s): a stack higher than %d stones", cell + 1,
                                   takat_cell_name(cell), TAKAT_MAX_HEIGHT);
                int color = *s == '2' ? TAKAT_BLACK : TAKAT_WHITE;
                p.stones[cell] |= (uint8_t)(color << h);
                p.on_board[color]++;
                h++;
                s++;
            }
        }
        p.height[cell] = (uint8_t)h;
        bool last = cell == TAKAT_CELLS - 1;
        if (*s == ',' && s == token)
            return FAIL_AT(s, "cell %d (%s) is blank (write x for an empty cell)", cell + 1,
                           takat_cell_name(cell));
        if (h == 0 && s != token && (*s == '1' || *s == '2'))
            return FAIL_AT(s, "cell %d (%s): x (empty) followed by stones", cell + 1,
                           takat_cell_name(cell));
        if (s == token) {
            if (*s == '\0' || is_space(*s))
                return FAIL_AT(s, "%d cells where 7 are needed (a2,b3,a1,b2,c3,b1,c2)", cell);
            return FAIL_AT(s, "cell %d (%s): unknown character '%c' (use 1, 2 or x)", cell + 1,
                           takat_cell_name(cell), *s);
        }
        if (!last && *s == ',') {
            s++;
            continue;
        }
        if (last && (is_space(*s) || *s == '\0')) break;
        if (*s == ',') return FAIL_AT(s, "more than 7 cells (a2,b3,a1,b2,c3,b1,c2)");
        if (*s == '\0' || is_space(*s))
            return FAIL_AT(s, "%d cells where 7 are needed (a2,b3,a1,b2,c3,b1,c2)", cell + 1);
        return FAIL_AT(s, "cell %d (%s): unknown character '%c' (use 1, 2 or x)", cell + 1,
                       takat_cell_name(cell), *s);
    }
    if (p.on_board[TAKAT_WHITE] > TAKAT_STONES_WHITE)
        return FAIL_AT(text, "%d white stones on the board; White has only %d",
                       p.on_board[TAKAT_WHITE], TAKAT_STONES_WHITE);
    if (p.on_board[TAKAT_BLACK] > TAKAT_STONES_BLACK)
        return FAIL_AT(text, "%d black stones on the board; Black has only %d",
                       p.on_board[TAKAT_BLACK], TAKAT_STONES_BLACK);

    while (is_space(*s)) s++;
    const char *side = s;
    if (*s == '\0') return FAIL_AT(s, "the side to move (1 or 2) is missing");
    while (*s && !is_space(*s)) s++;
    if (s - side != 1 || (*side != '1' && *side != '2'))
        return FAIL_AT(side, "bad side to move '%.*s' (use 1 for White or 2 for Black)",
                       (int)(s - side), side);
    p.side = *side == '2' ? TAKAT_BLACK : TAKAT_WHITE;

    while (is_space(*s)) s++;
    if (*s != '\0') {
        const char *ko = s;
        while (*s && !is_space(*s)) s++;
        int cell = s - ko == 2 ? takat_cell_from_name(ko) : -1;
        if (cell < 0)
            return FAIL_AT(ko, "bad ko cell '%.*s' (a cell name: a1, a2, b1, b2, b3, c2, c3)",
                           (int)(s - ko), ko);
        if (p.height[cell] == 0)
            return FAIL_AT(ko, "ko cell %s is empty (the ko names the cell the last turn put "
                               "a stone on)",
                           takat_cell_name(cell));
        p.ko = (uint8_t)cell;
        while (is_space(*s)) s++;
        if (*s != '\0') return FAIL_AT(s, "unexpected text after the ko cell");
    }
    *pos = p;
    tak_error_clear(err);
    return true;
}

const char *takat_position_format(const TakatPosition *pos, char *buf) {
    char *w = buf;
    for (int cell = 0; cell < TAKAT_CELLS; cell++) {
        if (cell > 0) *w++ = ',';
        if (pos->height[cell] == 0) *w++ = 'x';
        for (int i = 0; i < pos->height[cell]; i++)
            *w++ = takat_stone(pos, cell, i) == TAKAT_BLACK ? '2' : '1';
    }
    *w++ = ' ';
    *w++ = pos->side == TAKAT_BLACK ? '2' : '1';
    if (pos->ko < TAKAT_CELLS) {
        *w++ = ' ';
        memcpy(w, takat_cell_name(pos->ko), 2);
        w += 2;
    }
    *w = '\0';
    return buf;
}

/* The cell named at s[0..1], or -1. */
static int cell_at(const char *s) {
    if (!s[0] || !s[1]) return -1;
    return takat_cell_from_name(s);
}

bool takat_turn_parse(const char *text, TakatTurn *turn, TakError *err) {
    const char *s = text;
    while (is_space(*s)) s++;
    if (*s == '\0') return FAIL_AT(s, "an empty turn (a drop is a cell, e.g. a2; a move b2-c3)");
    int from = cell_at(s);
    if (from < 0) return FAIL_AT(s, "'%.2s' is not a cell name (a1, a2, b1, b2, b3, c2, c3)", s);
    s += 2;
    TakatTurn t = takat_drop(from);
    if (*s == '-') {
        s++;
        int to = cell_at(s);
        if (to < 0)
            return FAIL_AT(s, "'%.2s' is not a cell name (a1, a2, b1, b2, b3, c2, c3)", s);
        if (to == from) return FAIL_AT(s, "a move needs two different cells");
        t = takat_move(from, to);
        s += 2;
    }
    while (is_space(*s)) s++;
    if (*s != '\0') return FAIL_AT(s, "unexpected text after the turn");
    *turn = t;
    tak_error_clear(err);
    return true;
}

const char *takat_turn_format(TakatTurn turn, char *buf) {
    if (takat_is_drop(turn))
        snprintf(buf, TAKAT_TURN_MAX, "%s", takat_cell_name(turn.to));
    else
        snprintf(buf, TAKAT_TURN_MAX, "%s-%s", takat_cell_name(turn.from), takat_cell_name(turn.to));
    return buf;
}
