/*
 * test_ply.c: squares and single PTN plies (notation.md, "A ply in PTN"):
 * every form the spec shows, the marks, the errors of syntax and of board
 * bounds at their columns, the errors of rules with their reasons, and
 * writing: short and long forms, '*', and a write -> read round trip of
 * every legal move in positions of every size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static void test_squares(void **state) {
    (void)state;
    for (int size = TAK_MIN_SIZE; size <= TAK_MAX_SIZE; size++) {
        for (int sq = 0; sq < size * size; sq++) {
            char name[3];
            tak_square_name(sq, size, name);
            assert_int_equal(name[0], 'a' + sq % size);
            assert_int_equal(name[1], '1' + sq / size);
            assert_int_equal(tak_square_parse(name, size), sq);
        }
    }
    assert_int_equal(tak_square_parse("a1", 5), 0);
    assert_int_equal(tak_square_parse("e5", 5), 24);
    assert_int_equal(tak_square_parse("b1", 5), 1);
    assert_int_equal(tak_square_parse("a2", 5), 5);
    static const char *const bad[] = {"",    "a",  "a0",  "f1", "a6", "A1",
                                      "a1x", "1a", "a10", "i1", "aa"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (tak_square_parse(bad[i], 5) != -1) fail_msg("\"%s\" read as a square of 5x5", bad[i]);
    assert_int_equal(tak_square_parse("h8", 8), 63);
    assert_int_equal(tak_square_parse("h8", 7), -1);
    assert_int_equal(tak_square_parse("a1", 2), -1);
    assert_int_equal(tak_square_parse(NULL, 5), -1);
    char name[3];
    tak_square_name(25, 5, name);
    assert_string_equal(name, "??");
}

typedef struct PlyCase {
    const char *text;
    TakMove move;
    int piece, marks;
} PlyCase;

static TakMove spread(const char *square, TakDirection dir, const int *drops, int n) {
    return tak_move_spread(tak_square_parse(square, 5), dir, tak_drops_encode(drops, n));
}

static void test_forms(void **state) {
    (void)state;
    static const int one[] = {1}, two[] = {2}, three[] = {3}, d111[] = {1, 1, 1}, d23[] = {2, 3};
    const PlyCase cases[] = {
        {"a1", tak_move_place(0, TAK_PLACE_FLAT), -1, 0},
        {"Fa1", tak_move_place(0, TAK_PLACE_FLAT), -1, 0},
        {"Sd3", tak_move_place(13, TAK_PLACE_WALL), -1, 0},
        {"Cb4", tak_move_place(16, TAK_PLACE_CAP), -1, 0},
        {"a1>", spread("a1", TAK_EAST, one, 1), -1, 0},
        {"1a1>", spread("a1", TAK_EAST, one, 1), -1, 0},
        {"1a1>1", spread("a1", TAK_EAST, one, 1), -1, 0},
        {"3b2+111", spread("b2", TAK_NORTH, d111, 3), -1, 0},
        {"5e4<23", spread("e4", TAK_WEST, d23, 2), -1, 0},
        {"2d4-2", spread("d4", TAK_SOUTH, two, 1), -1, 0},
        {"2d4-", spread("d4", TAK_SOUTH, two, 1), -1, 0},
        {"3c3<3", spread("c3", TAK_WEST, three, 1), -1, 0},
        {"c3-C", spread("c3", TAK_SOUTH, one, 1), TAK_CAP, 0},
        {"2c3>11S", tak_move_spread(12, TAK_EAST, 3), TAK_WALL, 0},
        {"e4<*", spread("e4", TAK_WEST, one, 1), -1, TAK_MARK_FLATTEN},
        {"a1'", tak_move_place(0, TAK_PLACE_FLAT), -1, TAK_MARK_TAK},
        {"a1''", tak_move_place(0, TAK_PLACE_FLAT), -1, TAK_MARK_TINUE},
        {"a1\"", tak_move_place(0, TAK_PLACE_FLAT), -1, TAK_MARK_TINUE},
        {"a1!", tak_move_place(0, TAK_PLACE_FLAT), -1, TAK_MARK_GOOD},
        {"a1!!", tak_move_place(0, TAK_PLACE_FLAT), -1, TAK_MARK_GOOD},
        {"a1?", tak_move_place(0, TAK_PLACE_FLAT), -1, TAK_MARK_BAD},
        {"a1??", tak_move_place(0, TAK_PLACE_FLAT), -1, TAK_MARK_BAD},
        {"a1!?", tak_move_place(0, TAK_PLACE_FLAT), -1, TAK_MARK_INTERESTING},
        {"a1?!", tak_move_place(0, TAK_PLACE_FLAT), -1, TAK_MARK_INTERESTING},
        {"4d4<*'", tak_move_spread(18, TAK_WEST, 8), -1, TAK_MARK_FLATTEN | TAK_MARK_TAK},
        {"4d4<!'", tak_move_spread(18, TAK_WEST, 8), -1, TAK_MARK_GOOD | TAK_MARK_TAK},
        {"c3-'!", spread("c3", TAK_SOUTH, one, 1), -1, TAK_MARK_TAK | TAK_MARK_GOOD},
        {"2c3>11C*''?!", tak_move_spread(12, TAK_EAST, 3), TAK_CAP,
         TAK_MARK_FLATTEN | TAK_MARK_TINUE | TAK_MARK_INTERESTING},
        {"1c3", tak_move_pass(12), -1, 0},
        {"3c3", tak_move_pass(12), -1, 0},
        {" a1\n", tak_move_place(0, TAK_PLACE_FLAT), -1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TakPly ply;
        TakError err;
        if (!tak_ply_parse(cases[i].text, 5, &ply, &err))
            fail_msg("refused \"%s\": column %d: %s", cases[i].text, err.column, err.message);
        if (ply.move != cases[i].move || ply.piece != cases[i].piece || ply.marks != cases[i].marks)
            fail_msg("\"%s\": move %#x piece %d marks %#x, want %#x %d %#x", cases[i].text,
                     (unsigned)ply.move, ply.piece, ply.marks, (unsigned)cases[i].move,
                     cases[i].piece, cases[i].marks);
    }
}

typedef struct ErrorCase {
    const char *text;
    int size, column;
    const char *says;
} ErrorCase;

static void test_syntax_errors(void **state) {
    (void)state;
    static const ErrorCase cases[] = {
        {"", 5, 1, "empty ply"},
        {"a", 5, 2, "rank is missing"},
        {"3", 5, 2, "a square is missing"},
        {"S", 5, 2, "a square is missing"},
        {"A1", 5, 1, "expected a square, found 'A'"},
        {"f1", 5, 1, "file 'f' is off the 5x5 board"},
        {"a6", 5, 2, "rank 6 is off the 5x5 board"},
        {"a0", 5, 2, "rank 0 is off"},
        {"a10", 8, 2, "rank 10 is off"},
        {"h8", 8, 0, NULL},
        {"sa1", 5, 1, "capitals: write 'S'"},
        {"ca1", 5, 1, "capitals: write 'C'"},
        {"fa1", 5, 1, "capitals: write 'F'"},
        {"Xa1", 5, 1, "expected a square, found 'X'"},
        {"a1F", 5, 3, "piece letter goes first"},
        {"a1S", 5, 3, "piece letter goes first"},
        {"Sa1+", 5, 1, "a move takes no piece letter in front"},
        {"0a1+", 5, 1, "a count of 0"},
        {"6a1+", 5, 1, "6 pieces exceed the carry limit of 5"},
        {"9a1+", 8, 1, "9 pieces exceed the carry limit of 8"},
        {"123456789012a1+", 5, 1, "exceed the carry limit"},
        {"a1+0", 5, 4, "a drop of 0"},
        {"2a1+02", 5, 5, "a drop of 0"},
        {"a1+11", 5, 4, "add up to 2, but 1 piece is lifted (no count means 1)"},
        {"3a1+12S1", 5, 8, "unexpected '1'"},
        {"3a1+11", 5, 5, "add up to 2, but 3 pieces are lifted"},
        {"2a1+111", 5, 5, "add up to 3, but 2 pieces are lifted"},
        {"5a1+11111", 5, 5, "off the board: it covers 5 squares, and 4 lie beyond a1"},
        {"e5+", 5, 3, "off the board: it covers 1 square, and 0 lie beyond e5"},
        {"a1-", 5, 3, "off the board"},
        {"a1<", 5, 3, "off the board"},
        {"e1>", 5, 3, "off the board"},
        {"2c3>111", 5, 5, "add up to 3"},
        {"3c3>111", 5, 5, "covers 3 squares, and 2 lie beyond c3"},
        {"2a1+F", 5, 5, "only 'S' or 'C'"},
        {"2a1+c", 5, 5, "only 'S' or 'C'"},
        {"a1x", 5, 3, "unexpected 'x' after the ply"},
        {"a1 b1", 5, 3, "unexpected a space"},
        {"a1+*x", 5, 5, "unexpected 'x'"},
        {"1c3x", 5, 4, "expected a direction"},
        {"a1=", 5, 3, "unexpected '='"},
        {"a1\x01", 5, 3, "byte 0x01"},
        {"  a1+0", 5, 6, "a drop of 0"},
        {"a1", 9, 0, "board size 9"},
        {"a1", 2, 0, "board size 2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TakPly ply = {123, 45, 67}, before = ply;
        TakError err;
        bool ok = tak_ply_parse(cases[i].text, cases[i].size, &ply, &err);
        if (!cases[i].says) {
            if (!ok) fail_msg("refused \"%s\": %s", cases[i].text, err.message);
            continue;
        }
        if (ok) fail_msg("accepted \"%s\" on %dx%d", cases[i].text, cases[i].size, cases[i].size);
        if (memcmp(&ply, &before, sizeof ply) != 0)
            fail_msg("\"%s\": output changed", cases[i].text);
        if (err.column != cases[i].column || !strstr(err.message, cases[i].says))
            fail_msg("\"%s\": column %d \"%s\", want column %d and \"%s\"", cases[i].text,
                     err.column, err.message, cases[i].column, cases[i].says);
        assert_int_equal(err.line, 0);
    }
}

/* A position after a few moves, for the rule errors. */
static TakPosition middle_game(void) {
    /* a1: 2 (Black flat), b1: 1C, c1: 2S, c3: 12 (Black on top), e5: 1 */
    return support_position("x4,1/x5/x2,12,x2/x5/2,1C,2S,x2 1 6", NULL);
}

