#!/usr/bin/env bash
# make test-aarch64: cross-builds gcmkit and its CLI for aarch64-unknown-linux-gnu and runs
# them under qemu-user (-cpu max: AES + PMULL present), on the armv8 engine and on the
# portable engine. Installs what it needs (Debian: qemu-user, gcc-aarch64-linux-gnu,
# libc6-dev-arm64-cross; rustup: the aarch64 standard library). Where they cannot be
# installed it fails under CI (CI=true) and elsewhere skips, saying so loudly and in
# make's closing table (scripts/leg-skip.sh); it never skips silently.
# The NIST vector suite reads GCMKIT_CAVP_DIR (make test-aarch64 sets it from the project
# venv), as under test-rust.
set -euo pipefail
cd "$(dirname "$0")/.."
T=aarch64-unknown-linux-gnu
SYSROOT=/usr/aarch64-linux-gnu

have_tools() {
    command -v qemu-aarch64 >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null &&
        [ -e "$SYSROOT/lib/libc.so.6" ]
}
# Fails under CI; elsewhere records the skip and ends the leg.
skip() {
    scripts/leg-skip.sh "aarch64 tests under qemu: $1" || exit 1
    exit 0
}

if ! have_tools; then
    scripts/apt-install.sh qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross || true
fi
have_tools || skip "qemu-aarch64 / aarch64-linux-gnu-gcc / the arm64 libc not installed and not installable here (apt-get: qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
command -v rustup >/dev/null || skip "rustup is missing (needed for the aarch64 standard library)"
rustup target add "$T" >/dev/null 2>&1 || skip "rustup target add $T failed"

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -cpu max -L $SYSROOT"
QEMU=(qemu-aarch64 -cpu max -L "$SYSROOT")
# Tests that run a child process of their own binary run it through the same emulator.
export GCMKIT_TEST_RUNNER="qemu-aarch64 -cpu max -L $SYSROOT"

# The library's suites: vectors, differential, guard pages, properties. Tests that take
# every supported engine run portable and armv8 both; the default engine is forced to
# each in turn (forcing armv8 also fails loudly if detection did not find it).
for engine in armv8 portable; do
    echo "== aarch64 (qemu): cargo test -p gcmkit, GCMKIT_ENGINE=$engine"
    GCMKIT_ENGINE=$engine cargo test -q -p gcmkit --target "$T" --all-features
done

echo "== aarch64 (qemu): the gcmkit CLI"
cargo build -q --release -p gcmkit-cli --target "$T"
BIN=target/$T/release/gcmkit
# No armv8 kernel reaches an intrinsic out of line (aarch64-linux-gnu-objdump comes with
# the cross gcc).
scripts/check-inlined.sh "$BIN"
info=$("${QEMU[@]}" "$BIN" info)
echo "$info"
grep -qx "engines supported: portable, armv8" <<<"$info" ||
    { echo "FAIL: gcmkit info under qemu does not list armv8"; exit 1; }
# gcmkit's own vector files (XAES-256-GCM, DNDK-GCM, GCM-SIV 2015, GCM-64), all in the
# repository, and the reference model's (data/model: GCM-SIV 2015 at every counter width,
# GCM-64 with invalid cases beyond tag flips).
VECTORS=(crates/gcmkit-vectors/data/*.json crates/gcmkit-vectors/data/model/*.json)
[ "${#VECTORS[@]}" -eq 6 ] || { echo "FAIL: expected 6 vector files, found ${VECTORS[*]}"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -c 3000000 /dev/urandom >"$tmp/plain"
"${QEMU[@]}" "$BIN" keygen -o "$tmp/key"
for engine in armv8 portable; do
    GCMKIT_ENGINE=$engine "${QEMU[@]}" "$BIN" selftest | tail -1
    GCMKIT_ENGINE=$engine "${QEMU[@]}" "$BIN" vectors "${VECTORS[@]}" | tail -1
    GCMKIT_ENGINE=$engine "${QEMU[@]}" "$BIN" encrypt -q --key "$tmp/key" -o "$tmp/ct.$engine" "$tmp/plain"
done
# Each engine decrypts the other's file (same format, same bytes).
GCMKIT_ENGINE=portable "${QEMU[@]}" "$BIN" decrypt -q --key "$tmp/key" -o "$tmp/pt1" "$tmp/ct.armv8"
GCMKIT_ENGINE=armv8 "${QEMU[@]}" "$BIN" decrypt -q --key "$tmp/key" -o "$tmp/pt2" "$tmp/ct.portable"
cmp "$tmp/plain" "$tmp/pt1" && cmp "$tmp/plain" "$tmp/pt2"
# The armv8 kernels are inlined NEON (no calls) with the expected AES-128 loops.
python3 bench/arm_counts.py "$BIN" "$tmp/armv8.md" >/dev/null
echo "aarch64 CLI: 3 passed, 0 failed"
