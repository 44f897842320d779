/*
 * test_playtak_client.c: PlayTak's client lines read for a server
 * (tak_pt_client_read, playtak.h): every kind of line as PlayTak's clients
 * write it (ours, tak_pt_write_seek and friends, among them), and hostile
 * lines refused with what and where, the output untouched: over-long lines,
 * NUL and control bytes, huge numbers, bad squares, wrong counts.
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

static TakPtCommand read_ok(const char *line) {
    TakPtCommand m;
    TakError err;
    if (!tak_pt_client_read(line, strlen(line), &m, &err))
        fail_msg("refused \"%s\": column %d: %s", line, err.column, err.message);
    return m;
}

/* The len bytes of line are refused at `column` with a message containing `words`. */
static void expect_refused_n(const char *line, size_t len, int column, const char *words) {
    TakPtCommand m;
    memset(&m, 0x5a, sizeof m);
    TakPtCommand before = m;
    TakError err;
    if (tak_pt_client_read(line, len, &m, &err))
        fail_msg("read \"%.60s\", which is malformed", line);
    if (memcmp(&m, &before, sizeof m) != 0)
        fail_msg("\"%.60s\": the output was written on failure", line);
    if (column && err.column != column)
        fail_msg("\"%.60s\": error at column %d (%s), want %d", line, err.column, err.message,
                 column);
    if (!strstr(err.message, words))
        fail_msg("\"%.60s\": error \"%s\" does not say \"%s\"", line, err.message, words);
}

static void expect_refused(const char *line, int column, const char *words) {
    expect_refused_n(line, strlen(line), column, words);
}

static void test_login_lines(void **state) {
    (void)state;
    TakPtCommand m = read_ok("Client TakBot 1.0");
    assert_int_equal(m.kind, TAK_PT_CMD_CLIENT);
    assert_string_equal(m.text, "TakBot 1.0");
    m = read_ok("Protocol 1");
    assert_int_equal(m.kind, TAK_PT_CMD_PROTOCOL);
    assert_string_equal(m.text, "1");
    m = read_ok("Login Guest");
    assert_int_equal(m.kind, TAK_PT_CMD_LOGIN_GUEST);
    assert_string_equal(m.secret, "");
    m = read_ok("Login Guest abcdefghijklmnopqrst");
    assert_int_equal(m.kind, TAK_PT_CMD_LOGIN_GUEST);
    assert_string_equal(m.secret, "abcdefghijklmnopqrst");
    m = read_ok("Login takbot_a s3cret-With-dashes_");
    assert_int_equal(m.kind, TAK_PT_CMD_LOGIN);
    assert_string_equal(m.name, "takbot_a");
    assert_string_equal(m.secret, "s3cret-With-dashes_");
    assert_int_equal(read_ok("Login Guest\r").kind, TAK_PT_CMD_LOGIN_GUEST);

    expect_refused("Login", 6, "missing the name");
    expect_refused("Login bob", 10, "missing the password");
    expect_refused("Login bob ", 11, "missing the password");
    expect_refused("Login Guest NOTATOKEN", 13, "20 small letters");
    expect_refused("Login Guest abcdefghijklmnopqrsT", 32, "20 small letters");
    expect_refused("Login Guest abc", 13, "20 small letters");
    expect_refused("Login Guesty secret", 7, "Login Guest [TOKEN]");
    expect_refused("Login aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa x", 7, "the name is too long");
    char line[300];
    snprintf(line, sizeof line, "Login bob %0200d", 7);
    expect_refused(line, 11, "password is too long");
    expect_refused("Client", 7, "missing the text");
    expect_refused("Client ", 8, "missing the text");
    expect_refused("Clients x", 1, "unknown command 'Clients'");
}

