#!/usr/bin/env bash
# takat.sh: `tak takat` subcommands (perft, moves, solve, layers, play) and a scripted
# terminal game through stdin.
. "$(dirname "$0")/lib/common.sh"

# perft: takat.md's table.
expect_run "perft start 5" 0 9930 takat perft 5
expect_run "perft start 7" 0 957258 takat perft 7
expect_run "perft late 4" 0 194 takat perft --pos "x,11111,2222,x,2222,x,221 2 c2" 4
expect_run "perft no depth" 2 "" takat perft
expect_run "perft bad depth" 2 "" takat perft x
expect_run "perft bad pos" 1 "" takat perft --pos "x,x 1" 2
expect_match "perft bad pos names the column" "$err" "column"

# moves
tak takat moves "1,x,x,x,x,x,x 2 a2"
expect_rc "moves forced drop" 0
expect_eq "moves forced drop list" "$(printf '%s\n' "$out" | tr '\n' ' ')" "b3 a1 c3 b1 c2 "
expect_run "moves bad stack" 1 "" takat moves "1111111,x,x,x,x,x,x 1"
expect_match "moves bad stack message" "$err" "higher than 6"
expect_run "moves bad ko" 1 "" takat moves "x,x,x,x,x,x,x 1 a2"
expect_match "moves bad ko message" "$err" "ko cell a2 is empty"
expect_run "moves no pos" 2 "" takat moves
expect_run "unknown takat command" 2 "" takat dance

# solve: an endgame, completely, with its checks.
tak takat solve --pos "x,11111,2222,x,2222,x,221 2 c2"
expect_rc "solve endgame" 0
expect_match "solve positions" "$out" '^positions: 157611$'
expect_match "solve table check" "$out" '^table check: 0 positions inconsistent$'
expect_match "solve alpha-beta check" "$out" '^alpha-beta check: agrees$'
expect_eq "solve result" "$(printf '%s\n' "$out" | tail -n 1)" "result: a win for the side to move in 1 turn"
# A reduced game whose loss takes 22 turns: the alpha-beta check must find it
# at exactly that depth and not one turn sooner (a search that let a deeper
# search's result reach past its horizon found it at depth 20 as 26 turns).
tak takat solve --stones 1,4
expect_rc "solve 1+4" 0
expect_match "solve 1+4 alpha-beta check" "$out" '^alpha-beta check: agrees$'
expect_eq "solve 1+4 result" "$(printf '%s\n' "$out" | tail -n 1)" "result: a loss for the side to move in 22 turns"
# Too big for the limit: it says how far it got and searches instead.
tak takat solve --max-positions 1000 --depth 6
expect_rc "solve limit" 0
expect_match "solve limit says so" "$out" "position limit reached"
expect_eq "solve limit result" "$(printf '%s\n' "$out" | tail -n 1)" \
    "result: unsolved (no forced win within 6 turns)"
expect_run "solve bad option" 2 "" takat solve --bogus

