/*
 * ptn_tags.c: the tags of a TakPtn (kept in file order, unknown ones
 * included), looking them up and setting them, and freeing a TakPtn.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

bool notation_name_equal(const char *a, const char *b) {
    while (*a && lower(*a) == lower(*b)) a++, b++;
    return lower(*a) == lower(*b);
}

char *notation_copy(const char *text, size_t len) {
    char *s = malloc(len + 1);
    if (!s) return NULL;
    memcpy(s, text, len);
    s[len] = '\0';
    return s;
}

bool notation_tag_name_ok(const char *name, size_t len) {
    if (len == 0) return false;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        bool ok =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) return false;
    }
    return true;
}

bool notation_ptn_append_tag(TakPtn *ptn, const char *name, size_t name_len, const char *value,
                             size_t value_len) {
    /* Grow by doubling when the count reaches a power of two, so no
     * capacity needs storing in the public struct. */
    size_t n = ptn->tag_count;
    if (n == 0 || (n & (n - 1)) == 0) {
        size_t cap = n ? n * 2 : 8;
        if (n == 0 || n >= 8) {
            TakPtnTag *tags = realloc(ptn->tags, cap * sizeof *tags);
            if (!tags) return false;
            ptn->tags = tags;
        }
    }
    char *name_copy = notation_copy(name, name_len), *value_copy = notation_copy(value, value_len);
    if (!name_copy || !value_copy) {
        free(name_copy);
        free(value_copy);
        return false;
    }
    ptn->tags[n].name = name_copy;
    ptn->tags[n].value = value_copy;
    ptn->tag_count = n + 1;
    return true;
}

const char *tak_ptn_tag(const TakPtn *ptn, const char *name) {
    if (!ptn || !name) return NULL;
    for (size_t i = 0; i < ptn->tag_count; i++)
        if (notation_name_equal(ptn->tags[i].name, name)) return ptn->tags[i].value;
    return NULL;
}

bool tak_ptn_set_tag(TakPtn *ptn, const char *name, const char *value) {
    if (!ptn || !name || !value) return false;
    size_t name_len = strlen(name), value_len = strlen(value);
    if (!notation_tag_name_ok(name, name_len)) return false;
    /* A value is written between quotes on one line: no control bytes. */
    for (size_t i = 0; i < value_len; i++)
        if ((unsigned char)value[i] < 0x20 && value[i] != '\t') return false;
    for (size_t i = 0; i < ptn->tag_count; i++) {
        if (!notation_name_equal(ptn->tags[i].name, name)) continue;
        char *value_copy = notation_copy(value, value_len);
        if (!value_copy) return false;
        free(ptn->tags[i].value);
        ptn->tags[i].value = value_copy;
        return true;
    }
    return notation_ptn_append_tag(ptn, name, name_len, value, value_len);
}

void tak_ptn_free(TakPtn *ptn) {
    if (!ptn) return;
    for (size_t i = 0; i < ptn->tag_count; i++) {
        free(ptn->tags[i].name);
        free(ptn->tags[i].value);
    }
    free(ptn->tags);
    notation_line_free(ptn->comments, ptn->marks, ptn->game.count);
    notation_branches_free(ptn);
    free(ptn->preface);
    tak_game_free(&ptn->game);
    memset(ptn, 0, sizeof *ptn);
}
