/*
 * read.c: PlayTak's server lines read into a TakPtMessage. One table maps
 * each line's opening words to a reader; each reader walks the line with a
 * cursor that knows its column (cursor.h, shared with client_read.c), so
 * every refusal says what it wanted and where, and fills the message in a
 * copy handed out only when the whole line was read. The formats are those the server writes (Client.java, Game.java,
 * Seek.java), not the README's older table where the two differ.
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */

#include <stdio.h>
#include <string.h>

#include "cursor.h"
#include "internal.h"

static bool at_end(const Cur *c) {
    size_t p = c->pos;
    while (p < c->len && c->s[p] == ' ') p++;
    return p == c->len;
}

/* One space, as the server writes between fields. */
static bool space(Cur *c, const char *before) {
    if (c->pos < c->len && c->s[c->pos] == ' ') {
        c->pos++;
        return true;
    }
    if (c->pos >= c->len) return cur_fail(c, "the line ends where %s was expected", before);
    return cur_fail(c, "expected a space before %s", before);
}

static bool number(Cur *c, long min, long max, const char *what, long *out) {
    const char *w;
    size_t n;
    size_t at = c->pos;
    if (!cur_word(c, &w, &n, what)) return false;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i] < '0' || w[i] > '9') {
            c->pos = at + i;
            return cur_fail(c, "%s is not a whole number", what);
        }
        if (v > max / 10 + 1) { /* already past max: stop before it overflows */
            c->pos = at;
            return cur_fail(c, "%s is out of range", what);
        }
        v = v * 10 + (w[i] - '0');
    }
    if (v < min || v > max) {
        c->pos = at;
        return cur_fail(c, "%s is out of range", what);
    }
    *out = v;
    return true;
}

static bool field_int(Cur *c, long min, long max, const char *what, int *out) {
    long v;
    if (!space(c, what) || !number(c, min, max, what, &v)) return false;
    *out = (int)v;
    return true;
}

static bool field_flag(Cur *c, const char *what, bool *out) {
    int v;
    if (!field_int(c, 0, 1, what, &v)) return false;
    *out = v != 0;
    return true;
}

bool pt_name_char(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

/* A player's name: letters, digits and '_', shorter than TAK_PT_NAME_MAX. */
static bool name(Cur *c, const char *what, char out[TAK_PT_NAME_MAX]) {
    const char *w;
    size_t n;
    size_t at = c->pos;
    if (!cur_word(c, &w, &n, what)) return false;
    for (size_t i = 0; i < n; i++)
        if (!pt_name_char(w[i])) {
            c->pos = at + i;
            return cur_fail(c, "%s has a character a name cannot have", what);
        }
    if (n >= TAK_PT_NAME_MAX) {
        c->pos = at;
        return cur_fail(c, "%s is too long for a name", what);
    }
    memcpy(out, w, n);
    out[n] = '\0';
    return true;
}

static bool field_name(Cur *c, const char *what, char out[TAK_PT_NAME_MAX]) {
    return space(c, what) && name(c, what, out);
}

/* "<NAME>" as chat lines write the speaker. */
static bool bracketed_name(Cur *c, const char *what, char out[TAK_PT_NAME_MAX]) {
    if (c->pos >= c->len || c->s[c->pos] != '<') return cur_fail(c, "expected '<' before %s", what);
    const char *close = memchr(c->s + c->pos, '>', c->len - c->pos);
    if (!close) return cur_fail(c, "%s has no closing '>'", what);
    size_t start = c->pos + 1, n = (size_t)(close - c->s) - start;
    if (n == 0 || n >= TAK_PT_NAME_MAX) {
        c->pos = start;
        return cur_fail(c, "%s is empty or too long", what);
    }
    for (size_t i = 0; i < n; i++)
        if (!pt_name_char(c->s[start + i])) {
            c->pos = start + i;
            return cur_fail(c, "%s has a character a name cannot have", what);
        }
    memcpy(out, c->s + start, n);
    out[n] = '\0';
    c->pos = start + n + 1;
    return true;
}

/* The rest of the line as text, cut to fit; `skip_space` eats one leading
 * space. Control bytes are made spaces so the text is safe to print. */
static void rest(Cur *c, char out[TAK_PT_TEXT_MAX]) {
    size_t n = c->len - c->pos;
    if (n >= TAK_PT_TEXT_MAX) n = TAK_PT_TEXT_MAX - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)c->s[c->pos + i];
        out[i] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
    }
    out[n] = '\0';
    c->pos = c->len;
}

