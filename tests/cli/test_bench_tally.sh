#!/usr/bin/env bash
# test_bench_tally.sh: bench/tiltak-common.sh's tally of how the games of a
# match ended reads each game's tags in whatever order a runner writes them.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/../../bench/tiltak-common.sh"

# Racetrack's order (Player1 before Result), ours (Result first), a game
# with no Result (not counted) and one whose moves carry comments.
cat >"$scratch/games.ptn" <<'PTN'
[Player1 "/tmp/ours"]
[Player2 "/tmp/tei"]
[Size "5"]
[Result "R-0"]

1. a1 e5 2. b1 {0.1/3 0.2s} c1 R-0

[Size "5"]
[Result "0-F"]
[Player1 "/tmp/tei"]
[Player2 "/tmp/ours"]

1. a1 e5 2. b1 c1 0-F
[Player1 "/tmp/ours"]
[Player2 "/tmp/tei"]

1. a1 e5
[Result "1/2-1/2"]
[Player2 "/tmp/ours"]
[Player1 "/tmp/tei"]
1. a1 {a [bracket] in a comment} e5 1/2-1/2
PTN
got=$(tiltak_tally "$scratch/games.ptn" /tmp/ours | sed 's/^ *//')
expect_eq "one line a colour and result" "$got" "$(printf '1 black 0-F\n1 black 1/2-1/2\n1 white R-0')"
expect_eq "the other player's view" "$(tiltak_tally "$scratch/games.ptn" /tmp/tei | sed 's/^ *//')" \
    "$(printf '1 black R-0\n1 white 0-F\n1 white 1/2-1/2')"
finish
