#!/usr/bin/env bash
# test_playtak.sh: `tak playtak` plays a whole game against a scripted fake
# PlayTak server on localhost (playtak_fake_server.py: login, seek, moves on
# the clock, a Tell for 'eval', a draw refused, a takeback granted, the
# connection dropped and the game resumed, a resignation), logs it as PTN,
# and refuses wrong usage (a password on the command line above all).
. "$(dirname "$0")/lib/common.sh"
here=$(dirname "$0")

tak playtak --help
expect_rc "--help" 0
expect_match "--help documents seeks" "$out" '--seek SPEC'
expect_match "--help documents the password" "$out" 'TAK_PLAYTAK_PASSWORD'

# Usage errors say what was wrong and exit 2.
tak playtak --seek 5,3+2 --user somebody --password hunter22
expect_rc "a password on the command line is refused" 2
expect_match "it says why" "$err" 'no password on the command line'
TAK_PLAYTAK_PASSWORD= tak playtak --seek 5,3+2 --user somebody
expect_rc "a user without a password" 2
tak playtak
expect_rc "nothing to do" 2
expect_match "nothing to do says so" "$err" 'give --seek or --accept'
tak playtak --seek 9,3+2
expect_rc "a size PlayTak has not" 2
tak playtak --seek 5,3+2,W,5
expect_rc "a komi over 4" 2
tak playtak --seek 5,3
expect_rc "a clock without increment" 2
tak playtak --accept --level 11
expect_rc "level 11" 2
tak playtak --accept --connections 2 --user somebody
expect_rc "two connections for one user" 2
# A name starting with Guest (any case) logs in as a guest on PlayTak, with
# the password read as a rejoin token (and so not masked in the log).
for name in Guestbot guest GUEST7; do
    TAK_PLAYTAK_PASSWORD=pw tak playtak --accept --user "$name" --server 127.0.0.1:1 --no-reconnect
    expect_rc "--user $name is refused" 2
    expect_match "--user $name: it says why" "$err" "names starting with 'Guest' for guests"
done

# A password with a control byte (a newline would end the Login line and
# start another) is refused, from the environment as from a file.
for pw in $'pw\nquit' $'pw\x1b[2J' $'pw\x7f' $'pw\tx' 'pw x'; do
    TAK_PLAYTAK_PASSWORD=$pw tak playtak --accept --user somebody --server 127.0.0.1:1 --no-reconnect
    expect_rc "a password with $(printf '%q' "$pw") is refused" 1
    expect_match "it names the variable" "$err" 'password in TAK_PLAYTAK_PASSWORD has a space or a control'
done
printf 'pw\033[2J\n' >"$scratch/badpw"
tak playtak --accept --user somebody --password-file "$scratch/badpw" --server 127.0.0.1:1 --no-reconnect
expect_rc "a password file with a control byte is refused" 1
expect_match "it names the file" "$err" "password in $scratch/badpw has a space or a control"

# No server there, no reconnection: exit 1 with a reason.
tak playtak --server 127.0.0.1:1 --seek 5,3+2 --no-reconnect
expect_rc "no server" 1
expect_match "no server says why" "$err" 'cannot connect to 127.0.0.1:1'

# A whole game against the fake server.
if ! command -v python3 >/dev/null; then
    fail "python3" "the fake server needs python3"
    finish
fi
python3 "$here/playtak_fake_server.py" "$scratch/port" "$scratch/server.log" &
fake=$!
for _ in $(seq 100); do
    [ -s "$scratch/port" ] && break
    sleep 0.1
done
port=$(cat "$scratch/port" 2>/dev/null)
mkdir -p "$scratch/ptn"
# The first --seek's opponent must not carry over to the second.
tak playtak --server "127.0.0.1:$port" --seek 5,3+2,opponent=someone --seek 6,1+1,W \
    --level 1 --hash 8 --games 1 --undo accept --draw refuse --ptn-dir "$scratch/ptn"
expect_rc "the game is played to its end" 0
wait "$fake"
fake_rc=$?
if [ "$fake_rc" -eq 0 ]; then
    pass
else
    fail "the fake server's checks" "exit $fake_rc" "$(grep FAIL "$scratch/server.log")" "stderr: $err"
