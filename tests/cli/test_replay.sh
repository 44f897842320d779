#!/usr/bin/env bash
# test_replay.sh: `tak replay` on real games, checked against
# $TAK_SHARED/games/real/MANIFEST.tsv (column 7: the result computed from the
# board, column 8: the final TPS), and on broken and doctored files.
. "$(dirname "$0")/lib/common.sh"
real=$TAK_SHARED/games/real
manifest=$real/MANIFEST.tsv

# A sample: the first game of each size and computed result (every kind of
# ending, resignations included), and every 40th game.
if [ ! -r "$manifest" ]; then
    fail "read $manifest" "cannot read the shared games (set TAK_SHARED)"
else
    sample=0
    while IFS=$'\t' read -r file want_result want_tps; do
        sample=$((sample + 1))
        tak replay "$real/$file"
        if [ "$rc" -ne 0 ]; then
            fail "replay $file" "exit $rc" "stderr: $err"
            continue
        fi
        expect_eq "replay $file final TPS" "$(printf '%s\n' "$out" | tail -n 2 | head -n 1)" "$want_tps"
        expect_eq "replay $file result" "$(printf '%s\n' "$out" | tail -n 1)" "$want_result"
    done < <(awk -F'\t' 'NR > 1 && (!seen[$3 " " $7]++ || NR % 40 == 0) {print $1 "\t" $7 "\t" $8}' \
        "$manifest")
    if [ "$sample" -lt 20 ]; then fail "sample size" "only $sample games sampled"; fi
fi

# The result comes from the board, not from the file: a resignation (tag
# 1-0) is not on the board, and a road is a road whatever the tag says.
tak replay "$real/0028_s6.ptn"
expect_eq "resigned game prints *" "$(printf '%s\n' "$out" | tail -n 1)" "*"
cat >"$scratch/resigned.ptn" <<'PTN'
[Size "5"]
[Result "0-1"]

1. a1 e5
2. b1 d5
0-1
PTN
tak replay "$scratch/resigned.ptn"
expect_rc "resignation exit" 0
expect_eq "resignation TPS" "$(printf '%s\n' "$out" | head -n 1)" "x3,2,1/x5/x5/x5/2,1,x3 1 3"
expect_eq "resignation result" "$(printf '%s\n' "$out" | tail -n 1)" "*"
cat >"$scratch/road.ptn" <<'PTN'
[Size "3"]
[Result "1/2-1/2"]

1. c3 a3
2. a1 c2
3. a2
PTN
tak replay "$scratch/road.ptn"
expect_rc "road under a draw tag exit" 0
expect_eq "road under a draw tag" "$(printf '%s\n' "$out" | tail -n 1)" "R-0"

# From stdin, with CRLF line ends; the game is not over.
tak_in "$(printf '[Size "4"]\r\n\r\n1. a1 d4\r\n2. a2 d3\r\n3. a3 d2\r\n')" replay -
expect_rc "stdin exit" 0
expect_eq "stdin TPS" "$(printf '%s\n' "$out" | head -n 1)" "x3,1/1,x2,2/1,x2,2/2,x3 1 4"
expect_eq "stdin result" "$(printf '%s\n' "$out" | tail -n 1)" "*"

# An illegal move: exit 1, and the message says where.
cat >"$scratch/illegal.ptn" <<'PTN'
[Size "5"]

1. a1 e5
2. a1 b2
PTN
tak replay "$scratch/illegal.ptn"
expect_rc "illegal move exit" 1
expect_match "illegal move: file named" "$err" "illegal.ptn"
expect_match "illegal move: line 4" "$err" "line 4"
expect_match "illegal move: the move named" "$err" "a1"
expect_match "illegal move: move number 2" "$err" "(move|Move) 2"
expect_eq "illegal move: nothing on stdout" "$out" ""

# A malformed move.
printf '[Size "5"]\n\n1. a1 e5\n2. b2 z9\n' >"$scratch/malformed.ptn"
tak replay "$scratch/malformed.ptn"
expect_rc "malformed move exit" 1
expect_match "malformed move: line 4" "$err" "line 4"
expect_match "malformed move: names z9" "$err" "z9"

expect_run "missing file" 1 "" replay "$scratch/no-such-file.ptn"
expect_match "missing file named" "$err" "no-such-file.ptn"
expect_run "no FILE" 2 "" replay
expect_run "two FILEs" 2 "" replay a.ptn b.ptn
expect_run "unknown option" 2 "" replay --strict a.ptn

# Branches as PTN Ninja writes them: read and checked; --branch replays one.
printf '[Size "5"]\r\n\r\n1. a1 e5\r\n2. c3 d3\r\n\r\n{2w1}\r\n2. b3 c2\r\n\r\n{2w1/2b1}\r\n2. -- b2\r\n' \
    >"$scratch/branches.ptn"
tak replay "$scratch/branches.ptn"
expect_rc "branches: exit" 0
expect_eq "branches: the main line's end" "$(printf '%s\n' "$out" | head -n 1)" "x4,1/x5/x2,1,2,x/x5/2,x4 1 3"
tak replay --branch 2w1/2b1 "$scratch/branches.ptn"
expect_rc "branches: --branch exit" 0
expect_eq "branches: a branch's end" "$(printf '%s\n' "$out" | head -n 1)" "x4,1/x5/x,1,x3/x,2,x3/2,x4 1 3"
tak replay --branch=2w2 "$scratch/branches.ptn"
expect_rc "branches: no such branch" 1
expect_match "branches: no such branch says so" "$err" "no branch named 2w2"
printf '[Size "5"]\n\n1. a1 e5\n2. c3 d3\n\n{2w1}\n2. b3 b3\n' >"$scratch/bad-branch.ptn"
tak replay "$scratch/bad-branch.ptn"
expect_rc "branches: an illegal move in a branch" 1
expect_match "branches: the message names the branch and line" "$err" "line 7.*branch 2w1, move 2 \(Black\) b3"

finish
