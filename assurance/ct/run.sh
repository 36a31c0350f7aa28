#!/usr/bin/env bash
# make ct-check (docs/assurance.md, "Constant time"). Three checks, each with negative
# controls that must be flagged:
# 1. MemorySanitizer taint on EVERY engine this CPU has (avx2 and avx512 included): keys,
#    plaintexts, tags and secret nonces poisoned; MSan stops at any branch or memory
#    address computed from them. Prints `ct <engine> <method>: <N> calls, clean` per
#    engine and method and `control <name> <engine>: flagged` per control and engine; the
#    script fails if any expected line is missing.
# 2. valgrind memcheck (machine code, after the backend) on portable and aesni (valgrind
#    stops with SIGILL at VAES and AVX-512).
# 3. the dudect-style timing test on every engine (a second opinion; one run, no reruns).
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
TARGET=x86_64-unknown-linux-gnu
# Every public entry the taint mode runs (src/taint.rs prints them in this order).
METHODS=(gcm-in-place gcm-into gcm-parts-into gcm-online gcm-short-tags gcm-iv-lengths
    aes-gcm-siv-128 aes-gcm-siv-256 aes-gcm-siv-failure gcm-siv-plus gprf gmac
    incremental-gmac gcm-siv-2015 xaes-dndk cobblestone)
# branch, table: gcmkit's negative controls (crates/gcmkit/src/secret/control.rs, where the
# report must point). tag-taint: the declassification hook off, so the report must come
# from gcmkit's tag check (taint reached the tag through the engine's kernels).
CONTROLS=(branch table tag-taint)
MSAN_EXIT=86
LOG=$(mktemp -d /tmp/ct-check.XXXXXX)
trap 'rm -rf "$LOG"' EXIT

echo "== 1. MemorySanitizer taint on every engine"
# MSan needs an instrumented standard library: -Zbuild-std from the rust-src component
# (stable rustc, RUSTC_BOOTSTRAP=1 for -Z flags).
SYSROOT=$(rustc --print sysroot)
if [ ! -d "$SYSROOT/lib/rustlib/src/rust/library" ]; then
    rustup component add rust-src || {
        echo "FAIL: ct-check needs the rust-src component (rustup component add rust-src)"
        exit 1
    }
fi
# -msan-eager-checks=0: rustc turns on MSan's eager checks, which report a poisoned value
# passed to or returned from a non-inlined function (noundef). Passing a secret as an
# argument is not a leak; without eager checks MSan reports branches, addresses and
# (with halt) nothing else. The cfgs: the declassification hook (gcmkit_ct_check), the
# MSan models of strict intrinsics (gcmkit_ct_msan) and the negative controls
# (gcmkit_ct_control, dormant until `control` selects one).
export RUSTC_BOOTSTRAP=1
MSAN_FLAGS="-Zsanitizer=memory -Cllvm-args=-msan-eager-checks=0 --cfg gcmkit_ct_check --cfg gcmkit_ct_msan --cfg gcmkit_ct_control"
(cd "$ROOT" && CARGO_TARGET_DIR=target/msan RUSTFLAGS="$MSAN_FLAGS" \
    cargo build -q -Zbuild-std --target $TARGET --profile ct -p gcmkit-ct-check)
MBIN=$ROOT/target/msan/$TARGET/ct/gcmkit-ct-check
# halt_on_error (the default): a leaking method stops the run before it prints its line.
export MSAN_OPTIONS="exitcode=$MSAN_EXIT:halt_on_error=1"
mapfile -t ENGINES < <("$MBIN" engines)
echo "engines on this CPU: ${ENGINES[*]}"
# A missed detection must not shrink the check: every engine whose instructions
# /proc/cpuinfo lists must be in that list (the rule of crates/gcmkit/tests/common's
# engines()).
if [ "$(uname -m)" = x86_64 ]; then
    flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
    has() { for f in "$@"; do [[ $flags == *" $f "* ]] || return 1; done; }
    want=(portable)
    has aes pclmulqdq sse2 ssse3 sse4_1 && want+=(aesni)
    has aes pclmulqdq sse2 ssse3 sse4_1 avx avx2 vaes vpclmulqdq && want+=(avx2)
    has aes pclmulqdq sse2 ssse3 sse4_1 avx avx2 vaes vpclmulqdq avx512f avx512bw avx512vl && want+=(avx512)
    for w in "${want[@]}"; do
        [[ " ${ENGINES[*]} " == *" $w "* ]] ||
            { echo "FAIL: the CPU has $w's instructions but the harness did not detect $w"; exit 1; }
    done
