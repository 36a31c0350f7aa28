"""An FPGA test shell: a unit's wide ports through a few pins, for place and route.

The GCM core has ~370 input and ~270 output bits; a CABGA381 package has fewer user I/Os,
and a unit's ports left dangling would be optimised away. The shell feeds every input from
a shift register (pin ``sin``) and captures every output into a register that shifts out
on ``sout`` (``load`` captures). It adds flip-flops (about one per port bit, and a LUT per
output bit for the capture mux), no logic inside the unit, and registers both ends of
every path, so nextpnr's Fmax is the unit's own register-to-register figure.
"""
from amaranth import Cat, Elaboratable, Module, Signal


class Shell(Elaboratable):
    def __init__(self, unit, inputs, outputs):
        self.unit, self.inputs, self.outputs = unit, inputs, outputs
        self.sin = Signal()
        self.load = Signal()
        self.sout = Signal()

    def elaborate(self, platform):
        m = Module()
        m.submodules.unit = self.unit
        win = sum(len(s) for s in self.inputs)
        wout = sum(len(s) for s in self.outputs)
        shin = Signal(win)
        shout = Signal(wout)
        m.d.sync += shin.eq(Cat(self.sin, shin[:-1]))
        m.d.comb += Cat(*self.inputs).eq(shin)
        with m.If(self.load):
            m.d.sync += shout.eq(Cat(*self.outputs))
        with m.Else():
            m.d.sync += shout.eq(shout >> 1)
        m.d.comb += self.sout.eq(shout[0])
        return m

    def ports(self):
        return [self.sin, self.load, self.sout]
