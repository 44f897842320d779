#!/usr/bin/env bash
# with-postgres.sh CMD...: runs CMD with TAK_TEST_PG set to the URI of a
# throw-away PostgreSQL database, then removes it. The cluster is made with
# initdb in a temporary directory and listens only on a unix socket there, on
# a random port; as root, initdb and postgres run as the `postgres` user
# (Debian's package makes it). When PostgreSQL is missing or cannot start,
# says so loudly and exits 0 without running CMD, so a machine without it
# skips these runs rather than failing them. CMD's exit status is returned.
set -u

skip() {
    echo "" >&2
    echo "######## SKIPPED: the PostgreSQL store was NOT tested: $*" >&2
    echo "######## (scripts/setup.sh installs the postgresql package)" >&2
    echo "" >&2
    exit 0
}

bindir=""
for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
        bindir=$d
        break
    fi
done
[ -n "$bindir" ] || bindir=$(dirname "$(command -v initdb 2>/dev/null || echo /none/initdb)")
[ -x "$bindir/initdb" ] && [ -x "$bindir/pg_ctl" ] || skip "initdb and pg_ctl not found"

# A short path: the socket's name must fit in 107 bytes.
dir=$(mktemp -d /tmp/tak-pg.XXXXXX) || skip "cannot make a temporary directory"
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || skip "running as root and there is no 'postgres' user"
    chown postgres "$dir"
    as_owner=(runuser -u postgres --)
fi

port=$((20000 + RANDOM % 40000))
cleanup() {
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# fsync off (TAK_PG_FSYNC=on for benchmarks): the tests kill servers, never the machine.
if ! "${as_owner[@]}" "$bindir/initdb" -D "$dir/data" -A trust -U tak -E UTF8 --locale=C \
    --no-sync >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    skip "initdb failed"
fi
if ! "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses='' -k $dir -p $port -c fsync=${TAK_PG_FSYNC:-off} -c max_connections=200" \
    start >/dev/null; then
    cat "$dir/server.log" >&2
    skip "the server did not start"
fi
if ! "$bindir/psql" -q -h "$dir" -p "$port" -U tak -d postgres -c "CREATE DATABASE tak" \
    >/dev/null 2>"$dir/psql.log"; then
    cat "$dir/psql.log" >&2
    skip "cannot create the database"
fi

# Tests restart the database with this (pg_ctl restart keeps the options).
cat >"$dir/restart.sh" <<END
#!/bin/sh
exec ${as_owner[*]} "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 30 restart >/dev/null
END
chmod +x "$dir/restart.sh"
export TAK_TEST_PG_RESTART="$dir/restart.sh"
export TAK_TEST_PG="postgresql://tak@/tak?host=$dir&port=$port"
echo "with-postgres.sh: $TAK_TEST_PG (PostgreSQL $("$bindir/postgres" --version | awk '{print $3}'))"
"$@"
