/*
 * store_postgres.c: the game store in a PostgreSQL database (libpq), for
 * several `tak serve` processes sharing their games. Same tables as the
 * SQLite store plus games.plies, the number of plies recorded: every write
 * is one statement (one transaction, committed before the call returns)
 * that compares and sets plies under the game's row lock, so two processes
 * cannot both record ply N, nor take back over a move they have not seen.
 * Calls block the event loop for one round trip, as SQLite's commits do.
 * This file makes the tables and keeps the games; store_postgres_players.c
 * the players, ratings and chat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_postgres.h"

/* Serialises schema creation when several processes start at once. */
#define SCHEMA_LOCK "7461"

/* Made when missing (open_tables puts the games table, made from
 * store_game_columns, and the columns an older one lacks before it). */
static const char schema[] =
    "CREATE TABLE IF NOT EXISTS moves("
    " game TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, ptn TEXT NOT NULL,"
    " PRIMARY KEY(game, ply));"
    /* Added since the first version of the tables: */
    "ALTER TABLE moves ADD COLUMN IF NOT EXISTS left_ms BIGINT NOT NULL DEFAULT -1;"
    "CREATE TABLE IF NOT EXISTS servers(id INTEGER PRIMARY KEY, alive_ms BIGINT NOT NULL);"
    /* Players (name_key: the name in lower case, so names are unique in any case). */
    "CREATE TABLE IF NOT EXISTS players("
    " id BIGSERIAL PRIMARY KEY, secret_hash TEXT NOT NULL UNIQUE, name TEXT NOT NULL,"
    " name_key TEXT NOT NULL UNIQUE, rating DOUBLE PRECISION NOT NULL,"
    " rd DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL,"
    " rated_games INTEGER NOT NULL DEFAULT 0,"
    " created BIGINT NOT NULL DEFAULT extract(epoch FROM now())::bigint,"
    " last_rated BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX IF NOT EXISTS games_white_player ON games(white_player) WHERE white_player <> 0;"
    "CREATE INDEX IF NOT EXISTS games_black_player ON games(black_player) WHERE black_player <> 0;"
    "CREATE TABLE IF NOT EXISTS chat("
    " id BIGSERIAL PRIMARY KEY, game TEXT NOT NULL, room INTEGER NOT NULL, sender TEXT NOT NULL,"
    " text TEXT NOT NULL, time BIGINT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS chat_room ON chat(game, room, id);";

static const StoreDialect dialect = {
    .types = {[STORE_TEXT] = "TEXT",
              [STORE_OWNED_TEXT] = "TEXT",
              [STORE_INT] = "INTEGER",
              [STORE_BOOL] = "INTEGER",
              [STORE_INT64] = "BIGINT",
              [STORE_REAL] = "DOUBLE PRECISION",
              [STORE_NOW] = "BIGINT"},
    .now = "extract(epoch FROM now())::bigint",
    .param = '$',
};

/* games.plies: how many plies are recorded, PostgreSQL's alone (see above). */
#define PLIES_COLUMN "plies INTEGER NOT NULL DEFAULT 0"
/* Imported plies, counted once they are in. */
static const char q_set_plies[] = "UPDATE games SET plies = $2::int WHERE id = $1";
static const char q_insert_move[] =
    "INSERT INTO moves(game, ply, ptn, left_ms) VALUES($1,$2,$3,$4)";
/* The UPDATE claims ply $2 under the row lock; a process that lost the race
 * finds plies moved on (re-checked after the wait) and inserts nothing. */
static const char q_append[] =
    "WITH claim AS (UPDATE games SET plies = plies + 1,"
    "  turn_start = CASE WHEN $5::bigint > 0 THEN $5::bigint ELSE turn_start END"
    "  WHERE id = $1 AND plies = $2::int AND end_kind = 0 RETURNING id)"
    " INSERT INTO moves(game, ply, ptn, left_ms) SELECT id, $2::int, $3, $4::bigint FROM claim";
/* Takes back from exactly $2 plies to $3. When plies is not $2 (another
 * process moved meanwhile, or waited for the lock and lost), nothing is cut;
 * when it is, no change can have committed between the snapshot and the lock,
 * so the DELETE sees every ply. */
static const char q_truncate[] =
    "WITH cut AS (UPDATE games SET plies = $3::int, turn_start = $4::bigint"
    "  WHERE id = $1 AND plies = $2::int AND $3::int <= $2::int RETURNING id)"
    " , gone AS (DELETE FROM moves WHERE game IN (SELECT id FROM cut) AND ply >= $3::int)"
    " SELECT count(*) FROM cut";
