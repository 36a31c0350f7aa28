//! Width-generic AES-CTR, GHASH/POLYVAL and stitched GCM kernels.
//!
//! # GHASH and POLYVAL with carry-less multiplication
//! Field elements are in POLYVAL order (see `field`): a 128-bit lane holds the element
//! with bit i = coefficient of x^i, the low qword first. GHASH blocks are byte-reversed
//! on load (`bswap`), which maps them into the same field (RFC 8452 App. A) with the key
//! mulX(H) prepared by `HashKey`.
//!
//! Product of x = x1·z + x0 and h = h1·z + h0 (z = x^64), four 64x64 carry-less products:
//!     lo = x0·h0,  hi = x1·h1,  mid = x0·h1 + x1·h0,  x·h = hi·z^2 + mid·z + lo.
//! Aggregation: a batch of k blocks X_0..X_(k-1) (acc added into X_0) contributes
//! sum X_b·H^(k-b); the products are summed unreduced per lane, the lanes are XORed
//! together, and one Montgomery reduction gives acc' (reduction is linear).
//!
//! Montgomery reduction of lo + mid·z + hi·z^2 by x^-128 = z^-2 mod p, p = x^128 +
//! x^127 + x^126 + x^121 + 1 = z^2 + z·K + 1 with K = x^63 + x^62 + x^57 (the qword
//! 0xc200000000000000). For a 128-bit L = L.hi·z + L.lo, adding L.lo·p clears the low
//! qword, and dividing by z leaves L.hi + L.lo·z + L.lo·K: in vector form
//! `fold(L) = swap64(L) xor clmul(L.lo, K)` = L·z^-1 mod p, still 128 bits. Hence
//! (lo + mid·z + hi·z^2)·z^-2 = hi + fold(mid + fold(lo)): two multiplies by K.
//!
//! # Counters
//! A counter vector is kept in *integer form*: for GCM (32-bit big-endian counter in the
//! last 4 bytes) the block is byte-reversed so the counter is dword 0; AES-GCM-SIV's
//! little-endian counter already is dword 0. `add32` then increments modulo 2^32 without
//! touching the other 96 bits, exactly inc32 of SP 800-38D, including the wrap.
//!
//! # Stitching
//! The AES rounds of a batch of N vectors are interleaved with the GHASH of N vectors:
//! of the same batch's input (decryption: the ciphertext is known up front) or of the
//! previous batch's output (encryption). The two instruction streams are independent, so
//! the core may overlap them. Measured (`make bench`, docs/perf/engines.md): stitching
//! beats two separate passes (AVX-512, 16 KiB: 9.2 vs 6.8 GB/s at the time), and AES-GCM
//! now runs at about 0.8 of the CTR-only rate. On the benchmark machine (Sapphire Rapids)
//! AES goes to one 512-bit port and CLMUL and shuffles to the other, with XORs on either
//! (`gcmkit-bench ports`), which bounds AES-GCM near 0.94 of CTR: that is why XORs are
//! merged three at a time and counters avoid per-vector byte reversals.

use super::simd::{Simd, Xmm};
use crate::aes::RoundKeys;
use crate::engine::Counter;
use crate::field::{Flavor, HashKey, POWERS};
use core::arch::x86_64::*;

/// Round keys broadcast to every lane.
struct Keys<V> {
    k: [V; 15],
    rounds: usize,
}

#[inline(always)]
unsafe fn keys<V: Simd>(rk: &RoundKeys) -> Keys<V> {
    // (Explicit loops, not `array::from_fn`: its closure would not inline into the
    // target-feature entry point and would run the intrinsics out of line.)
    let mut k = [unsafe { V::zero() }; 15];
    for (ki, bi) in k
        .iter_mut()
        .zip(rk.as_blocks().iter())
        .take(rk.rounds() + 1)
    {
        // SAFETY: each bi is 16 readable bytes.
        *ki = unsafe { V::broadcast(_mm_loadu_si128(bi.as_ptr().cast())) };
    }
    Keys {
        k,
        rounds: rk.rounds(),
    }
}

/// Encrypts N vectors of blocks in place. Specialized per round count so the rounds
/// unroll completely (the count is public: it is the key size).
#[inline(always)]
unsafe fn aes_n<V: Simd, const N: usize>(keys: &Keys<V>, s: &mut [V; N]) {
    unsafe {
        for x in s.iter_mut() {
            *x = x.xor(keys.k[0]);
        }
        aes_n_whitened(keys, s)
    }
}

/// [`aes_n`] on blocks already xored with round key 0.
#[inline(always)]
unsafe fn aes_n_whitened<V: Simd, const N: usize>(keys: &Keys<V>, s: &mut [V; N]) {
    unsafe {
        match keys.rounds {
            10 => aes_rounds::<V, N, 10>(keys, s),
            12 => aes_rounds::<V, N, 12>(keys, s),
            _ => aes_rounds::<V, N, 14>(keys, s),
        }
    }
}

