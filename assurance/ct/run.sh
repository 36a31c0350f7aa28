#!/usr/bin/env bash
# make ct-check: the constant-time check must pass on gcmkit and must FAIL on the negative
# control. valgrind executes AES-NI/PCLMULQDQ but not VAES or AVX-512, so the harness runs
# the portable and aesni engines (GCMKIT_ENGINE=aesni for the paths that select one).
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "ct-check needs valgrind"; exit 2; }
# Its own folder inside the root target folder: the cfg in RUSTFLAGS changes every crate's
# build, and sharing target/ would rebuild the rest of the workspace after it.
export CARGO_TARGET_DIR=../../target/ct-check
RUSTFLAGS="--cfg gcmkit_ct_check" cargo build --profile ct -q -p gcmkit-ct-check
BIN=$CARGO_TARGET_DIR/ct/gcmkit-ct-check
VG=(valgrind --quiet --error-exitcode=99 --track-origins=yes --leak-check=no)
echo "== gcmkit under memcheck (secrets undefined; must report nothing)"
GCMKIT_ENGINE=aesni "${VG[@]}" "$BIN" ct
echo "== negative control (must be reported)"
set +e
GCMKIT_ENGINE=aesni "${VG[@]}" "$BIN" leaky > leaky.log 2>&1
rc=$?
set -e
if [ "$rc" -ne 99 ]; then
  cat leaky.log
  echo "FAIL: the negative control was not flagged: the check cannot detect leaks"
  exit 1
fi
grep -E "Conditional jump|Use of uninitialised value" leaky.log | sort | uniq -c
echo "negative control: flagged as expected (memcheck exit $rc)"
rm -f leaky.log
echo "== statistical timing test on every engine (dudect-style; native, not under valgrind)"
"$BIN" dudect
echo "ct-check passed"
