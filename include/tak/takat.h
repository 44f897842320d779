/**
 * \file
 * takat.h: TAKAT, the second game (William Wragg, 2002; rules in
 * shared/spec/takat.md): seven cells, stacks of up to six stones, White with
 * 6 stones and Black with 15. A module of its own, sharing only TakError with
 * the Tak library.
 *
 * A TakatPosition holds no pointers and no global state: copy it with `=`
 * (turns are played by copy-make), keep many, search it from several threads.
 * Cells are numbered in the order of the position string: a2, b3, a1, b2, c3,
 * b1, c2 (0..6); the centre b2 is cell 3, the red cells are b3, a1 and c2.
 */
#ifndef TAK_TAKAT_H
#define TAK_TAKAT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tak/error.h"

#define TAKAT_CELLS 7
#define TAKAT_CENTRE 3
#define TAKAT_NO_CELL 7        /**< no ko; the `from` of a drop */
#define TAKAT_MAX_HEIGHT 6     /**< a stack of six ends the game (White wins) */
#define TAKAT_STONES_WHITE 6
#define TAKAT_STONES_BLACK 15
#define TAKAT_MAX_TURNS 64     /**< more than the legal turns of any position */
#define TAKAT_POSITION_MAX 64  /**< bytes for a position string, with its NUL */
#define TAKAT_TURN_MAX 8       /**< bytes for a turn's text, with its NUL */

typedef enum TakatColor { TAKAT_WHITE = 0, TAKAT_BLACK = 1 } TakatColor;

/** What the safety rules say about a stack's top stone. */
typedef enum TakatSafety {
    TAKAT_UNSAFE = 0,    /**< anyone may move it (always so for a single stone) */
    TAKAT_TEMPORARY = 1, /**< top two stones of one colour: only that player moves it */
    TAKAT_PERMANENT = 2, /**< top three of one colour on a red cell: nobody moves it */
} TakatSafety;

typedef struct TakatPosition {
    uint8_t height[TAKAT_CELLS]; /**< 0..6 */
    uint8_t stones[TAKAT_CELLS]; /**< colours, bottom stone at bit 0; 1 = Black */
    uint8_t on_board[2];         /**< stones of each colour on the board */
    uint8_t side;                /**< TakatColor to move */
    uint8_t ko;                  /**< cell the opponent's last turn put a stone on, or TAKAT_NO_CELL */
    uint8_t total[2];            /**< stones each colour has in all: 6 and 15, fewer in a reduced game */
} TakatPosition;

/** A turn: a drop on `to` (from == TAKAT_NO_CELL) or a move of one stone. */
typedef struct TakatTurn {
    uint8_t from;
    uint8_t to;
} TakatTurn;

typedef struct TakatTurnList {
    int count;
    TakatTurn turns[TAKAT_MAX_TURNS];
} TakatTurnList;

typedef enum TakatResult {
    TAKAT_ONGOING = 0,
    TAKAT_WHITE_WINS,
    TAKAT_BLACK_WINS,
    TAKAT_DRAW, /**< by third repetition (TakatGame) or by the solver's value */
} TakatResult;

/* ---- The board ----------------------------------------------------------- */

/** "a2", "b3", ... for cells 0..6; "-" for anything else. */
const char *takat_cell_name(int cell);
/** "White" or "Black" (anything but TAKAT_WHITE reads as "Black"), as
 * tak_color_name writes Tak's colours: the module shares only TakError with
 * the Tak library, so it names its own. */
const char *takat_color_name(TakatColor color);
/** The cell a two-character name denotes, or -1. */
int takat_cell_from_name(const char *name);
bool takat_cell_is_red(int cell);
bool takat_cells_adjacent(int a, int b);

/* ---- Positions ----------------------------------------------------------- */

/** The empty board, White to move, no ko. */
void takat_position_start(TakatPosition *pos);
/** The same for a reduced game: White with `white` stones in all (1-6), Black
 * with `black` (1-15); every rule is otherwise the same. Small games that
 * solve in moments, to check the solvers against each other. */
void takat_position_start_reduced(TakatPosition *pos, int white, int black);

/** The stone `level` (0 = bottom) of `cell`'s stack: TAKAT_WHITE or TAKAT_BLACK.
 * Needs level < height. */
static inline int takat_stone(const TakatPosition *pos, int cell, int level) {
    return (pos->stones[cell] >> level) & 1;
}

/** Stones a colour still has off the board. */
int takat_reserve(const TakatPosition *pos, int color);

