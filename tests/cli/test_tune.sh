#!/usr/bin/env bash
# test_tune.sh: the evaluation tuner's self-play (tools/tune/tune gen), from
# random openings and from a book of start positions (--book), with the
# search's scores (--scores), and its errors for a book it cannot use; the
# network's fit (tune net) and its errors; the linear weights' and the move
# policy's fits (fit.sh) and their rebuilds.
. "$(dirname "$0")/lib/common.sh"
TUNE=${TUNE:-build/tools/tune/tune}

# tune ARGS...: runs the tuner; sets $out, $err and $rc.
tune() {
    "$TUNE" "$@" >"$scratch/out" 2>"$scratch/err"
    rc=$?
    out=$(cat "$scratch/out")
    err=$(cat "$scratch/err")
    lines=$(grep -v '^#' "$scratch/out") # the samples, without the games' opening records
}

# earliest: the lowest move number among the positions written.
earliest() { printf '%s\n' "$lines" | awk '{print $NF}' | sort -n | head -n 1; }

# book_check NAME PREFIX: the last run read the book (no position before
# its move 9) and wrote every line with PREFIX (size and half komi).
book_check() {
    local moves
    moves=$(earliest)
    if [ "$rc" -eq 0 ] && [ -n "$out" ] && [ "$moves" -ge 9 ] &&
        ! printf '%s\n' "$lines" | grep -vq "^$2"; then
        pass
    else
        fail "$1" "rc=$rc earliest move '$moves'" "$err"
    fi
}

# Without a book: lines "5 4 RESULT TPS", White's result 1, 0.5 or 0.
tune gen 5 2 300 1 4
if [ "$rc" -eq 0 ] && [ -n "$lines" ] &&
    ! printf '%s\n' "$lines" | grep -vqE '^5 4 (1\.0|0\.5|0\.0) [^ ]+ [12] [0-9]+$'; then
    pass
else
    fail "gen without a book" "rc=$rc" "$(printf '%s\n' "$out" | head -n 3)" "$err"
fi

# With a book: every game starts from one of its positions (both of move 9,
# White to move), so no position written is earlier than move 9.
cat >"$scratch/book.tps" <<'TPS'
x2,2,x2/x,2,1,1,x/x,1,21C,2,x/x,12C,1,2,x/x5 1 9
2,x4/x,2,1,x2/x,1,1C,2C,x/1,2,2,1,x/x3,1,x 1 9
TPS
tune gen 5 3 300 2 4 --book "$scratch/book.tps"
book_check "gen from a book starts there" "5 4 "
# --book before the half komi, or without one (komi 0): the book is read.
tune gen 5 1 300 2 --book "$scratch/book.tps" 4
book_check "gen --book before the half komi" "5 4 "
tune gen 5 1 300 2 --book "$scratch/book.tps"
book_check "gen --book with no half komi" "5 0 "
tune gen 5 1 300 2 4 --book
if [ "$rc" -eq 2 ] && [ -z "$out" ] && [[ $err == *"--book needs a file"* ]]; then
    pass
else
    fail "gen --book with no file" "rc=$rc" "$err"
fi

# A book it cannot use: an error that names the file and line, no output.
tune gen 5 1 300 1 4 --book "$scratch/missing.tps"
if [ "$rc" -eq 1 ] && [ -z "$out" ] && [[ $err == *"cannot open book"*missing.tps* ]]; then
    pass
else
    fail "gen with a missing book" "rc=$rc" "$err"
fi
printf '%s\n' 'x5/x5/x5/x5/x5 1 1' 'x5/x5/nonsense/x5/x5 1 1' >"$scratch/bad.tps"
tune gen 5 1 300 1 4 --book "$scratch/bad.tps"
if [ "$rc" -eq 1 ] && [ -z "$out" ] && [[ $err == *"bad.tps line 2"* ]]; then
    pass
else
    fail "gen with a malformed book line" "rc=$rc" "$err"
fi
printf '%s\n' 'x6/x6/x6/x6/x6/x6 1 1' >"$scratch/six.tps"
tune gen 5 1 300 1 4 --book "$scratch/six.tps"
if [ "$rc" -eq 1 ] && [ -z "$out" ] && [[ $err == *"six.tps line 1"* ]]; then
    pass
else
    fail "gen with a book of another size" "rc=$rc" "$err"
fi
# A position already won (a full row of White flats) cannot start a game.
printf '%s\n' 'x5/x5/1,1,1,1,1/2,2,2,2,x/x5 2 5' >"$scratch/over.tps"
tune gen 5 1 300 1 4 --book "$scratch/over.tps"
if [ "$rc" -eq 1 ] && [ -z "$out" ] && [[ $err == *"no playable position"* ]]; then
    pass
else
    fail "gen with a book of finished games" "rc=$rc" "$err"
fi

# Every game's lines follow a record of its opening: the keys of its
# positions up to ply 8, the empty board's first, one line a game.
tune gen 5 3 300 1 4
records=$(printf '%s\n' "$out" | grep -c '^# opening')
if [ "$rc" -eq 0 ] && [ "$records" -ge 1 ] && [ "$records" -le 3 ] &&
    ! printf '%s\n' "$out" | grep '^# opening' | grep -vqE '^# opening( [0-9a-f]{16}){9}$' &&
    [ "$(printf '%s\n' "$out" | grep '^# opening' | cut -d' ' -f3 | sort -u | wc -l)" -eq 1 ]; then
    pass
else
    fail "gen records each game's opening" "rc=$rc records=$records" "$(printf '%s\n' "$out" | grep '^#')"
fi

