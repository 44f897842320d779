/*
 * result.c: result tokens as tools write them ("R-0", "r-0", "1/2-1/2",
 * "½-½", "0-0", "*") and how a result read from a file is reconciled with the
 * game the moves replay to.
 */
#include <string.h>

#include "internal.h"

const char *notation_result_scan(const char *text, size_t len) {
    static const char *const codes[] = {"R-0", "0-R",     "F-0", "0-F", "1-0",
                                        "0-1", "1/2-1/2", "0-0", "*"};
    if (len == 5 && memcmp(text, "\xC2\xBD-\xC2\xBD", 5) == 0) return "1/2-1/2"; /* ½-½ */
    for (size_t k = 0; k < sizeof codes / sizeof codes[0]; k++) {
        const char *code = codes[k];
        if (strlen(code) != len) continue;
        size_t i = 0;
        /* Road and flat letters are accepted in either case. */
        while (i < len && (text[i] == code[i] ||
                           ((code[i] == 'R' || code[i] == 'F') && text[i] == code[i] - 'A' + 'a')))
            i++;
        if (i == len) return code;
    }
    return NULL;
}

/* The winner a result code names: TAK_WHITE, TAK_BLACK, -1 for a draw, -2
 * when it names none ("0-0", "*"). */
static int result_winner(const char *code) {
    if (strcmp(code, "0-0") == 0 || strcmp(code, "*") == 0) return -2;
    if (strcmp(code, "1/2-1/2") == 0) return -1;
    return code[0] == '0' ? TAK_BLACK : TAK_WHITE;
}

bool notation_results_agree(const char *a, const char *b) {
    int wa = result_winner(a), wb = result_winner(b);
    return wa == -2 || wb == -2 || wa == wb;
}

void notation_result_apply(TakGame *game, const char *code) {
    TakResult now = tak_game_result(game);
    bool over = now.end != TAK_END_NONE;
    if (strcmp(code, "*") == 0 || strcmp(code, "0-0") == 0) return;
    if (strchr(code, 'R') || strchr(code, 'F')) {
        /* A road or flat win is a fact of the board, which decides: a file
         * that claims another one (a stale tag, a slip of the recorder) is
         * still read, and front ends can point out the disagreement. */
        return;
    }
    int winner = strcmp(code, "1-0") == 0 ? TAK_WHITE : strcmp(code, "0-1") == 0 ? TAK_BLACK : -1;
    if (!over) {
        /* Ended off the board: which way (resignation or time, for a win) the
         * file does not say; resignation is the usual one. */
        if (winner < 0)
            tak_game_end(game, TAK_END_AGREEMENT, -1);
        else
            tak_game_end(game, TAK_END_RESIGNATION, winner);
    }
    /* A game the board already decided keeps the board's result, whatever
     * these say: the board decides. */
}
