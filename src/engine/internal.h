/*
 * internal.h (engine): what the engine's files share and the tuner reads:
 * the evaluation's feature vector and weights, the transposition table, the
 * per-thread search state, and the engine object itself. Nothing here is
 * global: every mutable thing hangs off a TakEngine.
 */
#ifndef TAK_ENGINE_INTERNAL_H
#define TAK_ENGINE_INTERNAL_H

/* Helper search threads (Lazy SMP) where the platform has them. WebAssembly
 * (wasm32-wasi, the page's engine) has none: the search runs on the
 * caller's thread alone. */
#ifdef __wasi__
#define ENGINE_THREADS 0
typedef int EngineThreadHandle;
#else
#define ENGINE_THREADS 1
#include <pthread.h>
typedef pthread_t EngineThreadHandle;
#endif
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/board.h" /* the bitboard helpers, shared with the core */
#include "tak/engine.h"
#include "tak/position.h"

/* ---- evaluation (evaluate.c, weights.c) ------------------------------- */

/* The features of a position, each White's minus Black's (or a signed
 * quantity from White's view). Every feature has two weights, one for the
 * opening and one for the end of the game; the evaluation blends them by the
 * game phase (0 at the start, EVAL_PHASE_MAX when the reserves or the board
 * run out) and divides by EVAL_SCALE: linear in the weights, so tools/tune
 * fits them by logistic regression on the results of self-play games.
 *
 * Square tables have one entry per class of squares equivalent under the
 * board's symmetries (EVAL_SQ_CLASSES on 7x7 and 8x8, fewer on smaller
 * boards; the unused ones stay 0). */
#define EVAL_SQ_CLASSES 10
#define EVAL_LINE_MAX 8

enum {
    F_TEMPO,                                      /* +1 White to move, -1 Black */
    F_PST_FLAT,                                   /* flats on top, by square class */
    F_PST_WALL = F_PST_FLAT + EVAL_SQ_CLASSES,    /* walls on top, by square class */
    F_PST_CAP = F_PST_WALL + EVAL_SQ_CLASSES,     /* capstones, by square class */
    F_SUPPORT_FLAT = F_PST_CAP + EVAL_SQ_CLASSES, /* own pieces under own flats, within the carry */
    F_SUPPORT_WALL,                               /* ... under own walls */
    F_SUPPORT_CAP,                                /* ... under own capstones */
    F_CAPTIVE_FLAT,                               /* opponent's pieces under own flats, within the carry */
    F_CAPTIVE_WALL,
    F_CAPTIVE_CAP,
    F_DEEP_OWN,                                   /* own pieces below the carry under own tops */
    F_DEEP_OPP,                                   /* opponent's pieces below the carry under own tops */
    F_STACK_TALL,                                 /* own stacks of height >= 3 */
    F_STACK_NEAR_OPP,                             /* opponent flats next to own stacks of height >= 2 */
    F_RESERVE,                                    /* stones left in reserve */
    F_COUNT_LEAD,                                 /* 2 * flats - half komi: the final count, in half flats */
    F_RACE_NEAR,                                  /* the count lead, the mover's next flat counted, times nearness of the end */
    F_RACE_SIGN,                                  /* who would win that count, times nearness of the end */
    F_ROAD1_MOVER,                                /* side to move: a placement completes a road */
    F_ROAD1_WAITER,                               /* the other side: a road threat */
    F_CRIT2_MOVER,                                /* two or more squares complete a road */
    F_CRIT2_WAITER,
    F_ROAD_2,                                     /* two placements from a road */
    F_ROAD_3,
    F_ROAD_4,
    F_ROAD_ROWS,                                  /* ranks/files spanned by the longest chain */
    F_GROUPS,                                     /* road groups (flats and capstones joined) */
    F_ADJACENT,                                   /* pairs of neighbouring road squares */
    F_LIBERTIES,                                  /* empty squares next to own road squares */
    F_LINE_OPEN,                                  /* ranks/files with k own road squares and no opponent top (k = 1..8) */
    F_LINE_CONTESTED = F_LINE_OPEN + EVAL_LINE_MAX, /* ... and some opponent top */
    F_CAP_FREE = F_LINE_CONTESTED + EVAL_LINE_MAX,  /* free neighbours of own capstones */
    F_CAP_NEAR_WALL,                              /* opponent's walls next to own capstones */
    F_WALL_BLOCK,                                 /* own walls next to opponent's road squares */
    F_CAP_BLOCK,                                  /* own capstones next to opponent's road squares */
    F_COUNT
};