static const char q_seat[] =
    "UPDATE games SET white_token = CASE WHEN $2::int = 0 THEN $3 ELSE white_token END,"
    " black_token = CASE WHEN $2::int = 1 THEN $3 ELSE black_token END, invite = '',"
    " white_name = CASE WHEN $2::int = 0 THEN $4 ELSE white_name END,"
    " black_name = CASE WHEN $2::int = 1 THEN $4 ELSE black_name END,"
    " white_player = CASE WHEN $2::int = 0 THEN $5::bigint ELSE white_player END,"
    " black_player = CASE WHEN $2::int = 1 THEN $5::bigint ELSE black_player END,"
    " white_rating = CASE WHEN $2::int = 0 THEN $6::float8 ELSE white_rating END,"
    " black_rating = CASE WHEN $2::int = 1 THEN $6::float8 ELSE black_rating END"
    " WHERE id = $1 AND invite <> ''"
    " AND (CASE WHEN $2::int = 0 THEN white_token ELSE black_token END) = ''";
static const char q_ending[] =
    "UPDATE games SET end_kind = $2::int, winner = $3::int WHERE id = $1 AND end_kind = 0";
/* The heartbeat: every server says it is up; the first word of a server
 * after all were down moves the clocks that were running on by the gap. */
static const char q_alive_get[] = "SELECT alive_ms FROM servers WHERE id = 0";
static const char q_alive_set[] =
    "INSERT INTO servers(id, alive_ms) VALUES(0, $1::bigint)"
    " ON CONFLICT (id) DO UPDATE SET alive_ms = GREATEST(servers.alive_ms, $1::bigint)";
/* The clocks running when the last server stopped (its last word $3, $1 ms
 * before now, $2) go on where they stopped, the time of a hold not ended by
 * then ($4 at most) given back, and are held from now. One statement, so
 * the processes of a cluster all hold from the same moment. */
static const char q_resume[] =
    "UPDATE games SET turn_start = LEAST(turn_start + $1::bigint + CASE WHEN held_since > 0"
    " THEN GREATEST(0, LEAST(held_since + $4::bigint, $3::bigint)"
    " - GREATEST(held_since, turn_start)) ELSE 0 END, $2::bigint), held_since = $2::bigint"
    " WHERE turn_start > 0 AND end_kind = 0";
/* Ends a hold as the caller saw it; a process that lost the race changes nothing. */
static const char q_release[] =
    "UPDATE games SET turn_start = $4::bigint, held_since = 0"
    " WHERE id = $1 AND held_since = $2::bigint AND turn_start = $3::bigint AND end_kind = 0";

/* The first line of libpq's message (they end in a newline, some run on). */
bool pg_error(TakError *err, const char *what, const char *message) {
    size_t n = strcspn(message, "\n");
    return tak_error_set(err, "store: %s: %.*s", what, (int)n, message);
}

/* Runs one statement with text parameters; returns its result when its
 * status is `want` (the caller clears it), else NULL with err filled. A
 * connection found broken is reset first (a statement that failed is never
 * retried: it may have committed). */
PGresult *pg_exec(PgStore *s, const char *sql, int n, const char *const *params,
                  ExecStatusType want, TakError *err, const char *what) {
    if (PQstatus(s->conn) != CONNECTION_OK) PQreset(s->conn);
    PGresult *r = PQexecParams(s->conn, sql, n, NULL, params, NULL, NULL, 0);
    if (r != NULL && PQresultStatus(r) == want) return r;
    pg_error(err, what, r ? PQresultErrorMessage(r) : PQerrorMessage(s->conn));
    PQclear(r);
    return NULL;
}

/* Runs a statement that changes rows; *changed is how many (NULL: any). */
bool pg_change(PgStore *s, const char *sql, int n, const char *const *params, long *changed,
               TakError *err, const char *what) {
    PGresult *r = pg_exec(s, sql, n, params, PGRES_COMMAND_OK, err, what);
    if (r == NULL) return false;
    if (changed) *changed = strtol(PQcmdTuples(r), NULL, 10);
    PQclear(r);
    return true;
}

bool pg_simple(PgStore *s, const char *sql, TakError *err, const char *what) {
    PGresult *r = PQexec(s->conn, sql);
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    bool ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok) pg_error(err, what, r ? PQresultErrorMessage(r) : PQerrorMessage(s->conn));
    PQclear(r);
    return ok;
}

static void pg_close(Store *base) {
    PgStore *s = (PgStore *)base;
    PQfinish(s->conn);
    free(s);
}

