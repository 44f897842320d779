/*
 * client_read.c: PlayTak's client lines (what a client sends a server: Login,
 * Seek in its three versions, Accept, Game#N's moves and requests, Shout,
 * Tell, the rooms' lines, Observe, PING, quit) read into a TakPtCommand, for a server such as ours. One
 * table maps each line's first word to a reader; each reader walks the line
 * with a cursor that knows its column (cursor.h, shared with read.c), so
 * every refusal says what and where.
 * The limits are those our server's port has always applied (playtak_lines.c).
 */
#include <stdio.h>
#include <string.h>

#include "cursor.h"
#include "internal.h"

#define GAME_NO_MAX (1L << 30) /* the largest game or seek number read */
#define SEEK_TIME_MAX 10800    /* seconds on a seek's clock, and of its extra time */
#define SEEK_INCR_MAX 300      /* seconds of increment */
#define SEEK_TRIGGER_MAX 1000  /* the move at which extra time is added */
#define GUEST_TOKEN_LEN 20     /* a guest's rejoin token: this many small letters */

/* Takes the word w if it comes next, followed by a space (taken) or the end. */
static bool take_word(Cur *c, const char *w) {
    size_t n = strlen(w);
    if (cur_left(c) < n || memcmp(c->s + c->pos, w, n) != 0) return false;
    char after = c->pos + n < c->len ? c->s[c->pos + n] : '\0';
    if (after != ' ' && after != '\0') return false;
    c->pos += n + (after == ' ');
    return true;
}

/* A number from 0 to max (digits only), then a space (taken) or the end. */
static bool number(Cur *c, long max, const char *what, long *out) {
    size_t at = c->pos;
    long v = 0;
    if (cur_peek(c) < '0' || cur_peek(c) > '9')
        return cur_fail_at(c, at, "%s is not a whole number", what);
    while (cur_peek(c) >= '0' && cur_peek(c) <= '9') {
        v = v * 10 + (cur_peek(c) - '0');
        c->pos++;
        if (v > max) return cur_fail_at(c, at, "%s is out of range", what);
    }
    if (cur_peek(c) != ' ' && cur_peek(c) != '\0')
        return cur_fail(c, "%s is not a whole number", what);
    if (cur_peek(c) == ' ') c->pos++;
    *out = v;
    return true;
}

/* The next word (up to a space or the end), 1 to cap - 1 bytes, into out. */
static bool word_into(Cur *c, char *out, size_t cap, const char *what) {
    const char *w;
    size_t n, at = c->pos;
    if (!cur_word(c, &w, &n, what)) return false;
    if (n >= cap) return cur_fail_at(c, at, "%s is too long", what);
    memcpy(out, w, n);
    out[n] = '\0';
    return true;
}

/* The rest of the line, at least one byte, cut to cap - 1 (as the server cuts chat). */
static bool text_into(Cur *c, char *out, size_t cap, const char *what) {
    if (cur_left(c) == 0) return cur_fail(c, "missing %s", what);
    size_t n = cur_left(c) < cap - 1 ? cur_left(c) : cap - 1;
    memcpy(out, c->s + c->pos, n);
    out[n] = '\0';
    c->pos = c->len;
    return true;
}

static bool at_end(Cur *c, const char *after) {
    if (c->pos == c->len) return true;
    return cur_fail(c, "unexpected text after %s", after);
}

/* ---- the readers, one per first word ------------------------------------- */

/* A line of one word, exactly ("PING ", with its space, is not PING). */
static bool read_plain(Cur *c, TakPtCommand *m) {
    if (c->len > 0 && c->s[c->len - 1] == ' ')
        return cur_fail_at(c, c->len - 1, "unexpected text after %s", tak_pt_command_name(m->kind));
    return at_end(c, tak_pt_command_name(m->kind));
}

static bool read_text(Cur *c, TakPtCommand *m) {
    return text_into(c, m->text, sizeof m->text, "the text");
}

