//! AES-GCM in one body per vector width (#75), every key size and every message length in
//! the same code, in place or not. Entry points per engine: a whole message per direction
//! (`whole`), a message of at most one block of AAD and of data per direction
//! (`one_block`, straight through: its fixed cost is a short message's), the hash update
//! (`hash_update`: GHASH or POLYVAL, for every hash that runs on its own), counter mode
//! alone (`ctr_xor`), and for on-line GCM and gathered parts the encrypt and decrypt
//! updates and finish. AES-GCM-SIV runs on the same body
//! (`siv_lean`): with `SIV` the counters are little-endian and the hashed blocks POLYVAL
//! elements as loaded, so neither is byte-reversed (`int_form`).
//!
//! # The body
//! - **Round keys.** Key 0 and the last ten (the nine middle rounds every key size has, and
//!   the last) are broadcast into vectors once per call. AES-192 and AES-256 run their two
//!   or four extra rounds (keys 1 to rounds - 10) first, each key read from memory as it
//!   is used, behind one loop whose bound is the (public) key size.
//! - **Counters** stay in integer form (`kernels` module docs): the block byte-reversed,
//!   so SP 800-38D's inc32 is a 32-bit lane addition that wraps exactly as inc32 does,
//!   whatever the counter's value (no branch on it: with an IV other than 96 bits, Y0 is a
//!   secret). Each vector's blocks are `LANES` consecutive counters.
//! - **Main loop**: `N` vectors (a batch of B = N·LANES blocks: 16 on avx512) per
//!   iteration. The AES rounds of the batch are interleaved with the GHASH of a batch,
//!   one vector's products per middle round: decryption hashes the batch's own ciphertext
//!   (known up front), encryption the previous batch's (the first batch is encrypted
//!   alone, the last one hashed after the loop). One reduction per iteration.
//! - **Tail** (under B blocks): one vector at a time, the last partial vector read and
//!   written with `load_partial`/`store_partial` (byte masks on AVX-512), its hashed bytes
//!   past the end zero. Block b of the k tail blocks is multiplied by H^(k-b), so the
//!   powers are read from the key's descending table at an offset given by the remaining
//!   length, the last partial vector's powers as a partial load; the products are summed
//!   unreduced and reduced once.
//! - **Finish**: the length block hashed, E(K, Y0) beside it, the tag.
//!
//! # GHASH
//! Blocks are byte-reversed into POLYVAL-order elements and multiplied by dot-powers of
//! H from `HashKey` (the field and reduction maths are in `kernels` and `field`): a batch
//! X_0..X_(B-1) with the running value Y added into X_0 gives
//!     Y' = sum_b X_b·H^(B-b)   (dot products, one Montgomery reduction),
//! each vector's four 64x64 carry-less products (schoolbook: lo, hi and the two cross
//! terms) summed lane by lane, then reduced lane by lane and the lanes folded. On avx2
//! (`Simd::STITCH_KARATSUBA`) the stitched batch multiplies Karatsuba style instead: three
//! products, the middle one (x.lo + x.hi)(h.lo + h.hi) with the key's helper, lo and hi
//! subtracted once per batch. The hash alone (`hash`) is Karatsuba on every engine.
//!
//! # Registers (avx512, 32 zmm)
//! 11 round keys, 4 powers of H (H^16..H^1, four per vector), 4 AES states, 4 vectors
//! being hashed, 3 product sums, the counter and its step: 28, with the input and
//! output vectors passing through the rest. AES-192/256's extra keys come from memory.
//!
//! # Calls
//! An update takes whole blocks, but for the message's last update, which may end in a
//! partial block. The counter (`ctr`, the next counter block) and the running GHASH value
//! (`acc`) carry from one call to the next. An update reads at most min(B, blocks of
//! the call) powers of H (`HashKey::count`); a whole message at most the blocks of its AAD
//! and data and the length block, and at most B + 1 (a tail of B blocks, then the length
//! block). `Kernels::gcm_lean` checks the key's count; `gcm::powers_for` gives derived keys
//! enough.

use super::super::simd::Simd;
use super::aes::{broadcast_key, Keys};
use super::ghash::{gcm_tag, hash_block, karatsuba_powers, Sums};
use super::unrolled;
use crate::aes::RoundKeys;
use crate::engine::{Counter, Data, Io, RoundOne};
use crate::field::{Flavor, HashKey, POWERS};

/// Round keys of any key size: key 0 and the last ten in vectors, the extra rounds'
/// keys (none for AES-128) left in memory.
pub(super) struct RoundRegs<'k, V> {
    first: V,
    /// Keys rounds - 9 to rounds: the nine middle rounds every key size has, then the last.
    last: [V; 10],
    /// Keys 1 to rounds - 10: AES-192's two and AES-256's four extra rounds.
    extra: &'k [[u8; 16]],
}

