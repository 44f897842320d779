/*
 * ply_read.c: one PTN ply ("Sd3", "3b2+111", "e4<*'") to a TakMove: first by
 * syntax and the board's bounds alone (tak_ply_parse), then against a
 * position (tak_move_parse). Every error points at the byte that is wrong.
 */
#include <stdio.h>

#include "internal.h"

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static int direction_of(char c) {
    switch (c) {
    case '+':
        return TAK_NORTH;
    case '-':
        return TAK_SOUTH;
    case '>':
        return TAK_EAST;
    case '<':
        return TAK_WEST;
    default:
        return -1;
    }
}

/* Squares beyond `square` toward `dir` before the edge. */
static int room_toward(int square, int dir, int size) {
    int file = square % size, rank = square / size;
    switch (dir) {
    case TAK_NORTH:
        return size - 1 - rank;
    case TAK_SOUTH:
        return rank;
    case TAK_EAST:
        return size - 1 - file;
    default:
        return file;
    }
}

/* Reads the marks that may end a ply, in any combination and order: each
 * of '*', "'", "''", '"', "!", "!!", "?", "??", "!?", "?!" is one group. */
static bool scan_marks(const char *text, size_t len, size_t i, int *marks, TakError *err) {
    char what[12];
    while (i < len) {
        char c = text[i], next = i + 1 < len ? text[i + 1] : '\0';
        if (c == '*') {
            *marks |= TAK_MARK_FLATTEN;
            i++;
        } else if (c == '"' || (c == '\'' && next == '\'')) {
            *marks |= TAK_MARK_TINUE;
            i += c == '"' ? 1 : 2;
        } else if (c == '\'') {
            *marks |= TAK_MARK_TAK;
            i++;
        } else if ((c == '!' && next == '?') || (c == '?' && next == '!')) {
            *marks |= TAK_MARK_INTERESTING;
            i += 2;
        } else if (c == '!' || c == '?') {
            *marks |= c == '!' ? TAK_MARK_GOOD : TAK_MARK_BAD;
            i += next == c ? 2 : 1;
        } else {
            return notation_fail(err, i, "unexpected %s after the ply",
                                 notation_byte_name((unsigned char)c, what));
        }
    }
    return true;
}

/* Reads a square at text[*i]; on success advances *i past it. */
static bool scan_square(const char *text, size_t len, size_t *i, int size, int *square,
                        TakError *err) {
    char what[12];
    size_t at = *i;
    if (at >= len) return notation_fail(err, at, "a square is missing");
    char file = text[at];
    if (file < 'a' || file > 'z')
        return notation_fail(err, at, "expected a square, found %s",
                             notation_byte_name((unsigned char)file, what));
    if (file - 'a' >= size)
        return notation_fail(err, at, "file '%c' is off the %dx%d board", file, size, size);
    if (at + 1 >= len) return notation_fail(err, at + 1, "the square's rank is missing");
    char rank = text[at + 1];
    if (!is_digit(rank))
        return notation_fail(err, at + 1, "expected a rank after '%c', found %s", file,
                             notation_byte_name((unsigned char)rank, what));
    if (at + 2 < len && is_digit(text[at + 2]))
        return notation_fail(err, at + 1, "rank %c%c is off the %dx%d board", rank, text[at + 2],
                             size, size);
    if (rank == '0' || rank - '0' > size)
        return notation_fail(err, at + 1, "rank %c is off the %dx%d board", rank, size, size);
    *square = notation_square_scan(text + at, 2, size);
    *i = at + 2;
    return true;
}

/* The part after the direction of a spread: drops, piece letter, marks. */
static bool scan_spread_tail(const char *text, size_t len, size_t i, int size, int square, int dir,
                             int count, size_t count_at, TakPly *ply, TakError *err) {
    int drops[8], n = 0, sum = 0;
    size_t drops_at = i;
    while (i < len && is_digit(text[i])) {
        int d = text[i] - '0';
        if (d == 0)
            return notation_fail(err, i, "a drop of 0 pieces (each square gets at least 1)");
        if (n == size) return notation_fail(err, i, "more drops than the carry limit of %d", size);
        sum += d;
        drops[n++] = d;
        i++;
    }
    if (n == 0) {
        drops[n++] = count;
        sum = count;
    }
    if (sum != count)
        return notation_fail(err, drops_at, "the drops add up to %d, but %d piece%s lifted%s", sum,
                             count, count == 1 ? " is" : "s are",
                             count_at == (size_t)-1 ? " (no count means 1)" : "");
    int room = room_toward(square, dir, size);
    if (n > room)
        return notation_fail(err, n > 1 ? drops_at : drops_at - 1,
                             "the move goes off the board: it covers %d square%s, and %d lie "
                             "beyond %c%c",
                             n, n == 1 ? "" : "s", room, 'a' + square % size, '1' + square / size);
    ply->piece = -1;
    if (i < len && (text[i] == 'S' || text[i] == 'C')) {
        ply->piece = text[i] == 'S' ? TAK_WALL : TAK_CAP;
        i++;
    } else if (i < len && (text[i] == 'F' || text[i] == 's' || text[i] == 'c')) {
        return notation_fail(err, i, "only 'S' or 'C' may name the moving piece, not '%c'",
                             text[i]);
    }
    ply->move = tak_move_spread(square, (TakDirection)dir, tak_drops_encode(drops, n));
    return scan_marks(text, len, i, &ply->marks, err);
}

