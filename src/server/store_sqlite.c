/*
 * store_sqlite.c: the game store in one SQLite file, in WAL mode with
 * synchronous=NORMAL: every statement is its own transaction, committed
 * before the call returns, so a killed process loses nothing that was
 * acknowledged (a power cut may lose the last commits; FULL would fsync each).
 * Statements are prepared once, when the store opens. This file makes the
 * tables and keeps the games; store_sqlite_players.c the players and chat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"

static const char *const queries[Q_COUNT] = {
    [Q_INSERT_MOVE] = "INSERT OR REPLACE INTO moves(game, ply, ptn, left_ms) VALUES(?1,?2,?3,?4)",
    [Q_TURN_START] = "UPDATE games SET turn_start = ?2 WHERE id = ?1",
    [Q_LOAD_MOVES] = "SELECT ptn, left_ms FROM moves WHERE game = ?1 ORDER BY ply",
    [Q_TRUNCATE] = "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
    /* Q_INSERT_GAME and Q_LOAD_GAME are made from store_game_columns. */
    [Q_SEAT] = "UPDATE games SET white_token = CASE WHEN ?2 = 0 THEN ?3 ELSE white_token END,"
               " black_token = CASE WHEN ?2 = 1 THEN ?3 ELSE black_token END, invite = '',"
               " white_name = CASE WHEN ?2 = 0 THEN ?4 ELSE white_name END,"
               " black_name = CASE WHEN ?2 = 1 THEN ?4 ELSE black_name END,"
               " white_player = CASE WHEN ?2 = 0 THEN ?5 ELSE white_player END,"
               " black_player = CASE WHEN ?2 = 1 THEN ?5 ELSE black_player END,"
               " white_rating = CASE WHEN ?2 = 0 THEN ?6 ELSE white_rating END,"
               " black_rating = CASE WHEN ?2 = 1 THEN ?6 ELSE black_rating END"
               " WHERE id = ?1 AND invite <> ''"
               " AND (CASE WHEN ?2 = 0 THEN white_token ELSE black_token END) = ''",
    [Q_ENDING] = "UPDATE games SET end_kind = ?2, winner = ?3 WHERE id = ?1 AND end_kind = 0",
    [Q_ALIVE_GET] = "SELECT alive_ms FROM servers WHERE id = 0",
    [Q_ALIVE_SET] = "INSERT OR REPLACE INTO servers(id, alive_ms) VALUES(0, ?1)",
    /* The clocks that were running when the last server stopped (its last
     * heartbeat was ?1 ms before now, ?2, at ?3) start again where they
     * stopped, the time of a hold not ended by then (?4 at most) given
     * back, and are held from now. */
    [Q_RESUME] = "UPDATE games SET turn_start = MIN(turn_start + ?1 + CASE WHEN held_since > 0"
                 " THEN MAX(0, MIN(held_since + ?4, ?3) - MAX(held_since, turn_start)) ELSE 0 END,"
                 " ?2), held_since = ?2 WHERE turn_start > 0 AND end_kind = 0",
    [Q_RELEASE] = "UPDATE games SET turn_start = ?4, held_since = 0"
                  " WHERE id = ?1 AND held_since = ?2 AND turn_start = ?3 AND end_kind = 0",
};

/* The games table is made from store_game_columns (open_tables). */
static const char schema[] =
    "CREATE TABLE IF NOT EXISTS moves("
    " game TEXT NOT NULL, ply INTEGER NOT NULL, ptn TEXT NOT NULL,"
    " PRIMARY KEY(game, ply)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS servers(id INTEGER PRIMARY KEY, alive_ms INTEGER NOT NULL);"
    /* name_key is the name in lower case: names are unique in any case. */
    "CREATE TABLE IF NOT EXISTS players("
    " id INTEGER PRIMARY KEY, secret_hash TEXT NOT NULL UNIQUE, name TEXT NOT NULL,"
    " name_key TEXT NOT NULL UNIQUE, rating REAL NOT NULL, rd REAL NOT NULL,"
    " volatility REAL NOT NULL, rated_games INTEGER NOT NULL DEFAULT 0,"
    " created INTEGER NOT NULL DEFAULT (strftime('%s','now')),"
    " last_rated INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS chat("
    " id INTEGER PRIMARY KEY, game TEXT NOT NULL, room INTEGER NOT NULL, sender TEXT NOT NULL,"
    " text TEXT NOT NULL, time INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS chat_room ON chat(game, room, id);";

/* What has changed since the first tables besides the games' columns (which
 * add_game_columns adds); run once per file (a duplicate column, which
 * SQLite names, means it has run). */
