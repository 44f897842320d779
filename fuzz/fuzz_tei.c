/*
 * fuzz_tei.c: libFuzzer target for the TEI line handler. The input is split
 * into lines fed to a fresh session; `go` answers without searching
 * (TakTeiConfig.no_search) so that the fuzzer spends its time on parsing,
 * positions and options rather than in the engine. Every output line must
 * be non-empty and free of newlines, and every go gets one bestmove.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tak/tei.h"

typedef struct Seen {
    size_t bestmoves;
} Seen;

static void check_line(const char *line, void *user) {
    Seen *seen = user;
    if (line[0] == '\0' || strchr(line, '\n') != NULL) abort();
    if (strncmp(line, "bestmove ", 9) == 0) seen->bestmoves++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Seen seen = {0};
    TakTeiConfig config = {.hash_mb = 1, .no_search = true};
    TakTeiSession *s = tak_tei_new(&config, check_line, &seen);
    if (s == NULL) return 0;
    size_t gos = 0, start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && data[i] != '\n') continue;
        const char *line = (const char *)data + start;
        size_t len = i - start;
        start = i + 1;
        size_t k = 0;
        /* The session splits tokens at bytes up to ' ' and at DEL. */
        while (k < len && ((unsigned char)line[k] <= ' ' || line[k] == 0x7f)) k++;
        bool is_go = len - k >= 2 && line[k] == 'g' && line[k + 1] == 'o' &&
                     (len - k == 2 || (unsigned char)line[k + 2] <= ' ' || line[k + 2] == 0x7f);
        if (!tak_tei_handle(s, line, len)) break;
        gos += is_go;
    }
    tak_tei_free(s);
    /* Exactly one bestmove per go (none is ever refused without a search). */
    if (seen.bestmoves != gos) abort();
    return 0;
}
