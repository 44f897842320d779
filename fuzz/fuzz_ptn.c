/*
 * fuzz_ptn.c: libFuzzer target for tak_ptn_read. Whatever the bytes, reading
 * must return cleanly, and a refusal must say where; a game that reads must
 * write, and what is written must read back to the same start, moves, result,
 * tags, preface and branches, and write again to the same text.
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

static void check_same(const TakPtn *a, const TakPtn *b) {
    expect(a->game.count == b->game.count, "same number of plies");
    expect(a->game.count == 0 ||
               memcmp(a->game.moves, b->game.moves, a->game.count * sizeof(TakMove)) == 0,
           "same moves");
    expect(tak_position_equal(&a->game.start, &b->game.start), "same start");
    expect(tak_position_equal(&a->game.current, &b->game.current), "same final position");
    expect(strcmp(tak_result_code(tak_game_result(&a->game)),
                  tak_result_code(tak_game_result(&b->game))) == 0,
           "same result");
    expect(a->rules.size == b->rules.size && a->rules.stones == b->rules.stones &&
               a->rules.capstones == b->rules.capstones && a->rules.half_komi == b->rules.half_komi,
           "same rules");
    expect((a->preface == NULL) == (b->preface == NULL) &&
               (a->preface == NULL || strcmp(a->preface, b->preface) == 0 ||
                strchr(a->preface, '}') != NULL),
           "same preface");
    expect(a->branch_count == b->branch_count, "same number of branches");
    for (size_t k = 0; k < a->branch_count; k++) {
        const TakPtnBranch *x = &a->branches[k], *y = &b->branches[k];
        expect(strcmp(x->name, y->name) == 0 && x->parent == y->parent && x->start == y->start,
               "same branch names, parents and starts");
        expect(x->game.count == y->game.count &&
                   memcmp(x->game.moves, y->game.moves, x->game.count * sizeof(TakMove)) == 0,
               "same branch moves");
    }
    expect(a->tag_count == b->tag_count, "same number of tags");
    for (size_t i = 0; i < a->tag_count; i++)
        expect(strcmp(a->tags[i].name, b->tags[i].name) == 0 &&
                   strcmp(a->tags[i].value, b->tags[i].value) == 0,
               "same tags");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    TakPtn ptn;
    TakError err;
    if (!tak_ptn_read((const char *)data, size, &ptn, &err)) {
        expect(err.message[0] != '\0', "an error says what");
        expect(err.line >= 1 && err.column >= 1, "an error says where");
        expect(ptn.tag_count == 0 && ptn.game.moves == NULL, "a refused game is left empty");
        tak_ptn_free(&ptn);
        return 0;
    }
    char *text = tak_ptn_write(&ptn);
    expect(text != NULL, "a read game writes");
    TakPtn back;
    char where[300];
    if (!tak_ptn_read(text, strlen(text), &back, &err)) {
        fprintf(stderr, "%s\n---\n%s---\n", tak_error_describe(&err, where, sizeof where), text);
        expect(0, "written PTN reads back");
    }
    check_same(&ptn, &back);
    char *again = tak_ptn_write(&back);
    expect(again != NULL && strcmp(text, again) == 0, "writing is a fixed point");

    /* The game alone (tak_ptn_from_game) also writes PTN that reads back. */
    TakPtn built, rebuilt;
    expect(tak_ptn_from_game(&built, &ptn.game, &err), "a read game converts");
    char *fresh = tak_ptn_write(&built);
    expect(fresh != NULL, "a converted game writes");
    if (!tak_ptn_read(fresh, strlen(fresh), &rebuilt, &err)) {
        fprintf(stderr, "%s\n---\n%s---\n", tak_error_describe(&err, where, sizeof where), fresh);
        expect(0, "PTN from tak_ptn_from_game reads back");
    }
    expect(rebuilt.game.count == ptn.game.count &&
               (ptn.game.count == 0 ||
                memcmp(rebuilt.game.moves, ptn.game.moves, ptn.game.count * sizeof(TakMove)) == 0),
           "same moves from tak_ptn_from_game");
    expect(tak_position_equal(&rebuilt.game.start, &ptn.game.start),
           "same start from tak_ptn_from_game");

    tak_ptn_free(&rebuilt);
    free(fresh);
    tak_ptn_free(&built);
    free(again);
    tak_ptn_free(&back);
    free(text);
    tak_ptn_free(&ptn);
    return 0;
}
