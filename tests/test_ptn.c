/*
 * test_ptn.c: whole PTN games (notation.md, "A PTN file"): tags and the rules
 * they set, what other tools write (CRLF, a byte-order mark, comments, marks,
 * "--", extra dots, result forms), errors with line, column, move number,
 * side and reason, writing and reading back, a sample of the real games, and
 * hostile input (every prefix of a game, stray bytes).
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

/* The spec's example, with the moves made legal. */
static const char *const example = "[Site \"PlayTak.com\"]\n"
                                   "[Date \"2018.10.28\"]\n"
                                   "[Player1 \"Alice\"]\n"
                                   "[Player2 \"Bob\"]\n"
                                   "[Size \"6\"]\n"
                                   "[Komi \"2\"]\n"
                                   "[Result \"R-0\"]\n"
                                   "\n"
                                   "1. a6 f6\n"
                                   "2. d4 c4 {a comment}\n"
                                   "3. Cb3 e4\n"
                                   "4. d3 1e4+1\n"
                                   "5. d2 e3\n"
                                   "6. d5 e2\n"
                                   "7. d1 e1\n"
                                   "8. d6\n"
                                   "R-0\n";

static TakPtn read_ok(const char *text) {
    TakPtn ptn;
    TakError err;
    char buf[300];
    if (!tak_ptn_read(text, strlen(text), &ptn, &err))
        fail_msg("refused: %s\n%s", tak_error_describe(&err, buf, sizeof buf), text);
    return ptn;
}

/* Reading `len` bytes of `text` fails at line:column with a message
 * containing `says`. */
static void expect_error_n(const char *text, size_t len, int line, int column, const char *says) {
    TakPtn ptn;
    TakError err;
    if (tak_ptn_read(text, len, &ptn, &err)) {
        tak_ptn_free(&ptn);
        fail_msg("accepted:\n%s", text);
    }
    /* On failure the output is empty and safe to free. */
    assert_int_equal(ptn.tag_count, 0);
    assert_null(ptn.tags);
    assert_null(ptn.comments);
    assert_null(ptn.game.moves);
    tak_ptn_free(&ptn);
    if (err.line != line || err.column != column || !strstr(err.message, says))
        fail_msg("line %d, column %d: \"%s\"; want line %d, column %d and \"%s\"\n%s", err.line,
                 err.column, err.message, line, column, says, text);
}

static void expect_error(const char *text, int line, int column, const char *says) {
    expect_error_n(text, strlen(text), line, column, says);
}

static const char *tps_of(const TakPosition *pos, char *buf) {
    tak_tps_write(pos, buf, TAK_TPS_MAX);
    return buf;
}

static void test_example(void **state) {
    (void)state;
    TakPtn ptn = read_ok(example);
    assert_int_equal(ptn.tag_count, 7);
    assert_string_equal(ptn.tags[0].name, "Site");
    assert_string_equal(ptn.tags[0].value, "PlayTak.com");
    assert_string_equal(tak_ptn_tag(&ptn, "player2"), "Bob");
    assert_string_equal(tak_ptn_tag(&ptn, "SIZE"), "6");
    assert_null(tak_ptn_tag(&ptn, "Event"));
    assert_int_equal(ptn.rules.size, 6);
    assert_int_equal(ptn.rules.half_komi, 4);
    assert_int_equal(ptn.rules.stones, 30);
    assert_int_equal(ptn.rules.capstones, 1);
    assert_int_equal(ptn.game.count, 15);
    assert_string_equal(ptn.result, "R-0");
    TakResult result = tak_game_result(&ptn.game);
    assert_int_equal(result.end, TAK_END_ROAD);
    assert_int_equal(result.winner, TAK_WHITE);
    assert_string_equal(ptn.comments[3], "a comment");
    for (size_t i = 0; i < ptn.game.count; i++)
        if (i != 3) assert_null(ptn.comments[i]);
    TakMove move;
    assert_true(tak_move_parse(&ptn.game.start, "a6", &move, NULL));
    assert_int_equal(ptn.game.moves[0], move);
    tak_ptn_free(&ptn);
    tak_ptn_free(&ptn); /* freeing twice is harmless: the struct is emptied */
}

/* The same game with CRLF, a byte-order mark, trailing spaces, blank lines
 * and tabs reads to the same moves. */
static void test_other_tools_layout(void **state) {
    (void)state;
    TakPtn plain = read_ok(example);
    size_t n = strlen(example);
    char *text = malloc(3 * n + 16);
    size_t k = 0;
    memcpy(text, "\xEF\xBB\xBF", 3);
    k = 3;
    for (size_t i = 0; i < n; i++) {
        if (example[i] == '\n') {
            memcpy(text + k, "  \t\r\n\r\n", 7);
            k += 7;
        } else {
            text[k++] = example[i];
        }
    }
    text[k] = '\0';
    TakPtn other = read_ok(text);
    assert_int_equal(other.game.count, plain.game.count);
    assert_memory_equal(other.game.moves, plain.game.moves, plain.game.count * sizeof(TakMove));
    assert_int_equal(other.tag_count, plain.tag_count);
    assert_string_equal(other.tags[0].name, "Site"); /* the mark is not part of the name */
    tak_ptn_free(&other);
    free(text);

    /* A file with no final newline, and one with only tags and no moves. */
    TakPtn p = read_ok("[Size \"5\"]\n\n1. a1 e5");
    assert_int_equal(p.game.count, 2);
    tak_ptn_free(&p);
    p = read_ok("[Size \"5\"]");
    assert_int_equal(p.game.count, 0);
    tak_ptn_free(&p);
    p = read_ok("[Size \"5\"]\n1.a1 e5 2.e4");
    assert_int_equal(p.game.count, 3);
    tak_ptn_free(&p);
    tak_ptn_free(&plain);
}

static void test_comments(void **state) {
    (void)state;
    TakPtn p = read_ok("{before the tags}\n[Size \"5\"] \n{between}\n[Komi \"0\"]\n"
                       "{before the moves}\n"
                       "1. {after the number} a1 {first} e5{second}{third}\n");
    assert_int_equal(p.tag_count, 2);
    assert_string_equal(p.comments[0], "first");
    /* Comments before the first ply are the game's preface, kept in writing. */
    assert_string_equal(p.preface, "before the tags between before the moves after the number");
    char *written = tak_ptn_write(&p);
    assert_non_null(strstr(written, "[Komi \"0\"]\n\n{before the tags between before the moves after the number}\n1. a1"));
    TakPtn reread = read_ok(written);
    assert_string_equal(reread.preface, p.preface);
    tak_ptn_free(&reread);
    free(written);
    tak_ptn_free(&p);
    p = read_ok("[Size \"4\"]\n{only a comment}\n");
    assert_int_equal(p.game.count, 0);
    assert_string_equal(p.preface, "only a comment");
    tak_ptn_free(&p);
    p = read_ok("[Size \"5\"]\n"
                "1. {after the number} a1 {first} e5{second}{third}\n"
                "2. a2 {a [comment]\nover two lines} e4\n"
                "3. {} a3 {after the last move} {and the result} 1-0 {after the result}");
    assert_int_equal(p.game.count, 5);
    assert_string_equal(p.comments[0], "first");
    assert_string_equal(p.comments[1], "second third");
    assert_string_equal(p.comments[2], "a [comment]\nover two lines");
    assert_null(p.comments[3]);
    assert_string_equal(p.comments[4], "after the last move and the result after the result");
    assert_string_equal(p.preface, "after the number");
    char *text = tak_ptn_write(&p);
    assert_non_null(strstr(text, "1. a1 {first} e5 {second third}\n"));
    TakPtn again = read_ok(text);
    assert_string_equal(again.comments[2], p.comments[2]);
    tak_ptn_free(&again);
    free(text);
    tak_ptn_free(&p);
}