bool notation_ply_scan(const char *text, size_t len, int size, TakPly *out, TakError *err) {
    char what[12];
    TakPly ply = {TAK_MOVE_NONE, -1, 0};
    size_t i = 0;
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE)
        return tak_error_set(err, "board size %d is not between %d and %d", size, TAK_MIN_SIZE,
                             TAK_MAX_SIZE);
    if (len == 0) return notation_fail(err, 0, "empty ply");

    int kind = -1; /* a placement's TakMoveKind when a piece letter leads */
    char c = text[0];
    if (c == 'F' || c == 'S' || c == 'C') {
        kind = c == 'F' ? TAK_PLACE_FLAT : c == 'S' ? TAK_PLACE_WALL : TAK_PLACE_CAP;
        i = 1;
    } else if ((c == 's' ||
                ((c == 'f' || c == 'c') && len > 1 && text[1] >= 'a' && text[1] <= 'z'))) {
        return notation_fail(err, 0, "piece letters are capitals: write '%c'", c - 'a' + 'A');
    }

    int count = 1;
    size_t count_at = (size_t)-1;
    if (kind < 0 && is_digit(text[0])) {
        count_at = 0;
        count = 0;
        while (i < len && is_digit(text[i])) {
            count = count * 10 + (text[i] - '0');
            if (count > 99) break;
            i++;
        }
        if (count == 0) return notation_fail(err, 0, "a count of 0 lifts nothing");
        if (count > size)
            return notation_fail(err, 0, "%s%d pieces exceed the carry limit of %d",
                                 count > 99 ? "over " : "", count > 99 ? 99 : count, size);
    }

    int square = -1; /* set by scan_square on success; gcc -O3 cannot see it */
    if (!scan_square(text, len, &i, size, &square, err)) return false;

    int dir = i < len ? direction_of(text[i]) : -1;
    if (dir >= 0) {
        if (kind >= 0)
            return notation_fail(err, 0, "a move takes no piece letter in front ('%c')", c);
        if (!scan_spread_tail(text, len, i + 1, size, square, dir, count, count_at, &ply, err))
            return false;
        *out = ply;
        return true;
    }
    if (count_at != (size_t)-1) {
        /* A count and a square with no direction: a pass (no-pass rule off). */
        if (i < len && !(text[i] == '*' || text[i] == '\'' || text[i] == '"' || text[i] == '!' ||
                         text[i] == '?'))
            return notation_fail(err, i, "expected a direction (+ - < >), found %s",
                                 notation_byte_name((unsigned char)text[i], what));
        ply.move = tak_move_pass(square);
    } else {
        if (i < len && (text[i] == 'S' || text[i] == 'C' || text[i] == 'F'))
            return notation_fail(err, i, "a placement's piece letter goes first ('%c%c%c')",
                                 text[i], text[i - 2], text[i - 1]);
        ply.move = tak_move_place(square, kind < 0 ? TAK_PLACE_FLAT : (TakMoveKind)kind);
    }
    if (!scan_marks(text, len, i, &ply.marks, err)) return false;
    *out = ply;
    return true;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool tak_ply_parse(const char *text, int size, TakPly *out, TakError *err) {
    if (!text) return tak_error_set(err, "no ply");
    size_t start = 0, end = 0;
    while (text[end]) end++;
    while (start < end && is_blank(text[start])) start++;
    while (end > start && is_blank(text[end - 1])) end--;
    if (!notation_ply_scan(text + start, end - start, size, out, err)) {
        if (err && err->column > 0) notation_error_relocate(err, 0, (int)start + 1, NULL);
        return false;
    }
    return true;
}

bool notation_ply_check(const TakPosition *pos, const TakPly *ply, TakError *err) {
    static const char *const names[3] = {"flat", "wall", "capstone"};
    if (!tak_move_check(pos, ply->move, err)) return false;
    if (ply->piece < 0 || !tak_move_is_spread(ply->move)) return true;
    int square = tak_move_square(ply->move);
    TakPieceType top = tak_position_top_type(pos, square);
    if ((int)top != ply->piece) {
        char name[3];
        tak_square_name(square, tak_position_size(pos), name);
        return tak_error_set(err, "the piece on top of %s is a %s, not a %s", name, names[top],
                             names[ply->piece]);
    }
    return true;
}

bool tak_move_parse(const TakPosition *pos, const char *text, TakMove *move, TakError *err) {
    TakPly ply;
    if (!tak_ply_parse(text, tak_position_size(pos), &ply, err)) return false;
    if (!notation_ply_check(pos, &ply, err)) return false;
    *move = ply.move;
    return true;
}
