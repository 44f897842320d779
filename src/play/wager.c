/*
 * wager.c: the ledger of the University gambling rules (see tak/wager.h).
 * Every coin moves between a balance and the pot, or from one balance to the
 * other, so the balances plus the pot always sum to zero.
 */
#include "tak/wager.h"

#include <string.h>

void tak_wager_init(TakWager *w) {
    memset(w, 0, sizeof *w);
    w->last_caller = -1;
    w->first = -1;
}

void tak_wager_start_game(TakWager *w) {
    for (int p = 0; p < 2; p++) {
        w->balance[p] -= TAK_WAGER_ANTE;
        w->pot += TAK_WAGER_ANTE;
        w->bid[p] = 0;
    }
    w->last_caller = -1;
    w->first = -1;
}

static int clamp_bid(int bid) {
    return bid < 0 ? 0 : bid > TAK_WAGER_MAX_BID ? TAK_WAGER_MAX_BID : bid;
}

int tak_wager_bid(TakWager *w, const int bids[2], int tie_winner) {
    w->bid[0] = clamp_bid(bids[0]);
    w->bid[1] = clamp_bid(bids[1]);
    int first = w->bid[0] > w->bid[1] ? 0 : w->bid[1] > w->bid[0] ? 1 : (tie_winner != 0);
    w->balance[first] -= w->bid[first];
    w->pot += w->bid[first];
    w->first = first;
    return first;
}

bool tak_wager_call_is_owed(const TakWager *w, int caller) { return w->last_caller != caller; }

bool tak_wager_call_tak(TakWager *w, int caller) {
    if (!tak_wager_call_is_owed(w, caller)) return false;
    /* The token passes to the caller: the next call that costs anything
     * must come from the other player. */
    w->last_caller = caller;
    return true;
}

void tak_wager_pay_penalty(TakWager *w, int payer) {
    w->balance[payer] -= TAK_WAGER_PENALTY;
    w->pot += TAK_WAGER_PENALTY;
}

TakWagerSettlement tak_wager_finish(TakWager *w, int winner, int winner_reserve) {
    TakWagerSettlement s = {.winner = winner < 0 ? -1 : (winner != 0)};
    if (s.winner < 0) {
        int share = w->pot / 2;
        w->balance[0] += share;
        w->balance[1] += share;
        s.pot = w->pot;
        s.carried = w->pot - 2 * share;
        w->pot = s.carried;
    } else {
        int loser = !s.winner;
        s.pot = w->pot;
        s.bonus = winner_reserve > 0 ? winner_reserve : 0;
        w->balance[s.winner] += w->pot + s.bonus;
        w->balance[loser] -= s.bonus;
        w->pot = 0;
    }
    w->last_caller = -1;
    return s;
}