impl<'k, V: Simd> RoundRegs<'k, V> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn new(cpu: V::Cpu, rk: &'k RoundKeys) -> Self {
        let b = rk.as_blocks();
        // 10, 12 or 14 (the key size: public).
        let rounds = rk.rounds().clamp(10, 14);
        let t = &b[rounds - 9..=rounds];
        // Explicit loads, no closure: a closure would not inherit the entry point's
        // target features (`aes::keys`).
        RoundRegs {
            first: broadcast_key(cpu, &b[0]),
            last: [
                broadcast_key(cpu, &t[0]),
                broadcast_key(cpu, &t[1]),
                broadcast_key(cpu, &t[2]),
                broadcast_key(cpu, &t[3]),
                broadcast_key(cpu, &t[4]),
                broadcast_key(cpu, &t[5]),
                broadcast_key(cpu, &t[6]),
                broadcast_key(cpu, &t[7]),
                broadcast_key(cpu, &t[8]),
                broadcast_key(cpu, &t[9]),
            ],
            extra: &b[1..rounds - 9],
        }
    }

    /// From a schedule in registers (AES-GCM-SIV's per-message key, `siv::derive`): the
    /// keys broadcast from their registers; the extra rounds' keys (AES-192/256) stored in
    /// `extra`, which the caller wipes. One arm per key size, so that every index into
    /// the registers' array is a constant (a run-time index would put the array in memory).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn from_keys(
        cpu: V::Cpu,
        ek: &Keys<V::Block>,
        extra: &'k mut [[u8; 16]; 4],
    ) -> Self {
        // Keys 1 to rounds - 10: AES-192's two and AES-256's four extra ones (AES-128 has
        // none, and stores nothing).
        let (last, n) = match ek.rounds {
            10 => (broadcast_ten::<V, 10>(cpu, &ek.k), 0),
            12 => (broadcast_ten::<V, 12>(cpu, &ek.k), 2),
            _ => (broadcast_ten::<V, 14>(cpu, &ek.k), 4),
        };
        for (e, k) in extra.iter_mut().zip(&ek.k[1..]).take(n) {
            k.store(e);
        }
        let extra = &extra[..n];
        RoundRegs {
            first: V::broadcast(cpu, ek.k[0]),
            last,
            extra,
        }
    }

    /// The vectors' backend token.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn cpu(&self) -> V::Cpu {
        self.first.cpu()
    }

    /// Whitening and the extra rounds (from memory, one predictable loop).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn begin<const M: usize>(&self, s: &mut [V; M]) {
        for x in s.iter_mut() {
            *x = x.xor(self.first);
        }
        self.extra_from(s, 0);
    }

    /// The extra rounds from extra key `from` on.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn extra_from<const M: usize>(&self, s: &mut [V; M], from: usize) {
        let cpu = self.first.cpu();
        for kb in &self.extra[from.min(self.extra.len())..] {
            let k = broadcast_key::<V>(cpu, kb);
            for x in s.iter_mut() {
                *x = x.aesenc(k);
            }
        }
    }

    /// The last round.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn end<const M: usize>(&self, s: &mut [V; M]) {
        for x in s.iter_mut() {
            *x = x.aesenclast(self.last[9]);
        }
    }

    /// AES of the blocks of `s`, in place; `pinned`: each round pinned (`Simd::pin`)
    /// where it is written, so the blocks' chains interleave and are not sunk after later
    /// code (a constant at every call).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn encrypt<const M: usize>(&self, s: &mut [V; M], pinned: bool) {
        self.begin(s);
        for k in &self.last[..9] {
            for x in s.iter_mut() {
                let y = x.aesenc(*k);
                *x = if pinned { y.pin() } else { y };
            }
        }
        self.end(s);
        if pinned {
            for x in s.iter_mut() {
                *x = x.pin();
            }
        }
    }

    /// Round key 1: the first extra key (AES-192/256), else the first middle one.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn key1(&self) -> V {
        match self.extra.first() {
            Some(kb) => broadcast_key::<V>(self.first.cpu(), kb),
            None => self.last[0],
        }
    }

    /// The keys' first lanes, for one block (E(K, Y0)).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn lane0(&self) -> RoundRegs<'k, V::Block> {
        let mut last = [self.last[0].lane0(); 10];
        for (b, v) in last.iter_mut().zip(&self.last) {
            *b = v.lane0();
        }
        RoundRegs {
            first: self.first.lane0(),
            last,
            extra: self.extra,
        }
    }
}

/// Keys `R - 9` to `R` of a schedule in registers, broadcast (see `RoundRegs::from_keys`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn broadcast_ten<V: Simd, const R: usize>(cpu: V::Cpu, k: &[V::Block; 15]) -> [V; 10] {
    let mut t = [V::zero(cpu); 10];
    for (i, x) in t.iter_mut().enumerate() {
        *x = V::broadcast(cpu, k[R - 9 + i]);
    }
    t
}

/// A block or counter between its bytes and its integer (field) form: byte-reversed for
/// GCM, whose counters and GHASH blocks are big-endian; as it is with `SIV` (AES-GCM-SIV's
/// little-endian counter and POLYVAL's blocks already are). An involution.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn int_form<V: Simd, const SIV: bool>(x: V) -> V {
    if SIV {
        x
    } else {
        x.bswap()
    }
}

/// Counter blocks in integer form: `next` holds the next `LANES` counters, `step` adds
/// `LANES` to each; `low` is lane 0's 32-bit counter, kept beside `next` as an integer
/// (read only with a round-one table, for a public counter). Derived from `next` in each
/// batch instead (a vector-to-integer move), the batch loop ran 5-10 % slower
/// (docs/tuning.md).
pub(super) struct Counters<V, const SIV: bool> {
    next: V,
    step: V,
    low: u32,
}

impl<V: Simd, const SIV: bool> Counters<V, SIV> {
    /// From the next counter block (SP 800-38D's form, or RFC 8452's with `SIV`).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn new(cpu: V::Cpu, block: V::Block) -> Self {
        let int = int_form::<V::Block, SIV>(block);
        Counters {
            next: V::broadcast(cpu, int).add32(V::lane_offsets(cpu)),
            step: V::splat_dword0(cpu, V::LANES as i32),
            low: int.to_u128() as u32,
        }
    }

    /// Moves every counter one block on (from Y0 to the first data block).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn skip_one(&mut self) {
        self.next = self.next.add32(V::splat_dword0(self.next.cpu(), 1));
        self.low = self.low.wrapping_add(1);
    }

    /// The next `M` vectors of counter blocks, ready for AES.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn take<const M: usize>(&mut self) -> [V; M] {
        let mut s = [self.next; M];
        for x in s.iter_mut() {
            *x = int_form::<V, SIV>(self.next);
            self.next = self.next.add32(self.step);
        }
        self.low = self.low.wrapping_add((M * V::LANES) as u32);
        s
    }
}