# The held-out openings: a game that passes through one, or through any of
# its images under the board's symmetries, is dropped whole. Every game
# below starts from the book's opening, and the held-out set holds only its
# mirror image (files reversed), at another komi.
printf '%s\n' 'x5/x5/x2,1,x2/x4,2/2,x3,1 1 3' >"$scratch/opening.tps"
printf '%s\n' '# a held-out set' 'x5/x5/x2,1,x2/2,x4/1,x3,2 1 3' >"$scratch/heldout.tps"
tune gen 5 4 300 5 4 --book "$scratch/opening.tps" --heldout "$scratch/heldout.tps"
if [ "$rc" -eq 0 ] && [ -z "$out" ] && [[ $err == *"4 of 4 games passed through a held-out opening"* ]]; then
    pass
else
    fail "gen drops games through a held-out opening's image" "rc=$rc" "$out" "$err"
fi
# Its rotation by a quarter turn is held out as well.
printf '%s\n' '2,x4/x5/x2,1,x2/x5/1,2,x3 1 3' >"$scratch/turned.tps"
tune gen 5 2 300 5 0 --book "$scratch/opening.tps" --heldout "$scratch/turned.tps"
turned=$err
# Games from random openings never pass through it either; the data made
# with --heldout passes the check, and the same games made without it fail.
tune gen 5 6 300 5 4 --book "$scratch/opening.tps"
printf '%s\n' "$out" >"$scratch/through.txt"
tune gen 5 6 300 6 4 --heldout "$scratch/heldout.tps"
printf '%s\n' "$out" >"$scratch/clean.txt"
tune heldout 5 "$scratch/heldout.tps" -- "$scratch/clean.txt"
clean_rc=$rc clean_out=$out
tune heldout 5 "$scratch/heldout.tps" -- "$scratch/clean.txt" "$scratch/through.txt"
if [[ $turned == *"2 of 2 games"* ]] && [ "$clean_rc" -eq 0 ] &&
    [[ $clean_out == *"1 held-out openings;"*"through a held-out opening"* ]] && [[ $clean_out == *"; 0 through"* ]] &&
    [ "$rc" -eq 1 ] && [[ $err == *"through.txt line 1: a game through a held-out opening"* ]]; then
    pass
else
    fail "heldout tells data through a held-out opening from data clear of it" \
        "turned: $turned" "clean: rc=$clean_rc $clean_out" "rc=$rc $out" "$err"
fi
# Data with no opening records cannot be vouched for; a held-out set that is
# not a list of openings is refused, naming the line.
grep -v '^#' "$scratch/clean.txt" >"$scratch/bare.txt"
tune heldout 5 "$scratch/heldout.tps" -- "$scratch/bare.txt"
if [ "$rc" -eq 1 ] && [[ $err == *"bare.txt"*"no opening records"* ]]; then
    pass
else
    fail "heldout refuses data without opening records" "rc=$rc" "$err"
fi
printf '%s\n' 'x5/x5/x5/x5/x5 1 1' 'x5/x5/x5/x5/x5 1 6' >"$scratch/deep.tps"
printf '%s\n' 'x5/x5/nonsense/x5/x5 1 1' >"$scratch/junk.tps"
tune heldout 5 "$scratch/deep.tps" -- "$scratch/clean.txt"
deep=$err deep_rc=$rc
tune gen 5 1 300 1 4 --heldout "$scratch/junk.tps"
if [ "$deep_rc" -eq 1 ] && [[ $deep == *"deep.tps line 2"*"at most 8"* ]] &&
    [ "$rc" -eq 1 ] && [ -z "$out" ] && [[ $err == *"junk.tps line 1: not an opening of 5x5"* ]]; then
    pass
else
    fail "held-out sets that are not openings" "deep: rc=$deep_rc $deep" "rc=$rc $err"
fi
# A blank line (spaces only) in a held-out set is no opening: the empty
# board is not held out, so games from it are kept.
printf '%s\n' '   ' ' # a comment after spaces' 'x5/x5/x2,1,x2/2,x4/1,x3,2 1 3' >"$scratch/spaced.tps"
tune gen 5 2 300 6 4 --heldout "$scratch/spaced.tps"
if [ "$rc" -eq 0 ] && [ -n "$lines" ] && [[ $err != *"dropped"* ]]; then
    pass
else
    fail "a blank line in a held-out set holds nothing out" "rc=$rc" "$err"
fi
tune heldout 5 "$scratch/heldout.tps" "$scratch/clean.txt"
if [ "$rc" -eq 2 ] && [[ $err == *"usage"* ]]; then pass; else fail "heldout without --" "rc=$rc" "$err"; fi
# The fits leave out whole every game through a held-out opening (--heldout,
# one file or more), so data made before a set was held out can be fitted
# clear of it: of the games above, those through it and those clear of it,
# exactly the first are left out, every line of them, valid data too.
through_games=$(grep -c '^# opening' "$scratch/through.txt")
through_lines=$(grep -vc '^#' "$scratch/through.txt")
tune net "$scratch/held.c" 5 --epochs 0 --heldout "$scratch/turned.tps" --heldout "$scratch/heldout.tps" \
    --valid "$scratch/through.txt" "$scratch/clean.txt" "$scratch/through.txt"
net_err=$err
tune fit "$scratch/held.c" --sizes 5 --iterations 0 --heldout "$scratch/heldout.tps" \
    "$scratch/through.txt" "$scratch/clean.txt"
if [ "$through_games" -eq 6 ] &&
    [[ $net_err == *"tune net: 2 held-out openings; $((2 * through_games)) games ($((2 * through_lines)) positions) through one left out"* ]] &&
    [ "$rc" -eq 0 ] && [[ $err == *"tune fit: 1 held-out openings; $through_games games ($through_lines positions) through one left out"* ]]; then
    pass
else
    fail "net and fit --heldout leave out the games through a held-out opening" "games=$through_games lines=$through_lines" \
        "$net_err" "rc=$rc $err"
fi
# Data whose games cannot be told apart is refused; a fit of several sizes
# has no size for the openings.
tune net "$scratch/bare.c" 5 --epochs 0 --heldout "$scratch/heldout.tps" "$scratch/bare.txt"
bare_rc=$rc bare=$err
tune fit "$scratch/bare.c" --heldout "$scratch/heldout.tps" "$scratch/clean.txt"
if [ "$bare_rc" -eq 1 ] && [[ $bare == *"bare.txt"*"no opening records"* ]] && [ ! -e "$scratch/bare.c" ] &&
    [ "$rc" -eq 2 ] && [[ $err == *"--heldout needs --sizes with one size"* ]]; then
    pass