static void test_marks(void **state) {
    (void)state;
    TakPtn p = read_ok("[Size \"5\"]\n1. a1' e5''\n2. Ce4\" Sa2!\n3. e4<*?! a2+!!\n"
                       "4. b4?? c5!?\n5. d4+'' c4'!");
    assert_int_equal(p.game.count, 10);
    /* Kept as written, each ply's own, and written again after the move. */
    static const char *const kept[10] = {"'", "''", "\"", "!", "?!", "!!", "??", "!?", "''", "'!"};
    for (int i = 0; i < 10; i++) assert_string_equal(p.marks[i], kept[i]);
    char *marked = tak_ptn_write(&p);
    /* (e4< flattens nothing: its '*' was wrong and is not written again.) */
    assert_non_null(strstr(marked, "1. a1' e5''\n2. Ce4\" Sa2!\n3. e4<?! a2+!!\n4. b4?? c5!?\n"));
    TakPtn again = read_ok(marked);
    for (int i = 0; i < 10; i++) assert_string_equal(again.marks[i], kept[i]);
    tak_ptn_free(&again);
    free(marked);
    tak_ptn_free(&p);
    /* A wrong '*' does not change the move; the writer puts it where due. */
    p = read_ok("[Size \"5\"]\n1. a1 e5\n2. Ce4 Sd4*\n3. e4< e3\n4. d3 e2\n5. d2 e1\n6. d4-");
    assert_null(p.marks[3]); /* a '*' alone is not a mark kept */
    TakPtn q =
        read_ok("[Size \"5\"]\n1. a1 e5\n2. Ce4 Sd4\n3. e4<* e3\n4. d3 e2\n5. d2 e1\n6. d4-*");
    assert_int_equal(p.game.count, 11);
    assert_memory_equal(p.game.moves, q.game.moves, p.game.count * sizeof(TakMove));
    char *text = tak_ptn_write(&p);
    assert_non_null(strstr(text, "2. Ce4 Sd4\n3. e4<* e3\n"));
    assert_non_null(strstr(text, "6. d4-\n"));
    tak_ptn_free(&p);
    tak_ptn_free(&q);
    free(text);
}

/* Games from a TPS: with Black to move the first move is "N. -- ply",
 * "N... ply" or "N. ply", numbered from the TPS's move number. */
static void test_from_tps(void **state) {
    (void)state;
    static const char *const forms[] = {
        "[Size \"5\"]\n[TPS \"x5/x5/x2,1,x2/x5/2,x4 2 7\"]\n7. -- b1\n8. c2 a2\n",
        "[Size \"5\"]\n[TPS \"x5/x5/x2,1,x2/x5/2,x4 2 7\"]\n7... b1\n8. c2 a2\n",
        "[Size \"5\"]\n[TPS \"x5/x5/x2,1,x2/x5/2,x4 2 7\"]\n7. b1\n8. c2 a2\n",
        "[TPS \"x5/x5/x2,1,x2/x5/2,x4 2 7\"]\n7. --  {white did not move here} b1\n8. c2 a2\n",
    };
    TakPtn first = read_ok(forms[0]);
    assert_int_equal(first.game.count, 3);
    assert_int_equal(tak_position_side(&first.game.start), TAK_BLACK);
    assert_int_equal(tak_position_move_number(&first.game.start), 7);
    for (size_t i = 1; i < sizeof forms / sizeof forms[0]; i++) {
        TakPtn p = read_ok(forms[i]);
        assert_int_equal(p.game.count, first.game.count);
        assert_memory_equal(p.game.moves, first.game.moves, p.game.count * sizeof(TakMove));
        tak_ptn_free(&p);
    }
    char *text = tak_ptn_write(&first);
    assert_non_null(strstr(text, "\n7. -- b1\n8. c2 a2\n"));
    free(text);
    tak_ptn_free(&first);

    /* White to move: numbered from the TPS, no placeholder. */
    TakPtn p = read_ok("[Size \"5\"]\n[TPS \"x5/x5/x2,1,x2/x5/2,x4 1 7\"]\n7. b1 c2\n");
    assert_int_equal(p.game.count, 2);
    tak_ptn_free(&p);
    expect_error("[Size \"5\"]\n[TPS \"x5/x5/x2,1,x2/x5/2,x4 1 7\"]\n1. b1 c2\n", 3, 1,
                 "move number 1 where 7 was expected");
    expect_error("[Size \"5\"]\n[TPS \"x5/x5/x2,1,x2/x5/2,x4 1 7\"]\n7. -- c2\n", 3, 4,
                 "'--' stands only for White's missing first ply");
    expect_error("[Size \"5\"]\n1. a1 --\n", 2, 7, "'--' stands only");
}