static bool end(Cur *c, const char *after) {
    if (at_end(c)) return true;
    return cur_fail(c, "unexpected text after %s", after);
}

/* ---- the readers, one per kind ------------------------------------------ */

static bool read_seek(Cur *c, TakPtMessage *m) {
    TakPtSeek *k = &m->seek;
    long no;
    if (!space(c, "the seek number") || !number(c, 1, 1000000000, "the seek number", &no))
        return false;
    k->no = (int)no;
    if (!field_name(c, "the seeker's name", k->name)) return false;
    if (!field_int(c, 3, 8, "the board size", &k->size) ||
        !field_int(c, 0, 100000000, "the time", &k->time_s) ||
        !field_int(c, 0, 100000000, "the increment", &k->increment_s))
        return false;
    const char *w;
    size_t n;
    if (!space(c, "the colour")) return false;
    size_t at = c->pos;
    if (!cur_word(c, &w, &n, "the colour")) return false;
    if (n != 1 || (w[0] != 'W' && w[0] != 'B' && w[0] != 'A')) {
        c->pos = at;
        return cur_fail(c, "%s is not W, B or A", "the colour");
    }
    k->color = w[0];
    if (!field_int(c, 0, 40, "the komi", &k->half_komi) ||
        !field_int(c, 1, 200, "the pieces", &k->pieces) ||
        !field_int(c, 0, 20, "the capstones", &k->capstones) ||
        !field_flag(c, "the unrated flag", &k->unrated) ||
        !field_flag(c, "the tournament flag", &k->tournament))
        return false;
    /* The third version adds the extra time (two numbers) before the
     * opponent, who may be empty (the line then ends in a space). A name
     * starts with a letter, so a digit here is the trigger move. */
    k->trigger_move = k->extra_time_s = 0;
    k->opponent[0] = '\0';
    if (at_end(c)) return true;
    if (!space(c, "the opponent")) return false;
    if (c->pos < c->len && c->s[c->pos] >= '0' && c->s[c->pos] <= '9') {
        long v;
        if (!number(c, 0, 100000, "the extra time's move", &v)) return false;
        k->trigger_move = (int)v;
        if (!field_int(c, 0, 100000000, "the extra time", &k->extra_time_s)) return false;
        if (at_end(c)) return true;
        if (!space(c, "the opponent")) return false;
    }
    if (at_end(c)) return true;
    return name(c, "the opponent", k->opponent) && end(c, "the opponent");
}

static bool read_listed(Cur *c, TakPtMessage *m) {
    TakPtListed *g = &m->listed;
    long no;
    if (!space(c, "the game number") || !number(c, 1, 1000000000, "the game number", &no))
        return false;
    g->no = (int)no;
    if (!field_name(c, "White's name", g->white) || !field_name(c, "Black's name", g->black) ||
        !field_int(c, 3, 8, "the board size", &g->size) ||
        !field_int(c, 0, 100000000, "the time", &g->time_s) ||
        !field_int(c, 0, 100000000, "the increment", &g->increment_s) ||
        !field_int(c, 0, 40, "the komi", &g->half_komi) ||
        !field_int(c, 1, 200, "the pieces", &g->pieces) ||
        !field_int(c, 0, 20, "the capstones", &g->capstones) ||
        !field_flag(c, "the unrated flag", &g->unrated) ||
        !field_flag(c, "the tournament flag", &g->tournament))
        return false;
    g->trigger_move = g->extra_time_s = 0;
    if (!at_end(c) && (!field_int(c, 0, 100000, "the extra time's move", &g->trigger_move) ||
                       !field_int(c, 0, 100000000, "the extra time", &g->extra_time_s)))
        return false;
    return end(c, "the game");
}

