/*
 * search.c: iterative deepening PVS with a shared transposition table, null
 * move and late-move reductions, a ply less where the table has no move for a
 * node, and a road-aware horizon: every node first
 * asks whether the side to move completes a road at once (a win), then
 * whether the opponent threatens one (the node is extended and may not stand
 * pat or null-move). Quiescence searches only answers to such threats.
 */
#include <limits.h>
#include <string.h>

#include "internal.h"
#include "params.h"

#define NULL_KEY 0x6A09E667F3BCC909ull

static const int lmp_limit[LMP_DEPTH + 1] = LMP_LIMITS;

int search_terminal_score(const TakPosition *pos, int ply) {
    int winner = pos->result.winner;
    if (winner < 0) return 0;
    return winner == (int)pos->side ? TAK_SCORE_WIN - ply : -(TAK_SCORE_WIN - ply);
}

/* Counts a node and says whether the search must stop. */
static bool node_and_check(SearchThread *t) {
    if (t->stopped) return true;
    uint64_t n = atomic_load_explicit(&t->nodes, memory_order_relaxed) + 1;
    atomic_store_explicit(&t->nodes, n, memory_order_relaxed);
    struct TakEngine *e = t->engine;
    if (e->node_limit && n >= e->node_limit) {
        atomic_store(&e->stop, true);
        t->stopped = true;
        return true;
    }
    if ((n & 255) == 0) {
        if (atomic_load_explicit(&e->stop, memory_order_relaxed)) {
            t->stopped = true;
            return true;
        }
        if (t->id == 0) {
            if (e->budget.hard_ms && engine_now_ms() - e->start_ms >= e->budget.hard_ms)
                atomic_store(&e->stop, true);
            if (e->node_limit && engine_total_nodes(e) >= e->node_limit)
                atomic_store(&e->stop, true);
            if (atomic_load(&e->stop)) t->stopped = true;
        }
    }
    return t->stopped;
}

/* True when the position at `ply` occurred before on the path or in the game
 * (placements cannot be undone, so the scan stops at the last one). */
static bool is_repetition(const SearchThread *t, int ply, size_t floor) {
    size_t cur = t->path_base + (size_t)ply;
    uint64_t h = t->path[cur];
    for (size_t i = cur; i-- > floor;)
        if (t->path[i] == h) return true;
    return false;
}

static inline void pv_set(SearchThread *t, int ply, TakMove m) {
    t->pv[ply][0] = m;
    int n = t->pv_length[ply + 1];
    if (n > MAX_PLY - ply - 1) n = MAX_PLY - ply - 1;
    memcpy(&t->pv[ply][1], &t->pv[ply + 1][0], (size_t)n * sizeof(TakMove));
    t->pv_length[ply] = n + 1;
}

/* Generates the moves at the top of the move stack; returns the count, or
 * -1 when the stack is full (the node is then treated as a leaf). */
static int generate(SearchThread *t, int base) {
    int n = tak_moves_generate(&t->pos, t->scratch);
    if (base + n > MOVE_STACK) return -1;
    memcpy(&t->moves[base], t->scratch->moves, (size_t)n * sizeof(TakMove));
    return n;
}

typedef struct NodeState {
    int stack_base; /* first free slot of the move stack */
    size_t rep_floor;
    /* The side to move is known to have no road in one: the parent found no
     * threat by it and then placed a piece or passed. A placement only takes
     * an empty square from the opponent (and may block a spread), so it never
     * gives the opponent a road in one it did not have. */
    bool no_win;
} NodeState;

/* The opponent's win in one at a node, which the side to move must stop. */
typedef struct Threat {
    bool on;
    TakMove road; /* its road in one, when it has one (else TAK_MOVE_NONE) */
} Threat;

static inline Threat opponent_threat(const SearchThread *t) {
    const TakPosition *pos = &t->pos;
    Threat th = {false, engine_road_in_one(pos, pos->side ^ 1, &t->masks)};
    th.on = th.road != TAK_MOVE_NONE ||
            engine_flat_win_in_one(pos, pos->side ^ 1, &t->masks) != TAK_MOVE_NONE;
    return th;
}