static void test_tags(void **state) {
    (void)state;
    TakPtn p = read_ok("[Size \"5\"]\n[Zebra \"stripes\"]\n[Move \"3 black\"]\n[Move \"4 black\"]\n"
                       "[Escaped \"say \\\"hi\\\" \\\\ C:\\path\"]\n[Empty \"\"]\n"
                       "[  Spaced   \"value with  spaces\"  ]\n[Unicode \"Jos\xC3\xA9\"]\n");
    assert_int_equal(p.tag_count, 8);
    assert_string_equal(p.tags[1].name, "Zebra");
    assert_string_equal(p.tags[3].value, "4 black");
    assert_string_equal(tak_ptn_tag(&p, "move"), "3 black");
    assert_string_equal(tak_ptn_tag(&p, "Escaped"), "say \"hi\" \\ C:\\path");
    assert_string_equal(tak_ptn_tag(&p, "Empty"), "");
    assert_string_equal(tak_ptn_tag(&p, "Spaced"), "value with  spaces");
    assert_string_equal(tak_ptn_tag(&p, "Unicode"), "Jos\xC3\xA9");

    /* Setting replaces the first of a name, or adds; bad names and values are refused. */
    assert_true(tak_ptn_set_tag(&p, "zebra", "plain"));
    assert_string_equal(p.tags[1].value, "plain");
    assert_string_equal(p.tags[1].name, "Zebra");
    assert_true(tak_ptn_set_tag(&p, "Player1", "Quote \" and \\"));
    assert_int_equal(p.tag_count, 9);
    for (int i = 0; i < 40; i++) {
        char name[24];
        snprintf(name, sizeof name, "Extra_%d", i);
        assert_true(tak_ptn_set_tag(&p, name, name));
    }
    assert_int_equal(p.tag_count, 49);
    assert_string_equal(tak_ptn_tag(&p, "extra_39"), "Extra_39");
    assert_false(tak_ptn_set_tag(&p, "", "x"));
    assert_false(tak_ptn_set_tag(&p, "Two words", "x"));
    assert_false(tak_ptn_set_tag(&p, "Bracket]", "x"));
    assert_false(tak_ptn_set_tag(&p, "Line", "one\ntwo"));
    assert_false(tak_ptn_set_tag(&p, NULL, "x"));
    assert_false(tak_ptn_set_tag(&p, "X", NULL));

    /* Written tags read back the same, escapes and all. */
    char *text = tak_ptn_write(&p);
    TakPtn q = read_ok(text);
    assert_int_equal(q.tag_count, p.tag_count);
    for (size_t i = 0; i < p.tag_count; i++) {
        assert_string_equal(q.tags[i].name, p.tags[i].name);
        assert_string_equal(q.tags[i].value, p.tags[i].value);
    }
    tak_ptn_free(&q);
    free(text);
    tak_ptn_free(&p);
}

static void test_tag_syntax_errors(void **state) {
    (void)state;
    expect_error("[Size \"5\"\n1. a1", 1, 10, "not closed with ']'");
    expect_error("[Size 5]\n", 1, 7, "must be in double quotes");
    expect_error("[Size \"5]\n", 1, 7, "not closed with '\"'");
    expect_error("[\"5\"]\n", 1, 2, "a tag name");
    expect_error("[Si-ze \"5\"]\n", 1, 4, "must be in double quotes");
    expect_error("[Size \"5\"] [Komi \"0\"]\n", 1, 12, "one tag a line");
    expect_error("[Size \"5\"] x\n", 1, 12, "one tag a line");
    expect_error("[Size \"5\"]\n[Event \"a\x01"
                 "b\"]\n",
                 2, 10, "byte 0x01");
    expect_error("[", 1, 2, "ends before its name");
    expect_error("[Size \"5\"]\n1. a1 e5\n[Komi \"1\"]\n", 3, 1,
                 "a tag must come before the moves");
    expect_error("[Size \"5\"]\n[Size \"5\"]\n", 2, 8,
                 "a second Size tag (the first is on line 1)");
}

static void test_rule_tags(void **state) {
    (void)state;
    static const struct {
        const char *komi;
        int half;
    } komis[] = {{"0", 0},     {"2", 4},   {"1.5", 3}, {"0.5", 1}, {"-0.5", -1},
                 {"-10", -20}, {"10", 20}, {"2.0", 4}, {"+3", 6},  {"7.50", 15}};
    for (size_t i = 0; i < sizeof komis / sizeof komis[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "[Size \"5\"]\n[Komi \"%s\"]\n", komis[i].komi);
        TakPtn p = read_ok(text);
        assert_int_equal(p.rules.half_komi, komis[i].half);
        tak_ptn_free(&p);
    }
    expect_error("[Size \"5\"]\n[Komi \"2.3\"]\n", 2, 8, "Komi must be a number of flats");
    expect_error("[Size \"5\"]\n[Komi \"11\"]\n", 2, 8, "from -10 to 10");
    expect_error("[Size \"5\"]\n[Komi \"-10.5\"]\n", 2, 8, "from -10 to 10");
    expect_error("[Size \"5\"]\n[Komi \"two\"]\n", 2, 8, "Komi");
    expect_error("[Size \"5\"]\n[Komi \"\"]\n", 2, 8, "Komi");

    /* The no-pass rule (seed 001's "zugzwang") and the repetition draw. */
    const char *pass_game = "[Size \"3\"]\n[Zugzwang \"off\"]\n1. a1 c3\n2. c1 1a1\n";
    TakPtn z = read_ok(pass_game);
    assert_false(z.rules.no_pass);
    assert_int_equal(z.game.count, 4);
    tak_ptn_free(&z);
    expect_error("[Size \"3\"]\n1. a1 c3\n2. c1 1a1\n", 3, 7, "2");
    expect_error("[Size \"3\"]\n[Zugzwang \"maybe\"]\n", 2, 12, "Zugzwang must be \"on\"");
    expect_error("[Size \"3\"]\n[Repetition \"yes\"]\n", 2, 14, "Repetition must be \"draw\"");
    z = read_ok("[Size \"3\"]\n[zugzwang \"ON\"]\n[Repetition \"draw\"]\n");
    assert_true(z.rules.no_pass);
    assert_true(z.rules.repetition_draw);
    tak_ptn_free(&z);
    /* A game under those rules writes them, and reads back under them. */
    z = read_ok(pass_game);
    TakPtn built;
    TakError err;
    assert_true(tak_ptn_from_game(&built, &z.game, &err));
    char *written = tak_ptn_write(&built);
    assert_non_null(strstr(written, "[Zugzwang \"off\"]"));
    assert_null(strstr(written, "[Repetition"));
    TakPtn again = read_ok(written);
    assert_int_equal(again.game.count, 4);
    assert_false(again.rules.no_pass);
    tak_ptn_free(&again);
    free(written);
    tak_ptn_free(&built);
    tak_ptn_free(&z);

    TakPtn p = read_ok("[Size \"5\"]\n[Flats \"20\"]\n[Caps \"2\"]\n");
    assert_int_equal(p.rules.stones, 20);
    assert_int_equal(p.rules.capstones, 2);
    tak_ptn_free(&p);
    p = read_ok("[Size \"6\"]\n[Flats1 \"25\"]\n[Flats2 \"25\"]\n[Caps1 \"0\"]\n[Caps2 \"0\"]\n");
    assert_int_equal(p.rules.stones, 25);
    assert_int_equal(p.rules.capstones, 0);
    tak_ptn_free(&p);
    expect_error("[Size \"5\"]\n[Flats1 \"20\"]\n[Flats2 \"21\"]\n", 3, 10,
                 "Flats1 20 and Flats2 21 differ");
    p = read_ok("[Size \"5\"]\n[Caps1 \"1\"]\n");
    tak_ptn_free(&p);
    expect_error("[Size \"5\"]\n[Caps1 \"0\"]\n", 2, 9, "Caps1 0 and Caps2 1 differ");
    expect_error("[Size \"5\"]\n[Flats \"20\"]\n[Flats2 \"21\"]\n", 3, 10,
                 "Flats2 (21) disagrees with Flats (20)");
    expect_error("[Size \"5\"]\n[Flats \"x\"]\n", 2, 9, "whole number of stones");
    expect_error("[Size \"5\"]\n[Caps \"-1\"]\n", 2, 8, "whole number of capstones");
    expect_error("[Size \"5\"]\n[Flats \"0\"]\n", 2, 9, "at least 1 stone");
    expect_error("[Size \"5\"]\n[Flats \"60\"]\n[Caps \"5\"]\n", 2, 9, "exceeds 64");

    p = read_ok("[Size \"5\"]\n[Opening \"swap\"]\n1. a1 e5");
    tak_ptn_free(&p);
    p = read_ok("[Size \"5\"]\n[Opening \"Swap\"]\n");
    tak_ptn_free(&p);
    expect_error("[Size \"5\"]\n[Opening \"no-swap\"]\n", 2, 11, "\"no-swap\" is not supported");

    expect_error("[Size \"9\"]\n", 1, 8, "Size must be a board size from 3 to 8");
    expect_error("[Size \"2\"]\n", 1, 8, "Size must be");
    expect_error("[Size \"five\"]\n", 1, 8, "Size must be");
    expect_error("[Size \"\"]\n", 1, 8, "Size must be");
    expect_error("[Event \"x\"]\n1. a1 e5\n", 1, 1, "no Size tag");
    expect_error("1. a1 e5\n", 1, 1, "no Size tag");
    expect_error("", 1, 1, "no Size tag");

    /* Size from the TPS when the Size tag is missing; the two must agree. */
    p = read_ok("[TPS \"x4/x4/x4/x4 1 1\"]\n1. a1 d4\n");
    assert_int_equal(p.rules.size, 4);
    tak_ptn_free(&p);
    expect_error("[Size \"6\"]\n[TPS \"x5/x5/x5/x5/x5 1 1\"]\n", 2, 7,
                 "5 rows, but the Size tag says 6");
    expect_error("[Size \"5\"]\n[TPS \"x5/x5/x5/x5/x4,3 1 1\"]\n", 2, 22,
                 "TPS: '3' is not a square");
    expect_error("[TPS \"x9/x9/x9/x9/x9/x9/x9/x9/x9 1 1\"]\n", 1, 7, "TPS: the board has 9 rows");
    /* The reserves of the tags judge the TPS. */
    expect_error("[Size \"5\"]\n[Flats \"3\"]\n[TPS \"x5/x5/x5/x5/1,1,1,1,x 2 5\"]\n", 3, 25,
                 "too many White stones: 4");
}