/* A game column's value as text, numbers written into buf. */
static const char *column_param(const StoredGame *g, const StoreColumn *c, char buf[32]) {
    switch (store_column_kind(c)) {
    case STORE_AS_TEXT:
        return store_column_text(g, c);
    case STORE_AS_INTEGER:
        snprintf(buf, 32, "%lld", (long long)store_column_integer(g, c));
        return buf;
    case STORE_AS_REAL:
        snprintf(buf, 32, "%.17g", store_column_real(g, c));
        return buf;
    }
    return "";
}

static bool pg_create_game(Store *base, const StoredGame *g, TakError *err) {
    PgStore *s = (PgStore *)base;
    enum { MAX_PARAMS = 64 };
    const char *params[MAX_PARAMS];
    char num[MAX_PARAMS][32];
    int n = 0;
    params[n++] = g->id;
    for (size_t i = 0; i < store_game_column_count && n < MAX_PARAMS; i++)
        if (store_column_is_given(&store_game_columns[i]))
            params[n] = column_param(g, &store_game_columns[i], num[n]), n++;
    /* One transaction, so an imported game appears whole or not at all. */
    if (PQstatus(s->conn) != CONNECTION_OK) PQreset(s->conn);
    if (!pg_simple(s, "BEGIN", err, "starting a transaction")) return false;
    bool ok = pg_change(s, s->insert_sql, n, params, NULL, err, "saving a new game");
    for (size_t i = 0; ok && i < g->move_count; i++) {
        char ply[24], left[24];
        snprintf(ply, sizeof ply, "%zu", i);
        snprintf(left, sizeof left, "%lld", (long long)(g->left_ms ? g->left_ms[i] : -1));
        const char *mp[4] = {g->id, ply, g->moves[i], left};
        ok = pg_change(s, q_insert_move, 4, mp, NULL, err, "saving a move");
    }
    if (ok && g->move_count) {
        char plies[24];
        snprintf(plies, sizeof plies, "%zu", g->move_count);
        const char *pp[2] = {g->id, plies};
        ok = pg_change(s, q_set_plies, 2, pp, NULL, err, "saving a game's plies");
    }
    if (!ok) {
        pg_simple(s, "ROLLBACK", NULL, "");
        return false;
    }
    return pg_simple(s, "COMMIT", err, "committing a new game");
}

void pg_copy_column(const PGresult *r, int row, int col, char *out, size_t cap) {
    snprintf(out, cap, "%s", PQgetisnull(r, row, col) ? "" : PQgetvalue(r, row, col));
}

int64_t pg_int64_column(const PGresult *r, int row, int col) {
    return PQgetisnull(r, row, col) ? -1 : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

double pg_double_column(const PGresult *r, int row, int col) {
    return PQgetisnull(r, row, col) ? 0 : strtod(PQgetvalue(r, row, col), NULL);
}

static bool pg_load_game(Store *base, const char *id, StoredGame *out, bool *found, TakError *err) {
    PgStore *s = (PgStore *)base;
    const char *params[1] = {id};
    PGresult *r = pg_exec(s, s->load_sql, 1, params, PGRES_TUPLES_OK, err, "loading a game");
    /* A read is safe to try again on a connection that broke under it. */
    if (r == NULL && PQstatus(s->conn) != CONNECTION_OK)
        r = pg_exec(s, s->load_sql, 1, params, PGRES_TUPLES_OK, err, "loading a game");
    if (r == NULL) return false;
    int rows = PQntuples(r);
    *found = rows > 0;
    if (rows == 0) {
        PQclear(r);
        return true;
    }
    StoredGame g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    bool ok = true;
    for (size_t i = 0; i < store_game_column_count; i++) {
        const StoreColumn *c = &store_game_columns[i];
        const char *text = PQgetisnull(r, 0, (int)i) ? "" : PQgetvalue(r, 0, (int)i);
        switch (store_column_kind(c)) {
        case STORE_AS_TEXT:
            ok &= store_column_set_text(&g, c, text);
            break;
        case STORE_AS_INTEGER:
            store_column_set_integer(&g, c, strtoll(text, NULL, 10));
            break;
        case STORE_AS_REAL:
            store_column_set_real(&g, c, strtod(text, NULL));
            break;
        }
    }
    /* A game without moves is one row whose ptn is NULL (the outer join). */
    int ptn = (int)store_game_column_count; /* then left_ms */
    size_t count = PQgetisnull(r, 0, ptn) ? 0 : (size_t)rows;
    if (!ok || count) {
        if (!ok || !stored_game_reserve(&g, count)) {
            stored_game_free(&g);
            PQclear(r);
            return tak_error_set(err, "store: out of memory");
        }
        for (size_t i = 0; i < count; i++) {
            pg_copy_column(r, (int)i, ptn, g.moves[i], sizeof g.moves[0]);
            g.left_ms[i] = pg_int64_column(r, (int)i, ptn + 1);
        }
        g.move_count = count;
    }
    PQclear(r);
    *out = g;
    return true;
}

static bool pg_append_move(Store *base, const char *id, size_t ply, const char *ptn,
                           int64_t left_ms, int64_t turn_start_ms, TakError *err) {
    PgStore *s = (PgStore *)base;
    char n[24], l[24], t[24];
    snprintf(n, sizeof n, "%zu", ply);
    snprintf(l, sizeof l, "%lld", (long long)left_ms);
    snprintf(t, sizeof t, "%lld", (long long)turn_start_ms);
    const char *params[5] = {id, n, ptn, l, t};
    long changed = 0;
    if (!pg_change(s, q_append, 5, params, &changed, err, "saving a move")) return false;
    if (changed != 1)
        return tak_error_set(err,
                             "the game has changed meanwhile (ply %zu is taken or the game "
                             "is over): look again",
                             ply + 1);
    return true;
}

static bool pg_truncate_moves(Store *base, const char *id, size_t from, size_t count,
                              int64_t turn_start_ms, TakError *err) {
    PgStore *s = (PgStore *)base;
    char f[24], c[24], t[24];
    snprintf(f, sizeof f, "%zu", from);
    snprintf(c, sizeof c, "%zu", count);
    snprintf(t, sizeof t, "%lld", (long long)turn_start_ms);
    const char *params[4] = {id, f, c, t};
    PGresult *r = pg_exec(s, q_truncate, 4, params, PGRES_TUPLES_OK, err, "taking back moves");
    if (r == NULL) return false;
    bool done = PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "1") == 0;
    PQclear(r);
    return done ? true : tak_error_set(err, "the game has changed meanwhile: look again");
}