/* Under a road threat most moves change nothing the road needs: the
 * opponent's winning move stays legal and winning after them, so they lose
 * in two plies and need not be played out (the search used to make each
 * one and look for the road again). Drops from moves[0..n) those
 * engine_parry_zone shows cannot stop it, keeping any move that could end
 * the game itself (a placement of the last piece or on the last empty
 * square, a spread over every empty one); returns how many are left, and
 * the first one dropped in *dropped (TAK_MOVE_NONE when none was).
 * Nothing is dropped for a threat on flats, or when the rules make a
 * repetition a draw (a dropped move might then draw rather than lose; under
 * the standard rules it loses, though the search scores a repetition as 0). */
static int parry_candidates(const SearchThread *t, Threat th, TakMove *moves, int n,
                            TakMove *dropped) {
    const TakPosition *pos = &t->pos;
    *dropped = TAK_MOVE_NONE;
    if (th.road == TAK_MOVE_NONE || pos->rules.repetition_draw) return n;
    TakBitboard zone = engine_parry_zone(pos, pos->side ^ 1, th.road, &t->masks);
    TakBitboard empty = t->masks.all & ~(pos->owner[0] | pos->owner[1]);
    bool last_piece = pos->stones[pos->side] + pos->capstones[pos->side] <= 1;
    bool last_square = (empty & (empty - 1)) == 0;
    int size = pos->rules.size, kept = 0;
    for (int i = 0; i < n; i++) {
        TakBitboard changed = engine_move_squares(moves[i], size);
        bool ends = tak_move_is_spread(moves[i]) ? (empty & ~changed) == 0
                                                 : last_piece || last_square;
        if ((changed & zone) || ends)
            moves[kept++] = moves[i];
        else if (*dropped == TAK_MOVE_NONE)
            *dropped = moves[i];
    }
    return kept;
}

static int qsearch(SearchThread *t, int alpha, int beta, int ply, int qdepth, Threat threat,
                   NodeState ns);

/* The state of the child at ply + 1, `m` just played. `probe`: the child
 * will look in the table (it has depth left), so its entry is fetched now;
 * a fetch for a child that never looks (a leaf, most of them) costs more
 * than it saves (bench/ENGINE.md). */
static inline NodeState child_state(SearchThread *t, TakMove m, int ply, NodeState ns, int used,
                                    bool threat, bool probe) {
    NodeState c = {ns.stack_base + used, ns.rep_floor, !threat && !tak_move_is_spread(m)};
    if (probe) tt_prefetch(&t->engine->tt, t->pos.hash ^ t->key_salt);
    t->path[t->path_base + (size_t)ply + 1] = t->pos.hash;
    if (!tak_move_is_spread(m)) c.rep_floor = t->path_base + (size_t)ply + 1;
    return c;
}

