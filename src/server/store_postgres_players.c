/*
 * store_postgres_players.c: the PostgreSQL store's players, ratings and chat
 * (store_postgres.c opens the store and keeps its games). The end of a rated
 * game is claimed under the game's row lock and the ratings it moves are
 * written under the players' row locks, in one transaction, so that of
 * several processes seeing the end exactly one rates it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_postgres.h"

#define PLAYER_COLUMNS "id, name, rating, rd, volatility, rated_games, created, last_rated"
static const char q_player_hash[] = "SELECT " PLAYER_COLUMNS " FROM players WHERE secret_hash = $1";
static const char q_player_name[] = "SELECT " PLAYER_COLUMNS " FROM players WHERE name_key = $1";
static const char q_player_id[] = "SELECT " PLAYER_COLUMNS " FROM players WHERE id = $1::bigint";
static const char q_player_new[] =
    "INSERT INTO players(secret_hash, name, name_key, rating, rd, volatility)"
    " VALUES($1,$2,$3,$4::float8,$5::float8,$6::float8) ON CONFLICT DO NOTHING";
/* Claims the game's end under its row lock: of several processes recording
 * it, the first changes the row, the others (re-checking after the lock)
 * find result set and change nothing. */
static const char q_finish[] =
    "UPDATE games SET result = $2, finished = $3::bigint, result_end = $4::int"
    " WHERE id = $1 AND result = ''"
    " RETURNING rated, white_player, black_player";
/* Both players' rows locked, in id order (so two games rated at once
 * cannot deadlock), until the transaction ends. */
static const char q_rated_players[] =
    "SELECT " PLAYER_COLUMNS " FROM players WHERE id IN ($1::bigint, $2::bigint)"
    " ORDER BY id FOR UPDATE";
static const char q_player_rate[] =
    "UPDATE players SET rating = $2::float8, rd = $3::float8, volatility = $4::float8,"
    " rated_games = $5::int, last_rated = $6::bigint WHERE id = $1::bigint";
static const char q_game_rated[] =
    "UPDATE games SET white_rating_after = $2::float8, white_rd_after = $3::float8,"
    " white_vol_after = $4::float8, black_rating_after = $5::float8, black_rd_after = $6::float8,"
    " black_vol_after = $7::float8 WHERE id = $1";
static const char q_player_games[] =
    "SELECT id, created, finished, size, CASE WHEN white_player = $1::bigint THEN 0 ELSE 1 END,"
    " CASE WHEN white_player = $1::bigint THEN black_name ELSE white_name END,"
    " CASE WHEN engine_color >= 0 THEN engine_level ELSE 0 END, result, rated,"
    " CASE WHEN white_player = $1::bigint THEN white_rating ELSE black_rating END,"
    " CASE WHEN white_player = $1::bigint THEN white_rating_after ELSE black_rating_after END,"
    " CASE WHEN white_player = $1::bigint THEN white_rd_after ELSE black_rd_after END,"
    " CASE WHEN white_player = $1::bigint THEN white_vol_after ELSE black_vol_after END,"
    " CASE WHEN result_end <> 0 THEN result_end ELSE end_kind END, clock_base, clock_inc, plies"
    " FROM games WHERE white_player = $1::bigint OR black_player = $1::bigint"
    " ORDER BY created DESC, id DESC LIMIT $2::bigint";
static const char q_leaders[] = "SELECT " PLAYER_COLUMNS " FROM players WHERE rated_games > 0"
                                " ORDER BY rating DESC, id LIMIT $1::bigint";
static const char q_unfinished[] =
    "SELECT id FROM games WHERE rated <> 0 AND result = '' LIMIT $1::bigint";

static const char q_chat_add[] =
    "INSERT INTO chat(game, room, sender, text, time) VALUES($1, $2::int, $3, $4, $5::bigint)"
    " RETURNING id";
static const char q_chat_load[] =
    "SELECT id, sender, text, time FROM (SELECT id, sender, text, time FROM chat"
    " WHERE game = $1 AND room = $2::int AND id > $3::bigint ORDER BY id DESC LIMIT $4::bigint)"
    " AS last ORDER BY id";

/* ---- players and ratings ------------------------------------------------------ */

static void read_player(const PGresult *r, int row, StoredPlayer *p) {
    memset(p, 0, sizeof *p);
    p->id = pg_int64_column(r, row, 0);
    pg_copy_column(r, row, 1, p->name, sizeof p->name);
    p->rating.rating = pg_double_column(r, row, 2);
    p->rating.rd = pg_double_column(r, row, 3);
    p->rating.volatility = pg_double_column(r, row, 4);
    p->rated_games = (int)pg_int64_column(r, row, 5);
    p->created_s = pg_int64_column(r, row, 6);
    p->last_rated_s = pg_int64_column(r, row, 7);
}

