#!/usr/bin/env bash
# scripts/must-print.sh PATTERN COMMAND...: runs COMMAND, its output (stdout and stderr) to
# stdout as it comes, and fails unless COMMAND exits 0 and printed a line matching PATTERN
# (grep's basic regular expression). For a leg that must see a test run, not just a green
# exit: `cargo test` with a filter that matches nothing also exits 0. (Not `tee /dev/stderr`:
# where stderr is a file, as in a CI log, opening /dev/stderr truncates it.)
set -uo pipefail
pattern=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || exit "$rc"
grep -q -- "$pattern" "$log" || {
    echo "FAIL: '$*' exited 0 but printed no line matching: $pattern"
    exit 1
}
