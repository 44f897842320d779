/*
 * play_opponent.c: the simplest opponent worth playing: it takes a road win
 * when it sees one, blocks a road threat when it can, and otherwise plays at
 * random among the moves that do not lose on the spot. One ply of lookahead
 * and nothing more; the search engine replaces it.
 */
#include "play.h"

/* splitmix64: spreads any seed (0 included) over the whole state. */
void play_opponent_init(PlayOpponent *op, uint64_t seed) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    op->state = (z ^ (z >> 31)) | 1;
}

uint32_t play_random(PlayOpponent *op, uint32_t n) {
    /* xorshift64*: good enough for picking moves, and state is explicit. */
    op->state ^= op->state >> 12;
    op->state ^= op->state << 25;
    op->state ^= op->state >> 27;
    uint64_t r = op->state * 0x2545F4914F6CDD1Dull;
    return (uint32_t)((r >> 32) % n);
}

/* What a move leads to, one ply ahead, in order of preference. */
typedef enum Outcome {
    OUTCOME_ROAD_WIN,  /* completes the mover's road */
    OUTCOME_STOPS_TAK, /* the other side threatened a road, and no longer does */
    OUTCOME_OTHER,
    OUTCOME_LOSS, /* ends the game in the other side's favour */
    OUTCOME_KINDS
} Outcome;

static Outcome outcome(TakPosition *pos, TakMove move, bool threatened) {
    TakColor me = tak_position_side(pos), them = (TakColor)!me;
    TakUndo undo;
    tak_position_make(pos, move, &undo);
    TakResult r = tak_position_result(pos);
    Outcome o = OUTCOME_OTHER;
    if (r.end == TAK_END_ROAD && r.winner == (int)me)
        o = OUTCOME_ROAD_WIN;
    else if (r.end != TAK_END_NONE && r.winner == (int)them)
        o = OUTCOME_LOSS;
    else if (threatened && !tak_position_has_tak(pos, them))
        o = OUTCOME_STOPS_TAK;
    tak_position_unmake(pos, move, &undo);
    return o;
}

TakMove play_opponent_choose(PlayOpponent *op, const TakPosition *start) {
    TakPosition pos = *start;
    TakMoveList list;
    int n = tak_moves_generate(&pos, &list);
    if (n == 0) return TAK_MOVE_NONE;
    bool threatened = tak_position_has_tak(&pos, (TakColor)!tak_position_side(&pos));
    uint8_t kind[TAK_MAX_MOVES];
    int counts[OUTCOME_KINDS] = {0};
    for (int i = 0; i < n; i++)
        counts[kind[i] = (uint8_t)outcome(&pos, list.moves[i], threatened)]++;
    /* The best kind there is, then a random move of that kind. */
    int best = 0;
    while (counts[best] == 0) best++;
    uint32_t pick = play_random(op, (uint32_t)counts[best]);
    for (int i = 0; i < n; i++)
        if (kind[i] == best && pick-- == 0) return list.moves[i];
    return list.moves[0]; /* not reached: counts[best] moves are of that kind */
}