/// A batch's counter blocks after AES rounds 0 and 1 from the key's round-one table
/// (`engine::RoundOne` derives it: round 1 of block B xor v·e15, v its last byte, is
/// AESENC(B xor k0, k1) xor T[v]): the kept first term xor a table row, one XOR per
/// vector in place of the whitening, a round and the counter's byte swap. Branches on the
/// counter and reads the table at an index made from it: only for a public counter (a
/// 96-bit IV's).
struct RoundOneRun<'t, V> {
    table: &'t RoundOne,
    /// AESENC(B xor k0, k1) for the current B (the block with its last byte zero), in
    /// every lane; made when the counter above its last byte was `base_hi`.
    base: V,
    base_hi: Option<u32>,
}

impl<'t, V: Simd> RoundOneRun<'t, V> {
    /// The next `N` vectors after round 1, or `None` when the batch carries out of the
    /// counter's last byte (the caller runs the rounds).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn take<const N: usize, const SIV: bool>(
        &mut self,
        k: &RoundRegs<'_, V>,
        c: &mut Counters<V, SIV>,
    ) -> Option<[V; N]> {
        let cpu = k.first.cpu();
        let blocks = N * V::LANES;
        let low = c.low;
        let v = (low & 0xff) as usize;
        if v + blocks > 0x100 {
            return None;
        }
        if self.base_hi != Some(low >> 8) {
            let first = V::broadcast(cpu, int_form::<V, SIV>(c.next).lane0());
            let b = first.and(V::from_u128(cpu, !(0xff << 120)));
            self.base = b.xor(k.first).aesenc(k.key1());
            self.base_hi = Some(low >> 8);
        }
        let row = &self.table.t[v..v + blocks];
        let mut s = [self.base; N];
        for (j, x) in s.iter_mut().enumerate() {
            *x = self.base.xor(V::load_elems(cpu, &row[j * V::LANES..]));
        }
        c.next = c.next.add32(V::splat_dword0(cpu, blocks as i32));
        c.low = c.low.wrapping_add(blocks as u32);
        Some(s)
    }
}

/// x·h lane by lane, unreduced: the four 64x64 products, the cross terms summed.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn product<V: Simd>(x: V, h: V) -> Sums<V> {
    Sums {
        lo: x.clmul::<0x00>(h),
        hi: x.clmul::<0x11>(h),
        mid: x.clmul::<0x01>(h).xor(x.clmul::<0x10>(h)),
    }
}

/// The powers H^B..H^1 of a whole batch (B = N·LANES), `LANES` per vector.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn batch_powers<V: Simd, const N: usize>(cpu: V::Cpu, key: &HashKey) -> [V; N] {
    let first = POWERS - N * V::LANES;
    let mut pw = [V::zero(cpu); N];
    for (j, p) in pw.iter_mut().enumerate() {
        *p = V::load_elems(cpu, &key.desc[first + V::LANES * j..]);
    }
    pw
}

/// The powers from the key's descending table entry `from` on, one per lane; lanes past
/// the table's end zero (they meet zero blocks).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn powers_at<V: Simd>(cpu: V::Cpu, key: &HashKey, from: usize) -> V {
    powers_of::<V>(cpu, &key.desc[from.min(POWERS)..])
}

/// [`powers_at`] and the powers' Karatsuba helpers (the key's `kara`, at the same place).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn karatsuba_at<V: Simd>(cpu: V::Cpu, key: &HashKey, from: usize) -> (V, V) {
    let from = from.min(POWERS);
    (
        powers_of::<V>(cpu, &key.desc[from..]),
        powers_of::<V>(cpu, &key.kara[from..]),
    )
}

/// The first powers of `rest` (a tail of the key's descending table), one per lane;
/// lanes past its end zero.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn powers_of<V: Simd>(cpu: V::Cpu, rest: &[u128]) -> V {
    if rest.len() >= V::LANES {
        V::load_elems(cpu, rest)
    } else {
        V::load_elems_partial(cpu, rest)
    }
}

/// AES of the counter blocks `s` with the GHASH products of `g` by the powers `pw`
/// interleaved, one vector's products per middle round (pinned, so the compiler keeps the
/// chains round by round). Returns the unreduced sums: schoolbook, or with
/// `Simd::STITCH_KARATSUBA` Karatsuba products with the powers' helpers `pk` (their
/// `mid` not yet corrected: `Sums::reduce`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn stitched<V: Simd, const N: usize>(
    k: &RoundRegs<'_, V>,
    s: &mut [V; N],
    g: &[V; N],
    (pw, pk): (&[V; N], &[V; N]),
    one_done: bool,
) -> Sums<V> {
    // After the round-one table, round 1 is the first extra round (AES-192/256) or the
    // first middle one (AES-128).
    if one_done {
        k.extra_from(s, 1);
    } else {
        k.begin(s);
    }
    let skip_first_middle = one_done && k.extra.is_empty();
    let mut sums = Sums::<V>::zero(k.first.cpu());
    unrolled!(r in 0..9 => {
        if r > 0 || !skip_first_middle {
            for x in s.iter_mut() {
                *x = x.aesenc(k.last[r]).pin();
            }
        }
        if r < N {
            if V::STITCH_KARATSUBA {
                sums.mul_add(g[r], pw[r], pk[r]);
            } else {
                sums.add(product(g[r], pw[r]));
            }
        }
    });
    k.end(s);
    sums
}

/// Counter mode over `data` from the counter block `ctr`, its ciphertext (the input
/// when `DECRYPT`, else the output) absorbed into the GHASH value `acc`; `ctr` becomes the
/// next counter block. See the module docs for the calls' rules.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn update<V: Simd, const N: usize, const DECRYPT: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    ctr: &mut [u8; 16],
    acc: &mut u128,
    data: Data<'_>,
) {
    let k = RoundRegs::<V>::new(cpu, rk);
    let bc = V::block_cpu(cpu);
    let mut c = Counters::<V, false>::new(cpu, V::Block::load_halves(bc, ctr));
    let a = V::Block::from_u128(bc, *acc);
    let blocks = data.len().div_ceil(16);
    let a = crypt::<V, N, DECRYPT, false>(&k, key, &mut c, a, Io::new(data), None, None);
    *acc = a.to_u128();
    // The counters advance a vector at a time; the next call starts after the blocks
    // used (inc32 wraps as the kernel's lane additions do).
    *ctr = crate::engine::Counter::Be32.add(ctr, blocks as u32);
}

