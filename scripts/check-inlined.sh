#!/usr/bin/env bash
# Fails if a gcmkit kernel in a binary reaches a SIMD intrinsic (core::core_arch) as a
# function, directly or through an out-of-line closure or adapter: every intrinsic the kernels use must inline into a #[target_feature] entry point. An
# out-of-line one means a kernel step was compiled without the engine's target features,
# or was left as a call by the inliner, and runs each instruction as a function call:
# 56b812f..699da11 made AES-GCM's gathered encryption (the rustls provider's records)
# about 70x slower that way, and no test could see it. Builds with debug assertions
# (the test profile) used to leave hundreds of the load and store intrinsics as calls
# (docs/history/compile-time.md); the backends no longer call those intrinsics.
#
# A binary with no out-of-line core_arch function passes at once (`_xgetbv`, run-time
# detection in std, is allowed). Otherwise its disassembly is read and every direct call
# or tail call is an edge; from each gcmkit::engine function the calls are followed down
# (up to 4 calls deep, not into panics, formatting, std or alloc), and reaching a core_arch
# function fails. That finds a kernel's intrinsics behind an out-of-line closure or
# iterator adapter, whose symbol (`Iter<T>::for_each`) does not name gcmkit. Other
# crates' own out-of-line intrinsics (a test binary's dependencies at opt-level 0) are
# counted but allowed. A binary checks only the kernels it links, and a binary with no
# kernel entry point fails: there would be nothing to check. aarch64 binaries are read
# with aarch64-linux-gnu-objdump.
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
    objdump=objdump
    if readelf -h "$bin" | grep -q 'Machine:.*AArch64'; then objdump=aarch64-linux-gnu-objdump; fi
    command -v "$objdump" >/dev/null || { echo "FAIL: $bin: $objdump is missing"; status=1; continue; }
    # Edges "caller<TAB>callee" of every direct call and tail call to a function's start.
    edges=$("$objdump" -d -C --no-show-raw-insn "$bin" | awk '
        /^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); next }
        match($0, /\t(call|jmp|bl|b)[a-z]*[ \t]+[0-9a-f]+ </) {
            callee = substr($0, RSTART + RLENGTH); sub(/>$/, "", callee)
            if (callee !~ /\+0x[0-9a-f]+$/ && callee != fn) print fn "\t" callee }' | sort -u)
    found=$(printf '%s\n' "$edges" | awk -F'\t' '
        { out[$1] = out[$1] "\n" $2 }
        END {
            for (f in out) if (f ~ /^gcmkit::engine::/) { depth[f] = 0; root[f] = f; queue[n++] = f }
            for (i = 0; i < n; i++) {
                f = queue[i]
                if (f ~ /core_arch/) { if (f !~ /_xgetbv/) print root[f] "\t" f; continue }
                if (depth[f] >= 4 || (i > 0 && f ~ /^(core::panicking|core::fmt|std::|alloc::)/)) continue
                m = split(substr(out[f], 2), cs, "\n")
                for (j = 1; j <= m; j++) if (!(cs[j] in depth)) {
                    depth[cs[j]] = depth[f] + 1; root[cs[j]] = root[f]; queue[n++] = cs[j] }
            }
        }' | sort | uniq -c | sort -rn || true)
    if [ -n "$found" ]; then
        echo "FAIL: $bin: gcmkit kernels reach SIMD intrinsics out of line (count, kernel, intrinsic):"
        echo "$found" | head -20 | cut -c1-300
        status=1
    else
        calls=$(printf '%s\n' "$edges" | awk -F'\t' '$2 ~ /core_arch/ && $2 !~ /_xgetbv/' | grep -c . || true)
        echo "inlined intrinsics: $bin ok ($kernels kernel symbols; $outlined core_arch functions out of line, called from $calls places, none reached from a kernel)"
    fi
done
exit $status
