//! GHASH and POLYVAL by carry-less multiplication: Karatsuba products summed unreduced,
//! one Montgomery reduction per batch (the math is in `kernels/mod.rs`), the powers of H
//! by doubling, and whole-buffer hashing in batches of up to MAXW blocks.

use super::super::simd::Simd;
use super::wipe_vectors;
use crate::field::{Flavor, HashKey, POWERS};

/// Unreduced sums of products.
#[derive(Clone, Copy)]
pub(super) struct Sums<V> {
    pub(super) lo: V,
    pub(super) mid: V,
    pub(super) hi: V,
}

impl<V: Simd> Sums<V> {
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn zero() -> Self {
        // SAFETY: within this function's `# Safety` contract.
        unsafe {
            Sums {
                lo: V::zero(),
                mid: V::zero(),
                hi: V::zero(),
            }
        }
    }

    /// The partial products of x·h lane by lane, Karatsuba style: `hk` holds
    /// h.lo xor h.hi, and `mid` is (x.lo + x.hi)(h.lo + h.hi), from which lo and hi are
    /// subtracted at reduction. Three carry-less multiplies instead of four.
    ///
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn product(x: V, h: V, hk: V) -> Self {
        // SAFETY: within this function's `# Safety` contract.
        unsafe {
            Sums {
                lo: x.clmul::<0x00>(h),
                hi: x.clmul::<0x11>(h),
                mid: x.xor(x.swap64()).clmul::<0x00>(hk),
            }
        }
    }

    /// Adds x·h.
    ///
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn mul_add(&mut self, x: V, h: V, hk: V) {
        // SAFETY: register-only vector arithmetic under this function's contract (the
        // backend's features are present); no memory is touched.
        unsafe { self.add(Self::product(x, h, hk)) }
    }

    /// Adds one product.
    ///
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn add(&mut self, p: Self) {
        // SAFETY: within this function's `# Safety` contract.
        unsafe {
            self.lo = self.lo.xor(p.lo);
            self.mid = self.mid.xor(p.mid);
            self.hi = self.hi.xor(p.hi);
        }
    }

    /// The sum of two products.
    ///
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn sum2(a: Self, b: Self) -> Self {
        // SAFETY: within this function's `# Safety` contract.
        unsafe {
            Sums {
                lo: a.lo.xor(b.lo),
                mid: a.mid.xor(b.mid),
                hi: a.hi.xor(b.hi),
            }
        }
    }

    /// Adds two products, one three-input XOR per part.
    ///
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn add2(&mut self, a: Self, b: Self) {
        // SAFETY: within this function's `# Safety` contract.
        unsafe {
            self.lo = self.lo.xor3(a.lo, b.lo);
            self.mid = self.mid.xor3(a.mid, b.mid);
            self.hi = self.hi.xor3(a.hi, b.hi);
        }
    }

    /// XOR of the lanes (still unreduced).
    ///
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn fold(self) -> Sums<V::Block> {
        // SAFETY: within this function's `# Safety` contract.
        unsafe {
            Sums {
                lo: self.lo.fold_lanes(),
                mid: self.mid.fold_lanes(),
                hi: self.hi.fold_lanes(),
            }
        }
    }

    /// Montgomery reduction (module docs) of lo + mid·z + hi·z^2, lane by lane, then the
    /// XOR of the lanes (reduction is linear, so one horizontal fold serves all three
    /// parts). With fold(L) = L·z^-1 mod p:
    ///     (lo + mid·z + hi·z^2)·z^-2 = hi + fold(mid + fold(lo)),
    /// two multiplies by K, two qword swaps and two three-input XORs.
    ///
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn reduce(self) -> V::Block {
        // SAFETY: within this function's `# Safety` contract.
        unsafe {
            // K = x^63 + x^62 + x^57 in the low qword of every lane.
            let k = V::from_u128(0xc200_0000_0000_0000);
            // Karatsuba: the true middle term is mid - lo - hi.
            let mid = self.mid.xor3(self.lo, self.hi);
            let m = mid.xor3(self.lo.swap64(), self.lo.clmul::<0x00>(k));
            self.hi.xor3(m.swap64(), m.clmul::<0x00>(k)).fold_lanes()
        }
    }
}

/// a·b·x^-128 (POLYVAL's dot) with one 128-bit CLMUL multiply and one reduction.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(super) unsafe fn mul<B: Simd<Block = B>>(a: B, b: B) -> B {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let mut s = Sums::<B>::zero();
        s.mul_add(a, b, b.xor(b.swap64()));
        s.reduce()
    }
}

/// POLYVAL's dot(a, b) = a·b·x^-128.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
pub(crate) unsafe fn dot<V: Simd>(a: u128, b: u128) -> u128 {
    // SAFETY: register-only vector arithmetic under this function's contract (the
    // backend's features are present); no memory is touched.
    unsafe { mul(V::Block::from_u128(a), V::Block::from_u128(b)).to_u128() }
}

/// H^1..H^k into `pw[0..k]` (pw[j - 1] = H^j) by doubling: with H^1..H^m known,
/// H^(m+j) = H^m·H^j for j = 1..m are independent multiplies, so the dependency depth is
/// log2(k) instead of k. A fixed-size array, which the compiler keeps in registers: with
/// the powers in a slice, or in the u128 table of `HashKey`, the per-message AES-GCM-SIV
/// kernel measured 20-30 % slower at 256-576 B (`gcmkit-bench focus`, 0.73-0.85x against
/// 1.01-1.08x AWS-LC).
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(super) unsafe fn powers<B: Simd<Block = B>, const M: usize>(h: B, k: usize, pw: &mut [B; M]) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
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
}

