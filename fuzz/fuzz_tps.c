/*
 * fuzz_tps.c: libFuzzer target for tak_tps_read. Whatever the bytes, reading
 * must return cleanly with an error that points into the text; a TPS that
 * reads must write, and what is written must read back to the same position
 * and write again to the same text (the writer's form is a fixed point).
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

/* Rules of the TPS's own size with reserves chosen by `seed`, so the reserve
 * checks meet counts other than the standard ones. */
static TakRules rules_from_seed(int size, uint8_t seed) {
    TakRules rules;
    tak_rules_standard(&rules, size, NULL);
    rules.stones = 1 + seed % 40;
    rules.capstones = (seed >> 6) % 3;
    rules.half_komi = (int)(seed % 41) - 20;
    return rules;
}

static void check_position(const TakPosition *pos, const char *text) {
    char out[TAK_TPS_MAX], again[TAK_TPS_MAX];
    int n = tak_tps_write(pos, out, sizeof out);
    expect(n > 0 && n < TAK_TPS_MAX && (size_t)n == strlen(out), "a read position writes");
    expect(pos->hash == tak_position_compute_hash(pos), "the hash of a read position is its own");

    TakPosition back;
    TakError err;
    expect(tak_tps_read(out, &pos->rules, &back, &err), "written TPS reads back");
    expect(tak_position_equal(pos, &back), "written TPS reads back to the same position");
    expect(back.hash == pos->hash, "same hash after a round trip");
    expect(tak_tps_write(&back, again, sizeof again) == n && strcmp(out, again) == 0,
           "writing is a fixed point");
    (void)text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    size_t len = strlen(text); /* the reader sees a C string: up to the first NUL */

    TakPosition pos;
    TakError err;
    if (tak_tps_read(text, NULL, &pos, &err)) {
        check_position(&pos, text);
        TakRules rules = rules_from_seed(tak_position_size(&pos), size ? data[0] : 0);
        if (tak_tps_read(text, &rules, &pos, &err))
            check_position(&pos, text);
        else
            expect(err.message[0] != '\0', "an error says what");
    } else {
        expect(err.message[0] != '\0', "an error says what");
        expect(err.line == 0, "a TPS error has no line");
        expect(err.column >= 1 && (size_t)err.column <= len + 1,
               "a TPS error points into the text");
    }
    free(text);
    return 0;
}
