/*
 * store.h: where games live between restarts. The server keeps games in
 * memory while they are in use and writes every change through one of these
 * before it acknowledges it, so a crash loses nothing that was acknowledged.
 * An interface (a table of functions) so that SQLite (store_sqlite.c) and
 * PostgreSQL (store_postgres.c, shared by several server processes) are
 * interchangeable; every call is made from the event loop's thread only.
 * Writes are guarded: one that finds the game not as the caller last saw it
 * (another process changed it) fails and changes nothing.
 */
#ifndef TAK_SERVER_STORE_H
#define TAK_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tak/rating.h"
#include "tak/tak.h"

#define STORE_ID_LEN 10    /* game ids: public, in links */
#define STORE_SECRET_LEN 24 /* seat secrets and invitations */
#define STORE_NAME_LEN 20  /* players' names (lobby_bad_name checks them) */
#define STORE_HASH_LEN 64  /* an identity secret's SHA-256, in hex: all the store keeps of it */
#define STORE_RESULT_LEN 8 /* a result code: "R-0", "1/2-1/2" */
/* Glicko-2's rating period for idleness: a player's deviation grows by one
 * period for each day since their last rated game (tak_rating_idle). */
#define STORE_RATING_PERIOD_S 86400
#define STORE_HEARTBEAT_MS 250 /* how often a server says it is up */
/* A heartbeat older than this at start means every server was down: the
 * clocks stop for that time (a faster restart is charged, under 1 s). */
#define STORE_HEARTBEAT_GAP_MS 1000
/* After such a restart the clock of the side to move is held, at most this
 * long, for the players' pages to come back (clock.c says why): past the
 * page's longest wait between tries (4 s) and a slow start. */
#define STORE_CLOCK_HOLD_MS 10000

/* A game's time control; base_ms 0 for an untimed game. Each player starts
 * with base_ms, gets increment_ms after each of their moves and extra_ms
 * once, after their move number extra_move (0: never). */
typedef struct StoredClock {
    int64_t base_ms, increment_ms, extra_ms;
    int extra_move;
} StoredClock;

/* One game as stored: how it started, who holds which seat, its moves. */
typedef struct StoredGame {
    char id[STORE_ID_LEN + 1];
    char secret[2][STORE_SECRET_LEN + 1]; /* seat secrets by colour; "" when free */
    char invite[STORE_SECRET_LEN + 1];    /* takes the free seat; "" when none */
    char name[2][STORE_NAME_LEN + 1];   /* the players' names by colour; "" when not given */
    int64_t player[2];                  /* the players by colour (StoredPlayer.id); 0 for none */
    bool rated;                         /* a rated game: its end updates both ratings */
    double rating[2];                   /* the players' ratings when it began; 0 for none */
    TakRating rating_after[2];          /* their ratings after it, once rated; 0 before */
    char result[STORE_RESULT_LEN];      /* its result code once finish_game recorded it, or "" */
    int64_t finished_s;                 /* when finish_game recorded it (s since 1970), or 0 */
    int result_end;                     /* how it ended (TakEnd) as finish_game recorded it, or 0 */
    int64_t created_s;                  /* when it was made (s since 1970; set by the store) */
    char *import_ptn; /* the PTN it was imported from, kept for its tags, comments and
                       * marks (malloc'd), or NULL */
    TakRules rules;
    char start_tps[TAK_TPS_MAX]; /* "" for the empty board */
    int engine_color;            /* the engine's seat, or -1 */
    int engine_level;
    int end, winner;             /* an ending off the board (TakEnd), or 0 and -1 */
    char (*moves)[TAK_MOVE_TEXT_MAX]; /* PTN plies, malloc'd; move_count of them */
    int64_t *left_ms;  /* per ply, the mover's time left after it, increment and extra
                        * added (timed games; -1 otherwise); malloc'd beside moves */
    size_t move_count;
    StoredClock clock;
    /* When the clock of the side to move started (ms since 1970, moved on by
     * the time the servers were down); 0 while no clock runs. */
    int64_t turn_start_ms;
    /* When every server came back after all were down, while the clock of
     * the side to move is held for the pages to come back (clock.c); 0 when
     * it is not held. Kept here, not in one process, so that every process
     * of a cluster holds it alike and it is given once per outage. */
    int64_t held_since_ms;
} StoredGame;

