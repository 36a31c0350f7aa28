#!/usr/bin/env bash
# scripts/leg-skip.sh REASON: a leg that cannot run one of its tools (not installed and not
# installable here) calls this before leaving that part out.
# - Under CI (CI=true, as CI sets it) it prints the reason and exits 1: the leg fails, so a
#   check that did not run never shows green.
# - Elsewhere (a user's `make test` without root, say) it prints the reason, appends it to
#   the file named by $GCMKIT_SKIPS (scripts/run-legs.sh gives each leg one and shows
#   what it holds in its closing table) and exits 0: the leg goes on without that part.
set -euo pipefail
reason=$*
case ${CI:-} in
true | TRUE | True | 1 | yes)
    echo "FAILED (CI=true, nothing may be skipped): $reason" >&2
    exit 1
    ;;
esac
echo "################################################################################"
echo "## SKIPPED: $reason"
echo "################################################################################"
# Once per reason: the Makefile and the script it runs may both find the same tool missing.
if [ -n "${GCMKIT_SKIPS:-}" ] && ! grep -qxF -- "$reason" "$GCMKIT_SKIPS" 2>/dev/null; then
    echo "$reason" >>"$GCMKIT_SKIPS"
fi
