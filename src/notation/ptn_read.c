/*
 * ptn_read.c: a whole PTN game, read and replayed. One pass over the text:
 * the tag section, then the move text token by token, each ply checked by
 * syntax and then played with tak_game_play, so an illegal move fails where
 * it stands with its move number, side and reason. The reader keeps its
 * line and column as it goes; memory grows only with what the text holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct Reader {
    const char *text;
    size_t len, i;
    int line;          /* 1-based line of text[i] */
    size_t line_at;    /* offset of that line's first byte */
    TakPtn *ptn;
    TakError *err;
    NotationSite *sites; /* sites[k]: where tag k's value starts */
    int line_index;      /* the line being read: -1 the main line, else a branch */
    NotationLine target; /* that line, where plies go */
    size_t line_start;   /* its first own ply */
    bool in_moves;       /* past the tags: a comment may head a branch */
    int newlines;        /* line breaks since the last token or comment */
    char *note;          /* comments since the last ply, joined; pending for it */
    size_t note_len, note_cap;
} Reader;

static int column_of(const Reader *r, size_t at) {
    size_t c = at - r->line_at + 1;
    return c > 0x7FFFFFFF ? 0x7FFFFFFF : (int)c;
}

static bool fail(Reader *r, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool fail(Reader *r, size_t at, const char *fmt, ...) {
    if (!r->err) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
    va_end(ap);
    r->err->line = r->line;
    r->err->column = column_of(r, at);
    return false;
}

static void next_line(Reader *r, size_t newline_at) {
    if (r->line < 0x7FFFFFFF) r->line++;
    r->line_at = newline_at + 1;
    r->newlines++;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* ---- Comments ------------------------------------------------------------ */

/* Adds a comment's text to the note pending for the last ply. */
static bool note_add(Reader *r, const char *text, size_t len) {
    size_t need = r->note_len + len + 2;
    if (need > r->note_cap) {
        size_t cap = r->note_cap ? r->note_cap : 64;
        while (cap < need) cap *= 2;
        char *note = realloc(r->note, cap);
        if (!note) return false;
        r->note = note;
        r->note_cap = cap;
    }
    if (r->note_len) r->note[r->note_len++] = ' ';
    memcpy(r->note + r->note_len, text, len);
    r->note_len += len;
    r->note[r->note_len] = '\0';
    return true;
}

/* Gives the pending note to the last ply of the line, or, before its first
 * ply, to its preface (often a description of the game or the opening). */
static bool note_flush(Reader *r) {
    size_t count = r->target.game->count;
    if (r->note_len) {
        char *copy = notation_copy(r->note, r->note_len);
        if (!copy) return fail(r, r->i, "out of memory");
        /* Each ply's note is flushed once: by the next ply, a branch, or the end. */
        if (count > r->line_start)
            (*r->target.comments)[count - 1] = copy;
        else
            *r->target.preface = copy;
    }
    r->note_len = 0;
    return true;
}

/* The ply a move number names for White on `game`'s line: its index from
 * the start (-1 when the line starts with Black to move at that number), or
 * a value below -1 when the number comes before the line's start. */
static long long white_ply_at(const TakGame *game, long long number) {
    long long first = tak_position_move_number(&game->start);
    if (number < first) return -2;
    return (number - first) * 2 - (tak_position_side(&game->start) == TAK_BLACK);
}

/* Whether the comment from `open` ('{') to `close` ('}') heads a branch, as
 * PTN Ninja writes them: after a blank line, one line of name, then a move
 * number that falls inside the line the name says it leaves. Sets *parent
 * and *number. */
static bool branch_heading(Reader *r, size_t open, size_t close, int *parent, long long *number) {
    if (!r->in_moves || r->newlines < 2 || r->ptn->game.count == 0) return false;
    const char *name = r->text + open + 1;
    size_t len = close - open - 1;
    if (len == 0 || len > 200 || name[0] == '/' || name[len - 1] == '/') return false;
    for (size_t k = 0; k < len; k++)
        if ((unsigned char)name[k] < 0x20 || name[k] == '{' || name[k] == 0x7F) return false;
    size_t j = close + 1;
    while (j < r->len && is_blank(r->text[j])) j++;
    long long n = 0;
    size_t digits = j;
    while (j < r->len && r->text[j] >= '0' && r->text[j] <= '9' && n < 1000000000LL)
        n = n * 10 + (r->text[j++] - '0');
    if (j == digits || j >= r->len || r->text[j] != '.') return false;
    /* "A/B" leaves branch A when there is one; any other name the main line. */
    *parent = notation_branch_parent(r->ptn, name, len);
    const TakGame *from = *parent < 0 ? &r->ptn->game : &r->ptn->branches[*parent].game;
    long long at = white_ply_at(from, n);
    *number = n;
    return at >= -1 && at < (long long)from->count;
}

/* Skips blanks and comments; comments are kept for the last ply when
 * `keep` is set. Stops at a comment that heads a branch. Fails on an
 * unclosed comment or a NUL byte in one. */
static bool skip_space(Reader *r, bool keep) {
    while (r->i < r->len) {
        char c = r->text[r->i];
        if (c == '\n') {
            next_line(r, r->i);
            r->i++;
        } else if (is_blank(c)) {
            r->i++;
        } else if (c == '{') {
            size_t open = r->i, open_col = (size_t)column_of(r, open);
            int open_line = r->line;
            size_t j = open + 1;
            while (j < r->len && r->text[j] != '}') {
                if (r->text[j] == '\0') return fail(r, j, "a NUL byte in a comment");
                j++;
            }
            if (j >= r->len) {
                if (r->err)
                    tak_error_set_at(r->err, open_line, (int)open_col,
                                     "this comment is not closed with '}'");
                return false;
            }
            int parent;
            long long number;
            if (branch_heading(r, open, j, &parent, &number)) return true;
            for (size_t k = open + 1; k < j; k++)
                if (r->text[k] == '\n') next_line(r, k);
            if (keep && !note_add(r, r->text + open + 1, j - open - 1))
                return fail(r, open, "out of memory");
            r->i = j + 1;
            r->newlines = 0;
        } else {
            break;
        }
    }
    return true;
}

/* ---- Tags ------------------------------------------------------------------ */

static void skip_inline_blanks(Reader *r) {
    while (r->i < r->len && (r->text[r->i] == ' ' || r->text[r->i] == '\t')) r->i++;
}

/* Reads one `[Name "value"]` line at r->i (on the '['). */
static bool read_tag(Reader *r) {
    r->i++;
    skip_inline_blanks(r);
    size_t name_at = r->i;
    while (r->i < r->len && notation_tag_name_ok(r->text + r->i, 1)) r->i++;
    size_t name_len = r->i - name_at;
    char what[12];
    if (name_len == 0) {
        if (r->i >= r->len) return fail(r, r->i, "the tag ends before its name");
        return fail(r, r->i, "a tag name (letters, digits, '_') was expected, not %s",
                    notation_byte_name((unsigned char)r->text[r->i], what));
    }
    int shown = name_len > 20 ? 20 : (int)name_len;
    const char *name = r->text + name_at;
    skip_inline_blanks(r);
    if (r->i >= r->len || r->text[r->i] != '"')
        return fail(r, r->i, "the value of tag %.*s must be in double quotes", shown, name);
    r->i++;
    size_t value_at = r->i;
    int value_col = column_of(r, value_at);
    /* The value, with \" and \\ unescaped; other backslashes are kept.
     * First found and checked, then copied, so memory follows its length. */
    const char *text = r->text;
    size_t n = 0, k = value_at;
    for (;; k++, n++) {
        if (k >= r->len || text[k] == '\n' || text[k] == '\r')
            return fail(r, value_at - 1, "the value of tag %.*s is not closed with '\"'", shown,
                        name);
        if (text[k] == '"') break;
        if ((unsigned char)text[k] < 0x20 && text[k] != '\t')
            return fail(r, k, "%s in the value of tag %.*s",
                        notation_byte_name((unsigned char)text[k], what), shown, name);
        if (text[k] == '\\' && k + 1 < r->len && (text[k + 1] == '"' || text[k + 1] == '\\')) k++;
    }
    char *value = malloc(n + 1);
    if (!value) return fail(r, value_at, "out of memory");
    n = 0;
    for (size_t j = value_at; j < k; j++) {
        if (text[j] == '\\' && (text[j + 1] == '"' || text[j + 1] == '\\')) j++;
        value[n++] = text[j];
    }
    r->i = k;
    r->i++; /* the closing quote */
    skip_inline_blanks(r);
    if (r->i >= r->len || r->text[r->i] != ']') {
        free(value);
        return fail(r, r->i, "the tag %.*s is not closed with ']'", shown, name);
    }
    r->i++;
    while (r->i < r->len &&
           (r->text[r->i] == ' ' || r->text[r->i] == '\t' || r->text[r->i] == '\r'))
        r->i++;
    if (r->i < r->len && r->text[r->i] != '\n') {
        free(value);
        return fail(r, r->i, "text after the tag %.*s (one tag a line)", shown, name);
    }
    size_t t = r->ptn->tag_count;
    if ((t & (t - 1)) == 0) {
        /* sites doubles whenever the count reaches a power of two. */
        NotationSite *sites = realloc(r->sites, (t ? 2 * t : 1) * sizeof *sites);
        if (!sites) {
            free(value);
            return fail(r, name_at, "out of memory");
        }
        r->sites = sites;
    }
    bool ok = notation_ptn_append_tag(r->ptn, name, name_len, value, n);
    free(value);
    if (!ok) return fail(r, name_at, "out of memory");
    r->sites[t].line = r->line;
    r->sites[t].column = value_col;
    return true;
}

/* ---- Move text -------------------------------------------------------------- */

/* What the next token may be. */
typedef enum Expect { EXPECT_NUMBER, EXPECT_WHITE, EXPECT_BLACK } Expect;

/* A token as text for a message: at most 24 bytes, printable ones only. */
static void token_show(const char *text, size_t len, char out[32]) {
    size_t n = 0;
    for (size_t k = 0; k < len && n < 24; k++) {
        unsigned char c = (unsigned char)text[k];
        out[n++] = c >= 0x20 && c < 0x7F ? (char)c : '?';
    }
    if (len > 24) out[n++] = '.', out[n++] = '.', out[n++] = '.';
    out[n] = '\0';
}

/* The marks that end a ply token ("'", "!?", "''", ...), without the
 * flattening '*' (the writer adds it where it belongs); NULL when none or
 * out of memory (*oom). */
static char *token_marks(const char *text, size_t len, bool *oom) {
    size_t k = len;
    while (k > 0 && strchr("'\"!?*", text[k - 1])) k--;
    char kept[16];
    size_t n = 0;
    for (size_t i = k; i < len && n < sizeof kept - 1; i++)
        if (text[i] != '*') kept[n++] = text[i];
    *oom = false;
    if (n == 0) return NULL;
    kept[n] = '\0';
    char *copy = malloc(n + 1);
    *oom = copy == NULL;
    if (copy) memcpy(copy, kept, n + 1);
    return copy;
}

/* Reads, checks and plays one ply token on the line being read. */
static bool read_ply(Reader *r, size_t at, size_t len) {
    TakGame *game = r->target.game;
    const TakPosition *pos = &game->current;
    char shown[32], prefix[300];
    token_show(r->text + at, len, shown);
    int used = 0;
    if (r->line_index >= 0)
        used = snprintf(prefix, sizeof prefix, "branch %.200s, ", r->ptn->branches[r->line_index].name);
    snprintf(prefix + used, sizeof prefix - (size_t)used, "move %ld (%s) %s: ",
             tak_position_move_number(pos), tak_color_name(tak_position_side(pos)), shown);
    TakPly ply;
    if (!notation_ply_scan(r->text + at, len, tak_position_size(pos), &ply, r->err) ||
        !notation_ply_check(pos, &ply, r->err)) {
        notation_error_relocate(r->err, r->line, column_of(r, at), prefix);
        return false;
    }
    if (!note_flush(r)) return false;
    if (!notation_line_room(&r->target)) return fail(r, at, "out of memory");
    if (!tak_game_play(game, ply.move, r->err)) {
        notation_error_relocate(r->err, r->line, column_of(r, at), prefix);
        return false;
    }
    bool oom;
    (*r->target.marks)[game->count - 1] = token_marks(r->text + at, len, &oom);
    if (oom) return fail(r, at, "out of memory");
    return true;
}

/* A move number token (the caller saw digits and a '.'). Sets *end to the
 * byte after the dots (more text may follow in the same token: "1.a1"). */
static bool read_number(Reader *r, size_t at, size_t len, long expected, size_t *end) {
    size_t k = 0;
    long long n = 0;
    while (k < len && r->text[at + k] >= '0' && r->text[at + k] <= '9') {
        if (n <= 0x7FFFFFFFLL) n = n * 10 + (r->text[at + k] - '0');
        k++;
    }
    while (k < len && r->text[at + k] == '.') k++;
    if (n != expected) {
        if (n > 0x7FFFFFFFLL)
            return fail(r, at, "move number too large where %ld was expected", expected);
        if (n < expected)
            return fail(r, at, "move number %lld where %ld was expected (a branch starts after a "
                        "blank line with its name in braces: {name})", n, expected);
        return fail(r, at, "move number %lld where %ld was expected", n, expected);
    }
    *end = at + k;
    return true;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* The line being read reached its end: a move number must have its ply. */
static bool finish_line(Reader *r, Expect expect, bool closed, int number_line, int number_column) {
    if (expect == EXPECT_WHITE && !closed)
        return tak_error_set_at(r->err, number_line, number_column, "move %ld has no plies",
                                tak_position_move_number(&r->target.game->current));
    if (r->line_index >= 0 && r->target.game->count == r->line_start)
        return tak_error_set_at(r->err, number_line, number_column, "branch %.200s has no plies",
                                r->ptn->branches[r->line_index].name);
    return note_flush(r);
}

/* Starts the branch whose heading comment is at r->i (branch_heading said
 * so): reads its name and first move number, and whether White's ply there
 * is "--"; the branch replays the line it leaves up to that ply. */
static bool start_branch(Reader *r, Expect *expect, int *number_line, int *number_column) {
    size_t open = r->i, close = open + 1;
    while (r->text[close] != '}') close++;
    int parent;
    long long number;
    if (!branch_heading(r, open, close, &parent, &number)) return fail(r, open, "not a branch");
    char name[201];
    size_t len = close - open - 1;
    memcpy(name, r->text + open + 1, len);
    name[len] = '\0';
    if (notation_branch_find(r->ptn, name, len) >= 0)
        return fail(r, open, "a second branch named %s", name);
    int line = r->line, column = column_of(r, open);
    r->i = close + 1;
    while (is_blank(r->text[r->i])) {
        if (r->text[r->i] == '\n') next_line(r, r->i);
        r->i++;
    }
    *number_line = r->line;
    *number_column = column_of(r, r->i);
    size_t number_at = r->i;
    while (r->i < r->len && (is_digit(r->text[r->i]) || r->text[r->i] == '.')) r->i++;
    size_t k = r->i;
    while (k < r->len && (r->text[k] == ' ' || r->text[k] == '\t')) k++;
    bool black = k + 1 < r->len && r->text[k] == '-' && r->text[k + 1] == '-' &&
                 (k + 2 == r->len || is_blank(r->text[k + 2]) || r->text[k + 2] == '{');
    const TakGame *from = parent < 0 ? &r->ptn->game : &r->ptn->branches[parent].game;
    long long at = white_ply_at(from, number) + black;
    if (at < 0)
        return fail(r, number_at, "branch %s: its line starts with Black to move at move %lld "
                    "(write %lld. -- and Black's ply)", name, number, number);
    if (at >= (long long)from->count)
        return fail(r, number_at, "branch %s starts at move %lld (%s), after the end of the line "
                    "it leaves", name, number, tak_color_name(black));
    int index = tak_ptn_add_branch(r->ptn, name, parent, (size_t)at, r->err);
    if (index < 0) {
        char prefix[220];
        snprintf(prefix, sizeof prefix, "branch %s: ", name);
        notation_error_relocate(r->err, line, column, prefix);
        return false;
    }
    r->line_index = index;
    r->target = notation_line(r->ptn, index);
    r->line_start = (size_t)at;
    if (black) r->i = k + 2;
    *expect = black ? EXPECT_BLACK : EXPECT_WHITE;
    r->newlines = 0;
    return true;
}

/* Reads the move text: the main line up to its result token, then each
 * branch (from its heading to its own result or the next heading). */
static bool read_moves(Reader *r, const char **result) {
    Expect expect = EXPECT_NUMBER;
    int number_line = r->line, number_column = 1; /* of the last move number */
    const char *closed = NULL;                   /* the result that closed the line */
    char shown[32];
    *result = NULL;
    r->in_moves = true;
    r->newlines = 0;
    for (;;) {
        if (!skip_space(r, true)) return false;
        if (r->i >= r->len) break;
        if (r->text[r->i] == '{') { /* skip_space stops only at a branch's heading */
            if (!finish_line(r, expect, closed, number_line, number_column) ||
                !start_branch(r, &expect, &number_line, &number_column))
                return false;
            closed = NULL;
            continue;
        }
        size_t at = r->i, end = at;
        while (end < r->len && !is_blank(r->text[end]) && r->text[end] != '{') end++;
        size_t len = end - at;
        const char *token = r->text + at;
        if (closed) return fail(r, at, "text after the result %s", closed);
        r->newlines = 0;
        TakGame *game = r->target.game;
        long number = tak_position_move_number(&game->current);
        TakColor side = tak_position_side(&game->current);
        token_show(token, len, shown);

        const char *code = notation_result_scan(token, len);
        if (code && expect != EXPECT_WHITE) {
            if (r->line_index < 0) *result = code;
            snprintf(r->target.result, sizeof r->ptn->result, "%s", code);
            closed = code;
            r->i = end;
            continue;
        }
        unsigned char first = (unsigned char)token[0];
        if (first < 0x20 || first == 0x7F) {
            char what[12];
            return fail(r, at, "unexpected %s", notation_byte_name(first, what));
        }
        if (token[0] == '[') return fail(r, at, "a tag must come before the moves");
        if (token[0] == '}') return fail(r, at, "'}' without a '{' before it");
        if (len && is_digit(token[0])) {
            size_t k = 0;
            while (k < len && is_digit(token[k])) k++;
            if (k < len && token[k] == '.') {
                if (expect == EXPECT_WHITE)
                    return fail(r, at, "move %ld has no ply for %s", number, tak_color_name(side));
                if (expect == EXPECT_BLACK)
                    return fail(r, at, "move %ld has no ply for Black", number);
                if (!read_number(r, at, len, number, &r->i)) return false;
                number_line = r->line;
                number_column = column_of(r, at);
                expect = EXPECT_WHITE;
                continue;
            }
        }
        if (len == 2 && token[0] == '-' && token[1] == '-') {
            if (expect != EXPECT_WHITE || side != TAK_BLACK || game->count != r->line_start)
                return fail(r, at,
                            "'--' stands only for White's missing first ply in a game "
                            "or branch that starts with Black to move");
            expect = EXPECT_BLACK;
            r->i = end;
            continue;
        }
        if (expect == EXPECT_NUMBER) {
            return fail(r, at, "expected move number %ld., found '%s'", number, shown);
        }
        if (code) return fail(r, at, "the result %s must follow a ply, not a move number", code);
        /* With Black to move at the start, the placeholder may be left out. */
        if (!read_ply(r, at, len)) return false;
        expect = side == TAK_WHITE ? EXPECT_BLACK : EXPECT_NUMBER;
        r->i = end;
    }
    return finish_line(r, expect, closed, number_line, number_column);
}

/* ---- The whole file -------------------------------------------------------- */

/* The result: the token closing the move text (at line, column), else the
 * Result tag, reconciled with the game replayed. */
static bool read_result(Reader *r, const char *code) {
    TakPtn *ptn = r->ptn;
    const char *tag_code = NULL;
    NotationSite tag_site = {0, 0};
    for (size_t k = 0; k < ptn->tag_count; k++) {
        const char *tag = ptn->tags[k].value;
        if (!notation_name_equal(ptn->tags[k].name, "Result")) continue;
        tag_site = r->sites[k];
        if (!*tag) break; /* Result "": not known, as some tools write */
        tag_code = notation_result_scan(tag, strlen(tag));
        if (!tag_code)
            return tak_error_set_at(r->err, tag_site.line, tag_site.column,
                                    "Result \"%.20s\" is not a result (R-0, 0-R, F-0, 0-F, 1-0, "
                                    "0-1, 1/2-1/2, 0-0)",
                                    tag);
        break;
    }
    /* Where the token and the tag disagree, the token (the end of the move
     * text, written last) is taken; the board decides in the end anyway. */
    if (code) {
        notation_result_apply(&ptn->game, code);
        snprintf(ptn->result, sizeof ptn->result, "%s", code);
    } else if (tag_code) {
        notation_result_apply(&ptn->game, tag_code);
    }
    return true;
}

static bool read_all(Reader *r) {
    TakPtn *ptn = r->ptn;
    /* A byte-order mark is not part of the first line's columns. */
    if (r->len >= 3 && memcmp(r->text, "\xEF\xBB\xBF", 3) == 0) r->i = r->line_at = 3;
    for (;;) {
        if (!skip_space(r, true)) return false;
        if (r->i >= r->len || r->text[r->i] != '[') break;
        if (!read_tag(r)) return false;
    }
    TakPosition start;
    if (!notation_ptn_setup(ptn, r->sites, &ptn->rules, &start, r->err)) return false;
    if (!tak_game_init(&ptn->game, &start, r->err)) return false;
    r->line_index = -1;
    r->target = notation_line(ptn, -1);
    const char *code;
    if (!read_moves(r, &code)) return false;
    return read_result(r, code);
}

bool tak_ptn_read(const char *text, size_t len, TakPtn *out, TakError *err) {
    memset(out, 0, sizeof *out);
    tak_error_clear(err);
    Reader r = {.text = text, .len = len, .line = 1, .ptn = out, .err = err};
    if (!text && len) return tak_error_set(err, "no text");
    bool ok = read_all(&r);
    free(r.sites);
    free(r.note);
    if (!ok) tak_ptn_free(out);
    return ok;
}
