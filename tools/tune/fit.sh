#!/bin/bash
# fit.sh: fits the linear weights of one size, or its move policy, to chunks
# net.sh played, and writes the recipe that makes the data and the weights
# again.
#
#   tools/tune/fit.sh SIZE LAMBDA CHUNK...
#   tools/tune/fit.sh --policy SIZE CHUNK...
#
# Each CHUNK is a file DATA_DIR/GENERATION/FILE that net.sh wrote, with its
# line in DATA_DIR/GENERATION/MANIFEST (the file must still match that
# line's count and SHA-256). Fits SIZE's weights with the tuner of the
# commit checked out (`tune fit OUT --sizes SIZE --lambda LAMBDA --heldout
# data/heldout/SIZE.txt CHUNK...`, in the order given, every game through
# one of the held-out openings left out; the fit holds out a share of the
# games itself and starts from the weights that tuner was built with),
# rewrites src/engine/weights.c
# (FIT_OUT: another file) and writes tools/tune/weights/SIZE.recipe
# (NET_RECIPES: another folder), from which `tools/tune/rebuild.sh --linear
# SIZE` plays every chunk again and refits. With --policy, the move policy
# instead (`tune policy OUT SIZE --heldout data/heldout/SIZE.txt CHUNK...`:
# the moves the chunks' games played), into src/engine/policy_weights.c and
# tools/tune/policies/SIZE.recipe, rebuilt by `rebuild.sh --policy SIZE`.
# NET_DIRTY_OK=1 lets a tree that differs from its commit fit (tests; the
# recipe then says "dirty").
set -euo pipefail

usage() {
    echo "usage: tools/tune/fit.sh SIZE LAMBDA CHUNK... (SIZE 3-8, LAMBDA 0 to 1)" >&2
    echo "       tools/tune/fit.sh --policy SIZE CHUNK..." >&2
    exit 2
}
policy=
[ "${1:-}" = --policy ] && policy=yes && shift
[ $# -ge 2 ] && [[ $1 =~ ^[3-8]$ ]] || usage
size=$1
shift
if [ -z "$policy" ]; then
    [ $# -ge 2 ] && [[ $1 =~ ^(0|1|0?\.[0-9]+)$ ]] || usage
    lambda=$1
    shift
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "$policy" ]; then
    out=$(realpath -m "${FIT_OUT:-$root/src/engine/policy_weights.c}") # (the fit runs from ROOT)
    recipes=${NET_RECIPES:-$root/tools/tune/policies}
else
    out=$(realpath -m "${FIT_OUT:-$root/src/engine/weights.c}")
    recipes=${NET_RECIPES:-$root/tools/tune/weights}
fi
. "$root/tools/tune/workers.sh"
heldout=data/heldout/$size.txt # (from ROOT, as in the recipe)
[ -r "$root/$heldout" ] || { echo "fit.sh: no held-out openings $heldout" >&2; exit 2; }

# Each chunk's manifest line, checked against the file as it is: each
# MANIFEST read once and every chunk's lines and checksum taken in one pass
# (a fit can take tens of thousands of chunks).
dir_of() { if [[ $1 == */* ]]; then dir=${1%/*}; else dir=.; fi; }
declare -A entry read_dir
for chunk in "$@"; do
    [ -s "$chunk" ] || { echo "fit.sh: no chunk $chunk" >&2; exit 2; }
    dir_of "$chunk"
    [ -z "${read_dir[$dir]:-}" ] || continue
    read_dir[$dir]=1
    [ -r "$dir/MANIFEST" ] || continue
    gen=$(basename "$(cd "$dir" && pwd)")
    # (a chunk's last line wins, as a chunk played again is written again)
    while IFS=$'\t' read -r f line; do
        entry[$dir/$f]=$line
    done < <(awk -v g="$gen" '$1 == "chunk" && $2 == g { print $4 "\t" $0 }' "$dir/MANIFEST")
done
mapfile -t counts < <(wc -l -- "$@" | awk -v n=$# 'NR <= n { print $1 }')
mapfile -t sums < <(sha256sum -- "$@" | sed 's/^\\//' | cut -d' ' -f1)
lines=()
i=0
for chunk in "$@"; do
    dir_of "$chunk"
    line=${entry[$dir/${chunk##*/}]:-}
    [ -n "$line" ] || { echo "fit.sh: $chunk has no line in $(cd "$dir" && pwd)/MANIFEST" >&2; exit 2; }
    read -r _ _ _ _ chunk_size _ _ _ _ count sum <<<"$line"
    [ "$chunk_size" = "$size" ] || { echo "fit.sh: $chunk is of size $chunk_size, not $size" >&2; exit 2; }
    if [ "${counts[i]}" != "$count" ] || [ "${sums[i]}" != "$sum" ]; then
        echo "fit.sh: $chunk differs from its manifest line" >&2
        exit 1
    fi
    lines+=("$line")
    i=$((i + 1))
done

positions=$(cat "$@" | grep -vc '^#' || true)
# (tune fit leaves a size with fewer positions as it is.)
[ "$positions" -ge 500 ] || { echo "fit.sh: $positions positions; a fit needs 500" >&2; exit 2; }
commit=$(tree_commit "$root")
make -C "$root" --no-print-directory build/tools/tune/tune >/dev/null
tune=$root/build/tools/tune/tune
chunks=()
for chunk in "$@"; do chunks+=("$(realpath "$chunk")"); done
mkdir -p "$recipes"
if [ -n "$policy" ]; then
    args=(--heldout "$heldout")
    (cd "$root" && "$tune" policy "$out" "$size" "${args[@]}" "${chunks[@]}")
    what="move policy of src/engine/policy_weights.c" kind=policy rebuild="--policy $size"
    fitted="policy COMMIT SIZE ARGS: the tuner of COMMIT fits the moves the chunks' games played, in this order."
    recorded="policy $commit $size ${args[*]}"
else
    args=(--sizes "$size" --lambda "$lambda" --heldout "$heldout")
    # (From ROOT: the --heldout paths are the recipe's, relative to it.)
    (cd "$root" && "$tune" fit "$out" "${args[@]}" "${chunks[@]}")
    what="linear weights of src/engine/weights.c" kind=linear rebuild="--linear $size"
    fitted="linear COMMIT SIZE ARGS: the tuner of COMMIT fits the chunks, in this order."
    recorded="linear $commit $size ${args[*]}"
fi
{
    echo "# The ${size}x$size $what, written by tools/tune/fit.sh."
    echo "# Rebuild them, data and all, with: tools/tune/rebuild.sh $rebuild"
    echo "# $fitted"
    echo "# chunk GENERATION COMMIT FILE SIZE GAMES NODES SEED HALF_KOMI LINES SHA256 train:"
    echo "#   made by COMMIT's tuner as: tune gen SIZE GAMES NODES SEED HALF_KOMI --scores --heldout H,"
    echo "#   H being COMMIT's data/heldout/SIZE.txt"
    echo "# heldout SET SHA256: the fit leaves out every game through an opening of SET (--heldout SET)"
    echo "heldout $heldout $(sha256sum "$root/$heldout" | cut -d' ' -f1)"
    echo "$recorded"
    printf '%s train\n' "${lines[@]}"
} >"$recipes/$size.recipe"
echo "fit.sh: wrote $out and $recipes/$size.recipe ($kind)"