/// Counter mode alone over `data` in place from the counter block `block` (GCM's
/// big-endian inc32, or AES-GCM-SIV's little-endian one for `Counter::Le32`); returns the
/// next counter block. The counter's value may be secret (a non-96-bit IV's Y0): nothing
/// branches on it.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn ctr_xor<V: Simd, const N: usize>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    kind: Counter,
    block: [u8; 16],
    data: &mut [u8],
) -> [u8; 16] {
    let k = RoundRegs::<V>::new(cpu, rk);
    let first = V::Block::load_halves(V::block_cpu(cpu), &block);
    let blocks = data.len().div_ceil(16);
    let io = Io::new(Data::InPlace(data));
    match kind {
        Counter::Le32 => ctr::<V, N, true>(&k, &mut Counters::new(cpu, first), io),
        Counter::Be32 | Counter::Be32Public => {
            ctr::<V, N, false>(&k, &mut Counters::new(cpu, first), io)
        }
    }
    kind.add(&block, blocks as u32)
}

/// Counter mode alone (AES-GCM-SIV encryption's second pass, after the tag, and
/// [`ctr_xor`]): batches of `N` vectors, then one vector at a time, the last partial
/// vector read and written with `load_tail`/`store_tail`.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn ctr<V: Simd, const N: usize, const SIV: bool>(
    k: &RoundRegs<'_, V>,
    c: &mut Counters<V, SIV>,
    mut io: Io<'_>,
) {
    let cpu = k.cpu();
    let len = io.len();
    let vb = 16 * V::LANES;
    let mut at = 0;
    if N > 0 {
        while len - at >= N * vb {
            let mut s = c.take::<N>();
            k.encrypt(&mut s, false);
            let mut out = io.load_run::<V, N>(cpu, at);
            for (o, x) in out.iter_mut().zip(&s) {
                *o = o.xor(*x);
            }
            io.store_run(at, &out);
            at += N * vb;
        }
    }
    while len - at >= vb {
        let [mut s] = c.take::<1>();
        k.encrypt(core::array::from_mut(&mut s), false);
        let out = io.load::<V>(cpu, at).xor(s);
        io.store(at, out);
        at += vb;
    }
    if at < len {
        let [mut s] = c.take::<1>();
        k.encrypt(core::array::from_mut(&mut s), false);
        let out = io.load_tail::<V>(cpu, at).xor(s);
        io.store_tail(at, out);
    }
}

/// Whole AES-GCM from Y0 (its 16 bytes as a little-endian integer): the AAD, the data
/// from the block after Y0 with the length block hashed in the same final reduction,
/// E(K, Y0) beside them. Returns the full tag. The AAD comes as the GHASH value `a0` of
/// what the caller hashed (`hash_update`: an AAD over [`AAD_INLINE`] bytes) and the
/// bytes `aad` still to hash, at most [`AAD_INLINE`], here one block at a time; `aad_len`
/// is its whole length. (The batched hash inlined here was 2.3-3.9 KB of each entry
/// point: docs/tuning.md.) With `round_one` (the key's table; only for a public Y0, a
/// 96-bit IV's), the batches start one AES round in. Every length runs the engine's own
/// vectors (a short message's copy of the body on single-block vectors measured slower
/// than the wide one once `one_block` took the one-block messages: docs/tuning.md).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
#[allow(clippy::too_many_arguments)] // the AAD's three parts
pub(crate) fn whole<V: Simd, const N: usize, const DECRYPT: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    y0: u128,
    a0: u128,
    aad: &[u8],
    aad_len: usize,
    data: Data<'_>,
    round_one: Option<&RoundOne>,
) -> [u8; 16] {
    let k = RoundRegs::<V>::new(cpu, rk);
    let bc = V::block_cpu(cpu);
    let y0 = V::Block::from_u128_computed(bc, y0);
    // E(K, Y0) first: an AES chain of its own, which the core overlaps with the rest.
    let mut m = [y0];
    k.lane0().encrypt(&mut m, false);
    let mut c = Counters::<V, false>::new(cpu, y0);
    c.skip_one();
    let mut a = V::Block::from_u128(bc, a0);
    for x in aad.chunks(16) {
        let x = if x.len() == 16 {
            V::Block::load(bc, x)
        } else {
            V::Block::load_partial(bc, x)
        };
        a = hash_block(key, a, x.bswap());
    }
    let io = Io::new(data);
    let lengths = length_block(bc, aad_len, io.len());
    let a = crypt::<V, N, DECRYPT, false>(&k, key, &mut c, a, io, Some(lengths), round_one);
    gcm_tag(a, m[0]).to_bytes()
}

/// Largest AAD [`whole`] hashes itself, one block at a time; a longer one the caller
/// hashes first (`Kernels::gcm_lean`, through the hash update's batches).
pub(crate) const AAD_INLINE: usize = 64;

