/*
 * test_store.c: the store's contract (src/server/store.h) checked the same
 * way on both stores: SQLite always, in a temporary file; PostgreSQL when
 * TAK_TEST_PG names a throw-away database (scripts/with-postgres.sh; make
 * test-server runs it so), whose tables each test drops first. Also that a
 * database made by the first version of the tables opens and keeps its games.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "store.h"
#include "store_sqlite.h"

typedef struct Fixture {
    Store *store;
    bool postgres;
    char path[64]; /* the SQLite file */
} Fixture;

/* The first version of the tables, with one game of two plies (white_token
 * "w", no invitation, 5x5, an engine at level 3 on black). */
static const char first_sqlite[] =
    "CREATE TABLE games(id TEXT PRIMARY KEY, created INTEGER NOT NULL DEFAULT"
    " (strftime('%s','now')), white_token TEXT NOT NULL, black_token TEXT NOT NULL,"
    " invite TEXT NOT NULL, size INTEGER NOT NULL, stones INTEGER NOT NULL,"
    " caps INTEGER NOT NULL, half_komi INTEGER NOT NULL, no_pass INTEGER NOT NULL,"
    " start_tps TEXT NOT NULL, engine_color INTEGER NOT NULL, engine_level INTEGER NOT NULL,"
    " end_kind INTEGER NOT NULL, winner INTEGER NOT NULL);"
    "CREATE TABLE moves(game TEXT NOT NULL, ply INTEGER NOT NULL, ptn TEXT NOT NULL,"
    " PRIMARY KEY(game, ply)) WITHOUT ROWID;"
    "INSERT INTO games VALUES('old', 1600000000, 'w', '', '', 5, 21, 1, 0, 1, '', 1, 3, 0, -1);"
    "INSERT INTO moves VALUES('old', 0, 'a1'), ('old', 1, 'e5');";
static const char first_postgres[] =
    "CREATE TABLE games(id TEXT PRIMARY KEY, created BIGINT NOT NULL DEFAULT"
    " extract(epoch FROM now())::bigint, white_token TEXT NOT NULL, black_token TEXT NOT NULL,"
    " invite TEXT NOT NULL, size INTEGER NOT NULL, stones INTEGER NOT NULL,"
    " caps INTEGER NOT NULL, half_komi INTEGER NOT NULL, no_pass INTEGER NOT NULL,"
    " start_tps TEXT NOT NULL, engine_color INTEGER NOT NULL, engine_level INTEGER NOT NULL,"
    " end_kind INTEGER NOT NULL, winner INTEGER NOT NULL, plies INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE moves(game TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    " ptn TEXT NOT NULL, PRIMARY KEY(game, ply));"
    "INSERT INTO games VALUES('old', 1600000000, 'w', '', '', 5, 21, 1, 0, 1, '', 1, 3, 0, -1, 2);"
    "INSERT INTO moves VALUES('old', 0, 'a1'), ('old', 1, 'e5');";

/* Runs `sql` on the test's database itself, not through the store. */
static void run_sql(Fixture *f, const char *sql) {
    if (f->postgres) {
        PGconn *conn = PQconnectdb(getenv("TAK_TEST_PG"));
        assert_int_equal(PQstatus(conn), CONNECTION_OK);
        PGresult *r = PQexec(conn, sql);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) fail_msg("%s", PQresultErrorMessage(r));
        PQclear(r);
        PQfinish(conn);
        return;
    }
    sqlite3 *db;
    char *msg = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) fail_msg("%s", msg);
    sqlite3_close(db);
}

static void open_store(Fixture *f) {
    TakError err;
    f->store = f->postgres ? store_postgres_open(getenv("TAK_TEST_PG"), &err)
                           : store_sqlite_open(f->path, &err);
    if (f->store == NULL) fail_msg("%s", err.message);
}

