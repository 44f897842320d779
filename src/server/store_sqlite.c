/*
 * store_sqlite.c: the game store in one SQLite file, in WAL mode with
 * synchronous=NORMAL: every statement is its own transaction, committed
 * before the call returns, so a killed process loses nothing that was
 * acknowledged (a power cut may lose the last commits; FULL would fsync each).
 * Statements are prepared once, when the store opens.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"

enum {
    Q_INSERT_GAME, Q_INSERT_MOVE, Q_TURN_START, Q_LOAD_GAME, Q_LOAD_MOVES, Q_TRUNCATE, Q_SEAT,
    Q_ENDING, Q_ALIVE_GET, Q_ALIVE_SET, Q_RESUME, Q_COUNT
};

static const char *const queries[Q_COUNT] = {
    [Q_INSERT_GAME] = "INSERT INTO games(id, white_token, black_token, invite, size, stones, caps,"
                      " half_komi, no_pass, start_tps, engine_color, engine_level, end_kind, winner,"
                      " clock_base, clock_inc, clock_extra, clock_extra_move, turn_start,"
                      " white_name, black_name, import_ptn)"
                      " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,"
                      "?20,?21,?22)",
    [Q_INSERT_MOVE] = "INSERT OR REPLACE INTO moves(game, ply, ptn, left_ms) VALUES(?1,?2,?3,?4)",
    [Q_TURN_START] = "UPDATE games SET turn_start = ?2 WHERE id = ?1",
    [Q_LOAD_GAME] = "SELECT white_token, black_token, invite, size, stones, caps, half_komi,"
                    " no_pass, start_tps, engine_color, engine_level, end_kind, winner,"
                    " clock_base, clock_inc, clock_extra, clock_extra_move, turn_start,"
                    " white_name, black_name, created, import_ptn FROM games WHERE id = ?1",
    [Q_LOAD_MOVES] = "SELECT ptn, left_ms FROM moves WHERE game = ?1 ORDER BY ply",
    [Q_TRUNCATE] = "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
    [Q_SEAT] = "UPDATE games SET white_token = CASE WHEN ?2 = 0 THEN ?3 ELSE white_token END,"
               " black_token = CASE WHEN ?2 = 1 THEN ?3 ELSE black_token END, invite = '',"
               " white_name = CASE WHEN ?2 = 0 THEN ?4 ELSE white_name END,"
               " black_name = CASE WHEN ?2 = 1 THEN ?4 ELSE black_name END"
               " WHERE id = ?1 AND invite <> ''"
               " AND (CASE WHEN ?2 = 0 THEN white_token ELSE black_token END) = ''",
    [Q_ENDING] = "UPDATE games SET end_kind = ?2, winner = ?3 WHERE id = ?1 AND end_kind = 0",
    [Q_ALIVE_GET] = "SELECT alive_ms FROM servers WHERE id = 0",
    [Q_ALIVE_SET] = "INSERT OR REPLACE INTO servers(id, alive_ms) VALUES(0, ?1)",
    /* The clocks that were running when the last server stopped (its last
     * heartbeat was ?1 ms before now, ?2) start again where they stopped. */
    [Q_RESUME] = "UPDATE games SET turn_start = MIN(turn_start + ?1, ?2)"
                 " WHERE turn_start > 0 AND end_kind = 0",
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS games("
    " id TEXT PRIMARY KEY, created INTEGER NOT NULL DEFAULT (strftime('%s','now')),"
    " white_token TEXT NOT NULL, black_token TEXT NOT NULL, invite TEXT NOT NULL,"
    " size INTEGER NOT NULL, stones INTEGER NOT NULL, caps INTEGER NOT NULL,"
    " half_komi INTEGER NOT NULL, no_pass INTEGER NOT NULL, start_tps TEXT NOT NULL,"
    " engine_color INTEGER NOT NULL, engine_level INTEGER NOT NULL,"
    " end_kind INTEGER NOT NULL, winner INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS moves("
    " game TEXT NOT NULL, ply INTEGER NOT NULL, ptn TEXT NOT NULL,"
    " PRIMARY KEY(game, ply)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS servers(id INTEGER PRIMARY KEY, alive_ms INTEGER NOT NULL);";

/* Columns added since the first version of the tables: added to a file that
 * lacks them (SQLite says "duplicate column" to the others). */
static const char *const added_columns[] = {
    "ALTER TABLE games ADD COLUMN clock_base INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN clock_inc INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN clock_extra INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN clock_extra_move INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN turn_start INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE moves ADD COLUMN left_ms INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE games ADD COLUMN white_name TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE games ADD COLUMN black_name TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE games ADD COLUMN import_ptn TEXT NOT NULL DEFAULT ''",
};

typedef struct SqliteStore {
    Store base;
    sqlite3 *db;
    sqlite3_stmt *q[Q_COUNT];
} SqliteStore;

static bool db_error(SqliteStore *s, TakError *err, const char *what) {
    return tak_error_set(err, "store: %s: %s", what, sqlite3_errmsg(s->db));
}

/* Runs a statement that returns no rows, then resets it. */
static bool run(SqliteStore *s, sqlite3_stmt *st, TakError *err, const char *what) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? true : db_error(s, err, what);
}