static void test_seek_lines(void **state) {
    (void)state;
    TakPtCommand m = read_ok("Seek 5 180 2");
    assert_int_equal(m.kind, TAK_PT_CMD_SEEK);
    assert_int_equal(m.seek_version, 1);
    assert_int_equal(m.seek.size, 5);
    assert_int_equal(m.seek.time_s, 180);
    assert_int_equal(m.seek.increment_s, 2);
    assert_int_equal(m.seek.color, 'A');
    m = read_ok("Seek 4 0 0 B");
    assert_int_equal(m.seek_version, 1);
    assert_int_equal(m.seek.color, 'B');
    assert_int_equal(read_ok("Seek 0 0 0").seek.size, 0); /* withdraws */

    m = read_ok("Seek 6 600 10 W 4 30 1 1 0 Alice_1");
    assert_int_equal(m.seek_version, 2);
    assert_int_equal(m.seek.color, 'W');
    assert_int_equal(m.seek.half_komi, 4);
    assert_int_equal(m.seek.pieces, 30);
    assert_int_equal(m.seek.capstones, 1);
    assert_true(m.seek.unrated);
    assert_false(m.seek.tournament);
    assert_string_equal(m.seek.opponent, "Alice_1");
    m = read_ok("Seek 6 600 10 A 4 30 1 0 0 ");
    assert_int_equal(m.seek_version, 2);
    assert_string_equal(m.seek.opponent, "");

    m = read_ok("Seek 3 600 10 W 0 10 0 1 0 0 0 ");
    assert_int_equal(m.seek_version, 3);
    assert_int_equal(m.seek.trigger_move, 0);
    assert_string_equal(m.seek.opponent, "");
    m = read_ok("Seek 6 900 10 B 0 30 1 0 1 35 300 TakEngine7");
    assert_int_equal(m.seek_version, 3);
    assert_true(m.seek.tournament);
    assert_int_equal(m.seek.trigger_move, 35);
    assert_int_equal(m.seek.extra_time_s, 300);
    assert_string_equal(m.seek.opponent, "TakEngine7");

    /* What our own bot writes, read back. */
    TakPtSeekRequest req = {.size = 5,
                            .time_s = 180,
                            .increment_s = 2,
                            .color = 'A',
                            .half_komi = 4,
                            .trigger_move = 20,
                            .extra_time_s = 60,
                            .opponent = "Guest7"};
    char line[TAK_PT_WRITE_MAX];
    TakError err;
    assert_true(tak_pt_write_seek(&req, line, sizeof line, &err) > 0);
    m = read_ok(line);
    assert_int_equal(m.seek_version, 3);
    assert_int_equal(m.seek.size, 5);
    assert_int_equal(m.seek.half_komi, 4);
    assert_int_equal(m.seek.trigger_move, 20);
    assert_string_equal(m.seek.opponent, "Guest7");

    expect_refused("Seek", 5, "the size is not a whole number");
    expect_refused("Seek 9 60 5", 6, "the size is out of range");
    expect_refused("Seek 5 60", 10, "the increment is not a whole number");
    expect_refused("Seek 5 x 5", 8, "the time is not a whole number");
    expect_refused("Seek 5 -60 5", 8, "the time is not a whole number");
    expect_refused("Seek 5 99999999999999999999 5", 8, "the time is out of range");
    expect_refused("Seek 5 60 301", 11, "the increment is out of range");
    expect_refused("Seek 5 60 5 Q 0 21 1 0 0 ", 13, "the colour is W, B or A");
    expect_refused("Seek 5 60 5 A", 13, "needs the komi");
    expect_refused("Seek 5 60 5 WB", 13, "the colour is W, B or A");
    expect_refused("Seek 5 60 5 W 99 21 1 0 0 ", 15, "the komi is out of range");
    expect_refused("Seek 5 60 5 W 0 21 1 2 0 ", 22, "unrated (0 or 1) is out of range");
    expect_refused("Seek 5 60 5 W 0 21 1 0", 23, "tournament (0 or 1) is not a whole number");
    expect_refused("Seek 5 60 5 W 0 21 1 0 0 bad-name", 29, "letter, digit or '_'");
    expect_refused("Seek 5 60 5 W 0 21 1 0 0 5 bob", 27, "letter, digit or '_'");
    expect_refused("Seek 5 60 5 W 0 21 1 0 0 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 26,
                   "too long");
    expect_refused("Seek 5 60 5  ", 13, "the colour is W, B or A");
}

