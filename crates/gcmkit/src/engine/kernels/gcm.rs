//! AES-GCM kernels: the stitched CTR + GHASH pass, the whole message in one call, and the
//! fused small-message kernel. The mode's own steps (length block, tag = GHASH xor
//! E(K, Y0)) come from `crate::spec`, so they are defined once.

use super::super::simd::Simd;
use super::aes::{aes_n, keys, Keys};
use super::ctr::{ctr_xor_keys, Ctr};
use super::ghash::{absorb_padded, gcm_tag, hash_block, hash_update, load_block, mul_lanes};
use super::ghash::{Sums, Table};
use super::{for_count, unrolled, xor_vectors};
use crate::aes::RoundKeys;
use crate::engine::sequence::{self, GcmSteps, TwoPass};
use crate::engine::Hash;
use crate::engine::{Counter, CtrStart, Data, RoundOne, Y0};
use crate::field::{Flavor, HashKey, POWERS};

/// Largest message (bytes) for [`gcm_small`]: with E(K, Y0), eight AES blocks.
pub(crate) const SMALL_DATA: usize = 7 * 16;
/// Largest padded AAD + padded data + length block for [`gcm_small`] (one reduction).
pub(crate) const SMALL_HASHED: usize = POWERS * 16;

/// Whether a message of these lengths fits [`gcm_small`] (the bounds above).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn small_fits(aad_len: usize, len: usize) -> bool {
    let hashed = aad_len.div_ceil(16) * 16 + len.div_ceil(16) * 16 + 16;
    len <= SMALL_DATA && hashed <= SMALL_HASHED
}

/// Whole AES-GCM of a small input: E(K, Y0) and the keystream in one AES
/// batch, then GHASH(A, C, lengths) as one aggregated batch with one reduction. Returns
/// the full tag. From the source into the destination (or in place): a separate
/// destination costs no copy first. The caller guarantees `io.len() <= SMALL_DATA` and
/// `pad16(aad) + pad16(data) + 16 <= SMALL_HASHED`, and `key` is a GHASH key (larger
/// inputs are an internal error: a panic on a slice bound, never memory outside them).
/// Y0 arrives in registers (its little-endian bytes) and goes to a vector through
/// general-purpose registers (`from_u128_computed`): the caller built it with two 8-byte
/// stores, and a 16-byte load of those cannot be store-forwarded, which stalled the start
/// of the AES chain of every small message.
///
/// Encryption, or (`DEC`) decryption returning the full tag of the ciphertext, which the
/// caller compares; the same bounds either way. One pass in both directions: the two-pass
/// form (hash the source, then apply the keystream) ran slower (docs/tuning.md: gcm_small).
///
/// [`small`] with as many chains as blocks (E(K, Y0) and the keystream), a count fixed
/// at compile time: a spare chain is ten AES rounds for nothing (at 64 B, eight chains
/// ran for five blocks, and the rounds' throughput rather than their latency bounded the
/// message), and loops of a fixed count unroll with every block in a register (loops
/// that stopped at the data's end kept the blocks in arrays on the stack).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn gcm_small<V: Simd, const DEC: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    y0: u128,
    aad: &[u8],
    io: Data<'_>,
) -> [u8; 16] {
    let y0 = V::Block::from_u128_computed(V::block_cpu(cpu), y0);
    // N chains: the data blocks and E(K, Y0).
    for_count!(io.len().div_ceil(16) + 1, const N in [1 2 3 4 5 6 7], _ => 8,
        small::<V, N, DEC>(cpu, rk, key, y0, aad, io))
}

/// E(K, Y0) and the N - 1 keystream blocks after it, counters built in registers (no
/// store-to-load round trip through memory), as N independent AES chains.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn chains<V: Simd, const N: usize>(
    bc: <V::Block as Simd>::Cpu,
    rk: &RoundKeys,
    y0: V::Block,
) -> [V::Block; N] {
    let ks = keys::<V::Block>(bc, rk);
    let mut c = Ctr::<V::Block>::from_block(bc, y0, Counter::Be32);
    let mut s = [V::Block::zero(bc); N];
    for x in s.iter_mut() {
        *x = c.take();
    }
    aes_n(&ks, &mut s);
    // (The long-term key's broadcast round keys are not wiped: see `ctr::ctr_xor_io`.)
    s
}

