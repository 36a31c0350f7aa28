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
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
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

/// `clmul` of one width from its intrinsic.
macro_rules! x86_ops {
    ($clmul:ident) => {
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn clmul<const IMM: i32>(self, o: Self) -> Self {
            // SAFETY: `self` carries its engine's token, whose table has this width's
            // carry-less multiply (PCLMULQDQ, or VPCLMULQDQ with AVX2 / AVX-512F).
            Self(unsafe { $clmul::<IMM>(self.0, o.0) }, self.1)
        }
    };
}

/// `lane0` of a wide type: the low 128 bits, with the token converted to `Xmm`'s.
macro_rules! lane0_op {
    ($cast:ident) => {
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn lane0(self) -> Xmm {
            // SAFETY: `self` carries its engine's token (AVX / AVX-512F detected).
            Xmm(unsafe { $cast(self.0) }, self.1.into())
        }
    };
}

/// The methods every x86 width writes the same way, from one row of that width's
/// intrinsics: `[xor aesenc aesenclast add32 shuffle32 shuffle8 clmul]`, `widen` making the 128-bit byte-reversal mask this width's.
macro_rules! x86_width {
    ([$xor:ident $enc:ident $last:ident $add:ident
      $sh32:ident $sh8:ident $clmul:ident] widen $widen:path) => {
        // The round-one table measured faster on every x86 width (docs/tuning.md:
        // Simd::ROUND_ONE).
        const ROUND_ONE: bool = true;
        crate::engine::simd::register_memory!();
        crate::engine::simd::one_op! {
            xor(x, o) => $xor(x, o);
            aesenc(x, k) => $enc(x, k);
            aesenclast(x, k) => $last(x, k);
            swap64(x) => $sh32::<0x4e>(x);
            bswap(x) => $sh8(x, $widen(bswap_mask128()));
            add32(x, o) => $add(x, o);
        }
        x86_ops!($clmul);
    };
    // A wide type: its lane count, and its broadcast, zero-extension and low-lane cast of
    // one 128-bit block (the broadcast also widens the byte-reversal mask).
    // The lane fold XORs the upper half into the lower (`$xor` of `$lo` and `$hi::<1>`),
    // as a `$half` vector, and folds that on down to one block.
    ([$($row:ident)+] lanes $lanes:literal [$bcast:ident $zext:ident $cast:ident]
     fold $half:ident($xor:ident $lo:ident $hi:ident)) => {
        x86_width!([$($row)+] widen $bcast);
        const LANES: usize = $lanes;
        type Block = Xmm;
        crate::engine::simd::from_token! {
            broadcast(b: Xmm) => $bcast(b.0);
            from_lane0(b: Xmm) => $zext(b.0);
        }
        lane0_op!($cast);
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn fold_lanes(self) -> Xmm {
            // SAFETY: `self` carries its engine's token (AVX2, or AVX-512F with AVX2).
            let half = unsafe { $xor($lo(self.0), $hi::<1>(self.0)) };
            $half(half, self.1.into()).fold_lanes()
        }
    };
}

/// The byte-reversal shuffle mask (SSE2: every x86 engine has it; called only inside the
/// `one_op!` blocks, under their token).
///
/// # Safety
/// SSE2 must be available.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
unsafe fn bswap_mask128() -> __m128i {
    // SAFETY: register-only SSE2, this function's contract.
    unsafe { _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) }
}