/** The safety of `cell`'s top stone (TAKAT_UNSAFE for an empty cell). */
TakatSafety takat_safety(const TakatPosition *pos, int cell);

/** Whether `color` may move the top stone of `cell` under the safety rules
 * (not considering ko, forced drop or targets). */
bool takat_can_lift(const TakatPosition *pos, int cell, int color);

/** Whether Black must drop in this position (the forced-drop rule). */
bool takat_forced_drop(const TakatPosition *pos);

/** Whether some link joins two stacks of height 4 or more with safe tops of the
 * same colour: a position no legal turn can leave (rule 2). */
bool takat_breaks_adjacency(const TakatPosition *pos);

/** Whether a stack has reached six stones (the game is over: White won). */
bool takat_has_six(const TakatPosition *pos);

/** An exact 53-bit code of the position (board, side, ko; the reserves follow
 * from the board) and its inverse (a position of the real game, 6 and 15
 * stones: a reduced game's totals are the caller's to set). Equal keys mean
 * equal positions of one game. */
uint64_t takat_position_key(const TakatPosition *pos);
bool takat_position_from_key(uint64_t key, TakatPosition *pos);
/** The key mixed for use in hash tables. */
uint64_t takat_position_hash(const TakatPosition *pos);

/* ---- Turns --------------------------------------------------------------- */

static inline TakatTurn takat_drop(int to) {
    TakatTurn t = {TAKAT_NO_CELL, (uint8_t)to};
    return t;
}
static inline TakatTurn takat_move(int from, int to) {
    TakatTurn t = {(uint8_t)from, (uint8_t)to};
    return t;
}
static inline bool takat_is_drop(TakatTurn t) { return t.from == TAKAT_NO_CELL; }
static inline bool takat_turn_equal(TakatTurn a, TakatTurn b) {
    return a.from == b.from && a.to == b.to;
}

/** Every legal turn of `pos` (none once a stack of six stands), drops first in
 * cell order, then moves by source and target. Returns the count. */
int takat_turns_generate(const TakatPosition *pos, TakatTurnList *list);

/** Whether `turn` is legal in `pos`; when not, `err` says which rule of
 * takat.md forbids it (the first that does, in the spec's order). */
bool takat_turn_check(const TakatPosition *pos, TakatTurn turn, TakError *err);

/** Plays a turn (which must be legal) on `pos`. */
void takat_position_apply(TakatPosition *pos, TakatTurn turn);

/** The result of the position by itself (no history): White has won when a
 * stack of six stands, the side to move has lost when it has no legal turn. */
TakatResult takat_position_result(const TakatPosition *pos);

/* ---- Notation ------------------------------------------------------------ */

/** Reads a position string "a2,b3,a1,b2,c3,b1,c2 SIDE [KO]" (cells as stacks
 * from bottom to top, `1` White, `2` Black, `x` empty). On failure fills err
 * (column = 1-based byte where the problem is) and leaves *pos untouched. */
bool takat_position_parse(const char *text, TakatPosition *pos, TakError *err);
/** Writes the position string of `pos` into buf (TAKAT_POSITION_MAX bytes). */
const char *takat_position_format(const TakatPosition *pos, char *buf);

/** Reads a turn's text: a cell ("a2", a drop) or two joined by '-' ("b2-c3").
 * Checks the form only (cells exist, move between two different cells);
 * legality is takat_turn_check's. */
bool takat_turn_parse(const char *text, TakatTurn *turn, TakError *err);
/** Writes a turn's text into buf (TAKAT_TURN_MAX bytes). */
const char *takat_turn_format(TakatTurn turn, char *buf);

/* ---- Perft --------------------------------------------------------------- */

/** The number of legal turn sequences of exactly `depth` turns (a finished
 * position counts 0 below it; repetition is ignored). */
uint64_t takat_perft(const TakatPosition *pos, int depth);

/* ---- A game with history --------------------------------------------------- */

#define TAKAT_GAME_MAX_TURNS 4096

/** A game from a start position: the turns played, the position after each,
 * and the result, with the third occurrence of a position a draw. About
 * 50 KB; allocate it where convenient. */
typedef struct TakatGame {
    TakatPosition start;
    TakatPosition pos; /**< current */
    int count;         /**< turns played */
    TakatTurn turns[TAKAT_GAME_MAX_TURNS];
    uint64_t keys[TAKAT_GAME_MAX_TURNS + 1]; /**< key before turn i; keys[count] = current */
    TakatResult result;
} TakatGame;

