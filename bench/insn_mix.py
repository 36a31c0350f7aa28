#!/usr/bin/env python3
"""Executed instructions of a binary by mnemonic, from a callgrind profile.

    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=OUT BINARY ARGS...
    python3 bench/insn_mix.py OUT BINARY [DIVISOR]

Counts only instructions of BINARY itself (not libc or the loader), weights each
instruction of its disassembly (objdump, Intel syntax) by its execution count and prints
the total and the commonest mnemonics, each divided by DIVISOR (e.g. the number of 8-block
batches run). Moves to or from the stack are listed apart ("(stack)"), as are register
copies of vector registers ("(reg)") and other instructions with a stack operand.
"""
import collections
import os
import re
import subprocess
import sys


def counts(profile, binary_name):
    """Execution count per instruction address of `binary_name`'s object."""
    out = collections.Counter()
    names, current, addr, after_call = {}, "", 0, False
    position = re.compile(r"^(0x[0-9a-f]+|\+\d+|-\d+|\*)\s+\S+\s+(\d+)$")
    for line in open(profile):
        line = line.rstrip("\n")
        for key in ("ob=", "cob="):
            if line.startswith(key):
                m = re.match(key + r"\((\d+)\)\s*(.*)", line)
                if m and m.group(2):
                    names[m.group(1)] = m.group(2)
                if key == "ob=" and m:
                    current = names.get(m.group(1), "")
                break
        else:
            if line.startswith("calls="):
                after_call = True
                continue
            m = position.match(line)
            if not m:
                continue
            p = m.group(1)
            addr = int(p, 16) if p.startswith("0x") else addr if p == "*" else addr + int(p)
            if after_call:  # the inclusive cost of a call, not an instruction's own
                after_call = False
                continue
            if os.path.basename(current) == binary_name:
                out[addr] += int(m.group(2))
    return out


def main(profile, binary, divisor=1.0):
    executed = counts(profile, os.path.basename(binary))
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "intel", binary],
                          capture_output=True, text=True, check=True).stdout
    insn = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            insn[int(m.group(1), 16)] = (m.group(2), m.group(3))
    mix, total = collections.Counter(), 0
    for a, n in executed.items():
        if a not in insn:
            continue
        op, args = insn[a]
        if op.startswith("mov") and "rsp" in args:
            op += "(stack)"
        elif op in ("movdqa", "movaps") and "PTR" not in args:
            op += "(reg)"
        elif "rsp" in args:
            op += "(stack-op)"
        mix[op] += n
        total += n
    print(f"total {total / divisor:.1f}")
    for op, n in mix.most_common(30):
        print(f"{op:24} {n / divisor:10.1f}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 1.0)
