/*
 * play.h: the parts of `tak play` that are not the game loop: drawing the
 * board as text, and the simple computer opponent (the real AI is the
 * engine's job; this one only makes the game playable without it).
 */
#ifndef TAK_CLI_PLAY_H
#define TAK_CLI_PLAY_H

#include <stdint.h>
#include <stdio.h>

#include "tak/tak.h"

/* Draws the game's position as text: the board with rank and file labels,
 * each square's top piece and height, the stacks in full, the reserves, the
 * flats on top, and, while the game goes on, whose turn it is (with a
 * warning when a road is threatened). */
void play_draw(FILE *out, const TakGame *game);

/* The simple opponent: a random number generator, nothing else. */
typedef struct PlayOpponent {
    uint64_t state;
} PlayOpponent;

/* Seeds the opponent; the same seed gives the same games. */
void play_opponent_init(PlayOpponent *op, uint64_t seed);

/* A random number below n (n >= 1). */
uint32_t play_random(PlayOpponent *op, uint32_t n);

/* Chooses a move for the side to move: a road win when there is one; else,
 * when the other side threatens a road, a move that stops every threat; else
 * a random move that does not hand the other side the game at once (or any
 * move, when all of them do). TAK_MOVE_NONE when the game is over. */
TakMove play_opponent_choose(PlayOpponent *op, const TakPosition *pos);

#endif
