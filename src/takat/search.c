/*
 * search.c: alpha-beta over TAKAT turns with a transposition table. Scores
 * are exact within the horizon (TAKAT_MATE - k for a win in k turns, the
 * negation for a loss); at the horizon a position scores 0, or a small
 * mobility count when the searcher asks for a heuristic (the AI's levels).
 * Repetition is ignored: a forced win found within a horizon never needs
 * one (the shortest win repeats no position), so such a win is real.
 */
#include "internal.h"

#include <stdlib.h>

/* Turns the side to move has, minus the opponent's in the same position. */
static int mobility(const TakatPosition *pos) {
    TakatTurnList list;
    TakatPosition other = *pos;
    other.side ^= 1;
    other.ko = TAKAT_NO_CELL;
    int mine = takat_turns_generate(pos, &list);
    int theirs = takat_turns_generate(&other, &list);
    return mine - theirs;
}

static int to_tt(int score, int ply) {
    if (score > TAKAT_MATE / 2) return score + ply;
    if (score < -TAKAT_MATE / 2) return score - ply;
    return score;
}

static int from_tt(int score, int ply) {
    if (score > TAKAT_MATE / 2) return score - ply;
    if (score < -TAKAT_MATE / 2) return score + ply;
    return score;
}

int takat_negamax(TakatSearcher *s, const TakatPosition *pos, int depth, int ply, int alpha,
                  int beta) {
    s->nodes++;
    if (takat_has_six(pos)) /* White made it on the last turn */
        return pos->side == TAKAT_WHITE ? TAKAT_MATE - ply : -(TAKAT_MATE - ply);
    TakatTurnList list;
    int n = takat_turns_generate(pos, &list);
    if (n == 0) return -(TAKAT_MATE - ply);
    if (depth <= 0) return s->heuristic ? mobility(pos) : 0;

    uint64_t key = takat_position_key(pos);
    /* Two slots a position: the first keeps the deeper result, the second
     * the latest, so deep proofs survive a table that fills up. */
    TakatTTEntry *slots = s->tt ? &s->tt[takat_position_hash(pos) & s->tt_mask & ~1ull] : NULL;
    TakatTTEntry *e = NULL;
    if (slots) e = slots[0].key == key ? &slots[0] : &slots[1];
    int first = 0;
    if (e && e->key == key) {
        int score = from_tt(e->score, ply);
        /* A win or loss found by a deeper search is used only where it ends
         * within this node's horizon: one beyond it would be a result this
         * search cannot see, and its distances would no longer be exact. */
        int stored = e->score < 0 ? -e->score : e->score;
        int turns = stored > TAKAT_MATE / 2 ? TAKAT_MATE - stored : 0;
        if (e->depth >= depth && turns <= depth) {
            if (e->bound == 3) return score;
            if (e->bound == 1 && score >= beta) return score;
            if (e->bound == 2 && score <= alpha) return score;
        }
        if (e->best && e->best <= n) first = e->best - 1;
    }
    /* Try the remembered best turn first. */
    TakatTurn t0 = list.turns[0];
    list.turns[0] = list.turns[first];
    list.turns[first] = t0;

    int best = -TAKAT_MATE - 1, best_index = 0, alpha0 = alpha;
    for (int i = 0; i < n; i++) {
        TakatPosition next = *pos;
        takat_position_apply(&next, list.turns[i]);
        int score = -takat_negamax(s, &next, depth - 1, ply + 1, -beta, -alpha);
        if (score > best) {
            best = score;
            best_index = i;
        }
        if (score > alpha) alpha = score;
        if (alpha >= beta) break;
    }
    if (slots) {
        if (e->key != key) e = depth >= slots[0].depth ? &slots[0] : &slots[1];
        /* The table holds indices into the generator's order. */
        int index = best_index == 0 ? first : best_index == first ? 0 : best_index;
        e->key = key;
        e->score = (int16_t)to_tt(best, ply);
        e->depth = (int8_t)depth;
        e->bound = best <= alpha0 ? 2 : best >= beta ? 1 : 3;
        e->best = (uint8_t)(index + 1);
    }
    return best;
}

/* Iterative deepening from `pos` to `depth` turns on searcher `s`; calls
 * `progress` after each depth. Stops early once the result is forced. */
static TakatSearchResult deepen(TakatSearcher *s, const TakatPosition *pos, int depth,
                                TakatProofProgress progress, void *user) {
    TakatSearchResult r = {{TAKAT_NO_CELL, TAKAT_NO_CELL}, 0, 0};
    TakatTurnList list;
    int n = takat_turns_generate(pos, &list);
    for (int d = 1; d <= depth && n > 0; d++) {
        int best = -TAKAT_MATE - 1;
        for (int i = 0; i < n; i++) {
            TakatPosition next = *pos;
            takat_position_apply(&next, list.turns[i]);
            int score = -takat_negamax(s, &next, d - 1, 1, -TAKAT_MATE - 1, -best);
            if (score > best) {
                best = score;
                r.turn = list.turns[i];
            }
        }
        r.score = best;
        r.nodes = s->nodes;
        if (progress) progress(d, &r, user);
        if (best > TAKAT_MATE / 2 || best < -TAKAT_MATE / 2) break; /* decided */
    }
    r.nodes = s->nodes;
    return r;
}

void takat_searcher_init(TakatSearcher *s, unsigned table_bits, bool heuristic) {
    *s = (TakatSearcher){NULL, (1ull << table_bits) - 1, 0, heuristic};
    s->tt = calloc(s->tt_mask + 1, sizeof *s->tt);
    if (!s->tt) s->tt_mask = 0;
}

void takat_searcher_free(TakatSearcher *s) {
    free(s->tt);
    s->tt = NULL;
    s->tt_mask = 0;
}

TakatSearchResult takat_search(const TakatPosition *pos, int depth) {
    TakatSearcher s;
    takat_searcher_init(&s, 22, false);
    TakatSearchResult r = deepen(&s, pos, depth, NULL, NULL);
    takat_searcher_free(&s);
    return r;
}

TakatSearchResult takat_prove(const TakatPosition *pos, int depth, size_t table_mb,
                              TakatProofProgress progress, void *user) {
    /* The largest power of two of entries that fits (at least 2^10). */
    unsigned bits = 10;
    while (bits < 40 && (sizeof(TakatTTEntry) << (bits + 1)) <= table_mb * 1024 * 1024) bits++;
    TakatSearcher s;
    takat_searcher_init(&s, bits, false);
    TakatSearchResult r = deepen(&s, pos, depth, progress, user);
    takat_searcher_free(&s);
    return r;
}
