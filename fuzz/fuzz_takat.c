/*
 * fuzz_takat.c: libFuzzer target for TAKAT's position string and turn
 * readers: any bytes are either refused with a message or read into a
 * position that writes back to a string reading to the same position.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tak/takat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    TakatPosition pos, again;
    TakError err;
    if (takat_position_parse(text, &pos, &err)) {
        char buf[TAKAT_POSITION_MAX];
        takat_position_format(&pos, buf);
        if (!takat_position_parse(buf, &again, &err) ||
            takat_position_key(&again) != takat_position_key(&pos))
            abort();
        TakatTurnList list;
        int n = takat_turns_generate(&pos, &list);
        for (int i = 0; i < n; i++)
            if (!takat_turn_check(&pos, list.turns[i], NULL)) abort();
    } else if (err.message[0] == '\0' || err.column < 1 || (size_t)err.column > size + 1) {
        abort();
    }
    TakatTurn turn;
    if (takat_turn_parse(text, &turn, &err) && turn.to >= TAKAT_CELLS) abort();
    free(text);
    return 0;
}
