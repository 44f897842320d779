#!/usr/bin/env bash
# run-tests.sh TEST_DIR TAK: runs every cmocka test program in TEST_DIR and
# every tests/cli/*.sh (with TAK as the command under test), from the
# repository root, going on after a failure. Counts test cases from the
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

shopt -s nullglob
for prog in "$test_dir"/test_*; do
    [ -x "$prog" ] || continue
    case "$prog" in *.d | *.o) continue ;; esac
    run "$(basename "$prog")" "$prog"
done
for script in tests/cli/*.sh; do
    run "cli/$(basename "$script" .sh)" bash "$script"
done

if [ ${#failed_programs[@]} -gt 0 ]; then
    echo "failing: ${failed_programs[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
