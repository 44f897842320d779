/*
 * move.c: PlayTak's moves ("P A1 C", "M A1 A3 1 2") read, turned into ours
 * and written, and the client lines a bot sends (seek, move, tell). PlayTak
 * names a spread by its first and last squares and its drops; ours by its
 * square, direction and drops, so the conversion checks the line is straight.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* "A1".."Z9": a letter and a digit, the server's own syntax; the board's
 * bounds are checked when a size is known. */
static bool read_square(const char *s, size_t at, int *file, int *rank, const char *what,
                        TakError *err) {
    char f = s[at], r = f ? s[at + 1] : '\0';
    if (f < 'A' || f > 'Z' || r < '1' || r > '9' ||
        (s[at + 2] != '\0' && s[at + 2] != ' ' && s[at + 2] != '\r'))
        return tak_error_set_at(err, 0, (int)at + 1, "%s is not a square (a capital letter and a digit)",
                                what);
    *file = f - 'A';
    *rank = r - '1';
    return true;
}

static bool line_end(const char *s, size_t at) {
    while (s[at] == ' ') at++;
    return s[at] == '\0' || (s[at] == '\r' && s[at + 1] == '\0');
}

bool tak_pt_move_read(const char *text, TakPtMove *out, TakError *err) {
    tak_error_clear(err);
    if (!text) return tak_error_set(err, "no move");
    TakPtMove m;
    memset(&m, 0, sizeof m);
    if ((text[0] != 'P' && text[0] != 'M') || text[1] != ' ')
        return tak_error_set_at(err, 0, 1, "a move starts with 'P ' (place) or 'M ' (move)");
    if (!read_square(text, 2, &m.file, &m.rank, "the square", err)) return false;
    size_t at = 4;
    if (text[0] == 'P') {
        m.is_place = true;
        m.piece = TAK_FLAT;
        if (text[at] == ' ' && (text[at + 1] == 'C' || text[at + 1] == 'W')) {
            m.piece = text[at + 1] == 'C' ? TAK_CAP : TAK_WALL;
            at += 2;
        }
        if (!line_end(text, at))
            return tak_error_set_at(err, 0, (int)at + 1,
                                    "unexpected text after the placement (only ' C' or ' W')");
        *out = m;
        return true;
    }
    if (text[at] != ' ')
        return tak_error_set_at(err, 0, (int)at + 1, "expected a space before the last square");
    if (!read_square(text, at + 1, &m.to_file, &m.to_rank, "the last square", err)) return false;
    at += 3;
    int df = m.to_file - m.file, dr = m.to_rank - m.rank;
    if ((df != 0) == (dr != 0))
        return tak_error_set_at(err, 0, 6, "the squares are not on one line, or are the same");
    int distance = df ? (df < 0 ? -df : df) : (dr < 0 ? -dr : dr);
    while (text[at] == ' ' && text[at + 1] >= '0' && text[at + 1] <= '9') {
        if (m.drop_count == TAK_MAX_SIZE)
            return tak_error_set_at(err, 0, (int)at + 2, "more drops than a board has squares");
        if (text[at + 2] != '\0' && text[at + 2] != ' ' && text[at + 2] != '\r')
            return tak_error_set_at(err, 0, (int)at + 2, "a drop is one digit");
        int d = text[at + 1] - '0';
        if (d == 0) return tak_error_set_at(err, 0, (int)at + 2, "a drop of no pieces");
        m.drops[m.drop_count++] = d;
        at += 2;
    }
    if (!line_end(text, at))
        return tak_error_set_at(err, 0, (int)at + 1, "unexpected text where a drop was expected");
    if (m.drop_count != distance)
        return tak_error_set_at(err, 0, (int)at + 1,
                                "%d drops for a move over %d squares: one drop a square",
                                m.drop_count, distance);
    *out = m;
    return true;
}

bool tak_pt_move_to_move(const TakPtMove *pt, int size, TakMove *out, TakError *err) {
    tak_error_clear(err);
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE) return tak_error_set(err, "no board of size %d", size);
    if (pt->file >= size || pt->rank >= size || pt->file < 0 || pt->rank < 0)
        return tak_error_set(err, "the square %c%d is off a %dx%d board", 'A' + pt->file,
                             pt->rank + 1, size, size);
    int square = pt->rank * size + pt->file;
    if (pt->is_place) {
        TakMoveKind kind = pt->piece == TAK_CAP ? TAK_PLACE_CAP
                           : pt->piece == TAK_WALL ? TAK_PLACE_WALL
                                                   : TAK_PLACE_FLAT;
        *out = tak_move_place(square, kind);
        return true;
    }
    if (pt->to_file >= size || pt->to_rank >= size || pt->to_file < 0 || pt->to_rank < 0)
        return tak_error_set(err, "the square %c%d is off a %dx%d board", 'A' + pt->to_file,
                             pt->to_rank + 1, size, size);
    TakDirection dir = pt->to_rank > pt->rank   ? TAK_NORTH
                       : pt->to_rank < pt->rank ? TAK_SOUTH
                       : pt->to_file > pt->file ? TAK_EAST
                                                : TAK_WEST;
    int sum = 0;
    for (int i = 0; i < pt->drop_count; i++) sum += pt->drops[i];
    if (sum > size) return tak_error_set(err, "%d pieces carried: the limit is %d", sum, size);
    unsigned code = tak_drops_encode(pt->drops, pt->drop_count);
    if (code == 0) return tak_error_set(err, "the drops do not make a move");
    *out = tak_move_spread(square, dir, code);
    return true;
}

