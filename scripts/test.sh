#!/usr/bin/env bash
# test.sh: everything CI checks, from a fresh Debian machine: installs what
# is missing, builds, runs the test suite, runs it again under ASan/UBSan,
# runs a two-thread search under ThreadSanitizer, checks the library as
# users get it (installed through pkg-config, its API reference, the Python
# and npm packages), replays the fuzz regressions and fuzzes for a short
# while. Every stage runs
# even when an earlier one failed (except after a failed setup), so one run
# shows all that is wrong; the last lines summarise, and the exit status is 1
# when anything failed.
set -u
cd "$(dirname "$0")/.." || exit 2
export TAK_SHARED=${TAK_SHARED:-$(cd .. && pwd)/shared}
jobs=$(nproc 2>/dev/null || echo 2)

results=()
failed=0

# stage NAME CMD...: runs one stage and records how it went.
stage() {
    local name=$1
    shift
    echo
    echo "==== $name: $*"
    local start=$SECONDS
    if "$@"; then
        results+=("ok      $name ($((SECONDS - start)) s)")
    else
        results+=("FAILED  $name ($((SECONDS - start)) s)")
        failed=1
    fi
}

stage setup scripts/setup.sh
if [ $failed -ne 0 ]; then
    echo "test.sh: setup failed; nothing else can run" >&2
    exit 1
fi
stage build make -j"$jobs"
stage test make -j"$jobs" test
stage asan make -j"$jobs" asan
stage tsan make -j"$jobs" tsan
stage server make -j"$jobs" test-server
stage e2e make e2e
if [ -s build/e2e-artifacts/flaky.txt ]; then
    while read -r line; do results+=("  FLAKY $line"); done <build/e2e-artifacts/flaky.txt
fi
stage install make -j"$jobs" test-install
stage docs make docs
stage python make test-python
stage npm make test-npm
if [ -f scripts/fuzz.sh ]; then
    stage fuzz-regressions bash scripts/fuzz.sh --regressions
    stage fuzz-short bash scripts/fuzz.sh 20
else
    results+=("skipped fuzz (no scripts/fuzz.sh)")
fi

echo
echo "==== summary"
printf '%s\n' "${results[@]}"
if [ $failed -ne 0 ]; then
    echo "test.sh: FAILED"
    exit 1
fi
echo "test.sh: all passed"