/// The small kernel, encryption or (`DEC`) decryption. Block i of the message is element
/// i + 1 of the arrays below (element 0 stands beside E(K, Y0)). The input is loaded
/// whole before the rounds and the output stored whole after them, each through one view
/// of `io` (one test of in place or not per side, not one per block), and the ciphertext
/// blocks hashed from registers: the input's for a decryption (independent of the AES
/// chains), the output's for an encryption. Loops of a fixed count, every block in a
/// register (docs/tuning.md: gcm::small).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn small<V: Simd, const N: usize, const DEC: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    y0: V::Block,
    aad: &[u8],
    mut io: Data<'_>,
) -> [u8; 16] {
    let bc = V::block_cpu(cpu);
    let len = io.len();
    // Bytes in the last block (1 to 16; no block when N is 1).
    let last = len.wrapping_sub(16 * N.saturating_sub(2));
    let whole = |i: usize| i + 1 < N || last == 16;
    // The message's blocks, the last one zero-padded (a masked or piecewise load that
    // never reads past the data).
    let mut input = [V::Block::zero(bc); N];
    {
        let src = &io.src()[..len];
        for (i, x) in input.iter_mut().enumerate().skip(1) {
            let o = 16 * (i - 1);
            *x = if whole(i) {
                V::Block::load(bc, &src[o..])
            } else {
                V::load_partial(cpu, &src[o..]).lane0()
            };
        }
    }
    let s = chains::<V, N>(bc, rk, y0);
    // The ciphertext blocks. The partial block's keystream is cut to its length first,
    // so that block is the zero-padded ciphertext GHASH takes; it is hashed from this
    // register, not reloaded from the destination: a reload of a block just written
    // piecewise cannot be store-forwarded (docs/tuning.md: gcm::small).
    let mut out = [V::Block::zero(bc); N];
    for i in 1..N {
        let k = if whole(i) {
            s[i]
        } else {
            let keep = (1u128 << (8 * last)) - 1;
            V::Block::from_u128_computed(bc, s[i].to_u128() & keep)
        };
        out[i] = input[i].xor(k);
    }
    {
        let dst = &mut io.dst()[..len];
        for (i, x) in out.iter().enumerate().skip(1) {
            let o = 16 * (i - 1);
            if whole(i) {
                x.store(&mut dst[o..]);
            } else {
                V::from_lane0(cpu, *x).store_partial(&mut dst[o..]);
            }
        }
    }
    // GHASH of pad16(A) || pad16(C) || lengths as one batch of k blocks (block b times
    // H^(k-b)), one reduction. Only AES-GCM calls this kernel: the flavor is a constant.
    let table = Table::last(key, aad.len().div_ceil(16) + N);
    let mut sums = Sums::<V::Block>::zero(bc);
    let mut next = 0;
    absorb_padded::<V>(cpu, &mut sums, aad, table, &mut next, Flavor::Ghash);
    // A decryption hashes its input (independent of the AES chains), an encryption its
    // output; `DEC` is a constant, so both arrays stay in registers.
    for x in if DEC { &input[1..] } else { &out[1..] } {
        sums.mul_add(
            x.bswap(),
            V::Block::from_u128(bc, table.h[next]),
            V::Block::from_u128(bc, table.kara[next]),
        );
        next += 1;
    }
    finish_tag::<V>(sums, table, next, aad.len(), len, s[0])
}

/// The length block absorbed as the batch's last element (`table`'s element `next`),
/// the one reduction, and T = GHASH xor E(K, Y0) (`spec::gcm::tag_from_ghash`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn finish_tag<V: Simd>(
    mut sums: Sums<V::Block>,
    table: Table<'_>,
    next: usize,
    aad_len: usize,
    len: usize,
    mask: V::Block,
) -> [u8; 16] {
    let bc = mask.cpu();
    // The length block built in registers: its GHASH element (the block's big-endian
    // value, as `load_block` makes it) is bitlen(A) in the high half and bitlen(C) in
    // the low (`spec::gcm::length_block`'s bytes).
    let bits = |n: usize| (n as u64).wrapping_mul(8) as u128;
    sums.mul_add(
        V::Block::from_u128_computed(bc, bits(aad_len) << 64 | bits(len)),
        V::Block::from_u128(bc, table.h[next]),
        V::Block::from_u128(bc, table.kara[next]),
    );
    gcm_tag(sums.reduce(), mask).to_bytes()
}

/// Whole AES-GCM of any length in one kernel call: GHASH of the AAD, the stitched
/// CTR + GHASH pass from the counter after `y0`, the length block and the tag mask
/// E(K, Y0). One entry instead of five (AAD hash, stitched pass, length block, tag mask,
/// and the dispatch around each) saves their set-ups (docs/tuning.md: gcm_whole).
/// Returns the full tag (GHASH xor E(K, Y0)).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn gcm_whole<V: Simd, const N: usize, const MAXW: usize>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    y0: Y0<'_>,
    aad: &[u8],
    io: Data<'_>,
    what: Hash,
) -> [u8; 16] {
    let mut steps = Whole::<V, N, MAXW> { cpu, rk, key, y0 };
    sequence::gcm_whole(&mut steps, aad, io, what)
}

/// The vector kernels' steps of a whole message, for `engine::sequence::gcm_whole`.
pub(super) struct Whole<'a, V: Simd, const N: usize, const MAXW: usize> {
    pub(super) cpu: V::Cpu,
    pub(super) rk: &'a RoundKeys,
    pub(super) key: &'a HashKey,
    pub(super) y0: Y0<'a>,
}

impl<V: Simd, const N: usize, const MAXW: usize> GcmSteps for Whole<'_, V, N, MAXW> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn hash(&mut self, acc: &mut u128, data: &[u8]) {
        hash_update::<V, MAXW>(self.cpu, self.key, acc, data);
    }

    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn data_and_mask(&mut self, acc: &mut u128, io: Data<'_>, what: Hash) -> [u8; 16] {
        let (cpu, bc) = (self.cpu, V::block_cpu(self.cpu));
        // E(K, Y0) first: independent of the data, it overlaps it.
        // (The long-term key's broadcast round keys are not wiped: see `ctr::ctr_xor_io`.)
        let y = V::Block::load_halves(bc, self.y0.block);
        let mut mask = [y];
        aes_n(&keys::<V::Block>(bc, self.rk), &mut mask);
        // The data's first counter, Y0 + 1, from Y0's register.
        let c = Ctr::<V>::after(cpu, y, self.y0.kind, 1);
        let ks = keys::<V>(cpu, self.rk);
        let pass = self.pass(&ks, c);
        match what {
            Hash::Input => stitched_from::<V, N, MAXW, true, true>(pass, acc, io),
            Hash::Output => stitched_from::<V, N, MAXW, true, false>(pass, acc, io),
        }
        mask[0].to_bytes()
    }

    /// On vectors to the tag's one store (the default's `u128` form stored it as two
    /// halves). E(K, Y0) is reloaded whole from its one 16-byte store.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn lengths_and_tag(&mut self, acc: u128, lengths: &[u8; 16], mask: &[u8; 16]) -> [u8; 16] {
        let bc = V::block_cpu(self.cpu);
        let x = load_block::<V::Block>(bc, lengths, self.key.flavor);
        let s = hash_block(self.key, V::Block::from_u128(bc, acc), x);
        gcm_tag(s, V::Block::load(bc, mask)).to_bytes()
    }

    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn data_and_tag(
        &mut self,
        acc: &mut u128,
        io: Data<'_>,
        what: Hash,
        lengths: &[u8; 16],
    ) -> [u8; 16] {
        match Plan::of::<V, N>(self.key, &io) {
            // Batches that end the data: the message's end fused (`Whole::fused_end`).
            Some(plan) if plan.ends_input::<V, N>(io.len()) => {
                self.fused_end(*acc, io, what, plan, lengths)
            }
            _ => sequence::data_then_tag(self, acc, io, what, lengths),
        }
    }
}

