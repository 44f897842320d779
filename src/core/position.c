/* position.c: creating positions, building them from parts, and comparing them. */
#include "tak/position.h"

#include <string.h>

#include "board.h"
#include "internal.h"

bool tak_position_clear(TakPosition *pos, const TakRules *rules, TakError *err) {
    if (!tak_rules_validate(rules, err)) return false;
    memset(pos, 0, sizeof *pos);
    pos->rules = *rules;
    pos->stones[0] = pos->stones[1] = (uint8_t)rules->stones;
    pos->capstones[0] = pos->capstones[1] = (uint8_t)rules->capstones;
    pos->result.end = TAK_END_NONE;
    pos->result.winner = -1;
    return true;
}

bool tak_position_init(TakPosition *pos, const TakRules *rules, TakError *err) {
    if (!tak_position_clear(pos, rules, err)) return false;
    return tak_position_finish(pos, TAK_WHITE, 1, err);
}

void tak_position_put_stack(TakPosition *pos, int square, int height, TakStackBits bits,
                            TakPieceType top) {
    TakBitboard b = bit(square);
    pos->owner[0] &= ~b;
    pos->owner[1] &= ~b;
    pos->walls &= ~b;
    pos->caps &= ~b;
    if (height <= 0) {
        pos->height[square] = 0;
        pos->stack[square] = 0;
        return;
    }
    if (height > 255) height = 255; /* tak_position_finish rejects it */
    pos->height[square] = (uint8_t)height;
    pos->stack[square] = bits & stack_top_mask(height);
    pos->owner[(int)(bits & 1)] |= b;
    if (top == TAK_WALL) pos->walls |= b;
    if (top == TAK_CAP) pos->caps |= b;
}

bool tak_position_finish(TakPosition *pos, TakColor side, long move_number, TakError *err) {
    int n = pos->rules.size * pos->rules.size;
    int pieces[2] = {0, 0}, caps[2] = {0, 0}, total = 0;
    for (int sq = 0; sq < n; sq++) {
        int h = pos->height[sq];
        total += h;
        if (total > 2 * TAK_MAX_RESERVE) break;
        for (int level = 0; level < h; level++) pieces[(int)((pos->stack[sq] >> level) & 1)]++;
        if (h && (pos->caps & bit(sq))) caps[(int)(pos->stack[sq] & 1)]++;
    }
    if (total > 2 * TAK_MAX_RESERVE)
        return tak_error_set(err, "the board holds more pieces than both reserves");
    for (int c = 0; c < 2; c++) {
        if (caps[c] > pos->rules.capstones)
            return tak_error_set(err, "%s has %d capstones on the board but only %d in the game",
                                 tak_color_name(c), caps[c], pos->rules.capstones);
        if (pieces[c] - caps[c] > pos->rules.stones)
            return tak_error_set(err, "%s has %d stones on the board but only %d in the game",
                                 tak_color_name(c), pieces[c] - caps[c], pos->rules.stones);
        pos->stones[c] = (uint8_t)(pos->rules.stones - (pieces[c] - caps[c]));
        pos->capstones[c] = (uint8_t)(pos->rules.capstones - caps[c]);
    }
    if (side != TAK_WHITE && side != TAK_BLACK)
        return tak_error_set(err, "the side to move must be White or Black");
    if (move_number < 1 || move_number > 0x7FFFFFFFL)
        return tak_error_set(err, "move number %ld is not between 1 and 2147483647", move_number);
    pos->side = (uint8_t)side;
    pos->ply = (uint32_t)((move_number - 1) * 2 + side);
    pos->hash = tak_position_compute_hash(pos);
    /* Judge as if the player not to move had just moved; both roads are
     * searched since nothing is known about how the position arose. */
    const bool both[2] = {true, true};
    pos->result = position_judge(pos, (TakColor)(side ^ 1), both);
    return true;
}

void tak_position_flat_counts(const TakPosition *pos, int counts[2]) {
    TakBitboard flats = ~(pos->walls | pos->caps);
    counts[0] = __builtin_popcountll(pos->owner[0] & flats);
    counts[1] = __builtin_popcountll(pos->owner[1] & flats);
}

uint64_t tak_position_compute_hash(const TakPosition *pos) {
    uint64_t h = pos->side ? zobrist_black_to_move() : 0;
    int n = pos->rules.size * pos->rules.size;
    for (int sq = 0; sq < n; sq++) {
        int height = pos->height[sq];
        if (!height) continue;
        for (int level = 0; level < height; level++) {
            int color = (int)((pos->stack[sq] >> (height - 1 - level)) & 1);
            h ^= zobrist_piece(sq, level, color);
        }
        if (pos->walls & bit(sq)) h ^= zobrist_top(sq, TAK_WALL);
        if (pos->caps & bit(sq)) h ^= zobrist_top(sq, TAK_CAP);
    }
    return h;
}

bool tak_position_equal(const TakPosition *a, const TakPosition *b) {
    if (a->rules.size != b->rules.size || a->side != b->side || a->ply != b->ply) return false;
    if (a->owner[0] != b->owner[0] || a->owner[1] != b->owner[1] || a->walls != b->walls ||
        a->caps != b->caps)
        return false;
    if (a->stones[0] != b->stones[0] || a->stones[1] != b->stones[1] ||
        a->capstones[0] != b->capstones[0] || a->capstones[1] != b->capstones[1])
        return false;
    int n = a->rules.size * a->rules.size;
    for (int sq = 0; sq < n; sq++)
        if (a->height[sq] != b->height[sq] || a->stack[sq] != b->stack[sq]) return false;
    return true;
}
