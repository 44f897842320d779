/**
 * \file
 * position.h: a Tak position, its moves, and the end of the game.
 *
 * The tops of the stacks are bitboards (one bit per square, bit = rank * size
 * + file); the contents of each stack are one bit per piece, top piece at
 * bit 0, 1 for Black. Covered pieces are always flats (nothing can be put on
 * a wall or a capstone except a capstone flattening a wall), so a top's type
 * is all that needs storing beyond colours.
 *
 * A TakPosition holds no pointers and no global state: copy it with `=`,
 * keep thousands, search it from several threads (one copy each).
 */
#ifndef TAK_POSITION_H
#define TAK_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "tak/error.h"
#include "tak/move.h"
#include "tak/rules.h"

typedef uint64_t TakBitboard;
__extension__ typedef unsigned __int128 TakStackBits;

typedef enum TakPieceType { TAK_FLAT = 0, TAK_WALL = 1, TAK_CAP = 2 } TakPieceType;

/** How a game ended. Resignation, time and agreement are recorded by TakGame. */
typedef enum TakEnd {
    TAK_END_NONE = 0,
    TAK_END_ROAD,
    TAK_END_BOARD_FULL,        /**< decided on flats */
    TAK_END_RESERVES,          /**< a reserve ran out; decided on flats */
    TAK_END_REPETITION,        /**< draw */
    TAK_END_RESIGNATION,
    TAK_END_TIME,
    TAK_END_AGREEMENT,         /**< draw */
} TakEnd;

typedef struct TakResult {
    TakEnd end;
    int winner; /**< TAK_WHITE or TAK_BLACK; -1 for a draw or an unfinished game */
} TakResult;

typedef struct TakPosition {
    TakRules rules;
    TakBitboard owner[2]; /**< squares whose top piece is White's / Black's */
    TakBitboard walls;    /**< squares topped by a wall */
    TakBitboard caps;     /**< squares topped by a capstone */
    uint8_t height[TAK_MAX_SQUARES];
    TakStackBits stack[TAK_MAX_SQUARES]; /**< colours, top piece at bit 0 */
    uint8_t stones[2];   /**< stones left in each reserve */
    uint8_t capstones[2];
    uint8_t side;        /**< TakColor to move */
    uint32_t ply;        /**< plies since the empty board: move number = ply/2+1 */
    uint64_t hash;       /**< Zobrist hash of stacks, tops and side; kept incrementally */
    TakResult result;    /**< kept up to date by make and unmake */
} TakPosition;

/** What unmake needs to restore, filled by make. */
typedef struct TakUndo {
    uint64_t hash;
    TakResult result;
    bool flattened; /**< the move's capstone flattened a wall */
} TakUndo;

/* ---- Creating positions ---------------------------------------------- */

/** The empty board under `rules`, White to move, move 1. */
bool tak_position_init(TakPosition *pos, const TakRules *rules, TakError *err);

/** Building an arbitrary position (TPS reading uses this): start with
 * tak_position_clear, add stacks, then tak_position_finish, which derives the
 * reserves, checks them, and computes the hash and result. `bits` gives the
 * colours, top piece at bit 0; `top` the type of the top piece. */
bool tak_position_clear(TakPosition *pos, const TakRules *rules, TakError *err);
void tak_position_put_stack(TakPosition *pos, int square, int height, TakStackBits bits,
                            TakPieceType top);
bool tak_position_finish(TakPosition *pos, TakColor side, long move_number, TakError *err);

/* ---- Looking at a position ------------------------------------------- */

