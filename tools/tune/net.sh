#!/bin/bash
# net.sh: one generation of the network's training loop (net.c).
#
#   tools/tune/net.sh DATA_DIR NAME MINUTES [SIZES]
#
# 1. builds the tuner with the engine of the commit checked out (the tree
#    must not differ from it in what the tuner is built from) and keeps a
#    copy of it as DATA_DIR/tune-NAME, with that commit in DATA_DIR/NAME/COMMIT,
#    so a rebuild mid-run changes nothing and a resumed run plays on with the
#    same engine;
# 2. plays self-play games with it on every core for MINUTES (0 plays
#    none), each position written with the score of the search that chose
#    its move (`tune gen --scores`), never through an opening of the held-out
#    set data/heldout/SIZE.txt (`tune gen --heldout`), in chunks under
#    DATA_DIR/NAME/; a finished chunk is never played again, so a stopped run
#    resumes; DATA_DIR/NAME/MANIFEST gets a line a chunk: the command that
#    made it (enough to make it again), its line count and its SHA-256;
# 3. fits the network of each of SIZES (digits; default 56; a size written
#    twice gets twice the games) to every chunk of that size in the
#    manifests under DATA_DIR, every twentieth chunk held out whole (so the
#    held-out loss is over games the fit never saw), after `tune heldout`
#    has checked that no game of them passed through a held-out opening;
#    rewrites src/engine/net_weights.c (NET_OUT: another file instead) and
#    writes the size's recipe, tools/tune/nets/SIZE.recipe (NET_RECIPES:
#    another folder): every chunk and the fit's commit and arguments, from
#    which tools/tune/rebuild.sh SIZE makes the data and the network again.
# NET_NODESn (default 10000 up to 5x5, 8000 above) sets the nodes a move of
# size n; NET_EPOCHSn (40 / 20) the epochs. NET_DIRTY_OK=1 lets a tree that
# differs from its commit play and fit (tests; such a recipe says "dirty"
# and rebuild.sh needs REBUILD_TUNER for it). Judge the new networks by a
# match before committing them (bench/ELO.md).
set -euo pipefail