/// H^1..H^count into the descending table of `HashKey` (`desc[POWERS - k]` = H^k).
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(crate) unsafe fn fill_powers<V: Simd>(h: u128, count: usize, desc: &mut [u128; POWERS]) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let count = count.clamp(1, POWERS);
        let mut pw = [V::Block::zero(); POWERS];
        powers(V::Block::from_u128(h), count, &mut pw);
        for (j, p) in pw.iter().enumerate().take(count) {
            desc[POWERS - 1 - j] = p.to_u128();
        }
        wipe_vectors(&mut pw[..count]);
    }
}

/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract). `p` must be valid for `16 * V::LANES` bytes.
#[inline(always)]
pub(super) unsafe fn load_elem<V: Simd>(p: *const u8, flavor: Flavor) -> V {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let x = V::load(p);
        if flavor == Flavor::Ghash {
            x.bswap()
        } else {
            x
        }
    }
}

/// One block as a field element: the `n` <= 16 bytes at `p`, zero-padded (a masked load
/// on AVX-512, never reading past `p + n`), byte-reversed for GHASH.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract). `p` must be valid for `n` <= 16 bytes.
#[inline(always)]
pub(super) unsafe fn load_block<V: Simd>(p: *const u8, n: usize, flavor: Flavor) -> V::Block {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        if n == 16 {
            load_elem::<V::Block>(p, flavor)
        } else {
            let x = V::load_partial(p, n).lane0();
            if flavor == Flavor::Ghash {
                x.bswap()
            } else {
                x
            }
        }
    }
}

/// Absorbs `bytes` (zero-padded to whole blocks) into `sums`, block `b` (counted from
/// `*next`) multiplied by the power at `h`/`hk` + 16·b; advances `*next`.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract). `h` and `hk` must point into the key's power tables with room for every block of `bytes`.
#[inline(always)]
pub(super) unsafe fn absorb_padded<V: Simd>(
    sums: &mut Sums<V::Block>,
    bytes: &[u8],
    h: *const u8,
    hk: *const u8,
    next: &mut usize,
    flavor: Flavor,
) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        for blk in bytes.chunks(16) {
            let o = 16 * *next;
            sums.mul_add(
                load_block::<V>(blk.as_ptr(), blk.len(), flavor),
                V::Block::load(h.add(o)),
                V::Block::load(hk.add(o)),
            );
            *next += 1;
        }
    }
}

/// Pointer to H^k.. in the descending table: `desc[POWERS - k]`.
#[inline(always)]
pub(super) fn power_ptr(key: &HashKey, k: usize) -> *const u8 {
    key.desc[POWERS - k..].as_ptr().cast()
}

/// The Karatsuba helpers matching [`power_ptr`].
#[inline(always)]
pub(super) fn kara_ptr(key: &HashKey, k: usize) -> *const u8 {
    key.kara[POWERS - k..].as_ptr().cast()
}

/// Hashes `k` (1 <= k <= key.count) whole blocks at `src` into `acc` with one reduction.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract). `src` must be valid for `16 * k` bytes, and `k` <= `key.count`.
#[inline(always)]
pub(super) unsafe fn hash_batch<V: Simd>(
    key: &HashKey,
    acc: V::Block,
    src: *const u8,
    k: usize,
) -> V::Block {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let h = power_ptr(key, k);
        let hk = kara_ptr(key, k);
        let mut i = 0;
        let mut wide = Sums::<V>::zero();
        let mut first = acc;
        if k >= V::LANES {
            let x = load_elem::<V>(src, key.flavor).xor(V::from_lane0(acc));
            wide.mul_add(x, V::load(h), V::load(hk));
            i = V::LANES;
            first = V::Block::zero();
            while i + V::LANES <= k {
                wide.mul_add(
                    load_elem::<V>(src.add(16 * i), key.flavor),
                    V::load(h.add(16 * i)),
                    V::load(hk.add(16 * i)),
                );
                i += V::LANES;
            }
        }
        let mut s = wide.fold();
        while i < k {
            let x = load_elem::<V::Block>(src.add(16 * i), key.flavor).xor(first);
            first = V::Block::zero();
            s.mul_add(
                x,
                V::Block::load(h.add(16 * i)),
                V::Block::load(hk.add(16 * i)),
            );
            i += 1;
        }
        s.reduce()
    }
}

/// acc' = (acc + x)·H for one field element `x` (see [`load_block`]).
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(super) unsafe fn hash_block<B: Simd<Block = B>>(key: &HashKey, acc: B, x: B) -> B {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let mut s = Sums::<B>::zero();
        s.mul_add(
            x.xor(acc),
            B::load(power_ptr(key, 1)),
            B::load(kara_ptr(key, 1)),
        );
        s.reduce()
    }
}

/// Absorbs `data` into `acc`, the final partial block zero-padded; up to `MAXW` blocks
/// per reduction.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(crate) unsafe fn hash_update<V: Simd, const MAXW: usize>(
    key: &HashKey,
    acc: &mut u128,
    data: &[u8],
) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let w = MAXW.min(key.count);
        let mut a = V::Block::from_u128(*acc);
        let full = data.len() / 16;
        let mut done = 0;
        while done < full {
            let k = (full - done).min(w);
            a = hash_batch::<V>(key, a, data.as_ptr().add(16 * done), k);
            done += k;
        }
        let tail = &data[16 * full..];
        if !tail.is_empty() {
            a = hash_block(
                key,
                a,
                load_block::<V>(tail.as_ptr(), tail.len(), key.flavor),
            );
        }
        *acc = a.to_u128();
    }
}
