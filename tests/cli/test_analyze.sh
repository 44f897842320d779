#!/usr/bin/env bash
# test_analyze.sh: `tak analyze` on a position with a road in one, on a real
# game (every move listed, marks and a summary per player), and on bad input.
. "$(dirname "$0")/lib/common.sh"

tak analyze --depth 3 "x5/x5/2,2,2,x2/x5/1,1,1,1,x 1 4"
expect_rc "road in one: exit 0" 0
expect_match "road in one: best move" "$out" '^best move: e1$'
expect_match "road in one: a win in 1" "$out" '^evaluation: #1 '
expect_match "road in one: depth lines" "$out" '^depth +1 '

game=$TAK_SHARED/games/real/0006_s5.ptn
tak analyze --depth 2 --game "$game"
expect_rc "game: exit 0" 0
plies=$(printf '%s\n' "$out" | sed -n 's/.*, \([0-9]*\) plies$/\1/p')
moves=$(printf '%s\n' "$out" | grep -cE '^ *[0-9]+\.(\.\.| ) ')
expect_eq "game: one line per ply" "$moves" "$plies"
expect_match "game: summary" "$out" ': [0-9]+ mistakes \(\?\), [0-9]+ blunders \(\?\?\)$'
expect_match "game: result" "$out" '^result: '

tak analyze --depth 2 "x5/x5/x5/x5/x7 1 1"
expect_rc "bad TPS: exit 1" 1
tak analyze --depth 2
expect_rc "nothing to analyze: exit 2" 2
tak analyze --depth 2 --game /nonexistent.ptn
expect_rc "missing game: exit 1" 1

finish