/// Rounds 1..=R.
#[inline(always)]
unsafe fn aes_rounds<V: Simd, const N: usize, const R: usize>(keys: &Keys<V>, s: &mut [V; N]) {
    unsafe {
        for r in 1..R {
            let k = keys.k[r];
            for x in s.iter_mut() {
                *x = x.aesenc(k);
            }
        }
        let k = keys.k[R];
        for x in s.iter_mut() {
            *x = x.aesenclast(k);
        }
    }
}

/// Counter blocks, `LANES` at a time, in integer form (see module docs).
struct Ctr<V> {
    next: V,
    step: V,
    be: bool,
    /// The starting counter is public (`Counter::Be32Public`), so batching may branch on
    /// its value.
    public: bool,
    /// Lane 0's counter value of `next`; only branched on when `public`.
    low: u32,
}

impl<V: Simd> Ctr<V> {
    #[inline(always)]
    unsafe fn new(ctr: &[u8; 16], kind: Counter) -> Self {
        unsafe {
            let be = kind != Counter::Le32;
            let mut c = Xmm::load(ctr.as_ptr());
            if be {
                c = c.bswap();
            }
            Ctr {
                next: V::broadcast(c.0).add32(V::lane_offsets()),
                step: V::splat_dword0(V::LANES as i32),
                be,
                public: kind == Counter::Be32Public,
                low: c.dword0(),
            }
        }
    }

    /// The next vector of counter blocks, ready for AES.
    #[inline(always)]
    unsafe fn take(&mut self) -> V {
        unsafe {
            let c = self.next;
            self.next = c.add32(self.step);
            self.low = self.low.wrapping_add(V::LANES as u32);
            if self.be {
                c.bswap()
            } else {
                c
            }
        }
    }

    /// The next N vectors of counter blocks, ready for AES, each xored with `k0` (AES
    /// round 0). GCM's big-endian counters cost a byte reversal per vector in integer
    /// form; when the counter's last byte does not carry within the batch (7 batches in
    /// 8 at 32 blocks per batch), one reversal serves the batch and the others are byte
    /// additions on the block form. That choice branches on the counter's value, so it is
    /// only made for a public starting counter (96-bit IVs); `make ct-check` flags it
    /// otherwise.
    #[inline(always)]
    unsafe fn take_batch<const N: usize>(&mut self, k0: V) -> [V; N] {
        unsafe {
            let mut s = [V::zero(); N];
            let blocks = (N * V::LANES) as u32;
            if self.be && self.public && (self.low & 0xff) + blocks <= 0x100 {
                let first = self.next.bswap();
                for (j, x) in s.iter_mut().enumerate() {
                    *x = first
                        .add32(V::splat_dword3(((j * V::LANES) as i32) << 24))
                        .xor(k0);
                }
                self.next = self.next.add32(V::splat_dword0(blocks as i32));
                self.low = self.low.wrapping_add(blocks);
            } else {
                for x in s.iter_mut() {
                    *x = self.take().xor(k0);
                }
            }
            s
        }
    }
}

/// Unreduced sums of products.
#[derive(Clone, Copy)]
struct Sums<V> {
    lo: V,
    mid: V,
    hi: V,
}

