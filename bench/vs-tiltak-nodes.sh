#!/bin/bash
# vs-tiltak-nodes.sh: our engine against Tiltak at a fixed number of nodes a
# move for each side, refereed by our own `tak match`, so that the result
# does not depend on how busy the machine is: a match of this kind can run
# on one core beside other long work (bench/ELO.md, "Against Tiltak at fixed
# nodes"), where a match on a clock needs both cores to itself.
#
#   bench/vs-tiltak-nodes.sh SIZE GAMES OURS_NODES TILTAK_NODES [OUT_DIR]
#
# SIZE 4, 5 or 6, GAMES even (each opening with both colours), komi 2, one
# game at a time (CONCURRENCY to change it), both engines on one thread, our
# engine with a 128 MB table. The openings are the ones bench/vs-tiltak.sh
# plays (4-ply openings: ours held out, or racetrack's), the first GAMES/2 of them in
# the order of a fixed shuffle, made into positions by `tak replay`, so two
# runs with the same SIZE and GAMES meet the same openings with the same
# colours. Our nodes and Tiltak's MCTS visits are not alike: in a game on
# 5x5, 200,000 of ours take about the CPU time of 40,000 of Tiltak's
# (bench/node-cost.py on a match's games; bench/ELO.md). OURS_BIN, when set,
# plays that binary instead of build/tak (a candidate built elsewhere).
#
# Tiltak and racetrack are another project's programs (GPL): this script
# neither fetches nor builds them. Point it at what you built yourself:
#   TILTAK=/path/to/tiltak/tei
#   OPENINGS=/path/to/racetrack's repository (for its
#   {5s,6s}_4ply_balanced_openings.txt), or leave it unset to play our
#   held-out openings, data/heldout/SIZE.txt (4 to 8)
# Our side is a copy of build/tak taken when the match starts. Do not pause
# a run (SIGSTOP) for longer than a minute: the runner counts a move that
# takes longer than that (tak match --timeout) as a hang, and the engine
# that was thinking loses the game.
set -euo pipefail

if [ $# -lt 4 ]; then
    echo "usage: TILTAK=... [OPENINGS=...] bench/vs-tiltak-nodes.sh SIZE GAMES OURS_NODES TILTAK_NODES [OUT_DIR]" >&2
    exit 2
fi
size=$1 games=$2 ours_nodes=$3 tiltak_nodes=$4
out=${5:-/tmp/vs-tiltak-nodes}
: "${TILTAK:?set TILTAK to the tei binary of Tiltak}"
# shellcheck source=bench/tiltak-common.sh
. "$(dirname "$0")/tiltak-common.sh"
tiltak_setup vs-tiltak-nodes.sh "$size" "$out"

# The openings as positions: each line of racetrack's book is four plies.
positions="$out/openings-${size}x$size.tps"
: >"$positions"
shuf -n $(((games + 1) / 2)) --random-source=<(yes) "$book" | while read -r a b c d; do
    printf '[Size "%s"]\n[Komi "2"]\n\n1. %s %s 2. %s %s\n' "$size" "$a" "$b" "$c" "$d" |
        "$ours" replay - | head -n 1 >>"$positions"
done

name="$stamp-${size}x$size-$ours_nodes-$tiltak_nodes"
"$ours" match --engine "$ours tei --hash 128" --name ours --engine "$TILTAK" --name tiltak \
    --nodes "$ours_nodes,$tiltak_nodes" --size "$size" --komi 2 --book "$positions" \
    --games "$games" --concurrency "${CONCURRENCY:-1}" --ptn-out "$out/$name.ptn" |
    tee "$out/$name.out" | tail -n 2
# How the games ended, by our colour (Player1 is White).
echo "results (ours as white / black):"
tiltak_tally "$out/$name.ptn" ours