impl Simd for Xmm {
    type Cpu = aesni::Cpu;
    x86_width!([_mm_xor_si128 _mm_aesenc_si128
        _mm_aesenclast_si128 _mm_add_epi32 _mm_shuffle_epi32 _mm_shuffle_epi8 _mm_clmulepi64_si128]
        widen core::convert::identity);
    crate::engine::simd::single_lane_identities!();
    crate::engine::simd::from_token! {
        splat_dword0(n: i32) => _mm_set_epi32(0, 0, 0, n);
    }
    crate::engine::simd::one_op! {
        xor3(x, a, b) => _mm_xor_si128(x, _mm_xor_si128(a, b));
        unpack_lo64(x, hi) => _mm_unpacklo_epi64(x, hi);
        and(x, o) => _mm_and_si128(x, o);
        or(x, o) => _mm_or_si128(x, o);
    }
    /// An empty `asm!` on the register: with 16 xmm registers the compiler regrouped the
    /// stitched loop's 8 chains, leaving the AES unit waiting on latency (docs/tuning.md:
    /// Xmm::pin).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    #[cfg_attr(gcmkit_ct_msan, allow(unused_mut))]
    fn pin(self) -> Self {
        let mut x = self.0;
        #[cfg(not(gcmkit_ct_msan))]
        // SAFETY: the template is empty: it reads and writes nothing but names `x`'s
        // register, which it leaves unchanged. (Not in make ct-check's MSan build:
        // MSan checks an asm's register inputs strictly and clears its outputs' taint;
        // this asm's value is its input.)
        unsafe {
            core::arch::asm!(
                "/* {0} */",
                inout(xmm_reg) x,
                options(nomem, nostack, preserves_flags)
            )
        };
        Xmm(x, self.1)
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn from_u128_computed(cpu: aesni::Cpu, x: u128) -> Self {
        // SAFETY: `cpu` proves SSE2 and SSE4.1 (the aesni table has both).
        Xmm(
            unsafe { _mm_insert_epi64::<1>(_mm_cvtsi64_si128(x as i64), (x >> 64) as i64) },
            cpu,
        )
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    #[cfg_attr(gcmkit_ct_msan, allow(unused_mut))]
    fn load_halves(cpu: aesni::Cpu, block: &[u8; 16]) -> Self {
        let x = u128::from_le_bytes(*block);
        let (mut lo, mut hi) = (x as u64, (x >> 64) as u64);
        #[cfg(not(gcmkit_ct_msan))]
        // SAFETY: the template is empty: it reads and writes nothing but names the two
        // registers, which it leaves unchanged. Opaque to the compiler, it keeps the two
        // 8-byte loads from being merged back into one 16-byte load. (Not in make
        // ct-check's MSan build: as in `pin`.)
        unsafe {
            core::arch::asm!(
                "/* {0} {1} */",
                inout(reg) lo,
                inout(reg) hi,
                options(nomem, nostack, preserves_flags)
            )
        };
        Self::from_u128_computed(cpu, u128::from(hi) << 64 | u128::from(lo))
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn to_u128(self) -> u128 {
        // SAFETY: `self` carries the aesni token (detected SSE2 and SSE4.1).
        let (lo, hi) = unsafe {
            (
                _mm_cvtsi128_si64(self.0) as u64,
                _mm_extract_epi64::<1>(self.0) as u64,
            )
        };
        (hi as u128) << 64 | lo as u128
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn expand_in_registers(lo: Xmm, hi: Option<Xmm>) -> Option<[Xmm; 15]> {
        let cpu = lo.1;
        // SAFETY: `lo` carries the aesni token (detected AES-NI, SSE2 and SSSE3), the
        // features `expand_in_registers` uses.
        let k = unsafe { super::keys::expand_in_registers(lo.0, hi.map(|h| h.0)) };
        // Slot by slot, not `array::map`: its out-of-line call (with a `vzeroupper` in the
        // AVX engines) sent the 15 round keys through memory.
        let mut out = [lo; 15];
        for (o, x) in out.iter_mut().zip(k) {
            *o = Xmm(x, cpu);
        }
        Some(out)
    }
}

impl Simd for Ymm {
    type Cpu = avx2::Cpu;
    /// Karatsuba: on AMD Zen 3 a 256-bit carry-less multiply takes a pipe AES needs for
    /// two cycles, so the multiplies bound the stitched batch (docs/tuning.md:
    /// Ymm::STITCH_KARATSUBA).
    const STITCH_KARATSUBA: bool = true;
    x86_width!([_mm256_xor_si256
        _mm256_aesenc_epi128 _mm256_aesenclast_epi128 _mm256_add_epi32 _mm256_shuffle_epi32
        _mm256_shuffle_epi8 _mm256_clmulepi64_epi128] lanes 2
        [_mm256_broadcastsi128_si256 _mm256_zextsi128_si256 _mm256_castsi256_si128]
        fold Xmm(_mm_xor_si128 _mm256_castsi256_si128 _mm256_extracti128_si256));
    /// Pinned as `Xmm`'s and `Zmm`'s: left free, the compiler put the stitched batch's
    /// whole hash first and then the AES chains two at a time (docs/tuning.md: Ymm::pin).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn pin(self) -> Self {
        // SAFETY: `self` carries the avx2 token (AVX detected), which `pin256` needs.
        Ymm(unsafe { pin256(self.0) }, self.1)
    }
    /// Part by part: the first 16 bytes by one load when there are 16, the partial block
    /// (the rest, or all) in general-purpose registers (`Xmm`'s), never reading past
    /// `src`. The default's copy through a stack buffer was a `memset` and a `memcpy` call
    /// per partial vector: a short message's last block, a TLS record's AAD (docs/tuning.md:
    /// Ymm::load_partial). One partial read for either half, so each call site holds one
    /// copy of it.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn load_partial(cpu: avx2::Cpu, src: &[u8]) -> Self {
        debug_assert!(src.len() < 32);
        let bc: aesni::Cpu = cpu.into();
        let whole = src.len() >= 16;
        let part = Xmm::load_partial(bc, &src[if whole { 16 } else { 0 }..]);
        if !whole {
            return Self::from_lane0(cpu, part);
        }
        let lo = Xmm::load(bc, src);
        // SAFETY: `cpu` proves AVX2.
        Ymm(
            unsafe { _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo.0), part.0) },
            cpu,
        )
    }
    /// As [`Self::load_partial`]: the first 16 bytes by one store when there are 16, the
    /// partial block in general-purpose registers, one copy of it.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn store_partial(self, dst: &mut [u8]) {
        debug_assert!(dst.len() < 32);
        let lo = self.lane0();
        let whole = dst.len() >= 16;
        let part = if whole {
            lo.store(dst);
            // SAFETY: `self` carries the avx2 token (AVX2 detected).
            Xmm(unsafe { _mm256_extracti128_si256::<1>(self.0) }, lo.1)
        } else {
            lo
        };
        part.store_partial(&mut dst[if whole { 16 } else { 0 }..]);
    }
    /// Fewer than two elements: the one (lane 0) or none, by a 16-byte load, not a partial
    /// read.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn load_elems_partial(cpu: avx2::Cpu, src: &[u128]) -> Self {
        debug_assert!(src.len() < 2);
        match src.first() {
            Some(x) => Self::from_lane0(cpu, Xmm::load_elems(cpu.into(), core::slice::from_ref(x))),
            None => Self::zero(cpu),
        }
    }
    crate::engine::simd::from_token! {
        splat_dword0(n: i32) => _mm256_set_epi32(0, 0, 0, n, 0, 0, 0, n);
        lane_offsets() => _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0);
    }
    crate::engine::simd::one_op! {
        xor3(x, a, b) => _mm256_xor_si256(x, _mm256_xor_si256(a, b));
        unpack_lo64(x, hi) => _mm256_unpacklo_epi64(x, hi);
        and(x, o) => _mm256_and_si256(x, o);
        or(x, o) => _mm256_or_si256(x, o);
    }
}

