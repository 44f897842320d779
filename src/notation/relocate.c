/*
 * relocate.c: errors that point into text: at a byte of a piece of text, and
 * moved from a piece (a ply, a TPS tag value) to where that piece lies in the
 * whole document.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

void notation_error_relocate(TakError *err, int line, int column, const char *prefix) {
    if (!err) return;
    long c = err->column > 0 ? (long)column + err->column - 1 : column;
    err->column = c > 0x7FFFFFFFL ? 0x7FFFFFFF : (int)c;
    err->line = line;
    if (prefix && *prefix) {
        char message[TAK_ERROR_MESSAGE_MAX];
        snprintf(message, sizeof message, "%s%s", prefix, err->message);
        memcpy(err->message, message, sizeof message);
    }
}

bool notation_fail(TakError *err, size_t index, const char *fmt, ...) {
    if (!err) return false;
    char message[TAK_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    int column = index >= 0x7FFFFFFE ? 0x7FFFFFFF : (int)index + 1;
    return tak_error_set_at(err, 0, column, "%s", message);
}

const char *notation_byte_name(unsigned char c, char buf[12]) {
    if (c >= 0x21 && c < 0x7F)
        snprintf(buf, 12, "'%c'", c);
    else if (c == ' ')
        snprintf(buf, 12, "a space");
    else
        snprintf(buf, 12, "byte 0x%02X", c);
    return buf;
}