void stored_game_free(StoredGame *g);
/* A malloc'd copy of `text` (for import_ptn); NULL when out of memory. */
char *stored_text_copy(const char *text);

/* A player's name as the stores key it: in lower case, so names are unique
 * in any case. */
void store_name_key(const char *name, char out[STORE_NAME_LEN + 1]);
/* Makes room for `cap` plies in moves and left_ms (both reallocated). */
bool stored_game_reserve(StoredGame *g, size_t cap);

/* A player: a unique name claimed by an identity secret, of which only the
 * SHA-256 is stored; their rating and how many rated games made it. */
typedef struct StoredPlayer {
    int64_t id;
    char name[STORE_NAME_LEN + 1];
    TakRating rating;
    int rated_games;
    int64_t created_s;
    int64_t last_rated_s; /* when their last rated game ended, or 0 */
} StoredPlayer;

/* How find_player looks a player up: by the hash of their secret, by name
 * (any case), or by id (written in decimal). */
typedef enum { PLAYER_BY_HASH, PLAYER_BY_NAME, PLAYER_BY_ID } PlayerKey;

/* One of a player's games, for their page: seen from the player's side. */
typedef struct StoredGameSummary {
    char id[STORE_ID_LEN + 1];
    int64_t created_s, finished_s; /* finished_s 0 while it goes on */
    int size;
    int color;                         /* the player's */
    char opponent[STORE_NAME_LEN + 1]; /* the opponent's name, or "" (anonymous or engine) */
    int engine_level;                  /* the opponent engine's level, or 0 */
    char result[STORE_RESULT_LEN];     /* "" while it goes on */
    /* How it ended (TakEnd); 0 while it goes on, and for a game recorded
     * before the store kept it that ended on the board (its result code
     * says road or flats). */
    int end;
    StoredClock clock; /* base_ms and increment_ms; base_ms 0 untimed */
    int plies;
    bool rated;
    double rating_before;   /* the player's, 0 when none */
    TakRating rating_after; /* the player's once rated, else 0 */
} StoredGameSummary;

/* One chat message (chat.c checks it): its room (0 the players', 1 the
 * spectators'), who wrote it ("white", "black", "spectator"), when (ms since
 * 1970); ids grow with time, per store. */
#define STORE_CHAT_TEXT_MAX 1200 /* bytes: 300 characters of up to 4 bytes */
typedef struct StoredChat {
    int64_t id;
    int room;
    char from[12];
    char text[STORE_CHAT_TEXT_MAX + 1];
    int64_t time_ms;
} StoredChat;

typedef struct Store Store;

