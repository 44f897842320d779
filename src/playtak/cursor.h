/*
 * cursor.h: the cursor both line readers of src/playtak/ walk (read.c, the
 * server's lines; client_read.c, a client's), with the steps they take alike:
 * the byte under it, what is left, a word, and a refusal that says where.
 * What differs between the two (how a number ends, what may follow the last
 * field) stays in each file.
 */
#ifndef TAK_PLAYTAK_CURSOR_H
#define TAK_PLAYTAK_CURSOR_H

#include <stdbool.h>
#include <stddef.h>

#include "tak/error.h"

/* A cursor over one line of len bytes, none of them NUL (so cur_peek is '\0'
 * exactly at the end); err may be NULL, for a read that is only a trial. */
typedef struct Cur {
    const char *s;
    size_t pos, len;
    TakError *err;
} Cur;

static inline char cur_peek(const Cur *c) { return c->pos < c->len ? c->s[c->pos] : '\0'; }

/* The bytes left from here to the end of the line. */
static inline size_t cur_left(const Cur *c) { return c->len - c->pos; }

/* Refuses the line at byte pos (column pos + 1); fmt's one %s is `what`. */
static inline bool cur_fail_at(Cur *c, size_t pos, const char *fmt, const char *what) {
    return tak_error_set_at(c->err, 0, (int)pos + 1, fmt, what);
}

/* As cur_fail_at, at the cursor. */
static inline bool cur_fail(Cur *c, const char *fmt, const char *what) {
    return cur_fail_at(c, c->pos, fmt, what);
}

/* The next word (up to a space or the end), at least one byte ("missing
 * WHAT" when there is none): its start and length, the cursor after it.
 * Both are set even on a refusal (an empty word), which the compiler cannot
 * tell the caller never reads. */
static inline bool cur_word(Cur *c, const char **start, size_t *n, const char *what) {
    size_t end = c->pos;
    while (end < c->len && c->s[end] != ' ') end++;
    *start = c->s + c->pos;
    *n = end - c->pos;
    if (end == c->pos) return cur_fail(c, "missing %s", what);
    c->pos = end;
    return true;
}

#endif