static void test_rule_errors(void **state) {
    (void)state;
    TakPosition pos = middle_game();
    static const struct {
        const char *text, *says;
    } cases[] = {
        {"a1", "a1 is not empty"},
        {"Cd4", "White has no capstones left"},
        {"a1>", "the stack on a1 is not White's"},
        {"d4+", "there is no stack on d4"},
        {"2e5-", "the stack on e5 has only 1 piece"},
        {"b1>", "only a capstone can flatten"}, /* b1 is a capstone: it can */
        {"e5-S", "the piece on top of e5 is a flat, not a wall"},
        {"b1+S", "the piece on top of b1 is a capstone, not a wall"},
        {"1e5", "passing is not allowed"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TakMove move = 77;
        TakError err;
        bool ok = tak_move_parse(&pos, cases[i].text, &move, &err);
        if (strcmp(cases[i].text, "b1>") == 0) {
            /* The capstone alone flattens the wall on c1. */
            if (!ok) fail_msg("refused b1>: %s", err.message);
            assert_true(tak_move_flattens(&pos, move));
            continue;
        }
        if (ok) fail_msg("accepted \"%s\"", cases[i].text);
        assert_int_equal(move, 77);
        if (!strstr(err.message, cases[i].says))
            fail_msg("\"%s\": \"%s\", want \"%s\"", cases[i].text, err.message, cases[i].says);
    }
    /* A wall in the way, and the opening. */
    TakMove move;
    TakError err;
    pos = support_position("x5/x5/x5/x5/1,2S,x3 1 4", NULL);
    assert_false(tak_move_parse(&pos, "a1>", &move, &err));
    assert_non_null(strstr(err.message, "only a capstone can flatten the wall on b1"));
    TakRules rules = support_rules(5);
    assert_true(tak_position_init(&pos, &rules, NULL));
    assert_false(tak_move_parse(&pos, "Sa1", &move, &err));
    assert_non_null(strstr(err.message, "first turn"));
    /* A syntax error through tak_move_parse keeps its column. */
    assert_false(tak_move_parse(&pos, "a1+0", &move, &err));
    assert_int_equal(err.column, 4);
    /* The game is over. */
    pos = support_position("x3/x3/1,1,1 2 4", NULL);
    assert_false(tak_move_parse(&pos, "a2", &move, &err));
    assert_non_null(strstr(err.message, "the game is over"));
}

/* A wrong '*' (or a missing one) does not change which move is meant. */
static void test_flatten_mark_not_binding(void **state) {
    (void)state;
    TakPosition pos = middle_game();
    TakMove with, without;
    assert_true(tak_move_parse(&pos, "b1>*", &with, NULL));
    assert_true(tak_move_parse(&pos, "b1>", &without, NULL));
    assert_int_equal(with, without);
    assert_true(tak_move_parse(&pos, "e5-*", &with, NULL));
    assert_true(tak_move_parse(&pos, "e5-", &without, NULL));
    assert_int_equal(with, without);
}

static void test_pass(void **state) {
    (void)state;
    TakRules rules = support_rules(5);
    rules.no_pass = false;
    TakPosition pos = support_position("x4,1/x5/x2,12,x2/x5/2,1C,2S,x2 1 6", &rules);
    TakMove move;
    TakError err;
    if (!tak_move_parse(&pos, "1e5", &move, &err)) fail_msg("pass refused: %s", err.message);
    assert_true(tak_move_is_pass(move));
    char buf[TAK_MOVE_TEXT_MAX];
    tak_move_write(move, 5, &pos, buf);
    assert_string_equal(buf, "1e5");
    assert_false(tak_move_parse(&pos, "1c3", &move, &err));
    assert_non_null(strstr(err.message, "not White's"));
}

static void test_write_forms(void **state) {
    (void)state;
    static const char *const same[] = {"a1",     "Sd3",  "Cb4", "a1>",    "3b2+111",
                                       "5e4<23", "2d4-", "c3<", "4a1+13", NULL};
    static const struct {
        const char *in, *short_form, *long_form;
    } cases[] = {
        {"1a1>1", "a1>", "1a1>1"},         {"Fa1", "a1", "a1"},   {"2d4-2", "2d4-", "2d4-2"},
        {"3b2+111", "3b2+111", "3b2+111"}, {"Sd3", "Sd3", "Sd3"}, {"e4<*'", "e4<", "1e4<1"},
    };
    char buf[TAK_MOVE_TEXT_MAX];
    for (int i = 0; same[i]; i++) {
        TakPly ply;
        assert_true(tak_ply_parse(same[i], 5, &ply, NULL));
        assert_int_equal(tak_move_write(ply.move, 5, NULL, buf), (int)strlen(same[i]));
        assert_string_equal(buf, same[i]);
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TakPly ply;
        assert_true(tak_ply_parse(cases[i].in, 5, &ply, NULL));
        tak_move_write(ply.move, 5, NULL, buf);
        assert_string_equal(buf, cases[i].short_form);
        tak_move_write_long(ply.move, 5, NULL, buf);
        assert_string_equal(buf, cases[i].long_form);
    }
    /* '*' comes from the position, whatever was read. */
    TakPosition pos = middle_game();
    TakMove move;
    assert_true(tak_move_parse(&pos, "b1>", &move, NULL));
    tak_move_write(move, 5, &pos, buf);
    assert_string_equal(buf, "b1>*");
    tak_move_write_long(move, 5, &pos, buf);
    assert_string_equal(buf, "1b1>1*");
    tak_move_write(move, 5, NULL, buf);
    assert_string_equal(buf, "b1>");
    assert_true(tak_move_parse(&pos, "e5-*", &move, NULL));
    tak_move_write(move, 5, &pos, buf);
    assert_string_equal(buf, "e5-");
    /* Not a move of this board. */
    tak_move_write(TAK_MOVE_NONE, 5, NULL, buf);
    assert_string_equal(buf, "??");
    tak_move_write(tak_move_place(30, TAK_PLACE_FLAT), 5, NULL, buf);
    assert_string_equal(buf, "??");
}

/* Every legal move of `pos`, written in both forms, reads back to itself
 * (by syntax and against the position), and fits TAK_MOVE_TEXT_MAX. */
static void check_all_moves(const TakPosition *pos, const char *where) {
    static TakMoveList list;
    int n = tak_moves_generate(pos, &list);
    int size = tak_position_size(pos);
    for (int i = 0; i < n; i++) {
        TakMove m = list.moves[i];
        char text[2][TAK_MOVE_TEXT_MAX];
        int len0 = tak_move_write(m, size, pos, text[0]);
        int len1 = tak_move_write_long(m, size, pos, text[1]);
        assert_true(len0 > 0 && len0 < TAK_MOVE_TEXT_MAX && len0 == (int)strlen(text[0]));
        assert_true(len1 >= len0 && len1 < TAK_MOVE_TEXT_MAX);
        for (int k = 0; k < 2; k++) {
            TakPly ply;
            TakMove back;
            TakError err;
            if (!tak_ply_parse(text[k], size, &ply, &err) || ply.move != m)
                fail_msg("%s: \"%s\" did not read back (%s)", where, text[k], err.message);
            if (!tak_move_parse(pos, text[k], &back, &err) || back != m)
                fail_msg("%s: \"%s\" refused in its position: %s", where, text[k], err.message);
            assert_int_equal((ply.marks & TAK_MARK_FLATTEN) != 0, tak_move_flattens(pos, m));
        }
    }
}

static void test_every_move_round_trips(void **state) {
    (void)state;
    static const char *const positions[] = {
        "x3/x3/x3 1 1",
        "x3/x,1,x/x3 2 1",
        "x,2,x/1,12S,x/x,21,1 1 4",
        "x4/x,1212,x2/x2,21,x/2S,x3 2 7",
        "x3,12,2S/x,22S,22C,11,21/121,212,12,1121C,1212S/21S,1,21,211S,12S/x,21S,2,x2 1 26",
        "x6/x,2,x,1,x2/x2,1112221C,x3/x,2S,x2,2,x/x6/1,x4,2 2 12",
        "x7/x7/x2,2121212C,x4/x7/x3,1S,x3/x7/x6,1 1 10",
        "x8/x8/x3,21212121212,x4/x8/x,1C,x,2S,x4/x8/x8/2,x7 1 20",
        NULL,
    };
    for (int i = 0; positions[i]; i++) {
        TakPosition pos = support_position(positions[i], NULL);
        check_all_moves(&pos, positions[i]);
    }
}

/* The same over the positions of a few real games, ply by ply. */
static void test_real_game_moves(void **state) {
    (void)state;
    static const char *const files[] = {"0001_s4.ptn", "0010_s5.ptn", "0023_s6.ptn", "0603_s7.ptn"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[512], relative[64];
        snprintf(relative, sizeof relative, "games/real/%s", files[f]);
        size_t len;
        char *text = support_read_file(support_shared_path(relative, path, sizeof path), &len);
        if (!text) fail_msg("cannot read %s", path);
        TakPtn ptn;
        TakError err;
        if (!tak_ptn_read(text, len, &ptn, &err)) fail_msg("%s: %s", path, err.message);
        TakPosition pos = ptn.game.start;
        for (size_t i = 0; i < ptn.game.count; i += 3) {
            check_all_moves(&pos, files[f]);
            for (size_t k = i; k < i + 3 && k < ptn.game.count; k++) {
                TakUndo undo;
                tak_position_make(&pos, ptn.game.moves[k], &undo);
            }
        }
        tak_ptn_free(&ptn);
        free(text);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_squares),
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_rule_errors),
        cmocka_unit_test(test_flatten_mark_not_binding),
        cmocka_unit_test(test_pass),
        cmocka_unit_test(test_write_forms),
        cmocka_unit_test(test_every_move_round_trips),
        cmocka_unit_test(test_real_game_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
