/* movegen.c: listing, counting and checking legal moves. */
#include <stdbool.h>

#include "board.h"
#include "internal.h"

/* Free squares from `square` toward `dir` before the edge or a wall or
 * capstone; *wall_next is set when the square that stops it is a wall. */
static inline int movegen_free_run(const TakPosition *pos, int square, TakDirection dir,
                                   bool *wall_next) {
    int size = pos->rules.size;
    int room = board_room(square, dir, size), step = board_step(dir, size);
    TakBitboard blockers = pos->walls | pos->caps;
    int run = 0, s = square + step;
    while (run < room && !(blockers & bit(s))) {
        run++;
        s += step;
    }
    *wall_next = run < room && (pos->walls & bit(s));
    return run;
}

/* The last drop of a spread is the top piece alone when the piece below it
 * ends a group (or there is no piece below it). */
static inline bool drops_last_is_single(unsigned code) {
    int count = 32 - __builtin_clz(code);
    return count == 1 || (code & (1u << (count - 2)));
}

static inline int carry_limit(const TakPosition *pos, int square) {
    int h = pos->height[square];
    return h < pos->rules.size ? h : pos->rules.size;
}

int tak_moves_generate(const TakPosition *pos, TakMoveList *list) {
    int n = 0;
    list->count = 0;
    if (pos->result.end != TAK_END_NONE) return 0;
    int size = pos->rules.size, side = pos->side;
    TakBitboard empty = board_all[size] & ~(pos->owner[0] | pos->owner[1]);
    if (pos->ply < 2) {
        if (pos->stones[side ^ 1] > 0)
            for (TakBitboard e = empty; e; e &= e - 1)
                list->moves[n++] = tak_move_place(__builtin_ctzll(e), TAK_PLACE_FLAT);
        list->count = n;
        return n;
    }
    bool stones = pos->stones[side] > 0, capstones = pos->capstones[side] > 0;
    for (TakBitboard e = empty; e; e &= e - 1) {
        int sq = __builtin_ctzll(e);
        if (stones) {
            list->moves[n++] = tak_move_place(sq, TAK_PLACE_FLAT);
            list->moves[n++] = tak_move_place(sq, TAK_PLACE_WALL);
        }
        if (capstones) list->moves[n++] = tak_move_place(sq, TAK_PLACE_CAP);
    }
    for (TakBitboard own = pos->owner[side]; own; own &= own - 1) {
        int sq = __builtin_ctzll(own);
        int carry = carry_limit(pos, sq);
        bool cap = pos->caps & bit(sq);
        unsigned codes = 1u << carry;
        if (!pos->rules.no_pass) list->moves[n++] = tak_move_spread(sq, TAK_NORTH, 0);
        for (int d = 0; d < 4; d++) {
            bool wall_next;
            int run = movegen_free_run(pos, sq, (TakDirection)d, &wall_next);
            bool flatten = cap && wall_next;
            if (run == 0 && !flatten) continue;
            for (unsigned code = 1; code < codes; code++) {
                int dist = __builtin_popcount(code);
                if (dist <= run || (flatten && dist == run + 1 && drops_last_is_single(code)))
                    list->moves[n++] = tak_move_spread(sq, (TakDirection)d, code);
            }
        }
    }
    list->count = n;
    return n;
}

uint64_t tak_moves_count(const TakPosition *pos) {
    if (pos->result.end != TAK_END_NONE) return 0;
    int size = pos->rules.size, side = pos->side;
    int empty = __builtin_popcountll(board_all[size] & ~(pos->owner[0] | pos->owner[1]));
    if (pos->ply < 2) return pos->stones[side ^ 1] > 0 ? (uint64_t)empty : 0;
    uint64_t count =
        (uint64_t)empty * ((pos->stones[side] > 0 ? 2u : 0u) + (pos->capstones[side] > 0 ? 1u : 0u));
    TakBitboard own = pos->owner[side];
    if (!pos->rules.no_pass) count += (uint64_t)__builtin_popcountll(own);
    for (; own; own &= own - 1) {
        int sq = __builtin_ctzll(own);
        int carry = carry_limit(pos, sq);
        bool cap = pos->caps & bit(sq);
        for (int d = 0; d < 4; d++) {
            bool wall_next;
            int run = movegen_free_run(pos, sq, (TakDirection)d, &wall_next);
            count += spread_count[carry][run];
            if (cap && wall_next) count += flatten_count[carry][run];
        }
    }
    return count;
}

