//! One vector abstraction over three widths, so every kernel has a single source.
//!
//! A vector holds `LANES` independent 128-bit blocks: `Xmm` 1 (AES-NI, PCLMULQDQ),
//! `Ymm` 2 (VAES, VPCLMULQDQ on AVX2), `Zmm` 4 (VAES, VPCLMULQDQ on AVX-512). Every
//! operation acts lane by lane, exactly as the 128-bit instruction does on one block,
//! so a kernel written against [`Simd`] computes the same thing at every width.
//!
//! All methods are `unsafe` and `#[inline(always)]`: they must only run inside a function
//! compiled with the width's target features (the engine entry points), where they
//! inline into plain instructions. Loads and stores are unaligned.
//!
//! Every method is a one-intrinsic wrapper under the single contract stated at the
//! impls below; per-call `unsafe` blocks would repeat it verbatim.
#![allow(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

/// A vector of `LANES` 128-bit blocks.
pub(crate) trait Simd: Copy {
    /// Blocks per vector.
    const LANES: usize;
    /// All zero.
    unsafe fn zero() -> Self;
    /// Loads `16 * LANES` bytes.
    unsafe fn load(p: *const u8) -> Self;
    /// Stores `16 * LANES` bytes.
    unsafe fn store(self, p: *mut u8);
    /// Loads the first `n` < 16·LANES bytes at `p`, the rest of the vector zero; never
    /// touches memory past `p + n`. AVX-512 does this with one masked load; the other
    /// widths copy through a stack buffer (wiped afterwards: it held data).
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize) -> Self {
        let mut b = [0u8; 64];
        core::ptr::copy_nonoverlapping(p, b.as_mut_ptr(), n);
        let v = Self::load(b.as_ptr());
        crate::engine::wipe::wipe_bytes(&mut b);
        v
    }
    /// Stores the first `n` < 16·LANES bytes of the vector at `p` (nothing past `p + n`).
    #[inline(always)]
    unsafe fn store_partial(self, p: *mut u8, n: usize) {
        let mut b = [0u8; 64];
        self.store(b.as_mut_ptr());
        core::ptr::copy_nonoverlapping(b.as_ptr(), p, n);
        crate::engine::wipe::wipe_bytes(&mut b);
    }
    /// Lane 0.
    unsafe fn lane0(self) -> __m128i;
    /// The same block in every lane.
    unsafe fn broadcast(b: __m128i) -> Self;
    /// `b` in lane 0, zero elsewhere.
    unsafe fn from_lane0(b: __m128i) -> Self;
    /// XOR of all lanes.
    unsafe fn fold_lanes(self) -> __m128i;
    unsafe fn xor(self, o: Self) -> Self;
    /// self xor a xor b: one `vpternlogd` where AVX-512 has it (the zmm engine), two XORs
    /// elsewhere. On the benchmark machine every 512-bit op shares two ports with AES and
    /// CLMUL (`gcmkit-bench ports`; op counts in docs/perf/engines.md), so each XOR saved
    /// is issue bandwidth returned to them.
    unsafe fn xor3(self, a: Self, b: Self) -> Self;
    /// Dword 0 of lane 0 (the lane-0 counter in integer form).
    unsafe fn dword0(self) -> u32;
    /// Dword 3 of every lane = `n` (with `n` = m << 24, adding this to a big-endian
    /// counter block adds m to its last byte: exact while that byte does not carry).
    unsafe fn splat_dword3(n: i32) -> Self;
    /// One AES round (SubBytes, ShiftRows, MixColumns, AddRoundKey) per lane.
    unsafe fn aesenc(self, k: Self) -> Self;
    /// The last AES round per lane.
    unsafe fn aesenclast(self, k: Self) -> Self;
    /// Carry-less 64x64 product per lane; IMM bit 0 picks self's qword, bit 4 o's.
    unsafe fn clmul<const IMM: i32>(self, o: Self) -> Self;
    /// Swaps the two 64-bit halves of each lane.
    unsafe fn swap64(self) -> Self;
    /// Reverses the 16 bytes of each lane.
    unsafe fn bswap(self) -> Self;
    /// 32-bit additions (wrapping) per dword.
    unsafe fn add32(self, o: Self) -> Self;
    /// Dword 0 of lane l = l (the lane's counter offset).
    unsafe fn lane_offsets() -> Self;
    /// Dword 0 of every lane = `n`.
    unsafe fn splat_dword0(n: i32) -> Self;
}

#[inline(always)]
unsafe fn bswap_mask128() -> __m128i {
    _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
}

/// The low `n` bits set (n < 64): the byte mask of an `n`-byte partial vector.
#[inline(always)]
fn byte_mask(n: usize) -> u64 {
    (1u64 << (n & 63)) - 1
}