#define EVAL_SCALE 16
#define EVAL_PHASE_MAX 64

typedef struct EvalWeights {
    int16_t w[F_COUNT][2]; /* [feature][opening, end] */
} EvalWeights;

/* Weights by board size (index 3..8); weights.c, rewritten by the tuner. */
extern const EvalWeights engine_weights[TAK_MAX_SIZE + 1];
/* The name of feature i, e.g. "pst_flat_3" (for the tuner's output). */
const char *engine_feature_name(int i, char buf[32]);

/* Fills f[F_COUNT] for `pos` (game not over) and returns the game phase,
 * 0..EVAL_PHASE_MAX. */
int engine_features(const TakPosition *pos, const BoardMasks *m, int f[F_COUNT]);

/* The evaluation from the side to move's view, in hundredths of a flat. */
int engine_evaluate(const TakPosition *pos, const BoardMasks *m, const EvalWeights *w);

/* The linear terms alone (engine_evaluate less the network). */
int engine_evaluate_linear(const TakPosition *pos, const BoardMasks *m, const EvalWeights *w);

/* ---- the network's correction (net.c, net_weights.c) ------------------- */

/* Inputs, all 0 or 1, from the side to move's view: for every square
 * NET_SQ_INPUTS slots (the top: own flat, wall, capstone, then the other
 * side's; then the pieces under it by depth 1..NET_BURIED, deeper ones in the
 * last, own and other's); each side's stones in reserve (one of NET_RESERVE),
 * capstones in reserve (one of 3 each), and the half komi by the mover's
 * colour (one of 18; komi 0 is one input for both colours). */
/* Hidden units: each size's network has its own count (EvalNet.hidden), a
 * multiple of NET_BLOCK up to NET_HIDDEN_MAX; tune net gives a new network
 * NET_HIDDEN_DEFAULT unless told otherwise. A wider network fits more of
 * what the data shows and costs its width in every evaluation. */
#define NET_BLOCK 128
#define NET_HIDDEN_MAX 512
#define NET_HIDDEN_DEFAULT 128
/* A width engine_net_forward can run: whole blocks, at most the largest. */
static inline bool engine_net_width_ok(int hidden) {
    return hidden >= NET_BLOCK && hidden <= NET_HIDDEN_MAX && hidden % NET_BLOCK == 0;
}
#define NET_BURIED 6
#define NET_SQ_INPUTS (6 + 2 * NET_BURIED)
#define NET_RESERVE 32
#define NET_MAX_ACTIVE (2 * TAK_MAX_RESERVE + 5) /* one a piece on the board, 5 beside */
#define NET_OUTPUT_SCALE 100.0f /* the output layer's unit, in hundredths of a flat */

typedef struct EvalNet {
    int inputs;      /* engine_net_input_count(size) */
    int hidden;      /* hidden units, a multiple of NET_BLOCK, at most NET_HIDDEN_MAX */
    const float *w1; /* [inputs][hidden], expanded at start-up from the stored form below */
    const float *b1; /* [hidden] */
    const float *w2; /* [hidden] */
    float b2;
    const char *made_by; /* the tune net command that fitted it */
} EvalNet;

/* The network of each size (index 3..8), NULL where there is none. */
extern const EvalNet *const engine_nets[TAK_MAX_SIZE + 1];

/* How net_weights.c stores each network's first layer, the bulk of its
 * weights (a quarter of the floats' bytes, which is most of the engine the
 * page downloads): each input's row as whole 127ths of that row's largest
 * magnitude. net.c expands every stored layer into the floats the network
 * reads once, at start-up, before main and so before any thread;
 * engine_net_pack is the writer's side (tune net), engine_net_unpack the
 * reader's, and unpack(pack(w)) packs to the same bytes again. */
/* The sizes whose networks are built in, a bit a size (all by default).
 * The page's build (Makefile: WASM_NET_SIZES) leaves out those it can do
 * without, so that the engine it downloads stays light: those sizes are
 * evaluated by the linear terms alone there. */
#ifndef NET_SIZES
#define NET_SIZES 0x1F8 /* 3 to 8 */
#endif
#define NET_BUILT(size) ((NET_SIZES >> (size)) & 1)

