//! The x86 backend of [`Simd`]: `Xmm` (AES-NI + PCLMULQDQ, one block), `Ymm` (VAES +
//! VPCLMULQDQ on AVX2, two blocks) and `Zmm` (VAES + VPCLMULQDQ on AVX-512, four blocks).
//! Each method is one intrinsic, or a few for the cross-lane ones.
//!
//! Every method is a thin intrinsic wrapper under the single contract of [`Simd`] (run
//! only inside the engine's `#[target_feature]` entry points, after detection).

use crate::engine::simd::Simd;
use core::arch::x86_64::*;

#[inline(always)]
/// The byte-reversal shuffle mask.
///
/// # Safety
/// SSE2 must be available (every x86 engine has it).
unsafe fn bswap_mask128() -> __m128i {
    // SAFETY: register-only SSE2, this function's contract.
    unsafe { _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) }
}

/// The low `n` bits set (n < 64): the byte mask of an `n`-byte partial vector.
#[inline(always)]
fn byte_mask(n: usize) -> u64 {
    (1u64 << (n & 63)) - 1
}

#[derive(Clone, Copy)]
pub(crate) struct Xmm(__m128i);
#[derive(Clone, Copy)]
pub(crate) struct Ymm(__m256i);
#[derive(Clone, Copy)]
pub(crate) struct Zmm(__m512i);

// SAFETY (all three impls): every method only executes the intrinsics of its width; the
// engine entry points that instantiate the kernels enable exactly those target features
// (from the same feature table that run-time detection checks) and are only reachable
// through a `Kernels` token, which exists only after detection confirmed them. Loads and
// stores go through the unaligned forms and the caller guarantees `16 * LANES` valid bytes
// at the pointer.
impl Simd for Xmm {
    crate::engine::simd::single_lane_identities!();
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_setzero_si128()) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the `Simd` contract: `p` is valid for 16 bytes (`16 * LANES`), and the
        // unaligned load needs no alignment; this width's features are present.
        Xmm(unsafe { _mm_loadu_si128(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the `Simd` contract: `p` is valid for writing 16 bytes (`16 * LANES`),
        // and the unaligned store needs no alignment; this width's features are present.
        unsafe { _mm_storeu_si128(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_xor_si128(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor3(self, a: Self, b: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_xor_si128(self.0, _mm_xor_si128(a.0, b.0))) }
    }
    #[inline(always)]
    unsafe fn dword0(self) -> u32 {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { _mm_cvtsi128_si32(self.0) as u32 }
    }
    #[inline(always)]
    unsafe fn splat_dword3(n: i32) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_set_epi32(n, 0, 0, 0)) }
    }
    #[inline(always)]
    unsafe fn aesenc(self, k: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_aesenc_si128(self.0, k.0)) }
    }
    #[inline(always)]
    unsafe fn aesenclast(self, k: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_aesenclast_si128(self.0, k.0)) }
    }
    #[inline(always)]
    unsafe fn clmul<const IMM: i32>(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_clmulepi64_si128::<IMM>(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn swap64(self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_shuffle_epi32::<0x4e>(self.0)) }
    }
    #[inline(always)]
    unsafe fn bswap(self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_shuffle_epi8(self.0, bswap_mask128())) }
    }
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_add_epi32(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn splat_dword0(n: i32) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm_set_epi32(0, 0, 0, n)) }
    }
}

impl Simd for Ymm {
    const LANES: usize = 2;
    type Block = Xmm;
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_setzero_si256()) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the `Simd` contract: `p` is valid for 32 bytes (`16 * LANES`), and the
        // unaligned load needs no alignment; this width's features are present.
        Ymm(unsafe { _mm256_loadu_si256(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the `Simd` contract: `p` is valid for writing 32 bytes (`16 * LANES`),
        // and the unaligned store needs no alignment; this width's features are present.
        unsafe { _mm256_storeu_si256(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn broadcast(b: Xmm) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_broadcastsi128_si256(b.0)) }
    }
    #[inline(always)]
    unsafe fn from_lane0(b: Xmm) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_zextsi128_si256(b.0)) }
    }
    #[inline(always)]
    unsafe fn lane0(self) -> Xmm {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm256_castsi256_si128(self.0)) }
    }
    #[inline(always)]
    unsafe fn fold_lanes(self) -> Xmm {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe {
            Xmm(_mm_xor_si128(
                _mm256_castsi256_si128(self.0),
                _mm256_extracti128_si256::<1>(self.0),
            ))
        }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_xor_si256(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor3(self, a: Self, b: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_xor_si256(self.0, _mm256_xor_si256(a.0, b.0))) }
    }
    #[inline(always)]
    unsafe fn dword0(self) -> u32 {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { _mm256_cvtsi256_si32(self.0) as u32 }
    }
    #[inline(always)]
    unsafe fn splat_dword3(n: i32) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_set_epi32(n, 0, 0, 0, n, 0, 0, 0)) }
    }
    #[inline(always)]
    unsafe fn aesenc(self, k: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_aesenc_epi128(self.0, k.0)) }
    }
    #[inline(always)]
    unsafe fn aesenclast(self, k: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_aesenclast_epi128(self.0, k.0)) }
    }
    #[inline(always)]
    unsafe fn clmul<const IMM: i32>(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_clmulepi64_epi128::<IMM>(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn swap64(self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_shuffle_epi32::<0x4e>(self.0)) }
    }
    #[inline(always)]
    unsafe fn bswap(self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe {
            Ymm(_mm256_shuffle_epi8(
                self.0,
                _mm256_broadcastsi128_si256(bswap_mask128()),
            ))
        }
    }
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_add_epi32(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn lane_offsets() -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0)) }
    }
    #[inline(always)]
    unsafe fn splat_dword0(n: i32) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Ymm(_mm256_set_epi32(0, 0, 0, n, 0, 0, 0, n)) }
    }
}

