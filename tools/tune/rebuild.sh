#!/bin/bash
# rebuild.sh: makes a size's network, its linear weights or its move policy
# again from the repository alone.
#
#   tools/tune/rebuild.sh [--linear | --policy] SIZE [WORK_DIR]
#
# Reads tools/tune/nets/SIZE.recipe (written by net.sh when it fitted the
# network), or with --linear tools/tune/weights/SIZE.recipe, with --policy
# tools/tune/policies/SIZE.recipe (both written by fit.sh; NET_RECIPES:
# another folder for any), and
# 1. builds the tuner of every commit the recipe names, each from that
#    commit's tree (git archive), so each chunk is played by the engine that
#    played it first;
# 2. plays every chunk again on every core (`tune gen` with the recorded
#    arguments and, as net.sh did, its commit's data/heldout/SIZE.txt; a
#    chunk already in WORK_DIR with the right checksum is kept, so a stopped
#    rebuild resumes) and checks its line count and SHA-256 against the
#    recipe's;
# 3. checks the recipe's held-out sets (its `heldout` lines) against their
#    checksums; where the fit's arguments do not leave out the games
#    through them (--heldout, recipes since the forty-first session),
#    checks that no game passed through one;
# 4. fits the network with the recorded commit's tuner and arguments (the
#    chunks marked train; those marked valid held out) into
#    WORK_DIR/net_weights.c and compares the size's arrays with
#    src/engine/net_weights.c; or the linear weights (`tune fit`, the chunks
#    in the recipe's order) into WORK_DIR/weights.c, compared with the
#    size's table in src/engine/weights.c; or the move policy (`tune
#    policy`, the chunks in the recipe's order) into
#    WORK_DIR/policy_weights.c, compared with the size's table in
#    src/engine/policy_weights.c (NET_COMPARE: another file for any):
#    "identical" or a difference, and the exit status says which.
# The chunks that came out as recorded are added to WORK_DIR/GENERATION/MANIFEST,
# so the replayed data can be fitted again (fit.sh; net.sh with the
# generation's SIZES file, the sizes it was played with, beside it).
# WORK_DIR defaults to /tmp/tak-rebuild-SIZE; keep it outside the work tree.
# Self-play is deterministic for one compiler and CPU family (the build is
# -march=native); a checksum that differs elsewhere is reported, and the fit
# goes on with the chunks as played here. REBUILD_TUNER=PATH uses that tuner
# for every commit instead (tests, or a recipe from a tree that was dirty).
set -euo pipefail

# What is rebuilt, by the recipe line that fits it: fit (a network),
# linear or policy.
fit_kind=fit
case ${1:-} in
--linear) fit_kind=linear && shift ;;
--policy) fit_kind=policy && shift ;;
esac
if [ $# -lt 1 ] || ! [[ $1 =~ ^[3-8]$ ]]; then
    echo "usage: tools/tune/rebuild.sh [--linear | --policy] SIZE [WORK_DIR]" >&2
    exit 2
fi
size=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
case $fit_kind in
policy)
    recipe=${NET_RECIPES:-$root/tools/tune/policies}/$size.recipe
    work=${2:-/tmp/tak-rebuild-policy-$size}
    compare=${NET_COMPARE:-$root/src/engine/policy_weights.c} ;;
linear)
    recipe=${NET_RECIPES:-$root/tools/tune/weights}/$size.recipe
    work=${2:-/tmp/tak-rebuild-linear-$size}
    compare=${NET_COMPARE:-$root/src/engine/weights.c} ;;
*)
    recipe=${NET_RECIPES:-$root/tools/tune/nets}/$size.recipe
    work=${2:-/tmp/tak-rebuild-$size}
    compare=${NET_COMPARE:-$root/src/engine/net_weights.c} ;;
esac
workers=${TRAIN_WORKERS:-$(nproc)}
[ -r "$recipe" ] || { echo "rebuild.sh: no recipe $recipe" >&2; exit 2; }
mkdir -p "$work"
work=$(cd "$work" && pwd)