impl<'a, V: Simd, const N: usize, const MAXW: usize> Whole<'a, V, N, MAXW> {
    /// The stitched pass of the message's data from counter `c`, with the key's round-one
    /// table. (Its callers pass GHASH as a constant: `GHASH` true.)
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn pass<'k>(&self, ks: &'k Keys<V>, c: Ctr<V>) -> Pass<'k, V, N, MAXW>
    where
        'a: 'k,
    {
        Pass::new(self.cpu, ks, self.key, self.y0.round_one, c)
    }

    /// The data, the length block and the tag (from the running value `acc` after the
    /// AAD) when the stitched batches of `plan` end the data, in one pass that fuses the
    /// message's serial end. The batch hashed last takes the powers one higher,
    /// H^(W + 1 - p), which leaves A·H for the data's hash A; the length block's L·H,
    /// computed before the data (off the critical path), is added: GHASH = (A + L)·H =
    /// A·H + L·H, one multiply and reduction fewer after the last batch. E(K, Y0) is
    /// computed after the batches, where its rounds run beside that last hash's
    /// multiplies, instead of before the data, where its chain of rounds held up the first
    /// batch's start (docs/tuning.md: Whole::fused_end). Returns the full tag.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn fused_end(
        &self,
        acc: u128,
        io: Data<'_>,
        what: Hash,
        plan: Plan,
        lengths: &[u8; 16],
    ) -> [u8; 16] {
        let cpu = self.cpu;
        let bc = V::block_cpu(cpu);
        let y0 = V::Block::load_halves(bc, self.y0.block);
        let ks = keys::<V>(cpu, self.rk);
        let c = Ctr::<V>::after(cpu, y0, self.y0.kind, 1);
        let pass = self.pass(&ks, c);
        let s = match what {
            Hash::Input => {
                batches_and_lengths::<V, N, MAXW, true, true>(pass, acc, io, plan, lengths)
            }
            Hash::Output => {
                batches_and_lengths::<V, N, MAXW, true, false>(pass, acc, io, plan, lengths)
            }
        };
        // E(K, Y0) with the first lanes of the vector round keys, after the batches: `pin`
        // keeps the compiler from hoisting it to the start (it did, and the 16 KiB gain
        // of the fused end was gone: its rounds' chain ahead of the first batch costs
        // time there).
        // (The long-term key's broadcast round keys are not wiped: see `ctr::ctr_xor_io`.)
        let mut mask = [y0.pin()];
        aes_n(&ks.lane0(), &mut mask);
        gcm_tag(s, mask[0]).to_bytes()
    }
}

/// The stitched batches of `plan`, which end `io`, and the length block, from the running
/// value `acc` and counter `c`: returns (A + L)·H, A the running value extended by the
/// data, in the form of [`Whole::fused_end`] (the batch hashed last one power higher, so
/// it leaves A·H; L·H computed before the data, off the critical path).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn batches_and_lengths<
    V: Simd,
    const N: usize,
    const MAXW: usize,
    const GHASH: bool,
    const INPUT: bool,
>(
    mut pass: Pass<'_, V, N, MAXW>,
    mut acc: u128,
    io: Data<'_>,
    plan: Plan,
    lengths: &[u8; 16],
) -> V::Block {
    let key = pass.key;
    let bc = V::block_cpu(pass.cpu);
    let lh = hash_block(
        key,
        V::Block::zero(bc),
        load_block::<V::Block>(bc, lengths, key.flavor),
    );
    stitched_batches::<V, N, MAXW, GHASH, INPUT>(&mut pass, &mut acc, io, plan, true).xor(lh)
}

/// [`stitched`] and then the length block `lengths`: returns (A + L)·H, A the running
/// value `acc` extended by the data. The key's flavor and what is hashed are the
/// constants `GHASH` and `INPUT` ([`stitched_batches`]). When the stitched batches
/// end the data, the message's end is fused as in [`Whole::fused_end`]
/// ([`batches_and_lengths`]): one multiply and reduction fewer after the last batch, and
/// the lanes' sum never leaves the vector registers.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn stitched_and_lengths<
    V: Simd,
    const N: usize,
    const MAXW: usize,
    const GHASH: bool,
    const INPUT: bool,
