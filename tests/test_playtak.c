/*
 * test_playtak.c: PlayTak's protocol (playtak.h): every kind of server line
 * read, as the real server wrote it (the lines below are copied from a
 * conversation with tak-server at the commit in bench/PLAYTAK.md); hostile
 * and malformed lines refused with what and where; moves both ways; the
 * client lines; and the session followed through recorded conversations: a
 * game, a takeback, a reconnection that replays the game, endings.
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

static TakPtMessage read_ok(const char *line) {
    TakPtMessage m;
    TakError err;
    if (!tak_pt_read(line, &m, &err)) fail_msg("refused \"%s\": column %d: %s", line, err.column, err.message);
    return m;
}

/* The line is refused at `column` with a message containing `words`. */
static void expect_refused(const char *line, int column, const char *words) {
    TakPtMessage m;
    memset(&m, 0x5a, sizeof m);
    TakPtMessage before = m;
    TakError err;
    if (tak_pt_read(line, &m, &err)) fail_msg("read \"%s\", which is malformed", line);
    if (memcmp(&m, &before, sizeof m) != 0) fail_msg("\"%s\": the output was written on failure", line);
    if (column && err.column != column)
        fail_msg("\"%s\": error at column %d (%s), want %d", line, err.column, err.message, column);
    if (!strstr(err.message, words))
        fail_msg("\"%s\": error \"%s\" does not say \"%s\"", line, err.message, words);
}

static void test_plain_lines(void **state) {
    (void)state;
    assert_int_equal(read_ok("Welcome!").kind, TAK_PT_WELCOME);
    assert_int_equal(read_ok("Login or Register").kind, TAK_PT_LOGIN_PROMPT);
    assert_int_equal(read_ok("OK").kind, TAK_PT_OK);
    assert_int_equal(read_ok("OK\r").kind, TAK_PT_OK);
    assert_int_equal(read_ok("NOK").kind, TAK_PT_NOK);
    assert_int_equal(read_ok("Authentication failure").kind, TAK_PT_AUTH_FAILURE);
    assert_int_equal(read_ok("Is Mod").kind, TAK_PT_IS_MOD);
    TakPtMessage m = read_ok("Welcome Guest1!");
    assert_int_equal(m.kind, TAK_PT_LOGGED_IN);
    assert_string_equal(m.name, "Guest1");
    m = read_ok("Online 2");
    assert_int_equal(m.kind, TAK_PT_ONLINE);
    assert_int_equal(m.count, 2);
    m = read_ok("Error:Square not empty");
    assert_int_equal(m.kind, TAK_PT_ERROR);
    assert_string_equal(m.text, "Square not empty");
    m = read_ok("Message Guest1 has disconnected. They have 120 seconds to reconnect");
    assert_int_equal(m.kind, TAK_PT_MESSAGE);
    assert_string_equal(m.text, "Guest1 has disconnected. They have 120 seconds to reconnect");
    m = read_ok("Registration Error: Username is already taken");
    assert_int_equal(m.kind, TAK_PT_NOTICE);
    assert_string_equal(m.text, "Registration Error: Username is already taken");
    assert_int_equal(read_ok("No such player").kind, TAK_PT_NOTICE);
}