if [ $# -lt 3 ] || ! [[ $3 =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
    echo "usage: tools/tune/net.sh DATA_DIR NAME MINUTES [SIZES]" >&2
    exit 2
fi
data=$1 name=$2 minutes=$3 sizes=${4:-56}
[[ $sizes =~ ^[3-8]+$ ]] || { echo "net.sh: SIZES are digits 3 to 8, not '$sizes'" >&2; exit 2; }
[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "net.sh: NAME is letters, digits, '.', '_' and '-'" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
workers=${TRAIN_WORKERS:-$(nproc)}
out=${NET_OUT:-$root/src/engine/net_weights.c}
recipes=${NET_RECIPES:-$root/tools/tune/nets}
. "$root/tools/tune/workers.sh"

for size in $(echo "$sizes" | grep -o . | sort -u); do
    [ -r "$root/data/heldout/$size.txt" ] || { echo "net.sh: no held-out openings data/heldout/$size.txt" >&2; exit 2; }
done

mkdir -p "$data/$name"
data=$(cd "$data" && pwd)
# The commit the tuner is built from; the networks' weights file and the
# recipes are what a fit writes, so they may differ from it.
commit=$(tree_commit "$root")
[ -f "$data/$name/COMMIT" ] || echo "$commit" >"$data/$name/COMMIT"
tune=$(frozen_tuner "$root" "$data" "$name")
seed=$(printf %s "$name" | cksum | cut -d' ' -f1)

# The sigmoid scale of each size (what the linear fit found, README.md),
# the nodes a move, the epochs and the weight decay of its fit.
declare -A k=([3]=66 [4]=66 [5]=66 [6]=94 [7]=94 [8]=94)
nodes() { local v="NET_NODES$1"; echo "${!v:-$([ "$1" -le 5 ] && echo 10000 || echo 8000)}"; }
epochs() { local v="NET_EPOCHS$1"; echo "${!v:-$([ "$1" -le 5 ] && echo 40 || echo 20)}"; }
decay() { [ "$1" -le 5 ] && echo 0.05 || echo 0.1; }

# Chunks of four games, the sizes in turn; of every four of a size one at
# komi 0, the rest at komi 2.
worker() {
    local w=$1 i=0 size hk s f args
    while :; do
        for size in $(echo "$sizes" | grep -o .); do
            i=$((i + 1))
            [ $((i % workers)) -eq "$w" ] || continue
            f=c$(printf %06d $i)_$size.txt
            [ -s "$data/$name/$f" ] && continue
            hk=4
            [ $(((i / ${#sizes}) % 4)) -eq 1 ] && hk=0
            s=$((seed + i * 7919))
            args="$size 4 $(nodes "$size") $s $hk"
            # shellcheck disable=SC2086
            if ! "$tune" gen $args --scores --heldout "$root/data/heldout/$size.txt" \
                >"$data/$name/$f.part" 2>>"$data/$name/gen.log"; then
                echo "net.sh: worker $w: tune gen $args failed (see $data/$name/gen.log)" >&2
                return 1
            fi
            mv "$data/$name/$f.part" "$data/$name/$f"
            echo "chunk $name $(cat "$data/$name/COMMIT") $f $args $(wc -l <"$data/$name/$f")" \
                "$(sha256sum "$data/$name/$f" | cut -d' ' -f1)" >>"$data/$name/MANIFEST"
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

# Every chunk of the size in every generation's manifest; the twentieth
# ones held out. The fits use the tuner of the tree as it is now (its linear
# weights make the network's targets), whatever tuner played the games.
fit_dir=$data/.fit
mkdir -p "$fit_dir" "$recipes"
fit_commit=$(tree_commit "$root")
make -C "$root" --no-print-directory build/tools/tune/tune >/dev/null
tune=$root/build/tools/tune/tune
for size in $(echo "$sizes" | grep -o . | sort -u); do
    heldout=$root/data/heldout/$size.txt
    cat "$data"/*/MANIFEST 2>/dev/null | awk -v s="$size" '$1 == "chunk" && $5 == s' | sort -k2,2 -k4,4 \
        >"$fit_dir/chunks$size"
    train=() valid=()
    while read -r _ gen _ f _; do
        n=$(echo "$f" | sed 's/^c0*\([0-9]*\)_.*/\1/')
        if [ $((n % 20)) -eq 0 ]; then valid+=("$data/$gen/$f"); else train+=("$data/$gen/$f"); fi
    done <"$fit_dir/chunks$size"
    [ ${#train[@]} -gt 0 ] || { echo "net.sh: no data of size $size under $data" >&2; exit 1; }
    "$tune" heldout "$size" "$heldout" -- "${train[@]}" "${valid[@]}" >"$fit_dir/heldout$size" ||
        { cat "$fit_dir/heldout$size" >&2; exit 1; }
    cat "${train[@]}" >"$fit_dir/train$size.txt"
    cat "${valid[@]}" /dev/null >"$fit_dir/valid$size.txt"
    echo "net.sh: fitting the ${size}x$size network to $(grep -vc '^#' "$fit_dir/train$size.txt") lines," \
        "$(grep -vc '^#' "$fit_dir/valid$size.txt" || true) held out; $(cat "$fit_dir/heldout$size")"
    fit_args=(--k "${k[$size]}" --epochs "$(epochs "$size")" --decay "$(decay "$size")")
    "$tune" net "$out" "$size" "${fit_args[@]}" --valid "$fit_dir/valid$size.txt" "$fit_dir/train$size.txt"
    {
        echo "# The ${size}x$size network of src/engine/net_weights.c, written by tools/tune/net.sh."
        echo "# Rebuild it, data and all, with: tools/tune/rebuild.sh $size"
        echo "# fit COMMIT SIZE ARGS: the tuner of COMMIT fits the chunks (every twentieth held out)."
        echo "# chunk GENERATION COMMIT FILE SIZE GAMES NODES SEED HALF_KOMI LINES SHA256: made by"
        echo "#   COMMIT's tuner as: tune gen SIZE GAMES NODES SEED HALF_KOMI --scores --heldout HELDOUT"
        echo "heldout data/heldout/$size.txt $(sha256sum "$heldout" | cut -d' ' -f1)"
        echo "fit $fit_commit $size ${fit_args[*]}"
        cat "$fit_dir/chunks$size"
    } >"$recipes/$size.recipe"
    # The next size's fit keeps this one: the tuner that writes it must know it.
    if [ "$out" = "$root/src/engine/net_weights.c" ]; then
        make -C "$root" --no-print-directory build/tools/tune/tune >/dev/null
    fi
done
echo "net.sh: wrote $out"