fi
expect_match "one line for the game" "$out" '^game 1: Guest7 vs fake_opp: 1-0 \(Guest7 played White\) -> '
expect_match "the takeback was granted" "$err" 'takeback asked: granted'
expect_match "the draw was declined" "$err" 'draw offered: declined'
expect_match "the game was resumed" "$err" 'game 1 resumed'
expect_match "a hostile line is named" "$err" "unreadable line from the server \(column 1: unknown message 'Garbage \?\[2J\?'\): Garbage \?\[2J\?$"
expect_match "an overlong line is refused" "$err" 'longer than 1024 bytes'
ptn=$(ls "$scratch/ptn"/*.ptn 2>/dev/null | head -n 1)
if [ -n "$ptn" ]; then
    pass
    expect_match "the PTN names the players" "$(cat "$ptn")" '^\[Player2 "fake_opp"\]$'
    expect_match "the PTN has the result" "$(cat "$ptn")" '^\[Result "1-0"\]$'
    tak replay "$ptn"
    expect_rc "the PTN replays" 0
    # Six moves of White's (the third taken back and played again) and five of Black's.
    expect_match "eleven plies" "$(cat "$ptn")" '^6\. [^ ]+$'
else
    fail "a PTN file" "none in $scratch/ptn"
fi

start_fake() {
    rm -f "$scratch/port"
    python3 "$here/playtak_fake_server.py" "$scratch/port" "$scratch/server.log" "$@" &
    fake=$!
    for _ in $(seq 100); do
        [ -s "$scratch/port" ] && break
        sleep 0.1
    done
    port=$(cat "$scratch/port" 2>/dev/null)
}

# A server that goes silent, before its welcome or after: the bot hangs up
# by itself (pings every second here, instead of every 30 s).
for mode in silent-before-welcome silent-after-welcome; do
    start_fake "$mode"
    TAK_PLAYTAK_PING_S=1 tak playtak --server "127.0.0.1:$port" --accept --no-reconnect
    expect_rc "$mode: the bot gives up" 1
    why='no welcome from the server; not reconnecting'
    [ "$mode" = silent-after-welcome ] && why='the server stopped answering; not reconnecting'
    expect_match "$mode: it says why" "$err" "$why"
    if wait "$fake"; then pass; else fail "$mode: the fake's checks" "$(grep FAIL "$scratch/server.log")"; fi
done

# Only a NOK right after an Accept refuses that seek: one after a Tell does not.
start_fake accept
tak playtak --server "127.0.0.1:$port" --accept --no-reconnect
expect_rc "accept: the bot stops when the server goes" 1
if wait "$fake"; then pass; else fail "accept: the fake's checks" "$(grep FAIL "$scratch/server.log")" "stderr: $err"; fi

# A user's login, the password from the environment, then from a file; the
# server refuses it, and the bot stops (exit 1) without retrying.
start_fake refuse-login TakBot_1 s3cret-pw
TAK_PLAYTAK_PASSWORD=s3cret-pw tak playtak --server "127.0.0.1:$port" --user TakBot_1 --accept -v
expect_rc "a refused login exits 1" 1
expect_match "it says the login was refused" "$err" 'login refused'
expect_match "the verbose log shows the login" "$err" '> Login TakBot_1 \*+$'
if printf '%s' "$err" | grep -q s3cret; then fail "the password stays out of the log" "$err"; else pass; fi
if wait "$fake"; then pass; else fail "refused login (environment)" "$(grep FAIL "$scratch/server.log")"; fi
printf 'other-pw\n' >"$scratch/pw"
start_fake refuse-login TakBot_1 other-pw
TAK_PLAYTAK_PASSWORD=s3cret-pw tak playtak --server "127.0.0.1:$port" --user TakBot_1 --accept \
    --password-file "$scratch/pw"
expect_rc "a refused login (password file) exits 1" 1
if wait "$fake"; then pass; else fail "refused login (file)" "$(grep FAIL "$scratch/server.log")"; fi

# The server's name is resolved before the loop starts: a name that does not
# exist stops the bot at once, naming it (no reconnecting to nowhere);
# names and IPv6 addresses ([::1]:PORT) are reached, each address tried in turn.
timeout 20 "$TAK" playtak --server no-such-host.invalid:10000 --seek 5,3+2 \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
err=$(cat "$scratch/err")
expect_rc "a name that does not resolve stops the bot" 1
expect_match "it names the host" "$err" '^tak playtak: cannot resolve no-such-host\.invalid: '
# When no address answers, the bot looks the name up again (the server may
# have moved to another address) as it reconnects: a server that is not on
# localhost:PORT yet is reached once it is.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
TAK_PLAYTAK_PASSWORD=pw timeout 30 "$TAK" playtak --server "localhost:$port" --user TakBot_1 \
    --accept >"$scratch/out" 2>"$scratch/err" &
bot=$!
sleep 0.5
PLAYTAK_FAKE_PORT=$port start_fake refuse-login TakBot_1 pw
wait "$bot"
rc=$?
err=$(cat "$scratch/err")
expect_rc "a server there later: reached (and refuses the login)" 1
expect_match "no address answered at first" "$err" "cannot connect to localhost:$port: .*; reconnecting in 1 s"
expect_match "the name was looked up again" "$err" 'looked localhost up again'
expect_match "the server there later says the login was refused" "$err" 'login refused'
if wait "$fake"; then pass; else fail "a server there later: the fake's checks" "$(grep FAIL "$scratch/server.log")"; fi
for server in localhost '[::1]'; do
    [ "$server" = '[::1]' ] && export PLAYTAK_FAKE_HOST=::1
    start_fake refuse-login TakBot_1 pw
    unset PLAYTAK_FAKE_HOST
    TAK_PLAYTAK_PASSWORD=pw tak playtak --server "$server:$port" --user TakBot_1 --accept \
        --no-reconnect
    expect_rc "$server: the server is reached (and refuses the login)" 1
    expect_match "$server: it says the login was refused" "$err" 'login refused'
    if wait "$fake"; then pass; else fail "$server: the fake's checks" "$(grep FAIL "$scratch/server.log")"; fi
done

finish