static void test_seeks(void **state) {
    (void)state;
    /* The third version, anyone may accept: the line ends in a space. */
    TakPtMessage m = read_ok("Seek new 1 Guest1 5 180 2 W 2 21 1 1 0 0 0 ");
    assert_int_equal(m.kind, TAK_PT_SEEK_NEW);
    assert_int_equal(m.seek.no, 1);
    assert_string_equal(m.seek.name, "Guest1");
    assert_int_equal(m.seek.size, 5);
    assert_int_equal(m.seek.time_s, 180);
    assert_int_equal(m.seek.increment_s, 2);
    assert_int_equal(m.seek.color, 'W');
    assert_int_equal(m.seek.half_komi, 2);
    assert_int_equal(m.seek.pieces, 21);
    assert_int_equal(m.seek.capstones, 1);
    assert_true(m.seek.unrated);
    assert_false(m.seek.tournament);
    assert_string_equal(m.seek.opponent, "");
    m = read_ok("Seek remove 7 tiltak 6 600 5 A 4 30 1 0 1 35 300 alion");
    assert_int_equal(m.kind, TAK_PT_SEEK_REMOVE);
    assert_int_equal(m.seek.trigger_move, 35);
    assert_int_equal(m.seek.extra_time_s, 300);
    assert_true(m.seek.tournament);
    assert_string_equal(m.seek.opponent, "alion");
    /* The second version: no extra time, an opponent or none. */
    m = read_ok("Seek new 3 Bot_1 6 900 10 B 0 30 1 0 0 alion");
    assert_string_equal(m.seek.opponent, "alion");
    assert_int_equal(m.seek.trigger_move, 0);
    m = read_ok("Seek new 3 Bot_1 6 900 10 B 0 30 1 0 0");
    assert_string_equal(m.seek.opponent, "");

    expect_refused("Seek new x Guest1 5 180 2 W 2 21 1 1 0 0 0 ", 10, "the seek number");
    expect_refused("Seek new 1 Guest1 9 180 2 W 2 21 1 1 0 0 0 ", 19, "board size is out of range");
    expect_refused("Seek new 1 Guest1 5 180 2 X 2 21 1 1 0 0 0 ", 27, "not W, B or A");
    expect_refused("Seek new 1 Guest1 5 180 2 W 2 21 1 2 0 0 0 ", 36, "unrated flag");
    expect_refused("Seek new 1 Guest1 5 180 2 W 2 21", 33, "line ends where the capstones");
    expect_refused("Seek new 1 Gue<st 5 180 2 W 2 21 1 1 0 0 0 ", 15, "a name cannot have");
    expect_refused("Seek new 1 Guest1 5 99999999999999999999 2 W 2 21 1 1 0 0 0 ", 21, "out of range");
    expect_refused("Seek new 1 Guest1 5 180 2 W 2 21 1 1 0 0 0 bob extra", 47, "unexpected text");
}

static void test_game_list(void **state) {
    (void)state;
    TakPtMessage m = read_ok("GameList Add 1 Guest1 Guest2 5 180 2 2 21 1 1 0 0 0");
    assert_int_equal(m.kind, TAK_PT_GAMELIST_ADD);
    assert_int_equal(m.listed.no, 1);
    assert_string_equal(m.listed.white, "Guest1");
    assert_string_equal(m.listed.black, "Guest2");
    assert_int_equal(m.listed.increment_s, 2);
    assert_int_equal(m.listed.half_komi, 2);
    assert_true(m.listed.unrated);
    m = read_ok("GameList Remove 1 Guest1 Guest2 5 180 2 2 21 1 1 0 0 0");
    assert_int_equal(m.kind, TAK_PT_GAMELIST_REMOVE);
    m = read_ok("Observe 4 a_b c_d 6 600 5 0 30 1 0 0");
    assert_int_equal(m.kind, TAK_PT_OBSERVE);
    assert_int_equal(m.listed.size, 6);
    expect_refused("GameList Add 1 Guest1", 22, "Black's name");
    expect_refused("GameList Add 1 Guest1 Guest2 5 180 2 2 21 1 1 0 0 0 9", 52, "unexpected text");
}

static void test_game_start(void **state) {
    (void)state;
    TakPtMessage m = read_ok("Game Start 1 5 Guest1 vs Guest2 white 180 2 21 1 0 0");
    assert_int_equal(m.kind, TAK_PT_GAME_START);
    assert_int_equal(m.start.no, 1);
    assert_int_equal(m.start.size, 5);
    assert_string_equal(m.start.white, "Guest1");
    assert_string_equal(m.start.black, "Guest2");
    assert_int_equal(m.start.color, TAK_WHITE);
    assert_int_equal(m.start.time_s, 180);
    assert_int_equal(m.start.half_komi, 2);
    assert_int_equal(m.start.pieces, 21);
    assert_int_equal(m.start.capstones, 1);
    m = read_ok("Game Start 12 6 alion vs tiltak black 600 0 30 1 35 300");
    assert_int_equal(m.start.color, TAK_BLACK);
    assert_int_equal(m.start.trigger_move, 35);
    assert_int_equal(m.start.extra_time_s, 300);
    /* The first version had no extra time. */
    m = read_ok("Game Start 12 6 alion vs tiltak black 600 0 30 1");
    assert_int_equal(m.start.trigger_move, 0);
    expect_refused("Game Start 1 5 Guest1 v Guest2 white 180 2 21 1 0 0", 23, "'vs'");
    expect_refused("Game Start 1 5 Guest1 vs Guest2 green 180 2 21 1 0 0", 33, "'white' or 'black'");
    expect_refused("Game Start 1 5 Guest1 vs Guest2 white 180 2 21", 47, "capstones");
    expect_refused("Game Start 1 2 Guest1 vs Guest2 white 180 2 21 1 0 0", 14, "board size");
}