int tak_pt_move_write(TakMove move, int size, char *buf, size_t cap) {
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE || tak_move_is_pass(move)) return -1;
    int sq = tak_move_square(move), file = sq % size, rank = sq / size;
    int n;
    if (!tak_move_is_spread(move)) {
        TakMoveKind k = tak_move_kind(move);
        n = snprintf(buf, cap, "P %c%d%s", 'A' + file, rank + 1,
                     k == TAK_PLACE_CAP ? " C" : k == TAK_PLACE_WALL ? " W" : "");
    } else {
        static const int step_file[4] = {0, 0, 1, -1}, step_rank[4] = {1, -1, 0, 0};
        int dir = (int)tak_move_direction(move), dist = tak_move_distance(move);
        int drops[8];
        int count = tak_drops_decode(tak_move_drops(move), drops);
        n = snprintf(buf, cap, "M %c%d %c%d", 'A' + file, rank + 1,
                     'A' + file + step_file[dir] * dist, rank + 1 + step_rank[dir] * dist);
        for (int i = 0; i < count && n >= 0 && (size_t)n < cap; i++)
            n += snprintf(buf + n, cap - (size_t)n, " %d", drops[i]);
    }
    if (n < 0 || (size_t)n >= cap) return -1;
    return n;
}

/* ---- client lines ------------------------------------------------------- */

bool tak_pt_standard_pieces(int size, int *pieces, int *capstones) {
    static const int stones[9] = {0, 0, 0, 10, 15, 21, 30, 40, 50};
    static const int caps[9] = {0, 0, 0, 0, 0, 1, 1, 2, 2};
    if (size < 3 || size > 8) return false;
    *pieces = stones[size];
    *capstones = caps[size];
    return true;
}

bool tak_pt_name_is_valid(const char *name) {
    if (!name) return false;
    size_t n = strlen(name);
    if (n < 4 || n > 16) return false;
    if (!((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z'))) return false;
    for (size_t i = 1; i < n; i++)
        if (!pt_name_char(name[i])) return false;
    return true;
}

int tak_pt_write_seek(const TakPtSeekRequest *r, char *buf, size_t cap, TakError *err) {
    tak_error_clear(err);
    int pieces = r->pieces, caps = r->capstones;
    if (r->size < 3 || r->size > 8)
        return tak_error_set(err, "PlayTak has no board of size %d", r->size), -1;
    if (pieces == 0 && caps == 0) tak_pt_standard_pieces(r->size, &pieces, &caps);
    /* The server silently clamps these; refuse instead, so that what is
     * played is what was asked for. */
    if (pieces < 10 || pieces > 80 || caps < 0 || caps > 5)
        return tak_error_set(err, "PlayTak takes 10-80 pieces and 0-5 capstones"), -1;
    if (r->half_komi < 0 || r->half_komi > 8)
        return tak_error_set(err, "PlayTak takes a komi of 0 to 4 flats"), -1;
    if (r->color != 'W' && r->color != 'B' && r->color != 'A')
        return tak_error_set(err, "a seek's colour is W, B or A"), -1;
    if (r->time_s < 0 || r->increment_s < 0 || r->trigger_move < 0 || r->extra_time_s < 0)
        return tak_error_set(err, "negative time"), -1;
    const char *opp = r->opponent ? r->opponent : "";
    if (opp[0] && !tak_pt_name_is_valid(opp))
        return tak_error_set(err, "'%.40s' is not a PlayTak name", opp), -1;
    int n = snprintf(buf, cap, "Seek %d %d %d %c %d %d %d %d %d %d %d %s", r->size, r->time_s,
                     r->increment_s, r->color, r->half_komi, pieces, caps, r->unrated ? 1 : 0,
                     r->tournament ? 1 : 0, r->trigger_move, r->extra_time_s, opp);
    if (n < 0 || (size_t)n >= cap) return tak_error_set(err, "no room for the seek"), -1;
    return n;
}

int tak_pt_write_move(int game, TakMove move, int size, char *buf, size_t cap) {
    int n = snprintf(buf, cap, "Game#%d ", game);
    if (n < 0 || (size_t)n >= cap) return -1;
    int m = tak_pt_move_write(move, size, buf + n, cap - (size_t)n);
    return m < 0 ? -1 : n + m;
}

int tak_pt_write_tell(const char *name, const char *text, char *buf, size_t cap) {
    if (!tak_pt_name_is_valid(name) || !text || !text[0]) return -1;
    int n = snprintf(buf, cap, "Tell %s ", name);
    if (n < 0 || (size_t)n >= cap) return -1;
    size_t at = (size_t)n;
    for (size_t i = 0; text[i] && i < 256 && at + 1 < cap; i++) {
        char ch = text[i];
        buf[at++] = (ch == '\n' || ch == '\r') ? ' ' : ch;
    }
    buf[at] = '\0';
    return (int)at;
}