/* "Login Guest [TOKEN]" or "Login NAME SECRET". */
static bool read_login(Cur *c, TakPtCommand *m) {
    if (cur_left(c) >= 5 &&
        memcmp(c->s + c->pos, "Guest", 5) == 0) { /* "Guest..." names are guests' */
        if (!take_word(c, "Guest"))
            return cur_fail(c, "%s", "a guest logs in as 'Login Guest [TOKEN]'");
        m->kind = TAK_PT_CMD_LOGIN_GUEST;
        size_t at = c->pos, n = cur_left(c);
        if (n != 0 && n != GUEST_TOKEN_LEN)
            return cur_fail_at(c, at, "%s", "a guest's token is 20 small letters");
        for (size_t i = 0; i < n; i++)
            if (c->s[at + i] < 'a' || c->s[at + i] > 'z')
                return cur_fail_at(c, at + i, "%s", "a guest's token is 20 small letters");
        memcpy(m->secret, c->s + at, n);
        m->secret[n] = '\0';
        c->pos = c->len;
        return true;
    }
    if (!word_into(c, m->name, sizeof m->name, "the name")) return false;
    if (cur_peek(c) != ' ') return cur_fail(c, "%s", "missing the password after the name");
    c->pos++;
    if (cur_left(c) >= sizeof m->secret) return cur_fail(c, "%s", "the password is too long");
    return text_into(c, m->secret, sizeof m->secret, "the password");
}

/* "Seek SIZE TIME INCR [W|B]" (1), "... COLOR KOMI PIECES CAPS UNRATED
 * TOURNAMENT OPPONENT" (2), "... TRIGGER AMOUNT OPPONENT" (3). */
static bool read_seek(Cur *c, TakPtCommand *m) {
    TakPtSeek *k = &m->seek;
    long size = 0, time = 0, incr = 0, komi = 0, pieces = 0, caps = 0, unrated = 0, tour = 0;
    long trig = 0, amt = 0;
    if (!number(c, TAK_MAX_SIZE, "the size", &size) ||
        !number(c, SEEK_TIME_MAX, "the time", &time) ||
        !number(c, SEEK_INCR_MAX, "the increment", &incr))
        return false;
    k->size = (int)size;
    k->time_s = (int)time;
    k->increment_s = (int)incr;
    k->color = 'A';
    m->seek_version = 1;
    if (cur_left(c) == 0) return true;
    char color = cur_peek(c);
    if (cur_left(c) == 1 && (color == 'W' || color == 'B')) {
        k->color = color;
        c->pos++;
        return true;
    }
    if ((color != 'W' && color != 'B' && color != 'A') ||
        (c->pos + 1 < c->len && c->s[c->pos + 1] != ' '))
        return cur_fail(c, "%s", "the colour is W, B or A");
    if (cur_left(c) == 1)
        return cur_fail(c, "%s", "a seek with A for its colour needs the komi and the rest");
    k->color = color;
    c->pos += 2;
    if (!number(c, TAK_MAX_HALF_KOMI, "the komi", &komi) ||
        !number(c, TAK_MAX_RESERVE, "the pieces", &pieces) ||
        !number(c, TAK_MAX_RESERVE, "the capstones", &caps) ||
        !number(c, 1, "unrated (0 or 1)", &unrated) || !number(c, 1, "tournament (0 or 1)", &tour))
        return false;
    m->seek_version = 2;
    Cur v3 = *c; /* the third version if two more numbers follow; else they are the opponent */
    v3.err = NULL;
    if (number(&v3, SEEK_TRIGGER_MAX, "", &trig) && number(&v3, SEEK_TIME_MAX, "", &amt)) {
        c->pos = v3.pos;
        m->seek_version = 3;
    } else {
        trig = amt = 0;
    }
    size_t at = c->pos, n = cur_left(c);
    if (n >= sizeof k->opponent) return cur_fail_at(c, at, "%s", "the opponent's name is too long");
    for (size_t i = 0; i < n; i++)
        if (!pt_name_char(c->s[at + i]))
            return cur_fail_at(c, at + i, "%s",
                               "the opponent's name holds a letter, digit or '_' only");
    memcpy(k->opponent, c->s + at, n);
    k->opponent[n] = '\0';
    c->pos = c->len;
    k->half_komi = (int)komi;
    k->pieces = (int)pieces;
    k->capstones = (int)caps;
    k->unrated = unrated;
    k->tournament = tour;
    k->trigger_move = (int)trig;
    k->extra_time_s = (int)amt;
    return true;
}

