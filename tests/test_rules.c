/*
 * test_rules.c: one test per rule of ../shared/spec/rules.md, named after it.
 *
 * Positions come from TPS (tak_tps_read) and moves from PTN text decoded by
 * tests/support (built with tak_move_place / tak_move_spread), so every test
 * states a position, a move and what the rules say must follow. TakGame's
 * own mechanics (history, takebacks, endings) are in test_game.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "support/support.h"

#define SQ(file, rank, size) (((rank)-1) * (size) + ((file) - 'a'))

static TakMoveList list; /* 35 KB: kept off the stack */

/* ---- helpers ------------------------------------------------------------ */

static void assert_tps(const TakPosition *pos, const char *want) {
    char got[TAK_TPS_MAX];
    support_tps(pos, got);
    if (strcmp(got, want) != 0) fail_msg("position is \"%s\", want \"%s\"", got, want);
}

static void assert_result(const TakPosition *pos, TakEnd end, int winner) {
    TakResult r = tak_position_result(pos);
    if (r.end != end || r.winner != winner) {
        char tps[TAK_TPS_MAX];
        fail_msg("result {end %d, winner %d} (%s), want {end %d, winner %d} in %s", (int)r.end,
                 r.winner, tak_result_code(r), (int)end, winner, support_tps(pos, tps));
    }
}

static void assert_result_code(const TakPosition *pos, const char *want) {
    assert_string_equal(tak_result_code(tak_position_result(pos)), want);
}

/* A finished position offers nothing: no move generated, counted, legal or applied. */
static void assert_no_moves(const TakPosition *pos) {
    assert_true(tak_position_is_over(pos));
    assert_int_equal(tak_moves_generate(pos, &list), 0);
    assert_int_equal(tak_moves_count(pos), 0);
    int n = pos->rules.size * pos->rules.size;
    for (int sq = 0; sq < n; sq++) {
        assert_false(tak_move_is_legal(pos, tak_move_place(sq, TAK_PLACE_FLAT)));
        for (int dir = 0; dir < 4; dir++)
            assert_false(tak_move_is_legal(pos, tak_move_spread(sq, (TakDirection)dir, 1)));
    }
    TakPosition copy = *pos;
    TakError err;
    int empty = -1;
    for (int sq = 0; sq < n && empty < 0; sq++)
        if (pos->height[sq] == 0) empty = sq;
    if (empty >= 0) {
        err.message[0] = '\0';
        assert_false(tak_position_apply(&copy, tak_move_place(empty, TAK_PLACE_FLAT), &err));
        assert_true(err.message[0] != '\0');
        assert_memory_equal(&copy, pos, sizeof copy);
    }
}

static void assert_legal(const TakPosition *pos, const char *text) { support_move(pos, text); }

static void assert_illegal(const TakPosition *pos, const char *text) {
    TakMove m = support_move_code(text, pos->rules.size);
    char tps[TAK_TPS_MAX];
    if (tak_move_is_legal(pos, m))
        fail_msg("%s is tak_move_is_legal in %s", text, support_tps(pos, tps));
    if (support_is_generated(pos, m))
        fail_msg("%s is generated in %s", text, support_tps(pos, tps));
    TakPosition copy = *pos;
    TakError err;
    if (tak_position_apply(&copy, m, &err))
        fail_msg("tak_position_apply(%s) accepted in %s", text, support_tps(pos, tps));
    assert_memory_equal(&copy, pos, sizeof copy);
}

/* Counts the generated moves that satisfy `want`. */
static int count_generated(const TakPosition *pos, bool (*want)(TakMove, int), int arg) {
    int n = tak_moves_generate(pos, &list), k = 0;
    for (int i = 0; i < n; i++)
        if (want(list.moves[i], arg)) k++;
    return k;
}

static bool is_spread_from(TakMove m, int sq) {
    return tak_move_is_spread(m) && !tak_move_is_pass(m) && tak_move_square(m) == sq;
}
static bool is_place_kind(TakMove m, int kind) {
    return !tak_move_is_spread(m) && tak_move_kind(m) == (TakMoveKind)kind;
}
static bool is_pass(TakMove m, int unused) {
    (void)unused;
    return tak_move_is_pass(m);
}
static bool is_any(TakMove m, int unused) {
    (void)m;
    (void)unused;
    return true;
}

static TakRules rules_with(int size, int stones, int capstones, int half_komi) {
    TakRules r = support_rules(size);
    r.stones = stones;
    r.capstones = capstones;
    r.half_komi = half_komi;
    return r;
}

/* ---- board and pieces --------------------------------------------------- */

static void test_board_sizes_3_to_8_with_reserves_table(void **state) {
    (void)state;
    static const int stones[] = {10, 15, 21, 30, 40, 50}, caps[] = {0, 0, 1, 1, 2, 2};
    for (int size = 3; size <= 8; size++) {
        TakRules r;
        TakError err;
        assert_true(tak_rules_standard(&r, size, &err));
        assert_int_equal(r.size, size);
        assert_int_equal(r.stones, stones[size - 3]);
        assert_int_equal(r.capstones, caps[size - 3]);
        assert_int_equal(r.half_komi, 0);
        assert_true(r.no_pass);
        assert_false(r.repetition_draw);
        assert_true(tak_rules_validate(&r, &err));
        assert_int_equal(tak_rules_carry_limit(&r), size);

        TakPosition pos;
        assert_true(tak_position_init(&pos, &r, &err));
        assert_int_equal(tak_position_size(&pos), size);
        for (int c = 0; c < 2; c++) {
            assert_int_equal(pos.stones[c], stones[size - 3]);
            assert_int_equal(pos.capstones[c], caps[size - 3]);
        }
        assert_int_equal(tak_position_occupied(&pos), 0);
        assert_int_equal(tak_position_side(&pos), TAK_WHITE); /* White moves first */
        assert_int_equal(tak_position_move_number(&pos), 1);
        assert_false(tak_position_is_over(&pos));
        assert_int_equal(tak_position_result(&pos).end, TAK_END_NONE);
    }
}

static void test_board_size_out_of_range_refused(void **state) {
    (void)state;
    static const int bad[] = {-1, 0, 1, 2, 9, 10, 64};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TakRules r;
        TakError err;
        err.message[0] = '\0';
        assert_false(tak_rules_standard(&r, bad[i], &err));
        assert_true(err.message[0] != '\0');
    }
}

static void test_reserves_7x7_are_40_stones_2_capstones(void **state) {
    (void)state;
    TakRules r = support_rules(7);
    assert_int_equal(r.stones, 40);
    assert_int_equal(r.capstones, 2);
}

static void test_custom_reserves(void **state) {
    (void)state;
    TakRules r = rules_with(6, 7, 3, 0);
    TakPosition pos;
    TakError err;
    assert_true(tak_rules_validate(&r, &err));
    assert_true(tak_position_init(&pos, &r, &err));
    assert_int_equal(pos.stones[TAK_WHITE], 7);
    assert_int_equal(pos.stones[TAK_BLACK], 7);
    assert_int_equal(pos.capstones[TAK_WHITE], 3);
    assert_int_equal(pos.capstones[TAK_BLACK], 3);
    support_play_all(&pos, "a1 f6 Cc3 Cd4 Cc4 Cd3 Cb4");
    assert_int_equal(pos.capstones[TAK_WHITE], 0);
    assert_int_equal(pos.capstones[TAK_BLACK], 1);
    assert_int_equal(pos.stones[TAK_WHITE], 6);
    assert_int_equal(pos.stones[TAK_BLACK], 6);
    /* Black places its last; White has none left: none offered. */
    support_play(&pos, "Cb3");
    assert_int_equal(count_generated(&pos, is_place_kind, TAK_PLACE_CAP), 0);

    /* TPS derives the reserves from the custom counts. */
    TakPosition t = support_position("x6/x6/x6/x2,1C,2C,x2/x6/1,2,x4 1 3", &r);
    assert_int_equal(t.stones[TAK_WHITE], 6);
    assert_int_equal(t.capstones[TAK_WHITE], 2);
    assert_int_equal(t.stones[TAK_BLACK], 6);
    assert_int_equal(t.capstones[TAK_BLACK], 2);

    /* The extremes: one stone; a reserve of TAK_MAX_RESERVE. */
    r = rules_with(5, 1, 0, 0);
    assert_true(tak_rules_validate(&r, &err));
    r = rules_with(8, TAK_MAX_RESERVE - 2, 2, 0);
    assert_true(tak_rules_validate(&r, &err));
    assert_true(tak_position_init(&pos, &r, &err));
    assert_int_equal(pos.stones[TAK_BLACK], TAK_MAX_RESERVE - 2);
}

