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
    Q_ENDING, Q_ALIVE_GET, Q_ALIVE_SET, Q_RESUME, Q_PLAYER_HASH, Q_PLAYER_NAME, Q_PLAYER_ID,
    Q_PLAYER_NEW, Q_FINISH, Q_RATED_PLAYERS, Q_PLAYER_RATE, Q_GAME_RATED, Q_PLAYER_GAMES,
    Q_LEADERS, Q_UNFINISHED, Q_CHAT_ADD, Q_CHAT_LOAD, Q_COUNT
};

#define PLAYER_COLUMNS "id, name, rating, rd, volatility, rated_games, created, last_rated"

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
     * heartbeat was ?1 ms before now, ?2) start again where they stopped. */
    [Q_RESUME] = "UPDATE games SET turn_start = MIN(turn_start + ?1, ?2)"
                 " WHERE turn_start > 0 AND end_kind = 0",
    [Q_PLAYER_HASH] = "SELECT " PLAYER_COLUMNS " FROM players WHERE secret_hash = ?1",
    [Q_PLAYER_NAME] = "SELECT " PLAYER_COLUMNS " FROM players WHERE name_key = ?1",
    [Q_PLAYER_ID] = "SELECT " PLAYER_COLUMNS " FROM players WHERE id = ?1",
    [Q_PLAYER_NEW] = "INSERT INTO players(secret_hash, name, name_key, rating, rd, volatility)"
                     " VALUES(?1,?2,?3,?4,?5,?6) ON CONFLICT DO NOTHING",
    /* Claims the game's end: only the first record changes a row. */
    [Q_FINISH] = "UPDATE games SET result = ?2, finished = ?3 WHERE id = ?1 AND result = ''",
    [Q_RATED_PLAYERS] = "SELECT white_player, black_player FROM games"
                        " WHERE id = ?1 AND rated <> 0 AND white_player <> 0 AND black_player <> 0",
    [Q_PLAYER_RATE] = "UPDATE players SET rating = ?2, rd = ?3, volatility = ?4,"
                      " rated_games = ?5, last_rated = ?6 WHERE id = ?1",
    [Q_GAME_RATED] = "UPDATE games SET white_rating_after = ?2, white_rd_after = ?3,"
                     " white_vol_after = ?4, black_rating_after = ?5, black_rd_after = ?6,"
                     " black_vol_after = ?7 WHERE id = ?1",
    [Q_PLAYER_GAMES] =
        "SELECT id, created, finished, size, CASE WHEN white_player = ?1 THEN 0 ELSE 1 END,"
        " CASE WHEN white_player = ?1 THEN black_name ELSE white_name END,"
        " CASE WHEN engine_color >= 0 THEN engine_level ELSE 0 END, result, rated,"
        " CASE WHEN white_player = ?1 THEN white_rating ELSE black_rating END,"
        " CASE WHEN white_player = ?1 THEN white_rating_after ELSE black_rating_after END,"
        " CASE WHEN white_player = ?1 THEN white_rd_after ELSE black_rd_after END,"
        " CASE WHEN white_player = ?1 THEN white_vol_after ELSE black_vol_after END"
        " FROM games WHERE white_player = ?1 OR black_player = ?1"
        " ORDER BY created DESC, rowid DESC LIMIT ?2",
    [Q_LEADERS] = "SELECT " PLAYER_COLUMNS " FROM players WHERE rated_games > 0"
                  " ORDER BY rating DESC, id LIMIT ?1",
    [Q_UNFINISHED] = "SELECT id FROM games WHERE rated <> 0 AND result = '' LIMIT ?1",
    [Q_CHAT_ADD] = "INSERT INTO chat(game, room, sender, text, time) VALUES(?1,?2,?3,?4,?5)",
    [Q_CHAT_LOAD] = "SELECT id, sender, text, time FROM (SELECT id, sender, text, time FROM chat"
                    " WHERE game = ?1 AND room = ?2 AND id > ?3 ORDER BY id DESC LIMIT ?4)"
                    " ORDER BY id",
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
    int param = 2;
    for (size_t i = 0; i < store_game_column_count; i++) {
        const StoreColumn *c = &store_game_columns[i];
        if (!store_column_is_given(c)) continue;
        switch (store_column_kind(c)) {
        case STORE_AS_TEXT:
            bind_text(st, param++, store_column_text(g, c));
            break;
        case STORE_AS_INTEGER:
            sqlite3_bind_int64(st, param++, store_column_integer(g, c));
            break;
        case STORE_AS_REAL:
            sqlite3_bind_double(st, param++, store_column_real(g, c));
            break;
        }
    }
    bool ok = run(s, st, err, "saving a new game");
    for (size_t i = 0; ok && i < g->move_count; i++)
        ok = insert_move(s, g->id, i, g->moves[i], g->left_ms ? g->left_ms[i] : -1, err);
    if (sqlite3_exec(s->db, ok ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK && ok)
        return db_error(s, err, "committing a new game");
    return ok;
}