static const char *const migrations[] = {
    "ALTER TABLE moves ADD COLUMN left_ms INTEGER NOT NULL DEFAULT -1",
    "CREATE INDEX IF NOT EXISTS games_white_player ON games(white_player) WHERE white_player <> 0",
    "CREATE INDEX IF NOT EXISTS games_black_player ON games(black_player) WHERE black_player <> 0",
};

static const StoreDialect dialect = {
    .types = {[STORE_TEXT] = "TEXT",
              [STORE_OWNED_TEXT] = "TEXT",
              [STORE_INT] = "INTEGER",
              [STORE_BOOL] = "INTEGER",
              [STORE_INT64] = "INTEGER",
              [STORE_REAL] = "REAL",
              [STORE_NOW] = "INTEGER"},
    .now = "(strftime('%s','now'))",
    .param = '?',
};

bool sq_error(SqliteStore *s, TakError *err, const char *what) {
    return tak_error_set(err, "store: %s: %s", what, sqlite3_errmsg(s->db));
}

/* Runs a statement that returns no rows, then resets it. */
bool sq_run(SqliteStore *s, sqlite3_stmt *st, TakError *err, const char *what) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? true : sq_error(s, err, what);
}

void sq_bind_text(sqlite3_stmt *st, int i, const char *text) {
    sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC);
}

static void sq_close(Store *base) {
    SqliteStore *s = (SqliteStore *)base;
    for (int i = 0; i < Q_COUNT; i++) sqlite3_finalize(s->q[i]);
    sqlite3_close(s->db);
    free(s);
}

static bool insert_move(SqliteStore *s, const char *id, size_t ply, const char *ptn,
                        int64_t left_ms, TakError *err) {
    sqlite3_stmt *st = s->q[Q_INSERT_MOVE];
    sq_bind_text(st, 1, id);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)ply);
    sq_bind_text(st, 3, ptn);
    sqlite3_bind_int64(st, 4, left_ms);
    return sq_run(s, st, err, "saving a move");
}

static bool set_turn_start(SqliteStore *s, const char *id, int64_t turn_start_ms,
                           TakError *err) {
    sqlite3_stmt *st = s->q[Q_TURN_START];
    sq_bind_text(st, 1, id);
    sqlite3_bind_int64(st, 2, turn_start_ms);
    return sq_run(s, st, err, "saving the clock");
}

/* Runs `sql` (BEGIN, COMMIT, ROLLBACK). */
bool sq_exec(SqliteStore *s, const char *sql, TakError *err) {
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? true : sq_error(s, err, sql);
}

/* A COMMIT that fails (SQLITE_BUSY, a deferred constraint) leaves the
 * transaction open, and every later BEGIN would fail: roll it back. */
bool sq_commit(SqliteStore *s, TakError *err) {
    if (sq_exec(s, "COMMIT", err)) return true;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL); /* err keeps the COMMIT's reason */
    return false;
}

/* The move and the clock's new start, together or not at all; an untimed
 * game's clock never starts, so it writes the move alone. */
static bool sq_append_move(Store *base, const char *id, size_t ply, const char *ptn,
                           int64_t left_ms, int64_t turn_start_ms, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    if (turn_start_ms == 0) return insert_move(s, id, ply, ptn, left_ms, err);
    if (!sq_exec(s, "BEGIN", err)) return false;
    bool ok = insert_move(s, id, ply, ptn, left_ms, err) &&
              set_turn_start(s, id, turn_start_ms, err);
    if (!ok) {
        sq_exec(s, "ROLLBACK", NULL);
        return false;
    }
    return sq_commit(s, err);
}

static bool sq_create_game(Store *base, const StoredGame *g, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    /* One transaction, so an imported game appears whole or not at all. */
    if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return sq_error(s, err, "starting a transaction");
    sqlite3_stmt *st = s->q[Q_INSERT_GAME];
    sq_bind_text(st, 1, g->id);
    int param = 2;
    for (size_t i = 0; i < store_game_column_count; i++) {
        const StoreColumn *c = &store_game_columns[i];
        if (!store_column_is_given(c)) continue;
        switch (store_column_kind(c)) {
        case STORE_AS_TEXT:
            sq_bind_text(st, param++, store_column_text(g, c));
            break;
        case STORE_AS_INTEGER:
            sqlite3_bind_int64(st, param++, store_column_integer(g, c));
            break;
        case STORE_AS_REAL:
            sqlite3_bind_double(st, param++, store_column_real(g, c));
            break;
        }
    }
    bool ok = sq_run(s, st, err, "saving a new game");
    for (size_t i = 0; ok && i < g->move_count; i++)
        ok = insert_move(s, g->id, i, g->moves[i], g->left_ms ? g->left_ms[i] : -1, err);
    if (!ok) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return false;
    }
    return sq_commit(s, err);
}

/* A text column's value, "" for NULL. */
static const char *column_text(sqlite3_stmt *st, int col) {
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : "";
}

