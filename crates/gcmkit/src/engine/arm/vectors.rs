//! The Arm backend of [`Simd`]: `Neon`, one 128-bit block per vector (AES + PMULL).
//!
//! # AES rounds
//! The trait's rounds are x86-shaped: `aesenc(s, k)` = MixColumns(ShiftRows(SubBytes(s)))
//! xor k. ARMv8 splits a round differently: AESE(s, k) = SubBytes(ShiftRows(s xor k)),
//! AESMC = MixColumns. So `aesenc(s, k)` is AESMC(AESE(s, 0)) xor k, and the xor k is
//! the next round's AddRoundKey. LLVM folds AESE(x xor k, 0) into AESE(x, k), so a chain
//! of these compiles to the native AESE k_i; AESMC pairs (which cores fuse), with one
//! EOR for the last key (checked in the disassembly: docs/perf/armv8.md, `make arm-counts`, which
//! `make test-aarch64` also runs).
//!
//! # Carry-less products
//! `clmul::<IMM>` picks qwords as PCLMULQDQ does (IMM bit 0: self's, bit 4: o's) and runs
//! PMULL (low qwords), PMULL2 (both high) or PMULL on an extracted lane.
//!
//! Every method is a thin intrinsic wrapper under the single contract of [`Simd`] (run
//! only inside the engine's `#[target_feature]` entry points, after detection).

use crate::engine::simd::Simd;
use core::arch::aarch64::*;

#[derive(Clone, Copy)]
pub(crate) struct Neon(uint8x16_t);

/// The 64-bit lanes of a vector.
///
/// # Safety
/// NEON must be available (every method below runs under the engine's features).
#[inline(always)]
unsafe fn q64(v: uint8x16_t) -> uint64x2_t {
    // SAFETY: register-only NEON, this function's contract.
    unsafe { vreinterpretq_u64_u8(v) }
}

/// A vector with dword `lane` = `n` and the rest zero.
///
/// # Safety
/// NEON must be available.
#[inline(always)]
unsafe fn one_dword<const LANE: i32>(n: i32) -> Neon {
    // SAFETY: register-only NEON, this function's contract.
    unsafe {
        Neon(vreinterpretq_u8_u32(vsetq_lane_u32::<LANE>(
            n as u32,
            vdupq_n_u32(0),
        )))
    }
}

// SAFETY (the impl): every method only executes NEON/AES/PMULL intrinsics; the engine
// entry points that instantiate the kernels enable exactly those target features (from
// the same feature table that run-time detection checks) and are reachable only through a
// `Kernels` token, which exists only after detection confirmed them. Loads and stores are
// unaligned-safe (`vld1q_u8`/`vst1q_u8`) and the caller guarantees 16 valid bytes.
impl Simd for Neon {
    crate::engine::simd::single_lane_identities!();
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the `Simd` contract.
        unsafe { Neon(vdupq_n_u8(0)) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the `Simd` contract (16 readable bytes at p).
        unsafe { Neon(vld1q_u8(p)) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the `Simd` contract (16 writable bytes at p).
        unsafe { vst1q_u8(p, self.0) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract.
        unsafe { Neon(veorq_u8(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor3(self, a: Self, b: Self) -> Self {
        // (EOR3 needs FEAT_SHA3, which not every AES-capable core has: two EORs.)
        // SAFETY: the `Simd` contract.
        unsafe { Neon(veorq_u8(self.0, veorq_u8(a.0, b.0))) }
    }
    #[inline(always)]
    unsafe fn dword0(self) -> u32 {
        // SAFETY: the `Simd` contract.
        unsafe { vgetq_lane_u32::<0>(vreinterpretq_u32_u8(self.0)) }
    }
    #[inline(always)]
    unsafe fn splat_dword3(n: i32) -> Self {
        // SAFETY: the `Simd` contract.
        unsafe { one_dword::<3>(n) }
    }
    #[inline(always)]
    unsafe fn splat_dword0(n: i32) -> Self {
        // SAFETY: the `Simd` contract.
        unsafe { one_dword::<0>(n) }
    }
    #[inline(always)]
    unsafe fn aesenc(self, k: Self) -> Self {
        // SAFETY: the `Simd` contract. See the module docs for the round mapping.
        unsafe { Neon(veorq_u8(vaesmcq_u8(vaeseq_u8(self.0, vdupq_n_u8(0))), k.0)) }
    }
    #[inline(always)]
    unsafe fn aesenclast(self, k: Self) -> Self {
        // SAFETY: the `Simd` contract.
        unsafe { Neon(veorq_u8(vaeseq_u8(self.0, vdupq_n_u8(0)), k.0)) }
    }
    #[inline(always)]
    unsafe fn clmul<const IMM: i32>(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract (PMULL is part of the engine's "aes" feature).
        unsafe {
            let (a, b) = (q64(self.0), q64(o.0));
            let p = match (IMM & 1, (IMM >> 4) & 1) {
                (0, 0) => vmull_p64(vgetq_lane_u64::<0>(a), vgetq_lane_u64::<0>(b)),
                (1, 1) => vmull_high_p64(vreinterpretq_p64_u64(a), vreinterpretq_p64_u64(b)),
                (1, _) => vmull_p64(vgetq_lane_u64::<1>(a), vgetq_lane_u64::<0>(b)),
                _ => vmull_p64(vgetq_lane_u64::<0>(a), vgetq_lane_u64::<1>(b)),
            };
            Neon(vreinterpretq_u8_p128(p))
        }
    }
    #[inline(always)]
    unsafe fn swap64(self) -> Self {
        // SAFETY: the `Simd` contract.
        unsafe { Neon(vextq_u8::<8>(self.0, self.0)) }
    }
    #[inline(always)]
    unsafe fn bswap(self) -> Self {
        // SAFETY: the `Simd` contract. REV64 reverses each half; EXT swaps the halves.
        unsafe {
            let r = vrev64q_u8(self.0);
            Neon(vextq_u8::<8>(r, r))
        }
    }
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        // SAFETY: the `Simd` contract.
        unsafe {
            Neon(vreinterpretq_u8_u32(vaddq_u32(
                vreinterpretq_u32_u8(self.0),
                vreinterpretq_u32_u8(o.0),
            )))
        }
    }
}