else
    fail "net and fit --heldout refuse what they cannot leave out" "rc=$bare_rc $bare" "rc=$rc $err"
fi

# --scores: the same games (same seed), each line with the score of the
# search that chose its move after the result.
tune gen 5 2 300 1 4
plain=$out
tune gen 5 2 300 1 4 --scores
if [ "$rc" -eq 0 ] && [ -n "$lines" ] &&
    ! printf '%s\n' "$lines" | grep -vqE '^5 4 (1\.0|0\.5|0\.0) @-?[0-9]+ [^ ]+ [12] [0-9]+$' &&
    [ "$(printf '%s\n' "$out" | sed -E 's/ @-?[0-9]+//')" = "$plain" ]; then
    pass
else
    fail "gen --scores" "rc=$rc" "$(printf '%s\n' "$out" | head -n 3)" "$err"
fi

# tune net: a network for 5x5 fitted to scored self-play, written as a whole
# net_weights.c that keeps the other sizes' networks and compiles.
tune gen 5 80 300 3 4 --scores
printf '%s\n' "$out" >"$scratch/scored.txt"
tune gen 5 4 300 4 4 --scores
printf '%s\n' "$out" >"$scratch/valid.txt"
tune net "$scratch/net.c" 5 --epochs 10 --lr 0.003 --valid "$scratch/valid.txt" "$scratch/scored.txt"
# The fit lowers the training loss below the linear terms' own (the loss of
# the fitted network over the whole set, not an epoch's running mean).
linear=$(printf '%s\n' "$err" | sed -n 's/.*loss of the linear terms \([0-9.]*\).*/\1/p')
fitted=$(printf '%s\n' "$err" | sed -n 's/^fitted: loss \([0-9.]*\).*/\1/p')
if [ "$rc" -eq 0 ] && [ -n "$linear" ] && [ -n "$fitted" ] && awk -v a="$fitted" -v b="$linear" 'BEGIN { exit !(a < b) }' &&
    grep -q '\[5\] = &net_5' "$scratch/net.c" && grep -q 'tune net .* 5 --epochs 10' "$scratch/net.c" &&
    diff <(grep -o '\[[0-9]\] = &net_[0-9]' "$scratch/net.c" | grep -v '\[5\]') \
        <(grep -o '\[[0-9]\] = &net_[0-9]' src/engine/net_weights.c | grep -v '\[5\]') >/dev/null; then
    pass
else
    fail "net writes every size's network" "rc=$rc" "$err"
fi
if ${CC:-cc} -std=c11 -fsyntax-only -Wall -Wextra -Werror -Iinclude -Isrc/engine "$scratch/net.c" 2>"$scratch/cc"; then
    pass
else
    fail "net's output compiles" "$(head -n 5 "$scratch/cc")"
fi

# A size that had no network, fitted to a few games (most of its inputs
# never seen, so their weights stay where they started), twice the default
# width: written at that width beside the others at theirs; the file compiles.
tune gen 4 120 300 9 4 --scores
printf '%s\n' "$out" >"$scratch/four.txt"
tune net "$scratch/net4.c" 4 --epochs 1 --hidden 256 "$scratch/four.txt"
if [ "$rc" -eq 0 ] && grep -q '\[4\] = &net_4' "$scratch/net4.c" &&
    [[ $err == *"376 inputs, 256 hidden units"* ]] && grep -q '^static const EvalNet net_4 = {376, 256, w1_4,' "$scratch/net4.c" &&
    grep -q '^static const int8_t w1_stored_4\[376 \* 256\] = {$' "$scratch/net4.c" &&
    grep -q '^static const float b1_4\[256\] = {' "$scratch/net4.c" &&
    diff <(grep '^static const EvalNet net_5 = ' "$scratch/net4.c") <(grep '^static const EvalNet net_5 = ' src/engine/net_weights.c) &&
    ${CC:-cc} -std=c11 -fsyntax-only -Wall -Wextra -Werror -Iinclude -Isrc/engine "$scratch/net4.c" 2>"$scratch/cc"; then
    pass
else
    fail "a 4x4 network of 256 hidden units is written and compiles" "rc=$rc" "$err" "$(head -n 5 "$scratch/cc")"
fi
# Widths the engine cannot run, and --init at another width than the network's: refused, nothing written.
for bad in "--hidden 100:a multiple of 128 from 128 to 512" "--hidden 1024:a multiple of 128 from 128 to 512" \
    "--hidden x:a multiple of 128" "--init --hidden 256:--init goes on from a network of 128 hidden units, not --hidden 256"; do
    # shellcheck disable=SC2086
    tune net "$scratch/wide.c" 5 ${bad%%:*} --epochs 1 "$scratch/four.txt"
    if [ "$rc" -eq 1 ] && [[ $err == *"${bad#*:}"* ]] && [ ! -e "$scratch/wide.c" ]; then
        pass
    else
        fail "net ${bad%%:*} is refused" "rc=$rc" "$err"
    fi
done

# --init starts from the network the tuner was built with: with no epochs it
# writes that network back unchanged.
tune net "$scratch/same.c" 5 --init --epochs 0 "$scratch/scored.txt"
if [ "$rc" -eq 0 ] && [[ $err == *"loss of the built-in network"* ]] &&
    diff <(sed -n '/^static const int8_t w1_stored_5/,/^static float w1_5/p' "$scratch/same.c") \
        <(sed -n '/^static const int8_t w1_stored_5/,/^static float w1_5/p' src/engine/net_weights.c) >/dev/null &&
    [ -n "$(sed -n '/^static const int8_t w1_stored_5/,/^static float w1_5/p' "$scratch/same.c")" ]; then
    pass