/// [`whole`] for at most one block of AAD and one of data, straight through: Y0 and Y1
/// encrypted together, the (at most three) hashed blocks, the length block last,
/// multiplied by H^n..H^1 and reduced once. The fixed cost of a short message: no loop,
/// no AAD pass of its own.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn one_block<V: Simd, const DECRYPT: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    y0: u128,
    aad: &[u8],
    data: Data<'_>,
) -> [u8; 16] {
    let cpu = V::block_cpu(cpu);
    let k = RoundRegs::<V::Block>::new(cpu, rk);
    let y0 = V::Block::from_u128_computed(cpu, y0);
    let mut c = Counters::<V::Block, false>::new(cpu, y0);
    c.skip_one();
    let [y1] = c.take::<1>();
    let mut s = [y0, y1];
    k.encrypt(&mut s, true);
    let mut io = Io::new(data);
    let len = io.len();
    // Blocks hashed: the AAD's and the data's (when not empty), then the length block.
    let n = usize::from(!aad.is_empty()) + usize::from(len > 0) + 1;
    let mut at = POWERS - n;
    let mut sums = Sums::<V::Block>::zero(cpu);
    if !aad.is_empty() {
        let x = if aad.len() == 16 {
            V::Block::load(cpu, aad)
        } else {
            V::Block::load_partial(cpu, aad)
        };
        sums.add(product(x.bswap(), powers_at::<V::Block>(cpu, key, at)));
        at += 1;
    }
    if len > 0 {
        let (inp, out) = if len == 16 {
            let inp = io.load::<V::Block>(cpu, 0);
            let out = inp.xor(s[1]);
            io.store(0, out);
            (inp, out)
        } else {
            let inp = io.load_tail::<V::Block>(cpu, 0);
            let out = inp.xor(s[1]);
            io.store_tail(0, out);
            // Past the end, `out` holds keystream: hash zeros there.
            (inp, out.keep_bytes(len))
        };
        let hashed = if DECRYPT { inp } else { out };
        sums.add(product(hashed.bswap(), powers_at::<V::Block>(cpu, key, at)));
    }
    let l = length_block::<V::Block>(cpu, aad.len(), len);
    sums.add(product(l, powers_at::<V::Block>(cpu, key, POWERS - 1)));
    gcm_tag(sums.reduce_true_mid(), s[0]).to_bytes()
}

/// The length block of `aad_len` and `data_len` bytes as a GHASH element (its
/// big-endian integer).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn length_block<B: Simd>(cpu: B::Cpu, aad_len: usize, data_len: usize) -> B {
    let bits = |n: usize| u128::from((n as u64).wrapping_mul(8));
    B::from_u128_computed(cpu, (bits(aad_len) << 64) | bits(data_len))
}

/// The counter-mode and GHASH pass of [`update`] and [`whole`] from the GHASH value `a`;
/// returns the new value. With `lengths`, the length block is hashed after the data, in
/// the tail's one reduction.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn crypt<V: Simd, const N: usize, const HASH_INPUT: bool, const SIV: bool>(
    k: &RoundRegs<'_, V>,
    key: &HashKey,
    c: &mut Counters<V, SIV>,
    mut a: V::Block,
    mut io: Io<'_>,
    lengths: Option<V::Block>,
    round_one: Option<&RoundOne>,
) -> V::Block {
    let cpu = k.first.cpu();
    let len = io.len();
    let vb = 16 * V::LANES;
    let batch = N * vb;
    let mut at = 0;
    if N > 0 && len >= batch {
        // With Karatsuba products in the stitched rounds, the powers' helpers too.
        let (pw, pk) = if V::STITCH_KARATSUBA {
            karatsuba_powers::<V, N>(cpu, key)
        } else {
            (batch_powers::<V, N>(cpu, key), [V::zero(cpu); N])
        };
        // Encryption: the previous batch's ciphertext, as field elements.
        let mut pending = [V::zero(cpu); N];
        if !HASH_INPUT {
            let mut s = c.take::<N>();
            k.encrypt(&mut s, false);
            let mut out = io.load_run::<V, N>(cpu, 0);
            for ((o, x), p) in out.iter_mut().zip(&s).zip(pending.iter_mut()) {
                *o = o.xor(*x);
                *p = int_form::<V, SIV>(*o);
            }
            io.store_run(0, &out);
            at = batch;
        }
        let mut table = round_one.map(|table| RoundOneRun {
            table,
            base: V::zero(cpu),
            base_hi: None,
        });
        while len - at >= batch {
            // (A round-one table comes only with GCM's counters.)
            let from_table = match (table.as_mut(), SIV) {
                (Some(t), false) => t.take::<N, SIV>(k, c),
                _ => None,
            };
            let one_done = from_table.is_some();
            let mut s = match from_table {
                Some(s) => s,
                None => c.take::<N>(),
            };
            // Decryption hashes its input, read up front; encryption reads it after the
            // rounds (not held across them: with 16 registers it was spilled and reloaded).
            let mut g = pending;
            if HASH_INPUT {
                let inp = io.load_run::<V, N>(cpu, at);
                for (x, i) in g.iter_mut().zip(&inp) {
                    *x = int_form::<V, SIV>(*i);
                }
            }
            g[0] = g[0].xor(V::from_lane0(cpu, a));
            let sums = stitched(k, &mut s, &g, (&pw, &pk), one_done);
            let mut out = io.load_run::<V, N>(cpu, at);
            for ((o, x), p) in out.iter_mut().zip(&s).zip(pending.iter_mut()) {
                *o = o.xor(*x);
                if !HASH_INPUT {
                    *p = int_form::<V, SIV>(*o);
                }
            }
            io.store_run(at, &out);
            a = if V::STITCH_KARATSUBA {
                sums.reduce()
            } else {
                sums.reduce_true_mid()
            };
            at += batch;
        }
        if !HASH_INPUT {
            pending[0] = pending[0].xor(V::from_lane0(cpu, a));
            let mut sums = Sums::<V>::zero(cpu);
            for (x, p) in pending.iter().zip(&pw) {
                sums.add(product(*x, *p));
            }
            a = sums.reduce_true_mid();
        }
    }
    if at == len && lengths.is_none() {
        return a;
    }
    // Under a batch: one vector at a time, block b of the k left (the length block
    // counted) multiplied by H^(k-b), all products reduced once. `powers` runs along the
    // key's descending table from H^k; whole vectors first (each leaves at least one
    // block after it, so a whole vector of powers), then the last, whole or partial.
    let blocks = (len - at).div_ceil(16) + usize::from(lengths.is_some());
    let mut powers = &key.desc[POWERS - blocks..];
    let mut sums = Sums::<V>::zero(cpu);
    let mut carry = V::from_lane0(cpu, a);
    while len - at > vb {
        let mut s = c.take::<1>();
        k.encrypt(&mut s, false);
        let inp = io.load::<V>(cpu, at);
        let out = inp.xor(s[0]);
        io.store(at, out);
        let hashed = if HASH_INPUT { inp } else { out };
        sums.add(product(
            int_form::<V, SIV>(hashed).xor(carry),
            V::load_elems(cpu, powers),
        ));
        powers = &powers[V::LANES..];
        carry = V::zero(cpu);
        at += vb;
    }
    if at < len {
        let rest = len - at;
        let mut s = c.take::<1>();
        k.encrypt(&mut s, false);
        let hashed = if rest == vb {
            let inp = io.load::<V>(cpu, at);
            let out = inp.xor(s[0]);
            io.store(at, out);
            if HASH_INPUT {
                inp
            } else {
                out
            }
        } else {
            let inp = io.load_tail::<V>(cpu, at);
            let out = inp.xor(s[0]);
            io.store_tail(at, out);
            // Past the end, `out` holds keystream: hash zeros there.
            if HASH_INPUT {
                inp
            } else {
                out.keep_bytes(rest)
            }
        };
        // Lanes past the table's end meet zero blocks.
        sums.add(product(
            int_form::<V, SIV>(hashed).xor(carry),
            powers_of::<V>(cpu, powers),
        ));
        carry = V::zero(cpu);
    }
    if let Some(l) = lengths {
        // H^1 in lane 0 (the rest of the load zero); the accumulator rides here when
        // no data block took it.
        let x = V::from_lane0(cpu, l).xor(carry);
        sums.add(product(x, powers_at::<V>(cpu, key, POWERS - 1)));
    }
    sums.reduce_true_mid()
}

