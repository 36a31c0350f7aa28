"""The GCM core: the spec's pipelined design (sec. 4.2, Figure 3) around one AES pipeline.

A packet enters as beats, one per clock: its AAD blocks, its data blocks, then one FINAL
beat. Every beat takes one slot of the AES pipeline: a data beat carries the counter
IV || i (i = 2, 3, ...), the FINAL beat carries Y0 = IV || 1 right after the data counters
(security-and-performance sec. 3.1), an AAD beat's slot is unused. The beat's data rides
alongside for the 10 clocks, then stage 11 switches the paths:
  1. auth-only path: an AAD block goes to GHASH;
  2. normal path: data XOR E(K, Yi) is the output, and the ciphertext goes to GHASH;
  3. hash-encrypting path: E(K, Y0) is kept for the GHASH output; the length block
     len(A) || len(C), counted in the circuit, is GHASH's last block.
The tag leaves when GHASH finishes, on its own output, while the next packet's blocks
already stream. For decryption the FINAL beat carries the received tag, folded into the
Y0 path, so the tag output is computed XOR received and the check is a 128-bit zero test.

A packet costs (AAD blocks + data blocks + 1) clocks of the pipeline: ceil(s/16) + 1 for
s data bytes and no AAD. A digit-serial GHASH needing 128/D clocks per block stalls the
whole pipeline (in_ready low) until it can take the next block.
"""
from amaranth import Cat, Const, Elaboratable, Module, Mux, Signal

from .aes import AesPipeline
from .ghash import make_ghash

AAD, DATA, FINAL = 0, 1, 2
KEY_SLOTS = 13          # round keys 0..10, H (11), H^2 (12)
KEY_H, KEY_H2 = 11, 12


def byte_mask(nbytes):
    """128-bit mask of the first ``nbytes`` (1..16) bytes of a big-endian block."""
    return Cat(*[(nbytes > (15 - j)).replicate(8) for j in range(16)])


