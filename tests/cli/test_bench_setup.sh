#!/usr/bin/env bash
# test_bench_setup.sh: bench/tiltak-common.sh's setup of a match against
# Tiltak copies the binary to play (build/tak, or OURS_BIN's candidate) and
# finds the openings of the size, or says what is missing.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/../../bench/tiltak-common.sh"

mkdir -p "$scratch/openings"
echo "a1 e5 b1 e4" >"$scratch/openings/5s_4ply_balanced_openings.txt"
printf '#!/bin/sh\necho candidate\n' >"$scratch/cand"
chmod +x "$scratch/cand"

# A candidate: copied into the output folder under its own name.
res=$( (OPENINGS=$scratch/openings OURS_BIN=$scratch/cand
    tiltak_setup test 5 "$scratch/out" && echo "$ours|$book") 2>&1)
ours_copy=${res%%|*}
if [[ $ours_copy == "$scratch/out/tak-cand-"* ]] && cmp -s "$ours_copy" "$scratch/cand" &&
    [ "${res#*|}" = "$scratch/openings/5s_4ply_balanced_openings.txt" ]; then
    pass
else
    fail "setup copies OURS_BIN" "$res"
fi

# A candidate that is not there, and a size with no openings: exit 2, a reason.
res=$( (OPENINGS=$scratch/openings OURS_BIN=$scratch/none tiltak_setup test 5 "$scratch/out") 2>&1)
rc=$?
if [ "$rc" -eq 2 ] && [[ $res == *"OURS_BIN $scratch/none is not an executable"* ]]; then
    pass
else
    fail "setup with a missing OURS_BIN" "rc=$rc" "$res"
fi
res=$( (OPENINGS=$scratch/openings OURS_BIN=$scratch/cand tiltak_setup test 6 "$scratch/out") 2>&1)
rc=$?
if [ "$rc" -eq 2 ] && [[ $res == *"no openings for size 6"* ]]; then
    pass
else
    fail "setup with no openings of the size" "rc=$rc" "$res"
fi

finish