/// Absorbs `data` (the last block zero-padded) into `acc` under `key`'s flavor (GHASH, or
/// POLYVAL): the update of every hash that runs on its own (GMAC, the universal hashes,
/// GCM-SIV (2015), an IV's GHASH, incremental and on-line GCM).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn hash_update<V: Simd, const N: usize>(
    cpu: V::Cpu,
    key: &HashKey,
    acc: &mut u128,
    data: &[u8],
) {
    // The flavor matched once, outside the loops, so each loop has it as a constant.
    match key.flavor {
        Flavor::Ghash => update_as::<V, N, false>(cpu, key, acc, data),
        Flavor::Polyval => update_as::<V, N, true>(cpu, key, acc, data),
    }
}

/// Largest input (bytes) [`hash_update`] hashes one block at a time.
const HASH_SHORT: usize = 64;

/// [`hash_update`] for the flavor given as `SIV`. A key holding fewer powers than a batch
/// and than the data's blocks (a derived key's: `gcm::powers_for`, GCM-SIV (2015)'s) takes
/// the data in runs of as many blocks as it has powers, each run one tail of [`hash`]
/// (one call site: the usual key's one run is the whole data).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn update_as<V: Simd, const N: usize, const SIV: bool>(
    cpu: V::Cpu,
    key: &HashKey,
    acc: &mut u128,
    data: &[u8],
) {
    let blocks = data.len().div_ceil(16);
    let bc = V::block_cpu(cpu);
    let mut a = V::Block::from_u128(bc, *acc);
    // Up to `HASH_SHORT` bytes one block at a time without the batch loop (on the
    // single-block vectors, as `whole` runs short messages): a vector's partial loads
    // and lane fold, and the batch loop's set-up, cost more than the blocks (GHASH and
    // POLYVAL at 16 and 64 B through the vector loop: 0.64-0.89x the old kernels' GB/s;
    // docs/tuning.md: `gcm_lean::HASH_SHORT`).
    if data.len() <= HASH_SHORT && key.count >= blocks {
        a = hash::<V::Block, 0, SIV>(bc, key, a, data, None);
    } else {
        let run = if key.count >= blocks.min(N * V::LANES) {
            data.len()
        } else {
            16 * key.count
        };
        for piece in data.chunks(run.max(1)) {
            a = hash::<V, N, SIV>(cpu, key, a, piece, None);
        }
    }
    *acc = a.to_u128();
}

/// GHASH (POLYVAL with `SIV`) of `data` (the last block zero-padded) from the value `a`,
/// then of `lengths` (an element) if given: batches of B blocks with one reduction each,
/// then the rest one vector at a time with one reduction.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn hash<V: Simd, const N: usize, const SIV: bool>(
    cpu: V::Cpu,
    key: &HashKey,
    mut a: V::Block,
    data: &[u8],
    lengths: Option<V::Block>,
) -> V::Block {
    let len = data.len();
    let vb = 16 * V::LANES;
    let batch = N * vb;
    let mut at = 0;
    if N > 0 && len >= batch {
        // The running value kept lane by lane (its lanes sum to it) and multiplied by
        // H^B in every lane: A' = A·H^B + sum_j X_j·P_j, reduced lane by lane, the lanes
        // folded once after the loop. The chain from batch to batch is then one multiply
        // and a reduction; with the value folded into block 0 each batch it also held the
        // fold and the first vector's products (docs/tuning.md: `gcm_lean::hash` running
        // value lane by lane).
        // Karatsuba products (three carry-less multiplies, the key's helpers), not the
        // stitched pass's schoolbook four: with no AES beside them the multiplies are the
        // bound (docs/tuning.md: `gcm_lean::hash` Karatsuba products).
        let (pw, pk) = karatsuba_powers::<V, N>(cpu, key);
        // H^B: vector 0's lane 0.
        let hb = V::broadcast(cpu, pw[0].lane0());
        let hbk = V::broadcast(cpu, pk[0].lane0());
        let mut acc = V::from_lane0(cpu, a);
        while len - at >= batch {
            let mut sums = Sums::product(acc, hb, hbk);
            for (j, (p, k)) in pw.iter().zip(&pk).enumerate() {
                let x = int_form::<V, SIV>(V::load(cpu, &data[at + vb * j..]));
                sums.mul_add(x, *p, *k);
            }
            acc = sums.reduce_lanes();
            at += batch;
        }
        a = acc.fold_lanes();
    }
    if at < len || lengths.is_some() {
        let blocks = (len - at).div_ceil(16) + usize::from(lengths.is_some());
        let first_power = POWERS - blocks;
        // Karatsuba here too, so the function has one product form (its 64-byte speed
        // measured the same either way: docs/tuning.md, `gcm_lean::hash` Karatsuba).
        let mut sums = Sums::<V>::zero(cpu);
        let mut carry = V::from_lane0(cpu, a);
        let mut b = 0;
        while at < len {
            let rest = len - at;
            let x = if rest >= vb {
                V::load(cpu, &data[at..])
            } else {
                V::load_partial(cpu, &data[at..])
            };
            let (p, pk) = karatsuba_at::<V>(cpu, key, first_power + b);
            sums.mul_add(int_form::<V, SIV>(x).xor(carry), p, pk);
            carry = V::zero(cpu);
            at += vb.min(rest);
            b += V::LANES;
        }
        if let Some(l) = lengths {
            // H^1 in lane 0; the running value rides here when no data block took it.
            let x = V::from_lane0(cpu, l).xor(carry);
            let (h, hk) = karatsuba_at::<V>(cpu, key, POWERS - 1);
            sums.mul_add(x, h, hk);
        }
        a = sums.reduce();
    }
    a
}

