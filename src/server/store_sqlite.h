/*
 * store_sqlite.h: what the two files of the SQLite store share (store.h is
 * its face): the store, its statements (prepared once, when it opens) and
 * the helpers that run them. store_sqlite.c has the games, the tables and
 * the opening; store_sqlite_players.c the players, ratings and chat.
 */
#ifndef TAK_SERVER_STORE_SQLITE_H
#define TAK_SERVER_STORE_SQLITE_H

#include <sqlite3.h>

#include "store.h"

enum {
    Q_INSERT_GAME,
    Q_INSERT_MOVE,
    Q_TURN_START,
    Q_LOAD_GAME,
    Q_LOAD_MOVES,
    Q_TRUNCATE,
    Q_SEAT,
    Q_ENDING,
    Q_ALIVE_GET,
    Q_ALIVE_SET,
    Q_RESUME,
    Q_RELEASE,
    Q_PLAYER_HASH,
    Q_PLAYER_NAME,
    Q_PLAYER_ID,
    Q_PLAYER_NEW,
    Q_FINISH,
    Q_RATED_PLAYERS,
    Q_PLAYER_RATE,
    Q_GAME_RATED,
    Q_PLAYER_GAMES,
    Q_LEADERS,
    Q_UNFINISHED,
    Q_CHAT_ADD,
    Q_CHAT_LOAD,
    Q_COUNT
};

typedef struct SqliteStore {
    Store base;
    sqlite3 *db;
    sqlite3_stmt *q[Q_COUNT];
} SqliteStore;

/* The statements of store_sqlite_players.c, by Q_ (NULL for the others). */
extern const char *const sq_players_queries[Q_COUNT];

/* Fills err with the database's last error about `what`; returns false. */
bool sq_error(SqliteStore *s, TakError *err, const char *what);
/* Runs a statement that returns no rows, then resets it. */
bool sq_run(SqliteStore *s, sqlite3_stmt *st, TakError *err, const char *what);
/* Runs `sql` (BEGIN, COMMIT, ROLLBACK). */
bool sq_exec(SqliteStore *s, const char *sql, TakError *err);
/* Commits; on failure rolls back (so the next BEGIN can run) and returns
 * false with err saying why the COMMIT failed. */
bool sq_commit(SqliteStore *s, TakError *err);
void sq_bind_text(sqlite3_stmt *st, int i, const char *text);
/* A text column's value into out (cap bytes), "" for NULL. */
void sq_copy_column(sqlite3_stmt *st, int col, char *out, size_t cap);

/* StoreOps of store_sqlite_players.c. */
bool sq_find_player(Store *base, PlayerKey by, const char *key, StoredPlayer *out, bool *found,
                    TakError *err);
bool sq_create_player(Store *base, const char *hash, const char *name, StoredPlayer *out,
                      bool *taken, TakError *err);
bool sq_finish_game(Store *base, const char *id, const char *result, int end, double white_score,
                    int64_t now_s, bool *rated, TakRating after[2], TakError *err);
bool sq_player_games(Store *base, int64_t player, size_t max, StoredGameSummary *out, size_t *count,
                     TakError *err);
bool sq_leaderboard(Store *base, size_t max, StoredPlayer *out, size_t *count, TakError *err);
bool sq_unfinished_rated(Store *base, size_t max, char (*ids)[STORE_ID_LEN + 1], size_t *count,
                         TakError *err);
bool sq_add_chat(Store *base, const char *game, const StoredChat *line, int64_t *id, TakError *err);
bool sq_load_chat(Store *base, const char *game, int room, int64_t after, size_t max,
                  StoredChat *out, size_t *count, TakError *err);

#endif
