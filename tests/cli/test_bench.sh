#!/usr/bin/env bash
# test_bench.sh: `tak bench --quick` checks its counts and prints the table.
. "$(dirname "$0")/lib/common.sh"

tak bench --quick
expect_rc "bench --quick exit" 0
expect_match "bulk table" "$out" '^Perft with bulk counting'
expect_match "make/unmake table" "$out" '^Perft making and unmaking every leaf'
expect_match "a start position row" "$out" '^  start 6x6 +3 +132,720 +1 +[0-9.]+ +([0-9.]+|-)$'
expect_match "a perft.md row" "$out" '^  6x6 endgame \(online game\) +3 +2,774,593 '
expect_eq "no wrong count" "$(printf '%s\n' "$out" | grep -c WRONG)" 0
expect_eq "two totals" "$(printf '%s\n' "$out" | grep -c '^  total ')" 2
finish
