/* make.c: playing and taking back moves, with the hash and result kept up to date. */
#include "board.h"
#include "internal.h"

static inline void make_set_owner(TakPosition *pos, int square) {
    TakBitboard b = bit(square);
    pos->owner[0] &= ~b;
    pos->owner[1] &= ~b;
    if (pos->height[square]) pos->owner[(int)(pos->stack[square] & 1)] |= b;
}

static inline TakPieceType make_top_type(const TakPosition *pos, int square) {
    TakBitboard b = bit(square);
    return (pos->walls & b) ? TAK_WALL : (pos->caps & b) ? TAK_CAP : TAK_FLAT;
}

static inline void make_set_top_type(TakPosition *pos, int square, TakPieceType type) {
    TakBitboard b = bit(square);
    pos->walls &= ~b;
    pos->caps &= ~b;
    if (type == TAK_WALL) pos->walls |= b;
    if (type == TAK_CAP) pos->caps |= b;
}

/* Hash of `count` pieces `bits` (top at bit 0) lying at levels
 * base..base+count-1 of `square`. */
static inline uint64_t make_pieces_key(int square, int base, int count, TakStackBits bits) {
    uint64_t h = 0;
    for (int i = 0; i < count; i++)
        h ^= zobrist_piece(square, base + count - 1 - i, (int)((bits >> i) & 1));
    return h;
}

static void make_place(TakPosition *pos, TakMove move, bool check_road[2]) {
    int sq = tak_move_square(move);
    int color = pos->ply < 2 ? pos->side ^ 1 : pos->side;
    TakMoveKind kind = tak_move_kind(move);
    TakPieceType type = kind == TAK_PLACE_CAP ? TAK_CAP : kind == TAK_PLACE_WALL ? TAK_WALL : TAK_FLAT;
    pos->height[sq] = 1;
    pos->stack[sq] = (TakStackBits)color;
    pos->owner[color] |= bit(sq);
    make_set_top_type(pos, sq, type);
    if (type == TAK_CAP)
        pos->capstones[color]--;
    else
        pos->stones[color]--;
    pos->hash ^= zobrist_piece(sq, 0, color);
    if (type != TAK_FLAT) pos->hash ^= zobrist_top(sq, type);
    check_road[color] = type != TAK_WALL;
}

static void make_spread(TakPosition *pos, TakMove move, TakUndo *undo) {
    int size = pos->rules.size, sq = tak_move_square(move);
    int step = board_step(tak_move_direction(move), size);
    unsigned code = tak_move_drops(move);
    int carried_count = tak_move_count(move);
    int h = pos->height[sq];
    TakPieceType moving = make_top_type(pos, sq);
    TakStackBits carried = pos->stack[sq] & stack_top_mask(carried_count);

    pos->hash ^= make_pieces_key(sq, h - carried_count, carried_count, carried);
    if (moving != TAK_FLAT) pos->hash ^= zobrist_top(sq, moving);
    pos->stack[sq] >>= carried_count;
    pos->height[sq] = (uint8_t)(h - carried_count);
    make_set_top_type(pos, sq, TAK_FLAT);
    make_set_owner(pos, sq);

    int s = sq, left = carried_count, piece = 0;
    while (left > 0) {
        /* The next group ends at the next set bit of the code. */
        int end = __builtin_ctz(code >> piece) + piece + 1;
        int drop = end - piece;
        piece = end;
        s += step;
        TakStackBits chunk = (carried >> (left - drop)) & stack_top_mask(drop);
        pos->hash ^= make_pieces_key(s, pos->height[s], drop, chunk);
        pos->stack[s] = (pos->stack[s] << drop) | chunk;
        pos->height[s] = (uint8_t)(pos->height[s] + drop);
        make_set_owner(pos, s);
        left -= drop;
        carried &= stack_top_mask(left);
    }
    if (pos->walls & bit(s)) {
        undo->flattened = true;
        pos->hash ^= zobrist_top(s, TAK_WALL);
    }
    make_set_top_type(pos, s, moving);
    if (moving != TAK_FLAT) pos->hash ^= zobrist_top(s, moving);
}

void tak_position_make(TakPosition *pos, TakMove move, TakUndo *undo) {
    undo->hash = pos->hash;
    undo->result = pos->result;
    undo->flattened = false;
    TakColor mover = (TakColor)pos->side;
    bool check_road[2] = {false, false};
    if (!tak_move_is_spread(move)) {
        make_place(pos, move, check_road);
    } else if (!tak_move_is_pass(move)) {
        make_spread(pos, move, undo);
        check_road[0] = check_road[1] = true;
    }
    pos->side ^= 1;
    pos->ply++;
    pos->hash ^= zobrist_black_to_move();
    pos->result = position_judge(pos, mover, check_road);
}

static void unmake_spread(TakPosition *pos, TakMove move, const TakUndo *undo) {
    int size = pos->rules.size, sq = tak_move_square(move);
    int step = board_step(tak_move_direction(move), size);
    int drops[8];
    int n = tak_drops_decode(tak_move_drops(move), drops);
    int last = sq + n * step;
    TakPieceType moving = make_top_type(pos, last);
    TakStackBits carried = 0;
    int got = 0;
    for (int i = n - 1; i >= 0; i--) {
        int s = sq + (i + 1) * step, d = drops[i];
        carried |= (pos->stack[s] & stack_top_mask(d)) << got;
        got += d;
        pos->stack[s] >>= d;
        pos->height[s] = (uint8_t)(pos->height[s] - d);
        make_set_owner(pos, s);
    }
    make_set_top_type(pos, last, undo->flattened ? TAK_WALL : TAK_FLAT);
    pos->stack[sq] = (pos->stack[sq] << got) | carried;
    pos->height[sq] = (uint8_t)(pos->height[sq] + got);
    make_set_owner(pos, sq);
    make_set_top_type(pos, sq, moving);
}

void tak_position_unmake(TakPosition *pos, TakMove move, const TakUndo *undo) {
    pos->side ^= 1;
    pos->ply--;
    if (!tak_move_is_spread(move)) {
        int sq = tak_move_square(move);
        int color = (int)(pos->stack[sq] & 1);
        if (pos->caps & bit(sq))
            pos->capstones[color]++;
        else
            pos->stones[color]++;
        pos->height[sq] = 0;
        pos->stack[sq] = 0;
        make_set_owner(pos, sq);
        make_set_top_type(pos, sq, TAK_FLAT);
    } else if (!tak_move_is_pass(move)) {
        unmake_spread(pos, move, undo);
    }
    pos->hash = undo->hash;
    pos->result = undo->result;
}

bool tak_position_apply(TakPosition *pos, TakMove move, TakError *err) {
    if (!tak_move_check(pos, move, err)) return false;
    TakUndo undo;
    tak_position_make(pos, move, &undo);
    return true;
}