/// The full tag: the length block of `aad_len` and `data_len` bytes absorbed into `acc`,
/// xor E(K, Y0).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn finish<V: Simd>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    y0: &[u8; 16],
    acc: u128,
    aad_len: usize,
    data_len: usize,
) -> [u8; 16] {
    let bc = V::block_cpu(cpu);
    let k = RoundRegs::<V::Block>::new(bc, rk);
    let mut m = [V::Block::load_halves(bc, y0)];
    k.encrypt(&mut m, false);
    let s = hash_block(
        key,
        V::Block::from_u128(bc, acc),
        length_block(bc, aad_len, data_len),
    );
    gcm_tag(s, m[0]).to_bytes()
}

/// The one-body kernels against the portable engine, on every hardware engine this CPU
/// has: every key size, lengths across
/// every vector, batch and tail boundary, AAD lengths likewise, counters that wrap,
/// in place and not, both directions, and the same message cut into updates of whole
/// blocks.
#[cfg(all(test, feature = "std"))]
mod tests {
    use super::super::hardware;
    use crate::engine::{Counter, Data, Kernels};
    use crate::gcm::GcmKey;
    use crate::testing::{bytes, lengths_around};

    /// Lengths around every boundary: blocks, vectors (1, 2, 4 blocks), batches (8 and
    /// 16 blocks) and two batches.
    fn lengths() -> std::vec::Vec<usize> {
        lengths_around(&[0, 16, 32, 48, 64, 128, 256, 384, 512, 1024, 4096])
    }

    /// An engine's whole-message tag and output through `Kernels::gcm_message` (`y0`
    /// taken as a secret counter, so no kernel branches on it): on the portable engine,
    /// the reference.
    fn whole(
        k: Kernels,
        key: &GcmKey,
        y0: &[u8; 16],
        aad: &[u8],
        buf: &mut [u8],
        dec: bool,
    ) -> [u8; 16] {
        let data = Data::InPlace(buf);
        k.gcm_message(&key.aes, &key.h, y0, Counter::Be32, aad, data, dec, None)
    }