# tuner COMMIT: the path of COMMIT's tuner, built once under WORK_DIR.
tuner() {
    if [ -n "${REBUILD_TUNER:-}" ]; then
        echo "$REBUILD_TUNER"
        return
    fi
    case $1 in *-dirty)
        echo "rebuild.sh: $1 was a tree with changes not committed; give REBUILD_TUNER" >&2
        return 1 ;;
    esac
    local dir=$work/src-$1
    if [ ! -x "$dir/build/tools/tune/tune" ]; then
        rm -rf "$dir" && mkdir -p "$dir"
        git -C "$root" archive "$1" | tar -x -C "$dir"
        make -C "$dir" --no-print-directory -j"$workers" build/tools/tune/tune >&2
    fi
    echo "$dir/build/tools/tune/tune"
}

for kind in heldout "$fit_kind" chunk; do
    grep -q "^$kind " "$recipe" || { echo "rebuild.sh: $recipe has no '$kind' line" >&2; exit 2; }
done
if grep '^chunk ' "$recipe" | awk 'NF != 12 || ($12 != "train" && $12 != "valid") { bad = 1 } END { exit !bad }'; then
    echo "rebuild.sh: $recipe: a chunk line is not GENERATION COMMIT FILE SIZE GAMES NODES SEED HALF_KOMI LINES SHA256 train|valid" >&2
    exit 2
fi
read -r _ fit_commit fit_size fit_args < <(grep "^$fit_kind " "$recipe")
[ "$fit_size" = "$size" ] || { echo "rebuild.sh: $recipe fits size $fit_size" >&2; exit 2; }
# Every held-out set as the recipe recorded it; the first is the set a
# chunk's games were kept clear of when the tuner is given rather than built
# from the chunk's commit.
heldout=
while read -r _ heldout_file heldout_sum; do
    if [ "$(sha256sum "$root/$heldout_file" 2>/dev/null | cut -d' ' -f1)" != "$heldout_sum" ]; then
        echo "rebuild.sh: $heldout_file is not the held-out set the recipe was checked against" >&2
        exit 1
    fi
    heldout=${heldout:-$root/$heldout_file}
done < <(grep '^heldout ' "$recipe")

# Every commit's tuner first (serially: each build uses every core).
for c in $(awk '$1 == "chunk" { print $3 }' "$recipe" | sort -u) "$fit_commit"; do
    tuner "$c" >/dev/null
done

# Then the chunks, WORKERS at a time.
play() {
    local gen=$1 commit=$2 f=$3 lines=$4 sum=$5
    shift 5
    local dest=$work/$gen/$f
    mkdir -p "$work/$gen"
    local set=$work/src-$commit/data/heldout/$1.txt # (the chunk's size)
    [ -z "${REBUILD_TUNER:-}" ] && [ -r "$set" ] || set=$heldout
    if [ ! -f "$dest" ] || [ "$(sha256sum "$dest" | cut -d' ' -f1)" != "$sum" ]; then
        if ! "$(tuner "$commit")" gen "$@" --scores --heldout "$set" >"$dest.part" 2>"$dest.err"; then
            echo "rebuild.sh: tune gen $* failed: $(tail -n 1 "$dest.err")" >&2
            return 1
        fi
        mv "$dest.part" "$dest"
        rm -f "$dest.err"
    fi
    if [ "$(sha256sum "$dest" | cut -d' ' -f1)" != "$sum" ]; then
        echo "rebuild.sh: $gen/$f differs from the recipe's ($(wc -l <"$dest") lines, $lines recorded)"
    fi
}
export -f play tuner
export work root heldout workers REBUILD_TUNER
awk '$1 == "chunk" { print $2, $3, $4, $10, $11, $5, $6, $7, $8, $9 }' "$recipe" |
    xargs -P "$workers" -L 1 bash -c 'play "$@"' _ >"$work/differs"
