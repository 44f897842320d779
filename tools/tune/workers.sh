# workers.sh: the background workers of train.sh and distil.sh, one a core.
# Sourced, not run. A worker is a shell function taking its number (0..N-1)
# that writes each result to FILE.part and renames it to FILE when done, so
# a stopped run leaves only finished files behind.

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

# stop_workers: each worker first (so it starts nothing new), then the
# program it was running; then the unfinished *.part files are dropped.
stop_workers() {
    local p child
    for p in "${worker_pids[@]}"; do
        child=$(pgrep -P "$p" || true)
        kill "$p" 2>/dev/null || true
        [ -n "$child" ] && kill $child 2>/dev/null || true
    done
    wait 2>/dev/null || true
    rm -f "$worker_dir"/*.part
    trap - INT TERM
}