static bool pg_take_seat(Store *base, const char *id, int color, const char *secret,
                         const char *name, int64_t player, double rating, TakError *err) {
    PgStore *s = (PgStore *)base;
    char c[8], p[24], rt[32];
    snprintf(c, sizeof c, "%d", color);
    snprintf(p, sizeof p, "%lld", (long long)player);
    snprintf(rt, sizeof rt, "%.17g", rating);
    const char *params[6] = {id, c, secret, name, p, rt};
    long changed = 0;
    if (!pg_change(s, q_seat, 6, params, &changed, err, "saving a seat")) return false;
    return changed == 1 ? true : tak_error_set(err, "the invitation has been used already");
}

static bool pg_set_ending(Store *base, const char *id, int end, int winner, TakError *err) {
    PgStore *s = (PgStore *)base;
    char e[16], w[16];
    snprintf(e, sizeof e, "%d", end);
    snprintf(w, sizeof w, "%d", winner);
    const char *params[3] = {id, e, w};
    long changed = 0;
    if (!pg_change(s, q_ending, 3, params, &changed, err, "saving a result")) return false;
    return changed == 1 ? true : tak_error_set(err, "the game is over already");
}

static bool pg_heartbeat(Store *base, int64_t now_ms, bool resume, TakError *err) {
    PgStore *s = (PgStore *)base;
    char now[24];
    snprintf(now, sizeof now, "%lld", (long long)now_ms);
    if (resume) {
        PGresult *r =
            pg_exec(s, q_alive_get, 0, NULL, PGRES_TUPLES_OK, err, "reading the heartbeat");
        if (r == NULL) return false;
        int64_t alive = PQntuples(r) == 1 ? pg_int64_column(r, 0, 0) : 0;
        PQclear(r);
        /* Another server still up keeps the heartbeat fresh: then the gap is
         * about a second, and the clocks ran, as they should. */
        if (alive > 0 && now_ms - alive > STORE_HEARTBEAT_GAP_MS) {
            char gap[24], last[24], hold[24];
            snprintf(gap, sizeof gap, "%lld", (long long)(now_ms - alive));
            snprintf(last, sizeof last, "%lld", (long long)alive);
            snprintf(hold, sizeof hold, "%d", STORE_CLOCK_HOLD_MS);
            const char *params[4] = {gap, now, last, hold};
            if (!pg_change(s, q_resume, 4, params, NULL, err, "resuming the clocks")) return false;
        }
    }
    const char *params[1] = {now};
    return pg_change(s, q_alive_set, 1, params, NULL, err, "saving the heartbeat");
}

