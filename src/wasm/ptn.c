/*
 * ptn.c: whole PTN games, branches and notes included, for a web page: the
 * library's reader turns PTN into a JSON document of lines of play, and its
 * writer turns such a document back into PTN. Text goes through the shared
 * buffer of api.c (tak_buffer); web/tak-engine.js's readPtn and writePtn
 * wrap these, and docs/wasm.md documents the document's shape.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tak/tak.h"

#define EXPORT(name) __attribute__((export_name(#name)))

char *tak_buffer(void);
int tak_buffer_size(void);

static int answer_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int answer_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tak_buffer(), (size_t)tak_buffer_size(), fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- PTN to JSON ---------------------------------------------------------- */

/* The answer, built in a growing string and copied into the buffer at the
 * end (the input is read from the buffer until then). */
typedef struct Out {
    char *s;
    size_t len, cap;
    bool failed;
} Out;

static void put(Out *o, const char *s, size_t n) {
    if (o->failed) return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 4096;
        while (cap < o->len + n + 1) cap *= 2;
        char *grown = realloc(o->s, cap);
        if (!grown) {
            o->failed = true;
            return;
        }
        o->s = grown;
        o->cap = cap;
    }
    memcpy(o->s + o->len, s, n);
    o->len += n;
    o->s[o->len] = '\0';
}

static void puts_(Out *o, const char *s) { put(o, s, strlen(s)); }

/* A JSON string, or null for NULL. Bytes from 0x80 pass as they are (the
 * reader keeps UTF-8 as written; the page decodes it). */
static void put_string(Out *o, const char *s) {
    if (s == NULL) return puts_(o, "null");
    puts_(o, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\', esc[1] = (char)c, esc[2] = '\0';
            puts_(o, esc);
        } else if (c < 0x20 || c == 0x7F) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            puts_(o, esc);
        } else {
            put(o, s, 1);
        }
    }
    puts_(o, "\"");
}

static void put_int(Out *o, long long n) {
    char text[24];
    snprintf(text, sizeof text, "%lld", n);
    puts_(o, text);
}

/* A line's own plies (from `start`), each with its PTN, comment and marks. */
static void put_plies(Out *o, const TakGame *game, size_t start, char **comments, char **marks) {
    TakPosition pos = game->start;
    TakUndo undo;
    puts_(o, "[");
    for (size_t i = 0; i < game->count; i++) {
        if (i >= start) {
            char move[TAK_MOVE_TEXT_MAX];
            tak_move_write(game->moves[i], tak_position_size(&pos), &pos, move);
            puts_(o, i > start ? ",{\"ptn\":" : "{\"ptn\":");
            put_string(o, move);
            puts_(o, ",\"comment\":");
            put_string(o, comments ? comments[i] : NULL);
            puts_(o, ",\"marks\":");
            put_string(o, marks ? marks[i] : NULL);
            puts_(o, "}");
        }
        tak_position_make(&pos, game->moves[i], &undo);
    }
    puts_(o, "]");
}

static void put_line(Out *o, const char *name, int parent, size_t start, const TakGame *game,
                     char **comments, char **marks, const char *preface, const char *result) {
    puts_(o, "{\"name\":");
    put_string(o, name);
    puts_(o, ",\"parent\":");
    put_int(o, parent);
    puts_(o, ",\"start\":");
    put_int(o, (long long)start);
    puts_(o, ",\"preface\":");
    put_string(o, preface);
    puts_(o, ",\"plies\":");
    put_plies(o, game, start, comments, marks);
    puts_(o, ",\"result\":");
    put_string(o, result);
    puts_(o, "}");
}

/* Copies the answer into the buffer; its length, or an error when it does
 * not fit. */
static int answer(Out *o) {
    int n = -1;
    if (o->failed)
        n = answer_error("out of memory");
    else if (o->len >= (size_t)tak_buffer_size())
        n = answer_error("the answer (%zu bytes) is longer than the buffer (%d bytes)", o->len,
                         tak_buffer_size());
    else {
        memcpy(tak_buffer(), o->s, o->len + 1);
        n = (int)o->len;
    }
    free(o->s);
    return n;
}

/* In: a PTN game. Out: JSON: "tags" ([name, value] pairs in file order),
 * "preface", the rules ("size", "komi" in flats, "stones", "capstones"),
 * "tps" (the start), and "lines": the main line first, then each branch in
 * file order, as {name, parent (-1: the main line; else an index in lines),
 * start (the ply of its parent's line it is an alternative to), preface,
 * plies [{ptn, comment, marks}], result}. A bad game gives its error with
 * line and column. */
