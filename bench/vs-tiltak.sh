#!/bin/bash
# vs-tiltak.sh: a match of our engine against Tiltak, refereed by racetrack
# (the match runner Tiltak's author publishes), as bench/ELO.md records them.
#
#   bench/vs-tiltak.sh SIZE GAMES [TC] [OUT_DIR]
#
# SIZE 4, 5 or 6 (Tiltak plays 4-6; our held-out openings exist for 4-8,
# racetrack's balanced openings for 5 and 6), GAMES even (each opening with both colours), TC racetrack's
# SECONDS+INCREMENT (default 10+0.1), komi 2, two games at a time (CONCURRENCY
# games when set: each game needs two cores to itself), both engines on one
# thread. OURS_TC, when set, is our side's clock instead of TC (time odds:
# what more time would be worth against the same Tiltak).
# BOOK_START, when set, plays the openings in the book's order from that
# one (1 is the first) instead of shuffled: two runs with the same
# BOOK_START and GAMES play the same openings with the same colours, so a
# candidate and the engine in use can be compared opening by opening.
# Our side is a copy of build/tak taken when the match starts, so a rebuild
# during the match changes nothing; OURS_BIN, when set, is copied instead
# (a candidate built elsewhere).
#
# Tiltak and racetrack are another project's programs (GPL): this script
# neither fetches nor builds them. Point it at binaries you built yourself:
#   TILTAK=/path/to/tiltak/tei  RACETRACK=/path/to/racetrack
#   OPENINGS=/path/to/racetrack's repository (for its
#   {5s,6s}_4ply_balanced_openings.txt), or leave it unset to play our
#   held-out openings, data/heldout/SIZE.txt (4 to 8)
# bench/ELO.md names the commits measured.
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: TILTAK=... RACETRACK=... [OPENINGS=...] bench/vs-tiltak.sh SIZE GAMES [TC] [OUT_DIR]" >&2
    exit 2
fi
size=$1 games=$2 tc=${3:-10+0.1}
ours_tc=${OURS_TC:-$tc}
out=${4:-/tmp/vs-tiltak}
concurrency=${CONCURRENCY:-2}
[[ $concurrency =~ ^[1-9][0-9]*$ ]] || { echo "vs-tiltak.sh: CONCURRENCY must be a number from 1" >&2; exit 2; }
if [ -n "${BOOK_START:-}" ]; then
    [[ $BOOK_START =~ ^[1-9][0-9]*$ ]] || { echo "vs-tiltak.sh: BOOK_START must be a number from 1" >&2; exit 2; }
    order=(--book-start "$BOOK_START")
else
    order=(--shuffle-book)
fi
: "${TILTAK:?set TILTAK to the tei binary of Tiltak}"
: "${RACETRACK:?set RACETRACK to the racetrack binary}"
# shellcheck source=bench/tiltak-common.sh
. "$(dirname "$0")/tiltak-common.sh"
tiltak_setup vs-tiltak.sh "$size" "$out"

"$RACETRACK" -s "$size" --komi 2 -g "$games" -c "$concurrency" \
    --engine path="$ours" arg=tei option.Hash=128 tc="$ours_tc" \
    --engine path="$TILTAK" tc="$tc" \
    --book "$book" "${order[@]}" \
    --ptnout "$out/$stamp-${size}x$size.ptn" --log "$out/$stamp-${size}x$size.log" |
    tee "$out/$stamp-${size}x$size.out" | grep -E "^Played|elo" | tail -2
# How each game ended: R (road), F (flat count) or time/crash (from the PTN).
echo "results (first engine = ours when Player1):"
tiltak_tally "$out/$stamp-${size}x$size.ptn" "$ours"
