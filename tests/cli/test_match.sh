#!/usr/bin/env bash
# test_match.sh: `tak match` on tiny node-limited matches: our engine against
# itself in process and against `tak tei` run as a program, with every game
# written as PTN that `tak replay` reads back; and broken engines (one that
# never answers, one that hangs on go, one that plays nonsense, one that
# dies) lose their games without stopping the match.
. "$(dirname "$0")/lib/common.sh"
book=data/books/5.tps

# plays NAME ARGS...: runs a match; checks exit 0 and the summary.
plays() {
    local name=$1
    shift
    tak match "$@"
    expect_rc "$name: exit 0" 0
    expect_match "$name: score line" "$out" '^Score of .* vs .*: [0-9]+ - [0-9]+ - [0-9]+ '
    expect_match "$name: Elo line" "$out" '^Elo difference: .*LOS: '
}

# replayable NAME DIR COUNT: DIR holds COUNT games that tak replay accepts.
replayable() {
    local name=$1 dir=$2 count=$3 n=0 f
    for f in "$dir"/game-*.ptn; do
        [ -e "$f" ] || continue
        n=$((n + 1))
        tak replay "$f"
        if [ "$rc" -ne 0 ]; then fail "$name: replay $(basename "$f")" "exit $rc" "$err"; fi
        if ! grep -q '^\[Player1 ' "$f" || ! grep -q '^\[Result ' "$f"; then
            fail "$name: tags in $(basename "$f")" "$(head -n 12 "$f")"
        fi
    done
    expect_eq "$name: games written" "$n" "$count"
}

plays "self vs self" --self "Level=10,Hash=8" --self "Hash=8" --nodes 500 --size 5 --games 2 \
    --book "$book" --pgn-out "$scratch/self" --ptn-out "$scratch/all.ptn"
expect_match "self vs self: two games" "$out" '\] 2$'
replayable "self vs self" "$scratch/self" 2
expect_eq "all games in one file" "$(grep -c '^\[Round ' "$scratch/all.ptn")" "2"

plays "self vs program" --self "Hash=8" --engine "$TAK tei --hash 8" --nodes 500 --size 5 \
    --games 2 --concurrency 2 --book "$book" --pgn-out "$scratch/ext"
replayable "self vs program" "$scratch/ext" 2
# Colours alternate: each side is Player1 once.
expect_eq "colours alternate" "$(grep -h '^\[Player1 ' "$scratch"/ext/*.ptn | sort -u | wc -l | tr -d ' ')" "2"

plays "clock" --self "Hash=8" --engine "$TAK tei --hash 8" --tc 2+0.05 --size 4 --games 2 \
    --book data/books/4.tps --sprt elo0=0,elo1=10 --pgn-out "$scratch/tc"
expect_match "clock: SPRT line" "$out" '^SPRT: elo0=0 elo1=10 .*LLR -?[0-9.]+ \[-2.94, 2.94\]'
replayable "clock" "$scratch/tc" 2
if grep -q 'time forfeit' "$scratch"/tc/*.ptn; then fail "clock: no time forfeit" "$(grep -h Termination "$scratch"/tc/*.ptn)"; else pass; fi

# --nodes N,M: each side gets its own count, whichever colour it has.
plays "nodes per side" --engine "tee -a $scratch/go1.txt | $TAK tei --hash 8" \
    --engine "tee -a $scratch/go2.txt | $TAK tei --hash 8" --nodes 300,700 --size 5 --games 2 \
    --book "$book"
expect_eq "first side: go nodes 300 only" "$(grep '^go' "$scratch/go1.txt" | sort -u)" "go nodes 300"
expect_eq "second side: go nodes 700 only" "$(grep '^go' "$scratch/go2.txt" | sort -u)" "go nodes 700"

# Broken engines lose, quickly, and the match still ends.
silent="cat >/dev/null"
hangs="while read -r l; do case \$l in tei) echo teiok;; isready) echo readyok;; esac; done"
nonsense="while read -r l; do case \$l in tei) echo teiok;; isready) echo readyok;; go*) echo bestmove z9;; esac; done"
dies="while read -r l; do case \$l in tei) echo teiok;; isready) echo readyok;; go*) exit 3;; esac; done"
for broken in silent hangs nonsense dies; do
    start=$(date +%s)
    plays "$broken" --self "Hash=8" --engine "${!broken}" --nodes 300 --size 5 --games 2 \
        --timeout 700 --pgn-out "$scratch/$broken"
    expect_match "$broken loses both" "$out" '^Score of .*: 2 - 0 - 0 '
    replayable "$broken" "$scratch/$broken" 2
    if [ $(($(date +%s) - start)) -le 15 ]; then pass; else fail "$broken: quick" "took $(($(date +%s) - start)) s"; fi
done
expect_match "illegal move recorded" "$(cat "$scratch"/nonsense/*.ptn)" "Termination \".*illegal move 'z9'"

# tak book --flats --moves: openings of flats only, each written as its
# plies (racetrack's form), the same openings as without --moves; a match
# reads either form of book and starts each game where the plies lead.
tak book --size 5 --count 3 --seed 3 --plies 4-4 --flats --moves
expect_rc "book of plies: exit 0" 0
printf '%s\n' "$out" >"$scratch/plies.txt"
expect_eq "book of plies: three openings of four flats" \
    "$(grep -cE '^[a-e][1-5]( [a-e][1-5]){3}$' "$scratch/plies.txt")" "3"
expect_match "book of plies: says how it was made" "$(head -n 1 "$scratch/plies.txt")" \
    '^# tak book --size 5 --count 3 .* --flats --moves$'
tak book --size 5 --count 3 --seed 3 --plies 4-4 --flats
printf '%s\n' "$out" | grep -v '^#' >"$scratch/same.tps"
expect_eq "book as TPS: no wall or capstone" "$(grep -c '[SC]' "$scratch/same.tps")" "0"
plays "book of plies" --self "Hash=8" --self "Hash=8" --nodes 200 --size 5 --games 2 \
    --book "$scratch/plies.txt" --pgn-out "$scratch/plies"
expect_eq "book of plies: the game starts where the plies lead" \
    "$(sed -n 's/^\[TPS "\(.*\)"\]$/\1/p' "$scratch"/plies/*.ptn | sort -u)" "$(head -n 1 "$scratch/same.tps")"
printf '%s\n' 'a1 e5' 'b3 e1 z9 d3' >"$scratch/badplies.txt"
tak match --self --self --nodes 10 --size 5 --book "$scratch/badplies.txt"
expect_rc "book with a bad ply" 1
expect_match "book with a bad ply: says where" "$err" "badplies.txt: line 2, column 7: ply 'z9'"
printf '%s\n' 'a1 a1' >"$scratch/illegal.txt"
tak match --self --self --nodes 10 --size 5 --book "$scratch/illegal.txt"
expect_match "book with an illegal ply: says why" "$err" "line 1, column 4: ply 'a1': a1 is not empty"

# Usage errors.
tak match --self --nodes 10
expect_rc "one side only" 2
tak match --self --self
expect_rc "no time control" 2
for bad in 10, ,10 10,20,30 0,10 10,0 10,x; do
    tak match --self --self --nodes "$bad"
    expect_rc "--nodes $bad refused" 2
    expect_match "--nodes $bad: says what" "$err" 'nodes needs a count'
done
tak match --self --self --nodes 10 --book /nonexistent
expect_rc "missing book" 1

finish
