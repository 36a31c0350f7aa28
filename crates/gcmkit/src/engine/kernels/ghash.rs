//! GHASH and POLYVAL by carry-less multiplication: Karatsuba products summed unreduced,
//! one Montgomery reduction per batch (the math is in `kernels/mod.rs`), the powers of H
//! by doubling, and whole-buffer hashing in batches of up to MAXW blocks.

use super::super::message_key::MessageKey;
use super::super::simd::{wipe_vectors, Simd};
use crate::field::{Flavor, HashKey, POWERS};

/// Unreduced sums of products.
#[derive(Clone, Copy)]
pub(super) struct Sums<V> {
    pub(super) lo: V,
    pub(super) mid: V,
    pub(super) hi: V,
}

impl<V: Simd> Sums<V> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn zero(cpu: V::Cpu) -> Self {
        Sums {
            lo: V::zero(cpu),
            mid: V::zero(cpu),
            hi: V::zero(cpu),
        }
    }

    /// The partial products of x·h lane by lane, Karatsuba style: `hk` holds
    /// h.lo xor h.hi, and `mid` is (x.lo + x.hi)(h.lo + h.hi), from which lo and hi are
    /// subtracted at reduction. Three carry-less multiplies instead of four.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn product(x: V, h: V, hk: V) -> Self {
        Sums {
            lo: x.clmul::<0x00>(h),
            hi: x.clmul::<0x11>(h),
            mid: x.xor(x.swap64()).clmul::<0x00>(hk),
        }
    }

    /// Adds x·h.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn mul_add(&mut self, x: V, h: V, hk: V) {
        self.add(Self::product(x, h, hk))
    }

    /// Adds one product.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn add(&mut self, p: Self) {
        self.lo = self.lo.xor(p.lo);
        self.mid = self.mid.xor(p.mid);
        self.hi = self.hi.xor(p.hi);
    }

    /// Montgomery reduction (module docs) of lo + mid·z + hi·z^2, lane by lane, then the
    /// XOR of the lanes (reduction is linear, so one horizontal fold serves all three
    /// parts). With fold(L) = L·z^-1 mod p:
    ///     (lo + mid·z + hi·z^2)·z^-2 = hi + fold(mid + fold(lo)),
    /// two multiplies by K, two qword swaps and two three-input XORs.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn reduce(self) -> V::Block {
        // Karatsuba: the true middle term is mid - lo - hi.
        let mid = self.mid.xor3(self.lo, self.hi);
        Sums { mid, ..self }.reduce_true_mid()
    }

    /// [`Self::reduce`] of sums whose `mid` is already the true middle term (schoolbook
    /// products: the sum of the two cross products, no Karatsuba correction).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn reduce_true_mid(self) -> V::Block {
        self.reduce_lanes_true_mid().fold_lanes()
    }

    /// [`Self::reduce`] without the fold: each lane's own reduced product.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn reduce_lanes(self) -> V {
        let mid = self.mid.xor3(self.lo, self.hi);
        Sums { mid, ..self }.reduce_lanes_true_mid()
    }

    /// Each lane's reduced product from sums with the true middle term.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn reduce_lanes_true_mid(self) -> V {
        // K = x^63 + x^62 + x^57 in the low qword of every lane.
        let k = V::from_u128(self.lo.cpu(), 0xc200_0000_0000_0000);
        let m = self.mid.xor3(self.lo.swap64(), self.lo.clmul::<0x00>(k));
        self.hi.xor3(m.swap64(), m.clmul::<0x00>(k))
    }
}

/// a·b·x^-128 lane by lane.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn mul_lanes<V: Simd>(a: V, b: V) -> V {
    let mut s = Sums::<V>::zero(a.cpu());
    s.mul_add(a, b, b.xor(b.swap64()));
    s.reduce_lanes()
}

/// All ones in one element: a vector loaded from `LANE_MASKS[LANE_MASK_AT - k..]` is all
/// ones in lane k and zero elsewhere (k below 4, the widest vector's lanes).
static LANE_MASKS: [u128; 7] = [0, 0, 0, u128::MAX, 0, 0, 0];
const LANE_MASK_AT: usize = 3;

/// Most vectors [`fill_key_powers`] computes: every engine's widest batch (MAXW) is at
/// most 8 vectors (aesni 8 blocks, avx2 16, avx512 32), and the one-body AES-GCM-SIV
/// (`siv_lean`) reads a batch's powers and one more (aesni 9 blocks: 9 vectors).
pub(super) const FILL_VECTORS: usize = 16;

