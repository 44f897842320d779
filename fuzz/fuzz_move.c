/*
 * fuzz_move.c: libFuzzer target for single plies. The first byte picks a
 * position (and so a board size); the rest is the ply text. tak_ply_parse
 * must return cleanly with a column inside the text; a ply that reads must
 * write in both forms and read back to the same move; tak_move_parse must
 * agree with the core's legality (tak_move_is_legal and the generated list),
 * and a legal move must read back from what tak_move_write makes of it.
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

/* Positions with stacks, walls and capstones next to each other, of every size. */
static const char *const positions[] = {
    "x3/x3/x3 1 1",
    "x3/x,2,x/x3 1 1",
    "x,2,x/1,12S,x/x,21,1 1 4",
    "x4/x,1212,x2/x2,21,x/2S,x3 2 7",
    "x5/x5/x5/x5/x5 1 1",
    "x3,12,2S/x,22S,22C,11,21/121,212,12,1121C,1212S/21S,1,21,211S,12S/x,21S,2,x2 1 26",
    "x4,1/x5/x2,12,x2/x5/2,1C,2S,x2 1 6",
    "x6/x,2,x,1,x2/x2,1112221C,x3/x,2S,x2,2,x/x6/1,x4,2 2 12",
    "x7/x7/x2,2121212C,x4/x7/x3,1S,x3/x7/x6,1 1 10",
    "x8/x8/x3,21212121212,x4/x8/x,1C,2S,x5/x8/x8/2,x7 1 20",
    "x3/x3/1,1,1 2 4",
};

static TakMoveList list;

static bool in_list(TakMove move, int n) {
    for (int i = 0; i < n; i++)
        if (list.moves[i] == move) return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    size_t count = sizeof positions / sizeof positions[0];
    const char *tps = positions[(data[0] & 0x7F) % count];
    TakPosition pos;
    expect(tak_tps_read(tps, NULL, &pos, NULL), "the position reads");
    TakRules rules = pos.rules;
    rules.no_pass = (data[0] & 0x80) == 0; /* with the high bit, passes are allowed */
    expect(tak_tps_read(tps, &rules, &pos, NULL), "the position reads under its rules");
    int n = tak_moves_generate(&pos, &list);
    int board_size = tak_position_size(&pos);

    char *text = malloc(size);
    if (!text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    size_t len = strlen(text);

    TakPly ply;
    TakError err;
    if (!tak_ply_parse(text, board_size, &ply, &err)) {
        expect(err.message[0] != '\0', "an error says what");
        expect(err.column >= 1 && (size_t)err.column <= len + 1, "an error points into the ply");
        TakMove move;
        expect(!tak_move_parse(&pos, text, &move, &err), "tak_move_parse refuses it too");
        free(text);
        return 0;
    }
    char out[TAK_MOVE_TEXT_MAX];
    for (int form = 0; form < 2; form++) {
        int w = form ? tak_move_write_long(ply.move, board_size, NULL, out)
                     : tak_move_write(ply.move, board_size, NULL, out);
        expect(w > 0 && w < TAK_MOVE_TEXT_MAX && (size_t)w == strlen(out), "a ply writes");
        TakPly back;
        expect(tak_ply_parse(out, board_size, &back, NULL), "a written ply reads");
        expect(back.move == ply.move, "a written ply reads back to the same move");
    }

    TakMove move;
    bool legal = tak_move_parse(&pos, text, &move, &err);
    if (legal) {
        expect(move == ply.move, "tak_move_parse and tak_ply_parse agree");
        expect(tak_move_is_legal(&pos, move), "a parsed move is legal");
        expect(in_list(move, n), "a parsed move is generated");
        int w = tak_move_write(move, board_size, &pos, out);
        expect(w > 0 && w < TAK_MOVE_TEXT_MAX, "a legal move writes");
        TakMove back;
        expect(tak_move_parse(&pos, out, &back, NULL) && back == move, "a legal move reads back");
        expect((strchr(out, '*') != NULL) == tak_move_flattens(&pos, move), "'*' when it flattens");
    } else {
        expect(err.message[0] != '\0', "an illegal move says why");
        /* Illegal by the rules, or by its piece letter. */
        expect(ply.piece >= 0 || !tak_move_is_legal(&pos, ply.move),
               "only illegal moves are refused");
    }
    free(text);
    return 0;
}
