#!/usr/bin/env bash
# test_usage.sh: --help for the command and every subcommand, and the exit
# codes of wrong usage (2), bad input (1) and success (0).
. "$(dirname "$0")/lib/common.sh"

tak --help
expect_rc "tak --help" 0
for cmd in play perft moves replay bench; do
    expect_match "tak --help lists $cmd" "$out" "^  $cmd "
done
# Every command the overview lists, those added later included.
commands=$(printf '%s\n' "$out" | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
for cmd in $commands; do
    tak "$cmd" --help
    expect_rc "tak $cmd --help" 0
    expect_match "tak $cmd --help usage" "$out" "^usage: tak $cmd"
    expect_match "tak $cmd --help options" "$out" "--help"
    tak help "$cmd"
    expect_rc "tak help $cmd" 0
    expect_match "tak help $cmd" "$out" "^usage: tak $cmd"
done

tak
expect_rc "no command" 2
expect_match "no command: overview on stderr" "$err" "^usage: tak COMMAND"
tak fly
expect_rc "unknown command" 2
expect_match "unknown command named" "$err" "unknown command 'fly'"
tak help fly
expect_rc "help for an unknown command" 2

# Usage errors name the command and point to its help.
tak perft
expect_match "usage error names the command" "$err" "^tak perft: missing DEPTH"
expect_match "usage error shows usage" "$err" "^usage: tak perft"
expect_eq "usage error: nothing on stdout" "$out" ""

expect_run "bench unknown option" 2 "" bench --slow
expect_run "bench argument" 2 "" bench 3
finish