static void test_game_lines(void **state) {
    (void)state;
    TakPtCommand m = read_ok("Game#12 P A1");
    assert_int_equal(m.kind, TAK_PT_CMD_MOVE);
    assert_int_equal(m.game, 12);
    assert_true(m.move.is_place);
    assert_int_equal(m.move.file, 0);
    assert_int_equal(m.move.rank, 0);
    m = read_ok("Game#3 P C3 C");
    assert_int_equal(m.move.piece, TAK_CAP);
    m = read_ok("Game#3 M A1 A3 1 2");
    assert_false(m.move.is_place);
    assert_int_equal(m.move.to_rank, 2);
    assert_int_equal(m.move.drop_count, 2);
    /* What our bot writes, read back. */
    char line[TAK_PT_WRITE_MAX];
    TakMove move;
    TakError err;
    assert_true(tak_pt_write_move(7, tak_move_place(0, TAK_PLACE_FLAT), 5, line, sizeof line) > 0);
    m = read_ok(line);
    assert_int_equal(m.game, 7);
    assert_true(tak_pt_move_to_move(&m.move, 5, &move, &err));
    assert_int_equal(move, tak_move_place(0, TAK_PLACE_FLAT));

    const struct {
        const char *line;
        TakPtCommandKind kind;
    } requests[] = {
        {"Game#1 Resign", TAK_PT_CMD_RESIGN},
        {"Game#1 OfferDraw", TAK_PT_CMD_OFFER_DRAW},
        {"Game#1 RemoveDraw", TAK_PT_CMD_REMOVE_DRAW},
        {"Game#1 RequestUndo", TAK_PT_CMD_REQUEST_UNDO},
        {"Game#1 RemoveUndo", TAK_PT_CMD_REMOVE_UNDO},
    };
    for (size_t i = 0; i < sizeof requests / sizeof *requests; i++) {
        m = read_ok(requests[i].line);
        assert_int_equal(m.kind, requests[i].kind);
        assert_int_equal(m.game, 1);
    }
    m = read_ok("Accept 42");
    assert_int_equal(m.kind, TAK_PT_CMD_ACCEPT);
    assert_int_equal(m.game, 42);

    expect_refused("Game#x P A1", 6, "the game's number is not a whole number");
    expect_refused("Game#99999999999 P A1", 6, "out of range");
    expect_refused("Game#1", 7, "ends after the game's number");
    expect_refused("Game#1 Resign now", 8, "a game's line is P, M");
    expect_refused("Game#1 Show", 8, "a game's line is P, M");
    expect_refused("Game#1 P 1A", 10, "");     /* a bad square, in the line's columns */
    expect_refused("Game#1 P A1 X", 0, "");    /* a bad piece */
    expect_refused("Game#1 M A1 B2 1", 0, ""); /* not a straight line */
    expect_refused("Game#1 M A1 A3 1", 0, ""); /* drops not numbering the squares */
    expect_refused("Game#1 M A1 A3 1 2 3 4 5 6 7 8 9", 0, "");
    expect_refused("Game#1 P", 8, "a game's line is P, M");
    expect_refused("Accept", 7, "not a whole number");
    expect_refused("Accept -1", 8, "not a whole number");
    expect_refused("Accept 1 2", 10, "unexpected text");
    expect_refused("Accept 4294967296", 8, "out of range");
}

