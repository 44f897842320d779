/*
 * store.c: picks the store `tak serve --db` names: a PostgreSQL URI
 * (store_postgres.c, which several processes may share) or an SQLite file
 * (store_sqlite.c).
 */
#include <string.h>

#include "store.h"

bool store_is_postgres(const char *where) {
    return strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0;
}

Store *store_open(const char *where, TakError *err) {
    return store_is_postgres(where) ? store_postgres_open(where, err)
                                    : store_sqlite_open(where, err);
}