void sq_copy_column(sqlite3_stmt *st, int col, char *out, size_t cap) {
    snprintf(out, cap, "%s", column_text(st, col));
}

static bool sq_load_game(Store *base, const char *id, StoredGame *out, bool *found,
                         TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_LOAD_GAME];
    sq_bind_text(st, 1, id);
    int rc = sqlite3_step(st);
    *found = rc == SQLITE_ROW;
    if (rc != SQLITE_ROW) {
        sqlite3_reset(st);
        return rc == SQLITE_DONE ? true : sq_error(s, err, "loading a game");
    }
    StoredGame g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    bool ok = true;
    for (size_t i = 0; i < store_game_column_count; i++) {
        const StoreColumn *c = &store_game_columns[i];
        switch (store_column_kind(c)) {
        case STORE_AS_TEXT:
            ok &= store_column_set_text(&g, c, column_text(st, (int)i));
            break;
        case STORE_AS_INTEGER:
            store_column_set_integer(&g, c, sqlite3_column_int64(st, (int)i));
            break;
        case STORE_AS_REAL:
            store_column_set_real(&g, c, sqlite3_column_double(st, (int)i));
            break;
        }
    }
    sqlite3_reset(st);
    if (!ok) {
        stored_game_free(&g);
        return tak_error_set(err, "store: out of memory");
    }

    st = s->q[Q_LOAD_MOVES];
    sq_bind_text(st, 1, id);
    size_t cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (g.move_count == cap) {
            cap = cap ? cap * 2 : 64;
            if (!stored_game_reserve(&g, cap)) break;
        }
        sq_copy_column(st, 0, g.moves[g.move_count], sizeof g.moves[0]);
        g.left_ms[g.move_count] = sqlite3_column_int64(st, 1);
        g.move_count++;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        stored_game_free(&g);
        return rc == SQLITE_ROW ? tak_error_set(err, "store: out of memory")
                                : sq_error(s, err, "loading moves");
    }
    *out = g;
    return true;
}

/* One process owns an SQLite store, so `from` is what it says it is. */
static bool sq_truncate_moves(Store *base, const char *id, size_t from, size_t count,
                              int64_t turn_start_ms, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    (void)from;
    if (!sq_exec(s, "BEGIN", err)) return false;
    sqlite3_stmt *st = s->q[Q_TRUNCATE];
    sq_bind_text(st, 1, id);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)count);
    bool ok = sq_run(s, st, err, "taking back moves") && set_turn_start(s, id, turn_start_ms, err);
    if (!ok) {
        sq_exec(s, "ROLLBACK", NULL);
        return false;
    }
    return sq_commit(s, err);
}

static bool sq_take_seat(Store *base, const char *id, int color, const char *secret,
                         const char *name, int64_t player, double rating, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_SEAT];
    sq_bind_text(st, 1, id);
    sqlite3_bind_int(st, 2, color);
    sq_bind_text(st, 3, secret);
    sq_bind_text(st, 4, name);
    sqlite3_bind_int64(st, 5, player);
    sqlite3_bind_double(st, 6, rating);
    if (!sq_run(s, st, err, "saving a seat")) return false;
    return sqlite3_changes(s->db) == 1 ? true
                                       : tak_error_set(err, "the invitation has been used already");
}

static bool sq_set_ending(Store *base, const char *id, int end, int winner, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_ENDING];
    sq_bind_text(st, 1, id);
    sqlite3_bind_int(st, 2, end);
    sqlite3_bind_int(st, 3, winner);
    if (!sq_run(s, st, err, "saving a result")) return false;
    return sqlite3_changes(s->db) == 1 ? true : tak_error_set(err, "the game is over already");
}

static bool sq_heartbeat(Store *base, int64_t now_ms, bool resume, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    if (resume) {
        sqlite3_stmt *st = s->q[Q_ALIVE_GET];
        int rc = sqlite3_step(st);
        int64_t alive = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
        sqlite3_reset(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) return sq_error(s, err, "reading the heartbeat");
        if (alive > 0 && now_ms - alive > STORE_HEARTBEAT_GAP_MS) {
            st = s->q[Q_RESUME];
            sqlite3_bind_int64(st, 1, now_ms - alive);
            sqlite3_bind_int64(st, 2, now_ms);
            sqlite3_bind_int64(st, 3, alive);
            sqlite3_bind_int64(st, 4, STORE_CLOCK_HOLD_MS);
            if (!sq_run(s, st, err, "resuming the clocks")) return false;
        }
    }
    sqlite3_stmt *st = s->q[Q_ALIVE_SET];
    sqlite3_bind_int64(st, 1, now_ms);
    return sq_run(s, st, err, "saving the heartbeat");
}