typedef struct StoreOps {
    void (*close)(Store *s);
    /* Adds a new game (its moves too, for an imported game). */
    bool (*create_game)(Store *s, const StoredGame *g, TakError *err);
    /* Loads a game; *found false (and true returned) when there is none. */
    bool (*load_game)(Store *s, const char *id, StoredGame *out, bool *found, TakError *err);
    /* Records ply number `ply` (0-based) of a game, the mover's time left
     * after it (-1 untimed) and when the next turn's clock started; fails when
     * the game does not have exactly `ply` plies (PostgreSQL; SQLite is one
     * process's). */
    bool (*append_move)(Store *s, const char *id, size_t ply, const char *ptn, int64_t left_ms,
                        int64_t turn_start_ms, TakError *err);
    /* Forgets every ply from `count` on (a takeback) of a game at `from`
     * plies, the clock of the side then to move starting at turn_start_ms;
     * fails when it is not at `from` (PostgreSQL). */
    bool (*truncate_moves)(Store *s, const char *id, size_t from, size_t count,
                           int64_t turn_start_ms, TakError *err);
    /* Gives a free seat its secret and its player's name ("" for none), id
     * (0 for none) and rating (0 for none), and retires the invitation; fails
     * when the invitation is spent or the seat taken. */
    bool (*take_seat)(Store *s, const char *id, int color, const char *secret, const char *name,
                      int64_t player, double rating, TakError *err);
    /* Records an ending off the board (resignation, agreement); fails when
     * one is recorded already. */
    bool (*set_ending)(Store *s, const char *id, int end, int winner, TakError *err);
    /* Says the servers are up at `now_ms` (every second or so). The first
     * call of a process, with `resume` true, first moves the clocks of the
     * games in progress on by the time since the last such word, so that
     * nobody's clock ran while no server was up, and when it does (every
     * server was down) holds them from now_ms (held_since_ms). A hold not
     * ended when the servers went down gives its time back too: a crash
     * during the hold charges nobody for it. */
    bool (*heartbeat)(Store *s, int64_t now_ms, bool resume, TakError *err);
    /* Ends the hold of a game's clock that began at held_since_ms, its turn
     * begun at from_turn_start_ms: the clock runs from turn_start_ms. One
     * conditional write, so one process of a cluster ends it: *released is
     * false (and true returned) when the game is no longer so (another
     * process ended the hold, or a move came first). */
    bool (*release_hold)(Store *s, const char *id, int64_t held_since_ms,
                         int64_t from_turn_start_ms, int64_t turn_start_ms, bool *released,
                         TakError *err);

    /* ---- players and ratings ---- */
    /* Looks a player up; *found false (and true returned) when there is none. */
    bool (*find_player)(Store *s, PlayerKey by, const char *key, StoredPlayer *out, bool *found,
                        TakError *err);
    /* The player of identity `hash`, made with `name` (checked by the
     * caller) and a newcomer's rating when the identity is new. *taken, and
     * nothing made, when another identity holds the name in any case. */
    bool (*create_player)(Store *s, const char *hash, const char *name, StoredPlayer *out,
                          bool *taken, TakError *err);
    /* Records that a game ended with `result` (a code), in the way `end` (a
     * TakEnd, for the players' pages), at now_s, once: a game recorded
     * already is left as it is (true, *rated false). The first
     * record of a rated game between two players also updates both ratings
     * (Glicko-2, one game as one rating period, from their ratings now, each
     * deviation first grown by the days since their last rated game), in
     * the same transaction, so it happens exactly once however many
     * processes see the end; then *rated is true and after[] their new
     * ratings by colour. `white_score` is 1, 0.5 or 0. */
    bool (*finish_game)(Store *s, const char *id, const char *result, int end,
                        double white_score, int64_t now_s, bool *rated, TakRating after[2],
                        TakError *err);
    /* The player's last `max` games, newest first. */
    bool (*player_games)(Store *s, int64_t player, size_t max, StoredGameSummary *out,
                         size_t *count, TakError *err);
    /* The `max` best-rated players with at least one rated game, best first. */
    bool (*leaderboard)(Store *s, size_t max, StoredPlayer *out, size_t *count, TakError *err);
    /* Up to `max` rated games whose end is not recorded (going on, or ended
     * while no process recorded it): the server looks at them when it starts. */
    bool (*unfinished_rated)(Store *s, size_t max, char (*ids)[STORE_ID_LEN + 1], size_t *count,
                             TakError *err);

    /* ---- chat ---- */
    /* Adds a message to a game's room; *id is its id. */
    bool (*add_chat)(Store *s, const char *game, const StoredChat *line, int64_t *id,
                     TakError *err);
    /* The last `max` messages of a game's room with an id above `after`,
     * oldest first. */
    bool (*load_chat)(Store *s, const char *game, int room, int64_t after, size_t max,
                      StoredChat *out, size_t *count, TakError *err);
} StoreOps;

struct Store {
    const StoreOps *ops;
};

/* The SQLite store in file `path` (created when missing), in WAL mode. */
Store *store_sqlite_open(const char *path, TakError *err);

/* The PostgreSQL store at `conninfo` (a libpq URI or key=value string); its
 * tables are created when missing. */
Store *store_postgres_open(const char *conninfo, TakError *err);

/* Whether `where` (the --db argument) names a PostgreSQL database:
 * "postgresql://..." or "postgres://...". */
bool store_is_postgres(const char *where);

/* The store `where` names: PostgreSQL for a URI, else an SQLite file. */
Store *store_open(const char *where, TakError *err);

