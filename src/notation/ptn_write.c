/*
 * ptn_write.c: a game as PTN text (its tags in order, a blank line, one
 * numbered move a line with comments after their plies, the result), and a
 * TakPtn built from a TakGame with the tags that describe its rules, so that
 * what is written reads back to the same game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A growing string; `failed` sticks after the first allocation failure. */
typedef struct Text {
    char *s;
    size_t len, cap;
    bool failed;
} Text;

static void add(Text *t, const char *s, size_t n) {
    if (t->failed) return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + n + 1) cap *= 2;
        char *grown = realloc(t->s, cap);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->s = grown;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static void add_str(Text *t, const char *s) { add(t, s, strlen(s)); }

static void add_tag(Text *t, const char *name, const char *value) {
    add_str(t, "[");
    add_str(t, name);
    add_str(t, " \"");
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\') add_str(t, "\\");
        add(t, p, 1);
    }
    add_str(t, "\"]\n");
}

static void add_comment(Text *t, const char *comment) {
    add_str(t, "{");
    /* A '}' would end the comment early; the reader never stores one. */
    for (const char *p = comment; *p; p++)
        if (*p != '}') add(t, p, 1);
    add_str(t, "}");
}

/* The plies of `game` from ply `from` on, a numbered move a line (the first
 * with "--" for White when it begins with Black's ply), each with its marks
 * and comment; `preface` goes after the first move number. */
static void add_plies(Text *t, const TakGame *game, size_t from, char **comments, char **marks,
                      const char *preface) {
    TakPosition pos = game->start;
    TakUndo undo;
    for (size_t i = 0; i < from; i++) tak_position_make(&pos, game->moves[i], &undo);
    int size = tak_position_size(&pos);
    char buf[TAK_MOVE_TEXT_MAX + 32];
    for (size_t i = from; i < game->count; i++) {
        if (i == from || tak_position_side(&pos) == TAK_WHITE) {
            if (i > from) add_str(t, "\n");
            snprintf(buf, sizeof buf, "%ld.", tak_position_move_number(&pos));
            add_str(t, buf);
            if (i == from && tak_position_side(&pos) == TAK_BLACK) add_str(t, " --");
            if (i == from && preface) {
                add_str(t, " ");
                add_comment(t, preface);
            }
        }
        add_str(t, " ");
        tak_move_write(game->moves[i], size, &pos, buf);
        add_str(t, buf);
        if (marks && marks[i]) add_str(t, marks[i]);
        if (comments && comments[i]) {
            add_str(t, " ");
            add_comment(t, comments[i]);
        }
        tak_position_make(&pos, game->moves[i], &undo);
    }
}