else
    fail "net --init keeps the built-in network" "rc=$rc" "$err"
fi
# --valid-lambda: the held-out targets mixed by their own L, whatever the fit's.
held_out() { printf '%s\n' "$err" | sed -n 's/.*(held out \([0-9.]*\)).*/\1/p' | head -n 1; }
tune net "$scratch/same.c" 5 --init --epochs 0 --lambda 0 --valid-lambda 1 --valid "$scratch/valid.txt" "$scratch/scored.txt"
mixed=$(held_out)
tune net "$scratch/same.c" 5 --init --epochs 0 --lambda 1 --valid "$scratch/valid.txt" "$scratch/scored.txt"
results=$(held_out)
tune net "$scratch/same.c" 5 --init --epochs 0 --lambda 0 --valid "$scratch/valid.txt" "$scratch/scored.txt"
scores=$(held_out)
if [ -n "$mixed" ] && [ "$mixed" = "$results" ] && [ "$mixed" != "$scores" ]; then
    pass
else
    fail "net --valid-lambda" "by L 1: '$mixed' and '$results'; by L 0: '$scores'"
fi
# --td T: a training position's score in its target is the TD(T) return of
# its game's scores from it on (ahead = (1 - T) x odds(score) + T x the next
# line's ahead, the result after the last), the held-out targets keeping
# their own. Worked out here in awk and written back as each line's score,
# the same fit without --td must see the same targets (the same loss, on the
# same positions): with the games marked by their "# opening" lines, and
# with those lines gone (a game then ends where the next starts afresh).
# And a file of one-line games fits by --td T as by --lambda T; --td 0 is
# no --td; with the result alone as target (--lambda 1) --td changes nothing.
trained() { printf '%s\n' "$err" | sed -n 's/.*: \([0-9]*\) positions.*network \([0-9.]*\) (held out \([0-9.]*\)).*/\1 \2 \3/p' | head -n 1; }
td_run() { tune net "$scratch/same.c" 5 --init --epochs 0 --valid "$scratch/valid.txt" "$@"; echo "$(trained) $rc"; }
# td_ahead T FILE: FILE with each game's lines' scores (the result where a
# line has none: the random plies of a game's start) replaced by their TD(T) return.
td_ahead() {
    awk -v t="$1" -v k=66 '
        function odds(i) { return !has[i] ? res[i] : sc[i] >= 29000 ? 1 : sc[i] <= -29000 ? 0 : 1 / (1 + exp(-sc[i] / k)) }
        function flush(   i, after, a) {
            after = res[n]
            for (i = n; i >= 1; i--) {
                after = (1 - t) * odds(i) + t * after
                a = after >= 1 ? 29500 : after <= 0 ? -29500 : k * log(after / (1 - after))
                out[i] = sprintf("%s %s %.1f @%.6f %s", f1[i], f2[i], res[i], a, rest[i])
            }
            for (i = 1; i <= n; i++) print out[i]
            n = 0
        }
        /^#/ { flush(); print; next }
        { n++; f1[n] = $1; f2[n] = $2; res[n] = $3 + 0; has[n] = $4 ~ /^@/; sc[n] = substr($4, 2) + 0
          rest[n] = $0; sub(has[n] ? "^[^ ]+ [^ ]+ [^ ]+ [^ ]+ " : "^[^ ]+ [^ ]+ [^ ]+ ", "", rest[n]) }
        END { flush() }' "$2"
}
td_ahead 0.8 "$scratch/scored.txt" >"$scratch/ahead.txt"
grep -v '^#' "$scratch/scored.txt" >"$scratch/bare.txt"
ahead=$(td_run --lambda 0 --td 0.8 "$scratch/scored.txt")
ahead_awk=$(td_run --lambda 0 "$scratch/ahead.txt")
bare=$(td_run --lambda 0 --td 0.8 "$scratch/bare.txt")
plain=$(td_run --lambda 0 "$scratch/scored.txt")
zero=$(td_run --lambda 0 --td 0 "$scratch/scored.txt")
results=$(td_run --lambda 1 "$scratch/scored.txt")
results_td=$(td_run --lambda 1 --td 0.8 "$scratch/scored.txt")
awk '!/^#/ { print "# opening"; print }' "$scratch/scored.txt" >"$scratch/ones.txt"
ones_td=$(td_run --lambda 0 --td 0.3 "$scratch/ones.txt")
ones_lambda=$(td_run --lambda 0.3 --valid-lambda 0 "$scratch/ones.txt")
if [[ $ahead == [1-9]*" 0" ]] && [ "${ahead% * 0}" = "${ahead_awk% * 0}" ] && [ "$ahead" = "$bare" ] &&
    [ "${ahead% * 0}" != "${plain% * 0}" ] && [ "${ahead#* * }" = "${plain#* * }" ] && [ "$plain" = "$zero" ] &&
    [ "$results" = "$results_td" ] && [ "$ones_td" = "$ones_lambda" ]; then
    pass
else
    fail "net --td" "(positions, loss, held out, rc) --td 0.8 '$ahead', worked out in awk '$ahead_awk'," \
        "without the opening lines '$bare'; no --td '$plain', --td 0 '$zero'; results alone '$results'," \
        "with --td '$results_td'; one-line games: --td 0.3 '$ones_td', --lambda 0.3 '$ones_lambda'"
fi
for bad in "--td 1" "--td -0.1" "--td x" "--lambda 0.5x" "--lr 0" "--lr inf" "--decay -1" "--k x" "--epochs 5x"; do
    # shellcheck disable=SC2086
    tune net "$scratch/same.c" 5 $bad "$scratch/scored.txt"
    if [ "$rc" -eq 2 ]; then pass; else fail "net $bad is refused" "rc=$rc" "$err"; fi
done

