#!/usr/bin/env bash
# test_play.sh: `tak play` driven through stdin (a pipe, so the board is plain
# ASCII and each line read is echoed): a whole game between two humans, the
# in-game commands, bad moves with their reasons, the engine as opponent, and
# the options. tests/cli/play_pty.sh drives it through a terminal.
. "$(dirname "$0")/lib/common.sh"

# Two humans on 3x3: White's flats on a3 (placed by Black), a1 and a2 make
# a road from rank 1 to rank 3.
tak_in $'c3\na3\na1\nc2\na2\n' play --size 3 --human-vs-human
expect_rc "road game exit" 0
expect_match "road game result" "$out" 'Result: R-0$'
expect_match "road game: board drawn with rank labels" "$out" '^ 3 \| W +\| +\| B +\| 3$'
expect_match "road game: last move marked" "$out" '^ 2 \|\*W +\|'
expect_match "road game: file labels" "$out" '^ +a +b +c *$'
expect_match "road game: flat count" "$out" '^White Player 1 +7 stones, 0 capstones in reserve; +3 flats on top$'

# Commands: help, tps, undo (the other player accepts), a bad move, moves, resign.
tak_in $'help\nc3\na3\ntps\nundo\ny\ntps\nz9\na3 b3\nc3\nmoves\nmoves b2\nmoves z1\nresign\n' \
    play --size 3 --human-vs-human
expect_rc "commands exit" 0
expect_match "help lists the commands" "$out" 'undo'
expect_match "tps after two plies" "$out" '^1,x,2/x3/x3 1 2$'
expect_match "undo asks the other player" "$out" "White, do you accept taking back Black's move a3\?"
expect_match "tps after undo" "$out" '^x2,2/x3/x3 2 1$'
expect_match "bad move explained" "$out" "Not a legal move 'z9': .*off the 3x3 board"
expect_match "occupied square refused" "$out" "Not a legal move 'c3': .*c3"
expect_match "suggestion for an occupied square" "$out" "There is no legal move with c3 now"
expect_match "moves listed" "$out" '^([a-c][1-3] ){7}[a-c][1-3]$'
expect_match "moves counted" "$out" '^8 legal moves\.$'
expect_match "moves of a square" "$out" '^1 legal move with b2\.$'
expect_match "moves of a bad square" "$out" "'z1' is not a square"
expect_match "Black resigns" "$out" 'Result: 1-0$'

# A takeback refused.
tak_in $'a1\nundo\nn\ntps\nquit\ny\n' play --size 3 --human-vs-human
expect_match "takeback refused" "$out" 'Takeback refused'
expect_match "position kept" "$out" '^x3/x3/2,x2 2 1$'

# Unknown words, and quitting an unsaved game asks first.
tak_in $'dance\na1\nquit\nn\nquit\ny\n' play --size 3 --human-vs-human
expect_match "unknown command" "$out" "Unknown command 'dance'"
expect_match "quit asks" "$out" 'The game is not saved'
expect_match "end: no result" "$out" 'Result: \*$'

# End of input without a result.
tak_in $'a1\n' play --size 4 --human-vs-human
expect_rc "end of input exit" 0
expect_match "end of input: no result" "$out" 'Result: \*$'

# Komi is shown on Black's line, with the total.
tak_in $'quit\n' play --size 5 --komi 1.5 --human-vs-human
expect_match "komi shown" "$out" '\+ 1\.5 komi = 1\.5$'

# The engine (Black by default; White moves first).
tak_in $'c3\nquit\n' play --size 3 --seed 7 --level 1
expect_rc "engine game exit" 0
expect_match "engine replies" "$out" '^Black \(Engine\) plays [a-c][1-3]$'
expect_match "default is you against the engine" "$out" 'You play White, Engine plays Black \(engine level 1\)'
tak_in $'quit\n' play --size 4 --color black --seed 7 --level 1
expect_match "engine moves first as White" "$out" '^White \(Engine\) plays [a-d][1-4]$'
# Black can complete a road on rank 3 with c3, and must take it.
for level in 1 5; do
    tak_in '' play --tps "2,2,x/x3/1,1,x 2 3" --seed 1 --level "$level"
    expect_match "engine wins by road (level $level)" "$out" 'Result: 0-R$'
done
# White threatens c3; Black cannot win at once, so it blocks c3.
for seed in 1 2 3; do
    tak_in $'quit\n' play --tps "1,1,x/x3/2,x,x 2 3" --seed "$seed" --level 3
    expect_match "engine blocks the road (seed $seed)" "$out" '^Black \(Engine\) plays S?c3$'
done
# Undo against the engine takes back its reply and your move.
tak_in $'c3\nundo\ntps\nquit\n' play --size 3 --seed 5 --level 1
expect_match "undo against the engine" "$out" '^x3/x3/x3 1 1$'
# A hint, and a draw offer the engine declines at the start of a 3x3 game
# (a first-player win).
tak_in $'hint\nquit\n' play --size 3 --seed 5 --level 2
expect_match "hint" "$out" '^Hint: [a-c][1-3] \(eval .* for White\)$'

# Engine against engine, to the end.
tak play --engine-vs-engine --size 3 --level 2 --seed 4
expect_rc "engine vs engine exit" 0
expect_match "engine vs engine result" "$out" 'Result: (R-0|0-R|F-0|0-F|1/2-1/2)$'

# The no-pass rule off: lifting a stack and putting it back is a pass.
tak_in $'a1\nc3\n1c3\ntps\nquit\ny\n' play --size 3 --human-vs-human --allow-pass
expect_match "pass allowed" "$out" '^x2,1/x3/2,x2 2 2$'
tak_in $'a1\nc3\n1c3\nquit\ny\n' play --size 3 --human-vs-human
expect_match "pass refused by the no-pass rule" "$out" "Not a legal move '1c3'"

# Game types and custom reserves.
tak_in $'quit\n' play --game-type childrens --human-vs-human
expect_match "children's game: 4x4, 15 stones, no capstone" "$out" '^White Player 1 +15 stones, 0 capstones'
tak_in $'quit\n' play --stones 12 --capstones 2 --human-vs-human
expect_match "custom reserves" "$out" '^Black Player 2 +12 stones, 2 capstones'

# Options.
expect_run "bad size" 1 "" play --size 2
expect_run "bad komi" 1 "" play --komi 0.3
expect_run "bad TPS" 1 "" play --tps "x3/x3 1 1"
expect_run "bad colour" 2 "" play --color green
expect_run "colour with two humans" 2 "" play --human-vs-human --color black
expect_run "size and TPS" 2 "" play --size 4 --tps "x3/x3/x3 1 1"
expect_run "size and game type" 2 "" play --size 4 --game-type courtly
expect_run "bad game type" 2 "" play --game-type chess
expect_run "bad level" 2 "" play --level 11
expect_run "bad match" 2 "" play --match 0
expect_run "too many pieces" 1 "" play --stones 64 --capstones 2
expect_run "unknown option" 2 "" play --fast
finish
