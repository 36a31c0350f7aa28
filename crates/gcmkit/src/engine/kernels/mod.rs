//! The kernels: AES-CTR, GHASH/POLYVAL, stitched AES-GCM and fused small-message AES-GCM
//! and AES-GCM-SIV, written once against the ISA-neutral [`Simd`] trait. No file in this
//! folder names an instruction set: a backend (x86 `Xmm`/`Ymm`/`Zmm`, an Arm NEON type)
//! implements `Simd`, and [`entry_points!`] instantiates these generic functions inside
//! `#[target_feature]` functions with that backend's feature table, where they inline.
//!
//! Files by job: `aes` (round keys, N independent AES chains, ECB), `ctr` (counter blocks
//! and keystream), `ghash` (field products, reduction, powers of H, hashing), `gcm`
//! (stitched pass, whole message, small messages), `siv` (fused small AES-GCM-SIV).
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

pub(crate) mod aes;
pub(crate) mod ctr;
pub(crate) mod gcm;
pub(crate) mod ghash;
pub(crate) mod siv;

pub(crate) use gcm::{SMALL_DATA, SMALL_HASHED};
pub(crate) use siv::SIV2015_SMALL_DATA;
pub(crate) use siv::SIV_SMALL_BLOCKS;

use super::simd::Simd;
use core::marker::PhantomData;

/// Overwrites vectors that held key material (powers of H, round keys) before their stack
/// slots are reused: volatile stores of zero, which the compiler may not drop.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(crate) unsafe fn wipe_vectors<B: Simd>(v: &mut [B]) {
    for x in v.iter_mut() {
        // SAFETY: x is a valid, exclusive reference; zero() runs under the caller's
        // target features (the trait's contract).
        unsafe { core::ptr::write_volatile(x, B::zero()) };
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

/// Source and destination of a kernel: the same pointer for in-place work, or two
/// non-overlapping buffers of `len` bytes (one pass from input to output, no copy first).
/// Built only from borrowed slices, whose borrows it carries (`'a`), so a kernel can never
/// outlive the buffers it reads and writes.
#[derive(Clone, Copy)]
pub(crate) struct Io<'a> {
    pub(super) src: *const u8,
    pub(super) dst: *mut u8,
    pub(super) len: usize,
    _borrow: PhantomData<&'a mut [u8]>,
}

impl<'a> Io<'a> {
    /// The buffer is both source and destination.
    pub(crate) fn in_place(data: &'a mut [u8]) -> Io<'a> {
        let p = data.as_mut_ptr();
        Io {
            src: p,
            dst: p,
            len: data.len(),
            _borrow: PhantomData,
        }
    }

    /// From `src` into `dst`; the shorter length is used (callers pass equal lengths).
    pub(crate) fn out_of_place(src: &'a [u8], dst: &'a mut [u8]) -> Io<'a> {
        let len = src.len().min(dst.len());
        Io {
            src: src.as_ptr(),
            dst: dst.as_mut_ptr(),
            len,
            _borrow: PhantomData,
        }
    }

    /// The part from byte `off` <= len on.
    pub(super) fn skip(self, off: usize) -> Io<'a> {
        let off = off.min(self.len);
        Io {
            // wrapping_add: no unsafe needed; off <= len keeps both pointers within (or one
            // past) their buffers, so they stay valid for the remaining len - off bytes.
            src: self.src.wrapping_add(off),
            dst: self.dst.wrapping_add(off),
            len: self.len - off,
            _borrow: PhantomData,
        }
    }

    /// The destination as a slice (read after the kernel wrote it).
    ///
    /// # Safety
    /// No other live reference may write the destination while the slice is used.
    pub(super) unsafe fn dst_slice(self) -> &'a [u8] {
        // SAFETY: dst is valid for len bytes for 'a (from a borrowed slice); the caller
        // guarantees no concurrent writer.
        unsafe { core::slice::from_raw_parts(self.dst, self.len) }
    }

    /// The source as a slice.
    ///
    /// # Safety
    /// No other live reference may write the source while the slice is used.
    pub(super) unsafe fn src_slice(self) -> &'a [u8] {
        // SAFETY: as `dst_slice`.
        unsafe { core::slice::from_raw_parts(self.src, self.len) }
    }
}