static void test_chat_and_plain_lines(void **state) {
    (void)state;
    TakPtCommand m = read_ok("Shout hello  everyone");
    assert_int_equal(m.kind, TAK_PT_CMD_SHOUT);
    assert_string_equal(m.text, "hello  everyone");
    m = read_ok("Tell Guest3 good game");
    assert_int_equal(m.kind, TAK_PT_CMD_TELL);
    assert_string_equal(m.name, "Guest3");
    assert_string_equal(m.text, "good game");
    assert_int_equal(read_ok("PING").kind, TAK_PT_CMD_PING);
    assert_int_equal(read_ok("quit").kind, TAK_PT_CMD_QUIT);
    assert_int_equal(read_ok("List").kind, TAK_PT_CMD_LIST);
    assert_int_equal(read_ok("GameList").kind, TAK_PT_CMD_GAME_LIST);
    /* A long shout is cut, never refused. */
    char line[TAK_PT_LINE_MAX + 1];
    memcpy(line, "Shout ", 6);
    memset(line + 6, 'x', sizeof line - 7);
    line[sizeof line - 1] = '\0';
    m = read_ok(line);
    assert_int_equal(strlen(m.text), TAK_PT_TEXT_MAX - 1);

    expect_refused("Shout", 6, "missing the text");
    expect_refused("Tell", 5, "missing the name");
    expect_refused("Tell bob", 9, "missing the text");
    expect_refused("Tell bob ", 10, "missing the text");
    expect_refused("PING ", 5, "unexpected text after PING");
    expect_refused("PING now", 6, "unexpected text after PING");
    m = read_ok("JoinRoom Alice-Bob");
    assert_int_equal(m.kind, TAK_PT_CMD_JOIN_ROOM);
    assert_string_equal(m.room, "Alice-Bob");
    m = read_ok("LeaveRoom Alice-Bob");
    assert_int_equal(m.kind, TAK_PT_CMD_LEAVE_ROOM);
    assert_string_equal(m.room, "Alice-Bob");
    m = read_ok("ShoutRoom Alice-Bob nice  move");
    assert_int_equal(m.kind, TAK_PT_CMD_SHOUT_ROOM);
    assert_string_equal(m.room, "Alice-Bob");
    assert_string_equal(m.text, "nice  move");
    m = read_ok("Observe 12");
    assert_int_equal(m.kind, TAK_PT_CMD_OBSERVE);
    assert_int_equal(m.game, 12);
    m = read_ok("Unobserve 12");
    assert_int_equal(m.kind, TAK_PT_CMD_UNOBSERVE);
    assert_int_equal(m.game, 12);
    char room[100] = "JoinRoom ";
    memset(room + 9, 'r', 65);
    expect_refused(room, 10, "the room is too long");
    expect_refused("JoinRoom", 9, "the room");
    expect_refused("JoinRoom a b", 11, "unexpected text after the room");
    expect_refused("ShoutRoom a", 12, "missing the text after the room");
    expect_refused("ShoutRoom a ", 13, "missing the text");
    expect_refused("Observe", 8, "not a whole number");
    expect_refused("Observe x", 9, "not a whole number");
    expect_refused("Unobserve 1 2", 13, "unexpected text");
    expect_refused("Observe", 8, "the game's number");
    expect_refused("garbage", 1, "unknown command");
    expect_refused("", 1, "unknown command ''");
    expect_refused("ping", 1, "unknown command");
}

static void test_hostile_bytes(void **state) {
    (void)state;
    expect_refused_n("PING\0garbage", 12, 5, "control byte (0x00)");
    expect_refused_n("\0\x01", 2, 1, "control byte (0x00)");
    expect_refused("Shout hi\tthere", 9, "control byte (0x09)");
    expect_refused("Tell bob \x1b[2J", 10, "control byte (0x1b)");
    expect_refused("Shout \x7f", 7, "control byte (0x7f)");
    char *line = malloc(5000);
    assert_non_null(line);
    memset(line, 'x', 5000);
    memcpy(line, "Shout ", 6);
    expect_refused_n(line, 5000, TAK_PT_LINE_MAX + 1, "longer than");
    /* Not NUL-terminated: nothing is read past len. */
    memcpy(line, "Seek 5 60 5", 11);
    TakPtCommand m;
    TakError err;
    assert_true(tak_pt_client_read(line, 11, &m, &err));
    assert_int_equal(m.seek.increment_s, 5);
    free(line);
    for (int k = 0; k < TAK_PT_CMD_KIND_COUNT; k++)
        assert_string_not_equal(tak_pt_command_name((TakPtCommandKind)k), "?");
    assert_string_equal(tak_pt_command_name(TAK_PT_CMD_KIND_COUNT), "?");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_login_lines),   cmocka_unit_test(test_seek_lines),
        cmocka_unit_test(test_game_lines),    cmocka_unit_test(test_chat_and_plain_lines),
        cmocka_unit_test(test_hostile_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
