#!/bin/bash
# fit.sh: fits the linear weights of one size to chunks net.sh played, and
# writes the recipe that makes the data and the weights again.
#
#   tools/tune/fit.sh SIZE LAMBDA CHUNK...
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
# SIZE` plays every chunk again and refits. NET_DIRTY_OK=1 lets a tree that
# differs from its commit fit (tests; the recipe then says "dirty").
set -euo pipefail

if [ $# -lt 3 ] || ! [[ $1 =~ ^[3-8]$ ]] || ! [[ $2 =~ ^(0|1|0?\.[0-9]+)$ ]]; then
    echo "usage: tools/tune/fit.sh SIZE LAMBDA CHUNK... (SIZE 3-8, LAMBDA 0 to 1)" >&2
    exit 2
fi
size=$1 lambda=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${FIT_OUT:-$root/src/engine/weights.c}") # (the fit runs from ROOT)
recipes=${NET_RECIPES:-$root/tools/tune/weights}
. "$root/tools/tune/workers.sh"
heldout=data/heldout/$size.txt # (from ROOT, as in the recipe)
[ -r "$root/$heldout" ] || { echo "fit.sh: no held-out openings $heldout" >&2; exit 2; }

# Each chunk's manifest line, checked against the file as it is.
lines=()
for chunk in "$@"; do
    [ -s "$chunk" ] || { echo "fit.sh: no chunk $chunk" >&2; exit 2; }
    dir=$(cd "$(dirname "$chunk")" && pwd) f=$(basename "$chunk")
    gen=$(basename "$dir")
    line=
    [ -r "$dir/MANIFEST" ] && line=$(awk -v g="$gen" -v f="$f" '$1 == "chunk" && $2 == g && $4 == f' "$dir/MANIFEST" | tail -n 1)
    [ -n "$line" ] || { echo "fit.sh: $chunk has no line in $dir/MANIFEST" >&2; exit 2; }
    read -r _ _ _ _ chunk_size _ _ _ _ count sum <<<"$line"
    [ "$chunk_size" = "$size" ] || { echo "fit.sh: $chunk is of size $chunk_size, not $size" >&2; exit 2; }
    if [ "$(wc -l <"$chunk")" != "$count" ] || [ "$(sha256sum "$chunk" | cut -d' ' -f1)" != "$sum" ]; then
        echo "fit.sh: $chunk differs from its manifest line" >&2
        exit 1
    fi
    lines+=("$line")
done

positions=$(cat "$@" | grep -vc '^#' || true)
# (tune fit leaves a size with fewer positions as it is.)
[ "$positions" -ge 500 ] || { echo "fit.sh: $positions positions; a fit needs 500" >&2; exit 2; }
commit=$(tree_commit "$root")
make -C "$root" --no-print-directory build/tools/tune/tune >/dev/null
tune=$root/build/tools/tune/tune
args=(--sizes "$size" --lambda "$lambda" --heldout "$heldout")
chunks=()
for chunk in "$@"; do chunks+=("$(realpath "$chunk")"); done
# (From ROOT: the --heldout paths are the recipe's, relative to it.)
(cd "$root" && "$tune" fit "$out" "${args[@]}" "${chunks[@]}")
mkdir -p "$recipes"
{
    echo "# The ${size}x$size linear weights of src/engine/weights.c, written by tools/tune/fit.sh."
    echo "# Rebuild them, data and all, with: tools/tune/rebuild.sh --linear $size"
    echo "# linear COMMIT SIZE ARGS: the tuner of COMMIT fits the chunks, in this order."
    echo "# chunk GENERATION COMMIT FILE SIZE GAMES NODES SEED HALF_KOMI LINES SHA256 train:"
    echo "#   made by COMMIT's tuner as: tune gen SIZE GAMES NODES SEED HALF_KOMI --scores --heldout H,"
    echo "#   H being COMMIT's data/heldout/SIZE.txt"
    echo "# heldout SET SHA256: the fit leaves out every game through an opening of SET (--heldout SET)"
    echo "heldout $heldout $(sha256sum "$root/$heldout" | cut -d' ' -f1)"
    echo "linear $commit $size ${args[*]}"
    printf '%s train\n' "${lines[@]}"
} >"$recipes/$size.recipe"
echo "fit.sh: wrote $out and $recipes/$size.recipe"
