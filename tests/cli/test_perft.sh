#!/usr/bin/env bash
# test_perft.sh: `tak perft` against the published counts of
# $TAK_SHARED/spec/perft.md at shallow depths, its --divide and --full
# forms, and its errors.
. "$(dirname "$0")/lib/common.sh"
spec=$TAK_SHARED/spec/perft.md

# Start positions: "size: depth=count ..." from the table, to depth 3.
expect_run "start 3x3 d0" 0 1 perft --size 3 0
expect_run "start 3x3 d4" 0 17792 perft --size 3 4
expect_run "start 4x4 d3" 0 7440 perft --size 4 3
expect_run "start 5x5 d3" 0 43320 perft --size 5 3
expect_run "default size is 5" 0 600 perft 2
expect_run "start 6x6 d3" 0 132720 perft --size 6 3
expect_run "start 7x7 d3" 0 339696 perft --size 7 3
expect_run "start 8x8 d3" 0 764064 perft --size=8 3
expect_run "start 6x6 d3 --full" 0 132720 perft --full --size 6 3

# Every position row of perft.md at depths 1 and 2 (bulk and full), and
# depth 3 where the row has it (bulk).
if [ ! -r "$spec" ]; then
    fail "read $spec" "cannot read the shared perft table (set TAK_SHARED)"
else
    rows=0
    while IFS=$'\t' read -r tps counts; do
        rows=$((rows + 1))
        IFS=/ read -r d1 d2 d3 _ <<<"$counts"
        expect_run "perft d1 $tps" 0 "$(echo $d1)" perft --tps "$tps" 1
        expect_run "perft d2 $tps" 0 "$(echo $d2)" perft --tps "$tps" 2
        expect_run "perft --full d2 $tps" 0 "$(echo $d2)" perft --full --tps "$tps" 2
        if [ -n "$(echo ${d3:-})" ]; then
            expect_run "perft d3 $tps" 0 "$(echo $d3)" perft --tps "$tps" 3
        fi
    done < <(sed -n 's/^| [^|]* | `\([^`]*\)` | \([0-9 \/]*\) |$/\1\t\2/p' "$spec")
    expect_eq "perft.md has its 9 positions" "$rows" 9
fi

# --divide: one "MOVE COUNT" line per legal move, then the total alone.
tak perft --divide --size 5 2
expect_rc "divide exit" 0
expect_eq "divide lines" "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 26
expect_eq "divide rows are 'square 24'" \
    "$(printf '%s\n' "$out" | head -n 25 | grep -Ec '^[a-e][1-5] 24$')" 25
expect_eq "divide total last" "$(printf '%s\n' "$out" | tail -n 1)" 600
expect_match "divide a1 row" "$out" '^a1 24$'
tps='x5/x2,2S,x2/x2,121,x2/x5/x5 1 4'
tak perft --divide --tps "$tps" 3
expect_eq "divide sums to total" \
    "$(printf '%s\n' "$out" | head -n -1 | awk '{s += $2} END {print s}')" 461800
expect_eq "divide total" "$(printf '%s\n' "$out" | tail -n 1)" 461800
expect_match "divide lists a spread" "$out" '^c3[-+<>] [0-9]+$'
tak perft --divide --full --tps "$tps" 2
expect_eq "divide --full total" "$(printf '%s\n' "$out" | tail -n 1)" 6155

# Errors: bad input exits 1 and says what; wrong usage exits 2.
expect_run "bad TPS" 1 "" perft --tps "x5/x5 1 1" 2
expect_match "bad TPS named" "$err" "bad TPS"
expect_run "size 9" 1 "" perft --size 9 2
expect_match "size named" "$err" "size"
expect_run "no depth" 2 "" perft --size 5
expect_run "depth not a number" 2 "" perft two
expect_run "negative depth" 2 "" perft -- -1
expect_run "size and tps" 2 "" perft --size 5 --tps "x3/x3/x3 1 1" 1
expect_run "unknown option" 2 "" perft --deep 2
expect_run "--size without value" 2 "" perft --size
expect_run "two depths" 2 "" perft 1 2
finish