static void test_game_lines(void **state) {
    (void)state;
    TakPtMessage m = read_ok("Game#1 P A1");
    assert_int_equal(m.kind, TAK_PT_GAME_MOVE);
    assert_int_equal(m.game, 1);
    assert_true(m.move.is_place);
    assert_int_equal(m.move.piece, TAK_FLAT);
    m = read_ok("Game#1 P C3 W");
    assert_int_equal(m.move.piece, TAK_WALL);
    assert_int_equal(m.move.file, 2);
    assert_int_equal(m.move.rank, 2);
    m = read_ok("Game#3 M A1 A3 1 2");
    assert_false(m.move.is_place);
    assert_int_equal(m.move.drop_count, 2);
    assert_int_equal(m.move.drops[1], 2);
    m = read_ok("Game#1 Time 182 180");
    assert_int_equal(m.kind, TAK_PT_GAME_TIME);
    assert_true(m.time_ms[TAK_WHITE] == 182000 && m.time_ms[TAK_BLACK] == 180000);
    m = read_ok("Game#1 Timems 181981 180987");
    assert_true(m.time_ms[TAK_WHITE] == 181981 && m.time_ms[TAK_BLACK] == 180987);
    m = read_ok("Game#1 Over 0-1");
    assert_int_equal(m.kind, TAK_PT_GAME_OVER);
    assert_string_equal(m.result, "0-1");
    assert_string_equal(read_ok("Game#1 Over 1/2-1/2").result, "1/2-1/2");
    assert_string_equal(read_ok("Game#1 Over R-0").result, "R-0");
    m = read_ok("Game#1 Abandoned. Guest1 quit");
    assert_int_equal(m.kind, TAK_PT_GAME_ABANDONED);
    assert_string_equal(m.name, "Guest1");
    assert_int_equal(read_ok("Game#1 OfferDraw").kind, TAK_PT_GAME_OFFER_DRAW);
    assert_int_equal(read_ok("Game#1 RemoveDraw").kind, TAK_PT_GAME_REMOVE_DRAW);
    assert_int_equal(read_ok("Game#1 RequestUndo").kind, TAK_PT_GAME_REQUEST_UNDO);
    assert_int_equal(read_ok("Game#1 RemoveUndo").kind, TAK_PT_GAME_REMOVE_UNDO);
    assert_int_equal(read_ok("Game#1 Undo").kind, TAK_PT_GAME_UNDO);
    m = read_ok("Game#1 Show Sq [12]");
    assert_int_equal(m.kind, TAK_PT_GAME_SHOW);
    assert_string_equal(m.text, "Sq [12]");

    expect_refused("Game#1 Over 2-0", 13, "not one of");
    expect_refused("Game#1 Time 182", 16, "Black's time");
    expect_refused("Game#1 Time -1 5", 13, "not a whole number");
    expect_refused("Game#x P A1", 6, "game number");
    expect_refused("Game#1 Castle", 8, "unknown game message");
    expect_refused("Game#1 P a1", 10, "not a square");
    expect_refused("Game#1 P A1 S", 12, "unexpected text");
    expect_refused("Game#1 M A1 B2 1 1", 13, "not on one line");
    expect_refused("Game#1 M A1 A1 1", 13, "not on one line");
    expect_refused("Game#1 M A1 A3 1", 17, "1 drops for a move over 2 squares");
    expect_refused("Game#1 M A1 A2 0", 16, "no pieces");
    expect_refused("Game#1 M A1 A2 12", 16, "one digit");
    expect_refused("Game#1 Abandoned. Guest1 left", 26, "'quit'");
}

