#!/bin/bash
# distil.sh: refit the evaluation to what the search says of its positions.
#
#   tools/tune/distil.sh DATA_DIR NAME NODES LAMBDA GENERATION...
#
# 1. builds the tuner with the weights now in src/engine/weights.c and keeps
#    a copy of it as DATA_DIR/tune-NAME (so a rebuild mid-run changes
#    nothing);
# 2. searches every position of the games of the GENERATIONs (the chunks
#    train.sh played, in DATA_DIR/gN/) NODES nodes with those weights and
#    writes each line again with the score (tune score), one scored chunk per
#    played chunk in DATA_DIR/NAME/, on every core; a finished chunk is never
#    scored again, so an interrupted run resumes where it stopped;
# 3. fits the weights to LAMBDA * the game's result + (1 - LAMBDA) * the
#    search's score (tune fit --lambda) and rewrites src/engine/weights.c
#    (the sizes of SIZES only: keep 7 and 8 out of it, their weights are
#    fit.sh's and have recipes).
# SIZES (default 56) picks the board sizes scored and fitted. A game's
# result is the same for its 80 positions; the search's score is about the
# position itself, so a fit to it learns far more from the same games.
# Judge the new weights by a match before committing them (README.md).
set -euo pipefail

if [ $# -lt 5 ]; then
    echo "usage: tools/tune/distil.sh DATA_DIR NAME NODES LAMBDA GENERATION..." >&2
    exit 2
fi
data=$1 name=$2 nodes=$3 lambda=$4
shift 4
sizes=${SIZES:-56}
root=$(cd "$(dirname "$0")/../.." && pwd)
workers=${TRAIN_WORKERS:-$(nproc)}
. "$root/tools/tune/workers.sh"

mkdir -p "$data/$name"
data=$(cd "$data" && pwd)
tune=$(frozen_tuner "$root" "$data" "$name")

chunks=()
for g in "$@"; do
    for f in "$data/g$g"/c*.txt; do
        [ -e "$f" ] || continue
        size=$(basename "$f" .txt | cut -d_ -f2)
        case "$sizes" in *"$size"*) chunks+=("$f") ;; esac
    done
done
[ ${#chunks[@]} -gt 0 ] || { echo "distil.sh: no chunks of sizes $sizes in generations $*" >&2; exit 1; }

worker() {
    local w=$1 i=0
    for f in "${chunks[@]}"; do
        i=$((i + 1))
        [ $((i % workers)) -eq "$w" ] || continue
        local out
        out=$data/$name/$(basename "$(dirname "$f")")_$(basename "$f")
        [ -s "$out" ] && continue
        "$tune" score "$nodes" --sizes "$sizes" "$f" >"$out.part" && mv "$out.part" "$out"
    done
}

start_workers worker "$workers" "$data/$name"
wait
stop_workers

scored=("$data/$name"/g*.txt)
echo "distil.sh: fitting to $(cat "${scored[@]}" | grep -vc "^#") scored positions (lambda $lambda)"
"$tune" fit "$root/src/engine/weights.c" --sizes "$sizes" --lambda "$lambda" "${scored[@]}"
echo "distil.sh: wrote src/engine/weights.c"
