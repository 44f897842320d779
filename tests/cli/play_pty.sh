#!/usr/bin/env bash
# play_pty.sh: `tak play` through a pseudo-terminal (tests/cli/lib/pty_drive.py),
# as a person sees it: Unicode board and colours, readline prompts, the save
# offer at the end. A road win, a flat win, an illegal move and its message,
# undo against the engine, save and load, a two-game match with its scores,
# and wager games where Tak is called (by a human and by the engine).
# Low engine levels and --seed keep every game the same from run to run.
. "$(dirname "$0")/lib/common.sh"

drive=$(dirname "$0")/lib/pty_drive.py
if ! command -v python3 >/dev/null 2>&1; then
    fail "python3 is needed (scripts/setup.sh installs it)"
    finish
fi

# pty STEPS ARGS...: runs tak ARGS in a terminal, following STEPS (one
# "expect REGEX" / "send TEXT" a line); sets $out (ANSI removed), $raw and $rc.
pty() {
    local steps=$1
    shift
    printf '%s\n' "$steps" | python3 "$drive" --raw "$scratch/raw" -- "$TAK" "$@" >"$scratch/out" 2>&1
    rc=$?
    out=$(cat "$scratch/out")
    raw=$(cat "$scratch/raw" 2>/dev/null)
}

# A road win between two humans on 3x3, saved at the end for tak replay.
pty "expect move 1>
send c3
expect move 1>
send a3
expect move 2>
send a1
expect move 2>
send c2
expect move 3>
send a2
expect File name
send $scratch/road.ptn
expect Saved" play --size 3 --human-vs-human
expect_rc "road: every step seen" 0
expect_match "road: box drawing" "$out" '┌─────┬─────┬─────┐'
expect_match "road: White's flats drawn" "$out" '^ 1 │ ○ '
expect_match "road: colours at a terminal" "$raw" $'\e\\[1;33m'
expect_match "road: Tak warning" "$out" 'Tak! White threatens to complete a road'
expect_match "road: result" "$out" 'White wins by road. Result: R-0'
expect_match "road: saved" "$out" 'Saved the game \(5 plies\)'
tak replay "$scratch/road.ptn"
expect_rc "road: tak replay reads the saved game" 0
expect_eq "road: replayed result" "$(printf '%s\n' "$out" | tail -n 1)" "R-0"
expect_match "road: PTN names the players" "$(cat "$scratch/road.ptn")" '\[Player1 "Player 1"\]'

# A flat win: White's reserve of 3 stones runs out, 3 flats to 2.
pty "expect move 1>
send a1
expect move 1>
send c3
expect move 2>
send b1
expect move 2>
send a2
expect move 3>
send c1
expect File name
send" play --size 3 --stones 3 --human-vs-human
expect_rc "flats: every step seen" 0
expect_match "flats: result" "$out" 'White wins on flats .*Result: F-0'

# An illegal move and its message, then undo against the engine.
pty "expect move 1>
send c3
expect move 2>
send c3
expect Not a legal move
send 2a1>
expect move 2>
send undo
expect Took back 2 moves
expect move 1>
send tps
expect 1 1
send quit" play --size 5 --seed 3 --level 2
expect_rc "illegal/undo: every step seen" 0
expect_match "illegal: occupied square" "$out" "Not a legal move 'c3': .*c3"
expect_match "illegal: suggestion" "$out" 'There is no legal move with c3 now|Legal moves with c3'
expect_match "illegal: bad stack move" "$out" "Not a legal move '2a1>'"
expect_match "engine shows its move and evaluation" "$out" 'Black \(Engine\) plays [a-e][1-5] +\[eval .* for Black, depth [0-9]+\]'
expect_match "undo: back to the start" "$out" '^x5/x5/x5/x5/x5 1 1$'

# Save in the middle of a game, then load it in a new session.
pty "expect move 1>
send a1
expect move 1>
send e5
expect move 2>
send c3
expect move 2>
send save $scratch/mid.ptn
expect Saved
send quit" play --size 5 --human-vs-human
expect_rc "save: every step seen" 0
expect_match "save: quit without asking once saved" "$out" 'Game abandoned after 3 plies'
pty "expect move 1>
send load $scratch/mid.ptn
expect Loaded
expect move 2>
send tps
expect 2 2
send quit" play --size 5 --human-vs-human
expect_rc "load: every step seen" 0
expect_match "load: the position" "$out" '^x4,1/x5/x2,1,x2/x5/2,x4 2 2$'

