//! Counter mode: counter blocks built in registers in integer form, N vectors of
//! keystream per batch, and tails as one group of independent AES chains.

use super::super::simd::Simd;
use super::aes::{aes_n_whitened, broadcast_key, keys, Keys};
use super::xor_vectors;
use crate::aes::RoundKeys;
use crate::engine::{Counter, CtrStart, Data, RoundOne};

/// Counter blocks, `LANES` at a time, in integer form (see module docs).
#[derive(Clone)]
pub(super) struct Ctr<V> {
    next: V,
    step: V,
    be: bool,
    /// The starting counter is public (`Counter::Be32Public`), so batching may branch on
    /// its value.
    public: bool,
    /// Lane 0's counter value of `next`; only branched on when `public`.
    low: u32,
    /// [`Self::take_batch`]'s base: the counter block with its last byte zero, xor k0,
    /// in every lane, made when lane 0's counter value above its last byte was `base_hi`
    /// (`u32::MAX`: not made yet). Like the broadcast round keys (see [`ctr_xor_io`]), a
    /// copy of round key 0 masked by a public block, not wiped.
    base: V,
    base_hi: u32,
    /// [`Self::take_batch_round_one`]'s base: AESENC(B xor k0, k1) for the same B as
    /// `base`, in every lane, made when the bytes above the last were `base1_hi`
    /// (`u32::MAX`: not made yet). Round-key material of a public block, not wiped (as
    /// `base`).
    base1: V,
    base1_hi: u32,
}