static void bind_text(sqlite3_stmt *st, int i, const char *text) {
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
    bind_text(st, 1, id);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)ply);
    bind_text(st, 3, ptn);
    sqlite3_bind_int64(st, 4, left_ms);
    return run(s, st, err, "saving a move");
}

static bool set_turn_start(SqliteStore *s, const char *id, int64_t turn_start_ms,
                           TakError *err) {
    sqlite3_stmt *st = s->q[Q_TURN_START];
    bind_text(st, 1, id);
    sqlite3_bind_int64(st, 2, turn_start_ms);
    return run(s, st, err, "saving the clock");
}

/* Runs `sql` (BEGIN, COMMIT, ROLLBACK). */
static bool exec_simple(SqliteStore *s, const char *sql, TakError *err) {
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? true
                                                                   : db_error(s, err, sql);
}

/* The move and the clock's new start, together or not at all; an untimed
 * game's clock never starts, so it writes the move alone. */
static bool sq_append_move(Store *base, const char *id, size_t ply, const char *ptn,
                           int64_t left_ms, int64_t turn_start_ms, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    if (turn_start_ms == 0) return insert_move(s, id, ply, ptn, left_ms, err);
    if (!exec_simple(s, "BEGIN", err)) return false;
    bool ok = insert_move(s, id, ply, ptn, left_ms, err) &&
              set_turn_start(s, id, turn_start_ms, err);
    if (!ok) {
        exec_simple(s, "ROLLBACK", NULL);
        return false;
    }
    return exec_simple(s, "COMMIT", err);
}

static bool sq_create_game(Store *base, const StoredGame *g, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    /* One transaction, so an imported game appears whole or not at all. */
    if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return db_error(s, err, "starting a transaction");
    sqlite3_stmt *st = s->q[Q_INSERT_GAME];
    bind_text(st, 1, g->id);
    bind_text(st, 2, g->token[0]);
    bind_text(st, 3, g->token[1]);
    bind_text(st, 4, g->invite);
    sqlite3_bind_int(st, 5, g->rules.size);
    sqlite3_bind_int(st, 6, g->rules.stones);
    sqlite3_bind_int(st, 7, g->rules.capstones);
    sqlite3_bind_int(st, 8, g->rules.half_komi);
    sqlite3_bind_int(st, 9, g->rules.no_pass);
    bind_text(st, 10, g->start_tps);
    sqlite3_bind_int(st, 11, g->engine_color);
    sqlite3_bind_int(st, 12, g->engine_level);
    sqlite3_bind_int(st, 13, g->end);
    sqlite3_bind_int(st, 14, g->winner);
    sqlite3_bind_int64(st, 15, g->clock.base_ms);
    sqlite3_bind_int64(st, 16, g->clock.increment_ms);
    sqlite3_bind_int64(st, 17, g->clock.extra_ms);
    sqlite3_bind_int(st, 18, g->clock.extra_move);
    sqlite3_bind_int64(st, 19, g->turn_start_ms);
    bind_text(st, 20, g->name[0]);
    bind_text(st, 21, g->name[1]);
    bind_text(st, 22, g->import_ptn ? g->import_ptn : "");
    bool ok = run(s, st, err, "saving a new game");
    for (size_t i = 0; ok && i < g->move_count; i++)
        ok = insert_move(s, g->id, i, g->moves[i], g->left_ms ? g->left_ms[i] : -1, err);
    if (sqlite3_exec(s->db, ok ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK && ok)
        return db_error(s, err, "committing a new game");
    return ok;
}

static void copy_column(sqlite3_stmt *st, int col, char *out, size_t cap) {
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(out, cap, "%s", t ? (const char *)t : "");
}

static bool sq_load_game(Store *base, const char *id, StoredGame *out, bool *found,
                         TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_LOAD_GAME];
    bind_text(st, 1, id);
    int rc = sqlite3_step(st);
    *found = rc == SQLITE_ROW;
    if (rc != SQLITE_ROW) {
        sqlite3_reset(st);
        return rc == SQLITE_DONE ? true : db_error(s, err, "loading a game");
    }
    StoredGame g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    copy_column(st, 0, g.token[0], sizeof g.token[0]);
    copy_column(st, 1, g.token[1], sizeof g.token[1]);
    copy_column(st, 2, g.invite, sizeof g.invite);
    g.rules.size = sqlite3_column_int(st, 3);
    g.rules.stones = sqlite3_column_int(st, 4);
    g.rules.capstones = sqlite3_column_int(st, 5);
    g.rules.half_komi = sqlite3_column_int(st, 6);
    g.rules.no_pass = sqlite3_column_int(st, 7) != 0;
    copy_column(st, 8, g.start_tps, sizeof g.start_tps);
    g.engine_color = sqlite3_column_int(st, 9);
    g.engine_level = sqlite3_column_int(st, 10);
    g.end = sqlite3_column_int(st, 11);
    g.winner = sqlite3_column_int(st, 12);
    g.clock.base_ms = sqlite3_column_int64(st, 13);
    g.clock.increment_ms = sqlite3_column_int64(st, 14);
    g.clock.extra_ms = sqlite3_column_int64(st, 15);
    g.clock.extra_move = sqlite3_column_int(st, 16);
    g.turn_start_ms = sqlite3_column_int64(st, 17);
    copy_column(st, 18, g.name[0], sizeof g.name[0]);
    copy_column(st, 19, g.name[1], sizeof g.name[1]);
    g.created_s = sqlite3_column_int64(st, 20);
    const unsigned char *imported = sqlite3_column_text(st, 21);
    if (imported && imported[0]) g.import_ptn = stored_text_copy((const char *)imported);
    sqlite3_reset(st);

    st = s->q[Q_LOAD_MOVES];
    bind_text(st, 1, id);
    size_t cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (g.move_count == cap) {
            cap = cap ? cap * 2 : 64;
            if (!stored_game_reserve(&g, cap)) break;
        }
        copy_column(st, 0, g.moves[g.move_count], sizeof g.moves[0]);
        g.left_ms[g.move_count] = sqlite3_column_int64(st, 1);
        g.move_count++;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        stored_game_free(&g);
        return rc == SQLITE_ROW ? tak_error_set(err, "store: out of memory")
                                : db_error(s, err, "loading moves");
    }
    *out = g;
    return true;
}

