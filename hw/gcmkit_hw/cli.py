"""gcmkit-hw: run vectors, count clocks and synthesize the RTL GCM core."""
import argparse
import json
import sys

from .ghash import MULTIPLIERS

IPI_MIX = [(1500, 0.60), (576, 0.20), (552, 0.15), (44, 0.05)]  # byte fractions


def _hex(s: str) -> bytes:
    return bytes.fromhex(s)


def cmd_vectors(args) -> int:
    from .sim import Packet, run_keys
    segments, expect = [], []        # per key: packets; per packet: (tcId, kind, expected)
    skipped = 0
    for path in args.files:
        doc = json.load(open(path))
        for g in doc.get("testGroups", []):
            ks, ivs, ts = g.get("keySize"), g.get("ivSize"), g.get("tagSize")
            n = len(g.get("tests", []))
            if (ks, ivs, ts) != (128, 96, 128):
                print(f"skipped group keySize={ks} ivSize={ivs} tagSize={ts}: {n} tests "
                      "(the circuit is AES-128, 96-bit IV, 128-bit tag)")
                skipped += n
                continue
            for t in g["tests"]:
                key, iv, aad = _hex(t["key"]), _hex(t["iv"]), _hex(t["aad"])
                msg, ct, tag = _hex(t["msg"]), _hex(t["ct"]), _hex(t["tag"])
                pk = [Packet(iv, aad, ct, decrypt=True, tag=tag)]
                if t["result"] != "invalid":
                    pk.insert(0, Packet(iv, aad, msg))
                segments.append((key, pk))
                expect.append((t["tcId"], t["result"], msg, ct + tag))
    # one simulation; consecutive tests with the same key share a key load
    merged, owners = [], []
    for (key, pk), e in zip(segments, expect):
        if merged and merged[-1][0] == key:
            merged[-1][1].extend(pk)
            owners[-1].append((e, len(pk)))
        else:
            merged.append((key, list(pk)))
            owners.append([(e, len(pk))])
    results = run_keys(merged, args.multiplier) if merged else []
    passed = failed = 0
    for res, own in zip(results, owners):
        i = 0
        for (tc, result, msg, ct_tag), n in own:
            mine = res[i:i + n]
            i += n
            if result == "invalid":
                ok = not mine[0].ok and mine[0].data is None
            else:
                enc, dec = mine
                ok = enc.data + enc.tag == ct_tag and dec.ok and dec.data == msg
            if ok:
                passed += 1
            else:
                failed += 1
                print(f"FAIL tcId {tc} ({result})")
    if skipped:
        print(f"{skipped} tests skipped (unsupported groups, not counted)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


def measure_cycles(size: int, multiplier: str, packets: int = 4, aad: int = 0) -> dict:
    """Steady-state clocks per packet, packets of ``size`` bytes back to back.

    The period between consecutive packets' outputs (tags, and first data blocks) from the
    third packet on: the pipeline is full and the clock count per packet is what each
    packet costs, the paper's C(s)."""
    import os
    from .sim import Packet, run
    key = os.urandom(16)
    pk = [Packet(os.urandom(12), os.urandom(aad), os.urandom(size)) for _ in range(packets)]
    res = run(key, pk, multiplier)
    tag_periods = {res[i].tag_clock - res[i - 1].tag_clock for i in range(2, packets)}
    first_periods = {res[i].out_clocks[0] - res[i - 1].out_clocks[0]
                     for i in range(2, packets) if res[i].out_clocks}
    if len(tag_periods) != 1 or (first_periods and first_periods != tag_periods):
        raise RuntimeError(f"no steady state: tags {tag_periods}, first blocks {first_periods}")
    clocks = tag_periods.pop()
    gap = (res[-1].out_clocks[0] - res[-2].tag_clock) if res[-1].out_clocks else None
    return {"size": size, "clocks": clocks, "bits_per_clock": 8 * size / clocks,
            "tag_to_next_first_block": gap}


def ipi(bits_per_clock: dict) -> float:
    return 1.0 / sum(f / bits_per_clock[s] for s, f in IPI_MIX)


def cmd_cycles(args) -> int:
    sizes = [int(s) for s in args.sizes.split(",")]
    got = {}
    for s in sizes:
        r = measure_cycles(s, args.multiplier, aad=args.aad)
        got[s] = r["bits_per_clock"]
        print(f"{s} {r['clocks']} {r['bits_per_clock']:.1f}")
    if all(s in got for s, _ in IPI_MIX):
        print(f"IPI {ipi(got):.1f}")
    else:
        print("IPI n/a (needs sizes 44,552,576,1500)")
    return 0


def clocks_per_block(unit: str) -> int:
    """Clocks per 128-bit block of a synth unit (aes, ghash-<m>, core-<m>)."""
    if unit == "aes":
        return 1
    from .ghash import make_ghash
    return make_ghash(unit.split("-", 1)[1]).clocks_per_block


def _synth_line(u: str, r: dict) -> str:
    line = f"{u}:"
    if "generic" in r:
        g = r["generic"]
        line += f" {g['gates_2input']} 2-input gates, {g['flipflops']} flip-flops"
    if "ecp5" in r:
        e = r["ecp5"]
        line += (f"; ECP5 {e['luts']} LUTs, {e['registers']} registers, "
                 f"{e['block_rams']} block RAMs, Fmax {e['fmax_mhz']} MHz, "
                 f"{e['gbit_s']} Gbit/s")
    return line


def cmd_synth(args) -> int:
    import os
    import shutil
    import tempfile
    from .files import write_atomic
    from .synth import UNITS, cpu, ecp5, generic_gates, tool_versions
    units = args.units.split(",") if args.units else (
        ["aes", f"ghash-{args.multiplier}", f"core-{args.multiplier}"] if args.multiplier
        else UNITS)
    out = {"cpu": cpu(), "tools": tool_versions(), "units": {}}
    if args.json:
        try:
            prev = json.load(open(args.json))
            out["units"] = prev.get("units", {})
        except (OSError, ValueError):
            pass
    # all generic gate counts first (minutes), then place and route (much longer); the
    # JSON is rewritten after every step, and a step already in it is not redone
    phases = [("generic", generic_gates)]
    if not args.no_ecp5:
        phases.append(("ecp5", ecp5))
    for phase, fn in phases:
        for u in units:
            entry = out["units"].setdefault(u, {"unit": u})
            if phase in entry and not args.redo:
                continue
            print(f"{phase} {u} ...", file=sys.stderr, flush=True)
            work = os.path.join(args.keep, u) if args.keep else tempfile.mkdtemp(
                prefix=f"gcmkit-hw-{u}-")
            os.makedirs(work, exist_ok=True)
            try:
                entry[phase] = fn(u, work)
            finally:
                if not args.keep:
                    shutil.rmtree(work, ignore_errors=True)
            if phase == "ecp5":
                # data rate: a 128-bit block per clocks_per_block clocks at Fmax
                entry[phase]["clocks_per_block"] = clocks_per_block(u)
                entry[phase]["gbit_s"] = round(
                    128 * entry[phase]["fmax_mhz"] / clocks_per_block(u) / 1000, 2)
            print(_synth_line(u, entry), flush=True)
            if args.json:
                write_atomic(args.json, json.dumps(out, indent=1) + "\n")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="gcmkit-hw", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("vectors", help="run Wycheproof AES-GCM JSON through the simulation")
    v.add_argument("files", nargs="+")
    v.add_argument("--multiplier", choices=MULTIPLIERS, default="parallel")
    c = sub.add_parser("cycles", help="steady-state clocks per packet, back to back")
    c.add_argument("--sizes", default="16,20,40,44,64,128,256,552,576,1024,1500,8192")
    c.add_argument("--multiplier", choices=MULTIPLIERS, default="parallel")
    c.add_argument("--aad", type=int, default=0, help="AAD bytes per packet (default 0)")
    s = sub.add_parser("synth", help="Yosys gate counts and ECP5 place and route")
    s.add_argument("--multiplier", choices=MULTIPLIERS)
    s.add_argument("--units", help="comma list: aes, ghash-<m>, core-<m>")
    s.add_argument("--no-ecp5", action="store_true", help="generic gate counts only")
    s.add_argument("--json", help="merge results into this JSON file")
    s.add_argument("--keep", help="keep work directories under this directory")
    s.add_argument("--redo", action="store_true", help="redo steps already in --json")
    args = p.parse_args(argv)
    try:
        return {"vectors": cmd_vectors, "cycles": cmd_cycles, "synth": cmd_synth}[args.cmd](args)
    except (OSError, ValueError, KeyError, RuntimeError) as e:
        print(f"gcmkit-hw: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
