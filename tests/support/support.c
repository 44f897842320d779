/*
 * support.c: helpers shared by the test programs (files, positions from TPS,
 * moves from PTN text). Moves are decoded here rather than by the notation
 * module so that the rules tests depend on the core alone for moves; the
 * positions come from tak_tps_read, whose own tests are test_tps.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

const char *support_shared_path(const char *relative, char *buf, size_t cap) {
    const char *root = getenv("TAK_SHARED");
    if (root == NULL || *root == '\0') root = "../shared";
    snprintf(buf, cap, "%s/%s", root, relative);
    return buf;
}

char *support_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t cap = 4096, n = 0;
    char *data = malloc(cap);
    for (;;) {
        if (data == NULL) break;
        n += fread(data + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        cap *= 2;
        char *bigger = realloc(data, cap);
        if (bigger == NULL) free(data);
        data = bigger;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (data == NULL || failed) {
        free(data);
        return NULL;
    }
    data[n] = '\0';
    if (len != NULL) *len = n;
    return data;
}

TakRules support_rules(int size) {
    TakRules rules;
    TakError err;
    if (!tak_rules_standard(&rules, size, &err))
        fail_msg("tak_rules_standard(%d) refused: %s", size, err.message);
    return rules;
}

TakPosition support_position(const char *tps, const TakRules *rules) {
    TakPosition pos;
    TakError err;
    tak_error_clear(&err);
    if (!tak_tps_read(tps, rules, &pos, &err)) {
        char where[TAK_ERROR_MESSAGE_MAX + 40];
        fail_msg("tak_tps_read refused \"%s\": %s", tps,
                 tak_error_describe(&err, where, sizeof where));
    }
    return pos;
}

const char *support_tps(const TakPosition *pos, char *buf) {
    if (tak_tps_write(pos, buf, TAK_TPS_MAX) < 0) fail_msg("tak_tps_write failed");
    return buf;
}

/* Reads "c4" at *p for a board of `size`; -1 when it is not a square of it. */
static int read_square(const char **p, int size) {
    const char *s = *p;
    if (s[0] < 'a' || s[0] >= 'a' + size || s[1] < '1' || s[1] >= '1' + size) return -1;
    *p += 2;
    return (s[1] - '1') * size + (s[0] - 'a');
}

/* The drop code of drops[0..n-1] (see move.h): bit i set when piece i+1 of
 * the carried ones, counted from the bottom, is the last on its square. */
static unsigned drop_code(const int *drops, int n) {
    unsigned code = 0;
    int sum = 0;
    for (int i = 0; i < n; i++) {
        sum += drops[i];
        code |= 1u << (sum - 1);
    }
    return code;
}

/* Decodes text; returns false (with *is_pass) for a pass "1c3". */
static bool decode(const char *text, int size, TakMove *move, bool *is_pass, int *pass_square) {
    const char *p = text;
    *is_pass = false;
    if (*p == 'F' || *p == 'S' || *p == 'C') {
        TakMoveKind kind = *p == 'F' ? TAK_PLACE_FLAT : *p == 'S' ? TAK_PLACE_WALL : TAK_PLACE_CAP;
        p++;
        int sq = read_square(&p, size);
        if (sq < 0 || *p != '\0') fail_msg("support_move_code: cannot read \"%s\"", text);
        *move = tak_move_place(sq, kind);
        return true;
    }
    int count = 0;
    if (isdigit((unsigned char)*p)) count = *p++ - '0';
    int sq = read_square(&p, size);
    if (sq < 0) fail_msg("support_move_code: cannot read \"%s\"", text);
    if (*p == '\0') {
        if (count == 0) {
            *move = tak_move_place(sq, TAK_PLACE_FLAT);
            return true;
        }
        *is_pass = true;
        *pass_square = sq;
        return false;
    }
    if (count == 0) count = 1;
    TakDirection dir;
    switch (*p++) {
    case '+':
        dir = TAK_NORTH;
        break;
    case '-':
        dir = TAK_SOUTH;
        break;
    case '>':
        dir = TAK_EAST;
        break;
    case '<':
        dir = TAK_WEST;
        break;
    default:
        fail_msg("support_move_code: no direction in \"%s\"", text);
        return false;
    }
    int drops[8], n = 0, sum = 0;
    while (isdigit((unsigned char)*p) && n < 8) {
        drops[n] = *p++ - '0';
        sum += drops[n++];
    }
    if (n == 0) {
        drops[n++] = count;
        sum = count;
    }
    if (*p == 'S' || *p == 'C') p++;
    if (*p == '*') p++;
    if (*p != '\0' || sum != count) fail_msg("support_move_code: cannot read \"%s\"", text);
    *move = tak_move_spread(sq, dir, drop_code(drops, n));
    return true;
}

TakMove support_move_code(const char *text, int size) {
    TakMove move = TAK_MOVE_NONE;
    bool is_pass;
    int square;
    if (!decode(text, size, &move, &is_pass, &square))
        fail_msg("support_move_code: a pass (\"%s\") has no code of its own here", text);
    return move;
}

bool support_is_generated(const TakPosition *pos, TakMove move) {
    static TakMoveList list; /* too big for the stack of every caller; tests are single-threaded */
    int n = tak_moves_generate(pos, &list);
    for (int i = 0; i < n; i++)
        if (list.moves[i] == move) return true;
    return false;
}

TakMove support_move(const TakPosition *pos, const char *text) {
    TakMove move = TAK_MOVE_NONE;
    bool is_pass;
    int square;
    int size = tak_position_size(pos);
    char tps[TAK_TPS_MAX];
    if (!decode(text, size, &move, &is_pass, &square)) {
        static TakMoveList list;
        int n = tak_moves_generate(pos, &list);
        for (int i = 0; i < n; i++)
            if (tak_move_is_pass(list.moves[i]) && tak_move_square(list.moves[i]) == square)
                move = list.moves[i];
        if (move == TAK_MOVE_NONE)
            fail_msg("no pass %s generated in %s", text, support_tps(pos, tps));
    }
    if (!support_is_generated(pos, move))
        fail_msg("%s (code %#x) is not generated in %s", text, (unsigned)move,
                 support_tps(pos, tps));
    if (!tak_move_is_legal(pos, move))
        fail_msg("%s (code %#x) is generated but not tak_move_is_legal in %s", text, (unsigned)move,
                 support_tps(pos, tps));
    return move;
}

void support_play(TakPosition *pos, const char *text) {
    TakMove move = support_move(pos, text);
    TakError err;
    if (!tak_position_apply(pos, move, &err)) {
        char tps[TAK_TPS_MAX];
        fail_msg("tak_position_apply(%s) refused in %s: %s", text, support_tps(pos, tps),
                 err.message);
    }
    if (pos->hash != tak_position_compute_hash(pos)) {
        char tps[TAK_TPS_MAX];
        fail_msg("after %s the incremental hash is not the hash of %s", text,
                 support_tps(pos, tps));
    }
}

void support_play_all(TakPosition *pos, const char *plies) {
    char ply[32];
    const char *p = plies;
    while (*p) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n == 0) break;
        if (n >= sizeof ply) {
            fail_msg("ply too long in \"%s\"", plies);
            return;
        }
        memcpy(ply, p, n);
        ply[n] = '\0';
        support_play(pos, ply);
        p += n;
    }
}