chunks=$(grep -c '^chunk ' "$recipe")
if [ -s "$work/differs" ]; then
    cat "$work/differs" >&2
    echo "rebuild.sh: $(wc -l <"$work/differs") of $chunks chunks differ from the recipe; fitting them as played here" >&2
else
    echo "rebuild.sh: $chunks chunks played again, every checksum as recorded"
fi
# The chunks that came out as recorded join their generation's MANIFEST
# under WORK_DIR (net.sh's lines; those already there stay), so fit.sh can
# fit them again, and net.sh too once the generation's SIZES is there.
for gen in $(awk '$1 == "chunk" { print $2 }' "$recipe" | sort -u); do
    manifest=$work/$gen/MANIFEST
    touch "$manifest"
    awk -v g="$gen" 'FILENAME == ARGV[1] { differ[$2] = 1; next } # "rebuild.sh: GEN/FILE differs ..."
        FILENAME == ARGV[2] { have[$0] = 1; next }
        $1 == "chunk" && $2 == g { NF = 11; if (!($0 in have) && !((g "/" $4) in differ)) print }' \
        "$work/differs" "$manifest" "$recipe" >"$manifest.new"
    cat "$manifest.new" >>"$manifest" && rm "$manifest.new"
done

train=() valid=()
while read -r _ gen _ f _ _ _ _ _ _ _ part; do
    if [ "$part" = valid ]; then valid+=("$work/$gen/$f"); else train+=("$work/$gen/$f"); fi
done < <(grep '^chunk ' "$recipe")
fit_tune=$(tuner "$fit_commit")
# A fit that leaves out the games through the held-out sets says how many;
# an older one was given data clear of its set, as this checks.
[[ " $fit_args " == *" --heldout "* ]] || "$fit_tune" heldout "$size" "$heldout" -- "${train[@]}" "${valid[@]}"
# What is compared: the size's table of linear weights, from its first line
# to the line that closes it; or the size's arrays and network, without the
# line saying how it was made.
table() { awk -v s="$size" '$0 == "    [" s "] = {{" { on = 1 } on { print } on && /^    }},?$/ { on = 0 }' "$1"; }
arrays() {
    awk -v s="$size" '$0 ~ "^static const [A-Za-z0-9_]+ [a-z0-9_]+_" s "[[ ]" { on = 1 }
        on && !/^ *"/ { print }
        on && /};$/ { on = 0 }' "$1"
}
case $fit_kind in
policy)
    rebuilt=$work/policy_weights.c section=arrays what="move policy" is=is differs=differs
    # shellcheck disable=SC2086
    (cd "$root" && "$fit_tune" policy "$rebuilt" "$size" $fit_args "${train[@]}") ;;
linear)
    rebuilt=$work/weights.c section=table what="linear weights" is=are differs=differ
    # shellcheck disable=SC2086
    (cd "$root" && "$fit_tune" fit "$rebuilt" $fit_args "${train[@]}") ;; # (--heldout paths from ROOT)
*)
    rebuilt=$work/net_weights.c section=arrays what=network is=is differs=differs
    cat "${train[@]}" >"$work/train.txt"
    cat "${valid[@]}" /dev/null >"$work/valid.txt"
    # shellcheck disable=SC2086
    (cd "$root" && "$fit_tune" net "$rebuilt" "$size" $fit_args --valid "$work/valid.txt" "$work/train.txt") ;;
esac
if [ -z "$($section "$rebuilt")" ]; then
    echo "rebuild.sh: the fit wrote no ${size}x$size $what" >&2
    exit 1
elif diff -q <($section "$rebuilt") <($section "$compare") >/dev/null; then
    echo "rebuild.sh: the ${size}x$size $what $is identical to $compare's"
else
    echo "rebuild.sh: the ${size}x$size $what $differs from $compare's (rebuilt: $rebuilt)" >&2
    exit 1
fi