EXPORT(tak_ptn_json) int tak_ptn_json(void) {
    TakPtn ptn;
    TakError err;
    char *text = tak_buffer();
    if (!tak_ptn_read(text, strlen(text), &ptn, &err)) {
        char where[300];
        return answer_error("%s", tak_error_describe(&err, where, sizeof where));
    }
    Out o = {NULL, 0, 0, false};
    puts_(&o, "{\"tags\":[");
    for (size_t i = 0; i < ptn.tag_count; i++) {
        puts_(&o, i ? ",[" : "[");
        put_string(&o, ptn.tags[i].name);
        puts_(&o, ",");
        put_string(&o, ptn.tags[i].value);
        puts_(&o, "]");
    }
    puts_(&o, "],\"preface\":");
    put_string(&o, ptn.preface);
    char tps[TAK_TPS_MAX], komi[16];
    tak_tps_write(&ptn.game.start, tps, sizeof tps);
    snprintf(komi, sizeof komi, "%g", ptn.rules.half_komi / 2.0); /* 2, 1.5, -0.5 */
    puts_(&o, ",\"size\":");
    put_int(&o, ptn.rules.size);
    puts_(&o, ",\"komi\":");
    puts_(&o, komi);
    puts_(&o, ",\"stones\":");
    put_int(&o, ptn.rules.stones);
    puts_(&o, ",\"capstones\":");
    put_int(&o, ptn.rules.capstones);
    puts_(&o, ",\"tps\":");
    put_string(&o, tps);
    puts_(&o, ",\"lines\":[");
    put_line(&o, "", -1, 0, &ptn.game, ptn.comments, ptn.marks, NULL, ptn.result);
    for (size_t b = 0; b < ptn.branch_count; b++) {
        const TakPtnBranch *br = &ptn.branches[b];
        puts_(&o, ",");
        /* Lines count the main line first: branch b is line b + 1. */
        put_line(&o, br->name, br->parent + 1, br->start, &br->game,
                 br->comments, br->marks, br->preface, br->result);
    }
    puts_(&o, "]}");
    tak_ptn_free(&ptn);
    return answer(&o);
}

/* ---- A document back to PTN --------------------------------------------------- */

