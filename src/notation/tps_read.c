/*
 * tps_read.c: a TPS line to a TakPosition. The board is read square by
 * square so that every error points at the byte that is wrong; pieces are
 * counted as they are read, so too many for the reserves is reported at the
 * stack that went over. The position itself is built with the core's
 * tak_position_clear / put_stack / finish.
 */
#include <stdio.h>

#include "internal.h"

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Pieces read so far, to check against the reserves as they come; `board`:
 * the stones of each colour on the whole board, for the message when too
 * many (the error points at the stack that went over, the count is all). */
typedef struct Tally {
    int stones[2], caps[2], board[2];
} Tally;

/* The stones (capstones not counted) of each colour in the board field at
 * text[i..end), up to its first blank: a '1' or '2' each, less one for a
 * capstone's colour. Read loosely: only for the message above. */
static void count_stones(const char *text, size_t end, size_t i, int board[2]) {
    board[0] = board[1] = 0;
    for (; i < end && !is_blank(text[i]); i++) {
        if (text[i] == '1' || text[i] == '2') board[text[i] - '1']++;
        else if (text[i] == 'C' && i > 0 && (text[i - 1] == '1' || text[i - 1] == '2')) board[text[i - 1] - '1']--;
    }
}

/* Reads one stack ("1212S") at text[*i] onto `square`. */
static bool read_stack(const char *text, size_t end, size_t *i, const TakRules *rules,
                       TakPosition *pos, int square, Tally *tally, TakError *err) {
    size_t start = *i, at = *i;
    TakStackBits bits = 0;
    int height = 0, colors[2] = {0, 0};
    char what[12];
    while (at < end && (text[at] == '1' || text[at] == '2')) {
        int color = text[at] - '1';
        /* Both reserves together hold at most 2 * TAK_MAX_RESERVE pieces,
         * which is also what the stack's bits can hold. */
        if (height == 2 * TAK_MAX_RESERVE)
            return notation_fail(err, at, "the stack holds more pieces than both reserves");
        bits = (bits << 1) | (TakStackBits)color;
        height++;
        colors[color]++;
        at++;
    }
    TakPieceType top = TAK_FLAT;
    size_t type_at = at;
    if (at < end && (text[at] == 'S' || text[at] == 'C')) {
        if (height == 0)
            return notation_fail(err, at, "'%c' must follow the colour of its piece (1%c or 2%c)",
                                 text[at], text[at], text[at]);
        top = text[at] == 'S' ? TAK_WALL : TAK_CAP;
        at++;
        if (at < end && (text[at] == '1' || text[at] == '2'))
            return notation_fail(err, type_at, "a %s can only be the top piece of a stack",
                                 top == TAK_WALL ? "wall" : "capstone");
        if (at < end && (text[at] == 'S' || text[at] == 'C'))
            return notation_fail(err, at, "a piece can be only one of wall and capstone");
    }
    if (height == 0) {
        if (at >= end || text[at] == ',' || text[at] == '/' || is_blank(text[at]))
            return notation_fail(err, at, "a square is missing (write x for an empty one)");
        if (text[at] == 's' || text[at] == 'c')
            return notation_fail(err, at, "piece letters are capitals: write '%c'",
                                 text[at] - 'a' + 'A');
        return notation_fail(err, at, "%s is not a square: write x, xN or a stack of 1s and 2s",
                             notation_byte_name((unsigned char)text[at], what));
    }
    if (at < end && text[at] != ',' && text[at] != '/' && !is_blank(text[at])) {
        if (is_digit(text[at]))
            return notation_fail(err, at, "'%c' is not a colour: pieces are 1 (White) or 2 (Black)",
                                 text[at]);
        if (text[at] == 's' || text[at] == 'c')
            return notation_fail(err, at, "piece letters are capitals: write '%c'",
                                 text[at] - 'a' + 'A');
        return notation_fail(err, at, "unexpected %s in a stack",
                             notation_byte_name((unsigned char)text[at], what));
    }
    int top_color = (int)(bits & 1);
    for (int c = 0; c < 2; c++) {
        int stones = colors[c] - (top == TAK_CAP && c == top_color);
        tally->stones[c] += stones;
        if (tally->stones[c] > rules->stones)
            return notation_fail(
                err, start, "too many %s stones: %d on the board, but a reserve holds %d",
                tak_color_name(c),
                tally->board[c] > tally->stones[c] ? tally->board[c] : tally->stones[c],
                rules->stones);
    }
    if (top == TAK_CAP && ++tally->caps[top_color] > rules->capstones)
        return notation_fail(err, type_at,
                             "too many %s capstones: %d on the board, but the game has %d",
                             tak_color_name(top_color), tally->caps[top_color], rules->capstones);
    tak_position_put_stack(pos, square, height, bits, top);
    *i = at;
    return true;
}