static void test_named_game_types(void **state) {
    (void)state;
    static const struct {
        TakGameType type;
        int size, stones, caps;
    } want[] = {
        {TAK_GAME_CHILDRENS, 4, 15, 0},
        {TAK_GAME_TRAVELERS, 5, 20, 1},
        {TAK_GAME_COURTLY, 6, 30, 1},
        {TAK_GAME_MASTERS, 8, 50, 2},
    };
    assert_int_equal(TAK_GAME_TYPE_COUNT, 4);
    for (size_t i = 0; i < 4; i++) {
        TakRules r;
        TakError err;
        memset(&r, 0x5a, sizeof r);
        tak_rules_for_game_type(&r, want[i].type);
        assert_int_equal(r.size, want[i].size);
        assert_int_equal(r.stones, want[i].stones);
        assert_int_equal(r.capstones, want[i].caps);
        assert_int_equal(r.half_komi, 0);
        assert_true(r.no_pass);
        assert_false(r.repetition_draw);
        assert_true(tak_rules_validate(&r, &err));
        /* The display name leads back to the type. */
        const char *name = tak_game_type_name(want[i].type);
        assert_non_null(name);
        TakGameType back = TAK_GAME_TYPE_COUNT;
        assert_true(tak_game_type_from_name(name, &back));
        assert_int_equal(back, want[i].type);
    }
    assert_string_equal(tak_game_type_name(TAK_GAME_CHILDRENS), "Children's");
}

static void test_named_game_type_lookup(void **state) {
    (void)state;
    static const struct {
        const char *name;
        TakGameType type;
    } names[] = {
        {"childrens", TAK_GAME_CHILDRENS}, {"children's", TAK_GAME_CHILDRENS},
        {"children", TAK_GAME_CHILDRENS},  {"CHILDREN'S", TAK_GAME_CHILDRENS},
        {"travelers", TAK_GAME_TRAVELERS}, {"traveler's", TAK_GAME_TRAVELERS},
        {"Travelers", TAK_GAME_TRAVELERS}, {"courtly", TAK_GAME_COURTLY},
        {"court", TAK_GAME_COURTLY},       {"Courtly", TAK_GAME_COURTLY},
        {"masters", TAK_GAME_MASTERS},     {"master's", TAK_GAME_MASTERS},
        {"scholars", TAK_GAME_MASTERS},    {"scholar's", TAK_GAME_MASTERS},
        {"MASTERS", TAK_GAME_MASTERS},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        TakGameType t = TAK_GAME_TYPE_COUNT;
        if (!tak_game_type_from_name(names[i].name, &t))
            fail_msg("game type \"%s\" not found", names[i].name);
        assert_int_equal(t, names[i].type);
    }
    static const char *unknown[] = {"", "courtlyx", "grand", "8x8", "travelers game"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        TakGameType t;
        if (tak_game_type_from_name(unknown[i], &t))
            fail_msg("\"%s\" is taken for a game type", unknown[i]);
    }
}

/* ---- the opening ---------------------------------------------------------- */

static void test_opening_first_turns_place_opponent_flat(void **state) {
    (void)state;
    for (int size = 3; size <= 8; size++) {
        TakRules r = support_rules(size);
        TakPosition pos;
        assert_true(tak_position_init(&pos, &r, NULL));
        assert_true(tak_position_is_opening(&pos));
        /* White: a flat on every square, nothing else. */
        int n = tak_moves_generate(&pos, &list);
        assert_int_equal(n, size * size);
        for (int i = 0; i < n; i++) assert_int_equal(tak_move_kind(list.moves[i]), TAK_PLACE_FLAT);
        assert_int_equal(tak_moves_count(&pos), (uint64_t)(size * size));

        support_play(&pos, "a1");
        int a1 = SQ('a', 1, size);
        assert_int_equal(tak_position_height(&pos, a1), 1);
        assert_int_equal(tak_position_piece_color(&pos, a1, 0), TAK_BLACK);
        assert_int_equal(tak_position_top_type(&pos, a1), TAK_FLAT);
        assert_true(pos.owner[TAK_BLACK] & 1);
        assert_true(tak_position_is_opening(&pos));

        /* Black: a flat on every empty square, and no move of its own stone. */
        n = tak_moves_generate(&pos, &list);
        assert_int_equal(n, size * size - 1);
        for (int i = 0; i < n; i++) assert_int_equal(tak_move_kind(list.moves[i]), TAK_PLACE_FLAT);
        support_play(&pos, "b1");
        int b1 = SQ('b', 1, size);
        assert_int_equal(tak_position_piece_color(&pos, b1, 0), TAK_WHITE);
        assert_false(tak_position_is_opening(&pos));
        assert_int_equal(tak_position_move_number(&pos), 2);
        assert_int_equal(tak_position_side(&pos), TAK_WHITE);
    }
}

static void test_opening_no_wall_capstone_or_move(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/x5/x5/x5/x5 1 1", NULL);
    assert_illegal(&pos, "Sc3");
    assert_illegal(&pos, "Cc3");
    support_play(&pos, "c3");
    assert_illegal(&pos, "Sa1");
    assert_illegal(&pos, "Ca1");
    /* Black's own stone on c3 cannot move during Black's first turn. */
    assert_illegal(&pos, "c3+");
    assert_illegal(&pos, "c3<");
    assert_int_equal(count_generated(&pos, is_spread_from, SQ('c', 3, 5)), 0);
    support_play(&pos, "a1");
    /* From move 2 on: walls, capstones and moves. */
    assert_legal(&pos, "Sb2");
    assert_legal(&pos, "Cb2");
    assert_legal(&pos, "a1+");
    assert_illegal(&pos, "c3+"); /* Black's stone */
    /* The TPS of Black's first turn is an opening position too. */
    TakPosition black = support_position("x5/x5/x2,2,x2/x5/x5 2 1", NULL);
    assert_true(tak_position_is_opening(&black));
    assert_int_equal(tak_moves_count(&black), 24);
    assert_illegal(&black, "c3+");
    assert_illegal(&black, "Sa1");
}

static void test_opening_stone_from_opponent_reserve(void **state) {
    (void)state;
    TakRules r = support_rules(6);
    TakPosition pos;
    assert_true(tak_position_init(&pos, &r, NULL));
    support_play(&pos, "f6");
    assert_int_equal(pos.stones[TAK_WHITE], 30);
    assert_int_equal(pos.stones[TAK_BLACK], 29);
    support_play(&pos, "a1");
    assert_int_equal(pos.stones[TAK_WHITE], 29);
    assert_int_equal(pos.stones[TAK_BLACK], 29);
    assert_int_equal(pos.capstones[TAK_WHITE], 1);
    assert_int_equal(pos.capstones[TAK_BLACK], 1);
    /* After the opening each places their own. */
    support_play(&pos, "c3");
    assert_int_equal(pos.stones[TAK_WHITE], 28);
    assert_int_equal(tak_position_piece_color(&pos, SQ('c', 3, 6), 0), TAK_WHITE);
}

/* ---- placing -------------------------------------------------------------- */

static void test_place_only_on_empty_squares(void **state) {
    (void)state;
    TakPosition pos = support_position("x4,2/x5/x2,12,x2/x5/1,x4 1 3", NULL);
    assert_illegal(&pos, "c3");
    assert_illegal(&pos, "Sc3");
    assert_illegal(&pos, "Cc3");
    assert_illegal(&pos, "a1"); /* own piece */
    assert_illegal(&pos, "e5");
    /* 22 empty squares, each with a flat, a wall and a capstone. */
    int placements = count_generated(&pos, is_place_kind, TAK_PLACE_FLAT) +
                     count_generated(&pos, is_place_kind, TAK_PLACE_WALL) +
                     count_generated(&pos, is_place_kind, TAK_PLACE_CAP);
    assert_int_equal(placements, 66);
    int n = tak_moves_generate(&pos, &list);
    for (int i = 0; i < n; i++)
        if (!tak_move_is_spread(list.moves[i]))
            assert_int_equal(tak_position_height(&pos, tak_move_square(list.moves[i])), 0);
}

static void test_place_flat_wall_and_capstone(void **state) {
    (void)state;
    TakPosition pos = support_position("x4,2/x5/x5/x5/1,x4 1 2", NULL);
    support_play(&pos, "c3");
    assert_tps(&pos, "x4,2/x5/x2,1,x2/x5/1,x4 2 2");
    assert_int_equal(pos.stones[TAK_WHITE], 19);
    assert_int_equal(tak_position_top_type(&pos, SQ('c', 3, 5)), TAK_FLAT);
    support_play(&pos, "Sd3");
    assert_tps(&pos, "x4,2/x5/x2,1,2S,x/x5/1,x4 1 3");
    assert_int_equal(pos.stones[TAK_BLACK], 19);
    assert_int_equal(tak_position_top_type(&pos, SQ('d', 3, 5)), TAK_WALL);
    assert_true(pos.walls & ((TakBitboard)1 << SQ('d', 3, 5)));
    support_play(&pos, "Cb3");
    assert_tps(&pos, "x4,2/x5/x,1C,1,2S,x/x5/1,x4 2 3");
    assert_int_equal(pos.stones[TAK_WHITE], 19); /* a capstone is not a stone */
    assert_int_equal(pos.capstones[TAK_WHITE], 0);
    assert_int_equal(tak_position_top_type(&pos, SQ('b', 3, 5)), TAK_CAP);
    assert_true(pos.caps & ((TakBitboard)1 << SQ('b', 3, 5)));
    assert_true(pos.owner[TAK_WHITE] & ((TakBitboard)1 << SQ('b', 3, 5)));
}