typedef struct NetStored {
    const int8_t *w1; /* [inputs][hidden] */
    const float *w1_max; /* [inputs]: each row's largest magnitude */
    float *w1_out;    /* [inputs][hidden]: what the EvalNet's w1 points at */
} NetStored;
extern const NetStored engine_nets_stored[TAK_MAX_SIZE + 1];

/* Packs `rows` rows of `width` floats into q and max; unpacks them. */
void engine_net_pack(const float *w1, int rows, int width, int8_t *q, float *max);
void engine_net_unpack(const int8_t *q, const float *max, int rows, int width, float *w1);

int engine_net_input_count(int size);
/* The inputs on in `pos` (not over), as indices; returns how many. A buried
 * piece deeper than NET_BURIED repeats its slot's index (an input of 2, 3 ...). */
int engine_net_inputs(const TakPosition *pos, uint16_t idx[NET_MAX_ACTIVE]);
/* Where `input` of a board of `size` goes under board symmetry `sym` (0..7:
 * bit 0 mirrors the files, bit 1 the ranks, bit 2 swaps ranks and files). */
int engine_net_input_under(int size, int sym, int input);
/* The network's output for those inputs, in hundredths of a flat; the
 * hidden units before clipping (net->hidden of them) go to `hidden` unless
 * it is NULL. */
float engine_net_forward(const EvalNet *net, const uint16_t *idx, int n, float *hidden);
/* The correction for `pos`, from the side to move's view. */
int engine_net_eval(const TakPosition *pos, const EvalNet *net);

/* ---- tactics (tactics.c) ---------------------------------------------- */

/* A move by which `color` would complete its road at once if it were to
 * move, or TAK_MOVE_NONE. */
TakMove engine_road_in_one(const TakPosition *pos, int color, const BoardMasks *m);

/* For `win`, a road in one of `color` (engine_road_in_one's), the squares a
 * move of the other side must change to stop it: the squares `win` lifts
 * from and covers, and every group of road squares that would join two
 * edges after it. A move that changes none of them (and does not end the
 * game itself) leaves `win` legal and winning. */
TakBitboard engine_parry_zone(const TakPosition *pos, int color, TakMove win, const BoardMasks *m);

/* The squares a move changes: a placement's square; a spread's stack and
 * the squares it covers. */
static inline TakBitboard engine_move_squares(TakMove mv, int size) {
    int sq = tak_move_square(mv);
    TakBitboard b = bit(sq);
    if (!tak_move_is_spread(mv)) return b;
    int step = board_step(tak_move_direction(mv), size);
    for (int i = tak_move_distance(mv); i > 0; i--) {
        sq += step;
        b |= bit(sq);
    }
    return b;
}

/* The road squares of `color` after its spread of (sq, code) by `step`,
 * `road` being its road squares now: a spread changes only the tops of its
 * own line (a wall that moves stays a wall; a capstone flattens one). */
static inline TakBitboard engine_road_after_spread(const TakPosition *pos, int color, int sq,
                                                   int step, unsigned code, TakBitboard road) {
    int h = pos->height[sq], k = 32 - __builtin_clz(code);
    bool moving_wall = (pos->walls & bit(sq)) != 0;
    TakStackBits carried = pos->stack[sq];
    TakBitboard r = road & ~bit(sq);
    if (h > k && (int)((carried >> k) & 1) == color) r |= bit(sq);
    int s = sq;
    for (unsigned c = code; c; c &= c - 1) {
        int i = __builtin_ctz(c);
        s += step;
        bool top_is_mover = (int)((carried >> (k - 1 - i)) & 1) == color;
        bool last = (c & (c - 1)) == 0;
        if (top_is_mover && !(last && moving_wall))
            r |= bit(s);
        else
            r &= ~bit(s);
    }
    return r;
}

/* A placement by which `color` would end the game at once (its last piece,
 * or the last empty square) and win the flat count, or TAK_MOVE_NONE. */
TakMove engine_flat_win_in_one(const TakPosition *pos, int color, const BoardMasks *m);

/* Either of the two: a win for `color` in one move. */
static inline TakMove engine_win_in_one(const TakPosition *pos, int color, const BoardMasks *m) {
    TakMove w = engine_road_in_one(pos, color, m);
    return w != TAK_MOVE_NONE ? w : engine_flat_win_in_one(pos, color, m);
}

