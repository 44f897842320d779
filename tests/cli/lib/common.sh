# common.sh: sourced by the tests/cli/*.sh scripts. Runs the `tak` command
# under test ($TAK, default build/tak) and counts checks, ending with the
# same summary lines cmocka prints, so scripts/run-tests.sh counts both kinds
# of test the same way.
set -u
TAK=${TAK:-build/tak}
TAK_SHARED=${TAK_SHARED:-../shared}
passed=0
failed=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

pass() { passed=$((passed + 1)); }

# fail NAME DETAIL...: records a failed check and says why.
fail() {
    failed=$((failed + 1))
    echo "[  FAILED  ] $1"
    shift
    local line
    for line in "$@"; do echo "    $line"; done
}

# tak ARGS...: runs the command under test; sets $out, $err (text) and $rc.
tak() {
    "$TAK" "$@" >"$scratch/out" 2>"$scratch/err"
    rc=$?
    out=$(cat "$scratch/out")
    err=$(cat "$scratch/err")
}

# tak_in INPUT ARGS...: as tak, with INPUT on stdin.
tak_in() {
    local input=$1
    shift
    printf '%s' "$input" | "$TAK" "$@" >"$scratch/out" 2>"$scratch/err"
    rc=$?
    out=$(cat "$scratch/out")
    err=$(cat "$scratch/err")
}

# expect_rc NAME CODE: the last run exited with CODE.
expect_rc() {
    if [ "$rc" -eq "$2" ]; then pass; else fail "$1" "exit $rc, want $2" "stderr: $err"; fi
}

# expect_eq NAME GOT WANT
expect_eq() {
    if [ "$2" = "$3" ]; then pass; else fail "$1" "got:  $2" "want: $3"; fi
}

# expect_match NAME TEXT REGEX (extended)
expect_match() {
    if printf '%s\n' "$2" | grep -Eq -- "$3"; then
        pass
    else
        fail "$1" "no line matches /$3/ in:" "$(printf '%s\n' "$2" | head -n 20)"
    fi
}

# expect_run NAME CODE LAST ARGS...: runs tak ARGS; checks the exit code and
# that the last line of stdout is LAST.
expect_run() {
    local name=$1 code=$2 last=$3
    shift 3
    tak "$@"
    if [ "$rc" -ne "$code" ]; then
        fail "$name" "tak $* exited $rc, want $code" "stderr: $err"
    elif [ "$(printf '%s\n' "$out" | tail -n 1)" != "$last" ]; then
        fail "$name" "tak $*: last line '$(printf '%s\n' "$out" | tail -n 1)', want '$last'"
    else
        pass
    fi
}

# finish: prints the summary and exits 1 on any failure.
finish() {
    echo "[==========] $((passed + failed)) test(s) run."
    echo "[  PASSED  ] $passed test(s)."
    if [ "$failed" -gt 0 ]; then
        echo "[  FAILED  ] $failed test(s)."
        exit 1
    fi
    exit 0
}