/* One process owns an SQLite store, so `from` is what it says it is. */
static bool sq_truncate_moves(Store *base, const char *id, size_t from, size_t count,
                              int64_t turn_start_ms, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    (void)from;
    if (!exec_simple(s, "BEGIN", err)) return false;
    sqlite3_stmt *st = s->q[Q_TRUNCATE];
    bind_text(st, 1, id);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)count);
    bool ok = run(s, st, err, "taking back moves") && set_turn_start(s, id, turn_start_ms, err);
    if (!ok) {
        exec_simple(s, "ROLLBACK", NULL);
        return false;
    }
    return exec_simple(s, "COMMIT", err);
}

static bool sq_take_seat(Store *base, const char *id, int color, const char *token,
                         const char *name, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_SEAT];
    bind_text(st, 1, id);
    sqlite3_bind_int(st, 2, color);
    bind_text(st, 3, token);
    bind_text(st, 4, name);
    if (!run(s, st, err, "saving a seat")) return false;
    return sqlite3_changes(s->db) == 1 ? true
                                       : tak_error_set(err, "the invitation has been used already");
}

static bool sq_set_ending(Store *base, const char *id, int end, int winner, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_ENDING];
    bind_text(st, 1, id);
    sqlite3_bind_int(st, 2, end);
    sqlite3_bind_int(st, 3, winner);
    if (!run(s, st, err, "saving a result")) return false;
    return sqlite3_changes(s->db) == 1 ? true : tak_error_set(err, "the game is over already");
}

static bool sq_heartbeat(Store *base, int64_t now_ms, bool resume, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    if (resume) {
        sqlite3_stmt *st = s->q[Q_ALIVE_GET];
        int rc = sqlite3_step(st);
        int64_t alive = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
        sqlite3_reset(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) return db_error(s, err, "reading the heartbeat");
        if (alive > 0 && now_ms - alive > STORE_HEARTBEAT_GAP_MS) {
            st = s->q[Q_RESUME];
            sqlite3_bind_int64(st, 1, now_ms - alive);
            sqlite3_bind_int64(st, 2, now_ms);
            if (!run(s, st, err, "resuming the clocks")) return false;
        }
    }
    sqlite3_stmt *st = s->q[Q_ALIVE_SET];
    sqlite3_bind_int64(st, 1, now_ms);
    return run(s, st, err, "saving the heartbeat");
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
};

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
    char *msg = NULL;
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL,
                     &msg) != SQLITE_OK ||
        sqlite3_exec(s->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
        tak_error_set(err, "store: %s: %s", path, msg ? msg : "cannot set up");
        sqlite3_free(msg);
        sq_close(&s->base);
        return NULL;
    }
    for (size_t i = 0; i < sizeof added_columns / sizeof *added_columns; i++) {
        if (sqlite3_exec(s->db, added_columns[i], NULL, NULL, &msg) != SQLITE_OK &&
            (msg == NULL || strstr(msg, "duplicate column") == NULL)) {
            tak_error_set(err, "store: %s: %s", path, msg ? msg : "cannot add a column");
            sqlite3_free(msg);
            sq_close(&s->base);
            return NULL;
        }
        sqlite3_free(msg);
        msg = NULL;
    }
    for (int i = 0; i < Q_COUNT; i++) {
        if (sqlite3_prepare_v3(s->db, queries[i], -1, SQLITE_PREPARE_PERSISTENT, &s->q[i],
                               NULL) != SQLITE_OK) {
            db_error(s, err, "preparing a statement");
            sq_close(&s->base);
            return NULL;
        }
    }
    return &s->base;
}
