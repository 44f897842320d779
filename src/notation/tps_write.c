/*
 * tps_write.c: a TakPosition as a TPS line, rows from the top rank down, runs
 * of empty squares compressed ("x5"), then the side to move and the move
 * number.
 */
#include <stdio.h>

#include "internal.h"

/* Appends to a bounded buffer; `n` keeps counting past `cap` so the caller
 * can tell the text did not fit. */
typedef struct Out {
    char *buf;
    size_t cap, n;
} Out;

static void put(Out *out, char c) {
    if (out->n + 1 < out->cap) out->buf[out->n] = c;
    out->n++;
}

static void put_number(Out *out, unsigned long v) {
    char digits[24];
    int k = 0;
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k) put(out, digits[--k]);
}

int tak_tps_write(const TakPosition *pos, char *buf, size_t cap) {
    Out out = {buf, cap, 0};
    int size = tak_position_size(pos);
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE) return -1;
    for (int rank = size - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < size; file++) {
            int square = rank * size + file;
            int height = tak_position_height(pos, square);
            if (height == 0) {
                empty++;
                continue;
            }
            if (empty) {
                put(&out, 'x');
                if (empty > 1) put_number(&out, (unsigned long)empty);
                put(&out, ',');
                empty = 0;
            }
            /* A consistent position never holds more than 128 pieces in a
             * stack (the bits it has); deeper levels would read past them. */
            for (int level = 0; level < height; level++) {
                int from_top = height - 1 - level;
                int color = from_top < 128 ? (int)((pos->stack[square] >> from_top) & 1) : 0;
                put(&out, color ? '2' : '1');
            }
            TakPieceType top = tak_position_top_type(pos, square);
            if (top == TAK_WALL) put(&out, 'S');
            if (top == TAK_CAP) put(&out, 'C');
            put(&out, ',');
        }
        if (empty) {
            put(&out, 'x');
            if (empty > 1) put_number(&out, (unsigned long)empty);
        } else {
            out.n--; /* the ',' after the last stack */
        }
        put(&out, rank ? '/' : ' ');
    }
    put(&out, tak_position_side(pos) == TAK_WHITE ? '1' : '2');
    put(&out, ' ');
    put_number(&out, (unsigned long)tak_position_move_number(pos));
    if (out.n >= cap) {
        if (cap) buf[cap - 1] = '\0';
        return -1;
    }
    buf[out.n] = '\0';
    return (int)out.n;
}