# tools/tune/net.sh, the whole loop for one size in seconds (the pipeline's
# smoke test): self-play chunks from two workers, none through a held-out
# opening, every twentieth held out of the fit, a network and its recipe
# written.
loop=$scratch/loop
export NET_DIRTY_OK=1 NET_RECIPES=$scratch/nets
TRAIN_WORKERS=2 NET_NODES5=200 NET_EPOCHS5=1 NET_OUT=$scratch/loop.c \
    tools/tune/net.sh "$loop" t 0.15 5 >"$scratch/out" 2>"$scratch/err"
rc=$?
chunks=$(ls "$loop/t" 2>/dev/null | grep -c '^c[0-9]*_5\.txt$')
recorded=$(grep -c '^chunk t [0-9a-f]*\(-dirty\)\? c[0-9]*_5\.txt 5 4 200 [0-9]* [04] [0-9]* [0-9a-f]\{64\} \(train\|valid\)$' \
    "$scratch/nets/5.recipe" 2>/dev/null)
# Held out: the chunks of every twentieth turn (one size: every twentieth chunk).
held=$(grep '^chunk .* valid$' "$scratch/nets/5.recipe" 2>/dev/null | awk '{ sub(/^c0*/, "", $4); sub(/_5\.txt$/, "", $4); print $4 % 20 }' | sort -u)
if [ "$rc" -eq 0 ] && [ "$chunks" -ge 20 ] && ! ls "$loop/t" | grep -q part &&
    grep -q 'fitting the 5x5 network to [0-9]* lines, [1-9][0-9]* held out$' "$scratch/out" &&
    grep -q '^tune net: [1-9][0-9]* held-out openings; 0 games (0 positions) through one left out$' "$scratch/err" &&
    grep -q '\[5\] = &net_5' "$scratch/loop.c" && grep -q 'tune net .*loop.c 5 --k 66 --epochs 1 ' "$scratch/loop.c" &&
    [ "$recorded" -eq "$chunks" ] && [ "$held" = 0 ] && grep -q '^fit [0-9a-f]*\(-dirty\)\? 5 --k 66 --epochs 1 --decay 0.05 --heldout data/heldout/5.txt$' "$scratch/nets/5.recipe" &&
    grep -q "^heldout data/heldout/5.txt $(sha256sum data/heldout/5.txt | cut -d' ' -f1)$" "$scratch/nets/5.recipe"; then
    pass
else
    fail "net.sh plays, holds out, fits and writes the recipe" "rc=$rc chunks=$chunks recorded=$recorded held=$held" \
        "$(cat "$scratch/out")" "$(tail -n 5 "$scratch/err")"
fi
# The same generation played on in another folder, as on another machine:
# its frozen tuner given (NET_TUNER, no build), the chunks from 11 on
# (NET_FROM), and no fit (NET_FIT=0). A chunk made there that this
# machine's run made too is the same chunk: the same manifest line (numbers,
# seed, komi turn, count and SHA-256).
far=$scratch/far
mkdir -p "$far/t" && cp "$loop/t/COMMIT" "$loop/t/SIZES" "$far/t/"
NET_TUNER=$loop/tune-t NET_FROM=11 NET_FIT=0 NET_OUT=$scratch/far.c TRAIN_WORKERS=2 NET_NODES5=200 \
    tools/tune/net.sh "$far" t 0.05 5 >"$scratch/out" 2>&1
rc=$?
numbers=$(ls "$far/t" | sed -n 's/^c0*\([0-9]*\)_5\.txt$/\1/p' | sort -n)
common=$(awk 'NR == FNR { home[$4] = 1; next } $4 in home' "$loop/t/MANIFEST" "$far/t/MANIFEST" | wc -l)
same=$(awk 'NR == FNR { home[$0] = 1; next } $0 in home' "$loop/t/MANIFEST" "$far/t/MANIFEST" | wc -l)
if [ "$rc" -eq 0 ] && [ -n "$numbers" ] && [ "$(echo "$numbers" | head -n 1)" -ge 11 ] &&
    [ "$(grep -c "^chunk t $(cat "$loop/t/COMMIT") " "$far/t/MANIFEST")" -eq "$(echo "$numbers" | wc -l)" ] &&
    [ "$common" -ge 1 ] && [ "$same" -eq "$common" ] &&
    ! grep -q fitting "$scratch/out" && [ ! -e "$scratch/far.c" ] && [ ! -e "$far/tune-t" ]; then
    pass
else
    fail "net.sh plays a generation on elsewhere (NET_TUNER, NET_FROM, NET_FIT=0)" \
        "rc=$rc numbers=$(echo $numbers) common=$common same=$same" "$(cat "$scratch/out")" "$(head -n 3 "$far/t/MANIFEST" 2>/dev/null)"
fi
for bad in "NET_FROM=0:NET_FROM is a chunk number from 1, not '0'" "NET_FIT=2:NET_FIT is 0 (play only) or 1, not '2'" \
    "NET_TUNER=$loop/tune-t:$scratch/none/t/COMMIT is missing"; do
    env "${bad%%:*}" NET_OUT="$scratch/far.c" tools/tune/net.sh "$scratch/none" t 0.05 5 >"$scratch/out" 2>&1
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF "${bad#*:}" "$scratch/out" && [ ! -e "$scratch/none" ]; then
        pass
    else
        fail "net.sh refuses ${bad%%:*}" "rc=$rc" "$(cat "$scratch/out")"
    fi
done
# Run again with no time: nothing played, the same chunks fitted, here with
# the results' share of the targets and the scores' TD set, on from the
# tuner's own network at a rate of our choosing (the recipe keeps them all,
# so the rebuild below fits with them too).
before=$(ls "$loop/t" | wc -l)
TRAIN_WORKERS=2 NET_EPOCHS5=1 NET_LAMBDA5=0.6 NET_TD5=0.5 NET_INIT5=1 NET_LR5=3e-4 NET_OUT=$scratch/loop.c \
    tools/tune/net.sh "$loop" t 0 5 >"$scratch/out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && [ "$(ls "$loop/t" | wc -l)" -eq "$before" ] && grep -q 'wrote' "$scratch/out" &&
    grep -q 'loss of the built-in network' "$scratch/out" &&
    grep -q '^fit [0-9a-f]*\(-dirty\)\? 5 --k 66 --epochs 1 --decay 0.05 --heldout data/heldout/5.txt --lambda 0.6 --td 0.5 --init --lr 3e-4$' "$scratch/nets/5.recipe" &&
    grep -q 'tune net .*loop.c 5 --k 66 --epochs 1 --decay 0.05 --heldout data/heldout/5.txt --lambda 0.6 --td 0.5 --init --lr 3e-4 ' "$scratch/loop.c"; then
    pass