>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    start: CtrStart,
    mut acc: u128,
    io: Data<'_>,
    lengths: &[u8; 16],
) -> V::Block {
    let bc = V::block_cpu(cpu);
    let ks = keys::<V>(cpu, rk);
    let pass = Pass::<V, N, MAXW>::new(cpu, &ks, key, None, Ctr::<V>::new(cpu, start));
    match Plan::of::<V, N>(key, &io) {
        Some(plan) if plan.ends_input::<V, N>(io.len()) => {
            batches_and_lengths::<V, N, MAXW, GHASH, INPUT>(pass, acc, io, plan, lengths)
        }
        _ => {
            stitched_from::<V, N, MAXW, GHASH, INPUT>(pass, &mut acc, io);
            let x = load_block::<V::Block>(bc, lengths, key.flavor);
            hash_block(key, V::Block::from_u128(bc, acc), x)
        }
    }
}

/// CTR over the data with the GHASH/POLYVAL of the input or output absorbed into `acc`,
/// N vectors per batch, AES and CLMUL interleaved. Returns the next counter.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn stitched<V: Simd, const N: usize, const MAXW: usize>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    start: CtrStart,
    acc: &mut u128,
    io: Data<'_>,
    what: Hash,
) -> [u8; 16] {
    let (k, s) = (key.flavor, start);
    match (k, what) {
        (Flavor::Ghash, Hash::Input) => {
            stitched_with::<V, N, MAXW, true, true>(cpu, rk, key, None, s, acc, io)
        }
        (Flavor::Ghash, Hash::Output) => {
            stitched_with::<V, N, MAXW, true, false>(cpu, rk, key, None, s, acc, io)
        }
        (Flavor::Polyval, Hash::Input) => {
            stitched_with::<V, N, MAXW, false, true>(cpu, rk, key, None, s, acc, io)
        }
        (Flavor::Polyval, Hash::Output) => {
            stitched_with::<V, N, MAXW, false, false>(cpu, rk, key, None, s, acc, io)
        }
    }
}

/// [`stitched`] for AES-GCM encryption's gathered runs (`gather::gcm_seal_parts`): GHASH
/// of the output, constants, so that only those batch loops are compiled in, and the
/// key's round-one table (`Y0::round_one`), which the batches read when `start` is a
/// public counter.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn stitched_gcm_seal<V: Simd, const N: usize, const MAXW: usize>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    round_one: Option<&RoundOne>,
    start: CtrStart,
    acc: &mut u128,
    io: Data<'_>,
) -> [u8; 16] {
    stitched_with::<V, N, MAXW, true, false>(cpu, rk, key, round_one, start, acc, io)
}

/// [`stitched`] with the hash flavor and what is hashed as constants (`GHASH`, `INPUT`:
/// [`stitched_batches`]) and the round-one table given.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn stitched_with<
    V: Simd,
    const N: usize,
    const MAXW: usize,
    const GHASH: bool,
    const INPUT: bool,
>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    round_one: Option<&RoundOne>,
    start: CtrStart,
    acc: &mut u128,
    io: Data<'_>,
) -> [u8; 16] {
    let blocks = io.len().div_ceil(16) as u32;
    let ks = keys::<V>(cpu, rk);
    let pass = Pass::<V, N, MAXW>::new(cpu, &ks, key, round_one, Ctr::<V>::new(cpu, start));
    stitched_from::<V, N, MAXW, GHASH, INPUT>(pass, acc, io);
    start.kind.add(&start.block, blocks)
}

/// [`stitched`] by `pass` (round keys in registers, counter set up): the whole batches
/// stitched ([`stitched_batches`], `GHASH` and `INPUT` as there), the rest (or an input
/// under two batches) by `engine::sequence::two_pass`, which continues the same counter
/// and round keys.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn stitched_from<
    V: Simd,
    const N: usize,
    const MAXW: usize,
    const GHASH: bool,
    const INPUT: bool,
>(
    mut pass: Pass<'_, V, N, MAXW>,
    acc: &mut u128,
    mut io: Data<'_>,
) {
    let what = Hash::from_input(INPUT);
    let Some(plan) = Plan::of::<V, N>(pass.key, &io) else {
        // Short input: the two passes back to back.
        return sequence::two_pass(&mut pass, acc, io, what);
    };
    let a =
        stitched_batches::<V, N, MAXW, GHASH, INPUT>(&mut pass, acc, io.reborrow(), plan, false);
    // (The long-term key's broadcast round keys are not wiped: see `ctr::ctr_xor_io`.)
    *acc = a.to_u128();
    sequence::two_pass(&mut pass, acc, io.tail(plan.done::<V, N>()), what)
}

/// How the stitched pass splits an input: `head` bytes first (by the two passes, so that
/// the batches' vector stores start on a line boundary: [`store_head`]), then `batches`
/// whole batches stitched, then the rest (the two passes again). It depends on the
/// input's length and the destination's address only, never on the data.
#[derive(Clone, Copy)]
struct Plan {
    head: usize,
    batches: usize,
}

impl Plan {
    /// The plan for `io`, or None when the input is under two batches after its head, or
    /// the key has fewer powers than a batch: then the two passes back to back.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn of<V: Simd, const N: usize>(key: &HashKey, io: &Data<'_>) -> Option<Self> {
        let wblocks = N * V::LANES;
        let head = if io.len() >= ALIGN_FROM {
            store_head(io.output(), 16 * V::LANES)
        } else {
            0
        };
        let batches = (io.len() - head) / (16 * wblocks);
        (key.count >= wblocks && batches >= 2).then_some(Plan { head, batches })
    }

    /// The bytes the head and the batches cover.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn done<V: Simd, const N: usize>(self) -> usize {
        self.head + self.batches * 16 * N * V::LANES
    }

    /// Whether the batches end an input of `len` bytes (no rest after them).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn ends_input<V: Simd, const N: usize>(self, len: usize) -> bool {
        self.done::<V, N>() == len
    }
}