static bool read_accept(Cur *c, TakPtCommand *m) {
    long no = 0;
    if (!number(c, GAME_NO_MAX, "the seek's number", &no)) return false;
    m->game = (int)no;
    return at_end(c, "the seek's number");
}

/* "Observe NO", "Unobserve NO". */
static bool read_observe(Cur *c, TakPtCommand *m) {
    long no = 0;
    if (!number(c, GAME_NO_MAX, "the game's number", &no)) return false;
    m->game = (int)no;
    return at_end(c, "the game's number");
}

/* "JoinRoom ROOM", "LeaveRoom ROOM": one word. */
static bool read_room(Cur *c, TakPtCommand *m) {
    if (!word_into(c, m->room, sizeof m->room, "the room")) return false;
    return at_end(c, "the room");
}

/* "ShoutRoom ROOM TEXT". */
static bool read_shout_room(Cur *c, TakPtCommand *m) {
    if (!word_into(c, m->room, sizeof m->room, "the room")) return false;
    if (cur_peek(c) != ' ') return cur_fail(c, "%s", "missing the text after the room");
    c->pos++;
    return text_into(c, m->text, sizeof m->text, "the text");
}

/* "Game#NO P ...", "Game#NO M ...", "Game#NO Resign" and the offers. */
static bool read_game(Cur *c, TakPtCommand *m) {
    static const struct {
        const char *word;
        TakPtCommandKind kind;
    } requests[] = {
        {"Resign", TAK_PT_CMD_RESIGN},          {"OfferDraw", TAK_PT_CMD_OFFER_DRAW},
        {"RemoveDraw", TAK_PT_CMD_REMOVE_DRAW}, {"RequestUndo", TAK_PT_CMD_REQUEST_UNDO},
        {"RemoveUndo", TAK_PT_CMD_REMOVE_UNDO},
    };
    long no = 0;
    if (!number(c, GAME_NO_MAX, "the game's number", &no)) return false;
    if (c->pos > 0 && c->s[c->pos - 1] != ' ')
        return cur_fail(c, "%s", "the line ends after the game's number");
    m->game = (int)no;
    if ((cur_peek(c) == 'P' || cur_peek(c) == 'M') && c->pos + 1 < c->len &&
        c->s[c->pos + 1] == ' ') {
        char text[TAK_PT_LINE_MAX + 1];
        size_t at = c->pos;
        memcpy(text, c->s + at, cur_left(c));
        text[cur_left(c)] = '\0';
        if (!tak_pt_move_read(text, &m->move, c->err)) {
            if (c->err) c->err->column += (int)at; /* the move's column, in the line */
            return false;
        }
        m->kind = TAK_PT_CMD_MOVE;
        c->pos = c->len;
        return true;
    }
    for (size_t i = 0; i < sizeof requests / sizeof *requests; i++)
        if (cur_left(c) == strlen(requests[i].word) &&
            memcmp(c->s + c->pos, requests[i].word, cur_left(c)) == 0) {
            m->kind = requests[i].kind;
            c->pos = c->len;
            return true;
        }
    return cur_fail_at(
        c, c->pos, "%s",
        "a game's line is P, M, Resign, OfferDraw, RemoveDraw, RequestUndo or RemoveUndo");
}

