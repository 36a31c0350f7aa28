//! The x86 backend of [`Simd`]: `Xmm` (AES-NI + PCLMULQDQ, one block), `Ymm` (VAES +
//! VPCLMULQDQ on AVX2, two blocks) and `Zmm` (VAES + VPCLMULQDQ on AVX-512, four blocks).
//! Each method is one intrinsic, or a few for the cross-lane ones.
//!
//! Each vector carries its engine's token (`aesni::Cpu`, `avx2::Cpu`, `avx512::Cpu`,
//! made only by detection of that engine's feature table, `engine::hw_engine!`), and the
//! register field is private to this file, so a value exists only on a CPU with the
//! features its intrinsics need: that is the SAFETY argument of every block below.

use super::{aesni, avx2, avx512};
use crate::engine::simd::Simd;
use core::arch::x86_64::*;

/// The low `n` bits set (n < 64): the byte mask of an `n`-byte partial vector.
#[inline(always)]
fn byte_mask(n: usize) -> u64 {
    (1u64 << (n & 63)) - 1
}

/// One block (AES-NI + PCLMULQDQ on SSE registers).
#[derive(Clone, Copy)]
pub(crate) struct Xmm(__m128i, aesni::Cpu);
/// Two blocks (VAES + VPCLMULQDQ on AVX2 registers).
#[derive(Clone, Copy)]
pub(crate) struct Ymm(__m256i, avx2::Cpu);
/// Four blocks (VAES + VPCLMULQDQ on AVX-512 registers).
#[derive(Clone, Copy)]
pub(crate) struct Zmm(__m512i, avx512::Cpu);

/// The byte-reversal shuffle mask (SSE2: every x86 engine has it; called only inside the
/// `one_op!` blocks, under their token).
///
/// # Safety
/// SSE2 must be available.
#[inline(always)]
unsafe fn bswap_mask128() -> __m128i {
    // SAFETY: register-only SSE2, this function's contract.
    unsafe { _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) }
}