# A reduced game: both solvers, and the layers' resume, verify and value.
tak takat solve --stones 2,3
expect_rc "solve reduced" 0
expect_match "solve reduced root" "$out" '^root: x,x,x,x,x,x,x 1$'
expect_eq "solve reduced result" "$(printf '%s\n' "$out" | tail -n 1)" "result: a draw for the side to move"
layers="$scratch/layers"
mkdir -p "$layers"
tak takat layers solve "$layers" --stones 2,3 --down-to 3
expect_rc "layers solve part" 0
expect_match "layers top line" "$out" '^layer  5: 38640 positions, '
expect_match "layers stops at 3" "$(printf '%s\n' "$out" | tail -n 1)" '^layer  3: '
expect_eq "layers quiet on stderr" "$err" ""
tak takat layers solve "$scratch/layers-progress" --stones 2,3 --down-to 5 --progress
expect_rc "layers progress needs the directory" 1
mkdir -p "$scratch/layers-progress"
tak takat layers solve "$scratch/layers-progress" --stones 2,3 --down-to 5 --progress
expect_rc "layers progress" 0
expect_match "layers progress first round" "$err" '^layer  5 round   0: 668 decided, '
expect_match "layers progress last round" "$(printf '%s\n' "$err" | tail -n 1)" ': 0 decided, '
tak takat layers solve "$layers" --stones 2,3
expect_rc "layers resume" 0
expect_match "layers resume reuses" "$out" '^layer  4: .*\(solved before\)$'
expect_eq "layers start" "$(printf '%s\n' "$out" | tail -n 1)" "start (White to move): draw"
tak takat layers verify "$layers" --stones 2,3
expect_rc "layers verify" 0
expect_eq "layers verify total" "$(printf '%s\n' "$out" | tail -n 1)" "verify: 0 positions inconsistent in all"
# The third path (tools/takat/crosscheck.py): random positions of a layer,
# each solved again from scratch by the hash-table solver.
crosscheck=$(dirname "$0")/../../tools/takat/crosscheck.py
check_out=$(python3 "$crosscheck" "$layers" 4 --stones 2,3 --count 12 --tak "$TAK" 2>&1)
rc=$?
expect_rc "crosscheck agrees" 0
expect_match "crosscheck counts" "$check_out" '^layer 4: 12 agree, 0 differ, 0 too large'
# Every value of a copy's layer 4 made a win (0x55: 01 in every 2 bits, the
# header kept): the cross-check must see the losses and draws it lost.
mkdir -p "$scratch/layers-bad"
cp "$layers"/*.bin "$scratch/layers-bad/"
bad=$(ls "$scratch/layers-bad/"*layer04.bin)
size=$(stat -c %s "$bad")
head -c 80 "$layers/$(basename "$bad")" >"$bad"
head -c $((size - 80)) /dev/zero | tr '\0' 'U' >>"$bad"
check_out=$(python3 "$crosscheck" "$scratch/layers-bad" 4 --stones 2,3 --count 12 --tak "$TAK" 2>&1)
rc=$?
expect_rc "crosscheck finds a damaged table" 1
expect_match "crosscheck names a position" "$check_out" '^DIFFER .*: tables win, hash-table solver: '
# A value against the hash-table solver's for the same position: White
# moves a2's top onto b2's five and wins (only the fullest layer is needed).
tak takat layers solve "$layers" --stones 4,5 --down-to 9
expect_rc "layers solve top only" 0
win_pos="2212,x,x,12121,x,x,x 1 b2"
tak takat solve --stones 4,5 --pos "$win_pos"
expect_eq "hash solver on it" "$(printf '%s\n' "$out" | tail -n 1)" "result: a win for the side to move in 1 turn"
expect_run "layers value" 0 "win" takat layers value "$win_pos" "$layers" --stones 4,5
# Stopped by SIGTERM once it is at work, a run saves where it is (within a
# layer or between two) and the next run finishes it with the start's value
# the hash-table solver gives.
stopped="$scratch/layers-stopped"
mkdir -p "$stopped"
"$TAK" takat layers solve "$stopped" --stones 4,5 --progress --checkpoint -1 \
    >"$scratch/stop.out" 2>"$scratch/stop.err" &
solver=$!
for _ in $(seq 200); do grep -q ' round ' "$scratch/stop.err" && break; sleep 0.05; done
kill -TERM "$solver"
wait "$solver"
rc=$?
err=$(cat "$scratch/stop.err")
expect_rc "layers stopped by SIGTERM" 1
expect_match "layers stopped says how to go on" "$(printf '%s\n' "$err" | tail -n 1)" \
    'stopped (in round [0-9]+; the work so far is saved,|before layer [0-9]+;) solve again to go on'
tak takat layers solve "$stopped" --stones 4,5
expect_rc "layers go on after SIGTERM" 0
# (The rounds are left out: with two threads a round may decide some
# positions of the next, so their number varies from run to run; the
# positions, wins, losses and draws do not.)
figures() { printf '%s\n' "$1" | sed -e 's/, [0-9]* rounds.*//'; }
resumed=$(figures "$out")
mkdir -p "$scratch/layers-whole"
tak takat layers solve "$scratch/layers-whole" --stones 4,5
expect_eq "layers stopped and resumed: the same layers and start as a run left alone" \
    "$resumed" "$(figures "$out")"
