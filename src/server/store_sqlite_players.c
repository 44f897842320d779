/*
 * store_sqlite_players.c: the SQLite store's players, ratings and chat
 * (store_sqlite.c opens the store and keeps its games). The end of a rated
 * game and the ratings it moves are one IMMEDIATE transaction: one writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"

#define PLAYER_COLUMNS "id, name, rating, rd, volatility, rated_games, created, last_rated"

const char *const sq_players_queries[Q_COUNT] = {
    [Q_PLAYER_HASH] = "SELECT " PLAYER_COLUMNS " FROM players WHERE secret_hash = ?1",
    [Q_PLAYER_NAME] = "SELECT " PLAYER_COLUMNS " FROM players WHERE name_key = ?1",
    [Q_PLAYER_ID] = "SELECT " PLAYER_COLUMNS " FROM players WHERE id = ?1",
    [Q_PLAYER_NEW] = "INSERT INTO players(secret_hash, name, name_key, rating, rd, volatility)"
                     " VALUES(?1,?2,?3,?4,?5,?6) ON CONFLICT DO NOTHING",
    /* Claims the game's end: only the first record changes a row. */
    [Q_FINISH] = "UPDATE games SET result = ?2, finished = ?3, result_end = ?4"
                 " WHERE id = ?1 AND result = ''",
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
        " CASE WHEN white_player = ?1 THEN white_vol_after ELSE black_vol_after END,"
        " CASE WHEN result_end <> 0 THEN result_end ELSE end_kind END, clock_base, clock_inc,"
        " (SELECT COUNT(*) FROM moves WHERE moves.game = games.id)"
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

/* ---- players and ratings ------------------------------------------------------ */

static void read_player(sqlite3_stmt *st, StoredPlayer *p) {
    memset(p, 0, sizeof *p);
    p->id = sqlite3_column_int64(st, 0);
    sq_copy_column(st, 1, p->name, sizeof p->name);
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
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? true : sq_error(s, err, "reading a player");
}

bool sq_find_player(Store *base, PlayerKey by, const char *key, StoredPlayer *out, bool *found,
                    TakError *err) {
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

bool sq_create_player(Store *base, const char *hash, const char *name, StoredPlayer *out,
                      bool *taken, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    char lower[STORE_NAME_LEN + 1];
    store_name_key(name, lower);
    TakRating fresh = tak_rating_new();
    sqlite3_stmt *st = s->q[Q_PLAYER_NEW];
    sq_bind_text(st, 1, hash);
    sq_bind_text(st, 2, name);
    sq_bind_text(st, 3, lower);
    sqlite3_bind_double(st, 4, fresh.rating);
    sqlite3_bind_double(st, 5, fresh.rd);
    sqlite3_bind_double(st, 6, fresh.volatility);
    if (!sq_run(s, st, err, "saving a player")) return false;
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
    sq_bind_text(st, 1, id);
    int rc = sqlite3_step(st);
    int64_t who[2] = {0, 0};
    if (rc == SQLITE_ROW)
        who[0] = sqlite3_column_int64(st, 0), who[1] = sqlite3_column_int64(st, 1);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE) return true; /* not rated */
    if (rc != SQLITE_ROW) return sq_error(s, err, "reading a rated game");
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
        if (!sq_run(s, st, err, "saving a rating")) return false;
    }
    st = s->q[Q_GAME_RATED];
    sq_bind_text(st, 1, id);
    for (int c = 0; c < 2; c++) {
        sqlite3_bind_double(st, 2 + 3 * c, after[c].rating);
        sqlite3_bind_double(st, 3 + 3 * c, after[c].rd);
        sqlite3_bind_double(st, 4 + 3 * c, after[c].volatility);
    }
    if (!sq_run(s, st, err, "saving a game's ratings")) return false;
    *rated = true;
    return true;
}

bool sq_finish_game(Store *base, const char *id, const char *result, int end, double white_score,
                    int64_t now_s, bool *rated, TakRating after[2], TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    *rated = false;
    /* IMMEDIATE: the claim and the ratings it reads are one writer's. */
    if (!sq_exec(s, "BEGIN IMMEDIATE", err)) return false;
    sqlite3_stmt *st = s->q[Q_FINISH];
    sq_bind_text(st, 1, id);
    sq_bind_text(st, 2, result);
    sqlite3_bind_int64(st, 3, now_s);
    sqlite3_bind_int(st, 4, end);
    bool ok = sq_run(s, st, err, "saving a game's end");
    if (ok && sqlite3_changes(s->db) == 1) ok = rate(s, id, white_score, now_s, rated, after, err);
    if (!ok) {
        sq_exec(s, "ROLLBACK", NULL);
        *rated = false;
        return false;
    }
    if (sq_commit(s, err)) return true;
    *rated = false; /* rolled back: nothing was rated */
    return false;
}