static void test_chat(void **state) {
    (void)state;
    TakPtMessage m = read_ok("Shout <Guest2> hello all");
    assert_int_equal(m.kind, TAK_PT_SHOUT);
    assert_string_equal(m.name, "Guest2");
    assert_string_equal(m.text, "hello all");
    m = read_ok("ShoutRoom en <alion> gg");
    assert_int_equal(m.kind, TAK_PT_SHOUT_ROOM);
    assert_string_equal(m.room, "en");
    assert_string_equal(m.name, "alion");
    assert_string_equal(m.text, "gg");
    m = read_ok("Tell <alion> eval?");
    assert_int_equal(m.kind, TAK_PT_TELL);
    assert_string_equal(m.text, "eval?");
    m = read_ok("Told <alion> hi");
    assert_int_equal(m.kind, TAK_PT_TOLD);
    assert_string_equal(read_ok("Joined room en").room, "en");
    assert_int_equal(read_ok("Left room en").kind, TAK_PT_LEFT_ROOM);
    /* Control bytes in chat are made spaces: safe to print. */
    m = read_ok("Tell <alion> a\033[2Jb");
    assert_string_equal(m.text, "a [2Jb");
    expect_refused("Tell alion hi", 6, "'<'");
    expect_refused("Tell <alion hi", 6, "no closing '>'");
    expect_refused("Tell <> hi", 7, "empty");
    expect_refused("Shout <a b> hi", 9, "a name cannot have");
}

static void test_hostile_lines(void **state) {
    (void)state;
    expect_refused("", 1, "empty line");
    expect_refused("\r", 1, "empty line");
    expect_refused("Garbage", 1, "unknown message");
    expect_refused("OKAY", 1, "unknown message");
    /* The excerpt of an unknown line is fit for a terminal: a hostile
     * server's escape sequences and C1 bytes read '?'. */
    expect_refused("Garbage \x1b[2J\x07\x9b\x7f", 1, "unknown message 'Garbage ?[2J\?\?\?'");
    expect_refused("Welcome Guest1", 15, "does not end with '!'");
    expect_refused("Welcome !", 9, "missing the name");
    expect_refused("Welcome aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", 9, "too long for a name");
    expect_refused("Online -3", 8, "not a whole number");
    expect_refused("Online 3 4", 9, "unexpected text");
    char *long_line = malloc(5000);
    memset(long_line, 'A', 4999);
    long_line[4999] = '\0';
    memcpy(long_line, "Shout <x> ", 10);
    expect_refused(long_line, TAK_PT_LINE_MAX + 1, "longer than");
    free(long_line);
    /* A long but allowed chat text is cut, not refused. */
    char chat[TAK_PT_LINE_MAX + 1];
    memset(chat, 'b', TAK_PT_LINE_MAX);
    chat[TAK_PT_LINE_MAX] = '\0';
    memcpy(chat, "Tell <alion> ", 13);
    TakPtMessage m = read_ok(chat);
    assert_int_equal(strlen(m.text), TAK_PT_TEXT_MAX - 1);
    TakError err;
    assert_false(tak_pt_read(NULL, &m, &err));
    /* Every kind has a name. */
    for (int k = 0; k < TAK_PT_KIND_COUNT; k++) assert_true(strcmp(tak_pt_kind_name((TakPtKind)k), "?") != 0);
}

static void move_round_trip(const char *pt, const char *ptn, int size) {
    TakPtMove p;
    TakError err;
    if (!tak_pt_move_read(pt, &p, &err)) fail_msg("refused %s: %s", pt, err.message);
    TakMove move;
    if (!tak_pt_move_to_move(&p, size, &move, &err)) fail_msg("%s: %s", pt, err.message);
    if (move != support_move_code(ptn, size)) fail_msg("%s is not %s", pt, ptn);
    char buf[64];
    assert_true(tak_pt_move_write(move, size, buf, sizeof buf) > 0);
    assert_string_equal(buf, pt);
}

static void test_moves(void **state) {
    (void)state;
    move_round_trip("P A1", "a1", 5);
    move_round_trip("P C3 W", "Sc3", 5);
    move_round_trip("P B2 C", "Cb2", 6);
    move_round_trip("P H8", "h8", 8);
    move_round_trip("M A1 A3 1 2", "3a1+12", 5);
    move_round_trip("M C3 C2 1", "c3-", 5);
    move_round_trip("M A1 B1 1", "a1>", 5);
    move_round_trip("M E5 A5 1 1 1 1", "4e5<1111", 5);
    move_round_trip("M F1 A1 1 1 1 1 1", "5f1<11111", 6);

    TakPtMove p;
    TakMove move;
    TakError err;
    assert_true(tak_pt_move_read("P F1", &p, &err));
    assert_false(tak_pt_move_to_move(&p, 5, &move, &err));
    assert_non_null(strstr(err.message, "off a 5x5 board"));
    assert_true(tak_pt_move_read("M A1 A4 3 2 1", &p, &err));
    assert_false(tak_pt_move_to_move(&p, 5, &move, &err));
    assert_non_null(strstr(err.message, "limit is 5"));
    assert_false(tak_pt_move_read("X A1", &p, &err));
    assert_false(tak_pt_move_read("P", &p, &err));
    assert_false(tak_pt_move_read("M A1", &p, &err));
    assert_false(tak_pt_move_read("M A1 A", &p, &err));
    /* A pass has no PlayTak form. */
    char buf[64];
    assert_int_equal(tak_pt_move_write(tak_move_pass(3), 5, buf, sizeof buf), -1);
    assert_int_equal(tak_pt_move_write(support_move_code("a1", 5), 5, buf, 3), -1);
}

