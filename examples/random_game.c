/*
 * random_game.c: plays a game of random legal moves and prints it as PTN.
 *
 *   cc examples/random_game.c $(pkg-config --cflags --libs tak) -o random_game
 *   ./random_game [SIZE] [SEED]
 *
 * The moves come from the library's generator and its splitmix64
 * (random.h), so a seed always gives the same game.
 */
#include <stdio.h>
#include <stdlib.h>

#include <tak/tak.h>

int main(int argc, char **argv) {
    int size = argc > 1 ? atoi(argv[1]) : 5;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    TakRules rules;
    TakPosition start;
    TakGame game;
    TakError err;
    if (!tak_rules_standard(&rules, size, &err) || !tak_position_init(&start, &rules, &err) ||
        !tak_game_init(&game, &start, &err)) {
        fprintf(stderr, "random_game: %s\n", err.message);
        return 1;
    }
    static TakMoveList list; /* TAK_MAX_MOVES moves: too big for some stacks */
    while (tak_game_result(&game).end == TAK_END_NONE && game.count < 1000) {
        int n = tak_moves_generate(&game.current, &list);
        TakMove move = list.moves[tak_random_next(&seed) % (uint64_t)n];
        if (!tak_game_play(&game, move, &err)) {
            fprintf(stderr, "random_game: %s\n", err.message);
            return 1;
        }
    }
    TakPtn ptn;
    char *text = NULL;
    if (tak_ptn_from_game(&ptn, &game, &err)) {
        text = tak_ptn_write(&ptn);
        tak_ptn_free(&ptn);
    }
    tak_game_free(&game);
    if (text == NULL) {
        fprintf(stderr, "random_game: out of memory\n");
        return 1;
    }
    fputs(text, stdout);
    free(text);
    return 0;
}