/// The head (by the two passes) and the stitched batches of `plan`, `pass`'s counter
/// moved past them; returns the hash value after them, reduced and folded: the running
/// value `acc` (after the head) extended by the batches, times H once more when
/// `shifted` ([`Whole::fused_end`]).
///
/// The hash flavor (`GHASH`: GHASH, else POLYVAL) and what is hashed (`INPUT`: the
/// input, else the output) are constants, as every caller knows them (the entry points
/// that take them at run time branch once, above the pass): each batch loop is compiled
/// only where it can run. With both as run-time values, every caller carried all four
/// combinations' loops for LLVM to prune after inlining, and the kernels' optimization
/// grew faster than their size (docs/tuning.md: stitched_batches).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn stitched_batches<
    V: Simd,
    const N: usize,
    const MAXW: usize,
    const GHASH: bool,
    const INPUT: bool,
>(
    pass: &mut Pass<'_, V, N, MAXW>,
    acc: &mut u128,
    mut io: Data<'_>,
    plan: Plan,
    shifted: bool,
) -> V::Block {
    let what = Hash::from_input(INPUT);
    let (cpu, key, ks) = (pass.cpu, pass.key, pass.ks);
    let bc = V::block_cpu(cpu);
    let wblocks = N * V::LANES;
    if plan.head > 0 {
        // The head's blocks by the two passes, the counter moved past them: the batches'
        // vector stores then start on a line boundary.
        sequence::two_pass(pass, acc, io.range(0, plan.head), what);
        pass.c.skip((plan.head / 16) as u32);
        io = io.tail(plan.head);
    }
    // The running hash stays in lanes from batch to batch (see `Stitch`): vector j of a
    // stitched batch is multiplied by H^(W - LANES·j) in every lane (`step`), and the batch
    // hashed last (after the run, or an in-place decryption's last) by H^(W - LANES·j - l)
    // in lane l (`last`; W = wblocks), or when `shifted` by H^(W + 1 - LANES·j - l):
    // vector 0's H^(W + 1) is past the table (W = POWERS on avx512), so that vector is
    // the exact one times H, lane by lane.
    let table = Table::last(key, wblocks);
    let h = V::broadcast(cpu, V::Block::from_u128(bc, key.desc[POWERS - 1]));
    let mut step = [V::zero(cpu); N];
    let mut last = [V::zero(cpu); N];
    for j in 0..N {
        let i = V::LANES * j;
        step[j] = V::broadcast(cpu, V::Block::from_u128(bc, table.h[i]));
        last[j] = match (shifted, j) {
            (false, _) => V::load_elems(cpu, &table.h[i..]),
            (true, 0) => mul_lanes(V::load_elems(cpu, table.h), h),
            (true, _) => V::load_elems(cpu, &table.h[i - 1..]),
        };
    }
    // A key's round-one table serves GCM's public counters only (`Ctr::public_be`).
    let round_one = pass.round_one.filter(|_| pass.c.public_be());
    let (step, last) = (Powers::new(step), Powers::new(last));
    let run = Stitch {
        ks,
        step: &step,
        last: &last,
        batches: plan.batches,
        round_one,
    };
    let a0 = V::from_lane0(cpu, V::Block::from_u128(bc, *acc));
    let mut c = pass.c.clone();
    let folded = match ks.rounds {
        10 => batch_loop::<V, N, 10, GHASH, INPUT>(&run, io, &mut c, a0),
        12 => batch_loop::<V, N, 12, GHASH, INPUT>(&run, io, &mut c, a0),
        _ => batch_loop::<V, N, 14, GHASH, INPUT>(&run, io, &mut c, a0),
    };
    pass.c = c;
    folded
}

/// From how many bytes an input's destination is aligned first ([`store_head`]): below
/// that the head's separate two passes, and the rest they leave after the last batch (a
/// second two-pass), cost more than the split stores they save. The split stores cost
/// little while the destination stays in L1 and much from L2 out (docs/tuning.md:
/// ALIGN_FROM).
const ALIGN_FROM: usize = 64 * 1024;

/// The bytes before `dst`'s first boundary of `min(vb, 64)` bytes (`vb` a vector's bytes),
/// when they are whole blocks (0, 16, 32 or 48; 0 when the destination is not 16-byte
/// aligned). Processed apart, they leave every stitched vector store whole inside one cache
/// line: a 64-byte store 16 bytes past a line writes two lines, and the store buffer drains
/// it as two (docs/tuning.md: store_head). Depends on the address only, never on the data.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn store_head(dst: &[u8], vb: usize) -> usize {
    let line = vb.min(64);
    let head = (dst.as_ptr() as usize).wrapping_neg() % line;
    if head.is_multiple_of(16) {
        head
    } else {
        0
    }
}

/// The vector kernels' unstitched counter mode and hash, for `engine::sequence::two_pass`:
/// the round keys already in registers, the counter where the stitched batches left it.
struct Pass<'a, V: Simd, const N: usize, const MAXW: usize> {
    cpu: V::Cpu,
    ks: &'a Keys<V>,
    key: &'a HashKey,
    /// The key's round-one table, for the stitched batches ([`stitched_batches`]).
    round_one: Option<&'a RoundOne>,
    c: Ctr<V>,
}

impl<'a, V: Simd, const N: usize, const MAXW: usize> Pass<'a, V, N, MAXW> {
    /// A pass from counter `c`, its batches from `round_one` when given (an AES-GCM key's
    /// table).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn new(
        cpu: V::Cpu,
        ks: &'a Keys<V>,
        key: &'a HashKey,
        round_one: Option<&'a RoundOne>,
        c: Ctr<V>,
    ) -> Self {
        Pass {
            cpu,
            ks,
            key,
            round_one,
            c,
        }
    }
}