static int qsearch(SearchThread *t, int alpha, int beta, int ply, int qdepth, Threat threat,
                   NodeState ns) {
    TakPosition *pos = &t->pos;
    t->pv_length[ply] = 0;
    if (!threat.on || ply >= MAX_PLY - 1 || qdepth >= QS_MAX_DEPTH)
        return engine_evaluate(pos, &t->masks, t->weights);
    /* The opponent wins next move unless this move stops it: no standing
     * pat, every move that might stop it is tried. */
    int n = generate(t, ns.stack_base);
    if (n <= 0) return engine_evaluate(pos, &t->masks, t->weights);
    TakMove *moves = &t->moves[ns.stack_base];
    int *scores = &t->scores[ns.stack_base];
    /* What a move that cannot stop the threat scores (a loss in two plies). */
    int best = -(TAK_SCORE_WIN - ply - 2);
    TakMove dropped;
    n = parry_candidates(t, threat, moves, n, &dropped);
    if (n == 0) return best;
    order_score(t, moves, scores, n, TAK_MOVE_NONE, ply);
    order_sort(moves, scores, t->sort_keys, 0, n);
    for (int i = 0; i < n; i++) {
        TakMove m = moves[i];
        TakUndo undo;
        t->played[ply] = m;
        tak_position_make(pos, m, &undo);
        NodeState cs = child_state(t, m, ply, ns, n, true, false);
        int score;
        t->pv_length[ply + 1] = 0;
        if (pos->result.end != TAK_END_NONE) {
            score = -search_terminal_score(pos, ply + 1);
        } else if (node_and_check(t)) {
            score = 0;
        } else if (engine_win_in_one(pos, pos->side, &t->masks) != TAK_MOVE_NONE) {
            score = -(TAK_SCORE_WIN - ply - 2);
        } else {
            /* A child at the last quiescence ply is evaluated whatever
             * threatens it: no need to look for a threat there. */
            Threat next = {false, TAK_MOVE_NONE};
            if (qdepth + 1 < QS_MAX_DEPTH) next = opponent_threat(t);
            score = -qsearch(t, -beta, -alpha, ply + 1, qdepth + 1, next, cs);
        }
        tak_position_unmake(pos, m, &undo);
        if (t->stopped) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                pv_set(t, ply, m);
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

static bool null_move_safe(const TakPosition *pos) {
    /* Near the end of the reserves or of the board, passing is a real
     * resource the rules deny (zugzwang): no null move there. */
    int side = pos->side, size = pos->rules.size;
    int own = pos->stones[side] + pos->capstones[side];
    int opp = pos->stones[side ^ 1] + pos->capstones[side ^ 1];
    int empty = size * size - __builtin_popcountll(pos->owner[0] | pos->owner[1]);
    return own > NULL_MIN_PIECES && opp > NULL_MIN_PIECES && empty > NULL_MIN_EMPTY;
}

/* Late-move reductions grow with the log of the depth and of the move's
 * place in the order. The logarithms are constants, log(n) to the last bit
 * (printed by Python's repr(math.log(n)); lmr_log[0] is never read), so
 * nothing is filled in at run time: the searches of many threads and many
 * engines share nothing that one of them writes. */
#define LMR_TOP 63
static const double lmr_log[LMR_TOP + 1] = {
    0, 0, 0.69314718055994529, 1.0986122886681098,
    1.3862943611198906, 1.6094379124341003, 1.791759469228055, 1.9459101490553132,
    2.0794415416798357, 2.1972245773362196, 2.3025850929940459, 2.3978952727983707,
    2.4849066497880004, 2.5649493574615367, 2.6390573296152584, 2.7080502011022101,
    2.7725887222397811, 2.8332133440562162, 2.8903717578961645, 2.9444389791664403,
    2.9957322735539909, 3.044522437723423, 3.0910424533583161, 3.1354942159291497,
    3.1780538303479458, 3.2188758248682006, 3.2580965380214821, 3.2958368660043291,
    3.3322045101752038, 3.3672958299864741, 3.4011973816621555, 3.4339872044851463,
    3.4657359027997265, 3.4965075614664802, 3.5263605246161616, 3.5553480614894135,
    3.5835189384561099, 3.6109179126442243, 3.6375861597263857, 3.6635616461296463,
    3.6888794541139363, 3.713572066704308, 3.7376696182833684, 3.7612001156935624,
    3.784189633918261, 3.8066624897703196, 3.8286413964890951, 3.8501476017100584,
    3.8712010109078911, 3.8918202981106265, 3.912023005428146, 3.9318256327243257,
    3.9512437185814275, 3.970291913552122, 3.9889840465642745, 4.0073331852324712,
    4.0253516907351496, 4.0430512678345503, 4.0604430105464191, 4.0775374439057197,
    4.0943445622221004, 4.1108738641733114, 4.1271343850450917, 4.1431347263915326,
};

static int lmr_reduction(int depth, int index) {
    if (depth < LMR_MIN || index < LMR_MIN) return 0;
    double r = LMR_BASE + lmr_log[depth < LMR_TOP ? depth : LMR_TOP] * lmr_log[index < LMR_TOP ? index : LMR_TOP] /
                              LMR_DIVISOR;
    return (int)r;
}

/* Correction history: how far the static evaluation was off, on average,
 * from the search's result in positions with the same tops (where each
 * side's flats, walls and capstones stand), by side to move. Added to the
 * static evaluation where pruning reads it. */
static inline int corr_index(const TakPosition *pos) {
    uint64_t h = (uint64_t)pos->owner[0] * 0x9E3779B97F4A7C15ull ^
                 (uint64_t)pos->owner[1] * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)pos->walls * 0x165667B19E3779F9ull;
    return (int)(h >> (64 - CORR_BITS));
}

static inline int corrected(const SearchThread *t, int eval) {
    return eval + t->corr[t->pos.side][corr_index(&t->pos)] / CORR_GRAIN;
}

static void corr_update(SearchThread *t, int eval, int score, int depth) {
    int16_t *c = &t->corr[t->pos.side][corr_index(&t->pos)];
    int diff = (score - eval) * CORR_GRAIN;
    int w = depth + 1 < CORR_WEIGHT_MAX ? depth + 1 : CORR_WEIGHT_MAX;
    int v = (*c * (CORR_WEIGHT_TOTAL - w) + diff * w) / CORR_WEIGHT_TOTAL;
    if (v > CORR_MAX * CORR_GRAIN) v = CORR_MAX * CORR_GRAIN;
    if (v < -CORR_MAX * CORR_GRAIN) v = -CORR_MAX * CORR_GRAIN;
    *c = (int16_t)v;
}

static int search(SearchThread *t, int alpha, int beta, int depth, int ply, bool null_ok,
                  NodeState ns) {
    TakPosition *pos = &t->pos;
    bool pv_node = beta - alpha > 1;
    t->pv_length[ply] = 0;
    if (pos->result.end != TAK_END_NONE) return search_terminal_score(pos, ply);
    if (is_repetition(t, ply, ns.rep_floor)) return 0;
    if (node_and_check(t)) return 0;
    if (ply > t->seldepth) t->seldepth = ply;

    TakMove win = ns.no_win ? TAK_MOVE_NONE : engine_road_in_one(pos, pos->side, &t->masks);
    if (win == TAK_MOVE_NONE) win = engine_flat_win_in_one(pos, pos->side, &t->masks);
    if (win != TAK_MOVE_NONE) {
        t->pv[ply][0] = win;
        t->pv_length[ply] = 1;
        return TAK_SCORE_WIN - ply - 1;
    }
    if (ply >= MAX_PLY - 2) return engine_evaluate(pos, &t->masks, t->weights);
    /* Mate distance: nothing here beats a win already found nearer the root. */
    if (alpha < -(TAK_SCORE_WIN - ply)) alpha = -(TAK_SCORE_WIN - ply);
    if (beta > TAK_SCORE_WIN - ply - 1) beta = TAK_SCORE_WIN - ply - 1;
    if (alpha >= beta) return alpha;

    Threat th = opponent_threat(t);
    bool threat = th.on;
    if (threat && ply < t->root_depth + THREAT_EXTENSION_PLIES) depth++;
    if (depth <= 0) return qsearch(t, alpha, beta, ply, 0, th, ns);

    uint64_t key = pos->hash ^ t->key_salt;
    TTHit hit;
    TakMove tt_move = TAK_MOVE_NONE;
    if (tt_probe(&t->engine->tt, key, &hit)) {
        tt_move = hit.move;
        int s = tt_score_from(hit.score, ply);
        if (!pv_node && hit.depth >= depth &&
            (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && s >= beta) ||
             (hit.bound == TT_UPPER && s <= alpha)))
            return s;
    }

    /* No move from the table: a node this search has not been to, whose
     * first move is a guess. Searched a ply shallower, it costs less, and
     * the next iteration finds a move stored to start with. */
    if (depth >= UNKNOWN_NODE_DEPTH && tt_move == TAK_MOVE_NONE && !threat) depth--;
    /* The static evaluation, moved by the correction history, serves the
     * pruning below, the improving test of the reductions and the
     * correction's own update; not worked out under a threat (no pruning,
     * no standing pat there). */
    bool prunable = !pv_node && !threat && beta < TAK_SCORE_WIN_MIN && beta > -TAK_SCORE_WIN_MIN;
    int raw_eval = !threat ? engine_evaluate(pos, &t->masks, t->weights) : 0;
    int eval = !threat ? corrected(t, raw_eval) : 0;
    t->evals[ply] = threat ? -SCORE_INF : eval;
    bool improving =
        ply >= 2 && !threat && t->evals[ply - 2] != -SCORE_INF && eval > t->evals[ply - 2];
    if (prunable) {
        if (depth <= FUTILITY_DEPTH && eval - FUTILITY_MARGIN * depth + FUTILITY_IMPROVING * improving >= beta)
            return eval;
        if (null_ok && depth >= NULL_MIN_DEPTH && eval >= beta && null_move_safe(pos)) {
            int r = NULL_REDUCTION + depth / NULL_REDUCTION_DIVISOR;
            t->played[ply] = TAK_MOVE_NONE;
            pos->side ^= 1;
            pos->ply++;
            pos->hash ^= NULL_KEY;
            NodeState cs = {ns.stack_base, ns.rep_floor, true};
            t->path[t->path_base + (size_t)ply + 1] = pos->hash;
            int s = -search(t, -beta, -beta + 1, depth - 1 - r, ply + 1, false, cs);
            pos->hash ^= NULL_KEY;
            pos->ply--;
            pos->side ^= 1;
            if (t->stopped) return 0;
            if (s >= beta) return s >= TAK_SCORE_WIN_MIN ? beta : s;
        }
    }

    int n = generate(t, ns.stack_base);
    if (n <= 0) return n < 0 ? engine_evaluate(pos, &t->masks, t->weights) : 0;
    TakMove *moves = &t->moves[ns.stack_base];
    int *scores = &t->scores[ns.stack_base];
    TakMove dropped = TAK_MOVE_NONE;
    if (threat) {
        n = parry_candidates(t, th, moves, n, &dropped);
        if (n == 0) return -(TAK_SCORE_WIN - ply - 2); /* each loses to the threat */
    }
    order_first(t, moves, scores, n, tt_move, ply);

    bool lmp_node = !pv_node && !threat && depth <= LMP_DEPTH;
    int alpha_orig = alpha, best = -SCORE_INF, tried = 0;
    TakMove best_move = TAK_MOVE_NONE;
    if (dropped != TAK_MOVE_NONE) { /* what it would have scored played out */
        best = -(TAK_SCORE_WIN - ply - 2);
        best_move = dropped;
    }
    for (int i = 0; i < n; i++) {
        /* The first few are picked one at a time (most nodes stop after one
         * or two moves), the rest sorted once; where late-move pruning will
         * leave all but the first few dozen, those are picked one at a time. */
        if (i > 0 && (i < 6 || lmp_node)) /* (the first placed by order_first) */
            order_pick(moves, scores, i, n);
        else if (i == 6)
            order_sort(moves, scores, t->sort_keys, 6, n);
        TakMove m = moves[i];
        bool special = scores[i] >= ORDER_SCORE_SPECIAL;
        /* Picked best first, so no later move is special either. */
        if (lmp_node && !special && tried >= lmp_limit[depth] &&
            best > -TAK_SCORE_WIN_MIN)
            break;
        TakUndo undo;
        t->played[ply] = m;
        tak_position_make(pos, m, &undo);
        NodeState cs = child_state(t, m, ply, ns, n, threat, depth >= 2);
        int new_depth = depth - 1, score;
        if (tried == 0) {
            score = -search(t, -beta, -alpha, new_depth, ply + 1, true, cs);
        } else {
            int r = special || threat ? 0 : lmr_reduction(depth, tried);
            if (r && pv_node) r--;
            if (r && !improving) r++;
            if (r > new_depth - 1) r = new_depth - 1 > 0 ? new_depth - 1 : 0;
            score = -search(t, -alpha - 1, -alpha, new_depth - r, ply + 1, true, cs);
            if (score > alpha && r)
                score = -search(t, -alpha - 1, -alpha, new_depth, ply + 1, true, cs);
            if (score > alpha && score < beta)
                score = -search(t, -beta, -alpha, new_depth, ply + 1, true, cs);
        }
        tak_position_unmake(pos, m, &undo);
        if (i == 0) order_resume(t, ply, score < beta && n > 1);
        if (t->stopped) return 0;
        moves[i] = m; /* tried moves stay in place for the history update */
        tried++;
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                pv_set(t, ply, m);
                if (alpha >= beta) {
                    order_update(t, m, moves, i, depth, ply);
                    break;
                }
            }
        }
    }
    if (best == -SCORE_INF) /* everything pruned: cannot happen with tried==0 kept */
        return !threat ? eval : engine_evaluate(pos, &t->masks, t->weights);
    int bound = best >= beta ? TT_LOWER : best > alpha_orig ? TT_EXACT : TT_UPPER;
    if (!threat && best > -TAK_SCORE_WIN_MIN && best < TAK_SCORE_WIN_MIN &&
        !(bound == TT_LOWER && best <= eval) && !(bound == TT_UPPER && best >= eval))
        corr_update(t, raw_eval, best, depth);
    tt_store(&t->engine->tt, key, best_move, tt_score_to(best, ply), depth, bound, eval);
    return best;
}

