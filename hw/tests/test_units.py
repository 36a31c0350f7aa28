"""The AES pipeline and the GHASH units alone, against the host-side references."""
import pytest
from amaranth.sim import Simulator

from gcmkit_hw.aes import AesPipeline
from gcmkit_hw.ghash import MULTIPLIERS, make_ghash
from gcmkit_hw.ref import KeySet, aes_encrypt, expand_key, gf_mul


def test_reference_aes_and_h():
    # FIPS-197 appendix C.1, and H of the spec's test case 3 (appendix B)
    rk = expand_key(bytes(range(16)))
    assert aes_encrypt(rk, 0x00112233445566778899AABBCCDDEEFF) == \
        0x69C4E0D86A7B0430D8CDB78070B4C55A
    assert KeySet(bytes.fromhex("feffe9928665731c6d6a8f9467308308")).h == \
        0xB83B533708BF535D0AA6E52980D53B78


def test_aes_pipeline_latency_and_stall(rng):
    """One block per clock, 10 clocks of latency, and holding still while ce is low."""
    key = rng.randbytes(16)
    rk = expand_key(key)
    blocks = [rng.getrandbits(128) for _ in range(12)]
    dut = AesPipeline(side_width=8)
    seen = []

    async def bench(ctx):
        for r, k in enumerate(rk):
            ctx.set(dut.round_keys[r], k)
        clock = 0
        for i, b in enumerate(blocks + [0] * 14):
            ctx.set(dut.block_in, b)
            ctx.set(dut.side_in, (i + 1) & 0xFF if i < len(blocks) else 0)
            ctx.set(dut.ce, 0 if i in (4, 5) else 1)   # a two-clock stall mid-stream
            if ctx.get(dut.side_out):
                seen.append((clock, ctx.get(dut.side_out), ctx.get(dut.block_out)))
            await ctx.tick()
            clock += 1

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    # blocks offered while ce was low were not taken: 4 and 5 are lost by design here
    taken = [(i + 1, b) for i, b in enumerate(blocks) if i not in (4, 5)]
    assert [(s, o) for _, s, o in seen[:len(taken)]] == \
        [(s, aes_encrypt(rk, b)) for s, b in taken]
    assert seen[0][0] == 12                            # 10 clocks of latency + 2 held


@pytest.mark.parametrize("multiplier", MULTIPLIERS + ["digit1"])
def test_ghash_unit(multiplier, rng):
    """(digit1 is the bit-serial multiplier of Parr's table, synthesized for the table but
    not offered as a core option: 128 clocks per block.) Two packets of GHASH blocks back to back (3 blocks, then 1): S = GHASH_H(blocks)."""
    h = rng.getrandbits(128)
    packets = [[rng.getrandbits(128) for _ in range(3)], [rng.getrandbits(128)]]
    dut = make_ghash(multiplier)
    done = []

    async def bench(ctx):
        ctx.set(dut.h, h)
        ctx.set(dut.h2, gf_mul(h, h))
        queue = [(b, i == 0, i == len(p) - 1) for p in packets for i, b in enumerate(p)]
        clock = 0
        while len(done) < len(packets) and clock < 1000:
            if queue:
                b, first, last = queue[0]
                ctx.set(dut.start, 1)
                ctx.set(dut.block, b)
                ctx.set(dut.first, first)
                ctx.set(dut.last, last)
            else:
                ctx.set(dut.start, 0)
            ready = ctx.get(dut.ready)
            if ctx.get(dut.done):
                done.append(ctx.get(dut.s))
            await ctx.tick()
            if queue and ready:
                queue.pop(0)
            clock += 1

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    want = []
    for p in packets:
        x = 0
        for b in p:
            x = gf_mul(x ^ b, h)
        want.append(x)
    assert done == want