/* An illegal move names its line and column, move number, side and reason. */
static void test_illegal_moves(void **state) {
    (void)state;
    expect_error("[Size \"5\"]\n\n1. a1 e5\n2. c3 d3\n3. Cc2 3d3<12\n", 5, 8,
                 "move 3 (Black) 3d3<12: the stack on d3 has only 1 piece");
    expect_error("[Size \"5\"]\n1. a1 e5\n2. c3 d3\n3. c4 c3<\n", 4, 7,
                 "move 3 (Black) c3<: the stack on c3 is not Black's");
    expect_error("[Size \"5\"]\n1. a1 a1\n", 2, 7, "move 1 (Black) a1: a1 is not empty");
    expect_error("[Size \"5\"]\n1. Sa1 e5\n", 2, 4, "move 1 (White) Sa1: on the first turn");
    expect_error("[Size \"5\"]\n1. a1 e5\n2. Ca2 Cb2\n3. Cc2 d1\n", 4, 4,
                 "move 3 (White) Cc2: White has no capstones left");
    expect_error("[Size \"5\"]\n1. a1 e5\n2. c3 d3\n3. c3-S d2\n", 4, 4,
                 "move 3 (White) c3-S: the piece on top of c3 is a flat, not a wall");
    /* Syntax errors in a ply point inside it. */
    expect_error("[Size \"5\"]\n1. a1 e5\n2. c3 d3\n3. c3+0 d2\n", 4, 7,
                 "move 3 (White) c3+0: a drop of 0");
    expect_error("[Size \"5\"]\n1. a1 e5\n2. c3 f3\n", 3, 7, "move 2 (Black) f3: file 'f' is off");
    expect_error("[Size \"5\"]\n1. a1 e5\n2. c3 d3\n3. 6c3+ d2\n", 4, 4,
                 "6 pieces exceed the carry limit of 5");
    /* Playing on after the game ended. */
    expect_error("[Size \"3\"]\n1. c1 a1\n2. a2 c2\n3. a3 c3\n", 4, 7,
                 "move 3 (Black) c3: the game is over");
}

static void test_move_text_errors(void **state) {
    (void)state;
    expect_error("[Size \"5\"]\na1 e5\n", 2, 1, "expected move number 1., found 'a1'");
    expect_error("[Size \"5\"]\n1 a1 e5\n", 2, 1, "expected move number 1., found '1'");
    expect_error("[Size \"5\"]\n1. a1 e5\n3. a2\n", 3, 1, "move number 3 where 2 was expected");
    expect_error("[Size \"5\"]\n0. a1 e5\n", 2, 1, "move number 0 where 1 was expected");
    expect_error("[Size \"5\"]\n1. a1 e5\n99999999999999999999. a2\n", 3, 1,
                 "move number too large");
    expect_error("[Size \"5\"]\n1. a1 e5 a2\n", 2, 10, "expected move number 2.");
    expect_error("[Size \"5\"]\n1. a1 2. e5\n", 2, 7, "move 1 has no ply for Black");
    expect_error("[Size \"5\"]\n1. 2. e5\n", 2, 4, "move 1 has no ply for White");
    expect_error("[Size \"5\"]\n1. a1 e5\n2.\n", 3, 1, "move 2 has no plies");
    expect_error("[Size \"5\"]\n1. a1 e5 {open\n2. a2\n", 2, 10, "this comment is not closed");
    expect_error("[Size \"5\"]\n1. a1 e5 }\n", 2, 10, "'}' without a '{'");
    expect_error("[Size \"5\"]\n1. a1 e5\n2. a2 0-1 b2\n", 3, 11, "text after the result 0-1");
    expect_error("[Size \"5\"]\n1. R-0\n", 2, 4, "must follow a ply");
    expect_error_n("[Size \"5\"]\n1. a1 e5 {x\0y}\n", 24, 2, 12, "NUL byte in a comment");
    expect_error_n("[Size \"5\"]\n1. a1\0 e5\n", 20, 2, 6, "byte 0x00");
    expect_error_n("[Size \"5\"]\n\0", 12, 2, 1, "byte 0x00");
    expect_error("[Size \"5\"]\n1. a1 e5\n2. a2\xff e4\n", 3, 6, "byte 0xFF");
}

