# shellcheck shell=bash
# tiltak-common.sh: what bench/vs-tiltak.sh and bench/vs-tiltak-nodes.sh
# share, sourced by both: the openings' file for a size, a copy of
# build/tak (rebuilt first) that a rebuild during a match cannot change,
# and the tally of how the games ended.
#
#   tiltak_setup NAME SIZE OUT_DIR
#
# NAME is the calling script's (for messages). The openings are our
# held-out set, data/heldout/SIZE.txt, which no training game passed
# through; with OPENINGS set, racetrack's balanced openings in that folder
# instead (for comparison with earlier matches). Sets book (a copy in
# OUT_DIR without comment lines, which racetrack would not read), root,
# stamp (the match's start, for file names) and ours (the copy).
# OURS_BIN, when set, is the binary to copy instead of build/tak (a
# candidate built elsewhere); the copy is then named after it.
tiltak_setup() {
    local name=$1 size=$2 out=$3 src label openings
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    if [ -n "${OPENINGS:-}" ]; then
        openings="$OPENINGS/${size}s_4ply_balanced_openings.txt"
    else
        openings="$root/data/heldout/$size.txt"
    fi
    [ -r "$openings" ] || { echo "$name: no openings for size $size at $openings" >&2; exit 2; }
    if [ -n "${OURS_BIN:-}" ]; then
        [ -x "$OURS_BIN" ] || { echo "$name: OURS_BIN $OURS_BIN is not an executable" >&2; exit 2; }
        src=$OURS_BIN label=$(basename "$OURS_BIN")
    else
        make -C "$root" --no-print-directory build/tak >/dev/null
        src=$root/build/tak label=$(git -C "$root" rev-parse --short HEAD)
    fi
    mkdir -p "$out"
    stamp=$(date +%Y%m%d-%H%M%S)
    book="$out/openings-$stamp-$size.txt"
    grep -v '^#' "$openings" >"$book"
    ours="$out/tak-$label-$stamp"
    cp "$src" "$ours"
}

# tiltak_tally PTN OURS: how many games ended each way (R road, F flat
# count, 1/2 drawn), by our colour: "white" when Player1 is OURS. A game's
# tags may come in any order; a tag line after move text starts a new game.
tiltak_tally() {
    awk -v ours="$2" '
        function tag(line, name) { sub("^\\[" name " \"", "", line); sub("\"\\].*$", "", line); return line }
        function flush() { if (res != "") print (p1 == ours ? "white" : "black"), res; p1 = res = ""; moves = 0 }
        /^\[/ { if (moves) flush()
                if ($0 ~ /^\[Player1 "/) p1 = tag($0, "Player1")
                if ($0 ~ /^\[Result "/) res = tag($0, "Result")
                next }
        NF { moves = 1 }
        END { flush() }' "$1" | LC_ALL=C sort | uniq -c
}