# A two-game match of engines, with the rule book's scores.
pty "expect Game 1 of 2
expect (File name|Game 1 of 2: )
expect === Game 2 of 2
expect Final score" play --match 2 --engine-vs-engine --size 3 --level 2 --seed 11 --delay 0 --save "$scratch/m.ptn"
expect_rc "match: every step seen" 0
expect_match "match: first player drawn" "$out" 'moves first in game 1; then players alternate'
expect_match "match: running table" "$out" '^Score after 2 games: Engine A [0-9]+, Engine B [0-9]+'
expect_match "match: final score" "$out" '^Final score after 2 games: '
first=$(printf '%s\n' "$out" | sed -n 's/.*: \(Engine [AB]\) plays White.*/\1/p' | head -n 1)
second=$(printf '%s\n' "$out" | sed -n 's/.*: \(Engine [AB]\) plays White.*/\1/p' | sed -n 2p)
if [ -n "$first" ] && [ "$first" != "$second" ]; then pass; else fail "match: players alternate" "$first / $second"; fi
expect_match "match: games saved" "$(ls "$scratch")" 'm-2\.ptn'
# The saved games open in other tools: tak replay reads them.
tak replay "$scratch/m-1.ptn"
expect_rc "match: game 1 replays" 0

# The wagering rules between two humans: bids, a Tak called and paid, the pot.
pty "expect Player 1, your bid
send 3
expect Player 2, your bid
send 1
expect move 1>
send c3
expect move 1>
send a3
expect move 2>
send a1
expect Call Tak\?
send y
expect pay 2 coins
send y
expect move 2>
send b2
expect move 3>
send a2
expect File name
send" play --size 3 --human-vs-human --wager
expect_rc "wager: every step seen" 0
expect_match "wager: high bidder first" "$out" 'Player 1 bids highest, moves first and pays 3 into the pot; the pot is 23'
expect_match "wager: Tak called" "$out" 'White \(Player 1\) calls Tak!'
expect_match "wager: penalty paid" "$out" 'Black \(Player 2\) pays 2 coins; the pot is 25'
expect_match "wager: pot and bonus" "$out" 'Player 1 takes the pot of 25 coins and 7 more from Player 2'
expect_match "wager: balances" "$out" 'Coins: Player 1 \+19, Player 2 -19'

# Nobody pays twice in a row: Black blocks, White threatens again; free call.
pty "expect Player 1, your bid
send 5
expect Player 2, your bid
send 0
expect move 1>
send e5
expect move 1>
send a5
expect move 2>
send a4
expect move 2>
send b3
expect move 3>
send a3
expect move 3>
send c3
expect move 4>
send a2
expect Call Tak\?
send y
expect pay 2 coins
send y
expect move 4>
send a1
expect move 5>
send b2
expect calling it costs Black nothing
expect move 5>
send quit
expect Quit anyway
send y" play --size 5 --human-vs-human --wager
expect_rc "wager twice: every step seen" 0
expect_match "wager twice: second call free" "$out" 'nobody pays twice in a row'

# Against the engine: it bids, and calls Tak when it threatens a road.
pty "expect your bid
send 0
expect move 1>
send c3
expect calls Tak!
expect pay 2 coins
send y
expect move 2>
send resign
expect File name
send" play --size 3 --wager --seed 2 --level 3
expect_rc "wager engine: every step seen" 0
expect_match "wager engine: the engine bids" "$out" '^Engine bids [0-9]+\.'
expect_match "wager engine: the engine calls Tak" "$out" 'White \(Engine\) calls Tak!'
expect_match "wager engine: you pay" "$out" 'Black \(You\) pays 2 coins; the pot is 34'
expect_match "wager engine: the engine takes the pot" "$out" 'Engine takes the pot of 34 coins and 8 more from You'
finish
