#!/usr/bin/env bash
# Fails if a release binary holds a SIMD intrinsic (core::core_arch) as a function of its
# own: every intrinsic the kernels use must inline into a #[target_feature] entry point.
# An out-of-line one means a kernel step was compiled without the engine's target
# features and calls each instruction as a function: 56b812f..699da11 made AES-GCM's
# gathered encryption (the rustls provider's records) about 70x slower that way, and no
# test could see it. (That kernel, `gcm_seal_parts`, only the rustls provider links: a
# binary is checked for the kernels it holds.) `_xgetbv` (run-time detection in std,
# outside every kernel) is allowed. A binary with no kernel entry point fails: there would
# be nothing to check.
# Usage: scripts/check-inlined.sh BINARY...
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }
status=0
for bin in "$@"; do
    syms=$(nm -C "$bin" 2>/dev/null | grep -c . || true)
    [ "$syms" -gt 0 ] || { echo "FAIL: $bin has no symbol table to check"; status=1; continue; }
    kernels=$(nm -C "$bin" | grep -cE 'gcmkit::engine::(x86|arm)::[a-z0-9_]+::' || true)
    [ "$kernels" -gt 0 ] || { echo "FAIL: $bin holds no gcmkit kernel entry point"; status=1; continue; }
    bad=$(nm -C "$bin" | grep core_arch | grep -v '_xgetbv' || true)
    if [ -n "$bad" ]; then
        echo "FAIL: $bin holds SIMD intrinsics out of line (a kernel step without its target features):"
        echo "$bad" | head -20
        status=1
    else
        echo "inlined intrinsics: $bin ok ($kernels kernel symbols, no core_arch function but _xgetbv)"
    fi
done
exit $status