static bool read_start(Cur *c, TakPtMessage *m) {
    TakPtStart *g = &m->start;
    long no;
    if (!space(c, "the game number") || !number(c, 1, 1000000000, "the game number", &no))
        return false;
    g->no = (int)no;
    if (!field_int(c, 3, 8, "the board size", &g->size) ||
        !field_name(c, "White's name", g->white) || !space(c, "'vs'"))
        return false;
    if (c->len - c->pos < 2 || memcmp(c->s + c->pos, "vs", 2) != 0)
        return cur_fail(c, "expected %s", "'vs'");
    c->pos += 2;
    if (!field_name(c, "Black's name", g->black) || !space(c, "the colour")) return false;
    const char *w;
    size_t n, at = c->pos;
    if (!cur_word(c, &w, &n, "the colour")) return false;
    if (n == 5 && memcmp(w, "white", 5) == 0)
        g->color = TAK_WHITE;
    else if (n == 5 && memcmp(w, "black", 5) == 0)
        g->color = TAK_BLACK;
    else {
        c->pos = at;
        return cur_fail(c, "%s is not 'white' or 'black'", "the colour");
    }
    if (!field_int(c, 0, 100000000, "the time", &g->time_s) ||
        !field_int(c, 0, 40, "the komi", &g->half_komi) ||
        !field_int(c, 1, 200, "the pieces", &g->pieces) ||
        !field_int(c, 0, 20, "the capstones", &g->capstones))
        return false;
    g->trigger_move = g->extra_time_s = 0;
    if (!at_end(c) && (!field_int(c, 0, 100000, "the extra time's move", &g->trigger_move) ||
                       !field_int(c, 0, 100000000, "the extra time", &g->extra_time_s)))
        return false;
    return end(c, "the game");
}

static bool read_time(Cur *c, TakPtMessage *m, int64_t scale) {
    long w, b;
    if (!space(c, "White's time") || !number(c, 0, 2000000000, "White's time", &w) ||
        !space(c, "Black's time") || !number(c, 0, 2000000000, "Black's time", &b))
        return false;
    m->time_ms[TAK_WHITE] = (int64_t)w * scale;
    m->time_ms[TAK_BLACK] = (int64_t)b * scale;
    return end(c, "the clocks");
}

static bool read_over(Cur *c, TakPtMessage *m) {
    static const char *const results[] = {"R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0"};
    const char *w;
    size_t n, at;
    if (!space(c, "the result")) return false;
    at = c->pos;
    if (!cur_word(c, &w, &n, "the result")) return false;
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (strlen(results[i]) == n && memcmp(results[i], w, n) == 0) {
            memcpy(m->result, w, n);
            m->result[n] = '\0';
            return end(c, "the result");
        }
    c->pos = at;
    return cur_fail(c, "%s is not one of R-0 0-R F-0 0-F 1-0 0-1 1/2-1/2 0-0", "the result");
}

/* "Game#N ..." */
static bool read_game(Cur *c, TakPtMessage *m) {
    long no;
    if (!number(c, 1, 1000000000, "the game number", &no)) return false;
    m->game = (int)no;
    if (!space(c, "what happens in the game")) return false;
    const char *w;
    size_t n, at = c->pos;
    if (!cur_word(c, &w, &n, "what happens in the game")) return false;
#define IS(lit) (n == sizeof lit - 1 && memcmp(w, lit, n) == 0)
    if (IS("P") || IS("M")) {
        TakError inner;
        if (!tak_pt_move_read(c->s + at, &m->move, &inner)) {
            c->pos = at + (inner.column > 0 ? (size_t)inner.column - 1 : 0);
            return tak_error_set_at(c->err, 0, (int)c->pos + 1, "bad move: %s", inner.message);
        }
        m->kind = TAK_PT_GAME_MOVE;
        c->pos = c->len;
        return true;
    }
    if (IS("Time")) return m->kind = TAK_PT_GAME_TIME, read_time(c, m, 1000);
    if (IS("Timems")) return m->kind = TAK_PT_GAME_TIME, read_time(c, m, 1);
    if (IS("Over")) return m->kind = TAK_PT_GAME_OVER, read_over(c, m);
    if (IS("Abandoned.")) {
        m->kind = TAK_PT_GAME_ABANDONED;
        if (!field_name(c, "the player who quit", m->name)) return false;
        if (!space(c, "'quit'")) return false;
        if (c->len - c->pos < 4 || memcmp(c->s + c->pos, "quit", 4) != 0)
            return cur_fail(c, "expected %s", "'quit'");
        c->pos += 4;
        return end(c, "'quit'");
    }
    if (IS("Show")) {
        m->kind = TAK_PT_GAME_SHOW;
        if (c->pos < c->len) c->pos++;
        rest(c, m->text);
        return true;
    }
    static const struct {
        const char *word;
        TakPtKind kind;
    } bare[] = {
        {"OfferDraw", TAK_PT_GAME_OFFER_DRAW},     {"RemoveDraw", TAK_PT_GAME_REMOVE_DRAW},
        {"RequestUndo", TAK_PT_GAME_REQUEST_UNDO}, {"RemoveUndo", TAK_PT_GAME_REMOVE_UNDO},
        {"Undo", TAK_PT_GAME_UNDO},
    };
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++)
        if (strlen(bare[i].word) == n && memcmp(bare[i].word, w, n) == 0) {
            m->kind = bare[i].kind;
            return end(c, bare[i].word);
        }