/* ---- move policy (policy.c, policy_weights.c) ------------------------- */

/* A move's features (policy_features): indices into its size's weights,
 * POLICY_ACTIVE at most. Placements: the square's class, the mover's and
 * the opponent's tops next to it, the most road squares of each in its rank
 * or file, and the reserve's phase, each by the piece placed. Spreads: the
 * count lifted, the squares covered, the top's kind, a wall flattened, the
 * road squares it gains the mover and the opponent, the mover's longest
 * line after it and its gain, the stack's class, what it leaves on the
 * stack's square, and the phase. */
#define POLICY_CLASSES 10 /* board_square_class's, size 8 */
#define POLICY_NEAR 5     /* 0..4 tops next to a square */
#define POLICY_LINES 9    /* 0..8 squares of a rank or file */
#define POLICY_PHASES 4   /* the reserve in quarters */
#define POLICY_CARRY 8    /* 1..8 pieces lifted, 1..8 squares covered */
#define POLICY_GAIN_MAX 4 /* a change in squares counts as -4..4 */
#define POLICY_GAINS (2 * POLICY_GAIN_MAX + 1)
#define POLICY_ACTIVE 12
enum {
    POLICY_PLACE_CLASS = 0,
    POLICY_PLACE_OWN_NEAR = POLICY_PLACE_CLASS + 3 * POLICY_CLASSES,
    POLICY_PLACE_OPP_NEAR = POLICY_PLACE_OWN_NEAR + 3 * POLICY_NEAR,
    POLICY_PLACE_OWN_LINE = POLICY_PLACE_OPP_NEAR + 3 * POLICY_NEAR,
    POLICY_PLACE_OPP_LINE = POLICY_PLACE_OWN_LINE + 3 * POLICY_LINES,
    POLICY_PLACE_PHASE = POLICY_PLACE_OPP_LINE + 3 * POLICY_LINES,
    POLICY_SPREAD_COUNT = POLICY_PLACE_PHASE + 3 * POLICY_PHASES,
    POLICY_SPREAD_DISTANCE = POLICY_SPREAD_COUNT + POLICY_CARRY,
    POLICY_SPREAD_TOP = POLICY_SPREAD_DISTANCE + POLICY_CARRY,
    POLICY_SPREAD_FLATTEN = POLICY_SPREAD_TOP + 3,
    POLICY_SPREAD_OWN_GAIN = POLICY_SPREAD_FLATTEN + 1,
    POLICY_SPREAD_OPP_GAIN = POLICY_SPREAD_OWN_GAIN + POLICY_GAINS,
    POLICY_SPREAD_LINE = POLICY_SPREAD_OPP_GAIN + POLICY_GAINS,
    POLICY_SPREAD_LINE_GAIN = POLICY_SPREAD_LINE + POLICY_LINES,
    POLICY_SPREAD_CLASS = POLICY_SPREAD_LINE_GAIN + POLICY_GAINS,
    POLICY_SPREAD_LEFT = POLICY_SPREAD_CLASS + POLICY_CLASSES,
    POLICY_SPREAD_PHASE = POLICY_SPREAD_LEFT + 3,
    POLICY_FEATURES = POLICY_SPREAD_PHASE + POLICY_PHASES
};
/* A weight of 1.0 (one nat of the fitted softmax) is POLICY_UNIT. */
#define POLICY_UNIT 100

/* What every move of a node shares: each side's road squares, the mover's
 * longest line, the phase. */
typedef struct PolicyNode {
    TakBitboard own, opp;
    int longest, phase;
} PolicyNode;

PolicyNode policy_node(const TakPosition *pos, const BoardMasks *m);
/* Fills `active` with the features of `mv`, a legal move of `pos`; returns
 * how many (none for a pass). */
int policy_features(const TakPosition *pos, const BoardMasks *m, const PolicyNode *c, TakMove mv,
                    uint8_t active[POLICY_ACTIVE]);

/* Each size's weights (POLICY_FEATURES of them), or NULL for a size with
 * none. */
extern const int16_t *const policy_weights[TAK_MAX_SIZE + 1];
/* How each size's table was made (tune policy's command line), or NULL. */
extern const char *const policy_made_by[TAK_MAX_SIZE + 1];

static inline int policy_prior(const int16_t *w, const TakPosition *pos, const BoardMasks *m,
                               const PolicyNode *c, TakMove mv) {
    uint8_t active[POLICY_ACTIVE];
    int n = policy_features(pos, m, c, mv, active), s = 0;
    for (int i = 0; i < n; i++) s += w[active[i]];
    return s;
}

