/*
 * ordering.c: the order moves are searched in. The hash move first, then the
 * two killers of the ply, then the counter move (the reply that last refuted
 * the move just played: in Tak often the one square that blocks a road or
 * the capture that answers a spread), then the rest by history (how often a
 * move caused a cutoff, with gravity so old lessons fade) plus a prior: the
 * size's learned move policy (policy.c) where it has one, else a small
 * static preference: flats before capstones before spreads before walls.
 */
#include "internal.h"

#define SCORE_TT (1 << 30)
#define SCORE_KILLER ORDER_SCORE_SPECIAL
#define SCORE_COUNTER (SCORE_KILLER - 1) /* below the killers, above any history */

static inline unsigned counter_slot(TakMove answered) {
    return ((uint32_t)answered * 2654435761u) >> (32 - COUNTER_BITS);
}

/* The reply that last refuted the move that led to `ply`, or NONE. */
static inline TakMove counter_move(const SearchThread *t, int side, int ply) {
    TakMove prev = ply > 0 ? t->played[ply - 1] : TAK_MOVE_NONE;
    return prev == TAK_MOVE_NONE ? TAK_MOVE_NONE : t->counter[side][counter_slot(prev)];
}

/* order_score for the side `side`. `here`: the position is the node's own,
 * so the policy's prior can be worked out; otherwise (order_flush, deeper
 * in the path) a size with a policy is scored by history alone and the
 * prior added at order_resume. */
static int score_moves(const SearchThread *t, int side, const TakMove *moves, int *scores, int n,
                       TakMove tt_move, int ply, bool here) {
    const int16_t *hist = t->history[side];
    TakMove k0 = t->killers[ply][0], k1 = t->killers[ply][1], cm = counter_move(t, side, ply);
    const int16_t *policy = here ? t->policy : NULL;
    PolicyNode node;
    if (policy) node = policy_node(&t->pos, &t->masks);
    int tt_index = -1;
    for (int i = 0; i < n; i++) {
        TakMove m = moves[i];
        if (m == tt_move) {
            scores[i] = SCORE_TT;
            if (tt_index < 0) tt_index = i;
        } else if (m == k0) {
            scores[i] = SCORE_KILLER + 1;
        } else if (m == k1) {
            scores[i] = SCORE_KILLER;
        } else if (m == cm) {
            scores[i] = SCORE_COUNTER;
        } else {
            int prior = policy     ? policy_prior(policy, &t->pos, &t->masks, &node, m)
                        : t->policy ? 0 /* added at order_resume */
                                    : order_preference(m);
            scores[i] = hist[m & (HISTORY_SIZE - 1)] + prior;
        }
    }
    return tt_index;
}

int order_score(const SearchThread *t, const TakMove *moves, int *scores, int n, TakMove tt_move,
                int ply) {
    return score_moves(t, t->pos.side, moves, scores, n, tt_move, ply, true);
}

static inline int find(const TakMove *moves, int n, TakMove m) {
    for (int i = 0; i < n; i++)
        if (moves[i] == m) return i;
    return -1;
}

void order_first(SearchThread *t, TakMove *moves, int *scores, int n, TakMove tt_move, int ply) {
    /* The hash move scores above everything, then killer 0, then killer 1
     * (a move is scored as the first of the three it equals), then history
     * and preference (below SCORE_KILLER): the first place of the first of
     * the three that is among the moves holds the best score. */
    TakMove k0 = t->killers[ply][0], k1 = t->killers[ply][1];
    int at = -1, score = 0;
    if (tt_move != TAK_MOVE_NONE) at = find(moves, n, tt_move), score = SCORE_TT;
    if (at < 0 && k0 != tt_move) at = find(moves, n, k0), score = SCORE_KILLER + 1;
    if (at < 0 && k1 != tt_move && k1 != k0) at = find(moves, n, k1), score = SCORE_KILLER;
    if (at < 0) {
        order_score(t, moves, scores, n, tt_move, ply);
        order_pick(moves, scores, 0, n);
        return;
    }
    TakMove m = moves[0];
    moves[0] = moves[at];
    moves[at] = m;
    scores[0] = score;
    int side = t->pos.side;
    t->waiting[side][t->waiting_count[side]++] = (OrderWait){moves, scores, n, ply, tt_move, false};
}

