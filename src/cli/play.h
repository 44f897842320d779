/*
 * play.h: what the files of `tak play` share. cmd_play.c reads the options and
 * runs the match (scores, wagers); play_game.c plays one game (turns,
 * commands, Tak calls); play_board.c draws the board; play_engine.c lets the
 * engine think in a thread that Enter can stop; play_input.c reads lines
 * (with readline at a terminal) and asks questions.
 */
#ifndef TAK_CLI_PLAY_H
#define TAK_CLI_PLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tak/engine.h"
#include "tak/score.h"
#include "tak/tak.h"
#include "tak/wager.h"

/* ---- input (play_input.c) --------------------------------------------- */

typedef struct PlayInput {
    bool tty;      /* stdin is a terminal: line editing, history, Enter stops the engine */
    bool echo;     /* stdin is not a terminal: echo each line read after its prompt */
    bool readline; /* line editing is in use */
} PlayInput;

void play_input_init(PlayInput *in);
void play_input_free(PlayInput *in);

/* Prints `prompt`, reads one line (trimmed) into buf. False at end of input. */
bool play_read_line(PlayInput *in, const char *prompt, char *buf, size_t cap);

/* Asks a yes/no question; an empty answer is `dflt`. 1 yes, 0 no, -1 end of input. */
int play_ask_yes_no(PlayInput *in, const char *question, bool dflt);

/* True when a line is waiting on a terminal stdin within `ms` milliseconds;
 * the line is read and dropped (used to stop the engine on Enter). */
bool play_input_key_pressed(PlayInput *in, int ms);

/* ---- drawing (play_board.c) ------------------------------------------- */

typedef struct PlayStyle {
    bool unicode; /* box drawing and piece glyphs */
    bool color;   /* ANSI colours */
} PlayStyle;

/* Unicode and colours on a terminal; plain ASCII when stdout is not a
 * terminal, TERM is dumb, NO_COLOR is set, or `ascii` is asked for. */
PlayStyle play_style_detect(bool ascii);

/* What the board shows beside the position. */
typedef struct PlayBoardInfo {
    const char *names[2];   /* who plays White and Black, e.g. "You", "Engine (level 5)" */
    const TakWager *wager;  /* NULL unless wagering */
    int wager_player[2];    /* the wager's player number of White and Black */
} PlayBoardInfo;

/* Draws the game's position: coordinates, tops with their kind and stack
 * heights, stacks in full, reserves, flats (with komi), the last move
 * highlighted, whose turn, and a Tak! warning. */
void play_draw(FILE *out, const TakGame *game, const PlayStyle *style, const PlayBoardInfo *info);

/* The squares a move touches (the placement, or the start and every square
 * a spread drops on), as a bitboard. */
TakBitboard play_move_squares(TakMove move, int size);

/* ---- the engine (play_engine.c) --------------------------------------- */

typedef struct PlayEngine {
    TakEngine *engine;
    int level;
    int64_t think_ms; /* the longest a move may take (0: the level's own limits) */
    bool live;        /* show the best line while thinking, and let Enter stop it */
} PlayEngine;

bool play_engine_init(PlayEngine *pe, int level, int64_t think_ms, uint64_t seed, bool live);
void play_engine_free(PlayEngine *pe);

/* Searches the game's position for the side to move; fills *info (score
 * from the mover's view). With `live`, shows the best line and evaluation as
 * it goes and stops when Enter is pressed on `in`. */
TakMove play_engine_think(PlayEngine *pe, const TakGame *game, PlayInput *in, TakSearchInfo *info);

/* A quick evaluation of the position for the side to move (hundredths of a
 * flat; beyond TAK_SCORE_WIN_MIN a forced result). */
int play_engine_evaluate(PlayEngine *pe, const TakGame *game);

/* "+0.45", "road in 3", "loses in 2" for a score from the mover's view. */
const char *play_score_text(int score, char *buf, size_t cap);

/* The engine's bid for the first move on a board of `size`: the first move
 * is worth most on small boards; a little noise from `rng`. */
int play_engine_bid(int size, uint64_t *rng);

/* A random number below n from a splitmix64 state. */
uint32_t play_random(uint64_t *rng, uint32_t n);

#endif

/* ---- one game (play_game.c) ------------------------------------------- */

typedef struct PlayGame {
    TakGame game;
    PlayInput *in;
    PlayStyle style;
    PlayEngine *engine;     /* plays the engine's side, gives hints; never NULL */
    bool is_engine[2];      /* by colour */
    const char *names[2];   /* by colour */
    TakWager *wager;        /* NULL unless wagering */
    int player_of[2];       /* the match's player number of each colour */
    int64_t delay_ms;       /* pause after each move when two engines play */
    size_t saved_count;     /* game.count when last saved; SIZE_MAX: never */
    bool quit;              /* the players left the program */
} PlayGame;

/* Plays until the game ends or the players quit (g->quit). The result is
 * tak_game_result(&g->game). */
void play_game_run(PlayGame *g);

/* Writes the game as PTN to `path`, with the players' names; prints what
 * went wrong and returns false on failure. */
bool play_game_save(PlayGame *g, const char *path);