impl<V: Simd, const N: usize, const MAXW: usize> TwoPass for Pass<'_, V, N, MAXW> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn hash(&mut self, acc: &mut u128, data: &[u8]) {
        hash_update::<V, MAXW>(self.cpu, self.key, acc, data);
    }

    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn ctr(&mut self, io: Data<'_>) {
        ctr_xor_keys::<V, N>(self.ks, self.c.clone(), io);
    }
}

/// What one stitched run reads: the round keys, the batch's powers (both sets), the
/// batch count and what to hash.
///
/// The running hash is carried from batch to batch in lanes, unfolded. Horner's rule
/// over batches of W blocks is a' = a·H^W + sum over the batch's blocks of x·H^(W - p)
/// (p the block's place; block p = LANES·j + l is lane l of vector j). `step` multiplies
/// vector j by H^(W - LANES·j) in every lane, so lane l's products are its blocks' true
/// terms times H^l; the carried vector c stands for the value sum over l of c_l·H^-l,
/// and added into vector 0 (H^W in every lane) it is multiplied by H^W as the rule wants,
/// lane by lane. The one fold of the lanes happens in the batch hashed last, whose
/// `last` powers H^(W - p) take c_l to c_l·H^(W - l): the true value times H^W. Each batch
/// saves the fold of its reduced lanes (on avx512 two extracts on the port CLMUL shares
/// and two XORs) and the move of the folded value into lane 0 (docs/tuning.md: Stitch).
///
/// With `round_one` (a key's table, a public GCM counter), each batch
/// starts one AES round in (`Ctr::take_batch_round_one`), and the vectors' hashing hides
/// behind rounds 2..=N + 1.
struct Stitch<'a, V, const N: usize> {
    ks: &'a Keys<V>,
    step: &'a Powers<V, N>,
    last: &'a Powers<V, N>,
    batches: usize,
    round_one: Option<&'a RoundOne>,
}

/// The stitched batches with the AES round count `R` fixed at compile time; `io` holds at
/// least `run.batches` whole batches, the flavor `GHASH` and what is hashed `INPUT` (as
/// [`stitched_batches`]). The data's shape (in place or copy) is matched here, once,
/// and the first batch of an encryption
/// (nothing to hash yet) is peeled, so that each steady-state loop has none of them to
/// test: the compiler did not unswitch them (docs/tuning.md: batch_loop). The batches are
/// walked with `chunks_exact`, so no bounds checks.
/// Returns the hash value after the batches, folded: the batch hashed last, with the
/// `last` powers (`Stitch`), folds the lanes, an encryption's (its output, hashed one
/// batch behind) and an out-of-place decryption's (its input, one batch behind) after
/// the loop ([`hash_last_batch`], the flavor a constant there too), an in-place
/// decryption's in its own rounds.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn batch_loop<V: Simd, const N: usize, const R: usize, const GHASH: bool, const INPUT: bool>(
    run: &Stitch<'_, V, N>,
    io: Data<'_>,
    c: &mut Ctr<V>,
    a: V,
) -> V::Block {
    // Only AES-GCM keys have a table, and only backends whose `Simd::ROUND_ONE` is set
    // use one: the batches from it are compiled for GHASH and those backends alone (a
    // constant condition, so the others do not instantiate them).
    if const { V::ROUND_ONE && GHASH } && run.round_one.is_some() {
        return batches::<V, N, R, true, GHASH, INPUT>(run, io, c, a);
    }
    batches::<V, N, R, false, GHASH, INPUT>(run, io, c, a)
}

/// [`batch_loop`]'s batches, each from the key's round-one table when `T1` (`Stitch`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn batches<
    V: Simd,
    const N: usize,
    const R: usize,
    const T1: bool,
    const GHASH: bool,
    const INPUT: bool,
