/*
 * timeman.c: how long a search may take. With clocks a move should take a
 * share of the time left (a Tak game lasts about as many more moves as the
 * smaller of the reserve and the empty squares, so that sets the share) plus
 * most of the increment. The search then stops sooner when its best move has
 * stood for several iterations and goes on longer when it has just changed
 * or the score is falling. A hard limit caps one move and always leaves a
 * safety margin on the clock, so the engine never loses on time.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "internal.h"
#include "params.h"

int64_t engine_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Never use more than the time left minus a reserve. */
static int64_t clock_cap(int64_t left) {
    int64_t cap = left - CLOCK_RESERVE_MS - left / CLOCK_RESERVE_DIVISOR;
    if (cap < left / 4) cap = left / 4; /* a nearly empty clock: still answer quickly */
    return cap < 1 ? 1 : cap;
}

TimeBudget engine_time_budget(const TakSearchLimits *limits, const TakPosition *pos) {
    TimeBudget b = {0, 0, false};
    if (limits->infinite) return b;
    if (limits->movetime_ms > 0) {
        int64_t mt = limits->movetime_ms;
        int64_t margin = mt / 10 < MOVETIME_MARGIN_MS ? mt / 10 : MOVETIME_MARGIN_MS;
        b.hard_ms = b.soft_ms = mt - margin < 1 ? 1 : mt - margin;
        return b;
    }
    int side = pos->side;
    int64_t left = limits->time_left_ms[side], inc = limits->increment_ms[side];
    if (left <= 0 && inc <= 0) return b; /* no clock given */
    if (left <= 0) left = 1;
    int mtg = limits->moves_to_go;
    if (mtg <= 0) {
        int size = pos->rules.size;
        int reserve = pos->stones[side] + pos->capstones[side];
        int empty = size * size - __builtin_popcountll(pos->owner[0] | pos->owner[1]);
        int rest = reserve < empty ? reserve : empty;
        int least = size == 4 ? MOVES_LEFT_MIN_4X4 : MOVES_LEFT_MIN;
        mtg = rest < least ? least : rest > MOVES_LEFT_MAX ? MOVES_LEFT_MAX : rest;
    }
    int64_t base = left / mtg + inc * INC_SHARE_PER_MILLE / 1000;
    int64_t cap = clock_cap(left);
    b.soft_ms = base < cap ? base : cap;
    int64_t hard = base * HARD_SHARES;
    if (hard > left / HARD_CLOCK_DIVISOR + inc) hard = left / HARD_CLOCK_DIVISOR + inc;
    if (hard > cap) hard = cap;
    if (hard < b.soft_ms) hard = b.soft_ms;
    b.hard_ms = hard < 1 ? 1 : hard;
    if (b.soft_ms < 1) b.soft_ms = 1;
    b.clock = true;
    return b;
}

bool engine_time_up(const TimeBudget *b, int64_t elapsed, int stable, int drop) {
    if (!b->clock) return elapsed >= b->soft_ms;
    /* Per mille of the soft budget, by how long the best move has stood. */
    static const int by_stability[] = STABILITY_PER_MILLE;
    enum { STABLE_MAX = sizeof by_stability / sizeof by_stability[0] - 1 };
    int64_t target = b->soft_ms * by_stability[stable < STABLE_MAX ? stable : STABLE_MAX] / 1000;
    if (drop > 0) target += target * (drop < SCORE_DROP_MAX ? drop : SCORE_DROP_MAX) / SCORE_DROP_DIVISOR;
    if (target > b->hard_ms) target = b->hard_ms;
    /* An iteration takes about twice the last: one started past half the
     * target would most likely end far past it. */
    return elapsed >= target / 2;
}
