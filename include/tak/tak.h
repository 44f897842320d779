/**
 * \file
 * tak.h: the game of Tak in one include: what a program needs to hold, play,
 * check and record Tak games.
 *
 *   error.h     the error record every fallible call fills
 *   random.h    the seeded pseudo-random generator and its mixing step
 *   rules.h     rule options, named game types, the colours' names
 *   move.h      the packed move and the move list
 *   position.h  positions, move generation, make/unmake, roads, results, perft
 *   game.h      a game with history: repetition, takebacks, resignations
 *   notation.h  TPS and single PTN plies
 *   ptn.h       whole PTN games
 *   playtak.h   PlayTak's text protocol (the playtak.com server)
 *   version.h   the library's version
 *
 * The rest of the library's public face stands apart, each header included
 * on its own by the programs that want it (each includes what it needs of
 * the above):
 *
 *   engine.h       the AI: search, evaluation, levels (worker threads)
 *   tei.h          a TEI session, the engine protocol, as a library object
 *   match.h        engine matches over TEI, with match_stats.h (Elo, SPRT)
 *   score.h        the rule book's multi-game scoring
 *   wager.h        the rule book's University wagering rules
 *   rating.h       Glicko-2 ratings
 *   takat.h        TAKAT, the second game, which shares only error.h
 */
#ifndef TAK_TAK_H
#define TAK_TAK_H

#include "tak/error.h"
#include "tak/game.h"
#include "tak/move.h"
#include "tak/notation.h"
#include "tak/playtak.h"
#include "tak/position.h"
#include "tak/ptn.h"
#include "tak/random.h"
#include "tak/rules.h"
#include "tak/version.h"

#endif
