/**
 * \file
 * tak.h: the whole public face of the Tak library in one include.
 *
 *   rules.h     rule options and named game types
 *   move.h      the packed move and the move list
 *   position.h  positions, move generation, make/unmake, roads, results, perft
 *   game.h      a game with history: repetition, takebacks, resignations
 *   notation.h  TPS and single PTN plies
 *   ptn.h       whole PTN games
 *   playtak.h   PlayTak's text protocol (the playtak.com server)
 *   version.h   the library's version
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
