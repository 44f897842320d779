/*
 * score.c: the rule book's multi-game scoring (see tak/score.h).
 */
#include "tak/score.h"

#include <string.h>

void tak_score_init(TakMatchScore *score, int first_player) {
    memset(score, 0, sizeof *score);
    score->first_player = first_player != 0;
}

int tak_score_first_player(const TakMatchScore *score, int game) {
    return game < 1 ? score->first_player : (score->first_player + game - 1) % 2;
}

int tak_score_points(const TakPosition *pos, TakResult result) {
    if (result.end == TAK_END_NONE || result.winner < 0) return 0;
    int size = tak_position_size(pos), w = result.winner;
    return size * size + pos->stones[w] + pos->capstones[w];
}

void tak_score_record(TakMatchScore *score, int winner, int points) {
    score->games++;
    if (winner < 0) {
        score->draws++;
        return;
    }
    winner = winner != 0;
    score->wins[winner]++;
    score->points[winner] += points;
}

int tak_score_leader(const TakMatchScore *score) {
    if (score->points[0] == score->points[1]) return -1;
    return score->points[0] > score->points[1] ? 0 : 1;
}