static void test_results(void **state) {
    (void)state;
    static const struct {
        const char *token, *code;
        TakEnd end;
        int winner;
    } cases[] = {
        {"1-0", "1-0", TAK_END_RESIGNATION, TAK_WHITE},
        {"0-1", "0-1", TAK_END_RESIGNATION, TAK_BLACK},
        {"1/2-1/2", "1/2-1/2", TAK_END_AGREEMENT, -1},
        {"\xC2\xBD-\xC2\xBD", "1/2-1/2", TAK_END_AGREEMENT, -1},
        {"0-0", "0-0", TAK_END_NONE, -1},
        {"*", "*", TAK_END_NONE, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "[Size \"5\"]\n1. a1 e5\n2. c3 %s\n", cases[i].token);
        TakPtn p = read_ok(text);
        assert_string_equal(p.result, cases[i].code);
        assert_int_equal(p.game.count, 3);
        assert_int_equal(tak_game_result(&p.game).end, cases[i].end);
        assert_int_equal(tak_game_result(&p.game).winner, cases[i].winner);
        /* The result is written back as it was read. */
        char *back = tak_ptn_write(&p);
        TakPtn q = read_ok(back);
        assert_string_equal(q.result, cases[i].code);
        assert_int_equal(tak_game_result(&q.game).end, cases[i].end);
        tak_ptn_free(&q);
        free(back);
        tak_ptn_free(&p);
    }
    /* Road and flat results are the board's to decide: a file claiming
     * another is read, and the board's result stands. Letters in either case. */
    static const char *const road = "[Size \"3\"]\n1. c1 a1\n2. a2 c2\n3. a3 ";
    char text[128];
    TakPtn p0;
    static const char *const good[] = {"R-0", "r-0"}, *const bad[] = {"0-R", "F-0", "0-F", "0-1"};
    for (int i = 0; i < 2; i++) {
        snprintf(text, sizeof text, "%s%s", road, good[i]);
        TakPtn p = read_ok(text);
        assert_string_equal(p.result, "R-0");
        tak_ptn_free(&p);
    }
    for (int i = 0; i < 4; i++) {
        snprintf(text, sizeof text, "%s%s", road, bad[i]);
        TakPtn p = read_ok(text);
        assert_int_equal(tak_game_result(&p.game).end, TAK_END_ROAD);
        assert_int_equal(tak_game_result(&p.game).winner, TAK_WHITE);
        tak_ptn_free(&p);
    }
    /* A road claimed for a game still in progress does not end it. */
    p0 = read_ok("[Size \"5\"]\n1. a1 e5 R-0\n");
    assert_int_equal(tak_game_result(&p0.game).end, TAK_END_NONE);
    tak_ptn_free(&p0);
    /* Tools also write 1-0 or 1/2-1/2 for a game the board decided. */
    snprintf(text, sizeof text, "%s1-0", road);
    TakPtn p = read_ok(text);
    assert_int_equal(tak_game_result(&p.game).end, TAK_END_ROAD);
    tak_ptn_free(&p);

    /* The Result tag: ends a game still going when no token does; must
     * agree with the token; must be a result. */
    p = read_ok("[Size \"5\"]\n[Result \"0-1\"]\n1. a1 e5\n");
    assert_int_equal(tak_game_result(&p.game).end, TAK_END_RESIGNATION);
    assert_string_equal(p.result, "");
    tak_ptn_free(&p);
    p = read_ok("[Size \"5\"]\n[Result \"\"]\n1. a1 e5\n");
    assert_int_equal(tak_game_result(&p.game).end, TAK_END_NONE);
    tak_ptn_free(&p);
    p = read_ok("[Size \"3\"]\n[Result \"R-0\"]\n1. c1 a1\n2. a2 c2\n3. a3\n");
    assert_int_equal(tak_game_result(&p.game).end, TAK_END_ROAD);
    tak_ptn_free(&p);
    /* Token and tag may differ in how, not in who: R-0 and 1-0 agree. */
    snprintf(text, sizeof text, "[Size \"3\"]\n[Result \"1-0\"]\n%s", road + 11);
    p = read_ok(text);
    char *back = tak_ptn_write(&p);
    tak_ptn_free(&p);
    p = read_ok(back);
    free(back);
    tak_ptn_free(&p);
    snprintf(text, sizeof text, "[Size \"3\"]\n[Result \"1-0\"]\n%sR-0", road + 11);
    p = read_ok(text);
    tak_ptn_free(&p);
    /* Where token and tag disagree the token is taken, and the board decides. */
    snprintf(text, sizeof text, "[Size \"3\"]\n[Result \"1/2-1/2\"]\n%sR-0", road + 11);
    p = read_ok(text);
    assert_string_equal(p.result, "R-0");
    assert_int_equal(tak_game_result(&p.game).end, TAK_END_ROAD);
    tak_ptn_free(&p);
    /* A game the board decided but the file calls a draw (real games do)
     * is written back with the file's result, which reads again. */
    p = read_ok("[Size \"3\"]\n[Result \"1/2-1/2\"]\n1. a1 b1\n2. Sc1 Sa2\n3. Sb2 Sc2\n"
                "4. Sa3 Sb3\n5. c3\n");
    assert_int_equal(tak_game_result(&p.game).end, TAK_END_BOARD_FULL);
    back = tak_ptn_write(&p);
    assert_non_null(strstr(back, "5. c3\n1/2-1/2\n"));
    tak_ptn_free(&p);
    p = read_ok(back);
    free(back);
    tak_ptn_free(&p);
    expect_error("[Size \"5\"]\n[Result \"won\"]\n", 2, 10, "Result \"won\" is not a result");
    p = read_ok("[Size \"5\"]\n[Result \"1-0\"]\n1. a1 e5 0-1\n");
    assert_int_equal(tak_game_result(&p.game).end, TAK_END_RESIGNATION);
    assert_int_equal(tak_game_result(&p.game).winner, TAK_BLACK);
    tak_ptn_free(&p);
    p = read_ok("[Size \"5\"]\n[Result \"R-0\"]\n1. a1 e5\n");
    assert_int_equal(tak_game_result(&p.game).end, TAK_END_NONE);
    tak_ptn_free(&p);
}

/* tak_ptn_from_game then tak_ptn_write reads back to the same game. */
static void expect_game_round_trip(const TakGame *game) {
    TakPtn ptn, back;
    TakError err;
    if (!tak_ptn_from_game(&ptn, game, &err)) fail_msg("tak_ptn_from_game: %s", err.message);
    char *text = tak_ptn_write(&ptn);
    assert_non_null(text);
    if (!tak_ptn_read(text, strlen(text), &back, &err))
        fail_msg("its own PTN refused: line %d, column %d: %s\n%s", err.line, err.column,
                 err.message, text);
    assert_int_equal(back.game.count, game->count);
    if (game->count)
        assert_memory_equal(back.game.moves, game->moves, game->count * sizeof(TakMove));
    assert_true(tak_position_equal(&back.game.start, &game->start));
    assert_true(tak_position_equal(&back.game.current, &game->current));
    const TakRules *want = &game->start.rules;
    assert_int_equal(back.rules.size, want->size);
    assert_int_equal(back.rules.stones, want->stones);
    assert_int_equal(back.rules.capstones, want->capstones);
    assert_int_equal(back.rules.half_komi, want->half_komi);
    TakResult a = tak_game_result(&back.game), b = tak_game_result(game);
    assert_string_equal(tak_result_code(a), tak_result_code(b));
    tak_ptn_free(&back);
    tak_ptn_free(&ptn);
    free(text);
}