/* ---- transposition table (ttable.c) ----------------------------------- */

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

/* Two words, written and read with relaxed atomics: the key word is
 * key ^ data, so a torn entry (one word from another write) fails the check. */
typedef struct TTEntry {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
} TTEntry;

typedef struct TTable {
    TTEntry *entries;
    size_t count; /* a power of two, a multiple of TT_BUCKET */
    uint8_t age;
} TTable;

#define TT_BUCKET 4

typedef struct TTHit {
    TakMove move;
    int score, depth, bound, eval;
} TTHit;

bool tt_resize(TTable *tt, size_t megabytes);
void tt_free(TTable *tt);
void tt_clear(TTable *tt);
void tt_new_search(TTable *tt);
bool tt_probe(const TTable *tt, uint64_t key, TTHit *hit);
void tt_prefetch(const TTable *tt, uint64_t key);
void tt_store(TTable *tt, uint64_t key, TakMove move, int score, int depth, int bound, int eval);
int tt_hashfull(const TTable *tt);
/* Win scores are stored as distances from the node, not the root. */
int tt_score_to(int score, int ply);
int tt_score_from(int score, int ply);

/* ---- search state ----------------------------------------------------- */

#define MAX_PLY 96
#define MOVE_STACK 131072 /* moves of all the nodes on one search path */
#define SCORE_INF 32000
#define HISTORY_SIZE (1 << 18) /* a move's low 18 bits index it */
#define COUNTER_BITS 16 /* counter moves, by a hash of the move answered */
#define COUNTER_SIZE (1 << COUNTER_BITS)
#define CORR_BITS 14
#define CORR_GRAIN 16 /* corrections kept in 1/16 of a hundredth of a flat */
#define CORR_MAX 200

typedef struct RootMove {
    TakMove move;
    int score, prev_score;
    int pv_length;
    TakMove pv[TAK_PV_MAX];
} RootMove;

/* A node whose moves but the first wait to be scored (ordering.c). */
typedef struct OrderWait {
    TakMove *moves;
    int *scores;
    int n, ply;
    TakMove tt_move;
    bool flushed; /* scored by history before it changed; the prior still to add */
} OrderWait;

typedef struct SearchThread {
    struct TakEngine *engine;
    int id;
    EngineThreadHandle handle;
    TakPosition pos;
    BoardMasks masks;
    const EvalWeights *weights;
    const int16_t *policy;      /* the size's move policy, or NULL (ordering.c) */
    uint64_t key_salt;          /* rules (size, komi) folded into TT keys */

    uint64_t *path;             /* hashes: the game's history then the search path */
    size_t path_base, path_cap; /* root is at path[path_base] */

    _Atomic uint64_t nodes;
    int seldepth;
    int completed_depth;
    bool stopped;               /* this thread saw the stop flag */

    TakMove *moves;             /* the move stack (MOVE_STACK) */
    int *scores;
    int64_t *sort_keys;         /* order_sort's room (TAK_MAX_MOVES) */
    TakMoveList *scratch;       /* for tak_moves_generate */
    TakMove killers[MAX_PLY + 1][2];
    int16_t (*history)[HISTORY_SIZE]; /* [colour][move] */
    TakMove (*counter)[COUNTER_SIZE]; /* [colour][move answered]: the reply that refuted it last */
    TakMove played[MAX_PLY + 2];      /* the move made at each ply of the path (NONE: a null move) */
    OrderWait waiting[2][MAX_PLY + 1]; /* [colour]: nodes on the path, by ply */
    int waiting_count[2];
    int16_t (*corr)[1 << CORR_BITS];  /* [colour][tops]: correction history */
    int evals[MAX_PLY + 2];           /* static evaluation by ply (-SCORE_INF: none) */
    TakMove pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_length[MAX_PLY + 1];

    RootMove *root_moves;
    int root_count;
    int multipv_index;          /* the line being searched */
    int root_alpha_floor;       /* levels: root moves below this need no exact score */
    int root_depth;
} SearchThread;

/* Level parameters (level.c). */
typedef struct LevelParams {
    int max_depth;     /* 0: none */
    uint64_t max_nodes;
    int temperature;   /* in hundredths of a flat; 0: always the best */
    int margin;        /* root moves within this of the best are candidates */
} LevelParams;

