/*
 * ply_write.c: a TakMove as PTN text, in the short form other tools write
 * ("a1", "Sd3", "a1>", "3b2+111") or the long form that always carries the
 * count and the drops ("1a1>1"). A flattening move gets '*' when the
 * position before it is known.
 */
#include "internal.h"

static const char direction_chars[4] = {'+', '-', '>', '<'};

static int write_move(TakMove move, int size, const TakPosition *pos, char *buf, bool long_form) {
    int n = 0;
    int square = tak_move_square(move);
    /* A move that is not one of this board's (TAK_MOVE_NONE, a stray code)
     * is written as "??" so it shows, rather than as a wrong square. */
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE || square >= size * size || (move >> 18)) {
        buf[0] = buf[1] = '?';
        buf[2] = '\0';
        return 2;
    }
    char name[3];
    tak_square_name(square, size, name);
    TakMoveKind kind = tak_move_kind(move);
    if (kind != TAK_SPREAD) {
        if (kind == TAK_PLACE_WALL) buf[n++] = 'S';
        if (kind == TAK_PLACE_CAP) buf[n++] = 'C';
        buf[n++] = name[0];
        buf[n++] = name[1];
        buf[n] = '\0';
        return n;
    }
    if (tak_move_is_pass(move)) {
        /* A pass lifts a stack and puts it back: a count with no direction. */
        buf[n++] = '1';
        buf[n++] = name[0];
        buf[n++] = name[1];
        buf[n] = '\0';
        return n;
    }
    int drops[8];
    int parts = tak_drops_decode(tak_move_drops(move), drops);
    int count = tak_move_count(move);
    if (long_form || count > 1) buf[n++] = (char)('0' + count);
    buf[n++] = name[0];
    buf[n++] = name[1];
    buf[n++] = direction_chars[tak_move_direction(move)];
    if (long_form || parts > 1)
        for (int i = 0; i < parts; i++) buf[n++] = (char)('0' + drops[i]);
    if (pos && tak_position_size(pos) == size && tak_move_flattens(pos, move)) buf[n++] = '*';
    buf[n] = '\0';
    return n;
}

int tak_move_write(TakMove move, int size, const TakPosition *pos, char *buf) {
    return write_move(move, size, pos, buf, false);
}

int tak_move_write_long(TakMove move, int size, const TakPosition *pos, char *buf) {
    return write_move(move, size, pos, buf, true);
}