/* An empty database, not yet opened by the store. */
static int new_sqlite(void **state) {
    Fixture *f = calloc(1, sizeof *f);
    snprintf(f->path, sizeof f->path, "/tmp/test_store.XXXXXX");
    int fd = mkstemp(f->path);
    if (fd < 0) return -1;
    close(fd);
    *state = f;
    return 0;
}

static int new_postgres(void **state) {
    Fixture *f = calloc(1, sizeof *f);
    f->postgres = true;
    *state = f;
    run_sql(f, "SET client_min_messages = warning;"
               "DROP TABLE IF EXISTS chat, moves, games, players, servers");
    return 0;
}

static int opened_sqlite(void **state) {
    if (new_sqlite(state) != 0) return -1;
    open_store(*state);
    return 0;
}

static int opened_postgres(void **state) {
    new_postgres(state);
    open_store(*state);
    return 0;
}

static int close_store(void **state) {
    Fixture *f = *state;
    if (f->store) f->store->ops->close(f->store);
    if (!f->postgres) {
        char path[80];
        unlink(f->path);
        snprintf(path, sizeof path, "%s-wal", f->path);
        unlink(path);
        snprintf(path, sizeof path, "%s-shm", f->path);
        unlink(path);
    }
    free(f);
    return 0;
}

