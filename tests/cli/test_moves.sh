#!/usr/bin/env bash
# test_moves.sh: `tak moves TPS` lists the legal moves in PTN, one a line.
. "$(dirname "$0")/lib/common.sh"

tak moves "x3/x3/x3 1 1"
expect_rc "start 3x3" 0
expect_eq "start 3x3 moves" "$(printf '%s\n' "$out" | sort | tr '\n' ' ')" \
    "a1 a2 a3 b1 b2 b3 c1 c2 c3 "

# White's second turn on 5x5: a flat, a wall or the capstone on each of 23
# empty squares, and two moves of White's one stone on e1.
tak moves "2,x4/x5/x5/x5/x4,1 1 2"
expect_rc "second turn" 0
expect_eq "second turn count" "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 71
expect_match "a flat" "$out" '^b2$'
expect_match "a wall" "$out" '^Sb2$'
expect_match "a capstone" "$out" '^Cb2$'
expect_match "the stone moves" "$out" '^e1[+<]$'
expect_eq "no duplicates" "$(printf '%s\n' "$out" | sort | uniq -d)" ""

# The counts agree with perft depth 1 on a position full of stacks.
tps='x2,2,x,2/x,12,x,12,x/212,x2,2121C,x/x,1,112221,1,1/x5 2 21'
tak moves "$tps"
expect_eq "middlegame count" "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 85
expect_match "long spread written with drops" "$out" '^[2-5][a-e][1-5][-+<>][1-9]+$'

# A finished game has no moves.
tak moves "1,1,1,1,1/2,2,2,2,x/x5/x5/x5 2 5"
expect_rc "finished game" 0
expect_eq "finished game lists nothing" "$out" ""

expect_run "bad TPS" 1 "" moves "x3/x3 1 1"
expect_match "bad TPS message" "$err" "TPS"
expect_run "no TPS" 2 "" moves
expect_run "two TPS" 2 "" moves "x3/x3/x3 1 1" "x3/x3/x3 1 1"
expect_run "unknown option" 2 "" moves --all "x3/x3/x3 1 1"
finish
