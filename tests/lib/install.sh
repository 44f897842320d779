#!/usr/bin/env bash
# install.sh: the C library as a user gets it. Installs into a fresh prefix
# (make install PREFIX=...), builds the two examples against the installed
# library through pkg-config only (nothing of the tree on the include or
# library path), runs them, checks what libtak.so exports against the
# public headers, and that make uninstall removes everything.
#   tests/lib/install.sh        (make test-install)
set -euo pipefail
cd "$(dirname "$0")/../.."
MAKE=${MAKE:-make}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "install.sh: FAIL: $*" >&2; exit 1; }

$MAKE --no-print-directory -s install PREFIX="$prefix" >/dev/null
version=$(sed -n 's/^#define TAK_VERSION "\(.*\)"/\1/p' include/tak/version.h)
major=${version%%.*}
for f in bin/tak lib/libtak.a lib/libtak.so lib/libtak.so.$major lib/libtak.so.$version \
         lib/pkgconfig/tak.pc include/tak/tak.h include/tak/engine.h share/man/man1/tak.1; do
    [ -e "$prefix/$f" ] || fail "make install did not install $f"
done
[ "$("$prefix/bin/tak" --version)" = "tak $version" ] || fail "tak --version is not 'tak $version'"
soname=$(objdump -p "$prefix/lib/libtak.so.$version" | awk '/SONAME/ {print $2}')
[ "$soname" = "libtak.so.$major" ] || fail "soname is '$soname', not libtak.so.$major"

# Examples, as a stranger would build them: the copies in a folder of their own.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion tak)" = "$version" ] || fail "pkg-config --modversion is not $version"
mkdir "$tmp/ex"
cp examples/*.c "$tmp/ex/"
for ex in best_move random_game; do
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror "$tmp/ex/$ex.c" $(pkg-config --cflags --libs tak) -o "$tmp/ex/$ex" ||
        fail "examples/$ex.c does not build against the installed library"
done
# ldd's whole answer first: `ldd | grep -q` under pipefail fails whenever grep
# stops reading before ldd has written its last line (SIGPIPE), as CI once saw.
libs=$(LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/ex/best_move")
grep -qF "$prefix/lib/libtak.so.$major" <<<"$libs" ||
    fail "best_move is not linked with the installed libtak.so"
export LD_LIBRARY_PATH=$prefix/lib
out=$("$tmp/ex/best_move" "x5/x5/x5/x5/x5 2 1" 2000)
[[ "$out" =~ ^[a-e][1-5]\ -?[0-9]+$ ]] || fail "best_move printed '$out', not a placement and a score"
# White to move with a road in one: the engine must take it.
out=$("$tmp/ex/best_move" "1,1,1,1,x/x5/x5/2,2,2,2,x/x5 1 5" 2000)
[ "${out%% *}" = "e5" ] || fail "best_move missed the road in one (e5): '$out'"
if "$tmp/ex/best_move" "x5/x5 1 1" 2>"$tmp/err"; then fail "best_move accepted a bad TPS"; fi
grep -q "bad TPS" "$tmp/err" || fail "best_move's error does not say what was wrong: $(cat "$tmp/err")"
for nodes in 0 ten -5; do
    if "$tmp/ex/best_move" "x5/x5/x5/x5/x5 1 1" "$nodes" 2>"$tmp/err"; then fail "best_move took NODES '$nodes'"; fi
    grep -q "NODES must be a whole number" "$tmp/err" || fail "best_move's NODES error: $(cat "$tmp/err")"
done
"$tmp/ex/random_game" 5 7 >"$tmp/game.ptn"
grep -q '^\[Size "5"\]' "$tmp/game.ptn" || fail "random_game wrote no Size tag"
grep -q '^1\. ' "$tmp/game.ptn" || fail "random_game wrote no moves"
"$prefix/bin/tak" replay "$tmp/game.ptn" >/dev/null || fail "tak replay rejects random_game's PTN"
"$tmp/ex/random_game" 5 7 | cmp -s - "$tmp/game.ptn" || fail "random_game is not the same for the same seed"
# Statically, too.
# shellcheck disable=SC2046
cc "$tmp/ex/random_game.c" $(pkg-config --cflags tak) "$prefix/lib/libtak.a" \
    $(pkg-config --static --libs-only-l tak | sed 's/-ltak//') -o "$tmp/ex/random_static" ||
    fail "random_game does not link with libtak.a"
env -u LD_LIBRARY_PATH "$tmp/ex/random_static" 5 7 | cmp -s - "$tmp/game.ptn" ||
    fail "the static and shared random_game differ"

# Exported symbols: exactly the functions the public headers declare (the
# static inline ones aside); nothing of the library's internals.
nm -D --defined-only "$prefix/lib/libtak.so.$version" | awk '$2 == "T" {print $3}' | sed 's/@.*//' |
    sort -u >"$tmp/exported"
cat include/tak/*.h | tr -s ' \n' ' ' | sed 's/static inline[^{]*{/\n/g' |
    grep -o '\b\(tak\|takat\)_[a-z0-9_]*(' | tr -d '(' | sort -u >"$tmp/declared_all"
# Names declared only in static inline definitions are not in the library.
grep -ho 'static inline [^(]*\b\(tak_[a-z0-9_]*\)(' include/tak/*.h | grep -o 'tak_[a-z0-9_]*' |
    sort -u >"$tmp/inline"
comm -23 "$tmp/declared_all" "$tmp/inline" >"$tmp/declared"
[ -s "$tmp/exported" ] || fail "libtak.so exports nothing"
if ! diff "$tmp/declared" "$tmp/exported" >"$tmp/diff"; then
    echo "install.sh: exported (>) and declared (<) differ:" >&2
    cat "$tmp/diff" >&2
    fail "libtak.so does not export exactly the public functions"
fi
nm -D --defined-only "$prefix/lib/libtak.so.$version" | awk '{print $3}' |
    grep -v -e '^tak_' -e '^takat_' -e '^TAK_[0-9]*$' >"$tmp/other" &&
    fail "libtak.so exports internal names: $(head -5 "$tmp/other" | tr '\n' ' ')"

$MAKE --no-print-directory -s uninstall PREFIX="$prefix" >/dev/null
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"

# A packager's staged install: files under DESTDIR, paths naming PREFIX.
$MAKE --no-print-directory -s install DESTDIR="$tmp/stage" PREFIX=/usr >/dev/null
[ -e "$tmp/stage/usr/lib/libtak.so.$major" ] || fail "DESTDIR: no $tmp/stage/usr/lib/libtak.so.$major"
grep -qx 'prefix=/usr' "$tmp/stage/usr/lib/pkgconfig/tak.pc" || fail "DESTDIR: tak.pc does not name prefix /usr"
$MAKE --no-print-directory -s uninstall DESTDIR="$tmp/stage" PREFIX=/usr >/dev/null
[ -z "$(find "$tmp/stage" -type f -o -type l)" ] || fail "DESTDIR: make uninstall left files"
echo "install.sh: ok ($(wc -l <"$tmp/exported") symbols exported, examples built through pkg-config)"
