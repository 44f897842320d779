/*
 * board.c: the TAKAT board (cells, red cells, links), positions, safety, the
 * position-wide rules (forced drop, adjacent safe stacks, the stack of six)
 * and the exact key of a position.
 */
#include "internal.h"

#include <string.h>

/* Cells in position-string order: a2 b3 a1 b2 c3 b1 c2. Ring order is
 * a2, b3, c3, c2, b1, a1, i.e. cells 0, 1, 4, 6, 5, 2. */
static const char *const cell_names[TAKAT_CELLS] = {"a2", "b3", "a1", "b2", "c3", "b1", "c2"};
static const bool red_cells[TAKAT_CELLS] = {false, true, true, false, false, false, true};

#define BIT(c) (1u << (c))
const uint8_t takat_neighbours[TAKAT_CELLS] = {
    [0] = BIT(3) | BIT(1) | BIT(2),                                /* a2: b3, a1 */
    [1] = BIT(3) | BIT(0) | BIT(4),                                /* b3: a2, c3 */
    [2] = BIT(3) | BIT(5) | BIT(0),                                /* a1: b1, a2 */
    [3] = BIT(0) | BIT(1) | BIT(2) | BIT(4) | BIT(5) | BIT(6),     /* b2: all */
    [4] = BIT(3) | BIT(1) | BIT(6),                                /* c3: b3, c2 */
    [5] = BIT(3) | BIT(6) | BIT(2),                                /* b1: c2, a1 */
    [6] = BIT(3) | BIT(4) | BIT(5),                                /* c2: c3, b1 */
};
#undef BIT

const uint8_t takat_links[12][2] = {
    {3, 0}, {3, 1}, {3, 2}, {3, 4}, {3, 5}, {3, 6}, /* spokes */
    {0, 1}, {1, 4}, {4, 6}, {6, 5}, {5, 2}, {2, 0}, /* ring */
};

const char *takat_cell_name(int cell) {
    return cell >= 0 && cell < TAKAT_CELLS ? cell_names[cell] : "-";
}

int takat_cell_from_name(const char *name) {
    for (int c = 0; c < TAKAT_CELLS; c++)
        if (name[0] == cell_names[c][0] && name[1] == cell_names[c][1]) return c;
    return -1;
}

const char *takat_color_name(TakatColor color) { return color == TAKAT_WHITE ? "White" : "Black"; }

bool takat_cell_is_red(int cell) { return cell >= 0 && cell < TAKAT_CELLS && red_cells[cell]; }

bool takat_cells_adjacent(int a, int b) {
    if (a < 0 || a >= TAKAT_CELLS || b < 0 || b >= TAKAT_CELLS) return false;
    return (takat_neighbours[a] >> b) & 1;
}

void takat_position_start(TakatPosition *pos) {
    takat_position_start_reduced(pos, TAKAT_STONES_WHITE, TAKAT_STONES_BLACK);
}

void takat_position_start_reduced(TakatPosition *pos, int white, int black) {
    memset(pos, 0, sizeof *pos);
    pos->side = TAKAT_WHITE;
    pos->ko = TAKAT_NO_CELL;
    pos->total[TAKAT_WHITE] = (uint8_t)white;
    pos->total[TAKAT_BLACK] = (uint8_t)black;
}

int takat_reserve(const TakatPosition *pos, int color) {
    return pos->total[color] - pos->on_board[color];
}

TakatSafety takat_safety(const TakatPosition *pos, int cell) {
    int h = pos->height[cell];
    if (h < 2 || !top_two_same(pos, cell)) return TAKAT_UNSAFE;
    if (h >= 3 && red_cells[cell] && top_three_same(pos, cell)) return TAKAT_PERMANENT;
    return TAKAT_TEMPORARY;
}

bool takat_can_lift(const TakatPosition *pos, int cell, int color) {
    if (pos->height[cell] == 0) return false;
    switch (takat_safety(pos, cell)) {
    case TAKAT_UNSAFE: return true;
    case TAKAT_TEMPORARY: return top_color(pos, cell) == color;
    default: return false;
    }
}

