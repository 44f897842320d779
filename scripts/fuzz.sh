#!/usr/bin/env bash
# fuzz.sh [SECONDS]: builds the libFuzzer targets (make fuzz) and runs each
# fuzz/fuzz_<name>.c for SECONDS (default 60), starting from its seeds in
# fuzz/corpus/<name>/ and growing a working corpus in fuzz/corpus-work/<name>/
# (ignored by git). A crash, leak, timeout or out-of-memory input is written
# to fuzz/regressions/<name>/; commit it with the fix so it stays a test.
#
# fuzz.sh --regressions: no fuzzing; runs each target once over every file in
# fuzz/regressions/<name>/ and fuzz/corpus/<name>/, so past findings replay
# as a test. Exits 1 when any target fails.
set -u
cd "$(dirname "$0")/.." || exit 2

usage() {
    echo "usage: scripts/fuzz.sh [SECONDS] | --regressions" >&2
    exit 2
}

mode=fuzz
seconds=60
case $# in
0) ;;
1)
    case $1 in
    --regressions) mode=regressions ;;
    '' | *[!0-9]*) usage ;;
    *) seconds=$1 ;;
    esac
    ;;
*) usage ;;
esac

make fuzz || exit 1

# The longest input worth trying: a TPS fits in 1024 bytes (TAK_TPS_MAX), a
# ply in a few dozen; a PTN game of a few hundred moves in 8 KiB.
max_len() {
    case $1 in
    fuzz_tps) echo 1100 ;;
    fuzz_move) echo 64 ;;
    fuzz_playtak) echo 4096 ;;
    fuzz_ptn) echo 8192 ;;
    *) echo 4096 ;;
    esac
}

failed=()
for src in fuzz/fuzz_*.c; do
    name=$(basename "$src" .c)
    bin=build/fuzz/$name
    if [ ! -x "$bin" ]; then
        echo "$name: $bin was not built" >&2
        failed+=("$name")
        continue
    fi
    if [ "$mode" = regressions ]; then
        # Each file is run once, as a test; none found is fine.
        mapfile -t inputs < <(find "fuzz/regressions/$name" "fuzz/corpus/$name" -type f \
            2>/dev/null | sort)
        if [ ${#inputs[@]} -eq 0 ]; then
            echo "$name: no inputs"
            continue
        fi
        if "$bin" -runs=1 "${inputs[@]}" >"build/fuzz/$name.log" 2>&1; then
            echo "PASS $name: ${#inputs[@]} inputs"
        else
            tail -n 40 "build/fuzz/$name.log"
            echo "FAIL $name (log: build/fuzz/$name.log)"
            failed+=("$name")
        fi
        continue
    fi
    work=fuzz/corpus-work/$name
    found=fuzz/regressions/$name
    mkdir -p "$work" "$found"
    dict=()
    [ -f "fuzz/dict/$name.dict" ] && dict=("-dict=fuzz/dict/$name.dict")
    echo "== $name for ${seconds}s"
    # New inputs go to the first corpus folder (the working one); the seeds
    # and past findings are read too. Findings land in $found by prefix.
    if "$bin" -max_total_time="$seconds" -max_len="$(max_len "$name")" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$found/" "${dict[@]}" \
        "$work" "fuzz/corpus/$name" "$found" >"build/fuzz/$name.log" 2>&1; then
        grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "build/fuzz/$name.log"
    else
        tail -n 40 "build/fuzz/$name.log"
        echo "FAIL $name: see $found/ and build/fuzz/$name.log"
        failed+=("$name")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "failing: ${failed[*]}"
    exit 1
fi
echo "all fuzz targets passed"
