#!/usr/bin/env python3
"""Instruction counts per 16-byte block of the armv8 engine's inner loops.

Arm speed cannot be measured on this x86 machine (qemu-user translates instructions; its
timings say nothing about a real core), so docs/perf/armv8.md gives what can be checked
here: the static instruction mix of each hot loop, read from the disassembly of the
aarch64 build of the CLI.

    python3 bench/arm_counts.py target/aarch64-unknown-linux-gnu/release/gcmkit docs/perf/armv8.md

A loop is a backward branch's range inside an entry point of `engine::arm::armv8`. The
batch loops process 8 blocks; a loop is attributed to AES-128/192/256 by its AESE count
(8 blocks x 10/12/14 rounds; the one-body kernels run AES-192/256's extra rounds in an
inner loop, so their batches may count as none of these). Each (kernel, key size) row is
the smallest such loop.
"""
import collections
import re
import subprocess
import sys

ROUNDS = {80: "AES-128", 96: "AES-192", 112: "AES-256"}
# The one-body kernels (#75): every key size in one loop, ten rounds in line and
# AES-192/256's extra ones in an inner loop (8 AESE, counted once in the outer loop's
# range), and for AES-GCM round 1 either from the key's round-one table or 8 AESE more
# (and one for the table's base).
ONE_BODY = {88: "every key size (extra rounds in an inner loop)",
            97: "every key size (extra rounds in an inner loop; round 1 or the table)"}
KERNELS = {
    "gcm_lean_seal_whole": "stitched AES-GCM encryption (CTR + GHASH, 8 blocks per batch)",
    "ctr_xor": "CTR only (8 blocks per batch)",
    "hash_update": "GHASH/POLYVAL only (8 blocks per reduction)",
}


def functions(binary):
    out = subprocess.run(
        ["aarch64-linux-gnu-objdump", "-d", "--no-show-raw-insn", "-C", binary],
        check=True, capture_output=True, text=True).stdout
    name, body = None, []
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            if name:
                yield name, body
            name, body = m.group(1), []
            continue
        m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if m and name:
            body.append((int(m.group(1), 16), m.group(2), m.group(3)))
    if name:
        yield name, body


def loops(body):
    index = {a: i for i, (a, _, _) in enumerate(body)}
    for i, (a, op, args) in enumerate(body):
        if op == "b" or op.startswith("b.") or op in ("cbz", "cbnz", "tbz", "tbnz"):
            m = re.search(r"\b([0-9a-f]+) <", args)
            if m and int(m.group(1), 16) < a and int(m.group(1), 16) in index:
                yield body[index[int(m.group(1), 16)]:i + 1]


def main(binary, out):
    rows = {}
    for name, body in functions(binary):
        m = re.match(r"gcmkit::engine::arm::armv8::(\w+)$", name)
        if not m or m.group(1) not in KERNELS:
            continue
        kernel = m.group(1)
        for loop in loops(body):
            c = collections.Counter(op for _, op, _ in loop)
            pmull = c["pmull"] + c["pmull2"]
            # A batch of 8 blocks: 4 PMULL each (the stitched batch's schoolbook products)
            # or 3 (Karatsuba), plus the batch's reduction (2) when the compiler keeps it
            # inside the loop.
            batch = pmull in (24, 26, 32, 34)
            if kernel == "hash_update":
                if c["aese"] or not batch:
                    continue
                key = (kernel, "-")
            else:
                keys = {**ROUNDS, **ONE_BODY}
                if c["aese"] not in keys or (kernel == "gcm_lean_seal_whole") != batch:
                    continue
                key = (kernel, keys[c["aese"]])
            if key not in rows or len(loop) < rows[key][0]:
                rows[key] = (len(loop), c)
    ctr = [v for (k, _), v in rows.items() if k == "ctr_xor"]
    if not ctr or not any(k == "gcm_lean_seal_whole" for k, _ in rows):
        sys.exit("armv8 CTR and stitched loops not found: is this the aarch64 "
                 "build of gcmkit, and are the intrinsics inlined?")
    # The fold of the trait's AESMC(AESE(s, 0)) xor k into AESE(s, k) must have happened:
    # unfolded, CTR would carry one EOR per round (10 a block) instead of ~2-4.
    eor = min(c["eor"] for _, c in ctr) / 8
    if eor >= 5:
        sys.exit(f"CTR has {eor} EOR per block: the round-key XOR was not folded into AESE")
    # The intrinsics must be inlined: a call from an entry point into core::arch's
    # functions would run each AESE/PMULL out of line.
    for name, body in functions(binary):
        if name.startswith("gcmkit::engine::arm::armv8::"):
            calls = [a for _, op, a in body
                     if op == "bl" and "core_arch" in a]
            if calls:
                sys.exit(f"{name} calls {calls[:3]}: an intrinsic was not inlined")
    md = ["# The armv8 engine: instruction counts per block",
          "",
          "Arm speed cannot be measured on this machine: the aarch64 build runs under "
          "qemu-user, whose timings say nothing about a real core. These are the static "
          "instruction counts of the armv8 engine's hot loops, read from the disassembly "
          "of the aarch64 CLI (`make arm-counts`, `bench/arm_counts.py`), per 16-byte "
          "block (loop counts / 8). AESE+AESMC pairs are fused by current Arm cores "
          "(Neoverse, Apple). The loads and stores are the data, the hashed block and the "
          "powers of H; the round keys stay in registers. Counts are of each loop as the "
          "compiler laid it out (a rotated loop may count part of a round from the next "
          "iteration). The AESE chain takes the round keys directly (LLVM folds the trait's "
          "x86-shaped `AESMC(AESE(s, 0)) xor k` into `AESE(s, k)`), so there is one EOR per "
          "block for the last key, not one per round.",
          "",
          "| kernel | key | instructions / block | AESE | AESMC | PMULL(2) | EOR | loads+stores | other |",
          "|---|---|---|---|---|---|---|---|---|"]
    for (kernel, key), (n, c) in sorted(rows.items()):
        mem = sum(v for k, v in c.items() if k.startswith(("ld", "st")))
        pm = c["pmull"] + c["pmull2"]
        other = n - c["aese"] - c["aesmc"] - pm - c["eor"] - mem
        f = lambda x: f"{x / 8:.2f}".rstrip("0").rstrip(".")
        md.append(f"| {KERNELS[kernel]} | {key} | **{f(n)}** | {f(c['aese'])} | "
                  f"{f(c['aesmc'])} | {f(pm)} | {f(c['eor'])} | {f(mem)} | {f(other)} |")
    md.append("")
    md.append("For comparison, the floor of a stitched AES-128-GCM block is 10 AESE + 9 AESMC "
              "+ 3 PMULL (Karatsuba; the stitched batch issues 4, schoolbook, which saves its "
              "EORs and EXTs) plus its share of one reduction per 8 blocks (2 PMULL / 8), "
              "the keystream XOR and its load and store.")
    open(out, "w").write("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
