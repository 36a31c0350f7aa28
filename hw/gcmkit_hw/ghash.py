"""GHASH units: the accumulator X <- (X xor B) * H behind one of Parr's multipliers.

Common interface (all registered outputs, one clock domain):
  in:  start (a block is offered; taken when ``ready``), block, first (the packet's first
       GHASH block: the accumulator counts as 0), last (the packet's last block, the length
       block), h, h2 (the loaded hash key and its square)
  out: ready, done (one clock: ``s`` holds the packet's GHASH value), s

DigitSerialGhash(D) takes D operand coefficients per clock: 128/D clocks per block with a
D x 128 AND/XOR array (O(qD)); D = 128 is the parallel one-clock multiplier (O(q^2)).
EvenOddGhash runs two D = 64 multipliers, one on the even and one on the odd blocks, with
H^2 (spec sec. 4.2): each needs two clocks, together they take a block every clock.
"""
from amaranth import Elaboratable, Module, Mux, Signal

from .gf128 import digit_times, mulx_pow


class _Ports:
    def _ports(self):
        self.start = Signal()
        self.block = Signal(128)
        self.first = Signal()
        self.last = Signal()
        self.h = Signal(128)
        self.h2 = Signal(128)
        self.ready = Signal()
        self.done = Signal()
        self.s = Signal(128)


class DigitSerialGhash(Elaboratable, _Ports):
    def __init__(self, digit: int = 128):
        if 128 % digit:
            raise ValueError(f"digit size must divide 128, got {digit}")
        self.digit = digit
        self.clocks_per_block = 128 // digit
        self._ports()

    def elaborate(self, platform):
        m = Module()
        d, k = self.digit, self.clocks_per_block
        z = Signal(128)           # accumulator, and the partial product while busy
        op = Mux(self.first, 0, z) ^ self.block
        take = self.start & self.ready
        m.d.sync += self.done.eq(0)
        m.d.comb += self.s.eq(z)
        if k == 1:
            m.d.comb += self.ready.eq(1)
            with m.If(take):
                m.d.sync += [z.eq(digit_times(m, self.h, op[:d], d)), self.done.eq(self.last)]
            return m
        rest = Signal(128 - d)    # the operand's digits still to do, next one in the low bits
        count = Signal(range(k))
        busy = Signal()
        last = Signal()
        m.d.comb += self.ready.eq(~busy)
        # One shared D x 128 array: on the first clock it takes the new operand's top digit
        # (with z * x^D counted as 0), then one digit of ``rest`` per clock.
        digit = Mux(busy, rest[:d], op[:d])
        base = Mux(busy, mulx_pow(m, z, d), 0)
        step = base ^ digit_times(m, self.h, digit, d)
        with m.If(take):
            m.d.sync += [z.eq(step), rest.eq(op[d:]), count.eq(k - 1), busy.eq(1),
                         last.eq(self.last)]
        with m.Elif(busy):
            m.d.sync += [z.eq(step), rest.eq(rest >> d), count.eq(count - 1)]
            with m.If(count == 1):
                m.d.sync += [busy.eq(0), self.done.eq(last)]
        return m


class EvenOddGhash(Elaboratable, _Ports):
    """Two two-clock multipliers on alternate blocks.

    X = sum B_i H^(n-i+1) splits into the lane holding B_n (every step by H^2, its last by
    H) and the other lane (every step by H^2): the spec's
    ((X5 K^2 + X3) K^2 + X1) K^2 + ((X4 K^2 + X2) K^2 + X0) K. Blocks alternate lanes
    clock by clock, across packets, so a lane is always free two clocks after its last start.
    """

    LANE_DIGIT = 64
    clocks_per_block = 1

    def __init__(self):
        self._ports()

    def elaborate(self, platform):
        m = Module()
        d = self.LANE_DIGIT
        m.d.comb += self.ready.eq(1)
        turn = Signal()                       # the lane the next block goes to
        used = [Signal(name=f"used{i}") for i in range(2)]   # lane holds this packet's sum
        z = [Signal(128, name=f"z{i}") for i in range(2)]
        busy = [Signal(name=f"busy{i}") for i in range(2)]
        rest = [Signal(d, name=f"rest{i}") for i in range(2)]
        by_h = [Signal(name=f"by_h{i}") for i in range(2)]   # second step multiplies by H
        take = self.start
        for i in range(2):
            mine = take & (turn == i)
            acc = Mux(~self.first & used[i], z[i], 0)
            op = acc ^ self.block
            digit = Mux(busy[i], rest[i], op[:d])
            factor = Mux(Mux(busy[i], by_h[i], self.last), self.h, self.h2)
            base = Mux(busy[i], mulx_pow(m, z[i], d, f"xpow{i}"), 0)
            step = base ^ digit_times(m, factor, digit, d, f"dt{i}")
            with m.If(mine):
                m.d.sync += [z[i].eq(step), rest[i].eq(op[d:]), busy[i].eq(1),
                             by_h[i].eq(self.last), used[i].eq(1)]
            with m.Elif(busy[i]):
                m.d.sync += [z[i].eq(step), busy[i].eq(0)]
            with m.If(take & (turn != i) & self.first):
                m.d.sync += used[i].eq(0)
        with m.If(take):
            m.d.sync += turn.eq(~turn)
        # The last block's lane finishes two clocks after its start; the other lane's sum is
        # final one clock after that start and is kept then (the next packet may restart it).
        fin1, fin_lane1, other_used1 = Signal(), Signal(), Signal()
        fin_lane2 = Signal()
        other_sum = Signal(128)
        m.d.sync += [fin1.eq(take & self.last), self.done.eq(fin1), fin_lane2.eq(fin_lane1)]
        with m.If(take & self.last):
            m.d.sync += [fin_lane1.eq(turn),
                         other_used1.eq(~self.first & Mux(turn, used[0], used[1]))]
        with m.If(fin1):
            m.d.sync += other_sum.eq(Mux(other_used1, Mux(fin_lane1, z[0], z[1]), 0))
        m.d.comb += self.s.eq(Mux(fin_lane2, z[1], z[0]) ^ other_sum)
        return m


def make_ghash(multiplier: str):
    """parallel | digit8 | digit16 | digit32 | evenodd"""
    if multiplier == "parallel":
        return DigitSerialGhash(128)
    if multiplier.startswith("digit") and multiplier[5:].isdigit():
        return DigitSerialGhash(int(multiplier[5:]))
    if multiplier == "evenodd":
        return EvenOddGhash()
    raise ValueError(f"unknown multiplier {multiplier!r} (parallel, digit8, digit16, digit32, evenodd)")


MULTIPLIERS = ["parallel", "digit8", "digit16", "digit32", "evenodd"]
