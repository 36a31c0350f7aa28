#!/usr/bin/env bash
# Runs make targets ("legs") one after another, each timed, and ends with a table of the
# legs' wall times and results (`make test` and `make test-all` call it; CI's log ends with
# the table). Stops at the first leg that fails, after printing the table of what ran, and
# exits with that leg's status.
# A leg that had to leave a part out (a tool missing and not installable, outside CI: see
# scripts/leg-skip.sh) writes the reason to the file $GCMKIT_SKIPS names; the table shows
# it as "skipped: REASON", and the closing line counts those legs.
# Usage: scripts/run-legs.sh LEG...
set -uo pipefail
make=${MAKE:-make}
names=() times=() results=() status=0 failed="" nskipped=0
skips=$(mktemp /tmp/gcmkit-skips.XXXXXX)
trap 'rm -f "$skips"' EXIT
start_all=$(date +%s)
for leg in "$@"; do
    echo "==== leg $leg"
    : >"$skips"
    t0=$(date +%s)
    GCMKIT_SKIPS=$skips $make --no-print-directory "$leg"
    rc=$?
    t1=$(date +%s)
    result=passed
    if [ $rc -ne 0 ]; then
        result="FAILED (exit $rc)"
    fi
    if [ -s "$skips" ]; then
        result="$result; skipped: $(paste -sd ';' "$skips" | sed 's/;/; /g')"
        nskipped=$((nskipped + 1))
    fi
    names+=("$leg") times+=($((t1 - t0))) results+=("$result")
    echo "==== leg $leg: $((t1 - t0)) s, exit $rc"
    if [ $rc -ne 0 ]; then status=$rc failed=$leg; break; fi
done
total=$(( $(date +%s) - start_all ))
echo
echo "| leg | wall time | result |"
echo "|---|---|---|"
for i in "${!names[@]}"; do
    printf '| %s | %dm%02ds | %s |\n' "${names[$i]}" $((times[i] / 60)) $((times[i] % 60)) "${results[$i]}"
done
printf '| **total** | %dm%02ds | |\n' $((total / 60)) $((total % 60))
if [ $nskipped -gt 0 ]; then
    echo "SKIPPED: $nskipped leg(s) left a part out (see the result column): the tool was missing and could not be installed"
fi
if [ -n "$failed" ]; then
    echo "FAILED: leg $failed (exit $status); the legs after it did not run"
fi
exit $status
