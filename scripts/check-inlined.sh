#!/usr/bin/env bash
# Fails if gcmkit code in a binary calls a SIMD intrinsic (core::core_arch) as a function:
# every intrinsic the kernels use must inline into a #[target_feature] entry point. An
# out-of-line one means a kernel step was compiled without the engine's target features,
# or was left as a call by the inliner, and runs each instruction as a function call:
# 56b812f..699da11 made AES-GCM's gathered encryption (the rustls provider's records)
# about 70x slower that way, and no test could see it. Builds with debug assertions
# (the test profile) used to leave hundreds of the load and store intrinsics as calls
# (docs/perf/compile-time.md); the backends no longer call those intrinsics.
#
# A binary with no out-of-line core_arch function passes at once (`_xgetbv`, run-time
# detection in std, is allowed). Otherwise its disassembly is read: a call into core_arch
# from any function whose name mentions gcmkit (a kernel, or a closure or iterator
# adapter monomorphized for one) fails; calls from other crates' code (a test binary's
# dependencies) are listed but allowed. A binary checks only the kernels it links, and a
# binary with no kernel entry point fails: there would be nothing to check.
# Usage: scripts/check-inlined.sh BINARY...
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }
status=0
for bin in "$@"; do
    syms=$(nm -C "$bin" 2>/dev/null | grep -c . || true)
    [ "$syms" -gt 0 ] || { echo "FAIL: $bin has no symbol table to check"; status=1; continue; }
    kernels=$(nm -C "$bin" | grep -cE 'gcmkit::engine::(x86|arm)::[a-z0-9_]+::' || true)
    [ "$kernels" -gt 0 ] || { echo "FAIL: $bin holds no gcmkit kernel entry point"; status=1; continue; }
    outlined=$(nm -C "$bin" | grep core_arch | grep -vc '_xgetbv' || true)
    if [ "$outlined" -eq 0 ]; then
        echo "inlined intrinsics: $bin ok ($kernels kernel symbols, no core_arch function but _xgetbv)"
        continue
    fi
    # Each call into core_arch, as "caller<TAB>callee" (demangled).
    calls=$(objdump -d -C --no-show-raw-insn "$bin" | awk '
        /^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); next }
        /call/ && /core_arch/ && !/_xgetbv/ {
            callee = $0; sub(/.*</, "", callee); sub(/>.*/, "", callee); print fn "\t" callee }')
    ours=$(printf '%s\n' "$calls" | awk -F'\t' '$1 ~ /gcmkit/' | sort | uniq -c | sort -rn || true)
    if [ -n "$ours" ]; then
        echo "FAIL: $bin: gcmkit code calls SIMD intrinsics out of line (count, caller, intrinsic):"
        echo "$ours" | head -20 | cut -c1-300
        status=1
    else
        others=$(printf '%s\n' "$calls" | grep -c . || true)
        echo "inlined intrinsics: $bin ok ($kernels kernel symbols; $outlined core_arch functions out of line, called $others times, none from gcmkit code)"
    fi
done
exit $status