expect_eq "layers no saved point left" "$(ls "$stopped" | grep -c '\.part$')" 0
expect_run "layers value draw" 0 "draw" takat layers value "1,x,2,x,x,x,x 1 a1" "$layers" --stones 2,3
# --turns: each turn's value for its player must agree with the position's
# (a win has a winning turn; a loss only losing ones; a draw no winning one
# and a drawn one).
turns_agree() {
    local name=$1 pos=$2 stones=$3 first rest
    tak takat layers value "$pos" "$layers" --stones "$stones" --turns
    expect_rc "$name: --turns" 0
    first=$(printf '%s\n' "$out" | head -n 1)
    rest=$(printf '%s\n' "$out" | tail -n +2)
    expect_match "$name: turns listed" "$rest" '^[a-c][1-3](-[a-c][1-3])? (win|loss|draw)$'
    expect_eq "$name: nothing else listed" \
        "$(printf '%s\n' "$rest" | grep -cvE '^[a-c][1-3](-[a-c][1-3])? (win|loss|draw)$')" 0
    case $first in
    win) expect_match "$name: a winning turn" "$rest" ' win$' ;;
    loss) expect_eq "$name: only losing turns" "$(printf '%s\n' "$rest" | grep -vc ' loss$')" 0 ;;
    draw)
        expect_eq "$name: no winning turn" "$(printf '%s\n' "$rest" | grep -c ' win$')" 0
        expect_match "$name: a drawn turn" "$rest" ' draw$'
        ;;
    *) fail "$name: value line" "$first" ;;
    esac
}
turns_agree "start of 2+3" "x,x,x,x,x,x,x 1" 2,3
turns_agree "drawn 2+3" "1,x,2,x,x,x,x 1 a1" 2,3
turns_agree "won 4+5" "$win_pos" 4,5
tak takat layers solve "$layers" --stones 2,3 --turns
expect_rc "--turns only with value" 2
expect_run "layers value too many stones" 1 "" takat layers value "1,1,1,x,x,x,x 2 a2" "$layers" --stones 2,3
expect_match "layers value too many stones says so" "$err" "more stones"
expect_run "layers value bad pos" 1 "" takat layers value "1,x 1" "$layers" --stones 2,3
expect_match "layers value bad pos names the column" "$err" "column"
expect_run "layers other game" 1 "" takat layers value "1,x,2,x,x,x,x 1 a1" "$layers" --stones 2,4
expect_match "layers other game says missing" "$err" "missing or not a layer file"
# Play with the tables: the value shown each turn, level 10 keeping it.
tak_in $'quit\n' takat play --layers "$layers" --stones 2,3 --level 10 --color black --seed 3
expect_rc "play with layers" 0
expect_match "play with layers shows the value" "$out" '^Perfect play: a draw$'
expect_match "play with layers AI moves" "$out" '^AI plays [a-c][1-3]$'
tak_in $'quit\n' takat play --layers "$layers" --stones 2,4 --level 10
expect_rc "play with missing layers" 0
expect_match "play with missing layers says so" "$out" '^Perfect play: not known '
expect_run "play layers no dir" 2 "" takat play --layers
expect_run "play layers bad stones" 2 "" takat play --layers "$layers" --stones 9,3
expect_run "play layers unwritable dir" 1 "" takat play --layers "$scratch/none" --stones 2,3
expect_run "play too many stones" 1 "" takat play --stones 2,3 --pos "1,1,1,x,x,x,x 2 a2"
expect_match "play too many stones says so" "$err" "more stones"
expect_run "layers bad stones" 2 "" takat layers solve "$layers" --stones 7,3
expect_run "layers bad action" 2 "" takat layers dance "$layers"
expect_run "layers no dir" 2 "" takat layers solve
expect_run "layers bad range" 2 "" takat layers verify "$layers" --layers 5-2
expect_run "layers missing dir" 1 "" takat layers solve "$scratch/none" --stones 2,3
expect_match "layers missing dir says why" "$err" "cannot read"

# --help everywhere
for sub in "" perft moves solve layers play; do
    tak takat $sub --help
    expect_rc "help $sub" 0
    expect_match "help $sub usage" "$out" "^usage: tak takat"
done

# A scripted game, two humans: illegal turns get reasons, undo, moves, help.
script='a2
b2
b3
c3
a2-b2
undo
moves
help
a2-c2
zz
quit
'
tak_in "$script" takat play --human-vs-human
expect_rc "scripted game" 0
expect_match "board drawn" "$out" "a1\* "
expect_match "centre marked" "$out" "b2\+ "
expect_match "reserves shown" "$out" "Reserves: White 5, Black 15"
expect_match "forced drop shown" "$out" "Black must drop"
expect_match "drop on the centre refused" "$out" "illegal: no drop on the centre b2"
expect_match "forced drop refused" "$out" "illegal: Black has fewer stones"
expect_match "undo" "$out" "taken back"
expect_match "moves listed" "$out" "legal turns"
expect_match "not adjacent" "$out" "illegal: a2 and c2 are not adjacent"
expect_match "not a turn" "$out" "not a turn"
expect_match "ko shown" "$out" "Ko: b3"
expect_match "quit" "$out" "^.*bye$"

# Against the AI: a game to the end from a late position (Black wins at once
# with c3-c2, which the level-10 AI finds); and end of input is fine.
tak_in "" takat play --level 10 --color white --pos "x,11111,2222,x,2222,x,221 2 c2" --seed 3
expect_rc "AI game" 0
expect_match "AI plays" "$out" "AI plays c3-c2"
expect_match "AI wins" "$out" "Game over: Black wins"
tak_in "" takat play --level 1 --color black --seed 7
expect_rc "AI opens, input ends" 0
expect_match "AI opened" "$out" "AI plays"
expect_match "end of input" "$out" "end of input"
expect_run "bad level" 2 "" takat play --level 11
expect_run "bad color" 2 "" takat play --color green
finish
