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
#    manifests under DATA_DIR, the chunks of every twentieth turn through a
#    generation's sizes (DATA_DIR/NAME/SIZES) held out whole (so the
#    held-out loss is over games the fit never saw), leaving out every game
#    that passed through an opening of the held-out set (`tune net
#    --heldout data/heldout/SIZE.txt`), so generations played before the
#    set was chosen are fitted clear of it;
#    rewrites src/engine/net_weights.c (NET_OUT: another file instead) and
#    writes the size's recipe, tools/tune/nets/SIZE.recipe (NET_RECIPES:
#    another folder): every chunk and the fit's commit and arguments, from
#    which tools/tune/rebuild.sh SIZE makes the data and the network again.
# NET_NODESn (default 10000 up to 5x5, 8000 above) sets the nodes a move of
# size n; NET_EPOCHSn (40 / 20) the epochs; NET_LAMBDAn (0 to 1; tune
# net's default, 0.25, where unset) the share of the game's result in the
# fit's targets, the rest the search's score; NET_TDn (0 to below 1; unset,
# 0) leans that score on the scores after it in its game (tune net --td);
# NET_INITn=1 fits on from the network the fit's tuner was built with
# rather than from nothing (tune net --init: the recipe's fit commit holds
# that network, so a rebuild starts where this fit did), NET_LRn its
# learning rate (tune net --lr; unset, tune net's default), NET_HIDDENn
# its hidden units (tune net --hidden; unset, tune net's default: 128, or
# with NET_INITn=1 the width of the network it goes on from).
# To play a generation's chunks on another machine: NET_FROM=N (default 1)
# skips the chunks numbered below N (their numbers, seeds and komi turn
# unchanged, so the chunks made there are the ones this machine would
# make), NET_TUNER=PATH plays with PATH (the generation's frozen tuner,
# DATA_DIR/tune-NAME, or a script that runs it) instead of building one,
# for a generation whose DATA_DIR/NAME/COMMIT exists (no git or make
# needed), and NET_FIT=0 plays without fitting; merge the chunks and their
# MANIFEST lines back. NET_DIRTY_OK=1 lets a tree that
# differs from its commit play and fit (tests; such a recipe says "dirty"
# and rebuild.sh needs REBUILD_TUNER for it). Judge the new networks by a
# match before committing them (bench/ELO.md). One run plays a generation
# at a time (it holds DATA_DIR/NAME/.lock; a second is refused), and an
# interrupt stops it at once.
set -euo pipefail

