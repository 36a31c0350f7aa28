"""GF(2^128) in GCM's bit order as Amaranth logic.

A block is a 128-bit value holding the 16 bytes big-endian (byte 0 in bits 127..120), so the
coefficient of x^i is bit 127 - i: multiplying by x is a right shift, with R folded in when
bit 0 (the x^127 coefficient) falls off.

The builders name every intermediate value as a comb Signal: the expressions share their
inputs (v is read twice by mulx), and without the names an expression tree would grow as
2^d; with them it stays linear for Amaranth's checks, its simulator and the netlist.
"""
from amaranth import Const, Mux, Signal, Value

R = Const(0xE1 << 120, 128)


def mulx(v: Value) -> Value:
    """v * x: a shift and a conditional XOR with R (4 XOR gates)."""
    return (v >> 1) ^ Mux(v[0], R, 0)


def _named(m, value, name):
    s = Signal(128, name=name)
    m.d.comb += s.eq(value)
    return s


def mulx_pow(m, v: Value, d: int, name: str = "xpow") -> Value:
    """v * x^d, d chained shifts (a linear map: ~4d XOR gates after optimisation)."""
    for i in range(d):
        v = _named(m, mulx(v), f"{name}_{i}")
    return v


def digit_times(m, h: Value, digit: Value, d: int, name: str = "dt") -> Value:
    """digit(x) * h for a digit of d coefficients.

    ``digit`` holds the D highest-power coefficients still to do, taken from the low bits of
    the (shifted) operand: its bit d-1-m is the coefficient of x^m in the digit polynomial.
    Area: d x 128 AND gates, a d-input XOR per output bit (O(qD), Parr's digit-serial row).
    """
    v = h
    terms = []
    for i in range(d):
        terms.append(Mux(digit[d - 1 - i], v, 0))
        if i != d - 1:
            v = _named(m, mulx(v), f"{name}_hx{i}")
    # a balanced XOR tree (depth log2 d) rather than a chain
    level = 0
    while len(terms) > 1:
        nxt = [_named(m, terms[j] ^ terms[j + 1], f"{name}_x{level}_{j}")
               for j in range(0, len(terms) - 1, 2)]
        if len(terms) % 2:
            nxt.append(terms[-1])
        terms, level = nxt, level + 1
    return terms[0]