#undef IS
    c->pos = at;
    return cur_fail(c, "%s: unknown game message", "Game#");
}

static bool read_chat(Cur *c, TakPtMessage *m) {
    if (!space(c, "the speaker") || !bracketed_name(c, "the speaker", m->name)) return false;
    if (c->pos < c->len && c->s[c->pos] == ' ') c->pos++;
    rest(c, m->text);
    return true;
}

static bool read_room(Cur *c, TakPtMessage *m) {
    const char *w;
    size_t n;
    if (!space(c, "the room") || !cur_word(c, &w, &n, "the room")) return false;
    if (n >= sizeof m->room) return cur_fail(c, "%s is too long", "the room");
    memcpy(m->room, w, n);
    m->room[n] = '\0';
    return true;
}

/* ---- the table ---------------------------------------------------------- */

typedef struct Reader {
    const char *prefix; /* the line's opening words, up to the first field */
    TakPtKind kind;
    bool whole;         /* the prefix is the whole line */
} Reader;

/* Longer prefixes before the shorter ones they begin with. */
static const Reader readers[] = {
    {"Welcome!", TAK_PT_WELCOME, true},
    {"Login or Register", TAK_PT_LOGIN_PROMPT, true},
    {"Authentication failure", TAK_PT_AUTH_FAILURE, true},
    {"Is Mod", TAK_PT_IS_MOD, true},
    {"OK", TAK_PT_OK, true},
    {"NOK", TAK_PT_NOK, true},
    {"Welcome ", TAK_PT_LOGGED_IN, false},
    {"Error:", TAK_PT_ERROR, false},
    {"Error ", TAK_PT_ERROR, false},
    {"Message ", TAK_PT_MESSAGE, false},
    {"Online ", TAK_PT_ONLINE, false},
    {"Seek new", TAK_PT_SEEK_NEW, false},
    {"Seek remove", TAK_PT_SEEK_REMOVE, false},
    {"GameList Add", TAK_PT_GAMELIST_ADD, false},
    {"GameList Remove", TAK_PT_GAMELIST_REMOVE, false},
    {"Observe", TAK_PT_OBSERVE, false},
    {"Game Start", TAK_PT_GAME_START, false},
    {"Game#", TAK_PT_GAME_MOVE, false}, /* the kind is set by what follows */
    {"ShoutRoom", TAK_PT_SHOUT_ROOM, false},
    {"Shout", TAK_PT_SHOUT, false},
    {"Tell", TAK_PT_TELL, false},
    {"Told", TAK_PT_TOLD, false},
    {"Joined room", TAK_PT_JOINED_ROOM, false},
    {"Left room", TAK_PT_LEFT_ROOM, false},
    /* The account's replies: said in words, kept as text. */
    {"Registered ", TAK_PT_NOTICE, false},
    {"Registration Error", TAK_PT_NOTICE, false},
    {"Reset token sent", TAK_PT_NOTICE, false},
    {"Reset Token Error", TAK_PT_NOTICE, false},
    {"Password is changed", TAK_PT_NOTICE, false},
    {"Password changed", TAK_PT_NOTICE, false},
    {"Wrong password", TAK_PT_NOTICE, false},
    {"Wrong token", TAK_PT_NOTICE, false},
    {"No such player", TAK_PT_NOTICE, false},
};

static bool read_body(Cur *c, const Reader *r, TakPtMessage *m) {
    switch (r->kind) {
    case TAK_PT_LOGGED_IN: {
        /* "Welcome NAME!" */
        if (c->len == 0 || c->s[c->len - 1] != '!') {
            c->pos = c->len;
            return cur_fail(c, "%s does not end with '!'", "the welcome");
        }
        c->len--;
        return name(c, "the name", m->name) && end(c, "the name");
    }
    case TAK_PT_ERROR:
    case TAK_PT_MESSAGE:
        rest(c, m->text);
        return true;
    case TAK_PT_NOTICE:
        c->pos = 0;
        rest(c, m->text);
        return true;
    case TAK_PT_ONLINE: {
        long n;
        if (!number(c, 0, 100000000, "the count", &n)) return false;
        m->count = (int)n;
        return end(c, "the count");
    }
    case TAK_PT_SEEK_NEW:
    case TAK_PT_SEEK_REMOVE:
        return read_seek(c, m);
    case TAK_PT_GAMELIST_ADD:
    case TAK_PT_GAMELIST_REMOVE:
    case TAK_PT_OBSERVE:
        return read_listed(c, m);
    case TAK_PT_GAME_START:
        return read_start(c, m);
    case TAK_PT_GAME_MOVE:
        return read_game(c, m);
    case TAK_PT_SHOUT:
    case TAK_PT_TELL:
    case TAK_PT_TOLD:
        return read_chat(c, m);
    case TAK_PT_SHOUT_ROOM:
        return read_room(c, m) && read_chat(c, m);
    case TAK_PT_JOINED_ROOM:
    case TAK_PT_LEFT_ROOM:
        return read_room(c, m) && end(c, "the room");
    default:
        return true;
    }
}

