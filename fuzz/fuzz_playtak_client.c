/*
 * fuzz_playtak_client.c: libFuzzer target for PlayTak's client lines read by
 * a server (tak_pt_client_read, playtak.h; our server's PlayTak port reads
 * every line so). The bytes are lines cut at "\n" only, so NULs and control
 * bytes reach the reader: each line is read or refused cleanly (an error that
 * says what, at a column inside the line, the output untouched), and what is
 * read is in its ranges, its strings terminated, a move's squares on a board.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tak/tak.h"

static void expect(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "invariant failed: %s\n", what);
        abort();
    }
}

static int terminated(const char *s, size_t cap) { return memchr(s, '\0', cap) != NULL; }

static void check_read(const TakPtCommand *m) {
    expect(m->kind >= 0 && m->kind < TAK_PT_CMD_KIND_COUNT, "a known kind");
    expect(strcmp(tak_pt_command_name(m->kind), "?") != 0, "a kind with a name");
    expect(terminated(m->name, sizeof m->name) && terminated(m->secret, sizeof m->secret) &&
               terminated(m->text, sizeof m->text) &&
               terminated(m->seek.opponent, sizeof m->seek.opponent),
           "strings are terminated");
    for (const char *p = m->text; *p; p++) expect((unsigned char)*p >= ' ', "no control byte read");
    switch (m->kind) {
    case TAK_PT_CMD_LOGIN:
        expect(m->name[0] && m->secret[0] && !strchr(m->name, ' '),
               "a login has a name and a password");
        break;
    case TAK_PT_CMD_LOGIN_GUEST:
        expect(strlen(m->secret) == 0 || strlen(m->secret) == 20, "a token is 20 letters or none");
        break;
    case TAK_PT_CMD_TELL:
        expect(m->name[0] && m->text[0], "a tell has a name and a text");
        break;
    case TAK_PT_CMD_CLIENT:
    case TAK_PT_CMD_PROTOCOL:
    case TAK_PT_CMD_SHOUT:
        expect(m->text[0] != '\0', "a text is never empty");
        break;
    case TAK_PT_CMD_SEEK:
        expect(m->seek_version >= 1 && m->seek_version <= 3, "a seek's version");
        expect(m->seek.size >= 0 && m->seek.size <= TAK_MAX_SIZE && m->seek.time_s >= 0 &&
                   m->seek.time_s <= 10800 && m->seek.increment_s >= 0 &&
                   m->seek.increment_s <= 300 && m->seek.half_komi >= 0 &&
                   m->seek.half_komi <= TAK_MAX_HALF_KOMI && m->seek.pieces >= 0 &&
                   m->seek.pieces <= TAK_MAX_RESERVE && m->seek.capstones >= 0 &&
                   m->seek.capstones <= TAK_MAX_RESERVE && m->seek.trigger_move >= 0 &&
                   m->seek.trigger_move <= 1000 && m->seek.extra_time_s >= 0 &&
                   m->seek.extra_time_s <= 10800,
               "a seek's numbers in range");
        expect(m->seek.color == 'W' || m->seek.color == 'B' || m->seek.color == 'A',
               "a seek's colour");
        for (const char *p = m->seek.opponent; *p; p++)
            expect((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                       (*p >= '0' && *p <= '9') || *p == '_',
                   "an opponent is letters, digits and '_'");
        break;
    case TAK_PT_CMD_MOVE: {
        expect(m->game >= 0 && m->game <= (1 << 30), "a game's number in range");
        /* The syntax was read; on each board it is a move or a clean refusal. */
        for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++) {
            TakMove move;
            TakError err;
            if (!tak_pt_move_to_move(&m->move, size, &move, &err))
                expect(err.message[0] != '\0', "a move refused says why");
        }
        break;
    }
    default:
        expect(m->game >= 0 && m->game <= (1 << 30), "a number in range");
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    size_t start = 0;
    while (start <= size) {
        const char *nl = memchr(text + start, '\n', size - start);
        size_t len = nl ? (size_t)(nl - (text + start)) : size - start;
        TakPtCommand m, before;
        memset(&m, 0xa5, sizeof m);
        before = m;
        TakError err;
        if (tak_pt_client_read(text + start, len, &m, &err)) {
            check_read(&m);
        } else {
            expect(memcmp(&m, &before, sizeof m) == 0, "nothing is written on failure");
            expect(err.message[0] != '\0', "an error says what");
            expect((err.column >= 1 && (size_t)err.column <= len + 1) ||
                       (len > TAK_PT_LINE_MAX && err.column == TAK_PT_LINE_MAX + 1),
                   "an error points into the line");
        }
        if (!nl) break;
        start += len + 1;
    }
    return 0;
}