if [ $# -lt 3 ] || ! [[ $3 =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
    echo "usage: tools/tune/net.sh DATA_DIR NAME MINUTES [SIZES]" >&2
    exit 2
fi
data=$1 name=$2 minutes=$3 sizes=${4:-56}
[[ $sizes =~ ^[3-8]+$ ]] || { echo "net.sh: SIZES are digits 3 to 8, not '$sizes'" >&2; exit 2; }
[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "net.sh: NAME is letters, digits, '.', '_' and '-'" >&2; exit 2; }
from=${NET_FROM:-1} fit=${NET_FIT:-1} given_tuner=${NET_TUNER:-}
[[ $from =~ ^[1-9][0-9]*$ ]] || { echo "net.sh: NET_FROM is a chunk number from 1, not '$from'" >&2; exit 2; }
[[ $fit =~ ^[01]$ ]] || { echo "net.sh: NET_FIT is 0 (play only) or 1, not '$fit'" >&2; exit 2; }
if [ -n "$given_tuner" ]; then
    [ -x "$given_tuner" ] || { echo "net.sh: NET_TUNER $given_tuner is not a program" >&2; exit 2; }
    [ -s "$data/$name/COMMIT" ] ||
        { echo "net.sh: NET_TUNER plays a generation begun elsewhere: $data/$name/COMMIT is missing" >&2; exit 2; }
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
workers=${TRAIN_WORKERS:-$(nproc)}
out=$(realpath -m "${NET_OUT:-$root/src/engine/net_weights.c}") # (the fit runs from ROOT)
recipes=${NET_RECIPES:-$root/tools/tune/nets}
. "$root/tools/tune/workers.sh"

# The sigmoid scale of each size (what the linear fit found, README.md),
# the nodes a move, and the epochs, weight decay and results' share of
# its fit.
declare -A k=([3]=66 [4]=66 [5]=66 [6]=94 [7]=94 [8]=94)
nodes() { local v="NET_NODES$1"; echo "${!v:-$([ "$1" -le 5 ] && echo 10000 || echo 8000)}"; }
epochs() { local v="NET_EPOCHS$1"; echo "${!v:-$([ "$1" -le 5 ] && echo 40 || echo 20)}"; }
decay() { [ "$1" -le 5 ] && echo 0.05 || echo 0.1; }
lambda() { local v="NET_LAMBDA$1"; echo "${!v:-}"; }
td() { local v="NET_TD$1"; echo "${!v:-}"; }
init() { local v="NET_INIT$1"; echo "${!v:-0}"; }
lr() { local v="NET_LR$1"; echo "${!v:-}"; }
hidden() { local v="NET_HIDDEN$1"; echo "${!v:-}"; }

for size in $(echo "$sizes" | grep -o . | sort -u); do
    [ -r "$root/data/heldout/$size.txt" ] || { echo "net.sh: no held-out openings data/heldout/$size.txt" >&2; exit 2; }
    l=$(lambda "$size")
    [ -z "$l" ] || [[ $l =~ ^(0(\.[0-9]+)?|1(\.0*)?)$ ]] ||
        { echo "net.sh: NET_LAMBDA$size is a share from 0 to 1, not '$l'" >&2; exit 2; }
    t=$(td "$size")
    [ -z "$t" ] || [[ $t =~ ^0(\.[0-9]+)?$ ]] ||
        { echo "net.sh: NET_TD$size is from 0 to below 1, not '$t'" >&2; exit 2; }
    [[ $(init "$size") =~ ^[01]$ ]] || { echo "net.sh: NET_INIT$size is 0 or 1, not '$(init "$size")'" >&2; exit 2; }
    r=$(lr "$size")
    [ -z "$r" ] || { [[ $r =~ ^[0-9]+(\.[0-9]+)?(e-?[0-9]+)?$ ]] && awk -v r="$r" 'BEGIN { exit !(r > 0) }'; } ||
        { echo "net.sh: NET_LR$size is a positive number, not '$r'" >&2; exit 2; }
    h=$(hidden "$size")
    [ -z "$h" ] || [[ $h =~ ^[1-9][0-9]*$ ]] ||
        { echo "net.sh: NET_HIDDEN$size is a number of hidden units, not '$h'" >&2; exit 2; }
done

mkdir -p "$data/$name"
data=$(cd "$data" && pwd)
# One run a generation at a time: a second would play the same chunks and
# its stop would drop the first's unfinished ones.
exec 9>"$data/$name/.lock"
if ! flock -n 9; then
    echo "net.sh: generation $name is being played by another run (it holds $data/$name/.lock); stop that one first" >&2
    exit 2
fi
# A generation keeps the sizes it started with: its chunks' numbers and its
# held-out turns follow them.
[ -f "$data/$name/SIZES" ] || echo "$sizes" >"$data/$name/SIZES"
if [ "$(cat "$data/$name/SIZES")" != "$sizes" ]; then
    echo "net.sh: generation $name was started with SIZES $(cat "$data/$name/SIZES"), not $sizes" >&2
    exit 2
fi
if [ -n "${NET_OUT:-}" ] && [ "$(echo "$sizes" | grep -o . | sort -u | wc -l)" -gt 1 ]; then
    # tune net writes the other sizes' networks as its tuner knows them, so a
    # second size's fit into NET_OUT would drop the first's.
    echo "net.sh: with NET_OUT, fit one size at a time" >&2
    exit 2
fi
# The commit the tuner is built from; the networks' weights file and the
# recipes are what a fit writes, so they may differ from it. A given tuner
# is the generation's own, its commit already recorded.
if [ -n "$given_tuner" ]; then
    tune=$given_tuner
else
    commit=$(tree_commit "$root")
    [ -f "$data/$name/COMMIT" ] || echo "$commit" >"$data/$name/COMMIT"
    tune=$(frozen_tuner "$root" "$data" "$name")
fi
seed=$(printf %s "$name" | cksum | cut -d' ' -f1)

# Chunks of four games, the sizes in turn; of every four of a size one at
# komi 0, the rest at komi 2.
worker() {
    local w=$1 i=0 size hk s f args
    while :; do
        for size in $(echo "$sizes" | grep -o .); do
            i=$((i + 1))
            if [ "$i" -lt "$from" ] || [ $((i % workers)) -ne "$w" ]; then continue; fi
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
            # Recorded before it is published: a chunk on disk is in the
            # manifest (a stop between the two leaves a line whose file is
            # missing, played again on resuming; never a file with no line).
            echo "chunk $name $(cat "$data/$name/COMMIT") $f $args $(wc -l <"$data/$name/$f.part")" \
                "$(sha256sum "$data/$name/$f.part" | cut -d' ' -f1)" >>"$data/$name/MANIFEST"
            mv "$data/$name/$f.part" "$data/$name/$f"
        done
    done
}

seconds=$(awk -v m="$minutes" 'BEGIN { print m * 60 }')
if [ "$seconds" != 0 ]; then
    start_workers worker "$workers" "$data/$name"
    sleep "$seconds" 9>&- & # the timer does not hold the lock
    timer=$!
    trap 'kill $timer 2>/dev/null; stop_workers; exit 1' INT TERM
    wait $timer || true
    stop_workers
fi
[ "$fit" = 1 ] || exit 0

# Every chunk of the size in every generation's manifest whose file is
# there; those of every twentieth turn through the generation's sizes held
# out, each chunk's line marked train or valid in the recipe. The fits use the tuner of the tree as it is now (its linear
# weights make the network's targets), whatever tuner played the games.
fit_dir=$data/.fit
mkdir -p "$fit_dir" "$recipes"
fit_commit=$(tree_commit "$root")
make -C "$root" --no-print-directory build/tools/tune/tune >/dev/null
tune=$root/build/tools/tune/tune
for size in $(echo "$sizes" | grep -o . | sort -u); do
    cat "$data"/*/MANIFEST 2>/dev/null | awk -v s="$size" '$1 == "chunk" && $5 == s' | sort -u -k2,2 -k4,4 \
        >"$fit_dir/manifest$size"
    train=() valid=()
    : >"$fit_dir/chunks$size"
    while read -r line; do
        read -r _ gen _ f _ <<<"$line"
        [ -s "$data/$gen/$f" ] || continue
        turns=$(wc -c <"$data/$gen/SIZES")
        turns=$((turns - 1)) # the sizes' digits, without the newline
        n=$(echo "$f" | sed 's/^c0*\([0-9]*\)_.*/\1/')
        if [ $(((n - 1) / turns % 20)) -eq 19 ]; then
            valid+=("$data/$gen/$f")
            echo "$line valid" >>"$fit_dir/chunks$size"
        else
            train+=("$data/$gen/$f")
            echo "$line train" >>"$fit_dir/chunks$size"
        fi
    done <"$fit_dir/manifest$size"
    [ ${#train[@]} -gt 0 ] || { echo "net.sh: no data of size $size under $data" >&2; exit 1; }
    cat "${train[@]}" >"$fit_dir/train$size.txt"
    cat "${valid[@]}" /dev/null >"$fit_dir/valid$size.txt"
    echo "net.sh: fitting the ${size}x$size network to $(grep -vc '^#' "$fit_dir/train$size.txt") lines," \
        "$(grep -vc '^#' "$fit_dir/valid$size.txt" || true) held out"
    heldout=data/heldout/$size.txt # (from ROOT, as in the recipe)
    fit_args=(--k "${k[$size]}" --epochs "$(epochs "$size")" --decay "$(decay "$size")")
    fit_args+=(--heldout "$heldout")
    l=$(lambda "$size")
    [ -z "$l" ] || fit_args+=(--lambda "$l")
    t=$(td "$size")
    [ -z "$t" ] || fit_args+=(--td "$t")
    [ "$(init "$size")" = 0 ] || fit_args+=(--init)
    r=$(lr "$size")
    [ -z "$r" ] || fit_args+=(--lr "$r")
    h=$(hidden "$size")
    [ -z "$h" ] || fit_args+=(--hidden "$h")
    # (From ROOT: the --heldout paths are the recipe's, relative to it.)
    (cd "$root" && "$tune" net "$out" "$size" "${fit_args[@]}" --valid "$fit_dir/valid$size.txt" \
        "$fit_dir/train$size.txt")
    {
        echo "# The ${size}x$size network of src/engine/net_weights.c, written by tools/tune/net.sh."
        echo "# Rebuild it, data and all, with: tools/tune/rebuild.sh $size"
        echo "# fit COMMIT SIZE ARGS: the tuner of COMMIT fits the chunks (those marked valid held out)."
        echo "# chunk GENERATION COMMIT FILE SIZE GAMES NODES SEED HALF_KOMI LINES SHA256 train|valid:"
        echo "#   made by COMMIT's tuner as: tune gen SIZE GAMES NODES SEED HALF_KOMI --scores --heldout H,"
        echo "#   H being COMMIT's data/heldout/SIZE.txt; fitted to, or held out of the fit"
        echo "# heldout SET SHA256: the fit leaves out every game through an opening of SET (--heldout SET)"
        echo "heldout $heldout $(sha256sum "$root/$heldout" | cut -d' ' -f1)"
        echo "fit $fit_commit $size ${fit_args[*]}"
        cat "$fit_dir/chunks$size"
    } >"$recipes/$size.recipe"
    # The next size's fit keeps this one: the tuner that writes it must know it.
    if [ "$out" = "$(realpath -m "$root/src/engine/net_weights.c")" ]; then
        make -C "$root" --no-print-directory build/tools/tune/tune >/dev/null
    fi
done
echo "net.sh: wrote $out"