static bool sq_release_hold(Store *base, const char *id, int64_t held_since_ms,
                            int64_t from_turn_start_ms, int64_t turn_start_ms, bool *released,
                            TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_RELEASE];
    sq_bind_text(st, 1, id);
    sqlite3_bind_int64(st, 2, held_since_ms);
    sqlite3_bind_int64(st, 3, from_turn_start_ms);
    sqlite3_bind_int64(st, 4, turn_start_ms);
    if (!sq_run(s, st, err, "restarting the clock")) return false;
    *released = sqlite3_changes(s->db) == 1;
    return true;
}

static const StoreOps sqlite_ops = {
    .close = sq_close,
    .create_game = sq_create_game,
    .load_game = sq_load_game,
    .append_move = sq_append_move,
    .truncate_moves = sq_truncate_moves,
    .take_seat = sq_take_seat,
    .set_ending = sq_set_ending,
    .heartbeat = sq_heartbeat,
    .release_hold = sq_release_hold,
    .find_player = sq_find_player,
    .create_player = sq_create_player,
    .finish_game = sq_finish_game,
    .player_games = sq_player_games,
    .leaderboard = sq_leaderboard,
    .unfinished_rated = sq_unfinished_rated,
    .add_chat = sq_add_chat,
    .load_chat = sq_load_chat,
};

/* Adds the games' columns that a table made before them lacks. */
static bool add_game_columns(SqliteStore *s, TakError *err) {
    sqlite3_stmt *has = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM pragma_table_info('games') WHERE name = ?1", -1,
                           &has, NULL) != SQLITE_OK)
        return sq_error(s, err, "reading the games' columns");
    bool ok = true;
    for (size_t i = 0; ok && i < store_game_column_count; i++) {
        const StoreColumn *c = &store_game_columns[i];
        sq_bind_text(has, 1, c->name);
        int rc = sqlite3_step(has);
        sqlite3_reset(has);
        if (rc == SQLITE_ROW) continue;
        char sql[300], column[256];
        ok = rc == SQLITE_DONE && store_sql_column(column, sizeof column, &dialect, c);
        snprintf(sql, sizeof sql, "ALTER TABLE games ADD COLUMN %s", column);
        ok = ok ? sq_exec(s, sql, err) : sq_error(s, err, "adding a column");
    }
    sqlite3_finalize(has);
    return ok;
}

/* The tables, made when missing and brought up to date. */
static bool open_tables(SqliteStore *s, const char *path, TakError *err) {
    char games[4096], *msg = NULL;
    if (!store_sql_games_table(games, sizeof games, &dialect, ""))
        return tak_error_set(err, "store: the games table is too long to write");
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL,
                     &msg) != SQLITE_OK ||
        sqlite3_exec(s->db, games, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(s->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
        tak_error_set(err, "store: %s: %s", path, msg ? msg : "cannot set up");
        sqlite3_free(msg);
        return false;
    }
    if (!add_game_columns(s, err)) return false;
    for (size_t i = 0; i < sizeof migrations / sizeof *migrations; i++) {
        if (sqlite3_exec(s->db, migrations[i], NULL, NULL, &msg) != SQLITE_OK &&
            (msg == NULL || strstr(msg, "duplicate column") == NULL)) {
            tak_error_set(err, "store: %s: %s", path, msg ? msg : "cannot add a column");
            sqlite3_free(msg);
            return false;
        }
        sqlite3_free(msg);
        msg = NULL;
    }
    return true;
}

/* Every statement, prepared once; the game's row from store_game_columns. */
static bool prepare(SqliteStore *s, TakError *err) {
    char insert[4096], columns[2048], load[2200];
    if (!store_sql_insert_game(insert, sizeof insert, &dialect) ||
        !store_sql_game_columns(columns, sizeof columns, ""))
        return tak_error_set(err, "store: a game's statement is too long to write");
    snprintf(load, sizeof load, "SELECT %s FROM games WHERE id = ?1", columns);
    for (int i = 0; i < Q_COUNT; i++) {
        const char *sql = i == Q_INSERT_GAME ? insert
                          : i == Q_LOAD_GAME ? load
                          : queries[i]       ? queries[i]
                                             : sq_players_queries[i];
        if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->q[i], NULL) !=
            SQLITE_OK)
            return sq_error(s, err, "preparing a statement");
    }
    return true;
}

Store *store_sqlite_open(const char *path, TakError *err) {
    SqliteStore *s = calloc(1, sizeof *s);
    if (s == NULL) {
        tak_error_set(err, "store: out of memory");
        return NULL;
    }
    s->base.ops = &sqlite_ops;
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        tak_error_set(err, "store: cannot open %s: %s", path,
                      s->db ? sqlite3_errmsg(s->db) : "out of memory");
        sq_close(&s->base);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 5000);
    if (!open_tables(s, path, err) || !prepare(s, err)) {
        sq_close(&s->base);
        return NULL;
    }
    return &s->base;
}