static void play(TakGame *game, const char *plies) {
    char ply[32];
    const char *p = plies;
    while (*p) {
        size_t n = strcspn(p, " ");
        if (n) {
            snprintf(ply, sizeof ply, "%.*s", (int)n, p);
            TakMove move;
            TakError err;
            if (!tak_move_parse(&game->current, ply, &move, &err))
                fail_msg("%s: %s", ply, err.message);
            assert_true(tak_game_play(game, move, &err));
        }
        p += n;
        while (*p == ' ') p++;
    }
}

static void test_write_round_trip(void **state) {
    (void)state;
    TakRules rules = support_rules(5);
    TakPosition start;
    TakGame game;

    /* Plain 5x5, unfinished. */
    assert_true(tak_position_init(&start, &rules, NULL));
    assert_true(tak_game_init(&game, &start, NULL));
    play(&game, "a1 e5 Cc3 b1 c3< Sd4 b3> d3 e4 d4- c3> c5");
    expect_game_round_trip(&game);
    /* Ended by resignation. */
    assert_true(tak_game_end(&game, TAK_END_RESIGNATION, TAK_BLACK));
    expect_game_round_trip(&game);
    tak_game_free(&game);

    /* Odd rules: half komi, other reserves, from a TPS with Black to move. */
    rules.half_komi = -3;
    rules.stones = 12;
    rules.capstones = 2;
    start = support_position("x5/x5/x2,1C,x2/x5/2,x4 2 7", &rules);
    assert_true(tak_game_init(&game, &start, NULL));
    play(&game, "b1 Sc2 Cb2 c3+ b2>");
    expect_game_round_trip(&game);
    TakPtn ptn;
    assert_true(tak_ptn_from_game(&ptn, &game, NULL));
    assert_string_equal(tak_ptn_tag(&ptn, "Komi"), "-1.5");
    assert_string_equal(tak_ptn_tag(&ptn, "Flats"), "12");
    assert_string_equal(tak_ptn_tag(&ptn, "Caps"), "2");
    assert_string_equal(tak_ptn_tag(&ptn, "TPS"), "x5/x5/x2,1C,x2/x5/2,x4 2 7");
    assert_null(tak_ptn_tag(&ptn, "Result"));
    char *text = tak_ptn_write(&ptn);
    assert_non_null(strstr(text, "\n7. -- b1\n8. Sc2 Cb2\n9. c3+ b2>*\n"));
    free(text);
    tak_ptn_free(&ptn);
    tak_game_free(&game);

    /* Finished on the board: a road on 3x3, and flats on a full 3x3 board. */
    rules = support_rules(3);
    assert_true(tak_position_init(&start, &rules, NULL));
    assert_true(tak_game_init(&game, &start, NULL));
    play(&game, "c1 a1 a2 c2 a3");
    expect_game_round_trip(&game);
    assert_true(tak_ptn_from_game(&ptn, &game, NULL));
    assert_string_equal(tak_ptn_tag(&ptn, "Result"), "R-0");
    assert_string_equal(ptn.result, "R-0");
    tak_ptn_free(&ptn);
    tak_game_free(&game);
    assert_true(tak_game_init(&game, &start, NULL));
    play(&game, "a1 b1 Sc1 Sa2 Sb2 Sc2 Sa3 Sb3 c3");
    assert_int_equal(tak_game_result(&game).end, TAK_END_BOARD_FULL);
    expect_game_round_trip(&game);
    tak_game_free(&game);

    /* An empty game, and one from a finished position. */
    assert_true(tak_game_init(&game, &start, NULL));
    expect_game_round_trip(&game);
    tak_game_free(&game);
    start = support_position("x3/x3/1,1,1 2 4", NULL);
    assert_true(tak_game_init(&game, &start, NULL));
    expect_game_round_trip(&game);
    tak_game_free(&game);
}

/* A sample of the real games (every 20th, and every size): each reads to
 * the manifest's final position and writes back to the same moves. The
 * whole corpus is test_real_games.c's. */
static void test_real_games_sample(void **state) {
    (void)state;
    char path[512];
    size_t len;
    char *manifest =
        support_read_file(support_shared_path("games/real/MANIFEST.tsv", path, sizeof path), &len);
    if (!manifest) fail_msg("cannot read %s", path);
    int checked = 0, line_no = 0;
    char *next = manifest;
    while (*next) {
        char *line = next, *newline = strchr(line, '\n');
        next = newline ? newline + 1 : line + strlen(line);
        if (newline) *newline = '\0';
        if (line_no++ == 0 || !*line) continue; /* the header, blank lines */
        char *fields[8] = {NULL};
        int n = 0;
        for (char *f = line; n < 8; n++) {
            fields[n] = f;
            char *tab = strchr(f, '\t');
            if (!tab) {
                n++;
                break;
            }
            *tab = '\0';
            f = tab + 1;
        }
        if (n < 8) fail_msg("manifest line %d has %d fields", line_no, n);
        bool rare = strcmp(fields[2], "5") != 0; /* keep every game of the rarer sizes */
        if (line_no % 20 != 0 && !(rare && line_no % 4 == 0) && strcmp(fields[2], "8") != 0)
            continue;
        char relative[128];
        snprintf(relative, sizeof relative, "games/real/%s", fields[0]);
        size_t n_text;
        char *text = support_read_file(support_shared_path(relative, path, sizeof path), &n_text);
        if (!text) fail_msg("cannot read %s", path);
        TakPtn ptn;
        TakError err;
        char msg[300];
        if (!tak_ptn_read(text, n_text, &ptn, &err))
            fail_msg("%s: %s", fields[0], tak_error_describe(&err, msg, sizeof msg));
        char tps[TAK_TPS_MAX];
        if (strcmp(tps_of(&ptn.game.current, tps), fields[7]) != 0)
            fail_msg("%s: final position %s, want %s", fields[0], tps, fields[7]);
        if ((long)ptn.game.count != atol(fields[4]))
            fail_msg("%s: %zu plies, want %s", fields[0], ptn.game.count, fields[4]);
        char *back = tak_ptn_write(&ptn);
        TakPtn again;
        if (!tak_ptn_read(back, strlen(back), &again, &err))
            fail_msg("%s written back is refused: %s", fields[0], err.message);
        assert_int_equal(again.game.count, ptn.game.count);
        assert_memory_equal(again.game.moves, ptn.game.moves, ptn.game.count * sizeof(TakMove));
        assert_int_equal(again.tag_count, ptn.tag_count);
        tak_ptn_free(&again);
        free(back);
        tak_ptn_free(&ptn);
        free(text);
        checked++;
    }
    assert_true(checked >= 40);
    free(manifest);
}