impl<V: Simd> Ctr<V> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn new(cpu: V::Cpu, start: CtrStart) -> Self {
        // The block is built as an integer (`Counter::add`, AES-GCM-SIV's tag with its top
        // bit set), in registers or as two 8-byte stores: moved from registers, never
        // reloaded as one 16-byte load of those stores.
        let block = u128::from_le_bytes(start.block);
        Self::from_block(
            cpu,
            V::Block::from_u128_computed(V::block_cpu(cpu), block),
            start.kind,
        )
    }

    /// From the first counter block already in a register (the fused AES-GCM-SIV kernel's
    /// counter, made from its tag in registers).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn from_block(cpu: V::Cpu, first: V::Block, kind: Counter) -> Self {
        let be = kind != Counter::Le32;
        let mut c = first;
        if be {
            c = c.bswap();
        }
        Self::from_integer(cpu, c, kind)
    }

    /// From the block `n` steps after `block` (in a register): GCM's first counter after
    /// Y0 made from Y0's register, where a byte increment in memory and a 16-byte reload
    /// would stall the AES chain's start on a failed store forwarding.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn after(cpu: V::Cpu, block: V::Block, kind: Counter, n: i32) -> Self {
        let bc = V::block_cpu(cpu);
        let mut c = block;
        if kind != Counter::Le32 {
            c = c.bswap();
        }
        Self::from_integer(cpu, c.add32(V::Block::splat_dword0(bc, n)), kind)
    }

    /// Moves the counter `n` blocks on (fewer than a vector's: a short head processed
    /// apart, so the next vector's first lane is the block after it).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn skip(&mut self, n: u32) {
        let cpu = self.step.cpu();
        self.next = self.next.add32(V::splat_dword0(cpu, n as i32));
        self.low = self.low.wrapping_add(n);
    }

    /// From the first counter in integer form (see module docs).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn from_integer(cpu: V::Cpu, c: V::Block, kind: Counter) -> Self {
        let be = kind != Counter::Le32;
        Ctr {
            next: V::broadcast(cpu, c).add32(V::lane_offsets(cpu)),
            step: V::splat_dword0(cpu, V::LANES as i32),
            be,
            public: kind == Counter::Be32Public,
            low: c.dword0(),
            base: V::zero(cpu),
            base_hi: u32::MAX,
            base1: V::zero(cpu),
            base1_hi: u32::MAX,
        }
    }

    /// The next vector of counter blocks, ready for AES.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn take(&mut self) -> V {
        let c = self.next;
        self.next = c.add32(self.step);
        self.low = self.low.wrapping_add(V::LANES as u32);
        if self.be {
            c.bswap()
        } else {
            c
        }
    }

    /// Whether the counter is GCM's big-endian one from a public start (96-bit IVs): the
    /// only kind [`Self::take_batch_round_one`] may read a table for.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn public_be(&self) -> bool {
        self.be && self.public
    }

    /// The next N vectors of counter blocks after AES rounds 0 and 1 (round keys `k0`,
    /// `k1`): between carries out of the counter's last byte v, block i's is the kept
    /// AESENC(B xor k0, k1) xor `table`[v + i] (`engine::RoundOne`, which derives it);
    /// a batch that carries (or without a table) runs the two rounds. Branches on the
    /// counter's value and reads the table at an index made from it, so it is only called
    /// for a public counter ([`Self::public_be`]), on backends whose `Simd::ROUND_ONE` is
    /// set.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn take_batch_round_one<const N: usize>(
        &mut self,
        k0: V,
        k1: V,
        table: Option<&RoundOne>,
    ) -> [V; N] {
        let cpu = k0.cpu();
        let blocks = (N * V::LANES) as u32;
        let v = self.low & 0xff;
        if let Some(table) = table.filter(|_| self.public_be() && v + blocks <= 0x100) {
            if self.base1_hi != self.low >> 8 {
                self.base1 = self.base_block(cpu).xor(k0).aesenc(k1);
                self.base1_hi = self.low >> 8;
            }
            return self.batch_from_row(self.base1, &table.t[v as usize..]);
        }
        let mut s = self.take_batch::<N>(k0);
        for x in s.iter_mut() {
            *x = x.aesenc(k1);
        }
        s
    }

    /// B for the kept bases: lane 0's counter block with its last byte zero, in every
    /// lane.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn base_block(&self, cpu: V::Cpu) -> V {
        let first = V::broadcast(cpu, self.next.bswap().lane0());
        first.and(V::from_u128(cpu, !(0xff << 120)))
    }

    /// The batch of N vectors `base` xor `row`'s (a table from the counter's last byte
    /// on, its batch not carrying out of that byte), and the counter moved past it.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn batch_from_row<const N: usize>(&mut self, base: V, row: &[u128]) -> [V; N] {
        let cpu = base.cpu();
        let blocks = (N * V::LANES) as u32;
        let row = &row[..blocks as usize];
        let mut s = [V::zero(cpu); N];
        for (j, x) in s.iter_mut().enumerate() {
            *x = base.xor(V::load_elems(cpu, &row[j * V::LANES..]));
        }
        self.next = self.next.add32(V::splat_dword0(cpu, blocks as i32));
        self.low = self.low.wrapping_add(blocks);
        s
    }

    /// The next N vectors of counter blocks, ready for AES, each xored with `k0` (AES
    /// round 0). GCM's big-endian counters cost a byte reversal per vector in integer
    /// form; when the counter's last byte does not carry within the batch (7 batches in
    /// 8 at 32 blocks per batch), the batch is made from a base instead: with v that
    /// byte's value at the batch's start, block i xor k0 = (B xor k0) xor (v + i in the
    /// last byte), B the counter block with its last byte zero. B xor k0 is the same for
    /// every batch between two carries out of the last byte, so it is kept (`base`) and
    /// remade only when the bytes above the last change; the second term is a table of
    /// public constants ([`LAST_BYTE`]). One XOR with a table vector (a memory operand)
    /// per vector instead of an addition and an XOR, on the ports AES and CLMUL share,
    /// and no per-batch broadcast, mask and XOR of the base; narrower vectors keep the
    /// additions on the first block's form (docs/tuning.md: Ctr::take_batch). The choice
    /// branches on the counter's value and the table is read at an index made from it, so
    /// it is only made for a public starting counter (96-bit IVs); `make ct-check` flags it
    /// otherwise.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn take_batch<const N: usize>(&mut self, k0: V) -> [V; N] {
        let cpu = k0.cpu();
        let mut s = [V::zero(cpu); N];
        let blocks = (N * V::LANES) as u32;
        let v = self.low & 0xff;
        if self.be && self.public && v + blocks <= 0x100 {
            if V::LANES >= 4 {
                if self.base_hi != self.low >> 8 {
                    self.base = self.base_block(cpu).xor(k0);
                    self.base_hi = self.low >> 8;
                }
                return self.batch_from_row(self.base, &LAST_BYTE[v as usize..]);
            } else {
                let first = self.next.bswap();
                for (j, x) in s.iter_mut().enumerate() {
                    *x = first
                        .add32(V::splat_dword3(cpu, ((j * V::LANES) as i32) << 24))
                        .xor(k0);
                }
            }
            self.next = self.next.add32(V::splat_dword0(cpu, blocks as i32));
            self.low = self.low.wrapping_add(blocks);
        } else {
            for x in s.iter_mut() {
                *x = self.take().xor(k0);
            }
        }
        s
    }
}

/// Fills `table` with T[v] = AESENC(k0 xor v·e15, AESENC(k0, 0)) for the key `rk`
/// (`engine::RoundOne` derives it), `V::LANES` entries per instruction.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn round_one_table<V: Simd>(cpu: V::Cpu, rk: &RoundKeys, table: &mut RoundOne) {
    let k0 = broadcast_key::<V>(cpu, &rk.as_blocks()[0]);
    let a = k0.aesenc(V::zero(cpu));
    for v in (0..256).step_by(V::LANES) {
        let x = k0.xor(V::load_elems(cpu, &LAST_BYTE[v..]));
        x.aesenc(a).store_elems(&mut table.t[v..]);
    }
}

/// `LAST_BYTE[e]`: the block whose last byte is e and whose other bytes are zero. A
/// batch of b blocks from last byte v reads entries v..v + b, all in the table: it is
/// only made from them when it does not carry out of that byte ([`Ctr::take_batch`]).
/// Public constants: 4 KiB.
static LAST_BYTE: [u128; 256] = last_byte();

const fn last_byte() -> [u128; 256] {
    let mut t = [0u128; 256];
    let mut e = 0;
    while e < 256 {
        t[e] = (e as u128) << 120;
        e += 1;
    }
    t
}