impl Simd for Zmm {
    const LANES: usize = 4;
    type Block = Xmm;
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Zmm(_mm512_setzero_si512()) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the `Simd` contract: `p` is valid for 64 bytes (`16 * LANES`), and the
        // unaligned load needs no alignment; this width's features are present.
        Zmm(unsafe { _mm512_loadu_si512(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the `Simd` contract: `p` is valid for writing 64 bytes (`16 * LANES`),
        // and the unaligned store needs no alignment; this width's features are present.
        unsafe { _mm512_storeu_si512(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn broadcast(b: Xmm) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Zmm(_mm512_broadcast_i32x4(b.0)) }
    }
    #[inline(always)]
    unsafe fn from_lane0(b: Xmm) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Zmm(_mm512_zextsi128_si512(b.0)) }
    }
    #[inline(always)]
    unsafe fn lane0(self) -> Xmm {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Xmm(_mm512_castsi512_si128(self.0)) }
    }
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe {
            // Masked-off bytes are neither read nor able to fault.
            Zmm(_mm512_maskz_loadu_epi8(byte_mask(n), p.cast()))
        }
    }
    #[inline(always)]
    unsafe fn store_partial(self, p: *mut u8, n: usize) {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { _mm512_mask_storeu_epi8(p.cast(), byte_mask(n), self.0) }
    }
    #[inline(always)]
    unsafe fn fold_lanes(self) -> Xmm {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe {
            let a = _mm512_castsi512_si256(self.0);
            let b = _mm512_extracti64x4_epi64::<1>(self.0);
            Ymm(_mm256_xor_si256(a, b)).fold_lanes()
        }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Zmm(_mm512_xor_si512(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor3(self, a: Self, b: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe {
            // Truth table 0x96: the XOR of the three inputs.
            Zmm(_mm512_ternarylogic_epi32::<0x96>(self.0, a.0, b.0))
        }
    }
    #[inline(always)]
    unsafe fn dword0(self) -> u32 {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { _mm512_cvtsi512_si32(self.0) as u32 }
    }
    #[inline(always)]
    unsafe fn splat_dword3(n: i32) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe {
            Zmm(_mm512_set_epi32(
                n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0,
            ))
        }
    }
    #[inline(always)]
    unsafe fn aesenc(self, k: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Zmm(_mm512_aesenc_epi128(self.0, k.0)) }
    }
    #[inline(always)]
    unsafe fn aesenclast(self, k: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Zmm(_mm512_aesenclast_epi128(self.0, k.0)) }
    }
    #[inline(always)]
    unsafe fn clmul<const IMM: i32>(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Zmm(_mm512_clmulepi64_epi128::<IMM>(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn swap64(self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Zmm(_mm512_shuffle_epi32::<0x4e>(self.0)) }
    }
    #[inline(always)]
    unsafe fn bswap(self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe {
            Zmm(_mm512_shuffle_epi8(
                self.0,
                _mm512_broadcast_i32x4(bswap_mask128()),
            ))
        }
    }
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe { Zmm(_mm512_add_epi32(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn lane_offsets() -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe {
            Zmm(_mm512_set_epi32(
                0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0,
            ))
        }
    }
    #[inline(always)]
    unsafe fn splat_dword0(n: i32) -> Self {
        // SAFETY: the `Simd` contract (this width's target features are enabled and
        // present; pointers valid for the bytes named).
        unsafe {
            Zmm(_mm512_set_epi32(
                0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n,
            ))
        }
    }
}