/// H^1..H^count (count a multiple of `V::LANES`, at most `FILL_VECTORS` vectors) as a
/// key of `flavor` in `key`'s storage (the descending table and its Karatsuba helpers,
/// the entries below H^count zero), `V::LANES` powers per multiply: the first vector holds
/// H^L..H^1 (L = LANES, lane 0 the highest), and with vectors 0..m-1 known, vector
/// m + j = vector j times H^(mL) in every lane (doubling, as [`powers`]). For the 32
/// powers of a 512-bit batch that is 3 single-block multiplies and 7 wide ones instead of
/// 31 single-block ones, which AES-GCM-SIV pays per message (its key changes with the
/// nonce). Each vector is stored where the table wants it, in one store (`MessageKey`:
/// nothing zero-filled first); the doubling steps read their sources back from it.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn fill_key_powers<'a, V: Simd>(
    cpu: V::Cpu,
    h: V::Block,
    count: usize,
    flavor: Flavor,
    key: &'a mut MessageKey<'_, V>,
) -> &'a HashKey {
    let l = V::LANES;
    let m = (count.clamp(l, POWERS) / l).min(FILL_VECTORS);
    let mut first = [h; 4];
    powers(h, l, &mut first);
    // Each vector's Karatsuba helper from the register that computed it (`push`), not
    // reloaded from the table: the hash's first product waits for the highest vector and
    // its helper. Vector 0 is assembled in registers (lane k = H^(L-k), each block
    // broadcast and masked to its lane) and stored whole.
    // (A loop, not `fold` with a closure: the closure has no target features, so its
    // intrinsics inline only if `fold` itself does.)
    let mut v0 = V::zero(cpu);
    for k in 0..l {
        let mask = V::load_elems(cpu, &LANE_MASKS[LANE_MASK_AT - k..]);
        v0 = v0.or(V::broadcast(cpu, first[l - 1 - k]).and(mask));
    }
    // The doubling as loops, each new vector pushed and its sources read back from the
    // table (`Writer::get`, store-forwarded): unrolled over a fixed array of registers it
    // was the largest part of the AES-GCM-SIV entry points on a cold call's path, up to
    // 15 inlined multiplies (docs/tuning.md: `fill_key_powers` doubling as loops).
    let mut table = key.writer();
    table.push(v0);
    let mut have = 1;
    while have < m {
        // The newest vector's lane 0 is the highest power so far, H^(have·L).
        let top = V::broadcast(cpu, table.get(have - 1).lane0());
        let n = have.min(m - have);
        for j in 0..n {
            let x = mul_lanes(table.get(j), top);
            table.push(x);
        }
        have += n;
    }
    wipe_vectors(&mut first);
    table.finish(flavor)
}

/// a·b·x^-128 (POLYVAL's dot) with one 128-bit CLMUL multiply and one reduction.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn mul<B: Simd<Block = B>>(a: B, b: B) -> B {
    let mut s = Sums::<B>::zero(a.cpu());
    s.mul_add(a, b, b.xor(b.swap64()));
    s.reduce()
}

/// POLYVAL's dot(a, b) = a·b·x^-128.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
pub(crate) fn dot<V: Simd>(cpu: V::Cpu, a: u128, b: u128) -> u128 {
    let bc = V::block_cpu(cpu);
    mul(V::Block::from_u128(bc, a), V::Block::from_u128(bc, b)).to_u128()
}

/// H^1..H^k into `pw[0..k]` (pw[j - 1] = H^j) by doubling: with H^1..H^m known,
/// H^(m+j) = H^m·H^j for j = 1..m are independent multiplies, so the dependency depth is
/// log2(k) instead of k. A fixed-size array, which the compiler keeps in registers (a
/// slice or `HashKey`'s table measured slower; docs/tuning.md: powers).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn powers<B: Simd<Block = B>, const M: usize>(h: B, k: usize, pw: &mut [B; M]) {
    pw[0] = h;
    let mut have = 1;
    while have < k {
        let hh = pw[have - 1];
        let upto = (2 * have).min(k);
        for j in 1..=upto - have {
            pw[have + j - 1] = mul(hh, pw[j - 1]);
        }
        have = upto;
    }
}

/// H^1..H^count into the descending table of `HashKey` (`desc[POWERS - k]` = H^k).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn fill_powers<V: Simd>(cpu: V::Cpu, h: u128, count: usize, desc: &mut [u128; POWERS]) {
    let bc = V::block_cpu(cpu);
    let count = count.clamp(1, POWERS);
    let mut pw = [V::Block::zero(bc); POWERS];
    powers(V::Block::from_u128(bc, h), count, &mut pw);
    for (j, p) in pw.iter().enumerate().take(count) {
        desc[POWERS - 1 - j] = p.to_u128();
    }
    wipe_vectors(&mut pw[..count]);
}

/// acc' = (acc + x)·H for one field element `x` (a GHASH block byte-reversed, a POLYVAL
/// block as loaded).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn hash_block<B: Simd<Block = B>>(key: &HashKey, acc: B, x: B) -> B {
    let cpu = acc.cpu();
    let mut s = Sums::<B>::zero(cpu);
    s.mul_add(
        x.xor(acc),
        B::from_u128(cpu, key.desc[POWERS - 1]),
        B::from_u128(cpu, key.kara[POWERS - 1]),
    );
    s.reduce()
}

/// AES-GCM's tag from the reduced GHASH value `s` (lane 0, in the form the kernels keep
/// it) and E(K, Y0) (`mask`), as the vector whose little-endian bytes are the tag.
/// `spec::gcm::tag_from_ghash` is (S xor be(E)).to_be_bytes(), whose little-endian
/// integer is bswap(S) xor le(E): one shuffle and one XOR. A kernel returning the tag in
/// memory stores it with `Simd::to_bytes` (one 16-byte store); one returning it in
/// registers takes `to_u128`.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn gcm_tag<B: Simd>(s: B, mask: B) -> B {
    s.bswap().xor(mask)
}

/// The powers of a batch of `NV` vectors (W = NV·LANES blocks, `key.count` >= W) in
/// registers, with their Karatsuba helpers: vector j = desc[POWERS - W + LANES·j..],
/// H^(W - LANES·j) first.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn karatsuba_powers<V: Simd, const NV: usize>(
    cpu: V::Cpu,
    key: &HashKey,
) -> ([V; NV], [V; NV]) {
    let base = POWERS - NV * V::LANES;
    let mut h = [V::zero(cpu); NV];
    let mut hk = [V::zero(cpu); NV];
    for j in 0..NV {
        h[j] = V::load_elems(cpu, &key.desc[base + V::LANES * j..]);
        hk[j] = V::load_elems(cpu, &key.kara[base + V::LANES * j..]);
    }
    (h, hk)
}
