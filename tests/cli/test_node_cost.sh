#!/usr/bin/env bash
# test_node_cost.sh: bench/node-cost.py searches every position it is given,
# from a TPS list (a fresh game each) or through the games of a PTN file
# (every ply, as a match asks), and says how many it searched.
. "$(dirname "$0")/lib/common.sh"
cost() {
    python3 bench/node-cost.py "$@" >"$scratch/out" 2>"$scratch/err"
    rc=$?
    out=$(cat "$scratch/out")
    err=$(cat "$scratch/err")
}

printf '%s\n' '# two positions' 'x5/x5/x5/x5/x5 1 1' 'x5/x5/x2,1,x2/x5/2,x4 1 2' >"$scratch/p.tps"
cost 5 300 "$scratch/p.tps" "$TAK" tei
if [ "$rc" -eq 0 ] && [[ $out == *": 2 positions, 300 nodes each: "*" ms a move" ]]; then
    pass
else
    fail "node-cost on a TPS list" "rc=$rc" "$out" "$err"
fi

# Two 5x5 games (one from a TPS tag, with comments and a result) and a 6x6
# game that a size-5 run leaves out: 5 + 4 plies searched.
cat >"$scratch/g.ptn" <<'PTN'
[Size "5"]
[Komi "2"]

1. a1 e5 2. c3 {+0.1/3 0.2s} c2 3. d3 R-0

[Size "6"]

1. a1 f6 2. c3 0-R

[Size "5"]
[TPS "x5/x5/x2,1,x2/x5/2,x4 1 2"]

2. b2 d4 3. d3 d2 0-F
PTN
cost 5 300 "$scratch/g.ptn" "$TAK" tei
if [ "$rc" -eq 0 ] && [[ $out == *": 9 positions, 300 nodes each: "* ]]; then
    pass
else
    fail "node-cost through the games of a PTN file" "rc=$rc" "$out" "$err"
fi

cost 7 300 "$scratch/g.ptn" "$TAK" tei
if [ "$rc" -ne 0 ] && [[ $err == *"no position of size 7"* ]]; then
    pass
else
    fail "node-cost with no game of the size" "rc=$rc" "$out" "$err"
fi

finish