/* Undoes the escapes of tak-engine.js's writePtn in place: \\ \t \n \r. */
static char *unescape(char *s) {
    char *w = s;
    for (char *r = s; *r; r++) {
        if (*r == '\\' && r[1]) {
            r++;
            *w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r == 'r' ? '\r' : *r;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
    return s;
}

static char *copy_text(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

/* The next record of *text (up to a newline, which is cut), or NULL at the end. */
static char *next_record(char **text) {
    while (**text == '\n') (*text)++;
    if (**text == '\0') return NULL;
    char *rec = *text, *nl = strchr(rec, '\n');
    *text = nl ? nl + 1 : rec + strlen(rec);
    if (nl) *nl = '\0';
    return rec;
}

/* Splits the record at `line` into at most `max` tab-separated fields. */
static int fields(char *line, char **out, int max) {
    int n = 0;
    for (char *p = line; n < max;) {
        out[n++] = p;
        char *tab = strchr(p, '\t');
        if (tab == NULL) break;
        *tab = '\0';
        p = tab + 1;
    }
    for (int i = 0; i < n; i++) unescape(out[i]);
    return n;
}

/* A line's result: "" or a result code PTN writes. */
static bool set_result(char *to, const char *code, int record) {
    static const char *const codes[] = {"", "R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0"};
    for (size_t k = 0; k < sizeof codes / sizeof *codes; k++)
        if (strcmp(code, codes[k]) == 0) return strcpy(to, code), true;
    return answer_error("record %d: %.20s is not a result", record, code), false;
}

/* Builds the game a document describes, record by record (one a line, fields
 * separated by tabs, \, tab and newline escaped as \\, \t and \n):
 *   T name value                    a tag (the rules come from the tags)
 *   P text                          the game's preface
 *   L name parent start result      a line (the main line first, name "",
 *                                   parent -1); parent counts lines from 0
 *   B text                          the last line's preface
 *   p move marks comment            a ply of the last line ("" for none)
 * False (with the error in the buffer) at the first bad record. */
static bool build(char *text, TakPtn *ptn) {
    memset(ptn, 0, sizeof *ptn);
    /* The tags first, read as PTN so the rules are checked as a file's are. */
    Out tags = {NULL, 0, 0, false};
    int record = 0, line = -2; /* -2: no line yet; -1: the main line; else a branch */
    char *copy = copy_text(text), *rest = copy;
    if (copy == NULL) return answer_error("out of memory"), false;
    for (char *rec; (rec = next_record(&rest)) != NULL;) {
        char *f[3];
        if (rec[0] == 'T' && rec[1] == '\t' && fields(rec + 2, f, 2) == 2) {
            puts_(&tags, "[");
            puts_(&tags, f[0]);
            puts_(&tags, " \"");
            for (const char *c = f[1]; *c; c++) {
                if (*c == '"' || *c == '\\') puts_(&tags, "\\");
                put(&tags, c, 1);
            }
            puts_(&tags, "\"]\n");
        }
    }
    free(copy);
    TakError err;
    bool ok = !tags.failed && tak_ptn_read(tags.s ? tags.s : "", tags.len, ptn, &err);
    free(tags.s);
    if (!ok) {
        char where[300];
        answer_error("the tags: %s", tags.failed ? "out of memory"
                                                 : tak_error_describe(&err, where, sizeof where));
        return false;
    }
    /* A Result tag of a game that ended off the board (resigned, out of
     * time: "1-0") ends the tags' game of no plies, so the lines' plies
     * could not be played: the game is open again; the tag stays, and the
     * lines' results say how each ended. */
    ptn->game.ended = (TakResult){TAK_END_NONE, -1};
    for (char *rec; (rec = next_record(&text)) != NULL;) {
        record++;
        char kind = rec[0], *f[5];
        if (kind == '\0' || rec[1] != '\t') return answer_error("record %d: no kind", record), false;
        int n = fields(rec + 2, f, 5);
        TakPtnBranch *branch = line >= 0 ? &ptn->branches[line] : NULL;
        switch (kind) {
        case 'T':
            break;
        case 'P':
            free(ptn->preface);
            ptn->preface = *f[0] ? copy_text(f[0]) : NULL;
            break;
        case 'L': {
            if (n != 4) return answer_error("record %d: a line has 4 fields", record), false;
            long parent = strtol(f[1], NULL, 10), start = strtol(f[2], NULL, 10);
            if (line == -2) {
                if (*f[0] || parent != -1)
                    return answer_error("record %d: the main line comes first", record), false;
                line = -1;
                if (!set_result(ptn->result, f[3], record)) return false;
                break;
            }
            /* Lines count the main line first: line k > 0 is branch k - 1. */
            if (parent < 0 || parent > (long)ptn->branch_count || start < 0)
                return answer_error("record %d: line %ld does not exist", record, parent), false;
            int index = tak_ptn_add_branch(ptn, f[0], (int)parent - 1, (size_t)start, &err);
            if (index < 0)
                return answer_error("record %d (branch %.40s): %s", record, f[0], err.message), false;
            line = index;
            if (!set_result(ptn->branches[index].result, f[3], record)) return false;
            break;
        }
        case 'B':
            if (branch == NULL) return answer_error("record %d: a preface before a branch", record), false;
            free(branch->preface);
            branch->preface = *f[0] ? copy_text(f[0]) : NULL;
            break;
        case 'p': {
            if (line == -2) return answer_error("record %d: a ply before a line", record), false;
            const TakGame *game = branch ? &branch->game : &ptn->game;
            TakMove move;
            if (!tak_move_parse(&game->current, f[0], &move, &err) ||
                !tak_ptn_play(ptn, line, move, n > 2 && *f[2] ? f[2] : NULL, n > 1 ? f[1] : NULL,
                              &err))
                return answer_error("record %d (%s%s, ply %zu, %.20s): %s", record,
                                    branch ? "branch " : "the main line",
                                    branch ? branch->name : "", game->count + 1, f[0], err.message),
                       false;
            break;
        }
        default:
            return answer_error("record %d: unknown kind '%c'", record, kind), false;
        }
    }
    return true;
}

/* In: a document as records (see build). Out: its PTN, branches included. */
EXPORT(tak_ptn_write_doc) int tak_ptn_write_doc(void) {
    TakPtn ptn;
    bool ok = build(tak_buffer(), &ptn);
    char *text = ok ? tak_ptn_write(&ptn) : NULL;
    tak_ptn_free(&ptn);
    if (!ok) return -1;
    if (text == NULL) return answer_error("out of memory");
    Out o = {text, strlen(text), strlen(text) + 1, false};
    return answer(&o);
}
