# workers.sh: what the tuning scripts share: the background workers, one a
# core, and the frozen copy of the tuner they run. Sourced, not run. A
# worker is a shell function taking its number (0..N-1) that writes each
# result to FILE.part and renames it to FILE when done, so a stopped run
# leaves only finished files behind.

worker_pids=()
worker_dir=

# start_workers FUNCTION COUNT DIR: runs FUNCTION 0 .. FUNCTION COUNT-1 in
# the background, writing into DIR; an interrupt stops them and exits.
start_workers() {
    local w
    worker_dir=$3
    trap 'stop_workers; exit 1' INT TERM
    for w in $(seq 0 $(($2 - 1))); do
        "$1" "$w" &
        worker_pids+=($!)
    done
}

# frozen_tuner ROOT DATA NAME: builds the tuner with the weights now in
# src/engine/weights.c and prints the path of its copy DATA/tune-NAME, made
# once, so that a rebuild during a run (or a resumed run) changes nothing.
frozen_tuner() {
    make -C "$1" --no-print-directory build/tools/tune/tune >/dev/null || return 1
    [ -x "$2/tune-$3" ] || cp "$1/build/tools/tune/tune" "$2/tune-$3" || return 1
    echo "$2/tune-$3"
}

# tree_commit ROOT: the commit the tuner built from ROOT's tree is, for a
# recipe: HEAD, when nothing the tuner is built from differs from it (the
# networks' and the move policy's weights files and their recipes are what
# a fit writes, so they may);
# HEAD-dirty when something does and NET_DIRTY_OK is set; else an error.
tree_commit() {
    local head changed
    head=$(git -C "$1" rev-parse HEAD) || return 1
    changed=$(git -C "$1" status --porcelain --untracked-files=no -- src include tools/tune Makefile |
        grep -v -e 'src/engine/net_weights\.c$' -e 'tools/tune/nets/' \
            -e 'src/engine/policy_weights\.c$' -e 'tools/tune/policies/' || true)
    if [ -z "$changed" ]; then
        echo "$head"
    elif [ -n "${NET_DIRTY_OK:-}" ]; then
        echo "$head-dirty"
    else
        echo "the tuner would be built from changes not committed (commit them, or NET_DIRTY_OK=1):" >&2
        echo "$changed" >&2
        return 1
    fi
}

# stop_workers: each worker first (so it starts nothing new), then the
# program it was running; then the unfinished *.part files are dropped. It
# waits for the workers alone: a bare `wait` would also wait for the
# caller's other children (net.sh's timer), so an interrupted run hung
# until its MINUTES were up.
stop_workers() {
    local p child
    for p in "${worker_pids[@]}"; do
        child=$(pgrep -P "$p" || true)
        kill "$p" 2>/dev/null || true
        [ -n "$child" ] && kill $child 2>/dev/null || true
    done
    [ ${#worker_pids[@]} -eq 0 ] || wait "${worker_pids[@]}" 2>/dev/null || true
    rm -f "$worker_dir"/*.part
    trap - INT TERM
}