/* ---- what the two stores share ---------------------------------------------
 * The games table written down once: every column but the key (id) is a row
 * of store_game_columns, named as in SQL and tied to its StoredGame field.
 * Both stores make from it their CREATE TABLE, the columns an older table
 * lacks, the INSERT and the SELECT of a game, and load a game by it; they
 * differ only in their dialect. A new column is one row of the list: rows
 * stored before it read the zero of its type (0, or '' for text). */

typedef enum StoreType {
    STORE_TEXT,       /* char[N], its capacity the field's size */
    STORE_OWNED_TEXT, /* char *, malloc'd, NULL for "" (import_ptn) */
    STORE_INT,        /* int */
    STORE_BOOL,       /* bool, stored as 0 or 1 */
    STORE_INT64,      /* int64_t */
    STORE_REAL,       /* double */
    STORE_NOW,        /* int64_t: the second the row was made, set by the store alone */
    STORE_TYPE_COUNT
} StoreType;

typedef struct StoreColumn {
    const char *name; /* in SQL */
    StoreType type;
    size_t offset, size; /* the field's place in StoredGame and its size */
} StoreColumn;

extern const StoreColumn store_game_columns[];
extern const size_t store_game_column_count;

/* How a store passes a column's value to its database. */
typedef enum { STORE_AS_TEXT, STORE_AS_INTEGER, STORE_AS_REAL } StoreValueKind;
StoreValueKind store_column_kind(const StoreColumn *c);
/* Whether the INSERT of a game gives the column (every column but STORE_NOW). */
bool store_column_is_given(const StoreColumn *c);

/* A column's value in `g`, by its kind ("" for a NULL owned text). */
const char *store_column_text(const StoredGame *g, const StoreColumn *c);
int64_t store_column_integer(const StoredGame *g, const StoreColumn *c);
double store_column_real(const StoredGame *g, const StoreColumn *c);
/* Sets a column's field in `g` from a value of its kind: text is cut to the
 * field's capacity, an owned text is copied (false: out of memory). */
bool store_column_set_text(StoredGame *g, const StoreColumn *c, const char *text);
void store_column_set_integer(StoredGame *g, const StoreColumn *c, int64_t value);
void store_column_set_real(StoredGame *g, const StoreColumn *c, double value);

/* What differs between the stores' SQL. */
typedef struct StoreDialect {
    const char *types[STORE_TYPE_COUNT]; /* the SQL type of each StoreType */
    const char *now;                     /* STORE_NOW's default: seconds since 1970, now */
    char param;                          /* a parameter's mark: '?' for ?1, '$' for $1 */
} StoreDialect;

/* Each writes one statement (or part) into out, cap bytes with its NUL, and
 * returns false when it does not fit. */
/* A column's definition: "name TYPE NOT NULL DEFAULT zero". */
bool store_sql_column(char *out, size_t cap, const StoreDialect *d, const StoreColumn *c);
/* CREATE TABLE IF NOT EXISTS games(id TEXT PRIMARY KEY, every column, `more`),
 * `more` the columns of one store alone ("" for none). */
bool store_sql_games_table(char *out, size_t cap, const StoreDialect *d, const char *more);
/* INSERT INTO games(id, the given columns) VALUES(parameters 1.., in that
 * order): id is parameter 1, the i-th given column parameter i + 2. */
bool store_sql_insert_game(char *out, size_t cap, const StoreDialect *d);
/* Every column's name, in the list's order, each after `prefix` ("g."), with
 * commas between: a SELECT's columns, loaded with store_column_set_*. */
bool store_sql_game_columns(char *out, size_t cap, const char *prefix);

/* The rating arithmetic of a rated game's end, done once for both stores:
 * p[0] (White) and p[1] (Black) as stored now become themselves after a game
 * that White scored `white_score` in (1, 0.5 or 0) and that ended at now_s:
 * Glicko-2, one game as one rating period, each deviation first grown by the
 * days since their last rated game; one more rated game each, the last at
 * now_s. The store writes p[] back. */
void store_rate_game(StoredPlayer p[2], double white_score, int64_t now_s);

#endif
