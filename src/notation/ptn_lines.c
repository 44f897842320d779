/*
 * ptn_lines.c: the lines of play of a TakPtn (the main line and its
 * branches), each a game with a comment and marks a ply: adding a branch,
 * playing a ply on a line, freeing them. The comment and mark arrays grow
 * by a rule of their count alone (notation_line_room), so neither the
 * public structs nor the reader need to keep a capacity.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

size_t notation_line_capacity(size_t n) {
    size_t cap = 64;
    while (cap < n) cap *= 2;
    return cap;
}

static bool grow(char ***array, size_t count) {
    size_t old = *array ? notation_line_capacity(count) : 0, cap = notation_line_capacity(count + 1);
    if (old >= count + 1) return true;
    char **grown = realloc(*array, cap * sizeof *grown);
    if (!grown) return false;
    for (size_t k = old; k < cap; k++) grown[k] = NULL;
    *array = grown;
    return true;
}

bool notation_line_room(NotationLine *line) {
    return grow(line->comments, line->game->count) && grow(line->marks, line->game->count);
}

NotationLine notation_line(TakPtn *ptn, int index) {
    if (index < 0) {
        NotationLine main = {&ptn->game, &ptn->comments, &ptn->marks, &ptn->preface, ptn->result};
        return main;
    }
    TakPtnBranch *b = &ptn->branches[index];
    NotationLine line = {&b->game, &b->comments, &b->marks, &b->preface, b->result};
    return line;
}

static bool name_ok(const char *name, TakError *err) {
    size_t n = strlen(name);
    if (n == 0) return tak_error_set(err, "a branch needs a name");
    if (n > 200) return tak_error_set(err, "a branch name has at most 200 bytes");
    if (name[0] == '/' || name[n - 1] == '/')
        return tak_error_set(err, "a branch name cannot begin or end with '/'");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c == '{' || c == '}') return tak_error_set(err, "a branch name cannot hold '{' or '}'");
        if (c < 0x20 || c == 0x7F)
            return tak_error_set(err, "a branch name is one line of printable text");
    }
    return true;
}

int notation_branch_find(const TakPtn *ptn, const char *name, size_t len) {
    for (size_t k = 0; k < ptn->branch_count; k++)
        if (strlen(ptn->branches[k].name) == len && memcmp(ptn->branches[k].name, name, len) == 0)
            return (int)k;
    return -1;
}

int notation_branch_parent(const TakPtn *ptn, const char *name, size_t len) {
    for (size_t k = len; k-- > 0;) {
        int parent = name[k] == '/' ? notation_branch_find(ptn, name, k) : -1;
        if (parent >= 0) return parent;
    }
    return -1;
}

int tak_ptn_add_branch(TakPtn *ptn, const char *name, int parent, size_t start, TakError *err) {
    if (!name_ok(name, err)) return -1;
    if (notation_branch_find(ptn, name, strlen(name)) >= 0)
        return tak_error_set(err, "there is already a branch named %.40s", name), -1;
    if (parent < -1 || parent >= (int)ptn->branch_count)
        return tak_error_set(err, "there is no line %d to branch from", parent), -1;
    /* As PTN writes it, a name says which line a branch leaves. */
    int named = notation_branch_parent(ptn, name, strlen(name));
    if (named != parent && named >= 0)
        return tak_error_set(err, "a branch named %.40s leaves branch %s", name,
                             ptn->branches[named].name),
               -1;
    if (named != parent)
        return tak_error_set(err, "a branch of branch %s is named %s/...",
                             ptn->branches[parent].name, ptn->branches[parent].name),
               -1;
    const TakGame *from = parent < 0 ? &ptn->game : &ptn->branches[parent].game;
    if (start >= from->count)
        return tak_error_set(err, "its line has %zu plies: a branch leaves it at one of them",
                             from->count),
               -1;
    size_t n = ptn->branch_count;
    if ((n & (n - 1)) == 0) {
        /* The array doubles when the count reaches a power of two. */
        TakPtnBranch *grown = realloc(ptn->branches, (n ? 2 * n : 1) * sizeof *grown);
        if (!grown) return tak_error_set(err, "out of memory"), -1;
        ptn->branches = grown;
        from = parent < 0 ? &ptn->game : &ptn->branches[parent].game; /* it moved */
    }
    TakPtnBranch *b = &ptn->branches[n];
    memset(b, 0, sizeof *b);
    b->parent = parent;
    b->start = start;
    b->name = notation_copy(name, strlen(name));
    bool ok = b->name && tak_game_init(&b->game, &ptn->game.start, err);
    for (size_t i = 0; ok && i < start; i++) ok = tak_game_play(&b->game, from->moves[i], err);
    b->comments = calloc(notation_line_capacity(start), sizeof *b->comments);
    b->marks = calloc(notation_line_capacity(start), sizeof *b->marks);
    if (!ok || !b->comments || !b->marks) {
        free(b->name);
        free(b->comments);
        free(b->marks);
        tak_game_free(&b->game);
        if (ok) tak_error_set(err, "out of memory");
        return -1;
    }
    ptn->branch_count++;
    return (int)n;
}

static bool marks_ok(const char *marks, TakError *err) {
    size_t n = strlen(marks);
    if (n > 8) return tak_error_set(err, "at most 8 marks after a ply");
    for (size_t i = 0; i < n; i++)
        if (!strchr("'\"!?", marks[i]))
            return tak_error_set(err, "marks are ', \", ! and ?, not '%c'", marks[i]);
    return true;
}

bool tak_ptn_play(TakPtn *ptn, int index, TakMove move, const char *comment, const char *marks,
                  TakError *err) {
    if (index < -1 || index >= (int)ptn->branch_count)
        return tak_error_set(err, "there is no line %d", index);
    if (marks && !marks_ok(marks, err)) return false;
    NotationLine line = notation_line(ptn, index);
    char *c = comment ? notation_copy(comment, strlen(comment)) : NULL;
    char *m = marks && *marks ? notation_copy(marks, strlen(marks)) : NULL;
    if ((comment && !c) || (marks && *marks && !m) || !notation_line_room(&line)) {
        free(c);
        free(m);
        return tak_error_set(err, "out of memory");
    }
    if (!tak_game_play(line.game, move, err)) {
        free(c);
        free(m);
        return false;
    }
    size_t i = line.game->count - 1;
    (*line.comments)[i] = c;
    (*line.marks)[i] = m;
    return true;
}

void notation_line_free(char **comments, char **marks, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (comments) free(comments[i]);
        if (marks) free(marks[i]);
    }
    free(comments);
    free(marks);
}

void notation_branches_free(TakPtn *ptn) {
    for (size_t k = 0; k < ptn->branch_count; k++) {
        TakPtnBranch *b = &ptn->branches[k];
        notation_line_free(b->comments, b->marks, b->game.count);
        free(b->name);
        free(b->preface);
        tak_game_free(&b->game);
    }
    free(ptn->branches);
    ptn->branches = NULL;
    ptn->branch_count = 0;
}