static void test_client_lines(void **state) {
    (void)state;
    char buf[TAK_PT_WRITE_MAX];
    TakError err;
    TakPtSeekRequest r = {.size = 5, .time_s = 180, .increment_s = 2, .color = 'W', .half_komi = 2,
                          .unrated = true};
    assert_true(tak_pt_write_seek(&r, buf, sizeof buf, &err) > 0);
    assert_string_equal(buf, "Seek 5 180 2 W 2 21 1 1 0 0 0 ");
    r.opponent = "alion";
    r.color = 'A';
    r.size = 6;
    r.unrated = false;
    assert_true(tak_pt_write_seek(&r, buf, sizeof buf, &err) > 0);
    assert_string_equal(buf, "Seek 6 180 2 A 2 30 1 0 0 0 0 alion");
    r.half_komi = 9;
    assert_int_equal(tak_pt_write_seek(&r, buf, sizeof buf, &err), -1);
    assert_non_null(strstr(err.message, "komi"));
    r.half_komi = 0;
    r.opponent = "a b";
    assert_int_equal(tak_pt_write_seek(&r, buf, sizeof buf, &err), -1);
    r.opponent = NULL;
    r.size = 9;
    assert_int_equal(tak_pt_write_seek(&r, buf, sizeof buf, &err), -1);

    assert_true(tak_pt_write_move(12, support_move_code("3a1+12", 5), 5, buf, sizeof buf) > 0);
    assert_string_equal(buf, "Game#12 M A1 A3 1 2");
    assert_true(tak_pt_write_tell("alion", "eval +1.5\nnext", buf, sizeof buf) > 0);
    assert_string_equal(buf, "Tell alion eval +1.5 next");
    assert_int_equal(tak_pt_write_tell("Gu", "hi", buf, sizeof buf), -1);
    assert_int_equal(tak_pt_write_tell("Guest1", "", buf, sizeof buf), -1);
    assert_true(tak_pt_name_is_valid("Guest12"));
    assert_false(tak_pt_name_is_valid("1abc"));
    assert_false(tak_pt_name_is_valid("abcdefghijklmnopq"));
}

/* Feeds the server lines to the session; each must be read and followed. */
static void feed(TakPtSession *s, const char *const *lines) {
    for (size_t i = 0; lines[i]; i++) {
        TakPtMessage m = read_ok(lines[i]);
        TakError err;
        if (!tak_pt_session_feed(s, &m, &err)) fail_msg("\"%s\": %s", lines[i], err.message);
    }
}

static void play_own(TakPtSession *s, int no, const char *ptn) {
    TakPtGame *g = tak_pt_session_game(s, no);
    assert_non_null(g);
    TakError err;
    if (!tak_pt_session_play(s, no, support_move_code(ptn, g->start.size), &err))
        fail_msg("%s: %s", ptn, err.message);
}

/* The real server's side of a game for Guest1 (White), its takeback, a
 * reconnection that replays the plies, and the resignation. */
