#!/usr/bin/env bash
# test_paired.sh: bench/paired.py pairs two runs' games by the opening they
# started from and the named engine's colour (a TPS tag, or racetrack's
# uncommented book moves), or by Round, and sums the per-game differences.
. "$(dirname "$0")/lib/common.sh"
paired() {
    python3 bench/paired.py "$@" >"$scratch/out" 2>"$scratch/err"
    rc=$?
    out=$(cat "$scratch/out")
    err=$(cat "$scratch/err")
}

# `tak match` style: openings as TPS tags. Run A: old wins one opening as
# White, loses it as Black, draws the other as White; run B (in another
# round order): new wins the first with both colours and draws the other
# as White. Paired: differences 0, +1, 0; by Round: 0, +1, +0.5.
game() { # TPS WHITE BLACK RESULT ROUND
    printf '[Size "5"]\n[TPS "%s"]\n[Result "%s"]\n[Round "%s"]\n[Player1 "%s"]\n[Player2 "%s"]\n\n2. c3 {0.1/4} d3 %s\n\n' \
        "$1" "$4" "$5" "$2" "$3" "$4"
}
T1='x5/x5/x5/x5/2,x3,1 1 2'
T2='x5/x5/x5/x5/1,x3,2 1 2'
{ game "$T1" old ref R-0 1; game "$T1" ref old R-0 2; game "$T2" old ref 1/2-1/2 3; } >"$scratch/a.ptn"
{ game "$T2" ref new 0-1 1; game "$T1" ref new 0-R 2; game "$T1" new ref R-0 3; game "$T2" new ref 1/2-1/2 4; } >"$scratch/b.ptn"
paired old "$scratch/a.ptn" -- new "$scratch/b.ptn"
expect_rc "TPS openings" 0
expect_eq "TPS openings: the sum and its error" "$(head -n 1 <<<"$out")" \
    "3 paired games: old 1.5 points, new 2.5 points; difference +1 +- 1.0 points (one standard error), 1 games changed"
expect_eq "the game without a partner" "$(sed -n 2p <<<"$out")" \
    "left out: 0 and 1 games without a partner, 0 and 0 without a result"

# Racetrack style: book moves, then commented engine moves (run 2's first
# differs from run 1's); a path as the name, given in part; an unfinished
# game is left out.
rt() { # WHITE BLACK BOOK RESULT
    printf '[Player1 "%s"]\n[Player2 "%s"]\n[Size "6"]\n[Result "%s"]\n[Round "9"]\n\n%s e2 {0.2/9 1.1s} e3 {-0.1/12 0.5s}\n4. c4 {0.3/9 1.0s} %s\n\n' \
        "$1" "$2" "$4" "$3" "$4"
}
{ rt /x/tak-aaa /x/tei '1. a1 f6 2. c3 b3 3.' 0-F; rt /x/tei /x/tak-aaa '1. a1 f6 2. c3 b3 3.' F-0; rt /x/tak-aaa /x/tei '1. a6 f1 2. d4 b3 3.' R-0; } >"$scratch/r1.ptn"
{ rt /x/tei /x/tak-bbb '1. a6 f1 2. d4 b3 3.' 0-R; rt /x/tak-bbb /x/tei '1. a1 f6 2. d4 b3 3.' 0-F; rt /x/tak-bbb /x/tei '1. a1 f6 2. c3 b3 3.' F-0; rt /x/tei /x/tak-bbb '1. a1 f6 2. c3 b3 3.' ''; } | sed 's/ e2 {/ e1 {/' >"$scratch/r2.ptn"
paired tak-aaa "$scratch/r1.ptn" -- tak-bbb "$scratch/r2.ptn"
expect_rc "racetrack openings" 0
expect_eq "racetrack openings: the book, not the engines' moves" "$(head -n 1 <<<"$out")" \
    "1 paired games: tak-aaa 0 points, tak-bbb 1 points; difference +1 +- 0.0 points (one standard error), 1 games changed"
expect_eq "racetrack: the unfinished game" "$(sed -n 2p <<<"$out")" \
    "left out: 2 and 2 games without a partner, 0 and 1 without a result"

# By Round: rounds 1-3 of a and 1-3 of b.
paired --by-round old "$scratch/a.ptn" -- new "$scratch/b.ptn"
expect_eq "by round" "$(head -n 1 <<<"$out")" \
    "3 paired games: old 1.5 points, new 3 points; difference +1.5 +- 0.9 points (one standard error), 2 games changed"

# Bad input: a clear error naming the file and line, never a traceback.
paired nobody "$scratch/a.ptn" -- new "$scratch/b.ptn"
expect_rc "a name in no game" 1
expect_match "a name in no game: where and why" "$err" "a.ptn:1: 'nobody' should be exactly one of the players"
{ game "$T1" old ref R-0 1; game "$T1" old ref 0-R 5; } >"$scratch/dup.ptn"
paired old "$scratch/dup.ptn" -- new "$scratch/b.ptn"
expect_match "the same opening twice in a run" "$err" "dup.ptn:10: a second game with the same opening and colour"
game "$T1" ref new 0-R 2 | sed '/Round/d' >"$scratch/noround.ptn"
paired --by-round old "$scratch/a.ptn" -- new "$scratch/noround.ptn"
expect_match "no Round tag" "$err" "noround.ptn:1: no Round tag to pair by"
paired old "$scratch/a.ptn" -- new "$scratch/missing.ptn"
expect_match "a missing file" "$err" "missing.ptn: No such file"
paired old "$scratch/a.ptn" -- tak-bbb "$scratch/r2.ptn"
expect_match "nothing in common" "$err" "no game of one run started as a game of the other"
paired old "$scratch/a.ptn" new "$scratch/b.ptn"
expect_match "no --" "$err" "usage: paired.py"
if [[ $err == *Traceback* ]]; then fail "no traceback" "$err"; else pass; fi
finish
