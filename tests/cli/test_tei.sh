#!/usr/bin/env bash
# test_tei.sh: `tak tei` as a match runner or GUI sees it: a session piped
# through stdin/stdout in both dialects, bad lines answered with errors while
# the session goes on, and a search answered with exactly one legal bestmove.
. "$(dirname "$0")/lib/common.sh"

session=$'tei\nsetoption name HalfKomi value 4\nteinewgame 6\nisready\nposition startpos moves a1 f6 d4\ngo depth 2\n'
tak_in "$session" tei --hash 8
expect_rc "tei session exits 0" 0
expect_eq "first line" "$(printf '%s\n' "$out" | head -n 1)" "id name Tak"
expect_match "id author" "$out" '^id author '
expect_match "HalfKomi option" "$out" '^option name HalfKomi type spin default 0 min -20 max 20$'
expect_match "Level option" "$out" '^option name Level type spin default 10 min 1 max 10$'
expect_match "dialect B size line" "$out" '^size 3 4 5 6 7 8 halfkomi -20 .* 20$'
expect_match "teiok" "$out" '^teiok$'
expect_match "readyok" "$out" '^readyok$'
expect_match "info line" "$out" '^info depth [0-9]+ seldepth [0-9]+ .*score cp -?[0-9]+ nodes [0-9]+ nps [0-9]+ time [0-9]+ .*pv '
expect_eq "one bestmove" "$(printf '%s\n' "$out" | grep -c '^bestmove ')" "1"
best=$(printf '%s\n' "$out" | sed -n 's/^bestmove //p')
# The move must be legal after a1 f6 d4 on 6x6: it is among `tak moves`.
tak moves "x5,2/x6/x6/x3,1,x2/x6/2,x5 2 2"
if printf '%s\n' "$out" | grep -qx -- "$best"; then pass; else fail "bestmove legal" "'$best' not in tak moves"; fi

# Dialect B, and the end of input finishes the search.
tak_in $'teinewgame size 5 halfkomi 2\nposition tps x5/x5/2,2,2,x2/x5/1,1,1,1,x 1 4\ngo depth 3\n' tei --hash 8
expect_eq "road in one" "$(printf '%s\n' "$out" | sed -n 's/^bestmove //p')" "e1"

# Bad lines: errors (a line of control bytes is an empty line, not an
# error), and the session goes on.
bad=$'xyzzy\nposition tps x9/x9 1 1\nposition startpos moves a1 a1\nsetoption name Hash value -3\n\n\x01\x02\x03\nteinewgame 12\ngo depth x\nstop\nisready\n'
tak_in "$bad" tei --hash 8
expect_rc "bad lines: exit 0" 0
expect_eq "bad lines: errors" "$(printf '%s\n' "$out" | grep -c '^info string error: ')" "6"
expect_match "bad lines: still ready" "$out" '^readyok$'
expect_eq "go depth x still answers once" "$(printf '%s\n' "$out" | grep -c '^bestmove ')" "1"

# A very long line is refused, not fatal.
long=$(head -c 1100000 /dev/zero | tr '\0' 'a')
tak_in "$long"$'\nisready\n' tei --hash 8
expect_match "long line refused" "$out" '^info string error: line too long'
expect_match "long line: still ready" "$out" '^readyok$'

# quit during an infinite search answers the search and exits at once.
tak_in $'position startpos\ngo infinite\nquit\n' tei --hash 8
expect_rc "quit exits 0" 0
expect_eq "quit answers the search" "$(printf '%s\n' "$out" | grep -c '^bestmove ')" "1"

# End of input during go infinite: stopped, answered.
tak_in $'position startpos\ngo infinite\n' tei --hash 8
expect_eq "EOF stops infinite" "$(printf '%s\n' "$out" | grep -c '^bestmove ')" "1"

# isready is answered while a search runs (stdin stays open).
{
    printf 'position startpos\ngo infinite\nisready\n'
    sleep 1
    printf 'stop\nquit\n'
} | "$TAK" tei --hash 8 >"$scratch/live" 2>&1
order=$(grep -E '^(readyok|bestmove)' "$scratch/live" | cut -d' ' -f1 | tr '\n' ' ')
expect_eq "readyok before bestmove" "$order" "readyok bestmove "

finish