/** The board size (3..8). */
static inline int tak_position_size(const TakPosition *pos) { return pos->rules.size; }
/** The side to move. */
static inline TakColor tak_position_side(const TakPosition *pos) { return (TakColor)pos->side; }
/** The move number, as TPS and PTN count them (1 at the start). */
static inline long tak_position_move_number(const TakPosition *pos) { return (long)(pos->ply / 2) + 1; }
/** True on each player's first turn, when they place an opponent's flat. */
static inline bool tak_position_is_opening(const TakPosition *pos) { return pos->ply < 2; }
/** The number of pieces on `square`. */
static inline int tak_position_height(const TakPosition *pos, int square) { return pos->height[square]; }
/** The squares with a stack on them. */
static inline TakBitboard tak_position_occupied(const TakPosition *pos) {
    return pos->owner[0] | pos->owner[1];
}
/** Colour of the piece `level` places from the bottom (0) of a stack. */
static inline TakColor tak_position_piece_color(const TakPosition *pos, int square, int level) {
    return (TakColor)((pos->stack[square] >> (pos->height[square] - 1 - level)) & 1);
}
/** Type of the top piece of a non-empty square. */
static inline TakPieceType tak_position_top_type(const TakPosition *pos, int square) {
    TakBitboard b = (TakBitboard)1 << square;
    return (pos->walls & b) ? TAK_WALL : (pos->caps & b) ? TAK_CAP : TAK_FLAT;
}

/** Flats on top of stacks for each colour (komi not included). */
void tak_position_flat_counts(const TakPosition *pos, int counts[2]);

/** The result as it stands: TAK_END_NONE while the game goes on. Repetition is
 * not known to a position (see TakGame). */
static inline TakResult tak_position_result(const TakPosition *pos) { return pos->result; }
/** True when the game has ended on the board. */
static inline bool tak_position_is_over(const TakPosition *pos) { return pos->result.end != TAK_END_NONE; }

/** True when `color` has a road now. */
bool tak_position_has_road(const TakPosition *pos, TakColor color);

/** The squares of `color`'s roads: its chains of flats and capstones that join
 * two opposite edges (0 when it has no road). */
TakBitboard tak_position_road_squares(const TakPosition *pos, TakColor color);

/** True when `color`, were it to move now, could complete a road with one
 * move ("Tak"). A finished game has no Tak. */
bool tak_position_has_tak(const TakPosition *pos, TakColor color);

/** The hash recomputed from scratch (equals pos->hash in a consistent position). */
uint64_t tak_position_compute_hash(const TakPosition *pos);

/** Same stacks, tops, reserves, side and ply. */
bool tak_position_equal(const TakPosition *a, const TakPosition *b);

/* ---- Moves ------------------------------------------------------------ */

/** Fills `list` with every legal move; returns the count (0 when the game is over). */
int tak_moves_generate(const TakPosition *pos, TakMoveList *list);

/** The number of legal moves, without listing them (0 when the game is over). */
uint64_t tak_moves_count(const TakPosition *pos);

/** True when `move` is legal here. */
bool tak_move_is_legal(const TakPosition *pos, TakMove move);

/** As tak_move_is_legal, and when the move is illegal says why in `err`
 * ("c3 is not empty", "the stack on c3 has only 2 pieces", ...). */
bool tak_move_check(const TakPosition *pos, TakMove move, TakError *err);

/** True when `move` (legal here) ends with a capstone flattening a wall. */
bool tak_move_flattens(const TakPosition *pos, TakMove move);

/** Plays a legal move (unchecked) and records what unmake needs. */
void tak_position_make(TakPosition *pos, TakMove move, TakUndo *undo);

/** Takes back the last move made with tak_position_make. */
void tak_position_unmake(TakPosition *pos, TakMove move, const TakUndo *undo);

/** Plays `move` after checking it is legal and the game is not over; on
 * failure says why and leaves the position unchanged. */
bool tak_position_apply(TakPosition *pos, TakMove move, TakError *err);

/* ---- Perft ------------------------------------------------------------ */

/** Counts the move sequences of `depth` plies (finished positions have no
 * children). Counts the last ply without playing it. */
uint64_t tak_perft(TakPosition *pos, int depth);

/** The same count, making and unmaking every leaf move (slower; a check on
 * make/unmake and a measure of their speed). */
uint64_t tak_perft_full(TakPosition *pos, int depth);

#endif