class GcmCore(Elaboratable):
    def __init__(self, multiplier: str = "parallel"):
        self.multiplier = multiplier
        self.ghash = make_ghash(multiplier)
        # key set, loaded one 128-bit word per clock
        self.key_we = Signal()
        self.key_addr = Signal(range(KEY_SLOTS))
        self.key_data = Signal(128)
        # input beats
        self.in_valid = Signal()
        self.in_ready = Signal()
        self.in_first = Signal()       # first beat of a packet: iv and decrypt are taken
        self.in_kind = Signal(2)       # AAD / DATA / FINAL
        self.in_nbytes = Signal(5)     # 1..16 valid bytes (zero padded); FINAL: unused
        self.in_data = Signal(128)     # FINAL: the received tag when decrypting, else 0
        self.in_iv = Signal(96)
        self.in_decrypt = Signal()
        # data out (ciphertext or plaintext), one block per data beat
        self.out_valid = Signal()
        self.out_first = Signal()      # the packet's first data block
        self.out_data = Signal(128)
        self.out_nbytes = Signal(5)
        # tag out
        self.tag_valid = Signal()
        self.tag = Signal(128)         # encrypt: the tag; decrypt: computed XOR received
        self.tag_ok = Signal()         # decrypt: the received tag matched
        self.tag_decrypt = Signal()

    def elaborate(self, platform):
        m = Module()
        ghash = m.submodules.ghash = self.ghash
        # ---- key set registers
        keys = [Signal(128, name=f"key{i}") for i in range(KEY_SLOTS)]
        for i, k in enumerate(keys):
            with m.If(self.key_we & (self.key_addr == i)):
                m.d.sync += k.eq(self.key_data)
        m.d.comb += [ghash.h.eq(keys[KEY_H]), ghash.h2.eq(keys[KEY_H2])]

        # ---- stage 11 state (after the AES pipeline) decides whether the pipeline moves
        s_valid, s_first, s_last, s_dec = Signal(), Signal(), Signal(), Signal()
        s_kind, s_nbytes, s_dfirst = Signal(2), Signal(5), Signal()
        s_out, s_hash = Signal(128), Signal(128)
        advance = Signal()
        m.d.comb += [advance.eq(~s_valid | ghash.ready), self.in_ready.eq(advance)]

        # ---- input stage: counters and the per-packet registers
        iv_r, ctr_r, dec_r = Signal(96), Signal(32), Signal()
        iv = Mux(self.in_first, self.in_iv, iv_r)
        ctr = Mux(self.in_first, 2, ctr_r)
        dec = Mux(self.in_first, self.in_decrypt, dec_r)
        take = self.in_valid & advance
        with m.If(take):
            m.d.sync += [iv_r.eq(iv), dec_r.eq(dec),
                         ctr_r.eq(Mux(self.in_kind == DATA, ctr + 1, ctr))]

        side_fields = [("valid", 1), ("first", 1), ("kind", 2), ("nbytes", 5), ("dec", 1),
                       ("data", 128)]
        aes = m.submodules.aes = AesPipeline(sum(w for _, w in side_fields))
        m.d.comb += [aes.ce.eq(advance),
                     aes.block_in.eq(Cat(Mux(self.in_kind == FINAL, 1, ctr)[:32], iv)),
                     aes.side_in.eq(Cat(take, self.in_first, self.in_kind, self.in_nbytes,
                                        dec, self.in_data))]
        m.d.comb += [aes.round_keys[r].eq(keys[r]) for r in range(11)]
        side, pos = {}, 0
        for name, w in side_fields:
            side[name] = aes.side_out[pos:pos + w]
            pos += w

        # ---- stage 11: the three paths, and the lengths for the length block
        ks = aes.block_out
        mask = byte_mask(side["nbytes"])
        x = side["data"] ^ ks
        len_a, len_c = Signal(32), Signal(32)        # bytes so far in this packet
        la = Mux(side["first"], 0, len_a)
        lc = Mux(side["first"], 0, len_c)
        length_block = Cat(Const(0, 3), lc, Const(0, 29), Const(0, 3), la, Const(0, 29))
        kind = side["kind"]
        with m.If(advance):
            m.d.sync += [s_valid.eq(side["valid"]), s_first.eq(side["first"]),
                         s_kind.eq(kind), s_last.eq(kind == FINAL), s_dec.eq(side["dec"]),
                         s_nbytes.eq(side["nbytes"]),
                         s_dfirst.eq((kind == DATA) & (lc == 0))]
            with m.Switch(kind):
                with m.Case(AAD):
                    m.d.sync += [s_out.eq(0), s_hash.eq(side["data"] & mask)]
                with m.Case(DATA):
                    m.d.sync += [s_out.eq(x & mask),
                                 s_hash.eq(Mux(side["dec"], side["data"], x) & mask)]
                with m.Default():
                    m.d.sync += [s_out.eq(x), s_hash.eq(length_block)]
            with m.If(side["valid"]):
                m.d.sync += [len_a.eq(la + Mux(kind == AAD, side["nbytes"], 0)),
                             len_c.eq(lc + Mux(kind == DATA, side["nbytes"], 0))]

        # ---- GHASH takes stage 11's block; data leaves as it does
        m.d.comb += [ghash.start.eq(s_valid), ghash.block.eq(s_hash),
                     ghash.first.eq(s_first), ghash.last.eq(s_last)]
        leaves = s_valid & advance
        m.d.comb += [self.out_valid.eq(leaves & (s_kind == DATA)), self.out_data.eq(s_out),
                     self.out_nbytes.eq(s_nbytes), self.out_first.eq(s_dfirst)]

        # ---- tag: E(K, Y0) (xor received tag) kept until GHASH is done; the even/odd unit
        # finishes one clock later than the others, so its copy is one clock older
        y0_1, y0_2 = Signal(128), Signal(128)
        dec_1, dec_2 = Signal(), Signal()
        with m.If(leaves & s_last):
            m.d.sync += [y0_1.eq(s_out), dec_1.eq(s_dec)]
        m.d.sync += [y0_2.eq(y0_1), dec_2.eq(dec_1)]
        late = self.multiplier == "evenodd"
        y0, tdec = (y0_2, dec_2) if late else (y0_1, dec_1)
        m.d.comb += [self.tag_valid.eq(ghash.done), self.tag.eq(ghash.s ^ y0),
                     self.tag_ok.eq(self.tag == 0), self.tag_decrypt.eq(tdec)]
        return m

    def ports(self):
        return [self.key_we, self.key_addr, self.key_data, self.in_valid, self.in_ready,
                self.in_first, self.in_kind, self.in_nbytes, self.in_data, self.in_iv,
                self.in_decrypt, self.out_valid, self.out_first, self.out_data,
                self.out_nbytes, self.tag_valid, self.tag, self.tag_ok, self.tag_decrypt]