else
    fail "net.sh with no time fits what there is, NET_LAMBDA5, NET_TD5, NET_INIT5 and NET_LR5 in its recipe" "rc=$rc" \
        "$(cat "$scratch/out")" "$(grep '^fit' "$scratch/nets/5.recipe")"
fi
cp "$scratch/loop.c" "$scratch/loop-kept.c"
# A bad share, TD, start, rate or width: refused, nothing written.
for bad in "NET_LAMBDA5=1.5:NET_LAMBDA5 is a share from 0 to 1, not '1.5'" "NET_TD5=1:NET_TD5 is from 0 to below 1, not '1'" \
    "NET_INIT5=yes:NET_INIT5 is 0 or 1, not 'yes'" "NET_LR5=-1:NET_LR5 is a positive number, not '-1'" \
    "NET_LR5=0:NET_LR5 is a positive number, not '0'" "NET_HIDDEN5=wide:NET_HIDDEN5 is a number of hidden units, not 'wide'"; do
    env "${bad%%:*}" NET_OUT="$scratch/loop.c" tools/tune/net.sh "$loop" t 0 5 >"$scratch/out" 2>&1
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF "${bad#*:}" "$scratch/out" && cmp -s "$scratch/loop.c" "$scratch/loop-kept.c"; then
        pass
    else
        fail "net.sh refuses ${bad%%:*} and writes nothing" "rc=$rc" "$(cat "$scratch/out")"
    fi
done
# tools/tune/rebuild.sh makes the same data and the same network again from
# the recipe alone: every chunk played again to the same checksum.
TRAIN_WORKERS=2 REBUILD_TUNER=$TUNE NET_COMPARE=$scratch/loop.c \
    tools/tune/rebuild.sh 5 "$scratch/rebuild" >"$scratch/out" 2>"$scratch/err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q "$chunks chunks played again, every checksum as recorded" "$scratch/out" &&
    grep -q 'network is identical' "$scratch/out" && ! grep -q '^tune heldout' "$scratch/out"; then
    pass
else
    fail "rebuild.sh makes the data and the network again" "rc=$rc" "$(cat "$scratch/out")" "$(tail -n 5 "$scratch/err")"
fi
# A recipe of a fit from before the fits left games out (no --heldout in its
# arguments): the rebuild checks its chunks clear of its held-out set
# instead, and fits the same network.
mkdir -p "$scratch/old"
sed 's| --heldout data/heldout/5.txt||' "$scratch/nets/5.recipe" >"$scratch/old/5.recipe"
TRAIN_WORKERS=2 REBUILD_TUNER=$TUNE NET_COMPARE=$scratch/loop.c NET_RECIPES=$scratch/old \
    tools/tune/rebuild.sh 5 "$scratch/rebuild" >"$scratch/out" 2>"$scratch/err"
rc=$?
if [ "$rc" -eq 0 ] && ! grep '^fit ' "$scratch/old/5.recipe" | grep -q -- '--heldout' &&
    grep -q '^tune heldout: [1-9][0-9]* held-out openings; .* 0 through a held-out opening$' "$scratch/out" &&
    grep -q 'network is identical' "$scratch/out"; then
    pass
else
    fail "rebuild.sh checks an older recipe's chunks and fits them as before" "rc=$rc" "$(cat "$scratch/out")" \
        "$(tail -n 5 "$scratch/err")"
fi
# The replayed chunks are a generation again: each in its MANIFEST as net.sh
# wrote it, no .err file left beside them (fit.sh below fits them).
if [ "$(sort "$scratch/rebuild/t/MANIFEST")" = "$(awk '$1 == "chunk" { NF = 11; print }' "$scratch/nets/5.recipe" | sort)" ] &&
    ! ls "$scratch/rebuild/t" | grep -q '\.err$'; then
    pass
else
    fail "rebuild.sh leaves the replayed chunks as a generation" "$(ls "$scratch/rebuild/t" | head -n 5)" \
        "$(head -n 3 "$scratch/rebuild/t/MANIFEST" 2>&1)"
fi
# A chunk that comes out differently is named; a network that differs fails.
awk '/^chunk / && !done { $11 = "0000000000000000000000000000000000000000000000000000000000000000"; done = 1 } 1' \
    "$scratch/nets/5.recipe" >"$scratch/recipe" && mv "$scratch/recipe" "$scratch/nets/5.recipe"
printf '%s\n' 'static const float w1_5[1] = {0};' >"$scratch/other.c"
TRAIN_WORKERS=2 REBUILD_TUNER=$TUNE NET_COMPARE=$scratch/other.c \
    tools/tune/rebuild.sh 5 "$scratch/rebuild" >"$scratch/out" 2>"$scratch/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "1 of $chunks chunks differ" "$scratch/err" && grep -q 'network differs' "$scratch/err"; then
    pass
else
    fail "rebuild.sh reports what differs" "rc=$rc" "$(cat "$scratch/out")" "$(cat "$scratch/err")"