impl Simd for Zmm {
    type Cpu = avx512::Cpu;
    x86_width!([_mm512_xor_si512
        _mm512_aesenc_epi128 _mm512_aesenclast_epi128 _mm512_add_epi32 _mm512_shuffle_epi32
        _mm512_shuffle_epi8 _mm512_clmulepi64_epi128] lanes 4
        [_mm512_broadcast_i32x4 _mm512_zextsi128_si512 _mm512_castsi512_si128]
        fold Ymm(_mm256_xor_si256 _mm512_castsi512_si256 _mm512_extracti64x4_epi64));
    /// Pinned as `Xmm`'s: left free, the compiler scheduled the stitched batch as the
    /// whole hash first and then the eight AES chains one after another (ten dependent
    /// rounds each), which leaves the out-of-order core to find the chains' parallelism
    /// past a window of 80 hash operations.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn pin(self) -> Self {
        // SAFETY: `self` carries the avx512 token (AVX-512F detected), which `pin512`
        // needs.
        Zmm(unsafe { pin512(self.0) }, self.1)
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
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
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn keep_bytes(self, n: usize) -> Self {
        debug_assert!(n < 64);
        // SAFETY: `self` carries the avx512 token (AVX-512BW detected); register only.
        Zmm(
            unsafe { _mm512_maskz_mov_epi8(byte_mask(n), self.0) },
            self.1,
        )
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn store_partial(self, dst: &mut [u8]) {
        debug_assert!(dst.len() < 64);
        // SAFETY: as `load_partial`: at most `dst.len()` bytes are written, all in `dst`.
        unsafe { _mm512_mask_storeu_epi8(dst.as_mut_ptr().cast(), byte_mask(dst.len()), self.0) }
    }
    crate::engine::simd::from_token! {
        splat_dword0(n: i32) => _mm512_set_epi32(0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n);
        lane_offsets() => _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0);
    }
    crate::engine::simd::one_op! {
        // Truth table 0x96: the XOR of the three inputs. make ct-check's MSan build
        // writes it as two XORs, the same value: MSan has no shadow rule for VPTERNLOG
        // (it would report a secret operand and drop its taint).
        xor3(x, a, b) => {
            #[cfg(not(gcmkit_ct_msan))]
            let r = _mm512_ternarylogic_epi32::<0x96>(x, a, b);
            #[cfg(gcmkit_ct_msan)]
            let r = _mm512_xor_si512(x, _mm512_xor_si512(a, b));
            r
        };
        unpack_lo64(x, hi) => _mm512_unpacklo_epi64(x, hi);
        and(x, o) => _mm512_and_si512(x, o);
        or(x, o) => _mm512_or_si512(x, o);
    }
}

