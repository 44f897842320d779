#!/usr/bin/env bash
# perft.sh [--quick]: builds and runs `tak bench`, headed by what a figure
# needs beside it to mean anything: the commit, the compiler, the machine
# (nproc, lscpu's model name) and its load. Paste the whole output into
# bench/README.md when recording figures.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build/tak
echo "commit:   $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
echo "compiler: $(${CC:-gcc} --version | head -n 1)"
echo "machine:  $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -n 1)"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
echo "command:  build/tak bench $*"
echo
build/tak bench "$@"
