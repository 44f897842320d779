#!/usr/bin/env bash
# npm.sh: the JavaScript package as a user gets it: npm/pack.sh makes the
# tarball, `npm install` puts it into an empty folder (no registry needed:
# it has no dependencies), and tests/lib/npm.test.js runs against what was
# installed there (Node, a bundler, chromium, tsc, bad input).
#   tests/lib/npm.sh        (make test-npm)
set -euo pipefail
cd "$(dirname "$0")/../.."
MAKE=${MAKE:-make}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$MAKE --no-print-directory -s build/wasm/tak.wasm
tarball=$(bash npm/pack.sh)
(cd "$tmp" && npm install --silent --offline --no-audit --no-fund "$OLDPWD/$tarball") ||
    { echo "npm.sh: FAIL: npm install of $tarball" >&2; exit 1; }
[ -f "$tmp/node_modules/tak-engine/tak.wasm" ] || { echo "npm.sh: FAIL: no tak.wasm installed" >&2; exit 1; }
# The page and the package run the same file.
cmp -s web/tak-engine.js "$tmp/node_modules/tak-engine/tak-engine.js" ||
    { echo "npm.sh: FAIL: the package's tak-engine.js is not web/tak-engine.js" >&2; exit 1; }
TAK_NPM_DIR=$tmp node --test tests/lib/npm.test.js