char *tak_ptn_write(const TakPtn *ptn) {
    Text t = {NULL, 0, 0, false};
    for (size_t i = 0; i < ptn->tag_count; i++) add_tag(&t, ptn->tags[i].name, ptn->tags[i].value);
    if (ptn->tag_count) add_str(&t, "\n");
    if (ptn->preface) {
        add_comment(&t, ptn->preface);
        add_str(&t, "\n");
    }

    const TakGame *game = &ptn->game;
    add_plies(&t, game, 0, ptn->comments, ptn->marks, NULL);
    if (game->count) add_str(&t, "\n");

    /* The result as read, else the Result tag's (which the reader checked
     * against the game: writing the board's instead could contradict it, as
     * F-0 against a tag of 1/2-1/2), else the game's own. */
    TakResult result = tak_game_result(game);
    const char *tag = tak_ptn_tag(ptn, "Result");
    const char *tag_code = tag ? notation_result_scan(tag, strlen(tag)) : NULL;
    /* Only "0-0" and "*" agree with both winners: they say less than the board. */
    if (tag_code && result.end != TAK_END_NONE && notation_results_agree(tag_code, "1-0") &&
        notation_results_agree(tag_code, "0-1"))
        tag_code = NULL;
    const char *code = ptn->result[0]               ? ptn->result
                       : tag_code                   ? tag_code
                       : result.end != TAK_END_NONE ? tak_result_code(result)
                                                    : NULL;
    if (code) {
        add_str(&t, code);
        add_str(&t, "\n");
    }
    for (size_t k = 0; k < ptn->branch_count; k++) {
        const TakPtnBranch *b = &ptn->branches[k];
        if (b->game.count == b->start) continue; /* nothing to write: PTN has no empty branch */
        add_str(&t, "\n");
        add_comment(&t, b->name);
        add_str(&t, "\n");
        add_plies(&t, &b->game, b->start, b->comments, b->marks, b->preface);
        if (b->result[0]) {
            add_str(&t, " ");
            add_str(&t, b->result);
        }
        add_str(&t, "\n");
    }
    if (!t.s) add_str(&t, "");
    if (t.failed) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

/* Komi as PTN writes it: "2", "1.5", "-0.5". */
static void komi_text(int half_komi, char out[16]) {
    int a = half_komi < 0 ? -half_komi : half_komi;
    snprintf(out, 16, "%s%d%s", half_komi < 0 ? "-" : "", a / 2, a % 2 ? ".5" : "");
}

bool tak_ptn_from_game(TakPtn *ptn, const TakGame *game, TakError *err) {
    memset(ptn, 0, sizeof *ptn);
    const TakRules *rules = &game->start.rules;
    ptn->rules = *rules;
    if (!tak_game_init(&ptn->game, &game->start, err)) return false;
    for (size_t i = 0; i < game->count; i++) {
        if (!tak_game_play(&ptn->game, game->moves[i], err)) {
            char move[TAK_MOVE_TEXT_MAX];
            tak_move_write(game->moves[i], rules->size, NULL, move);
            char prefix[64];
            snprintf(prefix, sizeof prefix, "ply %zu (%s): ", i + 1, move);
            notation_error_relocate(err, 0, 0, prefix);
            tak_ptn_free(ptn);
            return false;
        }
    }
    if (game->ended.end != TAK_END_NONE)
        tak_game_end(&ptn->game, game->ended.end, game->ended.winner);

    ptn->comments = calloc(notation_line_capacity(game->count), sizeof *ptn->comments);
    ptn->marks = calloc(notation_line_capacity(game->count), sizeof *ptn->marks);
    char text[TAK_TPS_MAX];
    bool ok = ptn->comments != NULL && ptn->marks != NULL;
    snprintf(text, sizeof text, "%d", rules->size);
    ok = ok && tak_ptn_set_tag(ptn, "Size", text);
    komi_text(rules->half_komi, text);
    ok = ok && tak_ptn_set_tag(ptn, "Komi", text);
    snprintf(text, sizeof text, "%d", rules->stones);
    ok = ok && tak_ptn_set_tag(ptn, "Flats", text);
    snprintf(text, sizeof text, "%d", rules->capstones);
    ok = ok && tak_ptn_set_tag(ptn, "Caps", text);
    /* The rules PTN has no tag for, only when they are not the default. */
    if (!rules->no_pass) ok = ok && tak_ptn_set_tag(ptn, "Zugzwang", "off");
    if (rules->repetition_draw) ok = ok && tak_ptn_set_tag(ptn, "Repetition", "draw");
    TakPosition empty;
    if (ok &&
        (!tak_position_init(&empty, rules, NULL) || !tak_position_equal(&empty, &game->start))) {
        ok = tak_tps_write(&game->start, text, sizeof text) >= 0 &&
             tak_ptn_set_tag(ptn, "TPS", text);
    }
    TakResult result = tak_game_result(&ptn->game);
    if (ok && result.end != TAK_END_NONE) {
        snprintf(ptn->result, sizeof ptn->result, "%s", tak_result_code(result));
        ok = tak_ptn_set_tag(ptn, "Result", ptn->result);
    }
    if (!ok) {
        tak_ptn_free(ptn);
        return tak_error_set(err, "out of memory");
    }
    return true;
}