impl<V: Simd> Sums<V> {
    #[inline(always)]
    unsafe fn zero() -> Self {
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
    #[inline(always)]
    unsafe fn product(x: V, h: V, hk: V) -> Self {
        unsafe {
            Sums {
                lo: x.clmul::<0x00>(h),
                hi: x.clmul::<0x11>(h),
                mid: x.xor(x.swap64()).clmul::<0x00>(hk),
            }
        }
    }

    /// Adds x·h.
    #[inline(always)]
    unsafe fn mul_add(&mut self, x: V, h: V, hk: V) {
        unsafe { self.add(Self::product(x, h, hk)) }
    }

    /// Adds one product.
    #[inline(always)]
    unsafe fn add(&mut self, p: Self) {
        unsafe {
            self.lo = self.lo.xor(p.lo);
            self.mid = self.mid.xor(p.mid);
            self.hi = self.hi.xor(p.hi);
        }
    }

    /// The sum of two products.
    #[inline(always)]
    unsafe fn sum2(a: Self, b: Self) -> Self {
        unsafe {
            Sums {
                lo: a.lo.xor(b.lo),
                mid: a.mid.xor(b.mid),
                hi: a.hi.xor(b.hi),
            }
        }
    }

    /// Adds two products, one three-input XOR per part.
    #[inline(always)]
    unsafe fn add2(&mut self, a: Self, b: Self) {
        unsafe {
            self.lo = self.lo.xor3(a.lo, b.lo);
            self.mid = self.mid.xor3(a.mid, b.mid);
            self.hi = self.hi.xor3(a.hi, b.hi);
        }
    }

    /// XOR of the lanes (still unreduced).
    #[inline(always)]
    unsafe fn fold(self) -> Sums<Xmm> {
        unsafe {
            Sums {
                lo: Xmm(self.lo.fold_lanes()),
                mid: Xmm(self.mid.fold_lanes()),
                hi: Xmm(self.hi.fold_lanes()),
            }
        }
    }

    /// Montgomery reduction (module docs) of lo + mid·z + hi·z^2, lane by lane, then the
    /// XOR of the lanes (reduction is linear, so one horizontal fold serves all three
    /// parts). With fold(L) = L·z^-1 mod p:
    ///     (lo + mid·z + hi·z^2)·z^-2 = hi + fold(mid + fold(lo)),
    /// two multiplies by K, two qword swaps and two three-input XORs.
    #[inline(always)]
    unsafe fn reduce(self) -> __m128i {
        unsafe {
            let k = V::broadcast(_mm_set_epi64x(0, 0xc200_0000_0000_0000u64 as i64));
            // Karatsuba: the true middle term is mid - lo - hi.
            let mid = self.mid.xor3(self.lo, self.hi);
            let m = mid.xor3(self.lo.swap64(), self.lo.clmul::<0x00>(k));
            self.hi.xor3(m.swap64(), m.clmul::<0x00>(k)).fold_lanes()
        }
    }
}

/// a·b·x^-128 (POLYVAL's dot) with one 128-bit CLMUL multiply and one reduction.
#[inline(always)]
unsafe fn mul(a: Xmm, b: Xmm) -> Xmm {
    unsafe {
        let mut s = Sums::<Xmm>::zero();
        s.mul_add(a, b, b.xor(b.swap64()));
        Xmm(s.reduce())
    }
}

/// POLYVAL's dot(a, b) = a·b·x^-128.
#[inline(always)]
pub(super) unsafe fn dot(a: u128, b: u128) -> u128 {
    unsafe { acc_out(mul(Xmm(acc_in(a)), Xmm(acc_in(b))).0) }
}

/// H^1..H^k into `pw[0..k]` (pw[j - 1] = H^j) by doubling: with H^1..H^m known,
/// H^(m+j) = H^m·H^j for j = 1..m are independent multiplies, so the dependency depth is
/// log2(k) instead of k. A fixed-size array, which the compiler keeps in registers: with
/// the powers in a slice, or in the u128 table of `HashKey`, the per-message AES-GCM-SIV
/// kernel measured 20-30 % slower at 256-576 B (`gcmkit-bench focus`, 0.73-0.85x against
/// 1.01-1.08x AWS-LC).
#[inline(always)]
unsafe fn powers<const M: usize>(h: Xmm, k: usize, pw: &mut [Xmm; M]) {
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
#[inline(always)]
pub(super) unsafe fn fill_powers(h: u128, count: usize, desc: &mut [u128; POWERS]) {
    unsafe {
        let count = count.clamp(1, POWERS);
        let mut pw = [Xmm::zero(); POWERS];
        powers(Xmm(acc_in(h)), count, &mut pw);
        for (j, p) in pw.iter().enumerate().take(count) {
            desc[POWERS - 1 - j] = acc_out(p.0);
        }
        // Key material: overwrite the stack copy.
        for p in pw.iter_mut().take(count) {
            core::ptr::write_volatile(p, Xmm::zero());
        }
    }
}

#[inline(always)]
unsafe fn load_elem<V: Simd>(p: *const u8, flavor: Flavor) -> V {
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
#[inline(always)]
unsafe fn load_block<V: Simd>(p: *const u8, n: usize, flavor: Flavor) -> Xmm {
    unsafe {
        if n == 16 {
            load_elem::<Xmm>(p, flavor)
        } else {
            let x = Xmm(V::load_partial(p, n).lane0());
            if flavor == Flavor::Ghash {
                x.bswap()
            } else {
                x
            }
        }
    }
}

/// Pointer to H^k.. in the descending table: `desc[POWERS - k]`.
#[inline(always)]
fn power_ptr(key: &HashKey, k: usize) -> *const u8 {
    key.desc[POWERS - k..].as_ptr().cast()
}

/// The Karatsuba helpers matching [`power_ptr`].
#[inline(always)]
fn kara_ptr(key: &HashKey, k: usize) -> *const u8 {
    key.kara[POWERS - k..].as_ptr().cast()
}

/// Hashes `k` (1 <= k <= key.count) whole blocks at `src` into `acc` with one reduction.
#[inline(always)]
unsafe fn hash_batch<V: Simd>(key: &HashKey, acc: __m128i, src: *const u8, k: usize) -> __m128i {
    unsafe {
        let h = power_ptr(key, k);
        let hk = kara_ptr(key, k);
        let mut i = 0;
        let mut wide = Sums::<V>::zero();
        let mut first = Xmm(acc);
        if k >= V::LANES {
            let x = load_elem::<V>(src, key.flavor).xor(V::from_lane0(acc));
            wide.mul_add(x, V::load(h), V::load(hk));
            i = V::LANES;
            first = Xmm::zero();
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
            let x = load_elem::<Xmm>(src.add(16 * i), key.flavor).xor(first);
            first = Xmm::zero();
            s.mul_add(x, Xmm::load(h.add(16 * i)), Xmm::load(hk.add(16 * i)));
            i += 1;
        }
        s.reduce()
    }
}

/// acc' = (acc + x)·H for one field element `x` (see [`load_block`]).
#[inline(always)]
unsafe fn hash_block(key: &HashKey, acc: __m128i, x: Xmm) -> __m128i {
    unsafe {
        let mut s = Sums::<Xmm>::zero();
        s.mul_add(
            x.xor(Xmm(acc)),
            Xmm::load(power_ptr(key, 1)),
            Xmm::load(kara_ptr(key, 1)),
        );
        s.reduce()
    }
}

#[inline(always)]
fn acc_in(acc: u128) -> __m128i {
    // SAFETY: reads 16 bytes of a u128 (x86 is little-endian: the element's low qword first).
    unsafe { _mm_loadu_si128((&acc as *const u128).cast()) }
}

#[inline(always)]
fn acc_out(a: __m128i) -> u128 {
    let mut out = 0u128;
    // SAFETY: writes 16 bytes into a u128.
    unsafe { _mm_storeu_si128((&mut out as *mut u128).cast(), a) };
    out
}

/// Absorbs `data` into `acc`, the final partial block zero-padded; up to `MAXW` blocks
/// per reduction.
#[inline(always)]
pub(super) unsafe fn hash_update<V: Simd, const MAXW: usize>(
    key: &HashKey,
    acc: &mut u128,
    data: &[u8],
) {
    unsafe {
        let w = MAXW.min(key.count);
        let mut a = acc_in(*acc);
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
        *acc = acc_out(a);
    }
}

/// Source and destination of a kernel: the same pointer for in-place work, or two
/// non-overlapping buffers of `len` bytes (one pass from input to output, no copy first).
#[derive(Clone, Copy)]
pub(crate) struct Io {
    src: *const u8,
    dst: *mut u8,
    len: usize,
}

impl Io {
    pub(crate) fn in_place(data: &mut [u8]) -> Io {
        let p = data.as_mut_ptr();
        Io {
            src: p,
            dst: p,
            len: data.len(),
        }
    }

    /// `src` and `dst` must have the same length (checked by the caller; asserted here).
    pub(crate) fn out_of_place(src: &[u8], dst: &mut [u8]) -> Io {
        let len = src.len().min(dst.len());
        Io {
            src: src.as_ptr(),
            dst: dst.as_mut_ptr(),
            len,
        }
    }

    /// The part from byte `off` on.
    fn skip(self, off: usize) -> Io {
        // SAFETY (for the callers' later use): off <= len, so both pointers stay within or
        // one past their buffers.
        unsafe {
            Io {
                src: self.src.add(off),
                dst: self.dst.add(off),
                len: self.len - off,
            }
        }
    }

    /// The destination as a slice (valid after the kernel wrote it).
    unsafe fn dst_slice<'a>(self) -> &'a [u8] {
        unsafe { core::slice::from_raw_parts(self.dst, self.len) }
    }

    /// The source as a slice.
    unsafe fn src_slice<'a>(self) -> &'a [u8] {
        unsafe { core::slice::from_raw_parts(self.src, self.len) }
    }
}

/// XORs the counter-mode keystream into `data`; returns the counter after the last block.
#[inline(always)]
pub(super) unsafe fn ctr_xor<V: Simd, const N: usize>(
    rk: &RoundKeys,
    kind: Counter,
    ctr: [u8; 16],
    data: &mut [u8],
) -> [u8; 16] {
    unsafe { ctr_xor_io::<V, N>(rk, kind, ctr, Io::in_place(data)) }
}

/// dst = src XOR keystream from `ctr`; returns the counter after the last block.
#[inline(always)]
pub(super) unsafe fn ctr_xor_io<V: Simd, const N: usize>(
    rk: &RoundKeys,
    kind: Counter,
    ctr: [u8; 16],
    io: Io,
) -> [u8; 16] {
    unsafe {
        let ks = keys::<V>(rk);
        let mut c = Ctr::<V>::new(&ctr, kind);
        let (vb, wb) = (16 * V::LANES, 16 * V::LANES * N);
        let len = io.len;
        let mut off = 0;
        while off + wb <= len {
            let mut s = c.take_batch::<N>(ks.k[0]);
            aes_n_whitened(&ks, &mut s);
            for (j, x) in s.iter().enumerate() {
                let o = off + vb * j;
                V::load(io.src.add(o)).xor(*x).store(io.dst.add(o));
            }
            off += wb;
        }
        // The rest (less than a batch) as one group of G independent AES chains, G the
        // smallest of 1, 2, 4, 8 that covers it, so short inputs and tails do not run
        // their vectors one latency chain after another.
        const { assert!(N <= 8, "the tail groups cover at most 8 vectors") };
        let rest = io.skip(off);
        match rest.len.div_ceil(vb) {
            0 => {}
            1 => ctr_group::<V, 1>(&ks, &mut c, rest),
            2 => ctr_group::<V, 2>(&ks, &mut c, rest),
            3 | 4 => ctr_group::<V, 4>(&ks, &mut c, rest),
            _ => ctr_group::<V, 8>(&ks, &mut c, rest),
        }
        kind.add(&ctr, len.div_ceil(16) as u32)
    }
}

/// dst = src xor the next G vectors of keystream, for `io.len` <= 16·LANES·G bytes (the
/// last vector may be partial: masked load and store on AVX-512).
#[inline(always)]
unsafe fn ctr_group<V: Simd, const G: usize>(ks: &Keys<V>, c: &mut Ctr<V>, io: Io) {
    unsafe {
        let vb = 16 * V::LANES;
        let mut s = c.take_batch::<G>(ks.k[0]);
        aes_n_whitened(ks, &mut s);
        for (j, x) in s.iter().enumerate() {
            let o = vb * j;
            if o >= io.len {
                break;
            }
            let n = io.len - o;
            if n >= vb {
                V::load(io.src.add(o)).xor(*x).store(io.dst.add(o));
            } else {
                V::load_partial(io.src.add(o), n)
                    .xor(*x)
                    .store_partial(io.dst.add(o), n);
            }
        }
    }
}

/// ECB encryption of a few blocks (H, E(K, Y0), DeriveKey, SIV tags): as many
/// independent AES chains as there are blocks, up to 8.
#[inline(always)]
pub(super) unsafe fn encrypt_blocks(rk: &RoundKeys, blocks: &mut [[u8; 16]]) {
    unsafe {
        let ks = keys::<Xmm>(rk);
        for group in blocks.chunks_mut(8) {
            match group.len() {
                1 => ecb::<1>(&ks, group),
                2 => ecb::<2>(&ks, group),
                3 | 4 => ecb::<4>(&ks, group),
                _ => ecb::<8>(&ks, group),
            }
        }
    }
}

#[inline(always)]
unsafe fn ecb<const N: usize>(ks: &Keys<Xmm>, group: &mut [[u8; 16]]) {
    unsafe {
        let mut s = [Xmm::zero(); N];
        for (x, b) in s.iter_mut().zip(group.iter()) {
            *x = Xmm::load(b.as_ptr());
        }
        aes_n(ks, &mut s);
        for (x, b) in s.iter().zip(group.iter_mut()) {
            x.store(b.as_mut_ptr());
        }
    }
}

/// Largest message (bytes) for [`gcm_small`]: with E(K, Y0), eight AES blocks.
pub(crate) const SMALL_DATA: usize = 7 * 16;
/// Largest padded AAD + padded data + length block for [`gcm_small`] (one reduction).
pub(crate) const SMALL_HASHED: usize = POWERS * 16;

/// Whole AES-GCM of a small input: E(K, Y0) and the keystream in one AES batch, then
/// GHASH(A, C, lengths) as one aggregated batch with one reduction. Returns the full tag.
/// The caller guarantees `data.len() <= SMALL_DATA` and
/// `pad16(aad) + pad16(data) + 16 <= SMALL_HASHED`.
#[inline(always)]
pub(super) unsafe fn gcm_small<V: Simd>(
    rk: &RoundKeys,
    key: &HashKey,
    y0: &[u8; 16],
    aad: &[u8],
    data: &mut [u8],
    decrypt: bool,
) -> [u8; 16] {
    unsafe {
        // E(K, Y0) and the keystream, counters built in registers (no store-to-load
        // round trip through memory), as many AES chains as blocks.
        match data.len().div_ceil(16) + 1 {
            1 => small::<V, 1>(rk, key, y0, aad, data, decrypt),
            2 => small::<V, 2>(rk, key, y0, aad, data, decrypt),
            3 | 4 => small::<V, 4>(rk, key, y0, aad, data, decrypt),
            _ => small::<V, 8>(rk, key, y0, aad, data, decrypt),
        }
    }
}

/// Absorbs `bytes` (zero-padded to whole blocks) into `sums`, block `b` (counted from
/// `*next`) multiplied by the power at `h`/`hk` + 16·b; advances `*next`.
#[inline(always)]
unsafe fn absorb_padded<V: Simd>(
    sums: &mut Sums<Xmm>,
    bytes: &[u8],
    h: *const u8,
    hk: *const u8,
    next: &mut usize,
    flavor: Flavor,
) {
    unsafe {
        for blk in bytes.chunks(16) {
            let o = 16 * *next;
            sums.mul_add(
                load_block::<V>(blk.as_ptr(), blk.len(), flavor),
                Xmm::load(h.add(o)),
                Xmm::load(hk.add(o)),
            );
            *next += 1;
        }
    }
}

#[inline(always)]
unsafe fn small<V: Simd, const N: usize>(
    rk: &RoundKeys,
    key: &HashKey,
    y0: &[u8; 16],
    aad: &[u8],
    data: &mut [u8],
    decrypt: bool,
) -> [u8; 16] {
    unsafe {
        let ks = keys::<Xmm>(rk);
        let mut c = Ctr::<Xmm>::new(y0, Counter::Be32);
        let mut s = [Xmm::zero(); N];
        for x in s.iter_mut() {
            *x = c.take();
        }
        aes_n(&ks, &mut s);
        // GHASH of pad16(A) || pad16(C) || lengths as one batch of k blocks, hashed straight
        // from the caller's slices (block b times H^(k-b)), one reduction.
        let k = aad.len().div_ceil(16) + data.len().div_ceil(16) + 1;
        let (h, hk) = (power_ptr(key, k), kara_ptr(key, k));
        let mut sums = Sums::<Xmm>::zero();
        let mut next = 0;
        absorb_padded::<V>(&mut sums, aad, h, hk, &mut next, key.flavor);
        if decrypt {
            absorb_padded::<V>(&mut sums, data, h, hk, &mut next, key.flavor);
        }
        let mut full = data.chunks_exact_mut(16);
        let mut i = 1;
        for d in &mut full {
            Xmm::load(d.as_ptr()).xor(s[i]).store(d.as_mut_ptr());
            i += 1;
        }
        let tail = full.into_remainder();
        if !tail.is_empty() {
            let n = tail.len();
            let x = Xmm(V::load_partial(tail.as_ptr(), n).lane0()).xor(s[i]);
            V::from_lane0(x.0).store_partial(tail.as_mut_ptr(), n);
        }
        if !decrypt {
            absorb_padded::<V>(&mut sums, data, h, hk, &mut next, key.flavor);
        }
        let len = crate::field::gcm_length_block(aad.len() as u64, data.len() as u64);
        absorb_padded::<V>(&mut sums, &len, h, hk, &mut next, key.flavor);
        let g = sums.reduce();
        // GHASH's output is the byte-reversed element; the tag is that xor E(K, Y0).
        let t = Xmm(g).bswap().xor(s[0]);
        let mut out = [0u8; 16];
        t.store(out.as_mut_ptr());
        out
    }
}

/// Largest padded AAD + padded message + length block for [`siv_small`], in blocks (a 1 KiB
/// message with up to 112 bytes of AAD). Measured (`gcmkit-bench focus`, AES-128-GCM-SIV
/// against AWS-LC): at 1 KiB this kernel 1.03x against 0.90-0.99x for the general path; at
/// 1.5 KiB both about 1.12x encrypting, and the general path's stitched decryption and
/// larger power tables take over from there.
pub(crate) const SIV_SMALL_BLOCKS: usize = 72;
/// Blocks per reduction in [`siv_small`] (powers computed per message: 7 multiplies).
const SIV_GROUP: usize = 8;

/// Whole AES-GCM-SIV (RFC 8452) of a small input in one call, so the per-message work
/// overlaps instead of running as eight kernel calls: DeriveKey's 4 or 6 AES blocks as
/// independent chains; the encryption key schedule; H^1..H^8 by doubling, in registers
/// and a stack table; POLYVAL of AAD, plaintext and lengths with one reduction per 8
/// blocks; the tag; CTR. The schedule (a serial chain) and the hash
/// (which needs only the authentication key) are independent until the tag.
///
/// Encryption (`received` None): `data` is the plaintext, encrypted in place; returns the
/// tag. Decryption: `data` is decrypted in place under the received tag's counter and the
/// tag of the resulting plaintext is returned: the caller compares (in constant time)
/// and zeroes `data` on mismatch. The caller guarantees
/// `pad16(aad) + pad16(data) + 16 <= 16 * SIV_SMALL_BLOCKS`.
#[inline(always)]
pub(super) unsafe fn siv_small<V: Simd>(
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    data: &mut [u8],
    received: Option<&[u8; 16]>,
) -> Result<[u8; 16], crate::Error> {
    unsafe {
        // DeriveKey: AES(K, LE32(i) || N), i = 0..5 (blocks 4 and 5 unused for AES-128;
        // computing them in parallel costs no latency).
        let mut nb = [0u8; 16];
        nb[4..].copy_from_slice(nonce);
        let nonce_block = Xmm::load(nb.as_ptr());
        let mut d = [Xmm::zero(); 6];
        for (i, x) in d.iter_mut().enumerate() {
            *x = nonce_block.add32(Xmm::splat_dword0(i as i32));
        }
        aes_n(&keys::<Xmm>(kgk), &mut d);
        // The first 8 bytes of each block: authentication key, then encryption key.
        let h = _mm_unpacklo_epi64(d[0].0, d[1].0);
        let mut enc = [0u8; 32];
        Xmm(_mm_unpacklo_epi64(d[2].0, d[3].0)).store(enc.as_mut_ptr());
        Xmm(_mm_unpacklo_epi64(d[4].0, d[5].0)).store(enc.as_mut_ptr().add(16));
        let enc_len = if kgk.rounds() == 14 { 32 } else { 16 };
        let mut rk = RoundKeys::empty();
        let expanded = super::keys::expand_into(&enc[..enc_len], &mut rk);
        crate::engine::wipe::wipe(&mut enc);
        expanded?;
        let ek = keys::<Xmm>(&rk);

        // H^1..H^kp (kp = min(blocks, SIV_GROUP)), pw[j - 1] = H^j, and their Karatsuba
        // helpers.
        let (ab, db) = (aad.len().div_ceil(16), data.len().div_ceil(16));
        let total = ab + db + 1;
        let kp = total.min(SIV_GROUP);
        let mut pw = [Xmm::zero(); SIV_GROUP];
        let mut kara = [Xmm::zero(); SIV_GROUP];
        powers(Xmm(h), kp, &mut pw);
        for j in 0..kp {
            kara[j] = pw[j].xor(pw[j].swap64());
        }

        // CTR starts at the tag with bit 127 set.
        let counter_of = |tag: Xmm| -> [u8; 16] {
            let mut c = [0u8; 16];
            Xmm(_mm_or_si128(tag.0, _mm_set_epi32(i32::MIN, 0, 0, 0))).store(c.as_mut_ptr());
            c
        };
        if let Some(t) = received {
            ctr_xor_io::<V, 8>(
                &rk,
                Counter::Le32,
                counter_of(Xmm::load(t.as_ptr())),
                Io::in_place(data),
            );
        }
        // POLYVAL of pad16(AAD) || pad16(plaintext) || lengths: `total` blocks in groups
        // of up to SIV_GROUP, each one aggregated batch (block i of a group ending at
        // `end` times H^(end - i)) with one reduction; the running value enters each
        // group's first block (Horner over groups).
        let len = crate::field::siv_length_block(aad.len() as u64, data.len() as u64);
        let mut acc = Xmm::zero();
        {
            let plain: &[u8] = data;
            let block = |i: usize| -> Xmm {
                let (src, off) = if i < ab {
                    (aad, 16 * i)
                } else if i < ab + db {
                    (plain, 16 * (i - ab))
                } else {
                    (&len[..], 0)
                };
                load_block::<V>(
                    src.as_ptr().add(off),
                    (src.len() - off).min(16),
                    Flavor::Polyval,
                )
            };
            let mut b = 0;
            while b < total {
                let end = (b + SIV_GROUP).min(total);
                let mut sums = Sums::<Xmm>::zero();
                for i in b..end {
                    let mut x = block(i);
                    if i == b {
                        x = x.xor(acc);
                    }
                    let e = end - i;
                    sums.mul_add(x, pw[e - 1], kara[e - 1]);
                }
                acc = Xmm(sums.reduce());
                b = end;
            }
        }
        // S = POLYVAL xor (N || 0^32) with bit 127 cleared; TAG = AES(K_enc, S).
        let mut n0 = [0u8; 16];
        n0[..12].copy_from_slice(nonce);
        let mut s = [Xmm(_mm_and_si128(
            acc.xor(Xmm::load(n0.as_ptr())).0,
            _mm_set_epi32(0x7fff_ffff, -1, -1, -1),
        ))];
        aes_n(&ek, &mut s);
        if received.is_none() {
            ctr_xor_io::<V, 8>(&rk, Counter::Le32, counter_of(s[0]), Io::in_place(data));
        }
        // The powers are key material: overwrite the stack copies.
        for x in pw.iter_mut().chain(kara.iter_mut()) {
            core::ptr::write_volatile(x, Xmm::zero());
        }
        let mut tag = [0u8; 16];
        s[0].store(tag.as_mut_ptr());
        Ok(tag)
    }
}

/// Whole AES-GCM of any length in one kernel call: GHASH of the AAD, the stitched
/// CTR + GHASH pass from the counter after `y0`, the length block and the tag mask
/// E(K, Y0). One entry instead of five (AAD hash, stitched pass, length block, tag mask,
/// and the dispatch around each) saves their set-ups: AES-128-GCM at 576 B and 1500 B went
/// from 0.86-0.96x to about 1.05-1.15x AWS-LC (`gcmkit-bench focus`, same run).
/// Returns the full tag (GHASH xor E(K, Y0)).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn gcm_whole<V: Simd, const N: usize, const MAXW: usize>(
    rk: &RoundKeys,
    key: &HashKey,
    kind: Counter,
    y0: &[u8; 16],
    aad: &[u8],
    io: Io,
    what: Hash,
) -> [u8; 16] {
    unsafe {
        // E(K, Y0) first: independent of everything else, it overlaps the hashing.
        let mut mask = [Xmm::load(y0.as_ptr())];
        aes_n(&keys::<Xmm>(rk), &mut mask);
        let mut acc = 0u128;
        hash_update::<V, MAXW>(key, &mut acc, aad);
        stitched::<V, N, MAXW>(rk, key, kind, kind.add(y0, 1), &mut acc, io, what);
        let len = crate::field::gcm_length_block(aad.len() as u64, io.len as u64);
        let a = hash_block(
            key,
            acc_in(acc),
            load_block::<Xmm>(len.as_ptr(), 16, key.flavor),
        );
        // GHASH's output is the byte-reversed element; the tag is that xor E(K, Y0).
        let mut out = [0u8; 16];
        Xmm(a).bswap().xor(mask[0]).store(out.as_mut_ptr());
        out
    }
}

/// Which data the stitched kernel hashes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hash {
    /// The input (GCM decryption hashes the ciphertext it decrypts).
    Input,
    /// The output (GCM encryption hashes its ciphertext; AES-GCM-SIV decryption hashes the
    /// plaintext it produces).
    Output,
}

/// CTR over `data` in place with the GHASH/POLYVAL of the input or output absorbed into
/// `acc`, N vectors per batch, AES and CLMUL interleaved. Returns the next counter.
#[inline(always)]
pub(super) unsafe fn stitched<V: Simd, const N: usize, const MAXW: usize>(
    rk: &RoundKeys,
    key: &HashKey,
    kind: Counter,
    ctr: [u8; 16],
    acc: &mut u128,
    io: Io,
    what: Hash,
) -> [u8; 16] {
    unsafe {
        let wblocks = N * V::LANES;
        let (vb, wb) = (16 * V::LANES, 16 * wblocks);
        let batches = io.len / wb;
        if key.count < wblocks || batches < 2 {
            // Short input: the two passes back to back.
            return match what {
                Hash::Input => {
                    hash_update::<V, MAXW>(key, acc, io.src_slice());
                    ctr_xor_io::<V, N>(rk, kind, ctr, io)
                }
                Hash::Output => {
                    let next = ctr_xor_io::<V, N>(rk, kind, ctr, io);
                    hash_update::<V, MAXW>(key, acc, io.dst_slice());
                    next
                }
            };
        }
        let ks = keys::<V>(rk);
        let mut hpow = [V::zero(); N];
        let mut hkar = [V::zero(); N];
        for j in 0..N {
            hpow[j] = V::load(power_ptr(key, wblocks).add(vb * j));
            hkar[j] = V::load(kara_ptr(key, wblocks).add(vb * j));
        }
        let mut c = Ctr::<V>::new(&ctr, kind);
        let args = (&ks, key, &hpow, &hkar, io, batches, what);
        let mut a = match ks.rounds {
            10 => batch_loop::<V, N, 10>(args, &mut c, acc_in(*acc)),
            12 => batch_loop::<V, N, 12>(args, &mut c, acc_in(*acc)),
            _ => batch_loop::<V, N, 14>(args, &mut c, acc_in(*acc)),
        };
        if what == Hash::Output {
            a = hash_batch::<V>(key, a, io.dst.add((batches - 1) * wb), wblocks);
        }
        *acc = acc_out(a);
        let done = batches * wb;
        let next = kind.add(&ctr, (done / 16) as u32);
        let rest = io.skip(done);
        match what {
            Hash::Input => {
                hash_update::<V, MAXW>(key, acc, rest.src_slice());
                ctr_xor_io::<V, N>(rk, kind, next, rest)
            }
            Hash::Output => {
                let next = ctr_xor_io::<V, N>(rk, kind, next, rest);
                hash_update::<V, MAXW>(key, acc, rest.dst_slice());
                next
            }
        }
    }
}

/// Borrowed state of one stitched run: keys, hash key, the batch's powers and Karatsuba
/// helpers, the data, the batch count and what to hash.
type LoopArgs<'a, V, const N: usize> = (
    &'a Keys<V>,
    &'a HashKey,
    &'a [V; N],
    &'a [V; N],
    Io,
    usize,
    Hash,
);