static void test_session_recorded(void **state) {
    (void)state;
    TakPtSession s;
    tak_pt_session_init(&s);
    static const char *const login[] = {
        "Welcome!", "Login or Register", "OK", "OK", "Welcome Guest1!", "Online 1", "Online 2",
        "Seek new 1 Guest1 5 180 2 W 2 21 1 1 0 0 0 ",
        "Seek new 2 Guest2 6 600 5 A 0 30 1 0 0 0 0 ",
        "Seek remove 2 Guest2 6 600 5 A 0 30 1 0 0 0 0 ",
        "Seek remove 1 Guest1 5 180 2 W 2 21 1 1 0 0 0 ",
        "GameList Add 1 Guest1 Guest2 5 180 2 2 21 1 1 0 0 0",
        "Game Start 1 5 Guest1 vs Guest2 white 180 2 21 1 0 0", NULL};
    feed(&s, login);
    assert_true(s.logged_in);
    assert_string_equal(s.name, "Guest1");
    TakPtGame *g = tak_pt_session_game(&s, 1);
    assert_non_null(g);
    assert_true(g->increment_ms == 2000);
    assert_int_equal(g->game.current.rules.half_komi, 2);
    assert_int_equal(g->game.current.rules.stones, 21);
    assert_true(tak_pt_game_is_our_turn(g));

    play_own(&s, 1, "a1");
    assert_false(tak_pt_game_is_our_turn(g));
    static const char *const reply[] = {"Game#1 Timems 182000 180000", "OK", "Game#1 Timems 182000 180987",
                                        "Game#1 P E5", NULL};
    feed(&s, reply);
    assert_true(tak_pt_game_is_our_turn(g));
    assert_true(g->time_ms[TAK_BLACK] == 180987);
    /* Our second ply is illegal where the square is taken. */
    TakError err;
    assert_false(tak_pt_session_play(&s, 1, support_move_code("e5", 5), &err));
    play_own(&s, 1, "Sc3");
    static const char *const undo[] = {"Game#1 Timems 181981 180987", "OK", "Game#1 RequestUndo", NULL};
    feed(&s, undo);
    assert_true(g->undo_requested);
    static const char *const undone[] = {"Game#1 Timems 181981 180980", "Game#1 Undo", "OK",
                                         "Game#1 OfferDraw", NULL};
    feed(&s, undone);
    assert_false(g->undo_requested);
    assert_true(g->draw_offered);
    assert_int_equal((int)g->game.count, 2);
    assert_true(tak_pt_game_is_our_turn(g));

    /* The connection drops; logging in again, the server starts the game
     * again and replays its plies, ours included. */
    static const char *const rejoin[] = {
        "Welcome!", "Login or Register", "OK",
        "Game Start 1 5 Guest1 vs Guest2 white 180 2 21 1 0 0",
        "Game#1 P A1", "Game#1 P E5", "Game#1 Timems 176440 180980",
        "Message Your game is resumed", "Welcome Guest1!",
        "GameList Add 1 Guest1 Guest2 5 180 2 2 21 1 1 0 0 0", "Online 2", "OK", NULL};
    feed(&s, rejoin);
    g = tak_pt_session_game(&s, 1);
    assert_int_equal(s.resumed, 1);
    assert_int_equal((int)g->game.count, 2);
    assert_true(g->increment_ms == 2000);
    assert_true(g->time_ms[TAK_WHITE] == 176440);
    assert_true(tak_pt_game_is_our_turn(g));
    static const char *const resign[] = {"Game#1 Over 0-1",
                                         "GameList Remove 1 Guest1 Guest2 5 180 2 2 21 1 1 0 0 0", NULL};
    feed(&s, resign);
    assert_true(g->over);
    assert_string_equal(g->result, "0-1");
    assert_string_equal(tak_result_code(tak_game_result(&g->game)), "0-1");
    assert_false(tak_pt_game_is_our_turn(g));
    tak_pt_session_forget(&s, 1);
    assert_null(tak_pt_session_game(&s, 1));
    tak_pt_session_free(&s);
}

/* The open seeks: listed, replaced, removed, forgotten on a new login. */
static void test_session_seeks(void **state) {
    (void)state;
    TakPtSession s;
    tak_pt_session_init(&s);
    static const char *const lines[] = {
        "Welcome bot_1!", "Seek new 1 Guest1 5 180 2 W 2 21 1 1 0 0 0 ",
        "Seek new 2 Guest2 6 600 5 A 0 30 1 0 0 0 0 ", "Seek new 2 Guest2 6 900 5 A 0 30 1 0 0 0 0 ",
        "Seek new 3 Guest3 4 60 0 B 0 15 0 0 0 0 0 ", "Seek remove 1 Guest1 5 180 2 W 2 21 1 1 0 0 0 ",
        NULL};
    feed(&s, lines);
    assert_int_equal(s.seek_count, 2);
    bool saw2 = false;
    for (int i = 0; i < s.seek_count; i++)
        if (s.seeks[i].no == 2) saw2 = s.seeks[i].time_s == 900;
    assert_true(saw2);
    static const char *const again[] = {"Welcome bot_1!", NULL};
    feed(&s, again);
    assert_int_equal(s.seek_count, 0);
    /* More seeks than room: the extra ones are left out, none is broken. */
    for (int i = 0; i < TAK_PT_SEEKS_MAX + 5; i++) {
        char line[128];
        snprintf(line, sizeof line, "Seek new %d Guest%d 5 180 2 W 2 21 1 1 0 0 0 ", 10 + i, i);
        const char *const one[] = {line, NULL};
        feed(&s, one);
    }
    assert_int_equal(s.seek_count, TAK_PT_SEEKS_MAX);
    tak_pt_session_free(&s);
}

