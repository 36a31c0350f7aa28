"""Cobblestone in Python: gcmkit (gcmkit.cobblestone and the gcmkit.chunked one-shots)
against pyca/cryptography's cryptography.cobblestone and a plain copy of the same bytes
into a warm buffer (the memory bound), in one process, at 1, 16 and 256 MiB, both
directions; then two threads each encrypting their own stream against one thread.
Every figure is the fastest of its rounds, the contenders alternating within each round.
Writes its section of docs/perf/python.md. usage: bench_cobblestone.py [OUT.md]

bench_cobblestone.py --chunked-only: only the copy and gcmkit.chunked.encrypt/decrypt,
printed, nothing written; the calls every gcmkit wheel has, to compare two builds.

Imports pyca's and gcmkit's Cobblestone classes only where they are measured."""
import os
import platform
import re
import sys
import threading
import time

from machine import cpu

import gcmkit
from gcmkit import chunked

MIB = 1 << 20
SIZES = [(1 * MIB, 40), (16 * MIB, 12), (256 * MIB, 4)]
PIECES = [64 << 10, 1 * MIB]


def race(fs, rounds):
    best = {k: float("inf") for k in fs}
    for _ in range(rounds):
        for k, f in fs.items():
            t = time.perf_counter()
            f()
            best[k] = min(best[k], time.perf_counter() - t)
    return best


def one_shot(m, key, pt, ct):
    E, D = m.Cobblestone128Encryptor, m.Cobblestone128Decryptor
    def enc():
        e = E(key, b"")
        e.update(pt), e.finalize()
    def dec():
        d = D(key, b"")
        d.update(ct), d.finalize()
    return enc, dec


def pieces(m, key, pt, ct, piece, out_e, out_d):
    E, D = m.Cobblestone128Encryptor, m.Cobblestone128Decryptor
    vp, vc, oe, od = memoryview(pt), memoryview(ct), memoryview(out_e), memoryview(out_d)
    def enc():
        e, w = E(key, b""), 0
        for i in range(0, len(pt), piece):
            w += e.update_into(vp[i:i + piece], oe[w:])
        e.finalize()
    def dec():
        d, w = D(key, b""), 0
        for i in range(0, len(ct), piece):
            w += d.update_into(vc[i:i + piece], od[w:])
        d.finalize()
    return enc, dec


def measure(chunked_only=False):
    rows = []
    for size, rounds in SIZES:
        key, pt = os.urandom(16), os.urandom(size)
        ct = chunked.encrypt(key, pt)
        warm = bytearray(len(ct))
        mw = memoryview(warm)
        out_e, out_d = bytearray(len(ct) + MIB), bytearray(size + MIB)
        fs = {"copy": lambda: mw.__setitem__(slice(0, size), pt)}
        for name, m in () if chunked_only else modules():
            fs[f"{name} enc"], fs[f"{name} dec"] = one_shot(m, key, pt, ct)
            for p in PIECES:
                fs[f"{name} enc {p >> 10}K"], fs[f"{name} dec {p >> 10}K"] = pieces(m, key, pt, ct, p, out_e, out_d)
        fs["chunked enc"] = lambda: chunked.encrypt(key, pt)
        fs["chunked dec"] = lambda: chunked.decrypt(key, ct)
        best = race(fs, rounds)
        rows.append((size, best))
        print(f"{size // MIB} MiB: " + ", ".join(f"{k} {size / v / 1e9:.2f}" for k, v in best.items()), flush=True)
    return rows


def modules():
    from cryptography import cobblestone as pyca

    from gcmkit import cobblestone as ours

    return (("pyca", pyca), ("gcmkit", ours))


def threads(size=16 * MIB, piece=MIB, rounds=10, streams=8):
    """Two threads each encrypting `streams` streams of their own in update_into pieces,
    against one thread doing its share alone."""
    key = os.urandom(16)
    pts = [os.urandom(size) for _ in range(2)]
    outs = [bytearray(size + MIB) for _ in range(2)]
    ours = modules()[1][1]
    encs = [pieces(ours, key, pts[i], b"", piece, outs[i], bytearray(0))[0] for i in range(2)]
    jobs = [lambda e=e: [e() for _ in range(streams)] for e in encs]
    def two():
        ts = [threading.Thread(target=j) for j in jobs]
        [t.start() for t in ts]
        [t.join() for t in ts]
    best = race({"one": jobs[0], "two": two}, rounds)
    return best["one"], best["two"]