/* ---- root ------------------------------------------------------------- */

static void root_setup(SearchThread *t) {
    TakPosition *pos = &t->pos;
    int n = tak_moves_generate(pos, t->scratch);
    TTHit hit;
    TakMove tt_move = TAK_MOVE_NONE;
    if (tt_probe(&t->engine->tt, pos->hash ^ t->key_salt, &hit)) tt_move = hit.move;
    TakMove win = engine_win_in_one(pos, pos->side, &t->masks);
    memcpy(t->moves, t->scratch->moves, (size_t)n * sizeof(TakMove));
    order_score(t, t->moves, t->scores, n, tt_move, 0);
    for (int i = 0; i < n; i++)
        if (t->moves[i] == win) t->scores[i] = INT_MAX;
    order_sort(t->moves, t->scores, t->sort_keys, 0, n);
    for (int i = 0; i < n; i++) {
        RootMove *rm = &t->root_moves[i];
        rm->move = t->moves[i];
        rm->score = rm->prev_score = -SCORE_INF;
        rm->pv_length = 1;
        rm->pv[0] = rm->move;
    }
    t->root_count = n;
}

/* Moves root_moves[i] to place `to` (< i), shifting the others down. */
static void root_promote(SearchThread *t, int i, int to) {
    RootMove m = t->root_moves[i];
    memmove(&t->root_moves[to + 1], &t->root_moves[to], (size_t)(i - to) * sizeof(RootMove));
    t->root_moves[to] = m;
}