>(
    run: &Stitch<'_, V, N>,
    io: Data<'_>,
    c: &mut Ctr<V>,
    mut a: V,
) -> V::Block {
    let flavor = if GHASH {
        Flavor::Ghash
    } else {
        Flavor::Polyval
    };
    let cpu = run.ks.k[0].cpu();
    let wb = 16 * V::LANES * N;
    let step = run.step;
    let n = run.batches * wb;
    if run.batches == 0 {
        // Nothing to stitch (the callers pass at least two batches): the value as it came.
        return a.fold_lanes();
    }
    // `INPUT` a constant: only one of the two matches is compiled.
    if INPUT {
        match io {
            // In place, decryption hashes each batch's own input in its rounds (its input is
            // gone after them), so the last batch takes the `last` powers here (`Stitch`).
            Data::InPlace(buf) => {
                let base = buf.as_ptr();
                let (most, last) = buf[..n].split_at_mut(n - wb);
                for (b, chunk) in most.chunks_exact_mut(wb).enumerate() {
                    prefetch_batch::<V>(base, (b + PREFETCH) * wb, wb);
                    let io = Data::InPlace(chunk);
                    a = batch::<V, N, R, T1>(run, step, flavor, Hashed::Own, io, c, a);
                }
                let io = Data::InPlace(last);
                a = batch::<V, N, R, T1>(run, run.last, flavor, Hashed::Own, io, c, a);
                a.fold_lanes()
            }
            // Out of place, batches by index: with two zipped `chunks_exact` iterators the
            // compiler kept the round keys on the stack (docs/tuning.md: batches, by index).
            // Decryption out of place hashes one batch behind, as encryption does: the batch's
            // products take the previous batch's input (loaded a batch ago, in L1), so the
            // fresh loads only feed the keystream XOR at the end of the rounds and a load from
            // L3 no longer holds up the hash chain (docs/tuning.md: batches, one batch
            // behind). The last batch is hashed in `stitched`.
            Data::Copy(src, dst) => {
                let (src, dst) = (&src[..n], &mut dst[..n]);
                let io = Data::Copy(&src[..wb], &mut dst[..wb]);
                a = batch::<V, N, R, T1>(run, step, flavor, Hashed::Nothing, io, c, a);
                for b in 1..run.batches {
                    prefetch_batch::<V>(src.as_ptr(), (b + PREFETCH) * wb, wb);
                    let r = b * wb..(b + 1) * wb;
                    let hashed = Hashed::Prev(&src[(b - 1) * wb..b * wb]);
                    let io = Data::Copy(&src[r.clone()], &mut dst[r]);
                    a = batch::<V, N, R, T1>(run, step, flavor, hashed, io, c, a);
                }
                let last = &src[n - wb..];
                hash_last_batch::<V, N>(cpu, flavor, a, last, run.last)
            }
        }
    } else {
        match io {
            Data::InPlace(buf) => {
                let base = buf.as_ptr();
                let (first, rest) = buf[..n].split_at_mut(wb);
                let io = Data::InPlace(first);
                a = batch::<V, N, R, T1>(run, step, flavor, Hashed::Nothing, io, c, a);
                let mut prev: &[u8] = first;
                for (b, chunk) in rest.chunks_exact_mut(wb).enumerate() {
                    prefetch_batch::<V>(base, (b + 1 + PREFETCH) * wb, wb);
                    let hashed = Hashed::Prev(prev);
                    let io = Data::InPlace(chunk);
                    a = batch::<V, N, R, T1>(run, step, flavor, hashed, io, c, a);
                    prev = chunk;
                }
                let last = &buf[n - wb..n];
                hash_last_batch::<V, N>(cpu, flavor, a, last, run.last)
            }
            Data::Copy(src, dst) => {
                let (src, dst) = (&src[..n], &mut dst[..n]);
                let io = Data::Copy(&src[..wb], &mut dst[..wb]);
                a = batch::<V, N, R, T1>(run, step, flavor, Hashed::Nothing, io, c, a);
                for b in 1..run.batches {
                    prefetch_batch::<V>(src.as_ptr(), (b + PREFETCH) * wb, wb);
                    let (done, rest) = dst.split_at_mut(b * wb);
                    let hashed = Hashed::Prev(&done[(b - 1) * wb..]);
                    let io = Data::Copy(&src[b * wb..(b + 1) * wb], &mut rest[..wb]);
                    a = batch::<V, N, R, T1>(run, step, flavor, hashed, io, c, a);
                }
                let last = &dst[n - wb..];
                hash_last_batch::<V, N>(cpu, flavor, a, last, run.last)
            }
        }
    }
}

/// Batches ahead of the one in its rounds whose source lines are prefetched.
const PREFETCH: usize = 2;

/// Prefetch hints for the `wb` bytes `at` bytes past `base` (the source's start; past
/// its end the hints are harmless: a prefetch never faults).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn prefetch_batch<V: Simd>(base: *const u8, at: usize, wb: usize) {
    let p = base.wrapping_add(at);
    for o in (0..wb).step_by(64) {
        V::prefetch(p.wrapping_add(o));
    }
}

/// What a stitched batch hashes (a constant at each call of [`batch`]).
#[derive(Clone, Copy)]
enum Hashed<'a> {
    /// Nothing (the first batch of an encryption).
    Nothing,
    /// Its own input (decryption in place).
    Own,
    /// The previous batch's output (encryption) or input (decryption out of place).
    Prev(&'a [u8]),
}

/// One stitched batch: the keystream of N vectors XORed from `io`'s source into its
/// destination (exactly one batch), with the N vectors `hashed` names hashed into `a` in
/// its rounds. Returns the new hash value.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn batch<V: Simd, const N: usize, const R: usize, const T1: bool>(
    run: &Stitch<'_, V, N>,
    powers: &Powers<V, N>,
    flavor: Flavor,
    hashed: Hashed<'_>,
    io: Data<'_>,
    c: &mut Ctr<V>,
    mut a: V,
) -> V {
    // Rounds 1..=N (2..=N + 1 from the table) each carry one vector of hashing: the
    // round count must exceed N (N + 1).
    const {
        assert!(
            R > N + T1 as usize,
            "every hashed vector needs an AES round to hide behind"
        )
    };
    let ks = run.ks;
    let cpu = ks.k[0].cpu();
    let vb = 16 * V::LANES;
    let src: Option<&[u8]> = match hashed {
        Hashed::Nothing => None,
        Hashed::Own => Some(io.src()),
        Hashed::Prev(p) => Some(p),
    };
    // The counter blocks after round 0, or (`T1`) after rounds 0 and 1: the rounds from
    // `first` on are left to run (a constant, so the round keys stay in registers).
    let first = 1 + T1 as usize;
    let mut s = if T1 {
        c.take_batch_round_one::<N>(ks.k[0], ks.k[1], run.round_one)
    } else {
        c.take_batch::<N>(ks.k[0])
    };
    // Decryption hashes its own input: each input vector is loaded once, up front, and
    // serves both its product in the rounds and the keystream XOR at the end. Loaded
    // twice through two slices (out of place, where the destination's stores come between
    // the two loads), it ran slower (docs/tuning.md: batch).
    let own = matches!(hashed, Hashed::Own);
    let mut input = [V::zero(cpu); N];
    if own {
        let inp = io.src();
        for (j, x) in input.iter_mut().enumerate() {
            *x = V::load(cpu, &inp[vb * j..]);
        }
    }
    // Rounds first..first + N each carry one vector of hashing (asserted above),
    // schoolbook or Karatsuba as the backend chooses (`Powers::absorb`), each round a
    // straight-line copy (`unrolled!`).
    let mut sums = Sums::<V>::zero(cpu);
    let mut pending = Sums::<V>::zero(cpu);
    unrolled!(j in 0..N => {
        let k = ks.k[j + first];
        for x in s.iter_mut() {
            *x = x.aesenc(k).pin();
        }
        if let Some(src) = src {
            let mut x = if own {
                input[j]
            } else {
                V::load(cpu, &src[vb * j..])
            };
            if flavor == Flavor::Ghash {
                x = x.bswap();
            }
            if j == 0 {
                x = x.xor(a);
            }
            powers.absorb(&mut sums, &mut pending, j, x);
        }
    });
    for r in N + first..R {
        let k = ks.k[r];
        for x in s.iter_mut() {
            *x = x.aesenc(k).pin();
        }
    }
    if src.is_some() {
        a = Powers::<V, N>::reduce(sums);
    }
    let k = ks.k[R];
    for x in s.iter_mut() {
        *x = x.aesenclast(k);
    }
    if own {
        let mut io = io;
        let out = io.dst();
        for (j, (x, i)) in s.iter().zip(input.iter()).enumerate() {
            i.xor(*x).store(&mut out[vb * j..]);
        }
    } else {
        xor_vectors(io, &s);
    }
    a
}

