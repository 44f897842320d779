/* error.c: filling and describing TakError records. */
#include "tak/error.h"

#include <stdio.h>
#include <string.h>

static void error_vset(TakError *err, int line, int column, const char *fmt, va_list ap) {
    if (!err) return;
    err->line = line;
    err->column = column;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
}

bool tak_error_set(TakError *err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, 0, 0, fmt, ap);
    va_end(ap);
    return false;
}

bool tak_error_set_at(TakError *err, int line, int column, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, line, column, fmt, ap);
    va_end(ap);
    return false;
}

void tak_error_clear(TakError *err) {
    if (!err) return;
    err->line = 0;
    err->column = 0;
    err->message[0] = '\0';
}

const char *tak_error_describe(const TakError *err, char *buf, unsigned long cap) {
    if (cap == 0) return buf;
    if (!err) {
        snprintf(buf, cap, "unknown error");
    } else if (err->line > 0 && err->column > 0) {
        snprintf(buf, cap, "line %d, column %d: %s", err->line, err->column, err->message);
    } else if (err->line > 0) {
        snprintf(buf, cap, "line %d: %s", err->line, err->message);
    } else if (err->column > 0) {
        snprintf(buf, cap, "column %d: %s", err->column, err->message);
    } else {
        snprintf(buf, cap, "%s", err->message);
    }
    return buf;
}