#[derive(Clone, Copy)]
pub(crate) struct Xmm(pub __m128i);
#[derive(Clone, Copy)]
pub(crate) struct Ymm(__m256i);
#[derive(Clone, Copy)]
pub(crate) struct Zmm(__m512i);

// SAFETY (all three impls): every method only executes the intrinsics of its width; the
// engine entry points that instantiate the kernels enable exactly those target features
// and are only called after runtime detection confirmed them (engine::Engine::check).
// Loads and stores go through the unaligned forms and the caller guarantees
// `16 * LANES` valid bytes at the pointer.
impl Simd for Xmm {
    const LANES: usize = 1;
    #[inline(always)]
    unsafe fn zero() -> Self {
        Xmm(_mm_setzero_si128())
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        Xmm(unsafe { _mm_loadu_si128(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        unsafe { _mm_storeu_si128(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn broadcast(b: __m128i) -> Self {
        Xmm(b)
    }
    #[inline(always)]
    unsafe fn from_lane0(b: __m128i) -> Self {
        Xmm(b)
    }
    #[inline(always)]
    unsafe fn lane0(self) -> __m128i {
        self.0
    }
    #[inline(always)]
    unsafe fn fold_lanes(self) -> __m128i {
        self.0
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        Xmm(_mm_xor_si128(self.0, o.0))
    }
    #[inline(always)]
    unsafe fn xor3(self, a: Self, b: Self) -> Self {
        Xmm(_mm_xor_si128(self.0, _mm_xor_si128(a.0, b.0)))
    }
    #[inline(always)]
    unsafe fn dword0(self) -> u32 {
        _mm_cvtsi128_si32(self.0) as u32
    }
    #[inline(always)]
    unsafe fn splat_dword3(n: i32) -> Self {
        Xmm(_mm_set_epi32(n, 0, 0, 0))
    }
    #[inline(always)]
    unsafe fn aesenc(self, k: Self) -> Self {
        Xmm(_mm_aesenc_si128(self.0, k.0))
    }
    #[inline(always)]
    unsafe fn aesenclast(self, k: Self) -> Self {
        Xmm(_mm_aesenclast_si128(self.0, k.0))
    }
    #[inline(always)]
    unsafe fn clmul<const IMM: i32>(self, o: Self) -> Self {
        Xmm(_mm_clmulepi64_si128::<IMM>(self.0, o.0))
    }
    #[inline(always)]
    unsafe fn swap64(self) -> Self {
        Xmm(_mm_shuffle_epi32::<0x4e>(self.0))
    }
    #[inline(always)]
    unsafe fn bswap(self) -> Self {
        Xmm(_mm_shuffle_epi8(self.0, bswap_mask128()))
    }
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        Xmm(_mm_add_epi32(self.0, o.0))
    }
    #[inline(always)]
    unsafe fn lane_offsets() -> Self {
        Xmm(_mm_setzero_si128())
    }
    #[inline(always)]
    unsafe fn splat_dword0(n: i32) -> Self {
        Xmm(_mm_set_epi32(0, 0, 0, n))
    }
}

impl Simd for Ymm {
    const LANES: usize = 2;
    #[inline(always)]
    unsafe fn zero() -> Self {
        Ymm(_mm256_setzero_si256())
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        Ymm(unsafe { _mm256_loadu_si256(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        unsafe { _mm256_storeu_si256(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn broadcast(b: __m128i) -> Self {
        Ymm(_mm256_broadcastsi128_si256(b))
    }
    #[inline(always)]
    unsafe fn from_lane0(b: __m128i) -> Self {
        Ymm(_mm256_zextsi128_si256(b))
    }
    #[inline(always)]
    unsafe fn lane0(self) -> __m128i {
        _mm256_castsi256_si128(self.0)
    }
    #[inline(always)]
    unsafe fn fold_lanes(self) -> __m128i {
        _mm_xor_si128(
            _mm256_castsi256_si128(self.0),
            _mm256_extracti128_si256::<1>(self.0),
        )
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        Ymm(_mm256_xor_si256(self.0, o.0))
    }
    #[inline(always)]
    unsafe fn xor3(self, a: Self, b: Self) -> Self {
        Ymm(_mm256_xor_si256(self.0, _mm256_xor_si256(a.0, b.0)))
    }
    #[inline(always)]
    unsafe fn dword0(self) -> u32 {
        _mm256_cvtsi256_si32(self.0) as u32
    }
    #[inline(always)]
    unsafe fn splat_dword3(n: i32) -> Self {
        Ymm(_mm256_set_epi32(n, 0, 0, 0, n, 0, 0, 0))
    }
    #[inline(always)]
    unsafe fn aesenc(self, k: Self) -> Self {
        Ymm(_mm256_aesenc_epi128(self.0, k.0))
    }
    #[inline(always)]
    unsafe fn aesenclast(self, k: Self) -> Self {
        Ymm(_mm256_aesenclast_epi128(self.0, k.0))
    }
    #[inline(always)]
    unsafe fn clmul<const IMM: i32>(self, o: Self) -> Self {
        Ymm(_mm256_clmulepi64_epi128::<IMM>(self.0, o.0))
    }
    #[inline(always)]
    unsafe fn swap64(self) -> Self {
        Ymm(_mm256_shuffle_epi32::<0x4e>(self.0))
    }
    #[inline(always)]
    unsafe fn bswap(self) -> Self {
        Ymm(_mm256_shuffle_epi8(
            self.0,
            _mm256_broadcastsi128_si256(bswap_mask128()),
        ))
    }
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        Ymm(_mm256_add_epi32(self.0, o.0))
    }
    #[inline(always)]
    unsafe fn lane_offsets() -> Self {
        Ymm(_mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0))
    }
    #[inline(always)]
    unsafe fn splat_dword0(n: i32) -> Self {
        Ymm(_mm256_set_epi32(0, 0, 0, n, 0, 0, 0, n))
    }
}

impl Simd for Zmm {
    const LANES: usize = 4;
    #[inline(always)]
    unsafe fn zero() -> Self {
        Zmm(_mm512_setzero_si512())
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        Zmm(unsafe { _mm512_loadu_si512(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        unsafe { _mm512_storeu_si512(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn broadcast(b: __m128i) -> Self {
        Zmm(_mm512_broadcast_i32x4(b))
    }
    #[inline(always)]
    unsafe fn from_lane0(b: __m128i) -> Self {
        Zmm(_mm512_zextsi128_si512(b))
    }
    #[inline(always)]
    unsafe fn lane0(self) -> __m128i {
        _mm512_castsi512_si128(self.0)
    }
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize) -> Self {
        // Masked-off bytes are neither read nor able to fault.
        Zmm(_mm512_maskz_loadu_epi8(byte_mask(n), p.cast()))
    }
    #[inline(always)]
    unsafe fn store_partial(self, p: *mut u8, n: usize) {
        _mm512_mask_storeu_epi8(p.cast(), byte_mask(n), self.0)
    }
    #[inline(always)]
    unsafe fn fold_lanes(self) -> __m128i {
        let a = _mm512_castsi512_si256(self.0);
        let b = _mm512_extracti64x4_epi64::<1>(self.0);
        Ymm(_mm256_xor_si256(a, b)).fold_lanes()
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        Zmm(_mm512_xor_si512(self.0, o.0))
    }
    #[inline(always)]
    unsafe fn xor3(self, a: Self, b: Self) -> Self {
        // Truth table 0x96: the XOR of the three inputs.
        Zmm(_mm512_ternarylogic_epi32::<0x96>(self.0, a.0, b.0))
    }
    #[inline(always)]
    unsafe fn dword0(self) -> u32 {
        _mm512_cvtsi512_si32(self.0) as u32
    }
    #[inline(always)]
    unsafe fn splat_dword3(n: i32) -> Self {
        Zmm(_mm512_set_epi32(
            n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0,
        ))
    }
    #[inline(always)]
    unsafe fn aesenc(self, k: Self) -> Self {
        Zmm(_mm512_aesenc_epi128(self.0, k.0))
    }
    #[inline(always)]
    unsafe fn aesenclast(self, k: Self) -> Self {
        Zmm(_mm512_aesenclast_epi128(self.0, k.0))
    }
    #[inline(always)]
    unsafe fn clmul<const IMM: i32>(self, o: Self) -> Self {
        Zmm(_mm512_clmulepi64_epi128::<IMM>(self.0, o.0))
    }
    #[inline(always)]
    unsafe fn swap64(self) -> Self {
        Zmm(_mm512_shuffle_epi32::<0x4e>(self.0))
    }
    #[inline(always)]
    unsafe fn bswap(self) -> Self {
        Zmm(_mm512_shuffle_epi8(
            self.0,
            _mm512_broadcast_i32x4(bswap_mask128()),
        ))
    }
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        Zmm(_mm512_add_epi32(self.0, o.0))
    }
    #[inline(always)]
    unsafe fn lane_offsets() -> Self {
        Zmm(_mm512_set_epi32(
            0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0,
        ))
    }
    #[inline(always)]
    unsafe fn splat_dword0(n: i32) -> Self {
        Zmm(_mm512_set_epi32(
            0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n,
        ))
    }
}
