/**
 * \file
 * wager.h: the University gambling rules of the rule book (seed 003, "Tak:
 * A Beautiful Game", University Edition): antes, bidding for the first move,
 * calling Tak, the pot and the end reward. Pure bookkeeping on a plain
 * struct, no I/O and no randomness: the front end asks the players (or the
 * engine) and tells the ledger what they did.
 *
 * Players are numbered 0 and 1 for the whole match, whatever colour they
 * play in a game. Balances are net coins won (+) or lost (-) since the start
 * of the match, so nobody goes bankrupt and the two always sum to zero, less
 * what is still in the pot.
 */
#ifndef TAK_WAGER_H
#define TAK_WAGER_H

#include <stdbool.h>

#define TAK_WAGER_ANTE 10    /**< each player's stake at the start of a game */
#define TAK_WAGER_PENALTY 2  /**< what a player called Tak on adds to the pot */
#define TAK_WAGER_MAX_BID 99 /**< a bid is 0..this many coins */

typedef struct TakWager {
    int balance[2];  /**< net coins of each player since the match began */
    int pot;         /**< coins in the pot of the game being played */
    int last_caller; /**< the player whose Tak call was the last one to cost the
                        other a penalty (the rule book's token); -1 for none */
    int first;       /**< the player who won the bid and moves first; -1 before */
    int bid[2];      /**< this game's bids */
} TakWager;

/** How a game's pot was shared out, for the front end to report. */
typedef struct TakWagerSettlement {
    int winner;      /**< player 0 or 1; -1 for a draw */
    int pot;         /**< the pot the winner took (a draw: shared) */
    int bonus;       /**< coins the loser paid the winner: the winner's unplayed pieces */
    int carried;     /**< an odd coin of a drawn pot, left for the next game's pot */
} TakWagerSettlement;

/** A match with nothing won or lost yet. */
void tak_wager_init(TakWager *w);

/** Starts a game: both players ante TAK_WAGER_ANTE into the pot (which keeps
 * any coin carried from a drawn game), and nobody has called Tak yet. */
void tak_wager_start_game(TakWager *w);

/** The bidding for the first move: bids are clamped to 0..TAK_WAGER_MAX_BID.
 * The high bidder moves first and pays the bid into the pot (the other pays
 * nothing). On equal bids the rule book is silent: `tie_winner` (chosen at
 * random by the caller) moves first and pays. Returns the first player. */
int tak_wager_bid(TakWager *w, const int bids[2], int tie_winner);

/** True when a Tak called now by `caller` obliges the other player to pay the
 * penalty or resign: nobody can be made to pay twice in a row, so a call is
 * free when the same player made the last call that cost something. */
bool tak_wager_call_is_owed(const TakWager *w, int caller);

/** Records that `caller` called Tak. Returns true when the opponent must now
 * pay or resign (then record tak_wager_pay_penalty, or end the game with a
 * resignation); false when the call costs the opponent nothing. */
bool tak_wager_call_tak(TakWager *w, int caller);

/** `payer` adds TAK_WAGER_PENALTY coins to the pot. */
void tak_wager_pay_penalty(TakWager *w, int payer);

/** Ends the game. A winner (0 or 1) takes the pot plus, from the loser, one
 * coin per unplayed piece (stones and capstones) in the winner's reserve,
 * `winner_reserve`. A draw (winner -1) returns the pot in equal shares; an
 * odd coin stays in the pot for the next game. The pot is empty afterwards
 * (but for that coin). */
TakWagerSettlement tak_wager_finish(TakWager *w, int winner, int winner_reserve);

#endif
