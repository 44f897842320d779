/*
 * ordering.c: the order moves are searched in. The hash move first, then the
 * two killers of the ply, then the rest by history (how often a move caused a
 * cutoff, with gravity so old lessons fade) plus a small static preference:
 * flats before capstones before spreads before walls.
 */
#include "internal.h"

#define SCORE_TT (1 << 30)
#define SCORE_KILLER (1 << 20)

static inline int static_preference(TakMove m) {
    switch (tak_move_kind(m)) {
    case TAK_PLACE_FLAT: return 300;
    case TAK_PLACE_CAP: return 150;
    case TAK_PLACE_WALL: return -300;
    default: return -40 * tak_move_count(m) + 100 * (tak_move_distance(m) > 1);
    }
}

void order_score(const SearchThread *t, const TakMove *moves, int *scores, int n, TakMove tt_move,
                 int ply) {
    const int16_t *hist = t->history[t->pos.side];
    TakMove k0 = t->killers[ply][0], k1 = t->killers[ply][1];
    for (int i = 0; i < n; i++) {
        TakMove m = moves[i];
        if (m == tt_move)
            scores[i] = SCORE_TT;
        else if (m == k0)
            scores[i] = SCORE_KILLER + 1;
        else if (m == k1)
            scores[i] = SCORE_KILLER;
        else
            scores[i] = hist[m & (HISTORY_SIZE - 1)] + static_preference(m);
    }
}

void order_pick(TakMove *moves, int *scores, int i, int n) {
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (scores[j] > scores[best]) best = j;
    if (best != i) {
        TakMove m = moves[i];
        moves[i] = moves[best];
        moves[best] = m;
        int s = scores[i];
        scores[i] = scores[best];
        scores[best] = s;
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
    int16_t *hist = t->history[t->pos.side];
    int bonus = depth * depth * 8;
    if (bonus > 4000) bonus = 4000;
    history_add(&hist[best & (HISTORY_SIZE - 1)], bonus);
    for (int i = 0; i < tried_count; i++)
        if (tried[i] != best) history_add(&hist[tried[i] & (HISTORY_SIZE - 1)], -bonus);
    if (t->killers[ply][0] != best) {
        t->killers[ply][1] = t->killers[ply][0];
        t->killers[ply][0] = best;
    }
}