#define OK(call)                                                                                   \
    do {                                                                                           \
        TakError err_;                                                                             \
        if (!(call)) fail_msg("%s: %s", #call, err_.message);                                      \
    } while (0)
#define ERR (&err_)

/* A game with every column given a value of its own (text "c<column>",
 * numbers from the column's place), and `plies` plies. */
static StoredGame full_game(const char *id, size_t plies) {
    StoredGame g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    for (size_t i = 0; i < store_game_column_count; i++) {
        const StoreColumn *c = &store_game_columns[i];
        char text[24];
        snprintf(text, sizeof text, "c%zu", i);
        switch (store_column_kind(c)) {
        case STORE_AS_TEXT:
            assert_true(store_column_set_text(&g, c, text));
            break;
        case STORE_AS_INTEGER:
            store_column_set_integer(&g, c, c->type == STORE_INT64 ? (int64_t)i << 40 : (int)i);
            break;
        case STORE_AS_REAL:
            store_column_set_real(&g, c, (double)i + 0.1);
            break;
        }
    }
    g.rules.size = 5, g.rules.stones = 21, g.rules.capstones = 1, g.rules.no_pass = true;
    assert_true(stored_game_reserve(&g, plies));
    for (size_t i = 0; i < plies; i++) {
        snprintf(g.moves[i], sizeof g.moves[i], "%c%d", 'a' + (int)(i % 5), 1 + (int)(i / 5));
        g.left_ms[i] = 1000 * (int64_t)i - 1;
    }
    g.move_count = plies;
    return g;
}

static StoredGame load(Fixture *f, const char *id) {
    StoredGame g;
    bool found = false;
    OK(f->store->ops->load_game(f->store, id, &g, &found, ERR));
    if (!found) fail_msg("no game %s", id);
    return g;
}

/* Every column given comes back as it went in; created is the store's. */
static void assert_same_game(const StoredGame *a, const StoredGame *b) {
    assert_string_equal(a->id, b->id);
    for (size_t i = 0; i < store_game_column_count; i++) {
        const StoreColumn *c = &store_game_columns[i];
        if (!store_column_is_given(c)) continue;
        switch (store_column_kind(c)) {
        case STORE_AS_TEXT:
            if (strcmp(store_column_text(a, c), store_column_text(b, c)) != 0)
                fail_msg("%s: \"%s\" came back as \"%s\"", c->name, store_column_text(a, c),
                         store_column_text(b, c));
            break;
        case STORE_AS_INTEGER:
            if (store_column_integer(a, c) != store_column_integer(b, c))
                fail_msg("%s: %lld came back as %lld", c->name,
                         (long long)store_column_integer(a, c),
                         (long long)store_column_integer(b, c));
            break;
        case STORE_AS_REAL:
            if (store_column_real(a, c) != store_column_real(b, c))
                fail_msg("%s: %.17g came back as %.17g", c->name, store_column_real(a, c),
                         store_column_real(b, c));
            break;
        }
    }
    assert_int_equal(a->move_count, b->move_count);
    for (size_t i = 0; i < a->move_count; i++) {
        assert_string_equal(a->moves[i], b->moves[i]);
        assert_int_equal(a->left_ms[i], b->left_ms[i]);
    }
}

/* ---- games ------------------------------------------------------------------ */

static void test_game_round_trip(void **state) {
    Fixture *f = *state;
    StoredGame g = full_game("round", 7);
    int64_t before = (int64_t)time(NULL);
    OK(f->store->ops->create_game(f->store, &g, ERR));
    StoredGame back = load(f, "round");
    assert_same_game(&g, &back);
    assert_true(back.created_s >= before - 1 && back.created_s <= (int64_t)time(NULL) + 1);
    stored_game_free(&back);
    stored_game_free(&g);

    /* Nothing is no game; a game without plies or imported PTN loads as such. */
    bool found = true;
    OK(f->store->ops->load_game(f->store, "none", &back, &found, ERR));
    assert_false(found);
    g = full_game("bare", 0);
    free(g.import_ptn);
    g.import_ptn = NULL;
    OK(f->store->ops->create_game(f->store, &g, ERR));
    back = load(f, "bare");
    assert_same_game(&g, &back);
    assert_null(back.import_ptn);
    stored_game_free(&back);

    /* A second game with the same id is refused. */
    TakError err;
    assert_false(f->store->ops->create_game(f->store, &g, &err));
    stored_game_free(&g);
}

static void test_moves(void **state) {
    Fixture *f = *state;
    StoredGame g = full_game("moves", 0);
    g.end = 0;
    OK(f->store->ops->create_game(f->store, &g, ERR));
    const char *plies[3] = {"a1", "e5", "c3"};
    for (size_t i = 0; i < 3; i++)
        OK(f->store->ops->append_move(f->store, "moves", i, plies[i], 500 + (int64_t)i,
                                      1000 + (int64_t)i, ERR));
    /* An untimed move (turn start 0) keeps the last clock's start. */
    OK(f->store->ops->append_move(f->store, "moves", 3, "d4", -1, 0, ERR));
    StoredGame back = load(f, "moves");
    assert_int_equal(back.move_count, 4);
    assert_string_equal(back.moves[2], "c3");
    assert_int_equal(back.left_ms[2], 502);
    assert_int_equal(back.left_ms[3], -1);
    assert_int_equal(back.turn_start_ms, 1002);
    stored_game_free(&back);

    OK(f->store->ops->truncate_moves(f->store, "moves", 4, 1, 777, ERR));
    back = load(f, "moves");
    assert_int_equal(back.move_count, 1);
    assert_string_equal(back.moves[0], "a1");
    assert_int_equal(back.turn_start_ms, 777);
    stored_game_free(&back);
    OK(f->store->ops->append_move(f->store, "moves", 1, "b2", 9, 888, ERR));
    back = load(f, "moves");
    assert_int_equal(back.move_count, 2);
    assert_string_equal(back.moves[1], "b2");
    stored_game_free(&back);

    /* PostgreSQL, shared by processes, refuses a ply or a takeback from a
     * game not as the caller saw it. */
    if (f->postgres) {
        TakError err;
        assert_false(f->store->ops->append_move(f->store, "moves", 1, "c2", 9, 1, &err));
        assert_false(f->store->ops->truncate_moves(f->store, "moves", 5, 0, 1, &err));
        back = load(f, "moves");
        assert_int_equal(back.move_count, 2);
        stored_game_free(&back);
    }
    stored_game_free(&g);
}

static void test_seat_and_ending(void **state) {
    Fixture *f = *state;
    StoredGame g = full_game("seat", 0);
    snprintf(g.secret[1], sizeof g.secret[1], "%s", "");
    snprintf(g.invite, sizeof g.invite, "%s", "invitation");
    g.end = 0, g.winner = -1;
    OK(f->store->ops->create_game(f->store, &g, ERR));
    OK(f->store->ops->take_seat(f->store, "seat", 1, "blacksecret", "Bob", 42, 1612.5, ERR));
    StoredGame back = load(f, "seat");
    assert_string_equal(back.secret[0], g.secret[0]);
    assert_string_equal(back.secret[1], "blacksecret");
    assert_string_equal(back.invite, "");
    assert_string_equal(back.name[1], "Bob");
    assert_int_equal(back.player[1], 42);
    assert_true(back.rating[1] == 1612.5);
    assert_string_equal(back.name[0], g.name[0]);
    stored_game_free(&back);
    TakError err;
    assert_false(f->store->ops->take_seat(f->store, "seat", 1, "other", "", 0, 0, &err));

    OK(f->store->ops->set_ending(f->store, "seat", TAK_END_RESIGNATION, 0, ERR));
    assert_false(f->store->ops->set_ending(f->store, "seat", TAK_END_AGREEMENT, -1, &err));
    back = load(f, "seat");
    assert_int_equal(back.end, TAK_END_RESIGNATION);
    assert_int_equal(back.winner, 0);
    stored_game_free(&back);
    stored_game_free(&g);
}

/* The first heartbeat of a process after every server was down moves the
 * running clocks on by the gap (no later than now) and holds them from then. */
static void test_heartbeat(void **state) {
    Fixture *f = *state;
    StoredGame g = full_game("clock", 0);
    g.end = 0, g.turn_start_ms = 100000, g.held_since_ms = 0;
    OK(f->store->ops->create_game(f->store, &g, ERR));
    OK(f->store->ops->heartbeat(f->store, 100500, false, ERR));
    OK(f->store->ops->heartbeat(f->store, 100500 + STORE_HEARTBEAT_GAP_MS / 2, true, ERR));
    StoredGame back = load(f, "clock");
    assert_int_equal(back.turn_start_ms, 100000); /* a short gap: the clocks ran */
    assert_int_equal(back.held_since_ms, 0);      /* another server was up: nothing held */
    stored_game_free(&back);
    int64_t later = 100500 + STORE_HEARTBEAT_GAP_MS / 2 + 60000;
    OK(f->store->ops->heartbeat(f->store, later, true, ERR));
    back = load(f, "clock");
    assert_int_equal(back.turn_start_ms, 100000 + 60000);
    assert_int_equal(back.held_since_ms, later); /* held till the pages are back */
    stored_game_free(&back);
    stored_game_free(&g);
}

/* The hold after a restart: ended once, by one conditional write; a crash
 * during it gives its time back with the outage's, so nobody is charged
 * the seconds it held. */
static void test_hold(void **state) {
    Fixture *f = *state;
    StoredGame g = full_game("hold", 0);
    g.end = 0, g.turn_start_ms = 100000, g.held_since_ms = 0;
    OK(f->store->ops->create_game(f->store, &g, ERR));
    /* White has thought 500 ms when every server goes down for a minute. */
    OK(f->store->ops->heartbeat(f->store, 100500, false, ERR));
    int64_t up = 160500;
    OK(f->store->ops->heartbeat(f->store, up, true, ERR));
    StoredGame back = load(f, "hold");
    assert_int_equal(back.turn_start_ms, 160000);
    assert_int_equal(back.held_since_ms, up);
    stored_game_free(&back);
    /* Down again 4 s into the hold, for 30 s: the 4 s held are given back too. */
    OK(f->store->ops->heartbeat(f->store, up + 4000, false, ERR));
    int64_t again = up + 4000 + 30000;
    OK(f->store->ops->heartbeat(f->store, again, true, ERR));
    back = load(f, "hold");
    assert_int_equal(again - back.turn_start_ms, 500); /* what White had used, no more */
    assert_int_equal(back.held_since_ms, again);
    stored_game_free(&back);
    /* Ended as seen: once. Seen otherwise (a move came first): not at all. */
    bool released = true;
    int64_t from = again - 500, start = again - 500 + 3000;
    OK(f->store->ops->release_hold(f->store, "hold", again, from + 1, start, &released, ERR));
    assert_false(released);
    OK(f->store->ops->release_hold(f->store, "hold", again, from, start, &released, ERR));
    assert_true(released);
    OK(f->store->ops->release_hold(f->store, "hold", again, from, start, &released, ERR));
    assert_false(released); /* another process ended it first */
    back = load(f, "hold");
    assert_int_equal(back.turn_start_ms, start);
    assert_int_equal(back.held_since_ms, 0);
    stored_game_free(&back);
    stored_game_free(&g);
}

/* ---- players and ratings ------------------------------------------------------ */

static StoredPlayer new_player(Fixture *f, const char *hash, const char *name) {
    StoredPlayer p;
    bool taken = true;
    OK(f->store->ops->create_player(f->store, hash, name, &p, &taken, ERR));
    assert_false(taken);
    return p;
}

static void test_players(void **state) {
    Fixture *f = *state;
    StoredPlayer ann = new_player(f, "hash-ann", "Ann");
    TakRating fresh = tak_rating_new();
    assert_true(ann.id > 0);
    assert_string_equal(ann.name, "Ann");
    assert_true(ann.rating.rating == fresh.rating && ann.rating.rd == fresh.rd);
    assert_int_equal(ann.rated_games, 0);
    assert_int_equal(ann.last_rated_s, 0);

    /* The same identity is the same player; another's claim of the name in
     * any case is refused. */
    StoredPlayer again = new_player(f, "hash-ann", "Whoever");
    assert_int_equal(again.id, ann.id);
    assert_string_equal(again.name, "Ann");
    StoredPlayer other;
    bool taken = false;
    OK(f->store->ops->create_player(f->store, "hash-other", "aNN", &other, &taken, ERR));
    assert_true(taken);

    char id[24];
    snprintf(id, sizeof id, "%lld", (long long)ann.id);
    const struct {
        PlayerKey by;
        const char *key;
    } keys[3] = {{PLAYER_BY_HASH, "hash-ann"}, {PLAYER_BY_NAME, "ANN"}, {PLAYER_BY_ID, id}};
    for (int i = 0; i < 3; i++) {
        StoredPlayer p;
        bool found = false;
        OK(f->store->ops->find_player(f->store, keys[i].by, keys[i].key, &p, &found, ERR));
        assert_true(found);
        assert_int_equal(p.id, ann.id);
    }
    StoredPlayer p;
    bool found = true;
    OK(f->store->ops->find_player(f->store, PLAYER_BY_NAME, "nobody", &p, &found, ERR));
    assert_false(found);
}

/* A rated game's end: recorded once, both ratings moved as store_rate_game
 * says, the game's record of them, the player's games, the leaderboard. */
static void test_rated_game(void **state) {
    Fixture *f = *state;
    StoredPlayer p[2] = {new_player(f, "hash-w", "White"), new_player(f, "hash-b", "Black")};
    StoredGame g = full_game("rated", 0);
    g.rated = true;
    for (int c = 0; c < 2; c++) {
        g.player[c] = p[c].id;
        g.rating[c] = p[c].rating.rating;
        memset(&g.rating_after[c], 0, sizeof g.rating_after[c]);
        snprintf(g.name[c], sizeof g.name[c], "%s", p[c].name);
    }
    g.result[0] = '\0', g.finished_s = 0, g.engine_color = -1, g.end = 0;
    OK(f->store->ops->create_game(f->store, &g, ERR));
    char ids[4][STORE_ID_LEN + 1];
    size_t count = 0;
    OK(f->store->ops->unfinished_rated(f->store, 4, ids, &count, ERR));
    assert_int_equal(count, 1);
    assert_string_equal(ids[0], "rated");

    bool rated = false;
    TakRating after[2];
    OK(f->store->ops->finish_game(f->store, "rated", "R-0", TAK_END_ROAD, 1, 2000000000, &rated,
                                  after, ERR));
    assert_true(rated);
    StoredPlayer want[2] = {p[0], p[1]};
    store_rate_game(want, 1, 2000000000);
    assert_true(after[0].rating > p[0].rating.rating && after[1].rating < p[1].rating.rating);
    for (int c = 0; c < 2; c++) {
        assert_true(after[c].rating == want[c].rating.rating);
        assert_true(after[c].rd == want[c].rating.rd);
        assert_true(after[c].volatility == want[c].rating.volatility);
        StoredPlayer now;
        bool found;
        OK(f->store->ops->find_player(f->store, PLAYER_BY_HASH, c ? "hash-b" : "hash-w", &now,
                                      &found, ERR));
        assert_true(now.rating.rating == after[c].rating && now.rating.rd == after[c].rd);
        assert_int_equal(now.rated_games, 1);
        assert_int_equal(now.last_rated_s, 2000000000);
    }
    StoredGame back = load(f, "rated");
    assert_string_equal(back.result, "R-0");
    assert_int_equal(back.finished_s, 2000000000);
    assert_int_equal(back.result_end, TAK_END_ROAD);
    for (int c = 0; c < 2; c++) assert_true(back.rating_after[c].rating == after[c].rating);
    stored_game_free(&back);

    /* Once only. */
    OK(f->store->ops->finish_game(f->store, "rated", "0-R", TAK_END_ROAD, 0, 2000000100, &rated,
                                  after, ERR));
    assert_false(rated);
    back = load(f, "rated");
    assert_string_equal(back.result, "R-0");
    stored_game_free(&back);
    OK(f->store->ops->unfinished_rated(f->store, 4, ids, &count, ERR));
    assert_int_equal(count, 0);

    StoredGameSummary games[4];
    OK(f->store->ops->player_games(f->store, p[1].id, 4, games, &count, ERR));
    assert_int_equal(count, 1);
    assert_string_equal(games[0].id, "rated");
    assert_int_equal(games[0].color, 1);
    assert_string_equal(games[0].opponent, "White");
    assert_string_equal(games[0].result, "R-0");
    assert_true(games[0].rated);
    /* How it ended, its clock and length: what the player's page says of it. */
    assert_int_equal(games[0].end, TAK_END_ROAD);
    assert_int_equal(games[0].clock.base_ms, g.clock.base_ms);
    assert_int_equal(games[0].clock.increment_ms, g.clock.increment_ms);
    assert_int_equal(games[0].plies, (int)g.move_count);
    assert_true(games[0].rating_before == p[1].rating.rating);
    assert_true(games[0].rating_after.rating == after[1].rating);

    StoredPlayer leaders[4];
    OK(f->store->ops->leaderboard(f->store, 4, leaders, &count, ERR));
    assert_int_equal(count, 2);
    assert_string_equal(leaders[0].name, "White");
    assert_string_equal(leaders[1].name, "Black");
    stored_game_free(&g);
}

/* An unrated game's end is recorded, and nobody's rating moves. */
static void test_unrated_end(void **state) {
    Fixture *f = *state;
    StoredPlayer ann = new_player(f, "hash-ann", "Ann");
    StoredGame g = full_game("unrated", 0);
    g.rated = false, g.player[0] = ann.id, g.player[1] = 0, g.result[0] = '\0';
    OK(f->store->ops->create_game(f->store, &g, ERR));
    bool rated = true;
    TakRating after[2];
    OK(f->store->ops->finish_game(f->store, "unrated", "F-0", TAK_END_BOARD_FULL, 1, 1234, &rated,
                                  after, ERR));
    assert_false(rated);
    StoredGame back = load(f, "unrated");
    assert_string_equal(back.result, "F-0");
    assert_int_equal(back.finished_s, 1234);
    stored_game_free(&back);
    StoredPlayer now;
    bool found;
    OK(f->store->ops->find_player(f->store, PLAYER_BY_HASH, "hash-ann", &now, &found, ERR));
    assert_int_equal(now.rated_games, 0);
    stored_game_free(&g);
}

/* ---- chat ------------------------------------------------------------------ */

static void test_chat(void **state) {
    Fixture *f = *state;
    int64_t last = 0;
    for (int i = 0; i < 4; i++) {
        StoredChat line = {.room = i == 3, .time_ms = 1000 + i};
        snprintf(line.from, sizeof line.from, "%s", i == 3 ? "spectator" : "white");
        snprintf(line.text, sizeof line.text, "line %d", i);
        int64_t id = 0;
        OK(f->store->ops->add_chat(f->store, "talk", &line, &id, ERR));
        assert_true(id > last);
        last = id;
    }
    StoredChat out[4];
    size_t count = 0;
    OK(f->store->ops->load_chat(f->store, "talk", 0, 0, 2, out, &count, ERR));
    assert_int_equal(count, 2); /* the last two, oldest first */
    assert_string_equal(out[0].text, "line 1");
    assert_string_equal(out[1].text, "line 2");
    assert_string_equal(out[1].from, "white");
    assert_int_equal(out[1].time_ms, 1002);
    assert_int_equal(out[1].room, 0);
    OK(f->store->ops->load_chat(f->store, "talk", 0, out[0].id, 4, out, &count, ERR));
    assert_int_equal(count, 1);
    OK(f->store->ops->load_chat(f->store, "talk", 1, 0, 4, out, &count, ERR));
    assert_int_equal(count, 1);
    assert_string_equal(out[0].from, "spectator");
    OK(f->store->ops->load_chat(f->store, "other", 0, 0, 4, out, &count, ERR));
    assert_int_equal(count, 0);
}

/* ---- a database from before ---------------------------------------------------- */

/* The first tables gain every column since, and keep their game, whose new
 * columns read zero; new games go in beside it; opening again changes nothing. */
static void test_first_tables(void **state) {
    Fixture *f = *state;
    run_sql(f, f->postgres ? first_postgres : first_sqlite);
    open_store(f);
    StoredGame old = load(f, "old");
    assert_string_equal(old.secret[0], "w");
    assert_int_equal(old.rules.size, 5);
    assert_int_equal(old.rules.stones, 21);
    assert_true(old.rules.no_pass);
    assert_int_equal(old.engine_color, 1);
    assert_int_equal(old.engine_level, 3);
    assert_int_equal(old.winner, -1);
    assert_int_equal(old.created_s, 1600000000);
    assert_int_equal(old.move_count, 2);
    assert_string_equal(old.moves[1], "e5");
    assert_int_equal(old.left_ms[1], -1);
    assert_int_equal(old.clock.base_ms, 0);
    assert_string_equal(old.name[0], "");
    assert_null(old.import_ptn);
    assert_false(old.rated);
    assert_string_equal(old.result, "");
    stored_game_free(&old);

    StoredGame g = full_game("new", 3);
    OK(f->store->ops->create_game(f->store, &g, ERR));
    OK(f->store->ops->append_move(f->store, "old", 2, "c3", -1, 0, ERR));
    f->store->ops->close(f->store);
    open_store(f);
    StoredGame back = load(f, "new");
    assert_same_game(&g, &back);
    stored_game_free(&back);
    old = load(f, "old");
    assert_int_equal(old.move_count, 3);
    stored_game_free(&old);
    stored_game_free(&g);
}

/* The column list itself: unique names, and the SQL made from it fits. */
static void test_columns(void **state) {
    (void)state;
    for (size_t i = 0; i < store_game_column_count; i++)
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(store_game_columns[i].name, store_game_columns[j].name);
    StoreDialect d = {.types = {"T", "T", "I", "I", "I", "R", "I"}, .now = "now", .param = '?'};
    char sql[4096];
    assert_true(store_sql_insert_game(sql, sizeof sql, &d));
    assert_non_null(strstr(sql, "INSERT INTO games(id, white_token, black_token,"));
    assert_null(strstr(sql, "created")); /* the store's to set */
    assert_false(store_sql_insert_game(sql, 20, &d));
    assert_true(store_sql_games_table(sql, sizeof sql, &d, "extra X"));
    assert_non_null(
        strstr(sql, "created I NOT NULL DEFAULT now, white_token T NOT NULL DEFAULT ''"));
    assert_non_null(strstr(sql, ", extra X)"));
}

#define STORE_TESTS(X)                                                                             \
    X(test_game_round_trip)                                                                        \
    X(test_moves)                                                                                  \
    X(test_seat_and_ending)                                                                        \
    X(test_heartbeat)                                                                              \
    X(test_hold)                                                                                   \
    X(test_players)                                                                                \
    X(test_rated_game)                                                                             \
    X(test_unrated_end)                                                                            \
    X(test_chat)

/* SQLite: a COMMIT that fails (SQLITE_BUSY in the wild; here a deferred
 * foreign key, which fails the same way at will) leaves the transaction
 * open unless the store rolls it back, and every later BEGIN would fail. */
static void test_failed_commit(void **state) {
    Fixture *f = *state;
    run_sql(f, "CREATE TABLE anchor(id TEXT PRIMARY KEY);"
               "CREATE TABLE dangling(ref TEXT REFERENCES anchor(id) DEFERRABLE INITIALLY DEFERRED);"
               "CREATE TRIGGER dangle AFTER INSERT ON moves WHEN NEW.ptn = 'x9'"
               " BEGIN INSERT INTO dangling VALUES ('nothing'); END;");
    sqlite3 *db = ((SqliteStore *)f->store)->db;
    assert_int_equal(sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL), SQLITE_OK);
    StoredGame g = full_game("commit", 0);
    g.end = 0;
    OK(f->store->ops->create_game(f->store, &g, ERR));
    TakError err;
    assert_false(f->store->ops->append_move(f->store, "commit", 0, "x9", 5, 1000, &err));
    assert_true(sqlite3_get_autocommit(db)); /* no transaction left open */
    OK(f->store->ops->append_move(f->store, "commit", 0, "a1", 5, 1000, ERR));
    StoredGame back = load(f, "commit");
    assert_int_equal(back.move_count, 1);
    assert_string_equal(back.moves[0], "a1");
    stored_game_free(&back);
    stored_game_free(&g);
}

#define ON_SQLITE(t) cmocka_unit_test_setup_teardown(t, opened_sqlite, close_store),
#define ON_POSTGRES(t) cmocka_unit_test_setup_teardown(t, opened_postgres, close_store),

int main(void) {
    const struct CMUnitTest sqlite_tests[] = {
        cmocka_unit_test(test_columns),
        STORE_TESTS(ON_SQLITE)
            cmocka_unit_test_setup_teardown(test_first_tables, new_sqlite, close_store),
        cmocka_unit_test_setup_teardown(test_failed_commit, opened_sqlite, close_store),
    };
    const struct CMUnitTest postgres_tests[] = {
        STORE_TESTS(ON_POSTGRES)
            cmocka_unit_test_setup_teardown(test_first_tables, new_postgres, close_store),
    };
    int failed = cmocka_run_group_tests_name("store on SQLite", sqlite_tests, NULL, NULL);
    if (getenv("TAK_TEST_PG") == NULL || getenv("TAK_TEST_PG")[0] == '\0') {
        printf("test_store: PostgreSQL not tested (TAK_TEST_PG unset; make test-server runs it)\n");
        return failed;
    }
    return failed + cmocka_run_group_tests_name("store on PostgreSQL", postgres_tests, NULL, NULL);
}
