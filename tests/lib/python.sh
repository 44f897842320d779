#!/usr/bin/env bash
# python.sh: the Python package as a user gets it. A new virtual environment
# on Debian's python3 (its pytest and setuptools seen through
# --system-site-packages), `pip install ./python` with no package index,
# then the binding's tests against the installed package (not the source
# folder), then the README's script, run from an empty folder.
#   tests/lib/python.sh       (make test-python)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
py=${TAK_PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "python.sh: FAIL: $*" >&2; exit 1; }

"$py" -m venv --system-site-packages "$tmp/venv"
# build/ of setuptools inside python/ is scratch; start clean so a stale copy
# of the library cannot be packed.
rm -rf python/build python/*.egg-info
"$tmp/venv/bin/pip" install -q --no-index --no-build-isolation --no-cache-dir ./python ||
    fail "pip install ./python"
rm -rf python/build python/*.egg-info
site=$("$tmp/venv/bin/python" -c 'import tak, os; print(os.path.dirname(tak.__file__))')
case $site in "$tmp"/venv/*) ;; *) fail "tak imported from $site, not the virtual environment" ;; esac
ls "$site"/libtak.so.* >/dev/null 2>&1 || fail "the installed package has no libtak.so"

# The tests import the installed package: run them from a copy outside the tree.
cp -r python/tests "$tmp/tests"
(cd "$tmp" && TAK_SHARED=${TAK_SHARED:-$repo/../shared} TAK_REPO=$repo \
    "$tmp/venv/bin/python" -m pytest -q -p no:cacheprovider tests) || fail "pytest"

cat >"$tmp/play.py" <<'PY'
import random, tak
game, engine = tak.Game(size=5), tak.Engine(level=3)
while not game.is_over:
    game.play(random.choice(game.legal_moves()) if game.position.side == tak.WHITE else engine.best_move(game, nodes=5000))
print(game.result.text); print(game.to_ptn())
PY
(cd "$tmp" && "$tmp/venv/bin/python" play.py >"$tmp/game.txt") || fail "the README's script"
grep -q '^\[Result ' "$tmp/game.txt" || fail "the README's script printed no game"
echo "python.sh: ok"
