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

    /// XOR of the lanes (still unreduced).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn fold(self) -> Sums<V::Block> {
        Sums {
            lo: self.lo.fold_lanes(),
            mid: self.mid.fold_lanes(),
            hi: self.hi.fold_lanes(),
        }
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
/// nothing zero-filled first); the doubling steps take every vector from its register.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn fill_key_powers<V: Simd>(
    cpu: V::Cpu,
    h: V::Block,
    count: usize,
    flavor: Flavor,
    key: &mut MessageKey<V>,
) -> &HashKey {
    let l = V::LANES;
    let m = (count.clamp(l, POWERS) / l).min(FILL_VECTORS);
    let mut first = [h; 4];
    powers(h, l, &mut first);
    // Each vector's Karatsuba helper and the next step's broadcast (the newest vector's
    // lane 0, its highest power) from the register that computed it, not reloaded from
    // the table: the hash's first product waits for the highest vector and its helper,
    // so each reload was a store-to-load round trip on AES-GCM-SIV's per-message chain.
    // Vector 0 is assembled in registers too (lane k = H^(L-k), each block broadcast and
    // masked to its lane) and stored whole.
    // (A loop, not `fold` with a closure: the closure has no target features, so its
    // intrinsics inline only if `fold` itself does.)
    let mut v0 = V::zero(cpu);
    for k in 0..l {
        let mask = V::load_elems(cpu, &LANE_MASKS[LANE_MASK_AT - k..]);
        v0 = v0.or(V::broadcast(cpu, first[l - 1 - k]).and(mask));
    }
    // The vectors in a fixed-size array with constant indices (the loops unroll), so they
    // stay in registers: with a run-time vector count the doubling was a loop of index
    // arithmetic and bounds checks around each multiply, reading vectors back from the
    // table (a `gdb` trace of a 1 KiB AES-256-GCM-SIV encryption on avx512: 62 integer
    // instructions and 15 vector loads fewer; integer ALU operations share ports with
    // the vector ones).
    let mut v = [v0; FILL_VECTORS];
    // (No steps past a full table's vectors: the bound is a constant per backend.)
    for step in 0..FILL_VECTORS.min(POWERS / l).ilog2() {
        let have = 1 << step;
        if have >= m {
            break;
        }
        // The newest vector's lane 0 is the highest power so far, H^(have·L).
        let top = V::broadcast(cpu, v[have - 1].lane0());
        for j in 0..have {
            if have + j < m {
                v[have + j] = mul_lanes(v[j], top);
            }
        }
    }
    let mut table = key.writer();
    for (j, x) in v.iter().enumerate() {
        if j < m {
            table.push(*x);
        }
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

/// The first `16 * V::LANES` bytes of `src` as field elements (byte-reversed for GHASH).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn load_elem<V: Simd>(cpu: V::Cpu, src: &[u8], flavor: Flavor) -> V {
    let x = V::load(cpu, src);
    if flavor == Flavor::Ghash {
        x.bswap()
    } else {
        x
    }
}

/// One block as a field element: `src` (at most 16 bytes), zero-padded (a masked load
/// on AVX-512, never reading past it), byte-reversed for GHASH.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn load_block<V: Simd>(cpu: V::Cpu, src: &[u8], flavor: Flavor) -> V::Block {
    if src.len() == 16 {
        load_elem::<V::Block>(V::block_cpu(cpu), src, flavor)
    } else {
        let x = V::load_partial(cpu, src).lane0();
        if flavor == Flavor::Ghash {
            x.bswap()
        } else {
            x
        }
    }
}

/// Absorbs `bytes` (zero-padded to whole blocks) into `sums`, block `b` (counted from
/// `*next`) multiplied by `table`'s element `*next + b`; advances
/// `*next`.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn absorb_padded<V: Simd>(
    cpu: V::Cpu,
    sums: &mut Sums<V::Block>,
    bytes: &[u8],
    table: Table<'_>,
    next: &mut usize,
    flavor: Flavor,
) {
    let bc = V::block_cpu(cpu);
    for blk in bytes.chunks(16) {
        sums.mul_add(
            load_block::<V>(cpu, blk, flavor),
            V::Block::from_u128(bc, table.h[*next]),
            V::Block::from_u128(bc, table.kara[*next]),
        );
        *next += 1;
    }
}

/// The last `k` powers of a key's descending table, H^k first (`desc[POWERS - k..]`),
/// with their Karatsuba helpers: element b multiplies block b of a k-block batch.
#[derive(Clone, Copy)]
pub(super) struct Table<'a> {
    pub(super) h: &'a [u128],
    pub(super) kara: &'a [u128],
}

impl<'a> Table<'a> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn last(key: &'a HashKey, k: usize) -> Self {
        Table {
            h: &key.desc[POWERS - k..],
            kara: &key.kara[POWERS - k..],
        }
    }
}