    #[test]
    fn lean_matches_portable() {
        let mut seed = 1u64;
        for k in hardware() {
            for key_len in [16, 24, 32] {
                let key_bytes = bytes(key_len, seed);
                let key = GcmKey::new(&key_bytes, k).unwrap();
                let portable = GcmKey::new(&key_bytes, Kernels::Portable).unwrap();
                // The key's round-one table (engines that start batches from one).
                let key_table = k.round_one(&key.aes);
                for len in lengths() {
                    for aad_len in [0usize, 1, 16, 17, 64, 255, 256, 257, 600] {
                        seed += 1;
                        let mut y0: [u8; 16] = bytes(16, seed).try_into().unwrap();
                        // Every fourth message starts its counter a few blocks before the
                        // 32-bit wrap.
                        if seed.is_multiple_of(4) {
                            y0[12..]
                                .copy_from_slice(&(u32::MAX - (seed % 40) as u32).to_be_bytes());
                        }
                        // Half the messages start their batches from the table (the
                        // random counters' last bytes carry within some batches).
                        let table = key_table.as_deref().filter(|_| seed % 2 == 1);
                        let aad = bytes(aad_len, seed + 7);
                        let pt = bytes(len, seed + 9);
                        let mut want = pt.clone();
                        let want_tag =
                            whole(Kernels::Portable, &portable, &y0, &aad, &mut want, false);
                        let lean = |data: Data<'_>, dec: bool| {
                            let y0 = u128::from_le_bytes(y0);
                            k.gcm_lean(&key.aes, &key.h, y0, &aad, data, dec, table)
                        };
                        // Encrypt in place and into a separate buffer.
                        let mut ct = pt.clone();
                        let tag = lean(Data::InPlace(&mut ct), false);
                        assert_eq!(
                            tag,
                            Some(want_tag),
                            "{k:?} AES-{} len {len} aad {aad_len}",
                            8 * key_len
                        );
                        assert_eq!(ct, want, "{k:?} len {len} aad {aad_len}");
                        let mut out = std::vec![0u8; len];
                        let tag = lean(Data::Copy(&pt, &mut out), false);
                        assert_eq!((tag, &out), (Some(want_tag), &want));
                        // Decrypt both ways: the plaintext back, the same tag.
                        let tag = lean(Data::InPlace(&mut ct), true);
                        assert_eq!((tag, &ct), (Some(want_tag), &pt));
                        let tag = lean(Data::Copy(&want, &mut out), true);
                        assert_eq!((tag, &out), (Some(want_tag), &pt));
                    }
                }
            }
        }
    }

    /// Updates of whole blocks carry the counter and the hash: any cut gives the
    /// one-call result, on every engine (the portable one's updates too: on-line GCM and
    /// gathered parts run them there).
    #[test]
    fn updates_in_pieces_equal_one_call() {
        for k in hardware().into_iter().chain([Kernels::Portable]) {
            let key = GcmKey::new(&bytes(32, 5), k).unwrap();
            let y0: [u8; 16] = bytes(16, 6).try_into().unwrap();
            let (aad, pt) = (bytes(700, 7), bytes(3000, 8));
            let mut one = pt.clone();
            let want = whole(k, &key, &y0, &aad, &mut one, false);
            for cut in [16usize, 48, 64, 256, 272, 1024, 1600] {
                let mut acc = 0u128;
                for piece in aad.chunks(cut) {
                    k.hash_update(&key.h, &mut acc, piece);
                    if piece.len() % 16 != 0 {
                        break;
                    }
                }
                let mut ctr = Counter::Be32.add(&y0, 1);
                let mut ct = pt.clone();
                for piece in ct.chunks_mut(cut) {
                    k.gcm_update_seal(&key.aes, &key.h, &mut ctr, &mut acc, Data::InPlace(piece));
                }
                let tag = k.gcm_finish(&key.aes, &key.h, &y0, acc, aad.len(), pt.len());
                assert_eq!((tag, &ct), (want, &one), "{k:?} pieces of {cut}");
                // Decryption in the same pieces, out of place: the plaintext back and the
                // same tag (GHASH over the ciphertext input).
                let mut acc = 0u128;
                for piece in aad.chunks(cut) {
                    k.hash_update(&key.h, &mut acc, piece);
                    if piece.len() % 16 != 0 {
                        break;
                    }
                }
                let mut ctr = Counter::Be32.add(&y0, 1);
                let mut back = vec![0u8; pt.len()];
                for (src, dst) in one.chunks(cut).zip(back.chunks_mut(cut)) {
                    k.gcm_update_open(&key.aes, &key.h, &mut ctr, &mut acc, Data::Copy(src, dst));
                }
                let tag = k.gcm_finish(&key.aes, &key.h, &y0, acc, aad.len(), pt.len());
                assert_eq!(
                    (tag, &back),
                    (want, &pt),
                    "{k:?} decrypted in pieces of {cut}"
                );
            }
        }
    }

    /// `hash_update` (every hash that runs on its own) with GHASH and POLYVAL keys of 1 to
    /// B + 2 powers (a derived key's few, taken in runs of its powers; a batch's and
    /// more, in batches) equals the portable engine's, at lengths around the block and
    /// batch boundaries, from a nonzero running value.
    #[test]
    fn hash_update_with_any_powers_matches_portable() {
        use crate::field::{Flavor, HashKey};
        for k in hardware() {
            let b = k.lean_blocks();
            let h: [u8; 16] = bytes(16, 21).try_into().unwrap();
            for flavor in [Flavor::Ghash, Flavor::Polyval] {
                for powers in 1..=b + 2 {
                    let key = HashKey::with_powers(&h, flavor, powers);
                    for len in [0, 1, 15, 16, 17, 16 * b - 1, 16 * b, 16 * b + 1, 48 * b + 5] {
                        let data = bytes(len, len as u64 + 3);
                        let (mut want, mut got) = (5u128 << 70, 5u128 << 70);
                        Kernels::Portable.hash_update(&key, &mut want, &data);
                        k.hash_update(&key, &mut got, &data);
                        assert_eq!(got, want, "{k:?} {flavor:?} {powers} powers, {len} B");
                    }
                }
            }
        }
    }

    /// A key holding fewer than `POWERS` powers of H (a derived key's:
    /// `gcm::powers_for`): the call declines it (`None`) or is right, and never declines a
    /// key with a batch's powers and one more; `Kernels::gcm_message`, which runs a
    /// declined message as two passes, is right for every key. Lengths:
    /// one-block messages with and without AAD, messages under a batch, and tails of
    /// 0, 1, B - 1 and B blocks after whole batches (B blocks, then the length block: the
    /// most powers a call reads).
    #[test]
    fn keys_with_few_powers() {
        for k in hardware() {
            let b = k.lean_blocks();
            let key_bytes = bytes(16, 11);
            let y0 = [3u8; 16];
            let portable = GcmKey::new(&key_bytes, Kernels::Portable).unwrap();
            let lens = [
                0,
                1,
                16,
                17,
                100,
                16 * b - 1,
                16 * b,
                32 * b + 1,
                48 * b - 16,
                48 * b - 15,
                48 * b - 1,
            ];
            for len in lens {
                for aad_len in [0, 5, 16, 17, 16 * b + 3] {
                    let aad = bytes(aad_len, 13);
                    let mut want = bytes(len, 12);
                    let want_tag = whole(Kernels::Portable, &portable, &y0, &aad, &mut want, false);
                    for powers in 1..=b + 2 {
                        let mut key = GcmKey::empty(k);
                        key.fill(&key_bytes, powers).unwrap();
                        let lean = |data: Data<'_>, dec: bool| {
                            let y0 = u128::from_le_bytes(y0);
                            k.gcm_lean(&key.aes, &key.h, y0, &aad, data, dec, None)
                        };
                        let what = format!("{k:?} {len} B, AAD {aad_len} B, {powers} powers");
                        let mut ct = bytes(len, 12);
                        match lean(Data::InPlace(&mut ct), false) {
                            Some(tag) => assert_eq!((tag, &ct), (want_tag, &want), "{what}"),
                            None => assert!(powers <= b, "declined: {what}"),
                        }
                        let mut ct = bytes(len, 12);
                        let tag = whole(k, &key, &y0, &aad, &mut ct, false);
                        assert_eq!((tag, &ct), (want_tag, &want), "gcm_message: {what}");
                        let mut pt = want.clone();
                        let tag = whole(k, &key, &y0, &aad, &mut pt, true);
                        let back = (tag, pt);
                        assert_eq!(back, (want_tag, bytes(len, 12)), "gcm_message: {what}");
                        let mut pt = want.clone();
                        match lean(Data::InPlace(&mut pt), true) {
                            Some(tag) => {
                                assert_eq!((tag, pt), (want_tag, bytes(len, 12)), "{what}")
                            }
                            None => assert!(powers <= b, "declined: {what}"),
                        }
                    }
                }
            }
        }
    }
}