/** Starts a game from `start` (NULL: the empty board). */
void takat_game_init(TakatGame *game, const TakatPosition *start);
/** Plays a turn if the game is ongoing and the turn legal; else fills err. */
bool takat_game_play(TakatGame *game, TakatTurn turn, TakError *err);
/** Takes back the last turn; false when there is none. */
bool takat_game_undo(TakatGame *game);
/** How many times the current position has occurred in the game (>= 1). */
int takat_game_occurrences(const TakatGame *game);

/* ---- Solving: retrograde analysis ------------------------------------------ */

/** The game-theoretic value of a position for the side to move. */
typedef enum TakatValue {
    TAKAT_VALUE_UNKNOWN = 0, /**< not in the table */
    TAKAT_VALUE_WIN = 1,
    TAKAT_VALUE_LOSS = 2,
    TAKAT_VALUE_DRAW = 3, /**< neither side can force a win (repetition: a draw) */
} TakatValue;

typedef struct TakatSolution TakatSolution; /**< opaque; owns its memory */

typedef struct TakatSolveStats {
    uint64_t positions;           /**< distinct positions reachable from the root */
    uint64_t links;               /**< turns between them (edges of the game graph) */
    uint64_t wins, losses, draws; /**< values for the side to move */
    int passes;                   /**< retrograde passes until nothing changed */
    int longest;                  /**< most turns in a won game with best play */
    double seconds;               /**< wall time of takat_solve */
    bool complete;                /**< false: the position limit stopped the enumeration */
} TakatSolveStats;

/** Called now and then with the figures so far (may be NULL). `phase` is
 * "enumerate" or "retrograde". */
typedef void (*TakatSolveProgress)(const char *phase, const TakatSolveStats *stats, void *user);

/** Enumerates every position reachable from `root` (NULL: the start) and
 * solves them all by retrograde analysis: a position with no legal turn is
 * lost, a stack of six is won for White, then pass by pass a position is won
 * when a turn reaches a lost one and lost when all its turns reach won ones;
 * what is never resolved is a draw. Stops with err filled (and NULL) when
 * more than `max_positions` are reachable or memory runs out; `stats` (may
 * be NULL) then holds how far the enumeration got. Memory: about 100 bytes
 * a position. */
TakatSolution *takat_solve(const TakatPosition *root, uint64_t max_positions,
                           TakatSolveProgress progress, void *user, TakatSolveStats *stats,
                           TakError *err);
void takat_solution_free(TakatSolution *sol);
TakatSolveStats takat_solution_stats(const TakatSolution *sol);

/** The value of `pos` for its side to move (UNKNOWN when the table does not
 * hold it) and, for a win or loss, in how many turns the game ends with best
 * play (the winner hurrying, the loser delaying); `distance` may be NULL. */
TakatValue takat_solution_value(const TakatSolution *sol, const TakatPosition *pos,
                                int *distance);

/** Re-derives every position's turns with the move generator (not the stored
 * graph) and checks the table: a win at distance d has a turn to a loss at
 * d-1, a loss has all its turns to wins (the longest at d-1), a draw has no
 * turn to a loss and one to a draw. Returns how many positions break this. */
uint64_t takat_solution_verify(const TakatSolution *sol);

/** Saves / loads the table (positions and values, a binary file). */
bool takat_solution_save(const TakatSolution *sol, const char *path, TakError *err);
TakatSolution *takat_solution_load(const char *path, TakError *err);

/* ---- Solving the whole game layer by layer (layers.c) ------------------------- */

/** Layer n holds every position with n stones on the board (any heights up to
 * five, any colours, either side to move, any ko). Drops lead from layer n to
 * n + 1 and moves stay in it, so the layers are solved from the fullest down,
 * each with the values of the one above; each solved layer is a file in a
 * directory (2 bits a position, with a checksum), so a run resumes at the
 * first layer that has no file. Values are for the side to move; a position
 * neither side can force to a win is a draw. */
typedef struct TakatLayers TakatLayers;

typedef struct TakatLayerStats {
    int layer;
    uint64_t positions; /**< positions in the layer */
    uint64_t wins, losses, draws;
    int rounds;         /**< rounds of backward spreading until nothing changed */
    double seconds;     /**< to solve it (across interruptions) */
    uint64_t bytes;     /**< the size of its values */
    uint64_t checksum;  /**< FNV-1a 64 of its values: equal tables, equal sums */
    int resumed_round;  /**< the round a saved point took it up again in, or -1 */
} TakatLayerStats;