/// `Simd::pin` of a vector register: an empty `asm!` naming it (a `ymm_reg` or `zmm_reg`
/// operand needs AVX or AVX-512F enabled where the `asm!` is written, hence a function per
/// width). The `asm!` is not `pure`, so the compiler keeps these in program order: the
/// rounds stay interleaved.
macro_rules! pin_register {
    ($name:ident, $ty:ty, $feature:literal, $class:ident) => {
        /// See `pin_register!`.
        ///
        /// # Safety
        #[doc = concat!("The CPU has the target feature `", $feature, "`.")]
        #[target_feature(enable = $feature)]
        #[inline]
        #[cfg_attr(gcmkit_ct_msan, allow(unused_mut))]
        unsafe fn $name(mut x: $ty) -> $ty {
            #[cfg(not(gcmkit_ct_msan))]
            // SAFETY: the template is empty: it reads and writes nothing but names `x`'s
            // register, which it leaves unchanged; the caller guarantees the feature. (Not
            // in make ct-check's MSan build: as in `Xmm::pin`.)
            unsafe {
                core::arch::asm!(
                    "/* {0} */",
                    inout($class) x,
                    options(nomem, nostack, preserves_flags)
                )
            };
            x
        }
    };
}
pin_register!(pin256, __m256i, "avx", ymm_reg);
pin_register!(pin512, __m512i, "avx512f", zmm_reg);