/// Instantiates every kernel for one backend: vector type `$v`, `$n` vectors per AES
/// batch, up to `$maxw` blocks per GHASH reduction, compiled with the target features
/// `$feat` (the backend's feature table, the same list run-time detection checks).
/// Generates `unsafe` functions named after the kernels.
///
/// # Safety (of every generated function)
/// The CPU must have every feature in `$feat`: callers reach these functions only through
/// a [`crate::engine::Kernels`] token, which exists only after detection of that list.
/// Pointers and lengths as the generic kernel documents.
macro_rules! entry_points {
    ([$($feat:tt),+], $v:ty, $n:literal, $maxw:literal) => {
        use crate::aes::RoundKeys;
        use crate::engine::kernels::{self, Hash, Io};
        use crate::engine::Counter;
        use crate::field::HashKey;

        /// Blocks per stitched batch: the stitched kernel needs this many powers of H.
        pub(crate) const BATCH_BLOCKS: usize =
            $n * <$v as crate::engine::simd::Simd>::LANES;

        /// # Safety
        /// The CPU must have this backend's features (see `entry_points!`).
        $(#[target_feature(enable = $feat)])+
        pub(crate) unsafe fn encrypt_blocks(rk: &RoundKeys, blocks: &mut [[u8; 16]]) {
            // SAFETY: this function's contract.
            unsafe { kernels::aes::encrypt_blocks::<$v>(rk, blocks) }
        }

        /// # Safety
        /// The CPU must have this backend's features (see `entry_points!`).
        $(#[target_feature(enable = $feat)])+
        pub(crate) unsafe fn ctr_xor(
            rk: &RoundKeys,
            kind: Counter,
            ctr: [u8; 16],
            data: &mut [u8],
        ) -> [u8; 16] {
            // SAFETY: this function's contract.
            unsafe { kernels::ctr::ctr_xor::<$v, $n>(rk, kind, ctr, data) }
        }

        /// # Safety
        /// The CPU must have this backend's features (see `entry_points!`).
        $(#[target_feature(enable = $feat)])+
        pub(crate) unsafe fn hash_update(key: &HashKey, acc: &mut u128, data: &[u8]) {
            // SAFETY: this function's contract.
            unsafe { kernels::ghash::hash_update::<$v, $maxw>(key, acc, data) }
        }

        /// # Safety
        /// The CPU must have this backend's features (see `entry_points!`).
        $(#[target_feature(enable = $feat)])+
        pub(crate) unsafe fn stitched(
            rk: &RoundKeys,
            key: &HashKey,
            kind: Counter,
            ctr: [u8; 16],
            acc: &mut u128,
            io: Io<'_>,
            what: Hash,
        ) -> [u8; 16] {
            // SAFETY: this function's contract.
            unsafe { kernels::gcm::stitched::<$v, $n, $maxw>(rk, key, kind, ctr, acc, io, what) }
        }

        /// # Safety
        /// The CPU must have this backend's features (see `entry_points!`).
        $(#[target_feature(enable = $feat)])+
        pub(crate) unsafe fn gcm_whole(
            rk: &RoundKeys,
            key: &HashKey,
            kind: Counter,
            y0: &[u8; 16],
            aad: &[u8],
            io: Io<'_>,
            what: Hash,
        ) -> [u8; 16] {
            // SAFETY: this function's contract.
            unsafe { kernels::gcm::gcm_whole::<$v, $n, $maxw>(rk, key, kind, y0, aad, io, what) }
        }

        /// # Safety
        /// The CPU must have this backend's features; sizes as `kernels::gcm::gcm_small`.
        $(#[target_feature(enable = $feat)])+
        pub(crate) unsafe fn gcm_small(
            rk: &RoundKeys,
            key: &HashKey,
            y0: u128,
            aad: &[u8],
            io: Io<'_>,
            decrypt: bool,
        ) -> [u8; 16] {
            // SAFETY: this function's contract.
            unsafe { kernels::gcm::gcm_small::<$v>(rk, key, y0, aad, io, decrypt) }
        }

        /// # Safety
        /// The CPU must have this backend's features; sizes as `kernels::siv::siv_small`.
        $(#[target_feature(enable = $feat)])+
        pub(crate) unsafe fn siv_small(
            kgk: &RoundKeys,
            nonce: &[u8; 12],
            aad: &[u8],
            data: &mut [u8],
            received: Option<&[u8; 16]>,
        ) -> Result<[u8; 16], crate::Error> {
            // SAFETY: this function's contract.
            unsafe { kernels::siv::siv_small::<$v>(kgk, nonce, aad, data, received) }
        }

        /// # Safety
        /// The CPU must have this backend's features (see `entry_points!`), and the
        /// sizes `kernels::siv::siv2015_small` documents.
        $(#[target_feature(enable = $feat)])+
        #[allow(clippy::too_many_arguments)]
        pub(crate) unsafe fn siv2015_small(
            hash: &HashKey,
            prf: &RoundKeys,
            ctr: &RoundKeys,
            how: (bool, crate::spec::siv::CounterInit),
            nonce: &[u8; 12],
            aad: &[u8],
            data: &mut [u8],
            received: Option<&[u8; 16]>,
        ) -> [u8; 16] {
            // SAFETY: this function's contract.
            unsafe {
                kernels::siv::siv2015_small::<$v>(hash, prf, ctr, how, nonce, aad, data, received)
            }
        }

        /// # Safety
        /// The CPU must have this backend's features (see `entry_points!`).
        $(#[target_feature(enable = $feat)])+
        pub(crate) unsafe fn fill_powers(
            h: u128,
            count: usize,
            desc: &mut [u128; crate::field::POWERS],
        ) {
            // SAFETY: this function's contract.
            unsafe { kernels::ghash::fill_powers::<$v>(h, count, desc) }
        }

        /// # Safety
        /// The CPU must have this backend's features (see `entry_points!`).
        $(#[target_feature(enable = $feat)])+
        #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
        pub(crate) unsafe fn dot(a: u128, b: u128) -> u128 {
            // SAFETY: this function's contract.
            unsafe { kernels::ghash::dot::<$v>(a, b) }
        }

        /// # Safety
        /// The CPU must have this backend's features (see `entry_points!`).
        $(#[target_feature(enable = $feat)])+
        pub(crate) unsafe fn expand_key_into(
            key: &[u8],
            rk: &mut RoundKeys,
        ) -> Result<(), crate::Error> {
            // SAFETY: this function's contract.
            unsafe { <$v as crate::engine::simd::Simd>::expand_key_into(key, rk) }
        }
    };
}
pub(crate) use entry_points;