bool tak_move_is_legal(const TakPosition *pos, TakMove move) {
    if (pos->result.end != TAK_END_NONE || (move >> 18)) return false;
    int size = pos->rules.size, side = pos->side, sq = tak_move_square(move);
    if (sq >= size * size) return false;
    TakBitboard occupied = pos->owner[0] | pos->owner[1];
    TakMoveKind kind = tak_move_kind(move);
    if (kind != TAK_SPREAD) {
        if ((move >> 8) || (occupied & bit(sq))) return false;
        if (pos->ply < 2) return kind == TAK_PLACE_FLAT && pos->stones[side ^ 1] > 0;
        if (kind == TAK_PLACE_CAP) return pos->capstones[side] > 0;
        return pos->stones[side] > 0;
    }
    if (pos->ply < 2 || !(pos->owner[side] & bit(sq))) return false;
    unsigned code = tak_move_drops(move);
    TakDirection dir = tak_move_direction(move);
    if (code == 0) return !pos->rules.no_pass && dir == TAK_NORTH;
    if (tak_move_count(move) > carry_limit(pos, sq)) return false;
    int dist = tak_move_distance(move);
    if (dist > board_room(sq, dir, size)) return false;
    int step = board_step(dir, size), s = sq;
    TakBitboard blockers = pos->walls | pos->caps;
    for (int i = 1; i < dist; i++) {
        s += step;
        if (blockers & bit(s)) return false;
    }
    s += step;
    if (pos->caps & bit(s)) return false;
    if (pos->walls & bit(s)) return (pos->caps & bit(sq)) && drops_last_is_single(code);
    return true;
}

bool tak_move_flattens(const TakPosition *pos, TakMove move) {
    if (!tak_move_is_spread(move) || tak_move_is_pass(move)) return false;
    int size = pos->rules.size, sq = tak_move_square(move);
    TakDirection dir = tak_move_direction(move);
    int dist = tak_move_distance(move);
    if (dist > board_room(sq, dir, size)) return false;
    int last = sq + dist * board_step(dir, size);
    return (pos->walls & bit(last)) != 0;
}

/* Square names for messages; the core does not depend on the notation
 * module, and a name is only a file letter and a rank digit. */
static void movegen_square_name(int square, int size, char buf[3]) {
    buf[0] = (char)('a' + square % size);
    buf[1] = (char)('1' + square / size);
    buf[2] = '\0';
}

/* The reasons behind tak_move_is_legal, in the same order of checks. */
bool tak_move_check(const TakPosition *pos, TakMove move, TakError *err) {
    if (pos->result.end != TAK_END_NONE) return tak_error_set(err, "the game is over");
    if (move >> 18) return tak_error_set(err, "not a move");
    int size = pos->rules.size, side = pos->side, sq = tak_move_square(move);
    if (sq >= size * size) return tak_error_set(err, "square %d is off the %dx%d board", sq, size, size);
    char name[3];
    movegen_square_name(sq, size, name);
    TakBitboard occupied = pos->owner[0] | pos->owner[1];
    TakMoveKind kind = tak_move_kind(move);
    if (kind != TAK_SPREAD) {
        if (move >> 8) return tak_error_set(err, "not a move");
        if (occupied & bit(sq)) return tak_error_set(err, "%s is not empty", name);
        if (pos->ply < 2) {
            if (kind != TAK_PLACE_FLAT)
                return tak_error_set(err, "on the first turn only a flat of the opponent's may be placed");
            if (pos->stones[side ^ 1] == 0)
                return tak_error_set(err, "%s has no stones left", tak_color_name(side ^ 1));
            return true;
        }
        if (kind == TAK_PLACE_CAP && pos->capstones[side] == 0)
            return tak_error_set(err, "%s has no capstones left", tak_color_name(side));
        if (kind != TAK_PLACE_CAP && pos->stones[side] == 0)
            return tak_error_set(err, "%s has no stones left", tak_color_name(side));
        return true;
    }
    if (pos->ply < 2)
        return tak_error_set(err, "on the first turn only a flat of the opponent's may be placed");
    if (!(occupied & bit(sq))) return tak_error_set(err, "there is no stack on %s", name);
    if (!(pos->owner[side] & bit(sq)))
        return tak_error_set(err, "the stack on %s is not %s's", name, tak_color_name(side));
    unsigned code = tak_move_drops(move);
    TakDirection dir = tak_move_direction(move);
    if (code == 0) {
        if (pos->rules.no_pass) return tak_error_set(err, "passing is not allowed (no-pass rule)");
        if (dir != TAK_NORTH) return tak_error_set(err, "not a move");
        return true;
    }
    int count = tak_move_count(move);
    if (count > pos->height[sq])
        return tak_error_set(err, "the stack on %s has only %d piece%s", name, pos->height[sq],
                             pos->height[sq] == 1 ? "" : "s");
    if (count > size)
        return tak_error_set(err, "%d pieces exceed the carry limit of %d", count, size);
    int dist = tak_move_distance(move);
    if (dist > board_room(sq, dir, size))
        return tak_error_set(err, "the move from %s leaves the board", name);
    int step = board_step(dir, size), s = sq;
    for (int i = 1; i <= dist; i++) {
        s += step;
        char there[3];
        movegen_square_name(s, size, there);
        if (pos->caps & bit(s)) return tak_error_set(err, "a capstone on %s blocks the move", there);
        if (!(pos->walls & bit(s))) continue;
        if (i < dist) return tak_error_set(err, "a wall on %s blocks the move", there);
        if (!(pos->caps & bit(sq)))
            return tak_error_set(err, "only a capstone can flatten the wall on %s", there);
        if (!drops_last_is_single(code))
            return tak_error_set(err, "the capstone must be alone to flatten the wall on %s", there);
    }
    return true;
}
