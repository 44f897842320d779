/*
 * store.c: picks the store `tak serve --db` names: a PostgreSQL URI
 * (store_postgres.c, which several processes may share) or an SQLite file
 * (store_sqlite.c); and what both stores share: the games table's columns,
 * the SQL made from them, and the rating arithmetic of a game's end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

bool store_is_postgres(const char *where) {
    return strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0;
}

Store *store_open(const char *where, TakError *err) {
    return store_is_postgres(where) ? store_postgres_open(where, err)
                                    : store_sqlite_open(where, err);
}

void stored_game_free(StoredGame *g) {
    free(g->moves);
    free(g->left_ms);
    free(g->import_ptn);
    g->moves = NULL;
    g->left_ms = NULL;
    g->import_ptn = NULL;
    g->move_count = 0;
}

char *stored_text_copy(const char *text) {
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    if (copy) memcpy(copy, text, n);
    return copy;
}

void store_name_key(const char *name, char out[STORE_NAME_LEN + 1]) {
    size_t i = 0;
    for (; name[i] && i < STORE_NAME_LEN; i++)
        out[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
    out[i] = '\0';
}

bool stored_game_reserve(StoredGame *g, size_t cap) {
    void *m = realloc(g->moves, (cap ? cap : 1) * sizeof *g->moves);
    if (m == NULL) return false;
    g->moves = m;
    void *l = realloc(g->left_ms, (cap ? cap : 1) * sizeof *g->left_ms);
    if (l == NULL) return false;
    g->left_ms = l;
    return true;
}

/* ---- the games table ---------------------------------------------------------- */

/* A column of StoredGame's `field`, whose C type the compiler checks is
 * `ctype` (a generic selection without a match does not compile). */
#define COLUMN(name, type, ctype, field)                                                           \
    {                                                                                              \
        name, type, offsetof(StoredGame, field),                                                   \
            sizeof(((StoredGame *)0)->field) * _Generic(((StoredGame *)0)->field, ctype : 1)       \
    }
#define TEXT(name, field) COLUMN(name, STORE_TEXT, char *, field)
#define INT(name, field) COLUMN(name, STORE_INT, int, field)
#define BOOL(name, field) COLUMN(name, STORE_BOOL, bool, field)
#define INT64(name, field) COLUMN(name, STORE_INT64, int64_t, field)
#define REAL(name, field) COLUMN(name, STORE_REAL, double, field)

/* In the order of the first tables, then as they were added. The seats'
 * secrets keep their first names in SQL (white_token), so that no table
 * needs a renamed column. */
const StoreColumn store_game_columns[] = {
    COLUMN("created", STORE_NOW, int64_t, created_s),
    TEXT("white_token", secret[0]),
    TEXT("black_token", secret[1]),
    TEXT("invite", invite),
    INT("size", rules.size),
    INT("stones", rules.stones),
    INT("caps", rules.capstones),
    INT("half_komi", rules.half_komi),
    BOOL("no_pass", rules.no_pass),
    TEXT("start_tps", start_tps),
    INT("engine_color", engine_color),
    INT("engine_level", engine_level),
    INT("end_kind", end),
    INT("winner", winner),
    INT64("clock_base", clock.base_ms),
    INT64("clock_inc", clock.increment_ms),
    INT64("clock_extra", clock.extra_ms),
    INT("clock_extra_move", clock.extra_move),
    INT64("turn_start", turn_start_ms),
    TEXT("white_name", name[0]),
    TEXT("black_name", name[1]),
    COLUMN("import_ptn", STORE_OWNED_TEXT, char *, import_ptn),
    INT64("white_player", player[0]),
    INT64("black_player", player[1]),
    BOOL("rated", rated),
    REAL("white_rating", rating[0]),
    REAL("black_rating", rating[1]),
    REAL("white_rating_after", rating_after[0].rating),
    REAL("white_rd_after", rating_after[0].rd),
    REAL("white_vol_after", rating_after[0].volatility),
    REAL("black_rating_after", rating_after[1].rating),
    REAL("black_rd_after", rating_after[1].rd),
    REAL("black_vol_after", rating_after[1].volatility),
    TEXT("result", result),
    INT64("finished", finished_s),
    INT("result_end", result_end),
    INT64("held_since", held_since_ms),
};
const size_t store_game_column_count = sizeof store_game_columns / sizeof *store_game_columns;

StoreValueKind store_column_kind(const StoreColumn *c) {
    switch (c->type) {
    case STORE_TEXT:
    case STORE_OWNED_TEXT:
        return STORE_AS_TEXT;
    case STORE_REAL:
        return STORE_AS_REAL;
    default:
        return STORE_AS_INTEGER;
    }
}

bool store_column_is_given(const StoreColumn *c) { return c->type != STORE_NOW; }