static bool read_tell(Cur *c, TakPtCommand *m) {
    if (!word_into(c, m->name, sizeof m->name, "the name")) return false;
    if (cur_peek(c) != ' ') return cur_fail(c, "%s", "missing the text after the name");
    c->pos++;
    return text_into(c, m->text, sizeof m->text, "the text");
}

/* Each line's first word ("Game#" runs into its number), its kind, its reader. */
static const struct {
    const char *word;
    TakPtCommandKind kind;
    bool (*read)(Cur *c, TakPtCommand *m);
} commands[] = {
    {"Client", TAK_PT_CMD_CLIENT, read_text},   {"Protocol", TAK_PT_CMD_PROTOCOL, read_text},
    {"Login", TAK_PT_CMD_LOGIN, read_login},    {"Seek", TAK_PT_CMD_SEEK, read_seek},
    {"Accept", TAK_PT_CMD_ACCEPT, read_accept}, {"Game#", TAK_PT_CMD_MOVE, read_game},
    {"List", TAK_PT_CMD_LIST, read_plain},      {"GameList", TAK_PT_CMD_GAME_LIST, read_plain},
    {"Shout", TAK_PT_CMD_SHOUT, read_text},     {"Tell", TAK_PT_CMD_TELL, read_tell},
    {"PING", TAK_PT_CMD_PING, read_plain},      {"quit", TAK_PT_CMD_QUIT, read_plain},
    {"JoinRoom", TAK_PT_CMD_JOIN_ROOM, read_room},
    {"LeaveRoom", TAK_PT_CMD_LEAVE_ROOM, read_room},
    {"ShoutRoom", TAK_PT_CMD_SHOUT_ROOM, read_shout_room},
    {"Observe", TAK_PT_CMD_OBSERVE, read_observe},
    {"Unobserve", TAK_PT_CMD_UNOBSERVE, read_observe},
};

const char *tak_pt_command_name(TakPtCommandKind kind) {
    static const char *const names[TAK_PT_CMD_KIND_COUNT] = {
        "Client",     "Protocol", "Login Guest", "Login",      "Seek",        "Accept",
        "Game#N P/M", "Resign",   "OfferDraw",   "RemoveDraw", "RequestUndo", "RemoveUndo",
        "List",       "GameList", "Shout",       "Tell",       "PING",        "quit",
        "JoinRoom",   "LeaveRoom", "ShoutRoom",  "Observe",    "Unobserve",
    };
    return kind >= 0 && kind < TAK_PT_CMD_KIND_COUNT ? names[kind] : "?";
}

bool tak_pt_client_read(const char *line, size_t len, TakPtCommand *out, TakError *err) {
    if (len > TAK_PT_LINE_MAX)
        return tak_error_set_at(err, 0, TAK_PT_LINE_MAX + 1, "the line is longer than %d bytes",
                                TAK_PT_LINE_MAX);
    if (len > 0 && line[len - 1] == '\r') len--;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)line[i] < ' ' || line[i] == 0x7f)
            return tak_error_set_at(err, 0, (int)i + 1, "a control byte (0x%02x) in the line",
                                    (unsigned char)line[i]);
    Cur c = {line, 0, len, err};
    TakPtCommand m;
    memset(&m, 0, sizeof m);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        size_t n = strlen(commands[i].word);
        bool glued = commands[i].word[n - 1] == '#'; /* "Game#12": no space after the word */
        if (glued ? (len < n || memcmp(line, commands[i].word, n) != 0)
                  : !take_word(&c, commands[i].word))
            continue;
        if (glued) c.pos = n;
        m.kind = commands[i].kind;
        if (!commands[i].read(&c, &m)) return false;
        *out = m;
        return true;
    }
    size_t n = 0;
    while (n < len && n < 32 && line[n] != ' ') n++;
    return tak_error_set_at(err, 0, 1, "unknown command '%.*s'", (int)n, line);
}