static int root_search(SearchThread *t, int alpha, int beta, int depth) {
    TakPosition *pos = &t->pos;
    struct TakEngine *e = t->engine;
    int first = t->multipv_index, best = -SCORE_INF;
    int margin = e->level_params.margin;
    NodeState ns = {0, 0, false};
    t->pv_length[0] = 0;
    for (int i = first; i < t->root_count; i++) {
        RootMove *rm = &t->root_moves[i];
        TakMove m = rm->move;
        TakUndo undo;
        t->played[0] = m;
        tak_position_make(pos, m, &undo);
        NodeState cs = child_state(t, m, 0, ns, 0, true, depth >= 2); /* the root's threat is not known */
        /* Levels want the score of every move near the best, not just the best. */
        int a = margin && best > -SCORE_INF ? best - margin : alpha;
        int score;
        if (pos->result.end != TAK_END_NONE) {
            score = -search_terminal_score(pos, 1);
            t->pv_length[1] = 0;
        } else if (i == first) {
            score = -search(t, -beta, -a, depth - 1, 1, true, cs);
        } else {
            score = -search(t, -a - 1, -a, depth - 1, 1, true, cs);
            if (score > a && score < beta) score = -search(t, -beta, -a, depth - 1, 1, true, cs);
        }
        tak_position_unmake(pos, m, &undo);
        if (t->stopped) break;
        rm->prev_score = rm->score;
        rm->score = score;
        if (i == first || score > a) {
            rm->pv[0] = m;
            int n = t->pv_length[1];
            if (n > TAK_PV_MAX - 1) n = TAK_PV_MAX - 1;
            memcpy(&rm->pv[1], t->pv[1], (size_t)n * sizeof(TakMove));
            rm->pv_length = n + 1;
        } else {
            rm->score = a < score ? a : score; /* an upper bound: not a candidate */
        }
        if (score > best) {
            best = score;
            /* Only a real score makes a move the best: one at or below `a`
             * is an upper bound, and a move promoted on one was played when
             * the search stopped before the iteration ended (on 4x4, moves
             * that lose to a road in a few; tests/test_engine.c). */
            if (i != first && score > a) root_promote(t, i, first);
            if (score > alpha) alpha = score;
            if (alpha >= beta) break;
        }
    }
    /* Keep the rest in order of their scores for the next iteration and lines. */
    if (!t->stopped) {
        for (int i = first + 2; i < t->root_count; i++) {
            RootMove m = t->root_moves[i];
            int j = i;
            while (j > first + 1 && t->root_moves[j - 1].score < m.score) {
                t->root_moves[j] = t->root_moves[j - 1];
                j--;
            }
            t->root_moves[j] = m;
        }
    }
    return best;
}

