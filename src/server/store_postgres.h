/*
 * store_postgres.h: what the two files of the PostgreSQL store share
 * (store.h is its face): the store and the helpers that run statements.
 * store_postgres.c has the games, the tables and the opening;
 * store_postgres_players.c the players, ratings and chat.
 */
#ifndef TAK_SERVER_STORE_POSTGRES_H
#define TAK_SERVER_STORE_POSTGRES_H

#include <libpq-fe.h>

#include "store.h"

typedef struct PgStore {
    Store base;
    PGconn *conn;
    char insert_sql[2048], load_sql[2048]; /* made from store_game_columns */
} PgStore;

/* Fills err with the first line of libpq's `message` about `what`; returns false. */
bool pg_error(TakError *err, const char *what, const char *message);
/* Runs one statement with text parameters; returns its result when its
 * status is `want` (the caller clears it), else NULL with err filled. A
 * connection found broken is reset first (a statement that failed is never
 * retried: it may have committed). */
PGresult *pg_exec(PgStore *s, const char *sql, int n, const char *const *params,
                  ExecStatusType want, TakError *err, const char *what);
/* Runs a statement that changes rows; *changed is how many (NULL: any). */
bool pg_change(PgStore *s, const char *sql, int n, const char *const *params, long *changed,
               TakError *err, const char *what);
/* Runs `sql` without parameters (BEGIN, COMMIT, several statements). */
bool pg_simple(PgStore *s, const char *sql, TakError *err, const char *what);
/* A column of a result row: text into out ("" for NULL); a number (-1 or 0 for NULL). */
void pg_copy_column(const PGresult *r, int row, int col, char *out, size_t cap);
int64_t pg_int64_column(const PGresult *r, int row, int col);
double pg_double_column(const PGresult *r, int row, int col);

/* StoreOps of store_postgres_players.c. */
bool pg_find_player(Store *base, PlayerKey by, const char *key, StoredPlayer *out, bool *found,
                    TakError *err);
bool pg_create_player(Store *base, const char *hash, const char *name, StoredPlayer *out,
                      bool *taken, TakError *err);
bool pg_finish_game(Store *base, const char *id, const char *result, int end, double white_score,
                    int64_t now_s, bool *rated, TakRating after[2], TakError *err);
bool pg_player_games(Store *base, int64_t player, size_t max, StoredGameSummary *out, size_t *count,
                     TakError *err);
bool pg_leaderboard(Store *base, size_t max, StoredPlayer *out, size_t *count, TakError *err);
bool pg_unfinished_rated(Store *base, size_t max, char (*ids)[STORE_ID_LEN + 1], size_t *count,
                         TakError *err);
bool pg_add_chat(Store *base, const char *game, const StoredChat *line, int64_t *id, TakError *err);
bool pg_load_chat(Store *base, const char *game, int room, int64_t after, size_t max,
                  StoredChat *out, size_t *count, TakError *err);

#endif