/* Every prefix of a game, and the game with each byte replaced by a few
 * troublesome ones, is read or refused cleanly (the sanitizer build makes
 * "cleanly" mean something), and a refusal always says where. */
static void test_hostile(void **state) {
    (void)state;
    size_t n = strlen(example);
    char *text = malloc(n + 1);
    static const char swaps[] = {'\0', '{', '}', '[', ']', '"', '\n', '*', '9', '-'};
    for (size_t cut = 0; cut <= n; cut++) {
        TakPtn p;
        TakError err;
        if (tak_ptn_read(example, cut, &p, &err))
            tak_ptn_free(&p);
        else
            assert_true(err.line >= 1 && err.message[0]);
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t s = 0; s < sizeof swaps; s++) {
            memcpy(text, example, n + 1);
            text[i] = swaps[s];
            TakPtn p;
            TakError err;
            if (tak_ptn_read(text, n, &p, &err)) {
                char *back = tak_ptn_write(&p);
                TakPtn q;
                if (!tak_ptn_read(back, strlen(back), &q, &err))
                    fail_msg("written back and refused: %s\n%s", err.message, back);
                assert_int_equal(q.game.count, p.game.count);
                tak_ptn_free(&q);
                free(back);
                tak_ptn_free(&p);
            } else {
                assert_true(err.line >= 1 && err.message[0]);
            }
        }
    }
    free(text);
    TakPtn p;
    assert_false(tak_ptn_read(NULL, 5, &p, NULL));
    assert_false(tak_ptn_read("1. a1", 5, &p, NULL));
}

/* ---- Branches (variations), as PTN Ninja writes them ------------------------ */

static const char ninja[] = "[Size \"5\"]\r\n[Player1 \"Ann\"]\r\n\r\n"
                            "1. a1 e5 {opening}\r\n"
                            "2. c3 d3\r\n"
                            "3. c4 d4'\r\n"
                            "4. c2 R-0\r\n"
                            "\r\n"
                            "{2w1}\r\n"
                            "2. b3 c2 {why not}\r\n"
                            "3. b2? a2\r\n"
                            "\r\n"
                            "{2w1/3b1}\r\n"
                            "3. -- {instead} b4!\r\n"
                            "\r\n"
                            "{3b1}\r\n"
                            "3. -- b2 0-R\r\n";

/* The moves of `game` from ply `from`, as long PTN joined by spaces. */
static const char *moves_of(const TakGame *game, size_t from, char *out) {
    TakPosition pos = game->start;
    TakUndo undo;
    out[0] = '\0';
    for (size_t i = 0; i < game->count; i++) {
        char m[TAK_MOVE_TEXT_MAX];
        if (i >= from) {
            tak_move_write(game->moves[i], tak_position_size(&pos), &pos, m);
            if (out[0]) strcat(out, " ");
            strcat(out, m);
        }
        tak_position_make(&pos, game->moves[i], &undo);
    }
    return out;
}

static void test_branches(void **state) {
    (void)state;
    TakPtn p = read_ok(ninja);
    char buf[512];
    assert_string_equal(moves_of(&p.game, 0, buf), "a1 e5 c3 d3 c4 d4 c2");
    assert_string_equal(p.result, "R-0");
    assert_string_equal(p.comments[1], "opening");
    assert_string_equal(p.marks[5], "'");
    assert_int_equal(p.branch_count, 3);

    const TakPtnBranch *b = &p.branches[0];
    assert_string_equal(b->name, "2w1");
    assert_int_equal(b->parent, -1);
    assert_int_equal(b->start, 2);
    assert_string_equal(moves_of(&b->game, 0, buf), "a1 e5 b3 c2 b2 a2");
    assert_string_equal(b->comments[3], "why not");
    assert_string_equal(b->marks[4], "?");
    for (size_t i = 0; i < b->start; i++) assert_null(b->comments[i]), assert_null(b->marks[i]);
    assert_null(b->preface);
    assert_string_equal(b->result, "");

    b = &p.branches[1]; /* a branch of a branch, from Black's ply */
    assert_string_equal(b->name, "2w1/3b1");
    assert_int_equal(b->parent, 0);
    assert_int_equal(b->start, 5);
    assert_string_equal(moves_of(&b->game, 5, buf), "b4");
    assert_string_equal(moves_of(&b->game, 0, buf), "a1 e5 b3 c2 b2 b4");
    assert_string_equal(b->preface, "instead");
    assert_string_equal(b->marks[5], "!");

    b = &p.branches[2]; /* "3b1" leaves the main line, not 2w1 */
    assert_int_equal(b->parent, -1);
    assert_int_equal(b->start, 5);
    assert_string_equal(moves_of(&b->game, 0, buf), "a1 e5 c3 d3 c4 b2");
    assert_string_equal(b->result, "0-R");

    /* Written back, it reads to the same lines, and writes the same text. */
    char *text = tak_ptn_write(&p);
    assert_non_null(strstr(text, "\n\n{2w1}\n2. b3 c2 {why not}\n3. b2? a2\n"));
    assert_non_null(strstr(text, "\n\n{2w1/3b1}\n3. -- {instead} b4!\n"));
    assert_non_null(strstr(text, "\n\n{3b1}\n3. -- b2 0-R\n"));
    TakPtn q = read_ok(text);
    assert_int_equal(q.branch_count, 3);
    for (size_t k = 0; k < 3; k++) {
        assert_string_equal(q.branches[k].name, p.branches[k].name);
        assert_int_equal(q.branches[k].parent, p.branches[k].parent);
        assert_int_equal(q.branches[k].start, p.branches[k].start);
        char other[512];
        assert_string_equal(moves_of(&q.branches[k].game, 0, buf),
                            moves_of(&p.branches[k].game, 0, other));
    }
    char *again = tak_ptn_write(&q);
    assert_string_equal(again, text);
    free(again);
    free(text);
    tak_ptn_free(&q);
    tak_ptn_free(&p);
}

/* A comment after a blank line is a branch's name only when a move number
 * inside the line follows it; otherwise it stays a comment. */
