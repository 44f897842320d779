/*
 * store.c: picks the store `tak serve --db` names: a PostgreSQL URI
 * (store_postgres.c, which several processes may share) or an SQLite file
 * (store_sqlite.c); and what both stores share.
 */
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