static bool pg_release_hold(Store *base, const char *id, int64_t held_since_ms,
                            int64_t from_turn_start_ms, int64_t turn_start_ms, bool *released,
                            TakError *err) {
    PgStore *s = (PgStore *)base;
    char h[24], f[24], t[24];
    snprintf(h, sizeof h, "%lld", (long long)held_since_ms);
    snprintf(f, sizeof f, "%lld", (long long)from_turn_start_ms);
    snprintf(t, sizeof t, "%lld", (long long)turn_start_ms);
    const char *params[4] = {id, h, f, t};
    long changed = 0;
    if (!pg_change(s, q_release, 4, params, &changed, err, "restarting the clock")) return false;
    *released = changed == 1;
    return true;
}

static const StoreOps postgres_ops = {
    .close = pg_close,
    .create_game = pg_create_game,
    .load_game = pg_load_game,
    .append_move = pg_append_move,
    .truncate_moves = pg_truncate_moves,
    .take_seat = pg_take_seat,
    .set_ending = pg_set_ending,
    .heartbeat = pg_heartbeat,
    .release_hold = pg_release_hold,
    .find_player = pg_find_player,
    .create_player = pg_create_player,
    .finish_game = pg_finish_game,
    .player_games = pg_player_games,
    .leaderboard = pg_leaderboard,
    .unfinished_rated = pg_unfinished_rated,
    .add_chat = pg_add_chat,
    .load_chat = pg_load_chat,
};

static void no_notice(void *arg, const char *message) { (void)arg, (void)message; }

/* The game's INSERT and load, from store_game_columns. The load is one
 * statement, so one snapshot: the game and exactly its plies. */
static bool make_statements(PgStore *s, TakError *err) {
    char columns[1800];
    if (!store_sql_insert_game(s->insert_sql, sizeof s->insert_sql, &dialect) ||
        !store_sql_game_columns(columns, sizeof columns, "g."))
        return tak_error_set(err, "store: a game's statement is too long to write");
    int n = snprintf(s->load_sql, sizeof s->load_sql,
                     "SELECT %s, m.ptn, m.left_ms FROM games g"
                     " LEFT JOIN moves m ON m.game = g.id AND m.ply < g.plies"
                     " WHERE g.id = $1 ORDER BY m.ply",
                     columns);
    return n > 0 && (size_t)n < sizeof s->load_sql
               ? true
               : tak_error_set(err, "store: a game's statement is too long to write");
}

/* The tables, made when missing and brought up to date, in one transaction
 * under a lock, so that processes starting at once make them once. */
static bool open_tables(PgStore *s, TakError *err) {
    char sql[12288];
    size_t len =
        (size_t)snprintf(sql, sizeof sql, "BEGIN; SELECT pg_advisory_xact_lock(" SCHEMA_LOCK ");");
    if (!store_sql_games_table(sql + len, sizeof sql - len, &dialect, PLIES_COLUMN))
        return tak_error_set(err, "store: the games table is too long to write");
    len += strlen(sql + len);
    for (size_t i = 0; i < store_game_column_count && len < sizeof sql; i++) {
        char column[256];
        if (!store_sql_column(column, sizeof column, &dialect, &store_game_columns[i]))
            return tak_error_set(err, "store: a column is too long to write");
        len += (size_t)snprintf(sql + len, sizeof sql - len,
                                "; ALTER TABLE games ADD COLUMN IF NOT EXISTS %s", column);
    }
    if (len < sizeof sql)
        len += (size_t)snprintf(sql + len, sizeof sql - len, ";%sCOMMIT;", schema);
    if (len >= sizeof sql) return tak_error_set(err, "store: the tables are too long to write");
    return pg_simple(s, sql, err, "creating the tables");
}

Store *store_postgres_open(const char *conninfo, TakError *err) {
    PgStore *s = calloc(1, sizeof *s);
    if (s == NULL) {
        tak_error_set(err, "store: out of memory");
        return NULL;
    }
    s->base.ops = &postgres_ops;
    s->conn = PQconnectdb(conninfo);
    if (s->conn == NULL || PQstatus(s->conn) != CONNECTION_OK) {
        pg_error(err, "cannot connect to PostgreSQL",
                 s->conn ? PQerrorMessage(s->conn) : "out of memory");
        pg_close(&s->base);
        return NULL;
    }
    PQsetNoticeProcessor(s->conn, no_notice, NULL); /* "relation exists, skipping" is no news */
    if (!make_statements(s, err) || !open_tables(s, err)) {
        pg_close(&s->base);
        return NULL;
    }
    return &s->base;
}
