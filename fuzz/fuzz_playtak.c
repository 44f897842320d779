/*
 * fuzz_playtak.c: libFuzzer target for PlayTak's protocol (playtak.h). The
 * bytes are a conversation, one server line a line: every line must be read
 * or refused cleanly (an error that says what, at a column inside the line),
 * and what is read is fed to a session, which must keep its games legal:
 * when it is the session's turn it plays a legal move, which must write as a
 * PlayTak move that reads back to the same move.
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

static void play_one(TakPtSession *s, int no) {
    TakPtGame *g = tak_pt_session_game(s, no);
    if (!g || !tak_pt_game_is_our_turn(g)) return;
    static TakMoveList list; /* one fuzzing thread */
    if (tak_moves_generate(&g->game.current, &list) == 0) return;
    TakMove move = list.moves[list.count / 2];
    char text[TAK_PT_WRITE_MAX];
    int size = g->start.size;
    int n = tak_pt_move_write(move, size, text, sizeof text);
    if (n > 0) {
        TakPtMove pt;
        TakMove back;
        TakError err;
        expect(tak_pt_move_read(text, &pt, &err), "a written move reads");
        expect(tak_pt_move_to_move(&pt, size, &back, &err) && back == move,
               "a written move reads back to itself");
    }
    TakError err;
    expect(tak_pt_session_play(s, no, move, &err), "a generated move is played");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    TakPtSession s;
    tak_pt_session_init(&s);
    char *line = text;
    while (line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        size_t len = strlen(line);
        TakPtMessage m;
        TakError err;
        if (tak_pt_read(line, &m, &err)) {
            if (tak_pt_session_feed(&s, &m, &err) && m.kind == TAK_PT_GAME_MOVE)
                play_one(&s, m.game);
            else if (m.kind == TAK_PT_GAME_START)
                play_one(&s, m.start.no);
        } else {
            expect(err.message[0] != '\0', "an error says what");
            expect((err.column >= 1 && (size_t)err.column <= len + 1) ||
                       (len > TAK_PT_LINE_MAX && err.column == TAK_PT_LINE_MAX + 1),
                   "an error points into the line");
        }
        line = nl ? nl + 1 : NULL;
    }
    tak_pt_session_free(&s);
    free(text);
    return 0;
}