impl Simd for Xmm {
    type Cpu = aesni::Cpu;
    crate::engine::simd::single_lane_identities!();
    #[inline(always)]
    fn cpu(self) -> aesni::Cpu {
        self.1
    }
    #[inline(always)]
    unsafe fn load_ptr(cpu: aesni::Cpu, p: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `p` (unaligned load); `cpu`
        // proves SSE2.
        Xmm(unsafe { _mm_loadu_si128(p.cast()) }, cpu)
    }
    #[inline(always)]
    unsafe fn store_ptr(self, p: *mut u8) {
        // SAFETY: the caller guarantees 16 writable bytes at `p` (unaligned store); the
        // token `self` carries proves SSE2.
        unsafe { _mm_storeu_si128(p.cast(), self.0) }
    }
    crate::engine::simd::from_token! {
        zero() => _mm_setzero_si128();
        splat_dword3(n: i32) => _mm_set_epi32(n, 0, 0, 0);
        splat_dword0(n: i32) => _mm_set_epi32(0, 0, 0, n);
    }
    crate::engine::simd::one_op! {
        xor(x, o) => _mm_xor_si128(x, o);
        xor3(x, a, b) => _mm_xor_si128(x, _mm_xor_si128(a, b));
        aesenc(x, k) => _mm_aesenc_si128(x, k);
        aesenclast(x, k) => _mm_aesenclast_si128(x, k);
        swap64(x) => _mm_shuffle_epi32::<0x4e>(x);
        bswap(x) => _mm_shuffle_epi8(x, bswap_mask128());
        add32(x, o) => _mm_add_epi32(x, o);
    }
    /// An empty `asm!` on the register: the 16 xmm registers cannot hold 8 AES states,
    /// the round keys and the hashing at once, and without this the compiler regrouped
    /// the stitched loop's 8 chains into runs of 2-3 whole-block encryptions (one basic
    /// block per batch since the loop stopped testing the hash source per round), which
    /// left the AES unit waiting on latency: AES-128-GCM 16 KiB 0.92x of the interleaved
    /// loop.
    #[inline(always)]
    fn pin(self) -> Self {
        let mut x = self.0;
        // SAFETY: the template is empty: it reads and writes nothing but names `x`'s
        // register, which it leaves unchanged.
        unsafe {
            core::arch::asm!("/* {0} */", inout(xmm_reg) x, options(nomem, nostack, preserves_flags))
        };
        Xmm(x, self.1)
    }
    #[inline(always)]
    fn clmul<const IMM: i32>(self, o: Self) -> Self {
        // SAFETY: `self` carries the aesni token (detected PCLMULQDQ).
        Xmm(unsafe { _mm_clmulepi64_si128::<IMM>(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn dword0(self) -> u32 {
        // SAFETY: `self` carries the aesni token (detected SSE2).
        unsafe { _mm_cvtsi128_si32(self.0) as u32 }
    }
}

impl Simd for Ymm {
    type Cpu = avx2::Cpu;
    const LANES: usize = 2;
    type Block = Xmm;
    #[inline(always)]
    fn cpu(self) -> avx2::Cpu {
        self.1
    }
    #[inline(always)]
    unsafe fn load_ptr(cpu: avx2::Cpu, p: *const u8) -> Self {
        // SAFETY: the caller guarantees 32 readable bytes at `p` (unaligned load); `cpu`
        // proves AVX.
        Ymm(unsafe { _mm256_loadu_si256(p.cast()) }, cpu)
    }
    #[inline(always)]
    unsafe fn store_ptr(self, p: *mut u8) {
        // SAFETY: the caller guarantees 32 writable bytes at `p` (unaligned store); the
        // token `self` carries proves AVX.
        unsafe { _mm256_storeu_si256(p.cast(), self.0) }
    }
    crate::engine::simd::from_token! {
        zero() => _mm256_setzero_si256();
        broadcast(b: Xmm) => _mm256_broadcastsi128_si256(b.0);
        from_lane0(b: Xmm) => _mm256_zextsi128_si256(b.0);
        splat_dword3(n: i32) => _mm256_set_epi32(n, 0, 0, 0, n, 0, 0, 0);
        splat_dword0(n: i32) => _mm256_set_epi32(0, 0, 0, n, 0, 0, 0, n);
        lane_offsets() => _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0);
    }
    crate::engine::simd::one_op! {
        xor(x, o) => _mm256_xor_si256(x, o);
        xor3(x, a, b) => _mm256_xor_si256(x, _mm256_xor_si256(a, b));
        aesenc(x, k) => _mm256_aesenc_epi128(x, k);
        aesenclast(x, k) => _mm256_aesenclast_epi128(x, k);
        swap64(x) => _mm256_shuffle_epi32::<0x4e>(x);
        bswap(x) => _mm256_shuffle_epi8(x, _mm256_broadcastsi128_si256(bswap_mask128()));
        add32(x, o) => _mm256_add_epi32(x, o);
    }
    #[inline(always)]
    fn clmul<const IMM: i32>(self, o: Self) -> Self {
        // SAFETY: `self` carries the avx2 token (detected VPCLMULQDQ and AVX2).
        Ymm(
            unsafe { _mm256_clmulepi64_epi128::<IMM>(self.0, o.0) },
            self.1,
        )
    }
    #[inline(always)]
    fn dword0(self) -> u32 {
        // SAFETY: `self` carries the avx2 token (detected AVX).
        unsafe { _mm256_cvtsi256_si32(self.0) as u32 }
    }
    #[inline(always)]
    fn lane0(self) -> Xmm {
        // SAFETY: `self` carries the avx2 token (detected AVX).
        Xmm(unsafe { _mm256_castsi256_si128(self.0) }, self.1.into())
    }
    #[inline(always)]
    fn fold_lanes(self) -> Xmm {
        // SAFETY: `self` carries the avx2 token (detected AVX2).
        let x = unsafe {
            _mm_xor_si128(
                _mm256_castsi256_si128(self.0),
                _mm256_extracti128_si256::<1>(self.0),
            )
        };
        Xmm(x, self.1.into())
    }
}

impl Simd for Zmm {
    type Cpu = avx512::Cpu;
    const LANES: usize = 4;
    type Block = Xmm;
    #[inline(always)]
    fn cpu(self) -> avx512::Cpu {
        self.1
    }
    #[inline(always)]
    unsafe fn load_ptr(cpu: avx512::Cpu, p: *const u8) -> Self {
        // SAFETY: the caller guarantees 64 readable bytes at `p` (unaligned load); `cpu`
        // proves AVX-512F.
        Zmm(unsafe { _mm512_loadu_si512(p.cast()) }, cpu)
    }
    #[inline(always)]
    unsafe fn store_ptr(self, p: *mut u8) {
        // SAFETY: the caller guarantees 64 writable bytes at `p` (unaligned store); the
        // token `self` carries proves AVX-512F.
        unsafe { _mm512_storeu_si512(p.cast(), self.0) }
    }
    #[inline(always)]
    fn load_partial(cpu: avx512::Cpu, src: &[u8]) -> Self {
        debug_assert!(src.len() < 64);
        // SAFETY: the mask selects at most `src.len()` bytes from its start (fewer if the
        // length were 64 or more), and masked-off bytes are neither read nor able to
        // fault; `cpu` proves AVX-512BW.
        Zmm(
            unsafe { _mm512_maskz_loadu_epi8(byte_mask(src.len()), src.as_ptr().cast()) },
            cpu,
        )
    }
    #[inline(always)]
    fn store_partial(self, dst: &mut [u8]) {
        debug_assert!(dst.len() < 64);
        // SAFETY: as `load_partial`: at most `dst.len()` bytes are written, all in `dst`.
        unsafe { _mm512_mask_storeu_epi8(dst.as_mut_ptr().cast(), byte_mask(dst.len()), self.0) }
    }
    crate::engine::simd::from_token! {
        zero() => _mm512_setzero_si512();
        broadcast(b: Xmm) => _mm512_broadcast_i32x4(b.0);
        from_lane0(b: Xmm) => _mm512_zextsi128_si512(b.0);
        splat_dword3(n: i32) => _mm512_set_epi32(n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0);
        splat_dword0(n: i32) => _mm512_set_epi32(0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n);
        lane_offsets() => _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0);
    }
    crate::engine::simd::one_op! {
        xor(x, o) => _mm512_xor_si512(x, o);
        // Truth table 0x96: the XOR of the three inputs.
        xor3(x, a, b) => _mm512_ternarylogic_epi32::<0x96>(x, a, b);
        aesenc(x, k) => _mm512_aesenc_epi128(x, k);
        aesenclast(x, k) => _mm512_aesenclast_epi128(x, k);
        swap64(x) => _mm512_shuffle_epi32::<0x4e>(x);
        bswap(x) => _mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(bswap_mask128()));
        add32(x, o) => _mm512_add_epi32(x, o);
    }
    #[inline(always)]
    fn clmul<const IMM: i32>(self, o: Self) -> Self {
        // SAFETY: `self` carries the avx512 token (detected VPCLMULQDQ and AVX-512F).
        Zmm(
            unsafe { _mm512_clmulepi64_epi128::<IMM>(self.0, o.0) },
            self.1,
        )
    }
    #[inline(always)]
    fn dword0(self) -> u32 {
        // SAFETY: `self` carries the avx512 token (detected AVX-512F).
        unsafe { _mm512_cvtsi512_si32(self.0) as u32 }
    }
    #[inline(always)]
    fn lane0(self) -> Xmm {
        // SAFETY: `self` carries the avx512 token (detected AVX-512F).
        Xmm(unsafe { _mm512_castsi512_si128(self.0) }, self.1.into())
    }
    #[inline(always)]
    fn fold_lanes(self) -> Xmm {
        // SAFETY: `self` carries the avx512 token (detected AVX-512F and AVX2).
        let half = unsafe {
            _mm256_xor_si256(
                _mm512_castsi512_si256(self.0),
                _mm512_extracti64x4_epi64::<1>(self.0),
            )
        };
        Ymm(half, self.1.into()).fold_lanes()
    }
}
