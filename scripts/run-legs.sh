#!/usr/bin/env bash
# Runs make targets ("legs") one after another, each timed, and ends with a table of the
# legs' wall times (`make test` and `make test-all` call it; CI's log ends with the table).
# Stops at the first leg that fails, after printing the table of what ran, and exits with
# that leg's status.
# Usage: scripts/run-legs.sh LEG...
set -uo pipefail
make=${MAKE:-make}
names=() times=() status=0 failed=""
start_all=$(date +%s)
for leg in "$@"; do
    echo "==== leg $leg"
    t0=$(date +%s)
    $make --no-print-directory "$leg"
    rc=$?
    t1=$(date +%s)
    names+=("$leg") times+=($((t1 - t0)))
    echo "==== leg $leg: $((t1 - t0)) s, exit $rc"
    if [ $rc -ne 0 ]; then status=$rc failed=$leg; break; fi
done
total=$(( $(date +%s) - start_all ))
echo
echo "| leg | wall time |"
echo "|---|---|"
for i in "${!names[@]}"; do
    printf '| %s | %dm%02ds |\n' "${names[$i]}" $((times[i] / 60)) $((times[i] % 60))
done
printf '| **total** | %dm%02ds |\n' $((total / 60)) $((total % 60))
if [ -n "$failed" ]; then
    echo "FAILED: leg $failed (exit $status); the legs after it did not run"
fi
exit $status
