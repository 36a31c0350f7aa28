#!/usr/bin/env python3
"""Cold-call footprint: the code and data lines (64 B) and pages (4 KiB) one call touches,
counted exactly under Valgrind's lackey (`gcmkit-bench footprint`). A call with its code
and data out of the caches pays for each line it brings in; `gcmkit-bench cold` times
that on a shared core whose figures move 10-30 % between runs, this counts it.

Usage:
  bench/footprint.py BIN ALG OP SIZE [ENGINE] [--by-function]
  bench/footprint.py BIN --table OUT.md
(ENGINE: a gcmkit engine Valgrind runs, portable or aesni (default); the peers run what
they select on Valgrind's CPU, which has AES-NI and CLMUL but not VAES, so the row
compares like with like: every candidate on 128-bit vectors.) Prints one row per
candidate: instructions, code lines, code pages, data lines, data pages of the last of
its traced calls (all its calls are the same call); with --by-function, gcmkit's code
lines by the function that holds them. --table writes the lines of every AES-GCM and
AES-GCM-SIV cell of `gcmkit-bench cold` (16 B to 16 KiB, both directions) to OUT.md
(`make bench-footprint`).
"""
import bisect
import collections
import subprocess
import sys
import tempfile


def trace(binary, alg, op, size, engine):
    with tempfile.NamedTemporaryFile(suffix=".lackey") as log:
        out = subprocess.run(
            ["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-file={log.name}",
             binary, "footprint", alg, op, str(size), engine],
            check=True, capture_output=True, text=True).stdout
        begin = end = None
        names = []
        for line in out.splitlines():
            f = line.split()
            if f[:1] == ["markers"]:
                begin, end = int(f[1], 16), int(f[2], 16)
            elif f[:1] == ["candidate"]:
                names.append(f[2])
        calls = []
        cur = None
        with open(log.name) as t:
            for line in t:
                if line.startswith("=="):
                    continue
                kind = line[:2].strip()
                addr, size_ = line[2:].strip().split(",")
                a = int(addr, 16)
                if kind == "I" and a == begin:
                    cur = {"insns": 0, "code": set(), "data": set()}
                    continue
                if kind == "I" and a == end and cur is not None:
                    calls.append(cur)
                    cur = None
                    continue
                if cur is None:
                    continue
                last = a + int(size_) - 1
                lines = range(a >> 6, (last >> 6) + 1)
                if kind == "I":
                    cur["insns"] += 1
                    cur["code"].update(lines)
                else:
                    cur["data"].update(lines)
    return names, calls, begin


def functions(binary, begin):
    """The binary's functions as (start, size, name), at their run-time addresses."""
    syms = []
    nm = subprocess.run(["nm", "-C", "-S", "--defined-only", binary],
                        check=True, capture_output=True, text=True).stdout
    for line in nm.splitlines():
        f = line.split(None, 3)
        if len(f) == 4 and f[2] in "tTwW":
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
    marker = next(a for a, _, n in syms if n == "gcmkit_footprint_begin")
    return sorted((a + begin - marker, n, name) for a, n, name in syms)


ALGS = ["AES-128-GCM", "AES-256-GCM", "AES-128-GCM-SIV", "AES-256-GCM-SIV"]
SIZES = [16, 64, 576, 1500, 16384]


def table(binary, out):
    """Every cold cell's lines, gcmkit (aesni) beside the peers, as markdown."""
    md = ["# Cold-call footprint", "",
          "Command: `make bench-footprint` (`bench/footprint.py BIN --table OUT`). Lines "
          "(64 B) of code and of data one call touches, counted under Valgrind's lackey "
          "(the last of three identical calls after a warm-up); what a call with its code "
          "and data out of the caches brings in (`make bench-cold` times it). gcmkit on "
          "its aesni engine, the peers on what they select under Valgrind's CPU (AES-NI and "
          "CLMUL, no VAES): every candidate on 128-bit vectors. The data includes the "
          "message (in place), the key and the stack; decryption's includes restoring the "
          "ciphertext before each call, the same for every candidate. Last column: "
          "gcmkit's code + data lines over the fewest of ring's and aws-lc-rs's.", ""]
    for alg in ALGS:
        for op in ["encrypt", "decrypt"]:
            md += [f"## {alg} {op}", "",
                   "| size | gcmkit code / data | ring code / data | aws-lc-rs code / data | gcmkit / best peer |",
                   "|---|---|---|---|---|"]
            for size in SIZES:
                names, calls, _ = trace(binary, alg, op, size, "aesni")
                last = dict(zip(names, calls[len(calls) - len(names):]))
                cell = {}
                for n, c in last.items():
                    cell[n.split("-aesni")[0]] = (len(c["code"]), len(c["data"]))
                g = cell["gcmkit"]
                peers = [cell[p] for p in ("ring", "aws-lc-rs") if p in cell]
                best = min(sum(p) for p in peers)
                fmt = lambda n: f"{cell[n][0]} / {cell[n][1]}" if n in cell else "-"
                md.append(f"| {size} B | {fmt('gcmkit')} | {fmt('ring')} | {fmt('aws-lc-rs')} "
                          f"| {sum(g) / best:.2f} |")
                print(md[-1], flush=True)
            md.append("")
    with open(out, "w") as f:
        f.write("\n".join(md))


def main():
    if len(sys.argv) >= 4 and sys.argv[2] == "--table":
        table(sys.argv[1], sys.argv[3])
        return
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    by_function = "--by-function" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--by-function"]
    binary, alg, op, size = args[:4]
    engine = args[4] if len(args) > 4 else "aesni"
    names, calls, begin = trace(binary, alg, op, size, engine)
    print(f"{alg} {op} {size} B: instructions, code lines / pages, data lines / pages")
    for i, name in enumerate(names):
        c = calls[len(calls) - len(names) + i]
        pages = lambda s: len({x >> 6 for x in s})
        print(f"  {name:14} {c['insns']:6} insns  code {len(c['code']):4} lines "
              f"{pages(c['code']):3} pages  data {len(c['data']):4} lines "
              f"{pages(c['data']):3} pages")
        if by_function and name.startswith("gcmkit"):
            syms = functions(binary, begin)
            starts = [a for a, _, _ in syms]
            lines = collections.Counter()
            for line in c["code"]:
                j = bisect.bisect_right(starts, line << 6) - 1
                # A line may start before its first instruction's function.
                j2 = bisect.bisect_right(starts, (line << 6) + 63) - 1
                lines[syms[max(j, j2)][2] if max(j, j2) >= 0 else "?"] += 1
            for fn, k in lines.most_common():
                print(f"      {k:4} {fn[:120]}")


if __name__ == "__main__":
    main()