/** Tables of the game with `white` and `black` stones in all (6 and 15: the
 * real game) kept in `dir` (which must exist). Nothing is read yet. */
TakatLayers *takat_layers_open(const char *dir, int white, int black, TakError *err);
void takat_layers_close(TakatLayers *layers);
/** Called by takat_layers_solve after each round of a layer: how many
 * positions that round decided and the seconds since the layer began. */
typedef void (*TakatLayersProgress)(void *ctx, int layer, int round, uint64_t decided,
                                    double seconds);
void takat_layers_on_progress(TakatLayers *layers, TakatLayersProgress fn, void *ctx);
/** Within a layer (the full game's take an hour or more each), the work so far
 * is saved to DIR/takat-W-B-layerNN.part every `seconds` (< 0: never; the
 * default is 600) and when `*stop` (may be NULL; set it from a signal
 * handler) turns nonzero, after which takat_layers_solve gives up with an
 * error saying so. The next solve of that layer goes on from the saved point
 * and removes the file when the layer is written. */
void takat_layers_on_checkpoint(TakatLayers *layers, double seconds,
                                const volatile sig_atomic_t *stop);
/** The fullest layer: white + black. */
int takat_layers_top(const TakatLayers *layers);
/** Whether layer n's file is there (its header; takat_layers_value checks the sum). */
bool takat_layers_have(const TakatLayers *layers, int n);
#define TAKAT_LAYERS_MAX_THREADS 64
/** Solves layer n (the layer above must be solved) on `threads`
 * (1 to TAKAT_LAYERS_MAX_THREADS) threads and writes its file; `stats` may be NULL. */
bool takat_layers_solve(TakatLayers *layers, int n, int threads, TakatLayerStats *stats, TakError *err);
/** The figures of a solved layer, from its file. */
bool takat_layers_stats(const TakatLayers *layers, int n, TakatLayerStats *stats);
/** The value of `pos` (its layer is loaded on first use); UNKNOWN with err
 * filled when the layer is missing or damaged. */
TakatValue takat_layers_value(TakatLayers *layers, const TakatPosition *pos, TakError *err);
/** The second path: rereads layer n and the one above and checks every
 * position against its turns (a win has a turn to a lost position, a loss only
 * turns to won ones, a draw no turn to a lost one and one to a drawn one).
 * Returns how many positions break this; UINT64_MAX with err filled when a
 * layer cannot be read. Runs on `threads` threads, as takat_layers_solve. */
uint64_t takat_layers_verify(TakatLayers *layers, int n, int threads, TakError *err);

/* ---- Search and levels ----------------------------------------------------- */

/** A best turn for `pos` by alpha-beta to `depth` turns (a quick, exact
 * search within its horizon); its score is > 0 when the side to move wins
 * within the horizon, < 0 when it loses, 0 otherwise. */
typedef struct TakatSearchResult {
    TakatTurn turn;
    int score;
    uint64_t nodes;
} TakatSearchResult;

/** Needs a position with legal turns. */
TakatSearchResult takat_search(const TakatPosition *pos, int depth);

/** The same search as a proof of how far no forced win reaches: iterative
 * deepening to `depth` turns in one search with a table of about `table_mb`
 * megabytes, calling `progress` (may be NULL) after each depth with the
 * result so far (nodes counted from the start). It stops at the first depth
 * whose score is forced. */
typedef void (*TakatProofProgress)(int depth, const TakatSearchResult *sofar, void *user);
TakatSearchResult takat_prove(const TakatPosition *pos, int depth, size_t table_mb,
                              TakatProofProgress progress, void *user);

/** The AI's choice at `level` 1..10: level 10 plays perfectly with the solved
 * table (`sol`, may be NULL) or the layered tables (`layers`, may be NULL:
 * a turn that keeps the value, the fastest win the search sees), else by a
 * deep search; lower levels search less deep and pick among near-best turns
 * at random. `seed` is the caller's random state (any value; it is
 * advanced). Needs a position with legal turns. */
TakatTurn takat_ai_choose(const TakatPosition *pos, int level, const TakatSolution *sol,
                          TakatLayers *layers, uint64_t *seed);
/** The same in a game, whose past positions level 10 uses with the layered
 * tables: a winner never repeats a position a third time (a draw). */
TakatTurn takat_ai_choose_in_game(const TakatGame *game, int level, const TakatSolution *sol,
                                  TakatLayers *layers, uint64_t *seed);

#endif
