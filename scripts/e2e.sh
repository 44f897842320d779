#!/usr/bin/env bash
# e2e.sh [FILE...]: the browser tests (tests/e2e/*.test.js unless files are
# named), a file at a time, each with its own server and browser. A file
# that fails is run once more: the stage fails when it fails twice; when it
# passes the second time, the first run's failures are printed again at the
# end under FLAKY, with its log kept in build/e2e-artifacts/, so a test that
# fails only now and then is seen and looked into (as Playwright's own
# runner retries on CI), not lost in a run that passed.
set -u
cd "$(dirname "$0")/.." || exit 2

ART=${E2E_ARTIFACTS:-build/e2e-artifacts} # where the logs go
mkdir -p "$ART"
rm -f "$ART/flaky.txt" # what test.sh's summary names
# A file that hangs is stopped after E2E_FILE_TIMEOUT seconds (default 600;
# the slowest takes about a minute), not left to use up CI's time.
limit=${E2E_FILE_TIMEOUT:-600}
run=(timeout --kill-after=10 "$limit" node --test)
node --test-force-exit -e 0 2>/dev/null && run+=(--test-force-exit)
[ $# -gt 0 ] || set -- tests/e2e/*.test.js
log_of() { echo "$ART/$(basename "$1" .test.js).log"; } # a file's first run's log

failed=()
flaky=()
for file in "$@"; do
    log=$(log_of "$file")
    "${run[@]}" "$file" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    [ "$status" -eq 0 ] && continue
    [ "$status" -eq 124 ] || [ "$status" -eq 137 ] && echo "e2e.sh: $file did not end in $limit s"
    echo "e2e.sh: $file failed; running it once more"
    if "${run[@]}" "$file" >"$log.again" 2>&1; then
        flaky+=("$file")
    else
        cat "$log.again"
        failed+=("$file")
    fi
done

for file in "${flaky[@]}"; do
    log=$(log_of "$file")
    echo
    echo "FLAKY: $file failed, then passed when run again; the failures (whole log: $log):"
    grep -A12 '^not ok' "$log"
    echo "$file: $(grep -c '^not ok' "$log") failed, then passed" >>"$ART/flaky.txt"
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "e2e.sh: failed twice: ${failed[*]}"
    exit 1
fi
echo "e2e.sh: all $# passed${flaky[*]:+ (${#flaky[@]} only when run again)}"