/// XORs the counter-mode keystream into `data`; returns the counter after the last block.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn ctr_xor<V: Simd, const N: usize>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    kind: Counter,
    block: [u8; 16],
    data: &mut [u8],
) -> [u8; 16] {
    ctr_xor_io::<V, N>(cpu, rk, CtrStart { kind, block }, Data::InPlace(data))
}

/// dst = src XOR keystream from `start`; returns the counter after the last block.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn ctr_xor_io<V: Simd, const N: usize>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    start: CtrStart,
    io: Data<'_>,
) -> [u8; 16] {
    let ks = keys::<V>(cpu, rk);
    let len = io.len();
    ctr_xor_keys::<V, N>(&ks, Ctr::<V>::new(cpu, start), io);
    // The long-term key's broadcast round keys are not wiped here: the wipe's volatile
    // stores keep them in memory for the whole loop, which measured slower (docs/tuning.md:
    // ctr_xor_io). They are copies of `RoundKeys`, which the key object zeroizes on drop.
    // Per-message keys (AES-GCM-SIV's derived keys) are wiped where they are made.
    start.kind.add(&start.block, len.div_ceil(16) as u32)
}

/// [`ctr_xor_io`] with the round keys already in registers and the counter set up.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn ctr_xor_keys<V: Simd, const N: usize>(ks: &Keys<V>, mut c: Ctr<V>, mut io: Data<'_>) {
    let (vb, wb) = (16 * V::LANES, 16 * V::LANES * N);
    let len = io.len();
    let batches = len / wb;
    for b in 0..batches {
        let mut s = c.take_batch::<N>(ks.k[0]);
        aes_n_whitened(ks, &mut s);
        xor_vectors(io.range(b * wb, wb), &s);
    }
    // The rest (less than a batch) as one group of G independent AES chains, G the
    // smallest of 1, 2, 4, 8 that covers it, so short inputs and tails do not run
    // their vectors one latency chain after another.
    const { assert!(N <= 8, "the tail groups cover at most 8 vectors") };
    let rest = io.tail(batches * wb);
    match rest.len().div_ceil(vb) {
        0 => {}
        1 => ctr_group::<V, 1>(ks, &mut c, rest),
        2 => ctr_group::<V, 2>(ks, &mut c, rest),
        3 | 4 => ctr_group::<V, 4>(ks, &mut c, rest),
        _ => ctr_group::<V, 8>(ks, &mut c, rest),
    }
}

/// dst = src xor the next G vectors of keystream, for `io.len()` <= 16·LANES·G bytes (the
/// last vector may be partial: masked load and store on AVX-512).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn ctr_group<V: Simd, const G: usize>(ks: &Keys<V>, c: &mut Ctr<V>, io: Data<'_>) {
    let mut s = c.take_batch::<G>(ks.k[0]);
    aes_n_whitened(ks, &mut s);
    // Vector by vector over the constant G, each whole or partial, so the loop unrolls and
    // the keystream stays in registers. Cut at a run-time count of whole vectors first
    // (a loop over a slice of `s`), the keystream went through the stack (docs/tuning.md:
    // ctr_group).
    let vb = 16 * V::LANES;
    let len = io.len();
    match io {
        Data::InPlace(d) => {
            for (j, k) in s.iter().enumerate() {
                let o = vb * j;
                if o >= len {
                    break;
                }
                if len - o >= vb {
                    let d = &mut d[o..];
                    V::load(k.cpu(), d).xor(*k).store(d);
                } else {
                    let d = &mut d[o..len];
                    V::load_partial(k.cpu(), d).xor(*k).store_partial(d);
                }
            }
        }
        Data::Copy(src, dst) => {
            let (src, dst) = (&src[..len], &mut dst[..len]);
            for (j, k) in s.iter().enumerate() {
                let o = vb * j;
                if o >= len {
                    break;
                }
                if len - o >= vb {
                    V::load(k.cpu(), &src[o..]).xor(*k).store(&mut dst[o..]);
                } else {
                    V::load_partial(k.cpu(), &src[o..])
                        .xor(*k)
                        .store_partial(&mut dst[o..]);
                }
            }
        }
    }
}

/// XORs keystream blocks into a short `io` (at most `ks.len()` blocks): whole blocks with
/// plain loads and stores, the partial last block with a masked (or staged) load and
/// store of the wide type `V`, so nothing past the data is read or written. The
/// small-message kernels share it.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn xor_keystream<V: Simd>(cpu: V::Cpu, mut io: Data<'_>, ks: &[V::Block]) {
    let full = io.len() / 16;
    xor_vectors(io.reborrow(), &ks[..full.min(ks.len())]);
    if !io.len().is_multiple_of(16) {
        let k = ks[full];
        match io.tail(16 * full) {
            Data::InPlace(d) => {
                let x = V::load_partial(cpu, d).lane0().xor(k);
                V::from_lane0(cpu, x).store_partial(d);
            }
            Data::Copy(s, d) => {
                let x = V::load_partial(cpu, s).lane0().xor(k);
                V::from_lane0(cpu, x).store_partial(d);
            }
        }
    }
}