bool pg_find_player(Store *base, PlayerKey by, const char *key, StoredPlayer *out, bool *found,
                    TakError *err) {
    PgStore *s = (PgStore *)base;
    char lower[STORE_NAME_LEN + 1];
    if (by == PLAYER_BY_NAME) {
        store_name_key(key, lower);
        key = lower;
    }
    const char *params[1] = {key};
    const char *sql = by == PLAYER_BY_HASH   ? q_player_hash
                      : by == PLAYER_BY_NAME ? q_player_name
                                             : q_player_id;
    PGresult *r = pg_exec(s, sql, 1, params, PGRES_TUPLES_OK, err, "reading a player");
    if (r == NULL) return false;
    *found = PQntuples(r) == 1;
    if (*found) read_player(r, 0, out);
    PQclear(r);
    return true;
}

bool pg_create_player(Store *base, const char *hash, const char *name, StoredPlayer *out,
                      bool *taken, TakError *err) {
    PgStore *s = (PgStore *)base;
    char lower[STORE_NAME_LEN + 1], num[3][32];
    store_name_key(name, lower);
    TakRating fresh = tak_rating_new();
    snprintf(num[0], sizeof num[0], "%.17g", fresh.rating);
    snprintf(num[1], sizeof num[1], "%.17g", fresh.rd);
    snprintf(num[2], sizeof num[2], "%.17g", fresh.volatility);
    const char *params[6] = {hash, name, lower, num[0], num[1], num[2]};
    if (!pg_change(s, q_player_new, 6, params, NULL, err, "saving a player")) return false;
    /* Inserted or not (the identity had a player already, or the name is
     * another's), the identity's player is the one to read. */
    bool found;
    *taken = false;
    if (!pg_find_player(base, PLAYER_BY_HASH, hash, out, &found, err)) return false;
    if (!found) *taken = true;
    return true;
}

/* Inside finish_game's transaction, after the claim: both players' rows
 * locked, their new ratings computed and written, with the game's record. */
static bool rate(PgStore *s, const char *id, const int64_t who[2], double white_score,
                 int64_t now_s, TakRating after[2], TakError *err) {
    char ids[2][24];
    for (int c = 0; c < 2; c++) snprintf(ids[c], sizeof ids[c], "%lld", (long long)who[c]);
    const char *params[2] = {ids[0], ids[1]};
    PGresult *r =
        pg_exec(s, q_rated_players, 2, params, PGRES_TUPLES_OK, err, "reading the players");
    if (r == NULL) return false;
    StoredPlayer p[2];
    int got = 0;
    for (int row = 0; row < PQntuples(r); row++) {
        StoredPlayer one;
        read_player(r, row, &one);
        for (int c = 0; c < 2; c++)
            if (one.id == who[c]) p[c] = one, got |= 1 << c;
    }
    PQclear(r);
    if (got != 3) return tak_error_set(err, "store: a rated game's player is gone");
    store_rate_game(p, white_score, now_s);
    char v[2][3][32], games[2][24], now[24];
    for (int c = 0; c < 2; c++) {
        after[c] = p[c].rating;
        snprintf(v[c][0], sizeof v[c][0], "%.17g", after[c].rating);
        snprintf(v[c][1], sizeof v[c][1], "%.17g", after[c].rd);
        snprintf(v[c][2], sizeof v[c][2], "%.17g", after[c].volatility);
        snprintf(games[c], sizeof games[c], "%d", p[c].rated_games);
        snprintf(now, sizeof now, "%lld", (long long)p[c].last_rated_s);
        const char *pp[6] = {ids[c], v[c][0], v[c][1], v[c][2], games[c], now};
        if (!pg_change(s, q_player_rate, 6, pp, NULL, err, "saving a rating")) return false;
    }
    const char *gp[7] = {id, v[0][0], v[0][1], v[0][2], v[1][0], v[1][1], v[1][2]};
    return pg_change(s, q_game_rated, 7, gp, NULL, err, "saving a game's ratings");
}

bool pg_finish_game(Store *base, const char *id, const char *result, int end, double white_score,
                    int64_t now_s, bool *rated, TakRating after[2], TakError *err) {
    PgStore *s = (PgStore *)base;
    char now[24], how[12];
    snprintf(now, sizeof now, "%lld", (long long)now_s);
    snprintf(how, sizeof how, "%d", end);
    const char *params[4] = {id, result, now, how};
    *rated = false;
    if (PQstatus(s->conn) != CONNECTION_OK) PQreset(s->conn);
    if (!pg_simple(s, "BEGIN", err, "starting a transaction")) return false;
    PGresult *r = pg_exec(s, q_finish, 4, params, PGRES_TUPLES_OK, err, "saving a game's end");
    bool ok = r != NULL;
    if (ok && PQntuples(r) == 1 && atoi(PQgetvalue(r, 0, 0)) != 0) {
        int64_t who[2] = {pg_int64_column(r, 0, 1), pg_int64_column(r, 0, 2)};
        if (who[0] > 0 && who[1] > 0) {
            ok = rate(s, id, who, white_score, now_s, after, err);
            *rated = ok;
        }
    }
    PQclear(r);
    if (!ok) {
        pg_simple(s, "ROLLBACK", NULL, "");
        *rated = false;
        return false;
    }
    if (!pg_simple(s, "COMMIT", err, "committing a game's end")) return *rated = false, false;
    return true;
}

