/*
 * square.c: square names ("c4") to indices (rank * size + file, a1 = 0) and
 * back. Board sizes stop at 8, so a name is always one letter and one digit.
 */
#include "internal.h"

int notation_square_scan(const char *text, size_t len, int size) {
    if (len != 2 || size < TAK_MIN_SIZE || size > TAK_MAX_SIZE) return -1;
    int file = text[0] - 'a', rank = text[1] - '1';
    if (file < 0 || file >= size || rank < 0 || rank >= size) return -1;
    return rank * size + file;
}

int tak_square_parse(const char *text, int size) {
    if (!text) return -1;
    size_t len = 0;
    while (len < 3 && text[len]) len++; /* a third byte already means "not a square" */
    return notation_square_scan(text, len, size);
}

void tak_square_name(int square, int size, char buf[3]) {
    if (size < 1 || square < 0 || square >= size * size || size > TAK_MAX_SIZE) {
        /* Not a square of this board: a visible placeholder beats garbage. */
        buf[0] = '?';
        buf[1] = '?';
    } else {
        buf[0] = (char)('a' + square % size);
        buf[1] = (char)('1' + square / size);
    }
    buf[2] = '\0';
}
