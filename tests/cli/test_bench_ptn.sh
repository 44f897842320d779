#!/usr/bin/env bash
# test_bench_ptn.sh: bench/ptn.py, the PTN reader of bench/'s scripts, through
# the two scripts no other test covers: when-decided.py (when the games we
# lost were decided, where the clock went, what Tiltak thought of our moves)
# and tiltak-judge.py (positions cut from games, judged by a TEI engine), and
# its answer to files it cannot read.
. "$(dirname "$0")/lib/common.sh"
bench() { # SCRIPT ARGS...
    python3 "bench/$1" "${@:2}" >"$scratch/out" 2>"$scratch/err"
    rc=$?
    out=$(cat "$scratch/out")
    err=$(cat "$scratch/err")
}

# Racetrack's form: book moves, then each engine move with its comment
# "{score from White's side/depth seconds}"; ours is the tak-* path.
rt() { # WHITE BLACK RESULT MOVES
    printf '[Player1 "%s"]\n[Player2 "%s"]\n[Size "5"]\n[Result "%s"]\n\n%s %s\n\n' "$1" "$2" "$3" "$4" "$3"
}
M='1. a1 e5 2. c3 c2 3. d3 {%s/5 0.50s} b2 {%s/6 0.60s} 4. d2 {%s/5 0.40s} b3 {%s/7 0.70s} 5. d1 {%s/5 0.30s} b1 {%s/7 0.20s}'
# Lost as White: Tiltak (Black) sure from ply 7 (ours -0.9 then) and from ply 5 (ours -0.3).
# Lost as Black: Tiltak (White) sure from ply 8 (ours -0.8) and from ply 4 (ours -0.2).
# A won game counts only for the clock, the signs and the moves.
{
    rt /x/tak-a /x/tei 0-R "$(printf "$M" 0.1 -0.2 -0.3 -0.6 -0.9 -0.9)"
    rt /x/tak-a /x/tei 0-F "$(printf "$M" 0.2 -0.6 -0.3 -0.6 -0.5 -0.4)"
    rt /x/tei /x/tak-a R-0 "$(printf "$M" 0.4 0.2 0.3 0.1 0.9 0.8)"
    rt /x/tei /x/tak-a R-0 "$(printf "$M" 0.7 0.2 0.6 0.1 0.9 0.8)"
    rt /x/tak-a /x/tei R-0 '1. a1 e5 2. c3 c2 3. d3 {0.1/5 0.50s} b2 {-0.8/6 0.60s}'
} >"$scratch/rt.ptn"
bench when-decided.py "$scratch/rt.ptn"
expect_rc "when-decided" 0
expect_eq "when-decided: lost as White" "$(sed -n 1p <<<"$out")" \
    "5x5, ours White: 2 lost games; Tiltak sure at ply 6 (quartiles 4-8) of 10; by ply 20 in 100%; our own score then -0.60"
expect_eq "when-decided: lost as Black" "$(sed -n 2p <<<"$out")" \
    "5x5, ours Black: 2 lost games; Tiltak sure at ply 6 (quartiles 3-9) of 10; by ply 20 in 100%; our own score then -0.50"
# Ours: 3 + 3 + 3 + 3 + 1 moves, 5.9 s; Tiltak's 6.0 s.
bench when-decided.py --clock "$scratch/rt.ptn"
expect_eq "when-decided --clock" "$out" "ours   moves 1-10: 0.45 s (13)
Tiltak moves 1-10: 0.46 s (13)"
# Ours: 9 scores of 0.15 or more in the four decisive games, all but the
# second game's +0.2 naming the winner.
bench when-decided.py --signs "$scratch/rt.ptn"
expect_eq "when-decided --signs" "$out" "5x5 plies 0-19: ours 0.89 (9)  Tiltak 0.92 (13)"
bench when-decided.py --moves "$scratch/rt.ptn"
expect_match "when-decided --moves: our edge flats" "$out" '^flat edge +\+0\.050  50% \(   2\)'

# tiltak-judge.py cuts positions from games with build/tak replay, from the
# empty board and from a TPS with Black to move ("2. --"), and has each
# engine and the judge (here our own engine) search them.
printf '#!/bin/sh\nexec "%s" tei\n' "$(cd "$(dirname "$TAK")" && pwd)/$(basename "$TAK")" >"$scratch/judge"
chmod +x "$scratch/judge"
cat >"$scratch/tj.ptn" <<'PTN'
[Size "5"]
[Komi "2"]

1. a1 e5 2. c3 {0.1/4 0.2s} c2 3. d3 b2 4. d2 b3 5. d1 b1 0-R

[Size "5"]
[Komi "2"]
[TPS "x5/x5/x5/x5/2,x3,1 2 2"]

2. -- c3 3. c2 d3 4. b2 1-0
PTN
judge() { TILTAK="$scratch/judge" bench tiltak-judge.py --ours-ms 20 --judge-ms 20 "$@"; }
judge --plies 1-3 "$scratch/tj.ptn" a="$TAK" b="$TAK"
expect_rc "tiltak-judge" 0
expect_eq "tiltak-judge: plies 1-3 of both games" "$(sed -n 1p <<<"$out")" "6 positions, ours 20 ms a move, Tiltak judges 20 ms"
expect_match "tiltak-judge: a row for each engine" "$out" '^b +-?[0-9.]+ +[0-9]+% +[0-9]+% +[0-9]+%$'
expect_match "tiltak-judge: the difference" "$out" '^a minus b: .* \(95%, 6 positions\)$'
# Plies 3-9: seven of the first game, one of the second (ply 3: after its
# fourth and last ply the game is done, so nothing is cut there).
judge --plies 3-9 "$scratch/tj.ptn" a="$TAK"
expect_eq "tiltak-judge: up to each game's last ply" "$(sed -n 1p <<<"$out")" "8 positions, ours 20 ms a move, Tiltak judges 20 ms"

# Bad input: one line naming the file, the line and what is wrong.
printf '[Size "5"]\n\n1. a1 e5\n2. c3 zz9 R-0\n' >"$scratch/bad.ptn"
bench when-decided.py "$scratch/bad.ptn"
expect_rc "a word that is no move" 1
expect_eq "a word that is no move: where" "$err" "when-decided.py: $scratch/bad.ptn:4: 'zz9' is no move, move number or result"
printf '[Size "5"]\n\n1. a1 e5 {a note\nover lines\n' >"$scratch/open.ptn"
judge "$scratch/open.ptn" a="$TAK"
expect_eq "a comment never closed" "$err" "tiltak-judge.py: $scratch/open.ptn:4: a comment opened with '{' is never closed"
bench when-decided.py "$scratch/none.ptn"
expect_eq "a missing file" "$err" "when-decided.py: $scratch/none.ptn: No such file or directory"

# Files as other tools write them: a byte-order mark, CRLF, a comment over
# two lines, marks on moves, move numbers with extra dots.
printf '\xef\xbb\xbf[Player1 "/x/tak-a"]\r\n[Player2 "/x/tei"]\r\n[Size "5"]\r\n[Result "0-R"]\r\n\r\n1... a1 e5 2. c3 c2 3. d3'"'"' {0.1/5\r\n0.50s} b2! {-0.6/6 0.60s} 4. d2? {-0.7/5 0.40s} b3 {-0.6/7 0.70s} 0-R\r\n' >"$scratch/crlf.ptn"
bench when-decided.py --clock "$scratch/crlf.ptn"
expect_eq "CRLF, a byte-order mark, marks, a comment over two lines" "$out" "ours   moves 1-10: 0.45 s (2)
Tiltak moves 1-10: 0.65 s (2)"

finish