bool takat_forced_drop(const TakatPosition *pos) {
    if (pos->side != TAKAT_BLACK) return false;
    if (pos->on_board[TAKAT_BLACK] >= pos->on_board[TAKAT_WHITE]) return false;
    if (takat_reserve(pos, TAKAT_BLACK) == 0) return false;
    for (int c = 0; c < TAKAT_CELLS; c++)
        if (c != TAKAT_CENTRE && pos->height[c] == 0) return true;
    return false;
}

/* The top colour of a stack of four or more whose top two stones agree
 * (safe and tall: two such stacks of one colour may not touch), else -1. */
static inline int tall_safe_color(const TakatPosition *pos, int cell) {
    if (pos->height[cell] < 4 || !top_two_same(pos, cell)) return -1;
    return top_color(pos, cell);
}

bool takat_breaks_adjacency(const TakatPosition *pos) {
    int color[TAKAT_CELLS];
    unsigned tall = 0;
    for (int c = 0; c < TAKAT_CELLS; c++)
        if ((color[c] = tall_safe_color(pos, c)) >= 0) tall |= 1u << c;
    if (__builtin_popcount(tall) < 2) return false;
    for (int i = 0; i < 12; i++) {
        int x = takat_links[i][0], y = takat_links[i][1];
        if ((tall >> x) & (tall >> y) & 1 && color[x] == color[y]) return true;
    }
    return false;
}

/* The links of a cell are its neighbours: only those of a and b are looked at. */
bool takat_breaks_adjacency_near(const TakatPosition *pos, int a, int b) {
    const int cells[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        int color = tall_safe_color(pos, cells[i]);
        if (color < 0) continue;
        for (unsigned nb = takat_neighbours[cells[i]]; nb; nb &= nb - 1)
            if (tall_safe_color(pos, __builtin_ctz(nb)) == color) return true;
    }
    return false;
}

bool takat_has_six(const TakatPosition *pos) {
    for (int c = 0; c < TAKAT_CELLS; c++)
        if (pos->height[c] >= TAKAT_MAX_HEIGHT) return true;
    return false;
}

/* Key layout: 7 bits per cell (a leading 1 above the colours: 1 = empty),
 * cells 0..6 in bits 0..48, the side at bit 49, the ko in bits 50..52. */
uint64_t takat_position_key(const TakatPosition *pos) {
    uint64_t key = 0;
    for (int c = 0; c < TAKAT_CELLS; c++) {
        uint64_t code = (1u << pos->height[c]) | (pos->stones[c] & ((1u << pos->height[c]) - 1));
        key |= code << (7 * c);
    }
    key |= (uint64_t)(pos->side & 1) << 49;
    key |= (uint64_t)(pos->ko & 7) << 50;
    return key;
}

bool takat_position_from_key(uint64_t key, TakatPosition *pos) {
    TakatPosition p;
    takat_position_start(&p);
    for (int c = 0; c < TAKAT_CELLS; c++) {
        unsigned code = (unsigned)(key >> (7 * c)) & 127u;
        if (code == 0) return false;
        int h = 6;
        while (!(code >> h)) h--;
        p.height[c] = (uint8_t)h;
        p.stones[c] = (uint8_t)(code & ((1u << h) - 1));
        int black = __builtin_popcount(p.stones[c]);
        p.on_board[TAKAT_BLACK] += (uint8_t)black;
        p.on_board[TAKAT_WHITE] += (uint8_t)(h - black);
    }
    p.side = (uint8_t)((key >> 49) & 1);
    p.ko = (uint8_t)((key >> 50) & 7);
    if (key >> 53) return false;
    if (p.on_board[0] > TAKAT_STONES_WHITE || p.on_board[1] > TAKAT_STONES_BLACK) return false;
    if (p.ko != TAKAT_NO_CELL && p.height[p.ko] == 0) return false;
    *pos = p;
    return true;
}

uint64_t takat_position_hash(const TakatPosition *pos) {
    return tak_random_mix(takat_position_key(pos));
}