/* A text column's value, "" for NULL. */
static const char *column_text(sqlite3_stmt *st, int col) {
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : "";
}

static void copy_column(sqlite3_stmt *st, int col, char *out, size_t cap) {
    snprintf(out, cap, "%s", column_text(st, col));
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

static bool sq_take_seat(Store *base, const char *id, int color, const char *secret,
                         const char *name, int64_t player, double rating, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_SEAT];
    bind_text(st, 1, id);
    sqlite3_bind_int(st, 2, color);
    bind_text(st, 3, secret);
    bind_text(st, 4, name);
    sqlite3_bind_int64(st, 5, player);
    sqlite3_bind_double(st, 6, rating);
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

/* ---- players and ratings ------------------------------------------------------ */

static void read_player(sqlite3_stmt *st, StoredPlayer *p) {
    memset(p, 0, sizeof *p);
    p->id = sqlite3_column_int64(st, 0);
    copy_column(st, 1, p->name, sizeof p->name);
    p->rating.rating = sqlite3_column_double(st, 2);
    p->rating.rd = sqlite3_column_double(st, 3);
    p->rating.volatility = sqlite3_column_double(st, 4);
    p->rated_games = sqlite3_column_int(st, 5);
    p->created_s = sqlite3_column_int64(st, 6);
    p->last_rated_s = sqlite3_column_int64(st, 7);
}

/* Runs a player query bound to `key`: *found and *out from its row. */
static bool one_player(SqliteStore *s, sqlite3_stmt *st, StoredPlayer *out, bool *found,
                       TakError *err) {
    int rc = sqlite3_step(st);
    *found = rc == SQLITE_ROW;
    if (*found) read_player(st, out);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? true : db_error(s, err, "reading a player");
}

static bool sq_find_player(Store *base, PlayerKey by, const char *key, StoredPlayer *out,
                           bool *found, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    char lower[STORE_NAME_LEN + 1];
    sqlite3_stmt *st = s->q[by == PLAYER_BY_HASH   ? Q_PLAYER_HASH
                            : by == PLAYER_BY_NAME ? Q_PLAYER_NAME
                                                   : Q_PLAYER_ID];
    if (by == PLAYER_BY_NAME) {
        store_name_key(key, lower);
        key = lower;
    }
    if (by == PLAYER_BY_ID)
        sqlite3_bind_int64(st, 1, strtoll(key, NULL, 10));
    else
        sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    return one_player(s, st, out, found, err);
}

static bool sq_create_player(Store *base, const char *hash, const char *name, StoredPlayer *out,
                             bool *taken, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    char lower[STORE_NAME_LEN + 1];
    store_name_key(name, lower);
    TakRating fresh = tak_rating_new();
    sqlite3_stmt *st = s->q[Q_PLAYER_NEW];
    bind_text(st, 1, hash);
    bind_text(st, 2, name);
    bind_text(st, 3, lower);
    sqlite3_bind_double(st, 4, fresh.rating);
    sqlite3_bind_double(st, 5, fresh.rd);
    sqlite3_bind_double(st, 6, fresh.volatility);
    if (!run(s, st, err, "saving a player")) return false;
    /* Nothing inserted: the identity had a player already, or the name is another's. */
    bool found;
    *taken = false;
    if (!sq_find_player(base, PLAYER_BY_HASH, hash, out, &found, err)) return false;
    if (!found) *taken = true;
    return true;
}

/* The rating change of a rated game: both players' ratings now, one game
 * each, written back with the game's record of them. Inside finish_game's
 * transaction. */
static bool rate(SqliteStore *s, const char *id, double white_score, int64_t now_s, bool *rated,
                 TakRating after[2], TakError *err) {
    sqlite3_stmt *st = s->q[Q_RATED_PLAYERS];
    bind_text(st, 1, id);
    int rc = sqlite3_step(st);
    int64_t who[2] = {0, 0};
    if (rc == SQLITE_ROW)
        who[0] = sqlite3_column_int64(st, 0), who[1] = sqlite3_column_int64(st, 1);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE) return true; /* not rated */
    if (rc != SQLITE_ROW) return db_error(s, err, "reading a rated game");
    StoredPlayer p[2];
    for (int c = 0; c < 2; c++) {
        bool found;
        st = s->q[Q_PLAYER_ID];
        sqlite3_bind_int64(st, 1, who[c]);
        if (!one_player(s, st, &p[c], &found, err)) return false;
        if (!found) return tak_error_set(err, "store: a rated game's player is gone");
    }
    store_rate_game(p, white_score, now_s);
    for (int c = 0; c < 2; c++) {
        after[c] = p[c].rating;
        st = s->q[Q_PLAYER_RATE];
        sqlite3_bind_int64(st, 1, who[c]);
        sqlite3_bind_double(st, 2, after[c].rating);
        sqlite3_bind_double(st, 3, after[c].rd);
        sqlite3_bind_double(st, 4, after[c].volatility);
        sqlite3_bind_int(st, 5, p[c].rated_games);
        sqlite3_bind_int64(st, 6, p[c].last_rated_s);
        if (!run(s, st, err, "saving a rating")) return false;
    }
    st = s->q[Q_GAME_RATED];
    bind_text(st, 1, id);
    for (int c = 0; c < 2; c++) {
        sqlite3_bind_double(st, 2 + 3 * c, after[c].rating);
        sqlite3_bind_double(st, 3 + 3 * c, after[c].rd);
        sqlite3_bind_double(st, 4 + 3 * c, after[c].volatility);
    }
    if (!run(s, st, err, "saving a game's ratings")) return false;
    *rated = true;
    return true;
}

