#!/usr/bin/env bash
# test_play.sh: `tak play` driven through stdin: a whole game between two
# humans, the in-game commands, bad moves, and the computer opponent's three
# rules (win by road, block a road, else play on).
. "$(dirname "$0")/lib/common.sh"

# Two humans on 3x3: White's flats on a3 (placed by Black), a1 and a2 make
# a road from rank 1 to rank 3.
tak_in $'c3\na3\na1\nc2\na2\n' play --size 3 --human-vs-human
expect_rc "road game exit" 0
expect_match "road game result" "$out" 'Result: R-0$'
expect_match "road game: board drawn with rank labels" "$out" '^ 3  W +\. +B +3$'
expect_match "road game: file labels" "$out" '^ +a +b +c$'
expect_match "road game: flat count" "$out" '^White: +7 stones, 0 capstones in reserve; +3 flats on top$'

# Commands: help, tps, undo, a bad move, moves, resign.
tak_in $'help\nc3\na3\ntps\nundo\ntps\nz9\na3 b3\nc3\nmoves\nresign\n' play --size 3 --human-vs-human
expect_rc "commands exit" 0
expect_match "help lists the commands" "$out" 'undo'
expect_match "tps after two plies" "$out" '^1,x,2/x3/x3 1 2$'
expect_match "tps after undo" "$out" '^x2,2/x3/x3 2 1$'
expect_match "bad move explained" "$out" "Not a legal move 'z9'"
expect_match "occupied square refused" "$out" "Not a legal move 'c3'"
expect_match "moves listed" "$out" '^([a-c][1-3] ){7}[a-c][1-3]$'
expect_match "moves counted" "$out" '^8 legal moves\.$'
expect_match "Black resigns" "$out" 'Result: 1-0$'

# End of input without a result.
tak_in $'a1\n' play --size 4 --human-vs-human
expect_rc "end of input exit" 0
expect_match "end of input: no result" "$out" 'Result: \*$'

# Komi is shown on Black's line.
tak_in $'quit\n' play --size 5 --komi 1.5 --human-vs-human
expect_match "komi shown" "$out" '\+ 1\.5 komi'

# The computer opponent (Black, White to move first by default).
tak_in $'c3\nquit\n' play --size 3 --seed 7
expect_rc "computer game exit" 0
expect_match "computer replies" "$out" '^Black \(computer\) plays [a-c][1-3]$'
tak_in $'quit\n' play --size 4 --color black --seed 7
expect_match "computer moves first as White" "$out" '^White \(computer\) plays [a-d][1-4]$'
# Black can complete a road on rank 3 with c3, and must take it.
for seed in 1 2 3; do
    tak_in '' play --tps "2,2,x/x3/1,1,x 2 3" --seed "$seed"
    expect_match "computer wins by road (seed $seed)" "$out" 'Result: 0-R$'
done
# White threatens c3; Black cannot win at once, so it blocks c3.
for seed in 1 2 3 4; do
    tak_in $'quit\n' play --tps "1,1,x/x3/2,x,x 2 3" --seed "$seed"
    expect_match "computer blocks the road (seed $seed)" "$out" '^Black \(computer\) plays S?c3$'
done
# Undo against the computer takes back its reply and your move.
tak_in $'c3\nundo\ntps\nquit\n' play --size 3 --seed 5
expect_match "undo against the computer" "$out" '^x3/x3/x3 1 1$'

# Options.
expect_run "bad size" 1 "" play --size 2
expect_run "bad komi" 1 "" play --komi 0.3
expect_run "bad TPS" 1 "" play --tps "x3/x3 1 1"
expect_run "bad colour" 2 "" play --color green
expect_run "colour with two humans" 2 "" play --human-vs-human --color black
expect_run "size and TPS" 2 "" play --size 4 --tps "x3/x3/x3 1 1"
expect_run "unknown option" 2 "" play --fast
finish