fi
# rebuild_as --linear|--policy RECIPES COMPARE: rebuild.sh of that kind for
# 5x5, from the recipe in RECIPES with the test's tuner, the result compared
# with COMPARE; sets $rc (its output in $scratch/out and $scratch/err).
rebuild_as() {
    TRAIN_WORKERS=2 REBUILD_TUNER=$TUNE NET_COMPARE=$3 NET_RECIPES=$2 \
        tools/tune/rebuild.sh "$1" 5 "$scratch/rebuild" >"$scratch/out" 2>"$scratch/err"
    rc=$?
}
# tools/tune/fit.sh fits a size's linear weights to the same chunks, as the
# rebuild above played them again, and writes their recipe; rebuild.sh
# --linear plays the chunks again (kept from the rebuild above when their
# checksums match) and gets the same weights.
FIT_OUT=$scratch/linear.c NET_RECIPES=$scratch/weights tools/tune/fit.sh 5 0.25 "$scratch"/rebuild/t/c*_5.txt \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
table5() { awk '$0 == "    [5] = {{" { on = 1 } on { print } on && /^    }},?$/ { on = 0 }' "$1"; }
if [ "$rc" -eq 0 ] && grep -q '^linear [0-9a-f]*\(-dirty\)\? 5 --sizes 5 --lambda 0.25 --heldout data/heldout/5.txt$' "$scratch/weights/5.recipe" &&
    grep -q '^tune fit: [1-9][0-9]* held-out openings; 0 games (0 positions) through one left out$' "$scratch/err" &&
    [ "$(grep -c '^chunk t .* train$' "$scratch/weights/5.recipe")" -eq "$chunks" ] &&
    [ -n "$(table5 "$scratch/linear.c")" ] && ! diff -q <(table5 "$scratch/linear.c") <(table5 src/engine/weights.c) >/dev/null; then
    pass
else
    fail "fit.sh fits the linear weights and writes their recipe" "rc=$rc" "$(cat "$scratch/out")" "$(tail -n 5 "$scratch/err")"
fi
rebuild_as --linear "$scratch/weights" "$scratch/linear.c"
if [ "$rc" -eq 0 ] && grep -q "$chunks chunks played again, every checksum as recorded" "$scratch/out" &&
    grep -q 'linear weights are identical' "$scratch/out"; then
    pass
else
    fail "rebuild.sh --linear makes the data and the weights again" "rc=$rc" "$(cat "$scratch/out")" "$(tail -n 5 "$scratch/err")"
fi
rebuild_as --linear "$scratch/weights" src/engine/weights.c
if [ "$rc" -eq 1 ] && grep -q 'linear weights differ' "$scratch/err"; then
    pass
else
    fail "rebuild.sh --linear reports weights that differ" "rc=$rc" "$(cat "$scratch/out")" "$(cat "$scratch/err")"
fi
# fit.sh --policy fits 5x5's move policy to the same chunks (the moves their
# games played) and writes its recipe; the fit places the played moves
# higher than the fixed preference does; rebuild.sh --policy plays the chunks
# again and fits the same table.
FIT_OUT=$scratch/policy.c NET_RECIPES=$scratch/policies tools/tune/fit.sh --policy 5 "$scratch"/rebuild/t/c*_5.txt \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
places=$(sed -n 's/^tune policy: fitted to [0-9]* positions: .*its mean place \([0-9.]*\) (\([0-9.]*\) by the fixed preference)$/\1 \2/p' "$scratch/err")
if [ "$rc" -eq 0 ] && grep -q '^policy [0-9a-f]*\(-dirty\)\? 5 --heldout data/heldout/5.txt$' "$scratch/policies/5.recipe" &&
    [ "$(grep -c '^chunk t .* train$' "$scratch/policies/5.recipe")" -eq "$chunks" ] &&
    [ -n "$places" ] && awk -v p="$places" 'BEGIN { split(p, a, " "); exit !(a[1] < a[2]) }' &&
    grep -q '^static const int16_t policy_5\[POLICY_FEATURES\] = {$' "$scratch/policy.c" &&
    grep -q '\[5\] = policy_5' "$scratch/policy.c" && grep -q '\[5\] = "tune policy .* 5 --heldout' "$scratch/policy.c" &&
    ${CC:-cc} -std=c11 -fsyntax-only -Wall -Wextra -Werror -Iinclude -Isrc/engine "$scratch/policy.c" 2>"$scratch/cc"; then
    pass
else
    fail "fit.sh --policy fits a move policy that places the played moves higher, and writes its recipe" "rc=$rc" \
        "places: $places" "$(cat "$scratch/out")" "$(tail -n 5 "$scratch/err")" "$(head -n 5 "$scratch/cc" 2>&1)"
fi
rebuild_as --policy "$scratch/policies" "$scratch/policy.c"
if [ "$rc" -eq 0 ] && grep -q "$chunks chunks played again, every checksum as recorded" "$scratch/out" &&
    grep -q 'move policy is identical' "$scratch/out"; then
    pass
else
    fail "rebuild.sh --policy makes the data and the move policy again" "rc=$rc" "$(cat "$scratch/out")" "$(tail -n 5 "$scratch/err")"
fi
sed 's/^\(static const int16_t policy_5.*\)$/\1\n    1,/' "$scratch/policy.c" >"$scratch/other.c"
rebuild_as --policy "$scratch/policies" "$scratch/other.c"
if [ "$rc" -eq 1 ] && grep -q 'move policy differs' "$scratch/err"; then
    pass
else
    fail "rebuild.sh --policy reports a move policy that differs" "rc=$rc" "$(cat "$scratch/out")" "$(cat "$scratch/err")"