/// Hashes the `k` (1 <= k <= key.count) whole blocks of `src` into `acc` with one
/// reduction (`flavor` is the key's, passed on so that a caller can make it a constant).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn hash_batch<V: Simd>(
    cpu: V::Cpu,
    key: &HashKey,
    flavor: Flavor,
    acc: V::Block,
    src: &[u8],
    k: usize,
) -> V::Block {
    let bc = V::block_cpu(cpu);
    let t = Table::last(key, k);
    // `rest`: the input from the batch on (a shifted load below may read past the batch,
    // never past the input).
    let rest = src;
    let (src, h, hk) = (&src[..16 * k], &t.h[..k], &t.kara[..k]);
    // Whole vectors first (acc added into the first), then single blocks.
    let mut i = 0;
    let mut wide = Sums::<V>::zero(cpu);
    let mut first = acc;
    if k >= V::LANES {
        let x = load_elem::<V>(cpu, src, flavor).xor(V::from_lane0(cpu, acc));
        wide.mul_add(x, V::load_elems(cpu, h), V::load_elems(cpu, hk));
        i = V::LANES;
        first = V::Block::zero(bc);
        // One block per vector (AES-NI, Arm): iterators, which leave no bounds checks in
        // the loop. Wider vectors: an index loop over the slices cut to `k` blocks, which
        // the compiler unrolls (the iterator form was not; docs/tuning.md: hash_batch).
        if V::LANES == 1 {
            let rest = src[16..].chunks_exact(16).zip(h[1..].iter().zip(&hk[1..]));
            for (x, (hh, kk)) in rest {
                wide.mul_add(
                    load_elem::<V>(cpu, x, flavor),
                    V::load_elems(cpu, core::slice::from_ref(hh)),
                    V::load_elems(cpu, core::slice::from_ref(kk)),
                );
            }
            i = k;
        }
        while i + V::LANES <= k {
            let (x, hv, kv) = (
                load_elem::<V>(cpu, &src[16 * i..], flavor),
                V::load_elems(cpu, &h[i..]),
                V::load_elems(cpu, &hk[i..]),
            );
            wide.add(product_at(cpu, x, rest, 16 * i, flavor, hv, kv));
            i += V::LANES;
        }
    }
    if i == k {
        // Whole vectors only: reduce lane by lane, then one fold of the reduced lanes.
        // Folding the three unreduced sums first costs three folds (on avx512 six
        // 128/256-bit extracts, on the port CLMUL shares) against one (two extracts), and
        // the wide reduction's two multiplies take that port no longer than the narrow
        // one's.
        return wide.reduce_lanes().fold_lanes();
    }
    let mut s = wide.fold();
    while i < k {
        let x = load_elem::<V::Block>(bc, &src[16 * i..], flavor).xor(first);
        first = V::Block::zero(bc);
        s.mul_add(
            x,
            V::Block::from_u128(bc, h[i]),
            V::Block::from_u128(bc, hk[i]),
        );
        i += 1;
    }
    s.reduce()
}

/// x·h, Karatsuba (`Sums::product`), for `x` the field elements at byte `at` of `bytes`.
/// For POLYVAL (elements are the bytes as they are) on vectors of two or four blocks,
/// each lane's Karatsuba sum x.lo + x.hi is taken from x and a load of the bytes 8
/// further on (whose low qword in each lane is that lane's x.hi; the high qword, the next
/// block's, is never multiplied), where the input has those bytes: a load and an XOR
/// instead of the qword swap, which on Intel runs on the port the carry-less multiplies
/// use, so 3 operations there per vector instead of 4.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn product_at<V: Simd>(
    cpu: V::Cpu,
    x: V,
    bytes: &[u8],
    at: usize,
    flavor: Flavor,
    h: V,
    hk: V,
) -> Sums<V> {
    let shifted =
        flavor == Flavor::Polyval && V::LANES > 1 && bytes.len() >= at + 16 * V::LANES + 8;
    if !shifted {
        return Sums::product(x, h, hk);
    }
    let sum = x.xor(V::load(cpu, &bytes[at + 8..]));
    Sums {
        lo: x.clmul::<0x00>(h),
        hi: x.clmul::<0x11>(h),
        mid: sum.clmul::<0x00>(hk),
    }
}

/// acc' = (acc + x)·H for one field element `x` (see [`load_block`]).
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

/// Absorbs `data` into `acc`, the final partial block zero-padded; up to `MAXW` blocks
/// per reduction.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn hash_update<V: Simd, const MAXW: usize>(
    cpu: V::Cpu,
    key: &HashKey,
    acc: &mut u128,
    data: &[u8],
) {
    // The flavor matched once, outside the loops, so each loop has it as a constant.
    match key.flavor {
        Flavor::Ghash => hash_update_as::<V, MAXW>(cpu, key, Flavor::Ghash, acc, data),
        Flavor::Polyval => hash_update_as::<V, MAXW>(cpu, key, Flavor::Polyval, acc, data),
    }
}

/// [`hash_update`] for the key's flavor, given.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn hash_update_as<V: Simd, const MAXW: usize>(
    cpu: V::Cpu,
    key: &HashKey,
    flavor: Flavor,
    acc: &mut u128,
    data: &[u8],
) {
    let w = MAXW.min(key.count);
    let mut a = V::Block::from_u128(V::block_cpu(cpu), *acc);
    let full = data.len() / 16;
    let mut done = 0;
    while done < full {
        let k = (full - done).min(w);
        a = hash_batch::<V>(cpu, key, flavor, a, &data[16 * done..], k);
        done += k;
    }
    let tail = &data[16 * full..];
    if !tail.is_empty() {
        a = hash_block(key, a, load_block::<V>(cpu, tail, flavor));
    }
    *acc = a.to_u128();
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
