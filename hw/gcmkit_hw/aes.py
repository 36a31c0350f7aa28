"""The ten-stage AES-128 encryption round pipeline (security-and-performance sec. 3.1).

One round per stage, one block in and one block out per clock. The stage register sits right
after SubBytes, so each stage's logic is ShiftRows, MixColumns, AddRoundKey and the next
S-box: the S-box is a synchronous 256 x 8 ROM read, and the register is that ROM's output
register (Yosys maps the ROMs to logic in its generic flow, and chose LUTs over block RAM
for them on the ECP5 too: docs/hardware.md).
Latency: 10 clocks. A sideband travels alongside (the beat's type, data and flags), and the
whole pipeline holds when ``ce`` is low (a slow GHASH unit stalls it).
"""
from amaranth import Cat, Const, Elaboratable, Module, Mux, Signal
from amaranth.lib.memory import Memory

from .ref import SBOX


def to_bytes(v):
    """The 16 bytes of a 128-bit block, byte 0 first (big-endian)."""
    return [v.word_select(15 - i, 8) for i in range(16)]


def from_bytes(bs):
    return Cat(*reversed(bs))


def xtime(b):
    return Cat(Const(0, 1), b[:7]) ^ Mux(b[7], 0x1B, 0)


def shift_rows(bs):
    return [bs[(i + 4 * (i % 4)) % 16] for i in range(16)]


def mix_columns(bs):
    out = []
    for c in range(4):
        a = bs[4 * c:4 * c + 4]
        t = a[0] ^ a[1] ^ a[2] ^ a[3]
        # b_i = a_i ^ t ^ xtime(a_i ^ a_{i+1}) (the usual 2-3-1-1 circulant, factored)
        out += [(a[i] ^ t ^ xtime(a[i] ^ a[(i + 1) % 4]))[:8] for i in range(4)]
    return out


class AesPipeline(Elaboratable):
    ROUNDS = 10
    LATENCY = 10

    def __init__(self, side_width: int):
        self.ce = Signal(init=1)
        self.block_in = Signal(128)
        self.side_in = Signal(side_width)
        self.round_keys = [Signal(128, name=f"rk{r}") for r in range(11)]
        self.block_out = Signal(128)
        self.side_out = Signal(side_width)
        self.side_width = side_width

    def elaborate(self, platform):
        m = Module()
        y = self.block_in ^ self.round_keys[0]
        side = self.side_in
        for r in range(1, self.ROUNDS + 1):
            sub = []
            for i, b in enumerate(to_bytes(y)):
                rom = Memory(shape=8, depth=256, init=SBOX)
                m.submodules[f"sbox_r{r}_b{i}"] = rom
                port = rom.read_port(domain="sync")
                m.d.comb += [port.addr.eq(b), port.en.eq(self.ce)]
                sub.append(port.data)
            side_reg = Signal(self.side_width, name=f"side_r{r}")
            with m.If(self.ce):
                m.d.sync += side_reg.eq(side)
            side = side_reg
            bs = shift_rows(sub)
            if r != self.ROUNDS:
                bs = mix_columns(bs)
            y = from_bytes(bs) ^ self.round_keys[r]
        m.d.comb += [self.block_out.eq(y), self.side_out.eq(side)]
        return m