static void *field(StoredGame *g, const StoreColumn *c) { return (char *)g + c->offset; }
static const void *cfield(const StoredGame *g, const StoreColumn *c) {
    return (const char *)g + c->offset;
}

const char *store_column_text(const StoredGame *g, const StoreColumn *c) {
    if (c->type == STORE_TEXT) return cfield(g, c);
    const char *owned = *(char *const *)cfield(g, c);
    return owned ? owned : "";
}

int64_t store_column_integer(const StoredGame *g, const StoreColumn *c) {
    switch (c->type) {
    case STORE_INT:
        return *(const int *)cfield(g, c);
    case STORE_BOOL:
        return *(const bool *)cfield(g, c) ? 1 : 0;
    default:
        return *(const int64_t *)cfield(g, c);
    }
}

double store_column_real(const StoredGame *g, const StoreColumn *c) {
    return *(const double *)cfield(g, c);
}

bool store_column_set_text(StoredGame *g, const StoreColumn *c, const char *text) {
    if (c->type == STORE_TEXT) {
        snprintf(field(g, c), c->size, "%s", text);
        return true;
    }
    char **owned = field(g, c);
    free(*owned);
    *owned = text[0] ? stored_text_copy(text) : NULL;
    return text[0] == '\0' || *owned != NULL;
}

void store_column_set_integer(StoredGame *g, const StoreColumn *c, int64_t value) {
    switch (c->type) {
    case STORE_INT:
        *(int *)field(g, c) = (int)value;
        break;
    case STORE_BOOL:
        *(bool *)field(g, c) = value != 0;
        break;
    default:
        *(int64_t *)field(g, c) = value;
        break;
    }
}

void store_column_set_real(StoredGame *g, const StoreColumn *c, double value) {
    *(double *)field(g, c) = value;
}

/* ---- the SQL made from the columns --------------------------------------------- */

/* Appends to a statement being written; *len stays past cap once it is full. */
static void add(char *out, size_t cap, size_t *len, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = *len < cap ? vsnprintf(out + *len, cap - *len, format, args) : 0;
    va_end(args);
    *len += n > 0 ? (size_t)n : 0;
}

bool store_sql_column(char *out, size_t cap, const StoreDialect *d, const StoreColumn *c) {
    const char *zero = c->type == STORE_NOW                    ? d->now
                       : store_column_kind(c) == STORE_AS_TEXT ? "''"
                                                               : "0";
    int n = snprintf(out, cap, "%s %s NOT NULL DEFAULT %s", c->name, d->types[c->type], zero);
    return n >= 0 && (size_t)n < cap;
}

bool store_sql_games_table(char *out, size_t cap, const StoreDialect *d, const char *more) {
    size_t len = 0;
    add(out, cap, &len, "CREATE TABLE IF NOT EXISTS games(id TEXT PRIMARY KEY");
    for (size_t i = 0; i < store_game_column_count; i++) {
        char column[256];
        if (!store_sql_column(column, sizeof column, d, &store_game_columns[i])) return false;
        add(out, cap, &len, ", %s", column);
    }
    add(out, cap, &len, "%s%s)", more[0] ? ", " : "", more);
    return len < cap;
}

bool store_sql_insert_game(char *out, size_t cap, const StoreDialect *d) {
    size_t len = 0;
    int given = 1;
    add(out, cap, &len, "INSERT INTO games(id");
    for (size_t i = 0; i < store_game_column_count; i++)
        if (store_column_is_given(&store_game_columns[i]))
            add(out, cap, &len, ", %s", store_game_columns[i].name), given++;
    add(out, cap, &len, ") VALUES(");
    for (int i = 1; i <= given; i++) add(out, cap, &len, "%s%c%d", i > 1 ? "," : "", d->param, i);
    add(out, cap, &len, ")");
    return len < cap;
}

bool store_sql_game_columns(char *out, size_t cap, const char *prefix) {
    size_t len = 0;
    if (cap) out[0] = '\0';
    for (size_t i = 0; i < store_game_column_count; i++)
        add(out, cap, &len, "%s%s%s", i ? ", " : "", prefix, store_game_columns[i].name);
    return len < cap;
}

/* ---- ratings -------------------------------------------------------------------- */

void store_rate_game(StoredPlayer p[2], double white_score, int64_t now_s) {
    TakRating now[2];
    for (int c = 0; c < 2; c++) {
        now[c] = p[c].rating;
        if (p[c].last_rated_s > 0)
            now[c] = tak_rating_idle(now[c],
                                     (double)(now_s - p[c].last_rated_s) / STORE_RATING_PERIOD_S);
    }
    double score[2] = {white_score, 1 - white_score};
    for (int c = 0; c < 2; c++) {
        TakRatingGame game = {now[!c], score[c]};
        p[c].rating = tak_rating_update(now[c], &game, 1, TAK_RATING_TAU);
        p[c].rated_games++;
        p[c].last_rated_s = now_s;
    }
}