static void test_no_capstone_placement_when_none_left(void **state) {
    (void)state;
    /* White's only capstone is on c3; Black still has its own. */
    TakPosition pos = support_position("x4,2/x5/x2,1C,x2/x5/1,x4 1 3", NULL);
    assert_int_equal(pos.capstones[TAK_WHITE], 0);
    assert_int_equal(count_generated(&pos, is_place_kind, TAK_PLACE_CAP), 0);
    assert_illegal(&pos, "Cb2");
    support_play(&pos, "b2");
    assert_int_equal(pos.capstones[TAK_BLACK], 1);
    assert_int_equal(count_generated(&pos, is_place_kind, TAK_PLACE_CAP), 21);
    /* 3x3 and 4x4 have no capstones at all. */
    for (int size = 3; size <= 4; size++) {
        char tps[64];
        snprintf(tps, sizeof tps, "%s 1 2", size == 3 ? "2,x2/x3/1,x2" : "2,x3/x4/x4/1,x3");
        TakPosition small = support_position(tps, NULL);
        assert_int_equal(small.capstones[TAK_WHITE], 0);
        assert_int_equal(count_generated(&small, is_place_kind, TAK_PLACE_CAP), 0);
        assert_illegal(&small, "Cb2");
    }
}

/* ---- moving --------------------------------------------------------------- */

static void test_move_only_stacks_you_control(void **state) {
    (void)state;
    static const char *tps[] = {"x4,2/x5/x2,21,x2/x5/12,x4 1 3", "x4,2/x5/x2,21,x2/x5/12,x4 2 3"};
    for (int k = 0; k < 2; k++) {
        TakPosition pos = support_position(tps[k], NULL);
        int n = tak_moves_generate(&pos, &list);
        int spreads = 0;
        for (int i = 0; i < n; i++) {
            if (!tak_move_is_spread(list.moves[i])) continue;
            spreads++;
            TakBitboard from = (TakBitboard)1 << tak_move_square(list.moves[i]);
            assert_true(pos.owner[pos.side] & from);
        }
        assert_true(spreads > 0);
    }
    TakPosition white = support_position(tps[0], NULL);
    assert_legal(&white, "c3+");
    assert_illegal(&white, "e5-");
    assert_illegal(&white, "a1+"); /* topped by Black, though White's piece is under it */
    TakPosition black = support_position(tps[1], NULL);
    assert_legal(&black, "e5-");
    assert_legal(&black, "a1+");
    assert_illegal(&black, "c3+");
}

static void test_carry_limit_is_board_size(void **state) {
    (void)state;
    /* A 7-high stack on 3x3: at most 3 pieces lifted. */
    TakPosition pos = support_position("x3/x,1212121,x/x3 1 5", NULL);
    int b2 = SQ('b', 2, 3);
    assert_legal(&pos, "3b2+");
    assert_legal(&pos, "3b2<");
    assert_illegal(&pos, "4b2+");
    assert_illegal(&pos, "7b2+");
    int n = tak_moves_generate(&pos, &list);
    for (int i = 0; i < n; i++)
        if (tak_move_is_spread(list.moves[i])) assert_in_range(tak_move_count(list.moves[i]), 1, 3);
    /* One square of room each way: lift 1, 2 or 3, drop all: 12 spreads;
     * plus 8 empty squares with a flat or a wall (no capstones on 3x3). */
    assert_int_equal(count_generated(&pos, is_spread_from, b2), 12);
    assert_int_equal(n, 28);
    assert_int_equal(tak_moves_count(&pos), 28);
    support_play(&pos, "3b2>");
    assert_tps(&pos, "x3/x,1212,121/x3 2 5");
}

static void test_spread_drops_at_least_one_per_square(void **state) {
    (void)state;
    /* A 3-high stack in the corner of 5x5 (room for 4 squares north and east):
     * lifting k pieces gives 2^(k-1) ways to drop them, one or more a square. */
    TakPosition pos = support_position("x4,2/x5/x5/x5/111,x4 1 4", NULL);
    int a1 = SQ('a', 1, 5);
    assert_int_equal(count_generated(&pos, is_spread_from, a1), 2 * (1 + 2 + 4));
    assert_legal(&pos, "3a1+111");
    assert_legal(&pos, "3a1>12");
    assert_legal(&pos, "3a1+21");
    assert_legal(&pos, "2a1+11");
    assert_illegal(&pos, "a1-");
    assert_illegal(&pos, "a1<");
    /* 23 empty squares x (flat, wall, capstone) + 14 spreads. */
    assert_int_equal(tak_moves_count(&pos), 23 * 3 + 14);
    /* Each generated spread drops on consecutive squares, all carried pieces. */
    int n = tak_moves_generate(&pos, &list);
    for (int i = 0; i < n; i++) {
        if (!tak_move_is_spread(list.moves[i])) continue;
        int drops[8];
        int k = tak_drops_decode(tak_move_drops(list.moves[i]), drops);
        int sum = 0;
        for (int j = 0; j < k; j++) {
            assert_true(drops[j] >= 1);
            sum += drops[j];
        }
        assert_int_equal(sum, tak_move_count(list.moves[i]));
        assert_int_equal(k, tak_move_distance(list.moves[i]));
    }
}

static void test_spread_drops_from_the_bottom(void **state) {
    (void)state;
    /* a1 holds (bottom to top) Black, White, Black, White. Lifting three
     * takes White, Black, White; the bottom one is dropped first. */
    TakPosition pos = support_position("x4,2/x5/x5/x5/2121,x4 1 5", NULL);
    support_play(&pos, "3a1+12");
    assert_tps(&pos, "x4,2/x5/21,x4/1,x4/2,x4 2 5");
    int a3 = SQ('a', 3, 5);
    assert_int_equal(tak_position_height(&pos, a3), 2);
    assert_int_equal(tak_position_piece_color(&pos, a3, 0), TAK_BLACK);
    assert_int_equal(tak_position_piece_color(&pos, a3, 1), TAK_WHITE);
    assert_int_equal(tak_position_piece_color(&pos, SQ('a', 2, 5), 0), TAK_WHITE);
    assert_int_equal(tak_position_piece_color(&pos, SQ('a', 1, 5), 0), TAK_BLACK);
    assert_true(pos.owner[TAK_BLACK] & ((TakBitboard)1 << SQ('a', 1, 5)));

    /* Dropping onto stacks already there adds to their tops. */
    TakPosition onto = support_position("x4,2/x5/2,x4/1,x4/2121,x4 1 5", NULL);
    support_play(&onto, "4a1+31");
    assert_tps(&onto, "x4,2/x5/21,x4/1212,x4/x5 2 5");
}

static void test_no_drop_on_wall_or_capstone(void **state) {
    (void)state;
    /* c3 (two White flats) between a Black wall (b3) and a Black capstone (d3). */
    TakPosition pos = support_position("x5/x5/x,2S,11,2C,x/x5/1,x4 1 5", NULL);
    assert_illegal(&pos, "c3<");
    assert_illegal(&pos, "2c3<");
    assert_illegal(&pos, "c3>");
    assert_illegal(&pos, "2c3>");
    assert_legal(&pos, "c3+");
    assert_legal(&pos, "2c3-11");
    assert_int_equal(count_generated(&pos, is_spread_from, SQ('c', 3, 5)), 6);
    /* A wall stops a longer move too, and your own walls and capstones block you. */
    TakPosition own = support_position("x5/x5/111,x,1S,1,1C/x5/2,x4 1 6", NULL);
    assert_legal(&own, "a3>");
    assert_legal(&own, "2a3>2");
    assert_legal(&own, "3a3>3");
    assert_illegal(&own, "2a3>11");
    assert_illegal(&own, "3a3>21");
    assert_illegal(&own, "3a3>12");
    assert_illegal(&own, "3a3>111");
    assert_illegal(&own, "d3<"); /* onto White's own wall */
    assert_illegal(&own, "d3>"); /* onto White's own capstone */
    /* A capstone may not move onto a capstone, its own or the opponent's. */
    TakPosition caps = support_position("x5/x5/x,2C,1C,x2/x5/1,x4 1 5", NULL);
    assert_illegal(&caps, "c3<");
    assert_legal(&caps, "c3>");
}

