#!/bin/bash
# net.sh: one generation of the network's training loop (net.c).
#
#   tools/tune/net.sh DATA_DIR NAME MINUTES [SIZES]
#
# 1. builds the tuner with the engine as it is now (linear weights and
#    networks) and keeps a copy of it as DATA_DIR/tune-NAME, so a rebuild
#    mid-run changes nothing;
# 2. plays self-play games with it on every core for MINUTES (0 plays
#    none), each position written with the score of the search that chose
#    its move (`tune gen --scores`), in chunks under DATA_DIR/NAME/; a
#    finished chunk is never played again, so a stopped run resumes;
# 3. fits the network of each of SIZES (default 56) to every finished
#    chunk under DATA_DIR/*/ and any DATA_DIR/*.txt of that size, every
#    twentieth chunk held out whole (so the held-out loss is over games the
#    fit never saw), and rewrites src/engine/net_weights.c (NET_OUT: another
#    file instead, for one size: a fit writes the other sizes' networks as
#    its tuner knows them, so with the source file the tuner is rebuilt
#    between sizes).
# NET_NODES5 / NET_NODES6 (default 10000 / 8000) set the nodes a move;
# NET_EPOCHS5 / NET_EPOCHS6 (40 / 20) the epochs; BOOK5 / BOOK6, when set,
# start a quarter of the chunks from a TPS file's positions (`tune gen
# --book`). Judge the new networks by a match before committing them
# (bench/ELO.md); tools/tune/README.md says how each was made.
set -euo pipefail

if [ $# -lt 3 ] || ! [[ $3 =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
    echo "usage: tools/tune/net.sh DATA_DIR NAME MINUTES [SIZES]" >&2
    exit 2
fi
data=$1 name=$2 minutes=$3 sizes=${4:-56}
[[ $sizes =~ ^[3-8]+$ ]] || { echo "net.sh: SIZES are digits 3 to 8, not '$sizes'" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
workers=${TRAIN_WORKERS:-$(nproc)}
out=${NET_OUT:-$root/src/engine/net_weights.c}
. "$root/tools/tune/workers.sh"

mkdir -p "$data/$name"
data=$(cd "$data" && pwd)
tune=$(frozen_tuner "$root" "$data" "$name")
seed=$(printf %s "$name" | cksum | cut -d' ' -f1)

# The sigmoid scale of each size (what the linear fit found, README.md),
# the nodes a move, the epochs and the weight decay of its fit.
declare -A k=([3]=66 [4]=66 [5]=66 [6]=94 [7]=94 [8]=94)
nodes() { local v="NET_NODES$1"; echo "${!v:-$([ "$1" -le 5 ] && echo 10000 || echo 8000)}"; }
epochs() { local v="NET_EPOCHS$1"; echo "${!v:-$([ "$1" -le 5 ] && echo 40 || echo 20)}"; }
decay() { [ "$1" -le 5 ] && echo 0.05 || echo 0.1; }

# Chunks of four games, the sizes in turn; of every four of a size one at
# komi 0 and one from the book (when there is one), the rest at komi 2.
worker() {
    local w=$1 i=0 size hk book f
    while :; do
        for size in $(echo "$sizes" | grep -o .); do
            i=$((i + 1))
            [ $((i % workers)) -eq "$w" ] || continue
            f=$data/$name/c$(printf %06d $i)_$size.txt
            [ -s "$f" ] && continue
            hk=4 book=()
            case $(((i / ${#sizes}) % 4)) in
            1) hk=0 ;;
            3) local b="BOOK$size"; [ -n "${!b:-}" ] && book=(--book "${!b}") ;;
            esac
            "$tune" gen "$size" 4 "$(nodes "$size")" $((seed + i * 7919)) "$hk" --scores \
                "${book[@]}" >"$f.part" && mv "$f.part" "$f"
        done
    done
}

seconds=$(awk -v m="$minutes" 'BEGIN { print m * 60 }')
if [ "$seconds" != 0 ]; then
    start_workers worker "$workers" "$data/$name"
    sleep "$seconds" &
    wait $! || true
    stop_workers
fi

# Every finished chunk of every generation; the twentieth ones held out.
fit_dir=$data/.fit
mkdir -p "$fit_dir"
for size in $(echo "$sizes" | grep -o .); do
    train=() valid=()
    for f in "$data"/*/c*_"$size".txt; do
        [ -e "$f" ] || continue
        n=$(basename "$f" | sed 's/^c0*\([0-9]*\)_.*/\1/')
        if [ $((n % 20)) -eq 0 ]; then valid+=("$f"); else train+=("$f"); fi
    done
    for f in "$data"/*.txt; do [ -e "$f" ] && train+=("$f"); done
    [ ${#train[@]} -gt 0 ] || { echo "net.sh: no data of size $size under $data" >&2; exit 1; }
    cat "${train[@]}" >"$fit_dir/train$size.txt"
    cat "${valid[@]}" /dev/null >"$fit_dir/valid$size.txt"
    echo "net.sh: fitting the ${size}x$size network to $(wc -l <"$fit_dir/train$size.txt") lines," \
        "$(wc -l <"$fit_dir/valid$size.txt") held out"
    "$tune" net "$out" "$size" --k "${k[$size]}" --epochs "$(epochs "$size")" --decay "$(decay "$size")" \
        --valid "$fit_dir/valid$size.txt" "$fit_dir/train$size.txt"
    # The next size's fit keeps this one: the tuner that writes it must know it.
    if [ "$out" = "$root/src/engine/net_weights.c" ]; then
        make -C "$root" --no-print-directory build/tools/tune/tune >/dev/null
        tune=$root/build/tools/tune/tune
    fi
done
echo "net.sh: wrote $out"