/// The stitched batches with the AES round count `R` fixed at compile time.
#[inline(always)]
unsafe fn batch_loop<V: Simd, const N: usize, const R: usize>(
    args: LoopArgs<'_, V, N>,
    c: &mut Ctr<V>,
    mut a: __m128i,
) -> __m128i {
    unsafe {
        let (ks, key, hpow, hkar, io, batches, what) = args;
        let vb = 16 * V::LANES;
        let wb = vb * N;
        for b in 0..batches {
            let off = b * wb;
            // The N vectors this batch hashes: its own input, or the previous batch's output.
            let src: Option<*const u8> = match what {
                Hash::Input => Some(io.src.add(off)),
                Hash::Output if b > 0 => Some(io.dst.add(off - wb) as *const u8),
                Hash::Output => None,
            };
            let mut s = c.take_batch::<N>(ks.k[0]);
            // Rounds 1..=N each carry one vector of hashing (rounds >= 10 > N); products
            // are summed in pairs with three-input XORs.
            let mut sums = Sums::<V>::zero();
            let mut pending = Sums::<V>::zero();
            for j in 0..N {
                let k = ks.k[j + 1];
                for x in s.iter_mut() {
                    *x = x.aesenc(k);
                }
                if let Some(src) = src {
                    let mut x = load_elem::<V>(src.add(vb * j), key.flavor);
                    if j == 0 {
                        x = x.xor(V::from_lane0(a));
                    }
                    let p = Sums::product(x, hpow[j], hkar[j]);
                    match j {
                        1 => sums = Sums::sum2(pending, p),
                        _ if j % 2 == 1 => sums.add2(pending, p),
                        _ if j == N - 1 => sums.add(p),
                        _ => pending = p,
                    }
                }
            }
            for r in N + 1..R {
                let k = ks.k[r];
                for x in s.iter_mut() {
                    *x = x.aesenc(k);
                }
            }
            if src.is_some() {
                a = sums.reduce();
            }
            let k = ks.k[R];
            for (j, x) in s.iter().enumerate() {
                let o = off + vb * j;
                V::load(io.src.add(o))
                    .xor(x.aesenclast(k))
                    .store(io.dst.add(o));
            }
        }
        a
    }
}