/* Reads an "x" or "xN" run of empty squares at text[*i]; *run gets N. */
static bool read_empty_run(const char *text, size_t end, size_t *i, int size, int *run,
                           TakError *err) {
    size_t at = *i + 1, digits = at;
    long n = 0;
    while (at < end && is_digit(text[at])) {
        if (n <= TAK_MAX_SIZE) n = n * 10 + (text[at] - '0');
        at++;
    }
    if (at == digits)
        n = 1;
    else if (n == 0)
        return notation_fail(err, digits, "a run of 0 empty squares");
    else if (n > size)
        return notation_fail(err, digits, "more than %d empty squares in a row", size);
    if (at < end && text[at] != ',' && text[at] != '/' && !is_blank(text[at])) {
        char what[12];
        return notation_fail(err, at, "unexpected %s after an empty square",
                             notation_byte_name((unsigned char)text[at], what));
    }
    *run = (int)n;
    *i = at;
    return true;
}

/* Reads the board field at text[*i..end) of a TPS whose rows number `size`. */
static bool read_board(const char *text, size_t end, size_t *i, const TakRules *rules,
                       TakPosition *pos, TakError *err) {
    int size = rules->size;
    Tally tally = {{0, 0}, {0, 0}, {0, 0}};
    size_t at = *i;
    count_stones(text, end, at, tally.board);
    for (int row = 0; row < size; row++) {
        int rank = size - 1 - row, file = 0;
        size_t row_at = at;
        for (;;) {
            if (file >= size)
                return notation_fail(err, at, "rank %d has more than %d squares", rank + 1, size);
            if (at < end && text[at] == 'x') {
                int run = 0; /* set by read_empty_run on success */
                if (!read_empty_run(text, end, &at, size, &run, err)) return false;
                if (file + run > size)
                    return notation_fail(err, at - 1, "rank %d has more than %d squares", rank + 1,
                                         size);
                file += run;
            } else {
                if (!read_stack(text, end, &at, rules, pos, rank * size + file, &tally, err))
                    return false;
                file++;
            }
            if (at < end && text[at] == ',') {
                at++;
                continue;
            }
            break;
        }
        if (file < size)
            return notation_fail(err, row_at, "rank %d has %d square%s, not %d", rank + 1, file,
                                 file == 1 ? "" : "s", size);
        if (row + 1 < size) {
            /* The size was found by counting '/', so one must follow. */
            if (at >= end || text[at] != '/')
                return notation_fail(err, at, "rank %d is missing", rank);
            at++;
        }
    }
    *i = at;
    return true;
}

/* The board size a TPS claims: its rows, found by counting '/' in the board field. */
static int count_rows(const char *text, size_t end, size_t i) {
    int rows = 1;
    while (i < end && !is_blank(text[i])) rows += text[i++] == '/';
    return rows;
}