static void test_branch_or_comment(void **state) {
    (void)state;
    TakPtn p = read_ok("[Size \"5\"]\n\n1. a1 e5\n\n{the middle game}\n2. c3 d3\n\n{end}\n");
    assert_int_equal(p.branch_count, 0);
    assert_int_equal(p.game.count, 4);
    assert_string_equal(p.comments[1], "the middle game");
    assert_string_equal(p.comments[3], "end");
    tak_ptn_free(&p);
    /* On the same line, or over two lines, it is a comment. */
    p = read_ok("[Size \"5\"]\n1. a1 e5\n2. c3 d3 {x}\n\n{two\nlines}\n");
    assert_int_equal(p.branch_count, 0);
    assert_string_equal(p.comments[3], "x two\nlines");
    tak_ptn_free(&p);
    /* A game from a TPS with Black to move: a branch at its first ply. */
    p = read_ok("[Size \"5\"]\n[TPS \"x5/x5/x2,1,x2/x5/2,x4 2 7\"]\n7. -- c2\n8. b2 b3\n\n"
                "{7b1}\n7. -- d2\n");
    assert_int_equal(p.branch_count, 1);
    assert_int_equal(p.branches[0].start, 0);
    tak_ptn_free(&p);
}

static void test_branch_errors(void **state) {
    (void)state;
    const char *main_line = "[Size \"5\"]\n1. a1 e5\n2. c3 d3\n";
    char text[400];
    snprintf(text, sizeof text, "%s\n{2w1}\n2. c3 c3\n", main_line);
    expect_error(text, 6, 7, "branch 2w1, move 2 (Black) c3: c3 is not empty");
    snprintf(text, sizeof text, "%s\n{2w1}\n2. b3\n\n{2w1}\n2. b2\n", main_line);
    expect_error(text, 8, 1, "a second branch named 2w1");
    snprintf(text, sizeof text, "%s\n{x}\n2. b3 b2\n3. a2\n\n{x/y}\n3. -- c2\n", main_line);
    expect_error(text, 10, 1, "branch x/y starts at move 3 (Black), after the end of the line");
    snprintf(text, sizeof text, "%s\n{1w1}\n1. b3 R-0 b2\n", main_line);
    expect_error(text, 6, 11, "text after the result R-0");
    snprintf(text, sizeof text, "%s\n{1w1}\n1.\n\n{1w2}\n1. b2\n", main_line);
    expect_error(text, 6, 1, "move 1 has no plies");
    snprintf(text, sizeof text, "%s\n{1w1}\n1. b2 -- \n", main_line);
    expect_error(text, 6, 7, "'--' stands only");
    snprintf(text, sizeof text, "%s\n{1b1}\n1. --\n", main_line);
    expect_error(text, 6, 1, "branch 1b1 has no plies");
    /* Without a name, going back is refused, and the message says how. */
    snprintf(text, sizeof text, "%s\n2. b3\n", main_line);
    expect_error(text, 5, 1, "a branch starts after a blank line with its name in braces");
    /* From a TPS with Black to move, White's ply there does not exist. */
    expect_error("[Size \"5\"]\n[TPS \"x5/x5/x2,1,x2/x5/2,x4 2 7\"]\n7. -- c2\n8. b2 b3\n\n"
                 "{7w1}\n7. d2\n",
                 7, 1, "its line starts with Black to move at move 7");
}

static void test_branch_building(void **state) {
    (void)state;
    TakPtn p = read_ok("[Size \"5\"]\n1. a1 e5\n2. c3 d3\n");
    TakError err;
    TakMove m;
    assert_int_equal(tak_ptn_add_branch(&p, "2w1", -1, 2, &err), 0);
    assert_true(tak_move_parse(&p.branches[0].game.current, "b2", &m, NULL));
    assert_true(tak_ptn_play(&p, 0, m, "a note", "!?", &err));
    assert_true(tak_move_parse(&p.branches[0].game.current, "b3", &m, NULL));
    assert_false(tak_ptn_play(&p, 0, m, NULL, "x", &err)); /* not a mark */
    assert_non_null(strstr(err.message, "marks are"));
    assert_true(tak_ptn_play(&p, 0, m, NULL, NULL, &err));
    assert_false(tak_ptn_play(&p, 0, m, NULL, NULL, &err)); /* b3 is taken now */
    assert_int_equal(p.branches[0].game.count, 4);
    assert_int_equal(tak_ptn_add_branch(&p, "2w1/2b1", 0, 3, &err), 1);
    assert_true(tak_move_parse(&p.game.current, "e4", &m, NULL));
    assert_true(tak_ptn_play(&p, -1, m, "main", NULL, &err));

    /* Refused: a name in use, or not one line; a start past the line's end;
     * no such parent; a name that says another parent. */
    assert_int_equal(tak_ptn_add_branch(&p, "2w1", -1, 2, &err), -1);
    assert_non_null(strstr(err.message, "already a branch named 2w1"));
    assert_int_equal(tak_ptn_add_branch(&p, "a}b", -1, 2, &err), -1);
    assert_int_equal(tak_ptn_add_branch(&p, "a\nb", -1, 2, &err), -1);
    assert_int_equal(tak_ptn_add_branch(&p, "", -1, 2, &err), -1);
    assert_int_equal(tak_ptn_add_branch(&p, "x/", -1, 2, &err), -1);
    assert_int_equal(tak_ptn_add_branch(&p, "late", -1, 5, &err), -1);
    assert_non_null(strstr(err.message, "has 5 plies"));
    assert_int_equal(tak_ptn_add_branch(&p, "x", 7, 0, &err), -1);
    assert_int_equal(tak_ptn_add_branch(&p, "2w1/x", -1, 0, &err), -1);
    assert_non_null(strstr(err.message, "leaves branch 2w1"));
    assert_int_equal(tak_ptn_add_branch(&p, "y", 0, 0, &err), -1);
    assert_non_null(strstr(err.message, "is named 2w1/..."));
    assert_int_equal(p.branch_count, 2);

    /* What was built writes (but for the branch with no plies: PTN has no
     * empty branch) and reads back. */
    char *text = tak_ptn_write(&p);
    assert_string_equal(text, "[Size \"5\"]\n\n1. a1 e5\n2. c3 d3\n3. e4 {main}\n\n"
                              "{2w1}\n2. b2!? {a note} b3\n");
    TakPtn q = read_ok(text);
    assert_int_equal(q.branch_count, 1);
    tak_ptn_free(&q);
    free(text);
    tak_ptn_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example),           cmocka_unit_test(test_other_tools_layout),
        cmocka_unit_test(test_comments),          cmocka_unit_test(test_marks),
        cmocka_unit_test(test_from_tps),          cmocka_unit_test(test_tags),
        cmocka_unit_test(test_tag_syntax_errors), cmocka_unit_test(test_rule_tags),
        cmocka_unit_test(test_illegal_moves),     cmocka_unit_test(test_move_text_errors),
        cmocka_unit_test(test_branches),
        cmocka_unit_test(test_branch_or_comment),
        cmocka_unit_test(test_branch_errors),
        cmocka_unit_test(test_branch_building),
        cmocka_unit_test(test_results),           cmocka_unit_test(test_write_round_trip),
        cmocka_unit_test(test_real_games_sample), cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
