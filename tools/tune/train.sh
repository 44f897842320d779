#!/bin/bash
# train.sh: one generation of the evaluation's training loop.
#
#   tools/tune/train.sh DATA_DIR GENERATION MINUTES [FIT_FROM]
#
# 1. builds the tuner with the weights now in src/engine/weights.c and keeps
#    a copy of it as DATA_DIR/tune-gGENERATION (so a rebuild mid-run changes
#    nothing);
# 2. plays self-play games with it on every core for MINUTES, in chunks
#    written to DATA_DIR/gGENERATION/ (a finished chunk is never played
#    again, so an interrupted run resumes where it stopped);
# 3. fits the weights to the games of generations FIT_FROM..GENERATION
#    (default: this one and the one before) and rewrites
#    src/engine/weights.c.
# SIZES (default 345678) keeps only the plan's chunks of those board sizes,
# for a generation meant for distil.sh (which fits 5x5 and 6x6).
# Judge the new weights by a match before committing them (README.md).
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: tools/tune/train.sh DATA_DIR GENERATION MINUTES [FIT_FROM]" >&2
    exit 2
fi
data=$1 gen=$2 minutes=$3
from=${4:-$((gen > 0 ? gen - 1 : 0))}
root=$(cd "$(dirname "$0")/../.." && pwd)
workers=${TRAIN_WORKERS:-$(nproc)}
. "$root/tools/tune/workers.sh"

mkdir -p "$data/g$gen"
data=$(cd "$data" && pwd)
tune=$(frozen_tuner "$root" "$data" "g$gen")

# One chunk kind a line: size, half komi, games, nodes a move. The plan is
# walked round-robin; komi 2 (half komi 4) is the match setting, komi 0 keeps
# the weights honest without komi. 5x5 and 6x6 get the most games. The nodes
# matter: at 4,000 a move half the 6x6 games end by a road someone missed, at
# 20,000 and more most end on the flat count, as games against strong engines
# do, so the weights learn the flat race from games that have one.
plan="6 4 50 20000
5 4 50 20000
6 4 50 20000
7 4 30 10000
6 0 50 20000
5 4 50 20000
8 4 30 10000
5 0 50 20000
4 4 100 3000
6 4 50 20000
7 0 30 10000
3 0 100 2000"

sizes=${SIZES:-345678}
plan=$(while read -r size rest; do
    case "$sizes" in *"$size"*) echo "$size $rest" ;; esac
done <<<"$plan")
[ -n "$plan" ] || { echo "train.sh: no chunks of sizes $sizes in the plan" >&2; exit 2; }

worker() {
    local w=$1 i=0
    for rep in $(seq 1 1000); do
        while read -r size hk games nodes; do
            i=$((i + 1))
            [ $((i % workers)) -eq "$w" ] || continue
            local f
            f=$data/g$gen/c$(printf %05d $i)_${size}_${hk}.txt
            [ -s "$f" ] && continue
            "$tune" gen "$size" "$games" "$nodes" $((gen * 1000003 + i * 7919 + 13)) "$hk" \
                >"$f.part" && mv "$f.part" "$f"
        done <<<"$plan"
    done
}

start_workers worker "$workers" "$data/g$gen"
sleep $((minutes * 60)) &
wait $! || true
stop_workers

files=()
for g in $(seq "$from" "$gen"); do
    for f in "$data/g$g"/c*.txt; do [ -e "$f" ] && files+=("$f"); done
done
[ ${#files[@]} -gt 0 ] || { echo "train.sh: no finished chunks in generations $from..$gen" >&2; exit 1; }
echo "train.sh: fitting to $(cat "${files[@]}" | grep -vc "^#") positions from generations $from..$gen"
# 7x7 and 8x8 are fitted to their own self-play by fit.sh (their recipes
# are tools/tune/weights/7.recipe and 8.recipe), never here.
fit_sizes=$(echo 3456 | tr -cd "$sizes")
[ -n "$fit_sizes" ] || { echo "train.sh: no size of $sizes is fitted (3-6 are)" >&2; exit 1; }
"$tune" fit "$root/src/engine/weights.c" --sizes "$fit_sizes" "${files[@]}"
echo "train.sh: wrote src/engine/weights.c"