bool tak_pt_read(const char *line, TakPtMessage *out, TakError *err) {
    tak_error_clear(err);
    if (!line) return tak_error_set(err, "no line");
    size_t len = strnlen(line, TAK_PT_LINE_MAX + 1);
    if (len > TAK_PT_LINE_MAX)
        return tak_error_set_at(err, 0, TAK_PT_LINE_MAX + 1, "the line is longer than %d bytes",
                                TAK_PT_LINE_MAX);
    if (len > 0 && line[len - 1] == '\r') len--;
    if (len == 0) return tak_error_set_at(err, 0, 1, "an empty line");

    static const TakPtMessage blank;
    TakPtMessage m = blank;
    Cur c = {line, 0, len, err};
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
        const Reader *r = &readers[i];
        size_t n = strlen(r->prefix);
        if (len < n || memcmp(line, r->prefix, n) != 0) continue;
        if (r->whole && len != n) continue;
        m.kind = r->kind;
        c.pos = n;
        if (!read_body(&c, r, &m)) return false;
        *out = m;
        return true;
    }
    /* The excerpt goes to logs and terminals: a hostile server's escape
     * sequences must not, so any byte outside printable ASCII reads '?'. */
    char shown[41];
    size_t n = len < sizeof shown - 1 ? len : sizeof shown - 1;
    for (size_t i = 0; i < n; i++)
        shown[i] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
    shown[n] = '\0';
    return tak_error_set_at(err, 0, 1, "unknown message '%s'", shown);
}

const char *tak_pt_kind_name(TakPtKind kind) {
    static const char *const names[TAK_PT_KIND_COUNT] = {
        [TAK_PT_WELCOME] = "Welcome!",
        [TAK_PT_LOGIN_PROMPT] = "Login or Register",
        [TAK_PT_LOGGED_IN] = "Welcome NAME!",
        [TAK_PT_AUTH_FAILURE] = "Authentication failure",
        [TAK_PT_IS_MOD] = "Is Mod",
        [TAK_PT_OK] = "OK",
        [TAK_PT_NOK] = "NOK",
        [TAK_PT_ERROR] = "Error",
        [TAK_PT_MESSAGE] = "Message",
        [TAK_PT_ONLINE] = "Online",
        [TAK_PT_SEEK_NEW] = "Seek new",
        [TAK_PT_SEEK_REMOVE] = "Seek remove",
        [TAK_PT_GAMELIST_ADD] = "GameList Add",
        [TAK_PT_GAMELIST_REMOVE] = "GameList Remove",
        [TAK_PT_OBSERVE] = "Observe",
        [TAK_PT_GAME_START] = "Game Start",
        [TAK_PT_GAME_MOVE] = "Game# move",
        [TAK_PT_GAME_TIME] = "Game# Time",
        [TAK_PT_GAME_OVER] = "Game# Over",
        [TAK_PT_GAME_ABANDONED] = "Game# Abandoned",
        [TAK_PT_GAME_OFFER_DRAW] = "Game# OfferDraw",
        [TAK_PT_GAME_REMOVE_DRAW] = "Game# RemoveDraw",
        [TAK_PT_GAME_REQUEST_UNDO] = "Game# RequestUndo",
        [TAK_PT_GAME_REMOVE_UNDO] = "Game# RemoveUndo",
        [TAK_PT_GAME_UNDO] = "Game# Undo",
        [TAK_PT_GAME_SHOW] = "Game# Show",
        [TAK_PT_SHOUT] = "Shout",
        [TAK_PT_SHOUT_ROOM] = "ShoutRoom",
        [TAK_PT_TELL] = "Tell",
        [TAK_PT_TOLD] = "Told",
        [TAK_PT_JOINED_ROOM] = "Joined room",
        [TAK_PT_LEFT_ROOM] = "Left room",
        [TAK_PT_NOTICE] = "notice",
    };
    if ((unsigned)kind >= TAK_PT_KIND_COUNT) return "?";
    return names[kind];
}
