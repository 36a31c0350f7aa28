"""Cycle-accurate simulation of GcmCore (Amaranth's simulator): packets in, results out.

The driver is the host: it loads the key set, cuts each packet into beats (AAD blocks, data
blocks, FINAL), offers one beat per clock while the core is ready, and records every output
with its clock number. It never computes anything cryptographic beyond the key set.
"""
from dataclasses import dataclass, field

from amaranth.sim import Simulator

from .gcm import AAD, DATA, FINAL, KEY_H, KEY_H2, GcmCore
from .ref import KeySet


@dataclass
class Packet:
    iv: bytes
    aad: bytes = b""
    data: bytes = b""
    decrypt: bool = False
    tag: bytes = b""          # received tag (decrypt)


@dataclass
class Result:
    data: bytes | None        # ciphertext / plaintext; None when the tag check failed
    tag: bytes | None         # encrypt: the tag
    ok: bool                  # decrypt: tag matched (encrypt: True)
    out_clocks: list = field(default_factory=list)   # clock of each data block out
    tag_clock: int = 0


def _blocks(b: bytes):
    for i in range(0, len(b), 16):
        chunk = b[i:i + 16]
        yield int.from_bytes(chunk.ljust(16, b"\0"), "big"), len(chunk)


def beats(p: Packet):
    """The packet's beats: (first, kind, data, nbytes, iv, decrypt)."""
    if len(p.iv) != 12:
        raise ValueError(f"the circuit takes 96-bit IVs only, got {8 * len(p.iv)} bits")
    iv = int.from_bytes(p.iv, "big")
    out = [(AAD, v, n) for v, n in _blocks(p.aad)]
    out += [(DATA, v, n) for v, n in _blocks(p.data)]
    out.append((FINAL, int.from_bytes(p.tag, "big") if p.decrypt else 0, 16))
    return [(i == 0, k, v, n, iv, p.decrypt) for i, (k, v, n) in enumerate(out)]


def run(key: bytes, packets: list[Packet], multiplier: str = "parallel",
        vcd: str | None = None) -> list[Result]:
    """Stream the packets back to back through one core; results in packet order."""
    return run_keys([(key, packets)], multiplier, vcd)[0]


def run_keys(segments: list[tuple[bytes, list[Packet]]], multiplier: str = "parallel",
             vcd: str | None = None) -> list[list[Result]]:
    """Several keys in one simulation: per key, load the key set, stream its packets back
    to back, and wait until the last tag is out (the core holds one key set: a new key
    is loaded into a drained pipeline)."""
    core = GcmCore(multiplier)
    per_block = core.ghash.clocks_per_block
    collected = []

    async def bench(ctx):
        clock = 0
        for key, packets in segments:
            ks = KeySet(key)
            words = list(ks.round_keys) + [0, 0]
            words[KEY_H], words[KEY_H2] = ks.h, ks.h2
            for i, w in enumerate(words):
                ctx.set(core.key_we, 1)
                ctx.set(core.key_addr, i)
                ctx.set(core.key_data, w)
                await ctx.tick()
                clock += 1
            ctx.set(core.key_we, 0)
            stream = [b for p in packets for b in beats(p)]
            outs, tags = [], []
            budget = clock + (len(stream) + 40) * (per_block + 1) + 100
            i = 0
            while len(tags) < len(packets):
                if clock > budget:
                    raise RuntimeError("simulation did not finish in its clock budget")
                if i < len(stream):
                    first, kind, data, nbytes, iv, dec = stream[i]
                    ctx.set(core.in_valid, 1)
                    ctx.set(core.in_first, first)
                    ctx.set(core.in_kind, kind)
                    ctx.set(core.in_data, data)
                    ctx.set(core.in_nbytes, nbytes)
                    ctx.set(core.in_iv, iv)
                    ctx.set(core.in_decrypt, dec)
                else:
                    ctx.set(core.in_valid, 0)
                ready = ctx.get(core.in_ready)
                if ctx.get(core.out_valid):
                    outs.append((clock, ctx.get(core.out_data), ctx.get(core.out_nbytes)))
                if ctx.get(core.tag_valid):
                    tags.append((clock, ctx.get(core.tag), ctx.get(core.tag_ok),
                                 ctx.get(core.tag_decrypt)))
                await ctx.tick()
                if ready and i < len(stream):
                    i += 1
                clock += 1
            collected.append(_results(packets, outs, tags))

    sim = Simulator(core)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    if vcd:
        with sim.write_vcd(vcd):
            sim.run()
    else:
        sim.run()
    return collected


def _results(packets, outs, tags) -> list[Result]:
    results, o = [], 0
    for p, (tclock, tag, ok, dec) in zip(packets, tags):
        nblocks = (len(p.data) + 15) // 16
        mine = outs[o:o + nblocks]
        o += nblocks
        data = b"".join(v.to_bytes(16, "big")[:n] for _, v, n in mine)
        clocks = [c for c, _, _ in mine]
        if dec != p.decrypt:
            raise RuntimeError("tag stream out of step with the packets")
        if p.decrypt:
            # a refused packet's plaintext is withheld (the core streams it before the
            # tag is known; the host releases it only on tag_ok)
            results.append(Result(data if ok else None, None, bool(ok), clocks, tclock))
        else:
            results.append(Result(data, tag.to_bytes(16, "big"), True, clocks, tclock))
    return results