fi
# tune policy's errors: no output file, a message naming what was wrong.
rm -f "$scratch/bad.c"
for bad in "1:--epochs 2 $scratch/missing.txt:cannot read" "1:6 $scratch/scored.txt:positions of size 6 with the move played: too few" \
    "2:2 $scratch/scored.txt:usage" "2:5 --lr 0 $scratch/scored.txt:usage" "2:5 --epochs x $scratch/scored.txt:usage" \
    "2:5 --bogus 1 $scratch/scored.txt:usage" "2:5:usage"; do
    want=${bad%%:*} rest=${bad#*:} args=${rest%%:*} says=${rest#*:}
    [[ $args == --* ]] && args="5 $args"
    # shellcheck disable=SC2086
    tune policy "$scratch/bad.c" $args
    if [ "$rc" -eq "$want" ] && [[ $err == *"$says"* ]] && [ ! -e "$scratch/bad.c" ]; then
        pass
    else
        fail "tune policy $args" "rc=$rc (want $want)" "$err"
    fi
done
# A chunk fit.sh cannot vouch for: changed since its manifest line, or with none.
mkdir -p "$scratch/changed/t"
cp "$loop/t/MANIFEST" "$scratch/changed/t/"
first=$(ls "$loop"/t/c*_5.txt | head -n 1)
{ cat "$first"; echo "5 4 1.0 @0 x5/x5/x5/x5/x5 1 1"; } >"$scratch/changed/t/$(basename "$first")"
cp "$first" "$scratch/changed/stray_5.txt"
for bad in "$scratch/changed/t/$(basename "$first")" "$scratch/changed/stray_5.txt"; do
    FIT_OUT=$scratch/bad.c NET_RECIPES=$scratch/badweights tools/tune/fit.sh 5 0.25 "$bad" >"$scratch/out" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ] && grep -q "fit.sh: .*\(differs from its manifest line\|has no line in\)" "$scratch/out" &&
        [ ! -e "$scratch/bad.c" ] && [ ! -e "$scratch/badweights" ]; then
        pass
    else
        fail "fit.sh refuses $bad" "rc=$rc" "$(cat "$scratch/out")"
    fi
done
unset NET_DIRTY_OK NET_RECIPES
# A generation keeps its sizes; NET_OUT takes one size's fit at a time.
tools/tune/net.sh "$loop" t 0 56 >"$scratch/out" 2>&1
rc=$?
NET_OUT=$scratch/two.c tools/tune/net.sh "$loop" u 0 56 >"$scratch/out2" 2>&1
if [ "$rc" -eq 2 ] && grep -q 'generation t was started with SIZES 5, not 56' "$scratch/out" &&
    grep -q 'with NET_OUT, fit one size at a time' "$scratch/out2" && [ ! -e "$scratch/two.c" ]; then
    pass
else
    fail "net.sh keeps a generation's sizes and one size into NET_OUT" "$(cat "$scratch/out")" "$(cat "$scratch/out2")"
fi
for bad in "$loop t" "$loop t ten" "$loop t 1 59"; do
    # shellcheck disable=SC2086
    tools/tune/net.sh $bad >"$scratch/out" 2>&1
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qE 'usage|SIZES' "$scratch/out"; then
        pass
    else
        fail "net.sh $bad" "rc=$rc" "$(cat "$scratch/out")"
    fi
done
# One run a generation at a time; a run interrupted stops at once, its
# workers and their unfinished chunks with it (it once waited for its
# MINUTES to pass, and a second run's stop dropped the first's chunks).
NET_DIRTY_OK=1 NET_RECIPES=$scratch/nets TRAIN_WORKERS=1 NET_NODES5=200 NET_OUT=$scratch/lock.c \
    tools/tune/net.sh "$loop" k 10 5 >"$scratch/first" 2>&1 &
first=$!
for _ in $(seq 300); do compgen -G "$loop/k/*.part" >/dev/null && break; sleep 0.1; done
NET_DIRTY_OK=1 NET_RECIPES=$scratch/nets NET_OUT=$scratch/lock.c tools/tune/net.sh "$loop" k 0 5 >"$scratch/out" 2>&1
rc=$?
kill -TERM "$first"
stopped=no
for _ in $(seq 100); do kill -0 "$first" 2>/dev/null || { stopped=yes; break; }; sleep 0.1; done
[ "$stopped" = yes ] || { pkill -9 -f "$loop/tune-k gen"; pkill -9 -f "net.sh $loop k"; }
wait "$first" 2>/dev/null
if [ "$rc" -eq 2 ] && grep -q 'generation k is being played by another run' "$scratch/out" &&
    [ "$stopped" = yes ] && ! compgen -G "$loop/k/*.part" >/dev/null && ! pgrep -f "$loop/tune-k gen" >/dev/null; then
    pass
else
    fail "net.sh: one run a generation, stopped at once" "rc=$rc stopped=$stopped" "$(cat "$scratch/out")" "$(ls "$loop/k")"
fi

# Its errors: no output file, a message naming what was wrong.
rm -f "$scratch/bad.c"
tune net "$scratch/bad.c" 2 "$scratch/scored.txt"
if [ "$rc" -eq 2 ] && [[ $err == *"usage"* ]] && [ ! -e "$scratch/bad.c" ]; then
    pass
else
    fail "net with no such size" "rc=$rc" "$err"
fi
tune net "$scratch/bad.c" 5 "$scratch/missing.txt"
if [ "$rc" -eq 1 ] && [[ $err == *"cannot read"*missing.txt* ]] && [ ! -e "$scratch/bad.c" ]; then
    pass
else
    fail "net with missing data" "rc=$rc" "$err"
fi
tune net "$scratch/bad.c" 6 "$scratch/scored.txt"
if [ "$rc" -eq 1 ] && [[ $err == *"positions of size 6, too few"* ]] && [ ! -e "$scratch/bad.c" ]; then
    pass
else
    fail "net with no data of its size" "rc=$rc" "$err"
fi
tune net "$scratch/bad.c" 3 --init "$scratch/scored.txt"
if [ "$rc" -eq 1 ] && [[ $err == *"no network for size 3"* ]] && [ ! -e "$scratch/bad.c" ]; then
    pass
else
    fail "net --init for a size without a network" "rc=$rc" "$err"
fi
tune net "$scratch/bad.c" 5 --valid-lambda -1 "$scratch/scored.txt"
if [ "$rc" -eq 2 ] && [[ $err == *"usage"* ]] && [ ! -e "$scratch/bad.c" ]; then
    pass
else
    fail "net with --valid-lambda out of 0..1" "rc=$rc" "$err"
fi

finish
