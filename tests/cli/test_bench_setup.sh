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

# A candidate: copied into the output folder under its own name; the
# openings racetrack's, as OPENINGS says, copied without comments.
res=$( (OPENINGS=$scratch/openings OURS_BIN=$scratch/cand
    tiltak_setup test 5 "$scratch/out" && echo "$ours|$book") 2>&1)
ours_copy=${res%%|*}
if [[ $ours_copy == "$scratch/out/tak-cand-"* ]] && cmp -s "$ours_copy" "$scratch/cand" &&
    cmp -s "${res#*|}" "$scratch/openings/5s_4ply_balanced_openings.txt"; then
    pass
else
    fail "setup copies OURS_BIN" "$res"
fi
# Without OPENINGS: the held-out openings of the size, without the line
# saying how they were made.
res=$( (unset OPENINGS; OURS_BIN=$scratch/cand tiltak_setup test 4 "$scratch/out" && echo "$book") 2>&1)
if [ -f "$res" ] && diff -q "$res" <(grep -v '^#' data/heldout/4.txt) >/dev/null && [ "$(wc -l <"$res")" -eq 100 ]; then
    pass
else
    fail "setup takes the held-out openings" "$res"
fi

# setup_fails NAME BIN SIZE REASON: the setup exits 2 and says REASON.
setup_fails() {
    local res rc
    res=$( (OPENINGS=$scratch/openings OURS_BIN=$2 tiltak_setup test "$3" "$scratch/out") 2>&1)
    rc=$?
    if [ "$rc" -eq 2 ] && [[ $res == *"$4"* ]]; then
        pass
    else
        fail "$1" "rc=$rc" "$res"
    fi
}

# A candidate that is not there, and a size with no openings.
setup_fails "setup with a missing OURS_BIN" "$scratch/none" 5 "OURS_BIN $scratch/none is not an executable"
setup_fails "setup with no openings of the size" "$scratch/cand" 6 "no openings for size 6"

finish