bool sq_player_games(Store *base, int64_t player, size_t max, StoredGameSummary *out, size_t *count,
                     TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_PLAYER_GAMES];
    sqlite3_bind_int64(st, 1, player);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)max);
    int rc = SQLITE_DONE;
    *count = 0;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        StoredGameSummary *g = &out[(*count)++];
        memset(g, 0, sizeof *g);
        sq_copy_column(st, 0, g->id, sizeof g->id);
        g->created_s = sqlite3_column_int64(st, 1);
        g->finished_s = sqlite3_column_int64(st, 2);
        g->size = sqlite3_column_int(st, 3);
        g->color = sqlite3_column_int(st, 4);
        sq_copy_column(st, 5, g->opponent, sizeof g->opponent);
        g->engine_level = sqlite3_column_int(st, 6);
        sq_copy_column(st, 7, g->result, sizeof g->result);
        g->rated = sqlite3_column_int(st, 8) != 0;
        g->rating_before = sqlite3_column_double(st, 9);
        g->rating_after.rating = sqlite3_column_double(st, 10);
        g->rating_after.rd = sqlite3_column_double(st, 11);
        g->rating_after.volatility = sqlite3_column_double(st, 12);
        g->end = sqlite3_column_int(st, 13);
        g->clock.base_ms = sqlite3_column_int64(st, 14);
        g->clock.increment_ms = sqlite3_column_int64(st, 15);
        g->plies = sqlite3_column_int(st, 16);
    }
    rc = *count == max ? SQLITE_DONE : rc;
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? true : sq_error(s, err, "reading a player's games");
}

bool sq_leaderboard(Store *base, size_t max, StoredPlayer *out, size_t *count, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_LEADERS];
    sqlite3_bind_int64(st, 1, (sqlite3_int64)max);
    int rc = SQLITE_DONE;
    *count = 0;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW) read_player(st, &out[(*count)++]);
    rc = *count == max ? SQLITE_DONE : rc;
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? true : sq_error(s, err, "reading the leaderboard");
}

bool sq_unfinished_rated(Store *base, size_t max, char (*ids)[STORE_ID_LEN + 1], size_t *count,
                         TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_UNFINISHED];
    sqlite3_bind_int64(st, 1, (sqlite3_int64)max);
    int rc = SQLITE_DONE;
    *count = 0;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW)
        sq_copy_column(st, 0, ids[(*count)++], STORE_ID_LEN + 1);
    rc = *count == max ? SQLITE_DONE : rc;
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? true : sq_error(s, err, "reading the rated games");
}

/* ---- chat ------------------------------------------------------------------ */

bool sq_add_chat(Store *base, const char *game, const StoredChat *line, int64_t *id,
                 TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_CHAT_ADD];
    sq_bind_text(st, 1, game);
    sqlite3_bind_int(st, 2, line->room);
    sq_bind_text(st, 3, line->from);
    sq_bind_text(st, 4, line->text);
    sqlite3_bind_int64(st, 5, line->time_ms);
    if (!sq_run(s, st, err, "saving a chat message")) return false;
    *id = sqlite3_last_insert_rowid(s->db);
    return true;
}

bool sq_load_chat(Store *base, const char *game, int room, int64_t after, size_t max,
                  StoredChat *out, size_t *count, TakError *err) {
    SqliteStore *s = (SqliteStore *)base;
    sqlite3_stmt *st = s->q[Q_CHAT_LOAD];
    sq_bind_text(st, 1, game);
    sqlite3_bind_int(st, 2, room);
    sqlite3_bind_int64(st, 3, after);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)max);
    int rc = SQLITE_DONE;
    *count = 0;
    while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        StoredChat *c = &out[(*count)++];
        c->id = sqlite3_column_int64(st, 0);
        c->room = room;
        sq_copy_column(st, 1, c->from, sizeof c->from);
        sq_copy_column(st, 2, c->text, sizeof c->text);
        c->time_ms = sqlite3_column_int64(st, 3);
    }
    rc = *count == max ? SQLITE_DONE : rc;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? true : sq_error(s, err, "reading the chat");
}