static bool sq_finish_game(Store *base, const char *id, const char *result, double white_score,
                           int64_t now_s, bool *rated, TakRating after[2], TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    *rated = false;
    /* IMMEDIATE: the claim and the ratings it reads are one writer's. */
    if (!exec_simple(s, "BEGIN IMMEDIATE", err)) return false;
    sqlite3_stmt *st = s->q[Q_FINISH];
    bind_text(st, 1, id);
    bind_text(st, 2, result);
    sqlite3_bind_int64(st, 3, now_s);
    bool ok = run(s, st, err, "saving a game's end");
    if (ok && sqlite3_changes(s->db) == 1) ok = rate(s, id, white_score, now_s, rated, after, err);
    if (!ok) {
        exec_simple(s, "ROLLBACK", NULL);
        *rated = false;
        return false;
    }
    return exec_simple(s, "COMMIT", err);
}

static bool sq_player_games(Store *base, int64_t player, size_t max, StoredGameSummary *out,
                            size_t *count, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_PLAYER_GAMES];
    sqlite3_bind_int64(st, 1, player);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)max);
    int rc = SQLITE_DONE;
    *count = 0;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        StoredGameSummary *g = &out[(*count)++];
        memset(g, 0, sizeof *g);
        copy_column(st, 0, g->id, sizeof g->id);
        g->created_s = sqlite3_column_int64(st, 1);
        g->finished_s = sqlite3_column_int64(st, 2);
        g->size = sqlite3_column_int(st, 3);
        g->color = sqlite3_column_int(st, 4);
        copy_column(st, 5, g->opponent, sizeof g->opponent);
        g->engine_level = sqlite3_column_int(st, 6);
        copy_column(st, 7, g->result, sizeof g->result);
        g->rated = sqlite3_column_int(st, 8) != 0;
        g->rating_before = sqlite3_column_double(st, 9);
        g->rating_after.rating = sqlite3_column_double(st, 10);
        g->rating_after.rd = sqlite3_column_double(st, 11);
        g->rating_after.volatility = sqlite3_column_double(st, 12);
    }
    rc = *count == max ? SQLITE_DONE : rc;
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? true : db_error(s, err, "reading a player's games");
}