fi
missing=0
for e in "${ENGINES[@]}"; do
    set +e
    GCMKIT_ENGINE=$e "$MBIN" taint "$e" >"$LOG/taint-$e" 2>&1
    rc=$?
    set -e
    grep '^ct ' "$LOG/taint-$e" || true
    if [ $rc -ne 0 ]; then
        cat "$LOG/taint-$e" | grep -v '^ct ' | head -60
        echo "FAIL: engine $e: exit $rc (MSan report or error above)"
    fi
    for m in "${METHODS[@]}"; do
        if ! grep -qE "^ct $e $m: [1-9][0-9]* calls, clean\$" "$LOG/taint-$e"; then
            echo "MISSING: ct $e $m"
            missing=$((missing + 1))
        fi
    done
    # Each control must stop the run with an MSan report inside the control's code.
    for c in "${CONTROLS[@]}"; do
        set +e
        GCMKIT_ENGINE=$e "$MBIN" control "$c" "$e" >"$LOG/control-$c-$e" 2>&1
        rc=$?
        set -e
        if [ "$c" = tag-taint ]; then at='#0 0x[0-9a-f]+ in .*gcmkit::(gcm|tag)'; else
            at='#0 0x[0-9a-f]+ in gcmkit::secret::control::leak'; fi
        if [ $rc -eq $MSAN_EXIT ] && grep -q "use-of-uninitialized-value" "$LOG/control-$c-$e" &&
            grep -qE "$at" "$LOG/control-$c-$e"; then
            where=$(grep -m1 -oE "src/[a-z_/]+\.rs:[0-9]+" "$LOG/control-$c-$e" || true)
            echo "control $c $e: flagged (MSan: use-of-uninitialized-value at $where)"
        else
            head -40 "$LOG/control-$c-$e"
            echo "MISSING: control $c $e (exit $rc): the check cannot see this leak on $e"
            missing=$((missing + 1))
        fi
    done
done
expected=$((${#ENGINES[@]} * (${#METHODS[@]} + ${#CONTROLS[@]})))
if [ ${#ENGINES[@]} -eq 0 ] || [ $missing -ne 0 ]; then
    echo "FAIL: $missing of $expected expected lines missing"
    exit 1
fi
echo "MSan: all $expected lines (${#ENGINES[@]} engines x ${#METHODS[@]} methods + ${#CONTROLS[@]} controls)"

echo "== 2. valgrind memcheck (portable, aesni: the machine code, after the backend)"
command -v valgrind >/dev/null || {
    echo "FAIL: ct-check needs valgrind"
    exit 2
}
# Its own folder inside the root target folder: the cfg in RUSTFLAGS changes every crate's
# build, and sharing target/ would rebuild the rest of the workspace after it.
export CARGO_TARGET_DIR=../../target/ct-check
RUSTFLAGS="--cfg gcmkit_ct_check" cargo build --profile ct -q -p gcmkit-ct-check
BIN=$CARGO_TARGET_DIR/ct/gcmkit-ct-check
VG=(valgrind --quiet --error-exitcode=99 --track-origins=yes --leak-check=no)
echo "gcmkit under memcheck (secrets undefined; must report nothing)"
GCMKIT_ENGINE=aesni "${VG[@]}" "$BIN" ct
echo "negative control (must be reported)"
set +e
GCMKIT_ENGINE=aesni "${VG[@]}" "$BIN" leaky >"$LOG/leaky" 2>&1
rc=$?
set -e
if [ "$rc" -ne 99 ]; then
    cat "$LOG/leaky"
    echo "FAIL: the negative control was not flagged: the check cannot detect leaks"
    exit 1
fi
grep -E "Conditional jump|Use of uninitialised value" "$LOG/leaky" | sort | uniq -c
echo "negative control: flagged as expected (memcheck exit $rc)"

echo "== 3. statistical timing test on every engine (dudect-style; native; one run each)"
# Under the timing lock when flock is there: two timing runs at once disturb each other.
if command -v flock >/dev/null; then
    flock /tmp/gcmkit-timing.lock "$BIN" dudect
else
    "$BIN" dudect
fi
echo "ct-check passed"
