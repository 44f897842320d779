#!/usr/bin/env bash
# setup.sh: installs what building and testing need on a Debian machine, and
# nothing that is already there (each package is checked with dpkg -s first;
# apt-get update runs only when something is missing). Safe to run again.
#
# To add a dependency, add its Debian package name to PACKAGES.
set -euo pipefail

PACKAGES=(
    build-essential # gcc, make
    clang           # the fuzz build (libFuzzer), and the WebAssembly build of the library
    lld             # ... which links with wasm-ld
    wasi-libc       # ... against WASI's C library
    libcmocka-dev   # the test framework
    pkg-config
    libwebsockets-dev # tak serve: HTTP and WebSocket server
    libwebsockets-evlib-ev # ... on libev's epoll loop (scales to 10k sockets)
    libev-dev
    libjansson-dev    # tak serve: JSON messages
    libsqlite3-dev    # tak serve: the game store
    libpq-dev         # tak serve --db postgresql://: the shared game store
    libssl-dev        # tak serve: SHA-256 of players' identity secrets (libcrypto)
    postgresql        # ... and its tests (a throw-away cluster: scripts/with-postgres.sh)
    chromium          # browser end-to-end tests (driven by playwright-core)
    nodejs            # server tests, e2e tests, load benchmark
    libreadline-dev   # tak play: line editing and history
    python3           # tak play's terminal tests (tests/cli/lib/pty_drive.py)
    doxygen           # make docs: the library's API reference
    python3-venv      # the Python package's tests: a virtual environment,
    python3-setuptools # ... pip install ./python with no index (setuptools, wheel
    python3-wheel     # ... from Debian, seen through --system-site-packages)
    python3-pytest    # ... and its tests
    node-typescript   # the npm package's tests: its TypeScript declarations (tsc)
    esbuild           # ... and its browser entry through a bundler; make: the page's modules, bundled
)

export DEBIAN_FRONTEND=noninteractive

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo env DEBIAN_FRONTEND=noninteractive "$@"
    else
        echo "setup.sh: need root (or sudo) to run: $*" >&2
        return 1
    fi
}

is_installed() {
    dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed'
}

updated=false
# install PACKAGE...: installs those of the packages that are missing.
install() {
    local missing=()
    local p
    for p in "$@"; do
        is_installed "$p" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup.sh: installing ${missing[*]}"
    if [ "$updated" = false ]; then
        as_root apt-get update -q
        updated=true
    fi
    as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
}

install "${PACKAGES[@]}"

# libFuzzer ships with the compiler-rt of the installed clang's version:
# libclang-rt-<major>-dev (clang 14 on Debian 12: libclang-rt-14-dev).
has_libfuzzer() {
    local lib
    lib=$("$1" -print-file-name="libclang_rt.fuzzer-$(uname -m).a")
    [ "${lib#/}" != "$lib" ] && [ -e "$lib" ]
}
clang_bin=$(command -v clang || command -v clang-14 || true)
if [ -z "$clang_bin" ]; then
    echo "setup.sh: clang is installed but not on PATH" >&2
    exit 1
fi
major=$("$clang_bin" -dumpversion | cut -d. -f1)
if ! has_libfuzzer "$clang_bin"; then
    install "libclang-rt-$major-dev" || install libclang-rt-dev
fi
# The WebAssembly build's compiler builtins (128-bit arithmetic and the like).
install "libclang-rt-$major-dev-wasm32" || install libclang-rt-dev-wasm32

# npm: Debian's package, unless a nodejs that bundles it is installed
# (NodeSource's conflicts with Debian's npm).
command -v npm >/dev/null 2>&1 || install npm
# The test tools of package-lock.json (ws, playwright-core; no browser
# download), again only when the lock file changed since the last install.
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "setup.sh: npm ci"
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
fi

echo "setup.sh: everything needed is installed"