static void test_capstone_alone_flattens_wall_of_either_colour(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/x5/x,2S,1C,1S,x/x5/2,x4 1 5", NULL);
    TakMove west = support_move(&pos, "c3<");
    TakMove east = support_move(&pos, "c3>");
    TakMove north = support_move(&pos, "c3+");
    assert_true(tak_move_flattens(&pos, west));
    assert_true(tak_move_flattens(&pos, east));
    assert_false(tak_move_flattens(&pos, north));

    TakPosition black_wall = pos;
    support_play(&black_wall, "c3<");
    assert_tps(&black_wall, "x5/x5/x,21C,x,1S,x/x5/2,x4 2 5");
    int b3 = SQ('b', 3, 5);
    assert_int_equal(tak_position_top_type(&black_wall, b3), TAK_CAP);
    assert_false(black_wall.walls & ((TakBitboard)1 << b3));
    assert_int_equal(tak_position_piece_color(&black_wall, b3, 0), TAK_BLACK);
    /* The flattened wall is now a Black flat under the capstone. */
    support_play_all(&black_wall, "a1+ b3+");
    assert_tps(&black_wall, "x5/x,1C,x3/x,2,x,1S,x/2,x4/x5 2 6");
    assert_int_equal(tak_position_top_type(&black_wall, b3), TAK_FLAT);
    assert_true(black_wall.owner[TAK_BLACK] & ((TakBitboard)1 << b3));

    TakPosition own_wall = pos;
    support_play(&own_wall, "c3>");
    assert_tps(&own_wall, "x5/x5/x,2S,x,11C,x/x5/2,x4 2 5");
    int counts[2];
    tak_position_flat_counts(&own_wall, counts);
    assert_int_equal(counts[TAK_WHITE], 0);
    assert_int_equal(counts[TAK_BLACK], 1);

    /* Unmake puts the wall back up. */
    TakPosition undo_pos = pos;
    TakUndo undo;
    tak_position_make(&undo_pos, west, &undo);
    assert_true(undo.flattened);
    tak_position_unmake(&undo_pos, west, &undo);
    assert_true(tak_position_equal(&undo_pos, &pos));
    assert_true(undo_pos.walls & ((TakBitboard)1 << b3));
    assert_int_equal(undo_pos.hash, pos.hash);

    /* Black's capstone flattens too. */
    TakPosition black = support_position("x5/x5/x,1S,2C,x2/x5/1,x4 2 5", NULL);
    support_play(&black, "c3<");
    assert_tps(&black, "x5/x5/x,12C,x3/x5/1,x4 1 6");
}

static void test_capstone_flattens_at_end_of_longer_move(void **state) {
    (void)state;
    /* a3: White, Black, White capstone; c3 a Black wall. */
    TakPosition pos = support_position("x5/x5/121C,x,2S,x2/x5/1,x4 1 5", NULL);
    TakMove two = support_move(&pos, "2a3>11");
    assert_true(tak_move_flattens(&pos, two));
    TakPosition p = pos;
    support_play(&p, "2a3>11");
    assert_tps(&p, "x5/x5/1,2,21C,x2/x5/1,x4 2 5");

    TakMove three = support_move(&pos, "3a3>21");
    assert_true(tak_move_flattens(&pos, three));
    p = pos;
    support_play(&p, "3a3>21");
    assert_tps(&p, "x5/x5/x,12,21C,x2/x5/1,x4 2 5");

    assert_illegal(&pos, "3a3>12");  /* Black flat and the capstone onto the wall */
    assert_illegal(&pos, "3a3>111"); /* a Black flat onto the wall */
    assert_legal(&pos, "2a3>2");     /* stopping before the wall */
    assert_false(tak_move_flattens(&pos, support_move(&pos, "2a3>2")));
}

static void test_capstone_with_other_pieces_cannot_flatten(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/x5/x,121C,2S,x2/x5/1,x4 1 5", NULL);
    assert_legal(&pos, "b3>");
    assert_illegal(&pos, "2b3>");
    assert_illegal(&pos, "3b3>");
    assert_illegal(&pos, "3b3>21"); /* two pieces land on the wall first */
    /* No other piece flattens: a wall cannot move onto a wall. */
    TakPosition walls = support_position("x5/x5/x,1S,2S,x2/x5/1,x4 1 5", NULL);
    assert_illegal(&walls, "b3>");
}

static void test_walls_and_capstones_move_like_any_piece(void **state) {
    (void)state;
    TakPosition wall = support_position("x5/x5/x,1S,2,x2/x5/2,x4 1 5", NULL);
    assert_legal(&wall, "b3+");
    assert_legal(&wall, "b3<");
    support_play(&wall, "b3>");
    assert_tps(&wall, "x5/x5/x2,21S,x2/x5/2,x4 2 5");
    assert_int_equal(tak_position_top_type(&wall, SQ('c', 3, 5)), TAK_WALL);

    /* A wall on top of a stack travels as the last piece of a spread. */
    TakPosition top = support_position("x5/x5/x,21S,x3/x5/2,x4 1 5", NULL);
    support_play(&top, "2b3>11");
    assert_tps(&top, "x5/x5/x2,2,1S,x/x5/2,x4 2 5");

    TakPosition cap = support_position("x5/x5/x,1C,2,x2/x5/2,x4 1 5", NULL);
    support_play(&cap, "b3>");
    assert_tps(&cap, "x5/x5/x2,21C,x2/x5/2,x4 2 5");
    assert_int_equal(tak_position_top_type(&cap, SQ('c', 3, 5)), TAK_CAP);
}

static void test_covered_pieces_keep_type_and_colour(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/x5/x,1,2,x2/x5/2,x4 1 5", NULL);
    support_play(&pos, "b3>");
    int c3 = SQ('c', 3, 5);
    assert_int_equal(tak_position_piece_color(&pos, c3, 0), TAK_BLACK);
    assert_int_equal(tak_position_piece_color(&pos, c3, 1), TAK_WHITE);
    support_play_all(&pos, "a1+ c3+");
    assert_tps(&pos, "x5/x2,1,x2/x2,2,x2/2,x4/x5 2 6");
    assert_true(pos.owner[TAK_BLACK] & ((TakBitboard)1 << c3));
    assert_int_equal(tak_position_top_type(&pos, c3), TAK_FLAT);

    /* A flat covered by a wall is a flat again when the wall leaves. */
    TakPosition wall = support_position("x5/x5/x2,21S,x2/x5/2,x4 1 5", NULL);
    support_play(&wall, "c3+");
    assert_tps(&wall, "x5/x2,1S,x2/x2,2,x2/x5/2,x4 2 5");
    assert_int_equal(tak_position_top_type(&wall, c3), TAK_FLAT);
    int counts[2];
    tak_position_flat_counts(&wall, counts);
    assert_int_equal(counts[TAK_BLACK], 2);
    assert_int_equal(counts[TAK_WHITE], 0);
}

static void test_no_limit_on_stack_height(void **state) {
    (void)state;
    /* A stack of 19 on 4x4, far above the carry limit of 4. */
    TakPosition pos = support_position("x4/1,212121212121212121,x2/x4/2,x3 1 11", NULL);
    support_play(&pos, "a3>");
    int b3 = SQ('b', 3, 4);
    assert_int_equal(tak_position_height(&pos, b3), 19);
    assert_int_equal(tak_position_piece_color(&pos, b3, 18), TAK_WHITE);
    assert_int_equal(tak_position_piece_color(&pos, b3, 0), TAK_BLACK);
    assert_tps(&pos, "x4/x,2121212121212121211,x2/x4/2,x3 2 11");
    support_play(&pos, "a1+");
    assert_legal(&pos, "4b3<");
    assert_illegal(&pos, "5b3<");
}

static void test_stack_taller_than_64(void **state) {
    (void)state;
    /* 8x8 with reserves of 64: a stack of 120 in an irregular pattern, so a
     * slip in the 128-bit stack arithmetic shows as a wrong colour. */
    TakRules r = rules_with(8, 64, 0, 0);
    char stack[121], tps[TAK_TPS_MAX], want[TAK_TPS_MAX];
    int counts[2] = {0, 0};
    for (int i = 0; i < 120; i++) {
        int black = ((i * 37) % 11) < 5 && counts[1] < 60;
        if (counts[0] == 60) black = 1;
        stack[i] = black ? '2' : '1';
        counts[black]++;
    }
    stack[119] = '1'; /* White on top */
    stack[120] = '\0';
    snprintf(tps, sizeof tps, "x8/x8/x8/x8/x8/x8/x8/%s,2,x6 1 70", stack);
    TakPosition pos = support_position(tps, &r);
    int a1 = SQ('a', 1, 8);
    assert_int_equal(tak_position_height(&pos, a1), 120);
    for (int i = 0; i < 120; i++)
        assert_int_equal(tak_position_piece_color(&pos, a1, i),
                         stack[i] == '2' ? TAK_BLACK : TAK_WHITE);
    assert_tps(&pos, tps);
    /* Lift 8 and spread them up the a-file. */
    TakPosition before = pos;
    TakMove m = support_move(&pos, "8a1+2111111");
    TakUndo undo;
    tak_position_make(&pos, m, &undo);
    /* a2 gets the two lowest of the lifted pieces (112, 113), a3..a8 one each. */
    int n = 0;
    for (int rank = 8; rank >= 3; rank--)
        n += snprintf(want + n, sizeof want - (size_t)n, "%c,x7/", stack[111 + rank]);
    snprintf(want + n, sizeof want - (size_t)n, "%c%c,x7/%.112s,2,x6 2 70", stack[112], stack[113],
             stack);
    assert_tps(&pos, want);
    assert_int_equal(pos.hash, tak_position_compute_hash(&pos));
    tak_position_unmake(&pos, m, &undo);
    assert_true(tak_position_equal(&pos, &before));
    assert_tps(&pos, tps);
}

/* ---- roads ---------------------------------------------------------------- */

static void test_road_north_south(void **state) {
    (void)state;
    TakPosition pos = support_position("2,1,x3/x,1,x3/x5/x,1,x3/x,1,2,x2 1 6", NULL);
    assert_false(tak_position_has_road(&pos, TAK_WHITE));
    assert_false(tak_position_is_over(&pos));
    support_play(&pos, "b3");
    assert_true(tak_position_has_road(&pos, TAK_WHITE));
    assert_false(tak_position_has_road(&pos, TAK_BLACK));
    assert_result(&pos, TAK_END_ROAD, TAK_WHITE);
    assert_result_code(&pos, "R-0");
    assert_no_moves(&pos);
}