/* Reads the move number at text[*i]: digits only, 1 to 2^31 - 1. */
static bool read_move_number(const char *text, size_t end, size_t *i, long *number, TakError *err) {
    size_t at = *i;
    char what[12];
    if (at >= end) return notation_fail(err, at, "the move number is missing");
    if (text[at] == '-' || text[at] == '+')
        return notation_fail(err, at, "the move number must be a positive whole number");
    if (!is_digit(text[at]))
        return notation_fail(err, at, "the move number must be a positive whole number, not %s",
                             notation_byte_name((unsigned char)text[at], what));
    long n = 0;
    size_t start = at;
    while (at < end && is_digit(text[at])) {
        n = n * 10 + (text[at] - '0');
        if (n > 0x7FFFFFFFL) return notation_fail(err, start, "the move number is 2^31 or more");
        at++;
    }
    if (at < end && !is_blank(text[at]))
        return notation_fail(err, at, "the move number must be a whole number, not %s here",
                             notation_byte_name((unsigned char)text[at], what));
    if (n == 0) return notation_fail(err, start, "the move number must be at least 1, not 0");
    *number = n;
    *i = at;
    return true;
}

static void skip_blanks(const char *text, size_t end, size_t *i) {
    while (*i < end && is_blank(text[*i])) (*i)++;
}

bool notation_tps_scan(const char *text, size_t len, const TakRules *rules, TakPosition *out,
                       TakError *err) {
    size_t i = 0;
    skip_blanks(text, len, &i);
    size_t end = len;
    while (end > i && is_blank(text[end - 1])) end--;
    if (i == end) return notation_fail(err, i, "empty TPS");

    int size = count_rows(text, end, i);
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE)
        return notation_fail(err, i, "the board has %d rows; sizes run from %d to %d", size,
                             TAK_MIN_SIZE, TAK_MAX_SIZE);
    TakRules standard;
    if (!rules) {
        tak_rules_standard(&standard, size, NULL);
        rules = &standard;
    } else if (rules->size != size) {
        return notation_fail(err, i, "the TPS is a %dx%d board, but the rules are for %dx%d", size,
                             size, rules->size, rules->size);
    }
    TakPosition pos;
    if (!tak_position_clear(&pos, rules, err)) return false;
    if (!read_board(text, end, &i, rules, &pos, err)) return false;

    char what[12];
    if (i >= end) return notation_fail(err, i, "the side to move is missing");
    if (!is_blank(text[i]))
        return notation_fail(err, i, "unexpected %s after the board",
                             notation_byte_name((unsigned char)text[i], what));
    skip_blanks(text, end, &i);
    if (i >= end) return notation_fail(err, i, "the side to move is missing");
    if ((text[i] != '1' && text[i] != '2') || (i + 1 < end && !is_blank(text[i + 1]))) {
        size_t n = 0;
        while (i + n < end && text[i + n] > ' ' && text[i + n] < 0x7F && n < 16) n++;
        if (n == 0)
            return notation_fail(err, i, "the side to move must be 1 or 2, not %s",
                                 notation_byte_name((unsigned char)text[i], what));
        return notation_fail(err, i, "the side to move must be 1 or 2, not '%.*s'", (int)n,
                             text + i);
    }
    TakColor side = text[i] == '1' ? TAK_WHITE : TAK_BLACK;
    i++;
    skip_blanks(text, end, &i);
    long number = 0; /* set by read_move_number on success */
    if (!read_move_number(text, end, &i, &number, err)) return false;
    if (i < end) {
        skip_blanks(text, end, &i);
        return notation_fail(err, i, "unexpected text after the move number");
    }
    if (!tak_position_finish(&pos, side, number, err)) return false;
    *out = pos;
    return true;
}

bool tak_tps_read(const char *tps, const TakRules *rules, TakPosition *out, TakError *err) {
    if (!tps) return tak_error_set(err, "no TPS");
    size_t len = 0;
    while (tps[len]) len++;
    return notation_tps_scan(tps, len, rules, out, err);
}