bool pg_player_games(Store *base, int64_t player, size_t max, StoredGameSummary *out, size_t *count,
                     TakError *err) {
    PgStore *s = (PgStore *)base;
    char p[24], m[24];
    snprintf(p, sizeof p, "%lld", (long long)player);
    snprintf(m, sizeof m, "%zu", max);
    const char *params[2] = {p, m};
    PGresult *r =
        pg_exec(s, q_player_games, 2, params, PGRES_TUPLES_OK, err, "reading a player's games");
    if (r == NULL) return false;
    *count = 0;
    for (int row = 0; row < PQntuples(r) && *count < max; row++) {
        StoredGameSummary *g = &out[(*count)++];
        memset(g, 0, sizeof *g);
        pg_copy_column(r, row, 0, g->id, sizeof g->id);
        g->created_s = pg_int64_column(r, row, 1);
        g->finished_s = pg_int64_column(r, row, 2);
        g->size = (int)pg_int64_column(r, row, 3);
        g->color = (int)pg_int64_column(r, row, 4);
        pg_copy_column(r, row, 5, g->opponent, sizeof g->opponent);
        g->engine_level = (int)pg_int64_column(r, row, 6);
        pg_copy_column(r, row, 7, g->result, sizeof g->result);
        g->rated = pg_int64_column(r, row, 8) != 0;
        g->rating_before = pg_double_column(r, row, 9);
        g->rating_after.rating = pg_double_column(r, row, 10);
        g->rating_after.rd = pg_double_column(r, row, 11);
        g->rating_after.volatility = pg_double_column(r, row, 12);
        g->end = (int)pg_int64_column(r, row, 13);
        g->clock.base_ms = pg_int64_column(r, row, 14);
        g->clock.increment_ms = pg_int64_column(r, row, 15);
        g->plies = (int)pg_int64_column(r, row, 16);
    }
    PQclear(r);
    return true;
}

bool pg_leaderboard(Store *base, size_t max, StoredPlayer *out, size_t *count, TakError *err) {
    PgStore *s = (PgStore *)base;
    char m[24];
    snprintf(m, sizeof m, "%zu", max);
    const char *params[1] = {m};
    PGresult *r = pg_exec(s, q_leaders, 1, params, PGRES_TUPLES_OK, err, "reading the leaderboard");
    if (r == NULL) return false;
    *count = 0;
    for (int row = 0; row < PQntuples(r) && *count < max; row++)
        read_player(r, row, &out[(*count)++]);
    PQclear(r);
    return true;
}

bool pg_unfinished_rated(Store *base, size_t max, char (*ids)[STORE_ID_LEN + 1], size_t *count,
                         TakError *err) {
    PgStore *s = (PgStore *)base;
    char m[24];
    snprintf(m, sizeof m, "%zu", max);
    const char *params[1] = {m};
    PGresult *r =
        pg_exec(s, q_unfinished, 1, params, PGRES_TUPLES_OK, err, "reading the rated games");
    if (r == NULL) return false;
    *count = 0;
    for (int row = 0; row < PQntuples(r) && *count < max; row++)
        pg_copy_column(r, row, 0, ids[(*count)++], STORE_ID_LEN + 1);
    PQclear(r);
    return true;
}

/* ---- chat ------------------------------------------------------------------ */

bool pg_add_chat(Store *base, const char *game, const StoredChat *line, int64_t *id,
                 TakError *err) {
    PgStore *s = (PgStore *)base;
    char room[8], time[24];
    snprintf(room, sizeof room, "%d", line->room);
    snprintf(time, sizeof time, "%lld", (long long)line->time_ms);
    const char *params[5] = {game, room, line->from, line->text, time};
    PGresult *r = pg_exec(s, q_chat_add, 5, params, PGRES_TUPLES_OK, err, "saving a chat message");
    if (r == NULL) return false;
    *id = pg_int64_column(r, 0, 0);
    PQclear(r);
    return true;
}

bool pg_load_chat(Store *base, const char *game, int room, int64_t after, size_t max,
                  StoredChat *out, size_t *count, TakError *err) {
    PgStore *s = (PgStore *)base;
    char rm[8], af[24], mx[24];
    snprintf(rm, sizeof rm, "%d", room);
    snprintf(af, sizeof af, "%lld", (long long)after);
    snprintf(mx, sizeof mx, "%zu", max);
    const char *params[4] = {game, rm, af, mx};
    PGresult *r = pg_exec(s, q_chat_load, 4, params, PGRES_TUPLES_OK, err, "reading the chat");
    if (r == NULL) return false;
    *count = 0;
    for (int row = 0; row < PQntuples(r) && *count < max; row++) {
        StoredChat *c = &out[(*count)++];
        c->id = pg_int64_column(r, row, 0);
        c->room = room;
        pg_copy_column(r, row, 1, c->from, sizeof c->from);
        pg_copy_column(r, row, 2, c->text, sizeof c->text);
        c->time_ms = pg_int64_column(r, row, 3);
    }
    PQclear(r);
    return true;
}
