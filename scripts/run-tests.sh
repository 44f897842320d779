#!/usr/bin/env bash
# run-tests.sh TEST_DIR TAK: runs the cmocka test program TEST_DIR/test_X of
# every tests/test_X.c and every tests/cli/*.sh (with TAK as the command
# under test), from the repository root, going on after a failure. A program
# that make does not see as up to date (it failed to build) is not run, so a
# stale binary cannot pass for it: it counts as one failure. Counts test cases from the
# cmocka summaries ("[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)"),
# which the shell tests print too; a program that fails without saying how
# many cases failed (a crash, a sanitizer abort) counts as one failure.
# Ends with one line, "N passed, N failed", and exits 1 on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2

if [ $# -ne 2 ]; then
    echo "usage: scripts/run-tests.sh TEST_DIR TAK" >&2
    exit 2
fi
test_dir=$1
export TAK=$2
export TAK_SHARED=${TAK_SHARED:-$(cd .. && pwd)/shared}

passed=0
failed=0
failed_programs=()

# run NAME CMD...: runs one program, shows its output when it fails.
run() {
    local name=$1
    shift
    local out rc p f
    out=$("$@" 2>&1)
    rc=$?
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) test.*/\1/p' |
        awk '{s += $1} END {print s + 0}')
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9][0-9]*\) test.*/\1/p' |
        awk '{s += $1} END {print s + 0}')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -eq 0 ] && [ "$f" -eq 0 ]; then
        printf 'PASS %-28s %d cases\n' "$name" "$p"
    else
        printf '%s\n' "$out"
        printf 'FAIL %-28s %d passed, %d failed (exit %d)\n' "$name" "$p" "$f" "$rc"
        failed_programs+=("$name")
    fi
}

# built TARGET: make considers TARGET up to date (it built).
built() { [ -x "$1" ] && ${MAKE:-make} --no-print-directory -q "$1" 2>/dev/null; }

# not_built NAME: records a program that did not build.
not_built() {
    failed=$((failed + 1))
    failed_programs+=("$1")
    printf 'FAIL %-28s did not build\n' "$1"
}

shopt -s nullglob
for source in tests/test_*.c; do
    name=$(basename "$source" .c)
    if built "$test_dir/$name"; then
        run "$name" "$test_dir/$name"
    else
        not_built "$name"
    fi
done
if built "$TAK"; then
    for script in tests/cli/*.sh; do
        run "cli/$(basename "$script" .sh)" bash "$script"
    done
else
    not_built "$TAK (the CLI tests need it)"
fi

if [ ${#failed_programs[@]} -gt 0 ]; then
    echo "failing: ${failed_programs[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
