/**
 * \file
 * error.h: the one error record every fallible library call fills.
 *
 * Library code never prints and never exits; a call that can fail returns
 * false (or a negative count) and, when given a TakError, says what was wrong
 * and where, so a front end can show it as it likes.
 */
#ifndef TAK_ERROR_H
#define TAK_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

#define TAK_ERROR_MESSAGE_MAX 200

typedef struct TakError {
    int line;   /**< 1-based line of the input, 0 when it does not apply */
    int column; /**< 1-based column (byte) in that line, 0 when it does not apply */
    char message[TAK_ERROR_MESSAGE_MAX]; /**< what was wrong, in words */
} TakError;

/** Fills `err` (when not NULL) with a printf-style message and no location.
 * Always returns false, so a caller can write `return tak_error_set(...)`. */
bool tak_error_set(TakError *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** As tak_error_set, with a line and column. */
bool tak_error_set_at(TakError *err, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** Clears `err` (when not NULL) to "no error". */
void tak_error_clear(TakError *err);

/** Writes "line L, column C: message" (or just the message when there is no
 * location) into buf; returns buf. */
const char *tak_error_describe(const TakError *err, char *buf, unsigned long cap);

#endif