static void report_lines(SearchThread *t, int depth, int lines) {
    struct TakEngine *e = t->engine;
    if (e->report == NULL) return;
    for (int k = 0; k < lines && k < t->root_count; k++) {
        TakSearchInfo info;
        memset(&info, 0, sizeof info);
        info.depth = depth;
        info.seldepth = t->seldepth;
        info.multipv = k + 1;
        info.score = t->root_moves[k].score;
        info.nodes = engine_total_nodes(e);
        info.time_ms = engine_now_ms() - e->start_ms;
        info.hashfull = tt_hashfull(&e->tt);
        info.pv_length = t->root_moves[k].pv_length;
        memcpy(info.pv, t->root_moves[k].pv, (size_t)info.pv_length * sizeof(TakMove));
        e->report(&info, e->report_user);
    }
}

void search_iterate(SearchThread *t) {
    struct TakEngine *e = t->engine;
    t->evals[0] = -SCORE_INF;
    root_setup(t);
    int lines = e->multipv < t->root_count ? e->multipv : t->root_count;
    if (e->level_params.margin) lines = 1;
    int max_depth = e->depth_limit ? e->depth_limit : MAX_PLY - 10;
    int prev = 0;
    /* For the clock: how long the best move has stood, and the last score. */
    TakMove best_move = TAK_MOVE_NONE;
    int stable = 0, last_score = 0;
    for (int depth = 1 + (t->id & 1); depth <= max_depth; depth++) {
        t->root_depth = depth;
        t->seldepth = 0;
        for (int k = 0; k < lines; k++) {
            t->multipv_index = k;
            int alpha = -SCORE_INF, beta = SCORE_INF, window = ASPIRATION_WINDOW;
            bool aspire = depth >= ASPIRATION_DEPTH && lines == 1 && !e->level_params.margin &&
                          prev > -TAK_SCORE_WIN_MIN && prev < TAK_SCORE_WIN_MIN;
            if (aspire) {
                alpha = prev - window;
                beta = prev + window;
            }
            for (;;) {
                int score = root_search(t, alpha, beta, depth);
                if (t->stopped) break;
                if (score <= alpha && alpha > -SCORE_INF) {
                    window *= ASPIRATION_GROWTH;
                    alpha = score - window < -SCORE_INF / 2 ? -SCORE_INF : score - window;
                } else if (score >= beta && beta < SCORE_INF) {
                    window *= ASPIRATION_GROWTH;
                    beta = score + window > SCORE_INF / 2 ? SCORE_INF : score + window;
                } else {
                    if (k == 0) prev = score;
                    break;
                }
            }
            if (t->stopped) break;
        }
        if (t->stopped) break;
        t->completed_depth = depth;
        if (t->id != 0) continue;
        report_lines(t, depth, lines);
        int64_t elapsed = engine_now_ms() - e->start_ms;
        bool timed = e->budget.hard_ms > 0 && !e->limits.infinite;
        TakMove now_best = t->root_moves[0].move;
        stable = now_best == best_move ? stable + 1 : 0;
        best_move = now_best;
        int drop = last_score - t->root_moves[0].score;
        last_score = t->root_moves[0].score;
        if (timed && engine_time_up(&e->budget, elapsed, stable, depth > 1 ? drop : 0)) break;
        if (timed && t->root_count == 1) break;
        int s = t->root_moves[0].score;
        if (!e->limits.infinite && (s >= TAK_SCORE_WIN_MIN || s <= -TAK_SCORE_WIN_MIN) &&
            depth >= TAK_SCORE_WIN - (s < 0 ? -s : s) + 2)
            break;
    }
}
