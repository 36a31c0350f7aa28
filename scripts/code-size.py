#!/usr/bin/env python3
"""Machine code and stack frames of gcmkit's engines in a binary (`make code-size`).

Usage: code-size.py RELEASE_BINARY [DEBUG_BINARY]

For each function under `gcmkit::engine` (symbols demangled with `nm -C`; build with
`-C symbol-mangling-version=v0` so that a generic kernel's name carries its vector type):
its bytes (`nm -S`) and its stack frame (from its disassembly: the bytes of its pushes
plus its `sub $n,%rsp`). A function belongs to the engine its path names
(`engine::x86::avx2::gcm_whole`) or, for a generic step compiled out of line, to the
engine of the vector type it is instantiated with (Xmm: aesni, Ymm: avx2, Zmm: avx512,
Neon: armv8); `engine::portable` and the rest of `gcmkit::engine` are listed as such.
Prints bytes per engine, the entry points with their size and frame, and the largest
frame per engine; with a debug binary, its frames too (opt-level 0: every step its own
function, so the deepest call chain is what a thread's stack must hold).
"""
import collections
import re
import subprocess
import sys

ENGINE_OF_PATH = re.compile(r"gcmkit::engine::(?:x86|arm)::(aesni|avx2|avx512|armv8)::")
VECTOR_ENGINE = [("Zmm", "avx512"), ("Ymm", "avx2"), ("Xmm", "aesni"), ("Neon", "armv8")]


def engine_of(name):
    m = ENGINE_OF_PATH.search(name)
    if m:
        return m.group(1)
    if "gcmkit::engine::portable" in name:
        return "portable"
    for ty, eng in VECTOR_ENGINE:
        if re.search(r"\b" + ty + r"\b", name):
            return eng
    return "shared"


def functions(binary):
    """(start, size, name) of every gcmkit::engine text symbol."""
    out = subprocess.run(["nm", "-S", "-C", "--defined-only", binary],
                         capture_output=True, text=True, check=True).stdout
    funcs = []
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) < 4 or parts[2] not in "tTwW":
            continue
        name = parts[3]
        if "gcmkit::engine" not in name.split("<")[0] and not name.startswith("<gcmkit::engine"):
            continue
        funcs.append((int(parts[0], 16), int(parts[1], 16), name))
    return funcs


def frames(binary, funcs):
    """Stack frame bytes of each function, from its prologue in the disassembly."""
    result = {}
    objdump = ["objdump", "-d", "--no-show-raw-insn", binary]
    text = subprocess.run(objdump, capture_output=True, text=True, check=True).stdout
    by_start = {start: (size, name) for start, size, name in funcs}
    cur, frame, seen, probing = None, 0, 0, False
    for line in text.splitlines():
        m = re.match(r"^([0-9a-f]+) <", line)
        if m:
            if cur is not None:
                result[cur] = frame
            start = int(m.group(1), 16)
            cur = start if start in by_start else None
            frame, seen, probing = 0, 0, False
            continue
        if cur is None:
            continue
        seen += 1
        if seen > 40:  # the prologue is over
            continue
        if re.search(r"\spush\s+%r", line):
            frame += 8
        # A large frame is probed page by page: `mov %rsp,%r11; sub $big,%r11`, then a
        # loop of `sub $0x1000,%rsp` down to %r11 (counted by the `sub` on %r11, not the
        # loop's), then the remainder with a plain `sub`.
        m = re.search(r"\ssub\s+\$0x([0-9a-f]+),%r11", line)
        if m:
            frame += int(m.group(1), 16)
            probing = True
            continue
        m = re.search(r"\ssub\s+\$0x([0-9a-f]+),%rsp", line)
        if m and not (probing and int(m.group(1), 16) == 0x1000):
            frame += int(m.group(1), 16)
    if cur is not None:
        result[cur] = frame
    return result


def report(binary, label, entry_sizes):
    funcs = functions(binary)
    fr = frames(binary, funcs)
    per_engine = collections.Counter()
    largest = {}
    for start, size, name in funcs:
        eng = engine_of(name)
        per_engine[eng] += size
        f = fr.get(start, 0)
        if f > largest.get(eng, (0, ""))[0]:
            largest[eng] = (f, name)
    print(f"## {label}: {binary}")
    if entry_sizes:
        total = sum(per_engine.values())
        print(f"engine machine code: {total} bytes in {len(funcs)} functions")
        for eng, size in per_engine.most_common():
            print(f"  {eng:9} {size:8} bytes")
        print("largest functions (bytes, frame, name):")
        for start, size, name in sorted(funcs, key=lambda f: -f[1])[:25]:
            print(f"  {size:8} {fr.get(start, 0):7}  {name[:150]}")
        big = [f for f in funcs if f[1] > 32 * 1024]
        print(f"functions over 32 KiB: {len(big)}")
    print("largest stack frame per engine (bytes, function):")
    for eng, (f, name) in sorted(largest.items()):
        print(f"  {eng:9} {f:8}  {name[:150]}")
    print()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    report(sys.argv[1], "release", True)
    if len(sys.argv) > 2:
        report(sys.argv[2], "debug (opt-level 0)", False)


if __name__ == "__main__":
    main()
