#!/usr/bin/env bash
# test_e2e_runner.sh: scripts/e2e.sh, which runs the browser tests a file at
# a time, runs a failed file once more: a file that fails twice fails the
# stage; one that passes the second time passes it, named under FLAKY with
# its first failures, and in the list test.sh's summary shows.
. "$(dirname "$0")/lib/common.sh"
e2e() {
    E2E_ARTIFACTS=$scratch/art bash scripts/e2e.sh "$@" >"$scratch/out" 2>"$scratch/err"
    rc=$?
    out=$(cat "$scratch/out")
    err=$(cat "$scratch/err")
}
# once: fails its first run (no mark yet), passes the next.
cat >"$scratch/once.test.js" <<JS
const test = require('node:test'), fs = require('node:fs'), assert = require('node:assert');
test('passes the second time', () => {
  const first = !fs.existsSync('$scratch/mark');
  fs.writeFileSync('$scratch/mark', '');
  assert.ok(!first, 'the first run fails');
});
JS
printf '%s\n' "const test = require('node:test');" "test('always passes', () => {});" >"$scratch/good.test.js"
printf '%s\n' "const test = require('node:test'), assert = require('node:assert');" \
    "test('always fails', () => { assert.equal(1, 2); });" >"$scratch/bad.test.js"

e2e "$scratch/good.test.js"
expect_rc "a passing file" 0
expect_match "a passing file: the last line" "$(tail -n 1 <<<"$out")" '^e2e.sh: all 1 passed$'
expect_eq "a passing file: nothing flaky" "$(cat "$scratch/art/flaky.txt" 2>/dev/null)" ""

e2e "$scratch/once.test.js" "$scratch/good.test.js"
expect_rc "a file that fails once" 0
expect_match "a file that fails once: named" "$out" "^FLAKY: $scratch/once.test.js failed, then passed"
expect_match "a file that fails once: its failure" "$out" "^not ok 1 - passes the second time"
expect_match "a file that fails once: its reason" "$out" "the first run fails"
expect_match "a file that fails once: the count" "$(tail -n 1 <<<"$out")" '^e2e.sh: all 2 passed \(1 only when run again\)$'
expect_eq "a file that fails once: for the summary" "$(cat "$scratch/art/flaky.txt")" "$scratch/once.test.js: 1 failed, then passed"

e2e "$scratch/bad.test.js" "$scratch/good.test.js"
expect_rc "a file that fails twice" 1
expect_match "a file that fails twice: named" "$(tail -n 1 <<<"$out")" "^e2e.sh: failed twice: $scratch/bad.test.js$"
expect_match "a file that fails twice: its second log shown" "$out" "e2e.sh: $scratch/bad.test.js failed; running it once more"
expect_eq "a file that fails twice: not flaky" "$(cat "$scratch/art/flaky.txt" 2>/dev/null)" ""
expect_eq "both runs kept" "$(cd "$scratch/art" && ls bad.log*)" "bad.log
bad.log.again"

# A file that never ends is stopped, said so, and counts as a failure.
printf '%s\n' "const test = require('node:test');" "test('never ends', () => new Promise(() => setInterval(() => {}, 1000)));" >"$scratch/hang.test.js"
E2E_FILE_TIMEOUT=2 e2e "$scratch/hang.test.js"
expect_rc "a file that hangs" 1
expect_match "a file that hangs: said" "$out" "^e2e.sh: $scratch/hang.test.js did not end in 2 s$"
expect_match "a file that hangs: failed" "$(tail -n 1 <<<"$out")" "^e2e.sh: failed twice: $scratch/hang.test.js$"

finish