/// A stitched batch's powers: vector j is multiplied by `h[j]`, schoolbook
/// ([`absorb_schoolbook`]), or on backends whose `Simd::STITCH_KARATSUBA` is set,
/// Karatsuba style with `kara[j]` (h.lo + h.hi in the low qword of each lane).
struct Powers<V, const N: usize> {
    h: [V; N],
    kara: [V; N],
}

impl<V: Simd, const N: usize> Powers<V, N> {
    /// The powers `h` and, where the backend multiplies Karatsuba style, their helpers.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn new(h: [V; N]) -> Self {
        // A loop, not `map`: a closure does not inherit the entry point's target features.
        let mut kara = h;
        if V::STITCH_KARATSUBA {
            for k in kara.iter_mut() {
                *k = k.xor(k.swap64());
            }
        }
        Powers { h, kara }
    }

    /// Adds vector j (of the batch) times its power into `sums`.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn absorb(&self, sums: &mut Sums<V>, pending: &mut Sums<V>, j: usize, x: V) {
        if V::STITCH_KARATSUBA {
            sums.mul_add(x, self.h[j], self.kara[j]);
        } else {
            absorb_schoolbook::<V, N>(sums, pending, j, x, self.h[j]);
        }
    }

    /// The batch's sums reduced lane by lane ([`Self::absorb`]'s form of the middle term).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn reduce(sums: Sums<V>) -> V {
        if V::STITCH_KARATSUBA {
            sums.reduce_lanes()
        } else {
            sums.reduce_lanes_true_mid()
        }
    }
}

/// Adds vector j (of a batch of N) times `h` into `sums`, schoolbook: four carry-less
/// multiplies, x·h = lo + (x.hi·h.lo + x.lo·h.hi)·z + hi·z^2, on backends where the
/// multiply is not what bounds the batch (all but avx2: `Simd::STITCH_KARATSUBA`).
/// Karatsuba's three multiplies need a qword swap and an XOR per vector to form
/// x.lo + x.hi, and its helper powers; the two cross products instead go straight into the
/// middle sum with one three-input XOR, and lo and hi are summed in pairs with
/// three-input XORs (`pending` holds an even vector's until the next odd one).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn absorb_schoolbook<V: Simd, const N: usize>(
    sums: &mut Sums<V>,
    pending: &mut Sums<V>,
    j: usize,
    x: V,
    h: V,
) {
    let (lo, hi) = (x.clmul::<0x00>(h), x.clmul::<0x11>(h));
    let (c01, c10) = (x.clmul::<0x01>(h), x.clmul::<0x10>(h));
    sums.mid = if j == 0 {
        c01.xor(c10)
    } else {
        sums.mid.xor3(c01, c10)
    };
    match j {
        1 => (sums.lo, sums.hi) = (pending.lo.xor(lo), pending.hi.xor(hi)),
        _ if j % 2 == 1 => {
            sums.lo = sums.lo.xor3(pending.lo, lo);
            sums.hi = sums.hi.xor3(pending.hi, hi);
        }
        _ if j == N - 1 => (sums.lo, sums.hi) = (sums.lo.xor(lo), sums.hi.xor(hi)),
        _ => (pending.lo, pending.hi) = (lo, hi),
    }
}

/// The batch hashed last, from memory (`src`, its N vectors), `carried` (the running
/// value in lanes) added into the first vector, times `powers` (vector j by `powers[j]`),
/// reduced lane by lane and folded.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn hash_last_batch<V: Simd, const N: usize>(
    cpu: V::Cpu,
    flavor: Flavor,
    carried: V,
    src: &[u8],
    powers: &Powers<V, N>,
) -> V::Block {
    let vb = 16 * V::LANES;
    let mut sums = Sums::<V>::zero(cpu);
    let mut pending = Sums::<V>::zero(cpu);
    for j in 0..N {
        let mut x = V::load(cpu, &src[vb * j..]);
        if flavor == Flavor::Ghash {
            x = x.bswap();
        }
        if j == 0 {
            x = x.xor(carried);
        }
        powers.absorb(&mut sums, &mut pending, j, x);
    }
    Powers::<V, N>::reduce(sums).fold_lanes()
}