static bool sq_leaderboard(Store *base, size_t max, StoredPlayer *out, size_t *count,
                           TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_LEADERS];
    sqlite3_bind_int64(st, 1, (sqlite3_int64)max);
    int rc = SQLITE_DONE;
    *count = 0;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW) read_player(st, &out[(*count)++]);
    rc = *count == max ? SQLITE_DONE : rc;
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? true : db_error(s, err, "reading the leaderboard");
}

static bool sq_unfinished_rated(Store *base, size_t max, char (*ids)[STORE_ID_LEN + 1],
                                size_t *count, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_UNFINISHED];
    sqlite3_bind_int64(st, 1, (sqlite3_int64)max);
    int rc = SQLITE_DONE;
    *count = 0;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW)
        copy_column(st, 0, ids[(*count)++], STORE_ID_LEN + 1);
    rc = *count == max ? SQLITE_DONE : rc;
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? true : db_error(s, err, "reading the rated games");
}

/* ---- chat ------------------------------------------------------------------ */

static bool sq_add_chat(Store *base, const char *game, const StoredChat *line, int64_t *id,
                        TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_CHAT_ADD];
    bind_text(st, 1, game);
    sqlite3_bind_int(st, 2, line->room);
    bind_text(st, 3, line->from);
    bind_text(st, 4, line->text);
    sqlite3_bind_int64(st, 5, line->time_ms);
    if (!run(s, st, err, "saving a chat message")) return false;
    *id = sqlite3_last_insert_rowid(s->db);
    return true;
}

static bool sq_load_chat(Store *base, const char *game, int room, int64_t after, size_t max,
                         StoredChat *out, size_t *count, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_CHAT_LOAD];
    bind_text(st, 1, game);
    sqlite3_bind_int(st, 2, room);
    sqlite3_bind_int64(st, 3, after);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)max);
    int rc = SQLITE_DONE;
    *count = 0;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        StoredChat *c = &out[(*count)++];
        c->id = sqlite3_column_int64(st, 0);
        c->room = room;
        copy_column(st, 1, c->from, sizeof c->from);
        copy_column(st, 2, c->text, sizeof c->text);
        c->time_ms = sqlite3_column_int64(st, 3);
    }
    rc = *count == max ? SQLITE_DONE : rc;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? true : db_error(s, err, "reading the chat");
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
        return db_error(s, err, "reading the games' columns");
    bool ok = true;
    for (size_t i = 0; ok && i < store_game_column_count; i++) {
        const StoreColumn *c = &store_game_columns[i];
        bind_text(has, 1, c->name);
        int rc = sqlite3_step(has);
        sqlite3_reset(has);
        if (rc == SQLITE_ROW) continue;
        char sql[300], column[256];
        ok = rc == SQLITE_DONE && store_sql_column(column, sizeof column, &dialect, c);
        snprintf(sql, sizeof sql, "ALTER TABLE games ADD COLUMN %s", column);
        ok = ok ? exec_simple(s, sql, err) : db_error(s, err, "adding a column");
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
        const char *sql = i == Q_INSERT_GAME ? insert : i == Q_LOAD_GAME ? load : queries[i];
        if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->q[i], NULL) !=
            SQLITE_OK)
            return db_error(s, err, "preparing a statement");
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
