#!/usr/bin/env python3
"""A/B of two builds of the bench's `cycles` mode, alternated on one CPU.

Usage: ab_cycles.py OLD_BENCH NEW_BENCH [ROUNDS] [OUT.md]

Runs `OLD cycles DIR` and `NEW cycles DIR` alternately ROUNDS times (default 3), reads
each row of their progress lines (`ALG OP SIZE: cell | cell | ...`: the engines, then
the peers, in the order of the table the bench writes) and keeps, per binary, the best
(lowest) figure of each cell over the rounds: on a shared VM the least disturbed
sample. Prints, and writes to OUT.md, one table per binary, the ratio new/old per
cell (below 1.00: the new build is faster), and that ratio over the peers' own ratio in
the same row (the geometric mean of the peer columns' new/old): the peers' code is the
same in both binaries, so their ratio is the drift of the machine between the runs.
Each figure is already the fastest of the bench's own samples; the rounds add
alternation, so that a slow period hits both.
"""
import math
import re
import subprocess
import sys
import tempfile

ROW = re.compile(r"^(\S+) (encrypt|decrypt) (\d+): (.*)$")


def run(bench):
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([bench, "cycles", d], capture_output=True, text=True, check=True)
        md = "".join(open(f"{d}/{f}").read() for f in __import__("os").listdir(d))
    engines = len(re.search(r"engines: ([^.;]*)[.;]", md).group(1).split(","))
    rows = {}
    for line in p.stderr.splitlines():
        m = ROW.match(line)
        if m:
            cells = [float(c.split()[0]) for c in m.group(4).split("|")]
            rows[(m.group(1), m.group(2), int(m.group(3)))] = cells
    header = [l for l in p.stdout.splitlines() if l.startswith("|")][:1]
    return rows, engines


def best(acc, rows):
    for k, cells in rows.items():
        acc[k] = [min(a, b) for a, b in zip(acc[k], cells)] if k in acc else cells


def main():
    old, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    out = sys.argv[4] if len(sys.argv) > 4 else None
    a, b, engines = {}, {}, 0
    for r in range(rounds):
        for bench, acc in ((old, a), (new, b)):
            rows, engines = run(bench)
            best(acc, rows)
        print(f"round {r + 1} of {rounds} done", file=sys.stderr)
    lines = [f"Rounds: {rounds}, alternated; best of the rounds per cell. "
             "Cells: cycles per call up to 1500 B, cycles per byte from 16 KiB; "
             "columns as in the bench's table (its engines, then its peers).", ""]
    def ratios(k):
        return [y / x for x, y in zip(a[k], b[k])]

    def drift(k):
        peers = ratios(k)[engines:]
        return math.exp(sum(map(math.log, peers)) / len(peers))

    for name, acc in (("old", a), ("new", b), ("new / old", None), ("normalized", "n")):
        lines.append(f"### {name}")
        lines.append("")
        for k in sorted(a, key=lambda k: (k[0], k[1] == "decrypt", k[2])):
            if acc is None:
                cells = [f"{r:.2f}" for r in ratios(k)]
            elif acc == "n":
                cells = [f"{r / drift(k):.2f}" for r in ratios(k)[:engines]]
            else:
                cells = [f"{c:g}" for c in acc[k]]
            lines.append(f"| {k[0]} | {k[1]} | {k[2]} | " + " | ".join(cells) + " |")
        lines.append("")
    text = "\n".join(lines)
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