void order_resume(SearchThread *t, int ply, bool need) {
    int side = t->pos.side, k = t->waiting_count[side];
    if (k == 0 || t->waiting[side][k - 1].ply != ply) return; /* not waiting */
    t->waiting_count[side] = k - 1;
    const OrderWait *w = &t->waiting[side][k - 1];
    if (!need) return;
    if (!w->flushed) {
        score_moves(t, side, w->moves, w->scores, w->n, w->tt_move, w->ply, true);
    } else if (t->policy) { /* history is in; the prior is not */
        PolicyNode node = policy_node(&t->pos, &t->masks);
        for (int i = 1; i < w->n; i++)
            if (w->scores[i] < SCORE_COUNTER)
                w->scores[i] += policy_prior(t->policy, &t->pos, &t->masks, &node, w->moves[i]);
    }
}

/* Works out the waiting scores of `side`, whose history is about to change:
 * every node waiting is on the path, inside its first move's search. They
 * stay waiting, scored, for order_resume to drop (or to add the prior to). */
static void order_flush(SearchThread *t, int side) {
    for (int k = 0; k < t->waiting_count[side]; k++) {
        OrderWait *w = &t->waiting[side][k];
        if (w->flushed) continue;
        score_moves(t, side, w->moves, w->scores, w->n, w->tt_move, w->ply, false);
        w->flushed = true;
    }
}

void order_swap(TakMove *moves, int *scores, int i, int j) {
    TakMove m = moves[i];
    moves[i] = moves[j];
    moves[j] = m;
    int s = scores[i];
    scores[i] = scores[j];
    scores[j] = s;
}

void order_pick(TakMove *moves, int *scores, int i, int n) {
    /* The best score first (a loop the compiler vectorises), then its first
     * place: the same move a scan keeping the first of equals would find. */
    int top = scores[i];
    for (int j = i + 1; j < n; j++) top = scores[j] > top ? scores[j] : top;
    int best = i;
    while (scores[best] != top) best++;
    if (best != i) order_swap(moves, scores, i, best);
}

void order_sort(TakMove *moves, int *scores, int64_t *keys, int from, int n) {
    /* Shell sort on one word per move, score above move: comparing a key
     * with a score times 2^32 compares the scores alone (the move is below
     * 2^32), so the order, ties included, is that of the same shell sort on
     * the two arrays, with half the loads and stores. */
    static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    int len = n - from;
    if (len < 2) return;
    for (int i = 0; i < len; i++) keys[i] = (int64_t)scores[from + i] * 4294967296 + moves[from + i];
    for (int g = 0; g < 8; g++) {
        int gap = gaps[g];
        for (int i = gap; i < len; i++) {
            int64_t k = keys[i];
            int64_t s = k - (int64_t)(uint32_t)k; /* the score part alone */
            int j = i;
            while (j >= gap && keys[j - gap] < s) {
                keys[j] = keys[j - gap];
                j -= gap;
            }
            keys[j] = k;
        }
    }
    for (int i = 0; i < len; i++) {
        moves[from + i] = (TakMove)keys[i];
        scores[from + i] = (int)((keys[i] - (int64_t)(uint32_t)keys[i]) / 4294967296);
    }
}

static inline void history_add(int16_t *h, int bonus) {
    int v = *h;
    v += bonus - v * (bonus < 0 ? -bonus : bonus) / 16384;
    if (v > 16000) v = 16000;
    if (v < -16000) v = -16000;
    *h = (int16_t)v;
}

void order_update(SearchThread *t, TakMove best, const TakMove *tried, int tried_count, int depth,
                  int ply) {
    order_flush(t, t->pos.side);
    int16_t *hist = t->history[t->pos.side];
    int bonus = depth * depth * 8;
    if (bonus > 4000) bonus = 4000;
    history_add(&hist[best & (HISTORY_SIZE - 1)], bonus);
    for (int i = 0; i < tried_count; i++)
        if (tried[i] != best) history_add(&hist[tried[i] & (HISTORY_SIZE - 1)], -bonus);
    if (ply > 0 && t->played[ply - 1] != TAK_MOVE_NONE)
        t->counter[t->pos.side][counter_slot(t->played[ply - 1])] = best;
    if (t->killers[ply][0] != best) {
        t->killers[ply][1] = t->killers[ply][0];
        t->killers[ply][0] = best;
    }
}