static void test_road_east_west(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/1,x4/2,2,x,2,2/x5/1,x3,1 2 6", NULL);
    support_play(&pos, "c3");
    assert_true(tak_position_has_road(&pos, TAK_BLACK));
    assert_false(tak_position_has_road(&pos, TAK_WHITE));
    assert_result(&pos, TAK_END_ROAD, TAK_BLACK);
    assert_result_code(&pos, "0-R");
    assert_no_moves(&pos);
}

/* The road's squares: the chains joining opposite edges, not other pieces. */
static void test_road_squares(void **state) {
    (void)state;
    /* White: a1-a5 a road, with b3 on it; d2 apart. Black: no road. */
    TakPosition pos = support_position("1,x4/1,x,2,x2/1,1,x3/1,x2,1,2/1,2,x3 2 6", NULL);
    TakBitboard want = 0;
    const char *names[] = {"a1", "a2", "a3", "a4", "a5", "b3"};
    for (int i = 0; i < 6; i++) want |= (TakBitboard)1 << tak_square_parse(names[i], 5);
    assert_int_equal(tak_position_road_squares(&pos, TAK_WHITE), want);
    assert_int_equal(tak_position_road_squares(&pos, TAK_BLACK), 0);
    /* A wall breaks it: no road, no squares. */
    pos = support_position("1,x4/1,x,2,x2/1S,1,x3/1,x2,1,2/1,2,x3 2 6", NULL);
    assert_int_equal(tak_position_road_squares(&pos, TAK_WHITE), 0);
}

static void test_road_may_bend(void **state) {
    (void)state;
    /* a3 b3, then b4 c4 d4 e4: west edge to east edge through a bend. */
    TakPosition pos = support_position("x5/x2,1,1,1/1,1,x3/2,x4/2,x4 1 6", NULL);
    assert_false(tak_position_has_road(&pos, TAK_WHITE));
    support_play(&pos, "b4");
    assert_true(tak_position_has_road(&pos, TAK_WHITE));
    assert_result_code(&pos, "R-0");
}

static void test_road_walls_never_count(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/x5/1,1,x,1,1/x5/2,2,x3 1 6", NULL);
    TakPosition wall = pos;
    support_play(&wall, "Sc3");
    assert_false(tak_position_has_road(&wall, TAK_WHITE));
    assert_false(tak_position_is_over(&wall));
    TakPosition stat = support_position("x5/x5/1,1,1S,1,1/x5/2,2,x3 2 6", NULL);
    assert_false(tak_position_has_road(&stat, TAK_WHITE));
    assert_false(tak_position_is_over(&stat));
    /* Black's line with a Black wall in it. */
    TakPosition black = support_position("x2,2,x2/x2,2,x2/x2,2S,x2/x2,2,x2/x2,2,x,1 1 6", NULL);
    assert_false(tak_position_has_road(&black, TAK_BLACK));
    assert_false(tak_position_is_over(&black));
}

static void test_road_capstones_count(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/x5/1,1,x,1,1/x5/2,2,x3 1 6", NULL);
    support_play(&pos, "Cc3");
    assert_true(tak_position_has_road(&pos, TAK_WHITE));
    assert_result(&pos, TAK_END_ROAD, TAK_WHITE);
    TakPosition stat = support_position("2,x4/2C,x4/2,x4/2,x4/2,1,1,x2 1 6", NULL);
    assert_true(tak_position_has_road(&stat, TAK_BLACK));
    assert_result(&stat, TAK_END_ROAD, TAK_BLACK);
}

static void test_road_diagonals_do_not_connect(void **state) {
    (void)state;
    TakPosition diag = support_position("1,x4/x,1,x3/x2,1,x2/x3,1,x/x3,2,1 2 6", NULL);
    assert_false(tak_position_has_road(&diag, TAK_WHITE));
    assert_false(tak_position_is_over(&diag));
    /* a3 b3 and c2 d2 e2 touch only corner to corner at b3/c2 ... */
    TakPosition pos = support_position("x5/2,x4/1,1,x3/x2,1,1,1/2,x4 1 6", NULL);
    assert_false(tak_position_has_road(&pos, TAK_WHITE));
    assert_false(tak_position_is_over(&pos));
    /* ... until c3 joins them. */
    support_play(&pos, "c3");
    assert_true(tak_position_has_road(&pos, TAK_WHITE));
}

static void test_road_made_by_a_move(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/x2,1,x2/1,1,x,1,1/x5/2,2,x3 1 6", NULL);
    support_play(&pos, "c4-");
    assert_result(&pos, TAK_END_ROAD, TAK_WHITE);
    /* A stack spread can lay a whole road. */
    TakPosition spread = support_position("x5/x5/x5/x5/111111,2,2,x2 1 8", NULL);
    support_play(&spread, "4a1+1111");
    assert_tps(&spread, "1,x4/1,x4/1,x4/1,x4/11,2,2,x2 2 8");
    assert_result(&spread, TAK_END_ROAD, TAK_WHITE);
}

static void test_road_only_one_edge_is_no_road(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/x,1,x3/x,1,x3/x,1,x3/x,1,2,x2 2 6", NULL);
    assert_false(tak_position_has_road(&pos, TAK_WHITE));
    assert_false(tak_position_is_over(&pos));
}

static void test_double_road_mover_wins(void **state) {
    (void)state;
    /* perft.md: White's 1c4+ completes both roads. */
    TakPosition white = support_position("1,1,x,1,1/2,2,21,2,2/x2,2,x2/x5/x5 1 7", NULL);
    support_play(&white, "c4+");
    assert_true(tak_position_has_road(&white, TAK_WHITE));
    assert_true(tak_position_has_road(&white, TAK_BLACK));
    assert_result(&white, TAK_END_ROAD, TAK_WHITE);
    assert_result_code(&white, "R-0");
    assert_no_moves(&white);
    /* The same with the colours swapped. */
    TakPosition black = support_position("2,2,x,2,2/1,1,12,1,1/x2,1,x2/x5/x5 2 7", NULL);
    support_play(&black, "c4+");
    assert_true(tak_position_has_road(&black, TAK_WHITE));
    assert_true(tak_position_has_road(&black, TAK_BLACK));
    assert_result(&black, TAK_END_ROAD, TAK_BLACK);
    assert_result_code(&black, "0-R");
}

static void test_move_completing_only_opponent_road_loses(void **state) {
    (void)state;
    /* Black lifts its flat off c3 and uncovers the White flat that ends White's road. */
    TakPosition pos = support_position("x5/x5/1,1,12,1,1/x5/2,x4 2 5", NULL);
    assert_false(tak_position_is_over(&pos));
    support_play(&pos, "c3+");
    assert_true(tak_position_has_road(&pos, TAK_WHITE));
    assert_false(tak_position_has_road(&pos, TAK_BLACK));
    assert_result(&pos, TAK_END_ROAD, TAK_WHITE);
    assert_result_code(&pos, "R-0");
    assert_no_moves(&pos);
}

static void test_move_dropping_opponent_piece_completes_their_road(void **state) {
    (void)state;
    /* White's 2c4-11 drops the Black flat it carries on c3, which completes
     * Black's road; White has none: Black wins. */
    TakPosition pos = support_position("x5/x2,121,x2/2,2,x,2,2/x5/1,x4 1 6", NULL);
    support_play(&pos, "2c4-11");
    assert_tps(&pos, "x5/x2,1,x2/2,2,2,2,2/x2,1,x2/1,x4 2 6");
    assert_true(tak_position_has_road(&pos, TAK_BLACK));
    assert_false(tak_position_has_road(&pos, TAK_WHITE));
    assert_result(&pos, TAK_END_ROAD, TAK_BLACK);
    assert_result_code(&pos, "0-R");
}

static void test_road_checked_before_flats(void **state) {
    (void)state;
    /* The last empty square completes White's road: a road, not a flat count
     * (Black has more flats). */
    TakPosition pos = support_position("2,1S,2/1,x,1/2,1S,2 1 5", NULL);
    support_play(&pos, "b2");
    assert_result(&pos, TAK_END_ROAD, TAK_WHITE);
    /* Likewise when the placement empties the reserve (komi 10 gives Black
     * the flat count). */
    TakRules r = rules_with(5, 5, 0, 20);
    TakPosition res = support_position("x5/2,2,2,x2/1,1,x,1,1/x5/x5 1 4", &r);
    support_play(&res, "c3");
    assert_int_equal(res.stones[TAK_WHITE], 0);
    assert_result(&res, TAK_END_ROAD, TAK_WHITE);
}

/* ---- flats ---------------------------------------------------------------- */

/* 3x3 with c1 empty: White owns a3 c3 b2 a1, Black b3 a2 c2 b1; no roads. */
static const char *full_3x3 = "1,2,1/2,1,2/1,2,x 1 5";