LevelParams engine_level_params(int level);
/* Picks a root move among near-best ones with a softmax (deterministic given
 * `rng`). */
TakMove engine_level_choose(const RootMove *moves, int count, const LevelParams *lp,
                            uint64_t *rng);

/* Time budget (timeman.c). */
typedef struct TimeBudget {
    int64_t soft_ms; /* the time a move should take */
    int64_t hard_ms; /* stop the search at this; 0: no time limit */
    bool clock;      /* from a clock: soft is stretched or shrunk as the search goes */
} TimeBudget;

TimeBudget engine_time_budget(const TakSearchLimits *limits, const TakPosition *pos);
/* After an iteration that took `elapsed` ms: whether to start no other.
 * `stable` counts the iterations in a row that kept the best move (0 when it
 * just changed), `drop` is how far the score fell since the last iteration. */
bool engine_time_up(const TimeBudget *b, int64_t elapsed, int stable, int drop);
int64_t engine_now_ms(void);

struct TakEngine {
    TTable tt;
    int thread_count;
    SearchThread **threads;
    int level, multipv;
    uint64_t seed, rng;

    atomic_bool stop;
    /* The running search: set before threads start, read-only while they run. */
    TakSearchLimits limits;
    LevelParams level_params;
    TimeBudget budget;
    int64_t start_ms;
    uint64_t node_limit;
    int depth_limit;
    TakSearchReport report;
    void *report_user;
};

/* ---- ordering.c ------------------------------------------------------- */

/* Order scores from here up are the hash move and the killers: moves the
 * search neither reduces nor prunes late. (The counter move, just below, is
 * not: exempting it lost 8-49-3 to Tiltak on 5x5, bench/ELO.md.) */
#define ORDER_SCORE_SPECIAL (1 << 20)

/* The order of a size without a move policy, after history: flats before
 * capstones before spreads (the fewer lifted the better, covering more than
 * one square better still) before walls. */
static inline int order_preference(TakMove m) {
    switch (tak_move_kind(m)) {
    case TAK_PLACE_FLAT: return 300;
    case TAK_PLACE_CAP: return 150;
    case TAK_PLACE_WALL: return -300;
    default: return -40 * tak_move_count(m) + 100 * (tak_move_distance(m) > 1);
    }
}

/* Scores moves[0..n) for ordering: the hash move first, then road wins are
 * found separately; killers, the counter move, then history and a static
 * preference. Returns the first index of the hash move (the best score), or -1. */
int order_score(const SearchThread *t, const TakMove *moves, int *scores, int n, TakMove tt_move,
                int ply);
/* Puts the best-scored of moves[0..n) (the first of equals) in place 0 with
 * its score, as order_score then order_pick(0) would. When that is the hash
 * move or a killer, found without scoring, the other scores wait: most nodes
 * stop after their first move. They are worked out, as they stood here,
 * before any history write of the side (order_update) or by order_resume. */
void order_first(SearchThread *t, TakMove *moves, int *scores, int n, TakMove tt_move, int ply);
/* To be called at `ply` as soon as the first move's search returns: the
 * scores still waiting are worked out if `need`, else dropped. */
void order_resume(SearchThread *t, int ply, bool need);
/* Swaps the best-scored of moves[i..n) into place i (the first of equals). */
void order_pick(TakMove *moves, int *scores, int i, int n);
/* Swaps moves (and scores) i and j. */
void order_swap(TakMove *moves, int *scores, int i, int j);
/* Sorts moves[from..n) by score, best first, by a shell sort whose order of
 * equals the search's node counts depend on; keys: room for n - from. */
void order_sort(TakMove *moves, int *scores, int64_t *keys, int from, int n);
void order_update(SearchThread *t, TakMove best, const TakMove *tried, int tried_count, int depth,
                  int ply);

/* ---- search.c --------------------------------------------------------- */

/* Runs iterative deepening on thread t until stopped or out of depth. */
void search_iterate(SearchThread *t);
/* The side to move's score of a finished game, `ply` plies from the root. */
int search_terminal_score(const TakPosition *pos, int ply);

static inline uint64_t thread_nodes(SearchThread *t) {
    return atomic_load_explicit(&t->nodes, memory_order_relaxed);
}

uint64_t engine_total_nodes(const struct TakEngine *e);

#endif