def table(rows):
    lines = ["| size | direction | copy | pyca one-shot | gcmkit one-shot | chunked one-shot | "
             "pyca 64K / 1M pieces | gcmkit 64K / 1M pieces | gcmkit / pyca (best form each) | "
             "gcmkit time / copy time (best form) |", "|" + "---|" * 10]
    for size, b in rows:
        gb = lambda k: size / b[k] / 1e9  # noqa: E731
        for d in ("enc", "dec"):
            ours_best = min(b[f"gcmkit {d}"], b[f"gcmkit {d} 64K"], b[f"gcmkit {d} 1024K"], b[f"chunked {d}"])
            theirs_best = min(b[f"pyca {d}"], b[f"pyca {d} 64K"], b[f"pyca {d} 1024K"])
            lines.append(
                f"| {size // MIB} MiB | {'encrypt' if d == 'enc' else 'decrypt'} | {gb('copy'):.2f} | "
                f"{gb(f'pyca {d}'):.2f} | {gb(f'gcmkit {d}'):.2f} | {gb(f'chunked {d}'):.2f} | "
                f"{gb(f'pyca {d} 64K'):.2f} / {gb(f'pyca {d} 1024K'):.2f} | "
                f"{gb(f'gcmkit {d} 64K'):.2f} / {gb(f'gcmkit {d} 1024K'):.2f} | "
                f"{theirs_best / ours_best:.2f}x | {ours_best / b['copy']:.2f} |")
    return "\n".join(lines)


def main():
    if sys.argv[1:] == ["--chunked-only"]:
        print(f"CPU: {cpu()}; gcmkit from {gcmkit.__file__}")
        measure(chunked_only=True)
        return
    import cryptography

    out = sys.argv[1] if len(sys.argv) > 1 else None
    rows = measure()
    one, two = threads()
    section = f"""<!-- cobblestone:begin (generated by crates/gcmkit-py/bench/bench_cobblestone.py) -->
## Cobblestone: gcmkit.cobblestone and gcmkit.chunked against pyca's cryptography.cobblestone

CPU: {cpu()}. Python {platform.python_version()}, pyca/cryptography {cryptography.__version__},
gcmkit {gcmkit.__version__} (engine {gcmkit.engine()}). One process; GB/s of plaintext, the
fastest of 40 / 12 / 4 rounds at 1 / 16 / 256 MiB, every contender once per round.
Cobblestone-128. "one-shot" is one `update` and `finalize` (the results kept apart, not
concatenated); "chunked" is `gcmkit.chunked.encrypt`/`decrypt` (parallel over chunks);
"pieces" is `update_into` in 64 KiB or 1 MiB pieces into one warm buffer; "copy" is a
plain copy of the same bytes into a warm buffer, the memory bound.

{table(rows)}

Two threads each encrypting 8 streams of 16 MiB of their own (`update_into`, 1 MiB pieces)
take {two / one:.2f}x one thread's time for its 8 ({one * 1e3:.0f} ms against {two * 1e3:.0f} ms), with
the GIL released over each piece's cipher work. What the remaining time is (the cores
sharing memory, the GIL taken back between pieces, a neighbour on the VM) is not measured
here; the ratio moves by tenths from run to run on this shared VM.

Command: `python crates/gcmkit-py/bench/bench_cobblestone.py docs/perf/python.md`
(`make bench-python` runs it after the AEAD benchmark).
<!-- cobblestone:end -->
"""
    print(section)
    if out:
        text = open(out).read() if os.path.exists(out) else ""
        pat = re.compile(r"<!-- cobblestone:begin.*?<!-- cobblestone:end -->\n", re.S)
        text = pat.sub(lambda _: section, text) if pat.search(text) else text.rstrip("\n") + "\n\n" + section
        tmp = f"{out}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, out)


if __name__ == "__main__":
    main()
