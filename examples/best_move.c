/*
 * best_move.c: asks the engine for the best move of a position given in TPS.
 *
 *   cc examples/best_move.c $(pkg-config --cflags --libs tak) -o best_move
 *   ./best_move "x5/x5/x2,2,x2/x5/x5 2 1" [NODES]
 *
 * Prints the move in PTN and its score (hundredths of a flat, for the side to
 * move). Exit status 1 with the library's message for a bad TPS.
 */
#include <stdio.h>
#include <stdlib.h>

#include <tak/engine.h>
#include <tak/tak.h>

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: best_move TPS [NODES]\n");
        return 2;
    }
    TakPosition pos;
    TakError err;
    if (!tak_tps_read(argv[1], NULL, &pos, &err)) {
        char buf[TAK_ERROR_MESSAGE_MAX + 40];
        fprintf(stderr, "best_move: bad TPS: %s\n", tak_error_describe(&err, buf, sizeof buf));
        return 1;
    }
    unsigned long long nodes = 100000;
    if (argc == 3) {
        char *end;
        nodes = strtoull(argv[2], &end, 10);
        if (*argv[2] == '-' || *end != '\0' || nodes == 0) {
            fprintf(stderr, "best_move: NODES must be a whole number from 1, not '%s'\n", argv[2]);
            return 2;
        }
    }
    TakEngine *engine = tak_engine_new(16, 1);
    if (engine == NULL) {
        fprintf(stderr, "best_move: out of memory\n");
        return 1;
    }
    TakSearchLimits limits = {0};
    limits.nodes = nodes;
    TakSearchInfo info = {0};
    TakMove best = tak_engine_search(engine, &pos, NULL, 0, &limits, NULL, NULL, &info);
    tak_engine_free(engine);
    if (best == TAK_MOVE_NONE) {
        printf("no move: the game is over\n");
        return 0;
    }
    char text[TAK_MOVE_TEXT_MAX];
    tak_move_write(best, tak_position_size(&pos), &pos, text);
    printf("%s %d\n", text, info.score);
    return 0;
}