/* A game won on the board, as Black, and the lines a session refuses. */
static void test_session_road_and_refusals(void **state) {
    (void)state;
    TakPtSession s;
    tak_pt_session_init(&s);
    static const char *const start[] = {"Welcome bot_1!", "Game Start 5 3 human vs bot_1 black 60 0 10 0",
                                        NULL};
    feed(&s, start);
    TakPtGame *g = tak_pt_session_game(&s, 5);
    assert_true(g->increment_ms == -1); /* no game list seen */
    assert_false(tak_pt_game_is_our_turn(g));
    static const char *const moves[] = {"Game#5 P A3", NULL};
    feed(&s, moves);
    play_own(&s, 5, "a1");
    TakPtMessage m;
    TakError err;
    /* A move that is illegal here (the square is taken). */
    m = read_ok("Game#5 P A1");
    assert_false(tak_pt_session_feed(&s, &m, &err));
    assert_non_null(strstr(err.message, "game 5, ply 3"));
    /* A game we are not in. */
    m = read_ok("Game#6 P A1");
    assert_false(tak_pt_session_feed(&s, &m, &err));
    assert_non_null(strstr(err.message, "not playing"));
    m = read_ok("Game#6 Undo");
    assert_false(tak_pt_session_feed(&s, &m, &err));
    /* A move off the board. */
    m = read_ok("Game#5 P D1");
    assert_false(tak_pt_session_feed(&s, &m, &err));
    assert_non_null(strstr(err.message, "off a 3x3 board"));
    /* Rules the library cannot hold (a reserve over 64). */
    m = read_ok("Game Start 9 8 a_bc vs bot_1 white 60 0 80 2");
    assert_false(tak_pt_session_feed(&s, &m, &err));
    assert_non_null(strstr(err.message, "cannot play"));
    static const char *const road[] = {"Game#5 P B2", NULL};
    feed(&s, road);
    play_own(&s, 5, "a2");
    static const char *const on[] = {"Game#5 P C2", NULL};
    feed(&s, on);
    play_own(&s, 5, "c1");
    assert_int_equal((int)g->game.count, 6);
    static const char *const over[] = {"Game#5 Abandoned. human quit", NULL};
    feed(&s, over);
    assert_true(g->abandoned && g->over);
    assert_string_equal(g->result, "0-1");
    m = read_ok("Game#5 P C3");
    assert_false(tak_pt_session_feed(&s, &m, &err));
    assert_non_null(strstr(err.message, "over"));
    /* A finished game's slot is reused when every slot is taken. */
    for (int i = 0; i <= TAK_PT_GAMES_MAX; i++) {
        char line[128];
        snprintf(line, sizeof line, "Game Start %d 4 x_yz vs bot_1 white 60 0 15 0", 20 + i);
        m = read_ok(line);
        bool ok = tak_pt_session_feed(&s, &m, &err);
        if (i < TAK_PT_GAMES_MAX) assert_true(ok);
        else {
            assert_false(ok);
            assert_non_null(strstr(err.message, "already in"));
        }
    }
    tak_pt_session_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_lines),
        cmocka_unit_test(test_seeks),
        cmocka_unit_test(test_game_list),
        cmocka_unit_test(test_game_start),
        cmocka_unit_test(test_game_lines),
        cmocka_unit_test(test_chat),
        cmocka_unit_test(test_hostile_lines),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_client_lines),
        cmocka_unit_test(test_session_recorded),
        cmocka_unit_test(test_session_seeks),
        cmocka_unit_test(test_session_road_and_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