static void test_board_full_ends_game_on_flats(void **state) {
    (void)state;
    TakPosition pos = support_position(full_3x3, NULL);
    assert_false(tak_position_is_over(&pos));
    support_play(&pos, "c1");
    assert_result(&pos, TAK_END_BOARD_FULL, TAK_WHITE);
    assert_result_code(&pos, "F-0");
    int counts[2];
    tak_position_flat_counts(&pos, counts);
    assert_int_equal(counts[TAK_WHITE], 5);
    assert_int_equal(counts[TAK_BLACK], 4);
    assert_no_moves(&pos);

    /* Black filling the board with more flats wins for Black. */
    TakPosition b = support_position("2,1,2/1,2,1/2,1,x 2 5", NULL);
    support_play(&b, "c1");
    assert_result(&b, TAK_END_BOARD_FULL, TAK_BLACK);
    assert_result_code(&b, "0-F");
}

static void test_board_full_by_a_spread(void **state) {
    (void)state;
    TakPosition pos = support_position("1,2,211/2,1,x/1,2,x 1 5", NULL);
    support_play(&pos, "2c3-11");
    assert_tps(&pos, "1,2,2/2,1,1/1,2,1 2 5");
    assert_result(&pos, TAK_END_BOARD_FULL, TAK_WHITE);
}

static void test_draw_on_equal_flats(void **state) {
    (void)state;
    TakPosition pos = support_position(full_3x3, NULL);
    support_play(&pos, "Sc1");
    assert_result(&pos, TAK_END_BOARD_FULL, -1);
    assert_result_code(&pos, "1/2-1/2");
    assert_no_moves(&pos);
}

static void test_flat_count_ignores_walls_capstones_and_covered(void **state) {
    (void)state;
    TakPosition pos = support_position("x5/x5/1S,2C,12,21,1/x5/2S,x3,1C 1 6", NULL);
    int counts[2];
    tak_position_flat_counts(&pos, counts);
    assert_int_equal(counts[TAK_WHITE], 2); /* d3, e3 */
    assert_int_equal(counts[TAK_BLACK], 1); /* c3 */
}

static void test_reserve_exhausted_ends_game_on_flats(void **state) {
    (void)state;
    TakRules r = rules_with(5, 3, 0, 0);
    TakPosition pos = support_position("x5/x5/x5/x,2,x3/1,1,2,x2 1 3", &r);
    assert_int_equal(pos.stones[TAK_WHITE], 1);
    TakPosition flat = pos;
    support_play(&flat, "d3");
    assert_int_equal(flat.stones[TAK_WHITE], 0);
    assert_result(&flat, TAK_END_RESERVES, TAK_WHITE);
    assert_result_code(&flat, "F-0");
    assert_no_moves(&flat);
    TakPosition wall = pos;
    support_play(&wall, "Sd3");
    assert_result(&wall, TAK_END_RESERVES, -1);
    assert_result_code(&wall, "1/2-1/2");
}

static void test_reserve_exhausted_of_player_who_did_not_move(void **state) {
    (void)state;
    /* One stone each: White's first turn places Black's only stone. */
    TakRules r = rules_with(5, 1, 0, 0);
    TakPosition pos;
    assert_true(tak_position_init(&pos, &r, NULL));
    support_play(&pos, "c3");
    assert_int_equal(pos.stones[TAK_BLACK], 0);
    assert_int_equal(pos.stones[TAK_WHITE], 1);
    assert_result(&pos, TAK_END_RESERVES, TAK_BLACK);
    assert_result_code(&pos, "0-F");
    assert_no_moves(&pos);
}

static void test_reserve_includes_capstones(void **state) {
    (void)state;
    /* One stone and one capstone each: after the opening both still hold a
     * capstone, so the game goes on; it ends when White places it. */
    TakRules r = rules_with(5, 1, 1, 0);
    TakPosition pos;
    assert_true(tak_position_init(&pos, &r, NULL));
    support_play_all(&pos, "a1 e5");
    assert_false(tak_position_is_over(&pos));
    assert_int_equal(pos.stones[TAK_WHITE] + pos.stones[TAK_BLACK], 0);
    assert_int_equal(count_generated(&pos, is_place_kind, TAK_PLACE_CAP), 23);
    assert_int_equal(count_generated(&pos, is_place_kind, TAK_PLACE_FLAT), 0);
    assert_int_equal(count_generated(&pos, is_place_kind, TAK_PLACE_WALL), 0);
    assert_illegal(&pos, "Sc3");
    support_play(&pos, "Cc3");
    /* One flat each (the capstone does not count): a draw. */
    assert_result(&pos, TAK_END_RESERVES, -1);
}

static void test_komi_added_to_black(void **state) {
    (void)state;
    static const struct {
        int half_komi;
        const char *move;
        TakEnd end;
        int winner;
        const char *code;
    } cases[] = {
        /* flats after c1: White 5, Black 4; after Sc1: 4 and 4 */
        {0, "c1", TAK_END_BOARD_FULL, TAK_WHITE, "F-0"},
        {2, "c1", TAK_END_BOARD_FULL, -1, "1/2-1/2"},     /* 5 : 4 + 1 */
        {4, "c1", TAK_END_BOARD_FULL, TAK_BLACK, "0-F"},  /* 5 : 4 + 2 */
        {1, "c1", TAK_END_BOARD_FULL, TAK_WHITE, "F-0"},  /* 5 : 4.5 */
        {3, "c1", TAK_END_BOARD_FULL, TAK_BLACK, "0-F"},  /* 5 : 5.5 */
        {1, "Sc1", TAK_END_BOARD_FULL, TAK_BLACK, "0-F"}, /* 4 : 4.5 */
        {20, "c1", TAK_END_BOARD_FULL, TAK_BLACK, "0-F"}, /* 5 : 14 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TakRules r = rules_with(3, 10, 0, cases[i].half_komi);
        TakPosition pos = support_position(full_3x3, &r);
        support_play(&pos, cases[i].move);
        assert_result(&pos, cases[i].end, cases[i].winner);
        assert_result_code(&pos, cases[i].code);
    }
}

static void test_komi_half_point_makes_draws_impossible(void **state) {
    (void)state;
    for (int half = -19; half <= 19; half += 2) {
        TakRules r = rules_with(3, 10, 0, half);
        TakPosition pos = support_position(full_3x3, &r);
        int n = tak_moves_generate(&pos, &list);
        assert_true(n > 0);
        for (int i = 0; i < n; i++) {
            TakPosition next = pos;
            assert_true(tak_position_apply(&next, list.moves[i], NULL));
            if (tak_position_is_over(&next)) assert_true(tak_position_result(&next).winner >= 0);
        }
    }
}

static void test_komi_negative(void **state) {
    (void)state;
    /* 4 : 4 - 1 after the wall: White wins on flats. */
    TakRules r = rules_with(3, 10, 0, -2);
    TakPosition pos = support_position(full_3x3, &r);
    support_play(&pos, "Sc1");
    assert_result(&pos, TAK_END_BOARD_FULL, TAK_WHITE);
    /* 4 : 4 - 0.5 */
    r.half_komi = -1;
    pos = support_position(full_3x3, &r);
    support_play(&pos, "Sc1");
    assert_result(&pos, TAK_END_BOARD_FULL, TAK_WHITE);
    /* 5 : 4 - 10: Black loses more */
    r.half_komi = -20;
    TakPosition b = support_position("2,1,2/1,2,1/2,1,x 2 5", &r);
    support_play(&b, "c1");
    assert_result(&b, TAK_END_BOARD_FULL, TAK_WHITE);
}

/* ---- no-pass rule --------------------------------------------------------- */

static const char *pass_tps = "x4,2/x5/x,21,1S,2,x/x5/1,x4 1 5";

static void test_no_pass_rule_on_by_default(void **state) {
    (void)state;
    TakPosition pos = support_position(pass_tps, NULL);
    assert_true(pos.rules.no_pass);
    assert_int_equal(count_generated(&pos, is_pass, 0), 0);
    for (int sq = 0; sq < 25; sq++)
        for (int dir = 0; dir < 4; dir++)
            assert_false(tak_move_is_legal(&pos, tak_move_spread(sq, (TakDirection)dir, 0)));
}

static void test_pass_allowed_when_no_pass_rule_off(void **state) {
    (void)state;
    TakPosition strict = support_position(pass_tps, NULL);
    TakRules r = support_rules(5);
    r.no_pass = false;
    TakPosition pos = support_position(pass_tps, &r);
    assert_false(pos.rules.no_pass);
    /* One pass per stack White controls: b3, c3 and a1. */
    int n = tak_moves_generate(&pos, &list);
    assert_int_equal(n, (int)tak_moves_count(&strict) + 3);
    assert_int_equal(tak_moves_count(&pos), (uint64_t)n);
    TakBitboard seen = 0;
    for (int i = 0; i < n; i++) {
        if (!tak_move_is_pass(list.moves[i])) continue;
        TakBitboard b = (TakBitboard)1 << tak_move_square(list.moves[i]);
        assert_false(seen & b);
        seen |= b;
        assert_true(tak_move_is_legal(&pos, list.moves[i]));
        assert_int_equal(tak_move_count(list.moves[i]), 0);
    }
    assert_int_equal(seen, pos.owner[TAK_WHITE]);

    /* A pass changes nothing but the side to move. */
    TakPosition after = pos;
    support_play(&after, "1b3");
    assert_tps(&after, "x4,2/x5/x,21,1S,2,x/x5/1,x4 2 5");
    assert_memory_equal(after.height, pos.height, sizeof pos.height);
    assert_memory_equal(after.owner, pos.owner, sizeof pos.owner);
    assert_int_equal(after.walls, pos.walls);
    assert_int_equal(after.caps, pos.caps);
    assert_memory_equal(after.stones, pos.stones, sizeof pos.stones);
    assert_memory_equal(after.capstones, pos.capstones, sizeof pos.capstones);
    assert_int_equal(after.side, TAK_BLACK);
    assert_int_equal(after.ply, pos.ply + 1);
    assert_int_not_equal(after.hash, pos.hash);
    assert_int_equal(after.hash, tak_position_compute_hash(&after));
    assert_false(tak_position_is_over(&after));
    /* Black passes back: the same stacks with White to move. */
    support_play(&after, "1d3");
    assert_int_equal(after.hash, pos.hash);

    /* No passes in the opening: there is nothing to move yet. */
    TakPosition opening = support_position("x5/x5/x2,2,x2/x5/x5 2 1", &r);
    assert_int_equal(count_generated(&opening, is_pass, 0), 0);
    assert_int_equal(count_generated(&opening, is_any, 0), 24);
}

/* ---- repetition ----------------------------------------------------------- */

/* Four plies that bring the start position back. */
static const char *shuffle[] = {"a1>", "e5<", "b1<", "d5>"};

static void play_game(TakGame *game, const char *text) {
    TakMove m = support_move(&game->current, text);
    TakError err;
    if (!tak_game_play(game, m, &err)) fail_msg("tak_game_play(%s) refused: %s", text, err.message);
}

static void test_repetition_third_occurrence_is_draw(void **state) {
    (void)state;
    TakRules r = support_rules(5);
    r.repetition_draw = true;
    TakPosition start = support_position("x4,2/x5/x5/x5/1,x4 1 2", &r);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    assert_int_equal(tak_game_occurrences(&game), 1);
    for (int i = 0; i < 7; i++) {
        play_game(&game, shuffle[i % 4]);
        assert_int_equal(tak_game_result(&game).end, TAK_END_NONE);
    }
    assert_int_equal(tak_game_occurrences(&game), 2);
    play_game(&game, shuffle[3]);
    assert_int_equal(tak_game_occurrences(&game), 3);
    TakResult res = tak_game_result(&game);
    assert_int_equal(res.end, TAK_END_REPETITION);
    assert_int_equal(res.winner, -1);
    assert_string_equal(tak_result_code(res), "1/2-1/2");
    /* The game is over: nothing more is played, nor ended. */
    TakError err;
    assert_false(tak_game_play(&game, support_move_code("a1>", 5), &err));
    assert_int_equal(game.count, 8);
    assert_false(tak_game_end(&game, TAK_END_RESIGNATION, TAK_WHITE));
    /* Taking the move back takes the draw back. */
    assert_true(tak_game_undo(&game));
    assert_int_equal(tak_game_result(&game).end, TAK_END_NONE);
    assert_int_equal(tak_game_occurrences(&game), 2);
    tak_game_free(&game);
}

static void test_repetition_off_by_default(void **state) {
    (void)state;
    TakPosition start = support_position("x4,2/x5/x5/x5/1,x4 1 2", NULL);
    assert_false(start.rules.repetition_draw);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    for (int i = 0; i < 16; i++) play_game(&game, shuffle[i % 4]);
    assert_int_equal(tak_game_occurrences(&game), 5);
    assert_int_equal(tak_game_result(&game).end, TAK_END_NONE);
    assert_string_equal(tak_result_code(tak_game_result(&game)), "*");
    tak_game_free(&game);
}

static void test_repetition_needs_same_side_and_reserves(void **state) {
    (void)state;
    TakRules r = support_rules(5);
    r.repetition_draw = true;
    r.no_pass = false;
    /* Passing back and forth repeats the position every two plies; the
     * position with Black to move is a different one. */
    TakPosition start = support_position("x4,2/x5/x5/x5/1,x4 1 2", &r);
    TakGame game;
    assert_true(tak_game_init(&game, &start, NULL));
    play_game(&game, "1a1");
    assert_int_equal(tak_game_occurrences(&game), 1);
    play_game(&game, "1e5");
    assert_int_equal(tak_game_occurrences(&game), 2);
    play_game(&game, "1a1");
    assert_int_equal(tak_game_occurrences(&game), 2);
    assert_int_equal(tak_game_result(&game).end, TAK_END_NONE);
    play_game(&game, "1e5");
    assert_int_equal(tak_game_result(&game).end, TAK_END_REPETITION);
    tak_game_free(&game);
}

/* ---- endings, results, Tak ---------------------------------------------- */

static void test_result_codes(void **state) {
    (void)state;
    static const struct {
        TakResult r;
        const char *code;
    } cases[] = {
        {{TAK_END_NONE, -1}, "*"},
        {{TAK_END_ROAD, TAK_WHITE}, "R-0"},
        {{TAK_END_ROAD, TAK_BLACK}, "0-R"},
        {{TAK_END_BOARD_FULL, TAK_WHITE}, "F-0"},
        {{TAK_END_BOARD_FULL, TAK_BLACK}, "0-F"},
        {{TAK_END_BOARD_FULL, -1}, "1/2-1/2"},
        {{TAK_END_RESERVES, TAK_WHITE}, "F-0"},
        {{TAK_END_RESERVES, TAK_BLACK}, "0-F"},
        {{TAK_END_RESERVES, -1}, "1/2-1/2"},
        {{TAK_END_REPETITION, -1}, "1/2-1/2"},
        {{TAK_END_RESIGNATION, TAK_WHITE}, "1-0"},
        {{TAK_END_RESIGNATION, TAK_BLACK}, "0-1"},
        {{TAK_END_TIME, TAK_WHITE}, "1-0"},
        {{TAK_END_TIME, TAK_BLACK}, "0-1"},
        {{TAK_END_AGREEMENT, -1}, "1/2-1/2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_string_equal(tak_result_code(cases[i].r), cases[i].code);
        char buf[128];
        buf[0] = '\0';
        const char *text = tak_result_describe(cases[i].r, buf, sizeof buf);
        assert_non_null(text);
        assert_true(strlen(text) > 0);
    }
}

static void test_resignation_time_and_agreement_endings(void **state) {
    (void)state;
    static const struct {
        TakEnd end;
        int winner;
        const char *code;
    } cases[] = {
        {TAK_END_RESIGNATION, TAK_WHITE, "1-0"}, {TAK_END_RESIGNATION, TAK_BLACK, "0-1"},
        {TAK_END_TIME, TAK_WHITE, "1-0"},        {TAK_END_TIME, TAK_BLACK, "0-1"},
        {TAK_END_AGREEMENT, -1, "1/2-1/2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TakPosition start = support_position("x4,2/x5/x5/x5/1,x4 1 2", NULL);
        TakGame game;
        assert_true(tak_game_init(&game, &start, NULL));
        play_game(&game, "c3");
        assert_true(tak_game_end(&game, cases[i].end, cases[i].winner));
        TakResult res = tak_game_result(&game);
        assert_int_equal(res.end, cases[i].end);
        assert_int_equal(res.winner, cases[i].winner);
        assert_string_equal(tak_result_code(res), cases[i].code);
        /* The board itself is not over; the game is. */
        assert_false(tak_position_is_over(&game.current));
        TakError err;
        assert_false(tak_game_play(&game, support_move_code("d3", 5), &err));
        assert_int_equal(game.count, 1);
        assert_false(tak_game_end(&game, TAK_END_RESIGNATION, TAK_BLACK));
        assert_true(tak_game_undo(&game));
        assert_int_equal(tak_game_result(&game).end, TAK_END_NONE);
        tak_game_free(&game);
    }
}

static void test_tak_query(void **state) {
    (void)state;
    /* Black to move; White threatens c3. */
    TakPosition pos = support_position("x5/x5/1,1,x,1,1/x5/2,2,x3 2 6", NULL);
    assert_true(tak_position_has_tak(&pos, TAK_WHITE));
    assert_false(tak_position_has_tak(&pos, TAK_BLACK));
    support_play(&pos, "Sc3");
    assert_false(tak_position_has_tak(&pos, TAK_WHITE));
    /* A threat made with a stack move: c4 holds a White flat over Black. */
    TakPosition move = support_position("x5/x2,21,x2/1,1,2,1,1/x5/2,x4 1 6", NULL);
    assert_false(tak_position_has_road(&move, TAK_WHITE));
    assert_true(tak_position_has_tak(&move, TAK_WHITE));
    /* A capstone flattening a wall completes a road: that is Tak too. */
    TakPosition flatten = support_position("x5/x2,1C,x2/1,1,2S,1,1/x5/2,x4 2 6", NULL);
    assert_true(tak_position_has_tak(&flatten, TAK_WHITE));
    /* Asking about the side to move. */
    TakPosition black = support_position("x4,2/x4,2/x5/x4,2/x4,2 2 6", NULL);
    assert_true(tak_position_has_tak(&black, TAK_BLACK));
    assert_false(tak_position_has_tak(&black, TAK_WHITE));
    /* A finished game has no Tak. */
    TakPosition over = support_position("x5/x5/1,1,1,1,1/x5/2,2,x,1,2 2 6", NULL);
    assert_true(tak_position_is_over(&over));
    assert_false(tak_position_has_tak(&over, TAK_WHITE));
    assert_false(tak_position_has_tak(&over, TAK_BLACK));
    /* The empty board: no Tak. */
    TakPosition empty = support_position("x5/x5/x5/x5/x5 1 1", NULL);
    assert_false(tak_position_has_tak(&empty, TAK_WHITE));
}

static void test_rules_validation_errors(void **state) {
    (void)state;
    struct {
        const char *what;
        TakRules r;
        bool ok;
    } cases[] = {
        {"size 2", rules_with(3, 10, 0, 0), false},
        {"size 9", rules_with(8, 50, 2, 0), false},
        {"komi 21 halves", rules_with(5, 21, 1, 21), false},
        {"komi -21 halves", rules_with(5, 21, 1, -21), false},
        {"komi 20 halves", rules_with(5, 21, 1, 20), true},
        {"komi -20 halves", rules_with(5, 21, 1, -20), true},
        {"no stones", rules_with(5, 0, 1, 0), false},
        {"negative stones", rules_with(5, -1, 1, 0), false},
        {"negative capstones", rules_with(5, 21, -1, 0), false},
        {"reserve 65", rules_with(8, 63, 2, 0), false},
        {"reserve 64", rules_with(8, 62, 2, 0), true},
        {"stones 65", rules_with(8, 65, 0, 0), false},
        {"capstones 64", rules_with(8, 1, 64, 0), false},
    };
    cases[0].r.size = 2;
    cases[1].r.size = 9;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TakError err;
        err.message[0] = '\0';
        bool ok = tak_rules_validate(&cases[i].r, &err);
        if (ok != cases[i].ok)
            fail_msg("tak_rules_validate(%s) = %d, want %d", cases[i].what, ok, cases[i].ok);
        if (!ok) {
            assert_true(err.message[0] != '\0');
            TakPosition pos;
            memset(&pos, 0, sizeof pos);
            if (tak_position_init(&pos, &cases[i].r, &err))
                fail_msg("tak_position_init accepted rules with %s", cases[i].what);
            if (tak_tps_read("x5/x5/x5/x5/x5 1 1", &cases[i].r, &pos, &err))
                fail_msg("tak_tps_read accepted rules with %s", cases[i].what);
        }
    }
}

static void test_finished_positions_have_no_moves(void **state) {
    (void)state;
    static const char *over[] = {
        "x5/x5/1,1,1,1,1/x5/2,2,x,2,2 2 6",  /* road */
        "1,2,1/2,1,2/1,2,1 2 5",             /* board full */
        "x4,2/x4,2/x4,2/x4,2/x4,2 1 6",      /* Black's road, White to move */
        "x2,1,1,1/2,2,2,2,2/x5/x5/1,x4 1 7", /* road beside the opponent's flats */
    };
    for (size_t i = 0; i < sizeof over / sizeof over[0]; i++) {
        TakPosition pos = support_position(over[i], NULL);
        assert_no_moves(&pos);
    }
    TakRules r = rules_with(4, 2, 0, 0);
    TakPosition reserves = support_position("x4/x,1,2,x/x,1,2,x/x4 1 3", &r);
    assert_result(&reserves, TAK_END_RESERVES, -1);
    assert_no_moves(&reserves);
    /* The same with the no-pass rule off: no pass either. */
    r.no_pass = false;
    reserves = support_position("x4/x,1,2,x/x,1,2,x/x4 1 3", &r);
    assert_no_moves(&reserves);
}

static void test_drop_codes(void **state) {
    (void)state;
    int d[8];
    assert_int_equal(tak_drops_encode((int[]){1}, 1), 0x1);
    assert_int_equal(tak_drops_encode((int[]){3}, 1), 0x4);
    assert_int_equal(tak_drops_encode((int[]){1, 2}, 2), 0x5);
    assert_int_equal(tak_drops_encode((int[]){2, 1}, 2), 0x6);
    assert_int_equal(tak_drops_encode((int[]){1, 1, 1, 1, 1, 1, 1, 1}, 8), 0xFF);
    assert_int_equal(tak_drops_encode((int[]){8}, 1), 0x80);
    assert_int_equal(tak_drops_encode(d, 0), 0);
    assert_int_equal(tak_drops_encode((int[]){1, 0, 1}, 3), 0);
    assert_int_equal(tak_drops_encode((int[]){5, 4}, 2), 0);
    for (unsigned code = 1; code < 256; code++) {
        int n = tak_drops_decode(code, d);
        assert_int_equal(n, __builtin_popcount(code));
        assert_int_equal(tak_drops_encode(d, n), code);
    }
    TakMove m = tak_move_spread(SQ('b', 2, 5), TAK_EAST, 0x5);
    assert_int_equal(tak_move_square(m), SQ('b', 2, 5));
    assert_int_equal(tak_move_direction(m), TAK_EAST);
    assert_int_equal(tak_move_count(m), 3);
    assert_int_equal(tak_move_distance(m), 2);
    assert_true(tak_move_is_spread(m));
    assert_false(tak_move_is_pass(m));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board_sizes_3_to_8_with_reserves_table),
        cmocka_unit_test(test_board_size_out_of_range_refused),
        cmocka_unit_test(test_reserves_7x7_are_40_stones_2_capstones),
        cmocka_unit_test(test_custom_reserves),
        cmocka_unit_test(test_named_game_types),
        cmocka_unit_test(test_named_game_type_lookup),
        cmocka_unit_test(test_opening_first_turns_place_opponent_flat),
        cmocka_unit_test(test_opening_no_wall_capstone_or_move),
        cmocka_unit_test(test_opening_stone_from_opponent_reserve),
        cmocka_unit_test(test_place_only_on_empty_squares),
        cmocka_unit_test(test_place_flat_wall_and_capstone),
        cmocka_unit_test(test_no_capstone_placement_when_none_left),
        cmocka_unit_test(test_move_only_stacks_you_control),
        cmocka_unit_test(test_carry_limit_is_board_size),
        cmocka_unit_test(test_spread_drops_at_least_one_per_square),
        cmocka_unit_test(test_spread_drops_from_the_bottom),
        cmocka_unit_test(test_no_drop_on_wall_or_capstone),
        cmocka_unit_test(test_capstone_alone_flattens_wall_of_either_colour),
        cmocka_unit_test(test_capstone_flattens_at_end_of_longer_move),
        cmocka_unit_test(test_capstone_with_other_pieces_cannot_flatten),
        cmocka_unit_test(test_walls_and_capstones_move_like_any_piece),
        cmocka_unit_test(test_covered_pieces_keep_type_and_colour),
        cmocka_unit_test(test_no_limit_on_stack_height),
        cmocka_unit_test(test_stack_taller_than_64),
        cmocka_unit_test(test_road_north_south),
        cmocka_unit_test(test_road_east_west),
        cmocka_unit_test(test_road_squares),
        cmocka_unit_test(test_road_may_bend),
        cmocka_unit_test(test_road_walls_never_count),
        cmocka_unit_test(test_road_capstones_count),
        cmocka_unit_test(test_road_diagonals_do_not_connect),
        cmocka_unit_test(test_road_made_by_a_move),
        cmocka_unit_test(test_road_only_one_edge_is_no_road),
        cmocka_unit_test(test_double_road_mover_wins),
        cmocka_unit_test(test_move_completing_only_opponent_road_loses),
        cmocka_unit_test(test_move_dropping_opponent_piece_completes_their_road),
        cmocka_unit_test(test_road_checked_before_flats),
        cmocka_unit_test(test_board_full_ends_game_on_flats),
        cmocka_unit_test(test_board_full_by_a_spread),
        cmocka_unit_test(test_draw_on_equal_flats),
        cmocka_unit_test(test_flat_count_ignores_walls_capstones_and_covered),
        cmocka_unit_test(test_reserve_exhausted_ends_game_on_flats),
        cmocka_unit_test(test_reserve_exhausted_of_player_who_did_not_move),
        cmocka_unit_test(test_reserve_includes_capstones),
        cmocka_unit_test(test_komi_added_to_black),
        cmocka_unit_test(test_komi_half_point_makes_draws_impossible),
        cmocka_unit_test(test_komi_negative),
        cmocka_unit_test(test_no_pass_rule_on_by_default),
        cmocka_unit_test(test_pass_allowed_when_no_pass_rule_off),
        cmocka_unit_test(test_repetition_third_occurrence_is_draw),
        cmocka_unit_test(test_repetition_off_by_default),
        cmocka_unit_test(test_repetition_needs_same_side_and_reserves),
        cmocka_unit_test(test_result_codes),
        cmocka_unit_test(test_resignation_time_and_agreement_endings),
        cmocka_unit_test(test_tak_query),
        cmocka_unit_test(test_rules_validation_errors),
        cmocka_unit_test(test_finished_positions_have_no_moves),
        cmocka_unit_test(test_drop_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
