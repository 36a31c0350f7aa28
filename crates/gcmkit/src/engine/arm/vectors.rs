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
//! Each vector carries the engine's token (`armv8::Cpu`, made only by detection of its
//! feature table, `engine::hw_engine!`), and the register field is private to this file,
//! so a value exists only on a CPU with NEON, AES and PMULL: that is the SAFETY argument
//! of every block below.

use super::armv8;
use crate::engine::simd::{from_token, one_op, Simd};
use core::arch::aarch64::*;

#[derive(Clone, Copy)]
pub(crate) struct Neon(uint8x16_t, armv8::Cpu);

/// The 64-bit lanes of a vector.
///
/// # Safety
/// NEON must be available (called only inside the blocks below, under their token).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
unsafe fn q64(v: uint8x16_t) -> uint64x2_t {
    // SAFETY: register-only NEON, this function's contract.
    unsafe { vreinterpretq_u64_u8(v) }
}

/// A register with dword `LANE` = `n` and the rest zero.
///
/// # Safety
/// NEON must be available.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
unsafe fn one_dword<const LANE: i32>(n: i32) -> uint8x16_t {
    // SAFETY: register-only NEON, this function's contract.
    unsafe { vreinterpretq_u8_u32(vsetq_lane_u32::<LANE>(n as u32, vdupq_n_u32(0))) }
}

impl Simd for Neon {
    type Cpu = armv8::Cpu;
    crate::engine::simd::single_lane_identities!();
    crate::engine::simd::register_memory!();
    from_token! {
        splat_dword0(n: i32) => one_dword::<0>(n);
    }
    one_op! {
        xor(x, o) => veorq_u8(x, o);
        // (EOR3 needs FEAT_SHA3, which not every AES-capable core has: two EORs.)
        xor3(x, a, b) => veorq_u8(x, veorq_u8(a, b));
        // See the module docs for the round mapping.
        aesenc(x, k) => veorq_u8(vaesmcq_u8(vaeseq_u8(x, vdupq_n_u8(0))), k);
        aesenclast(x, k) => veorq_u8(vaeseq_u8(x, vdupq_n_u8(0)), k);
        swap64(x) => vextq_u8::<8>(x, x);
        unpack_lo64(x, hi) => vreinterpretq_u8_u64(vzip1q_u64(vreinterpretq_u64_u8(x), vreinterpretq_u64_u8(hi)));
        and(x, o) => vandq_u8(x, o);
        or(x, o) => vorrq_u8(x, o);
        // REV64 reverses each half; EXT swaps the halves.
        bswap(x) => vextq_u8::<8>(vrev64q_u8(x), vrev64q_u8(x));
        add32(x, o) => vreinterpretq_u8_u32(vaddq_u32(vreinterpretq_u32_u8(x), vreinterpretq_u32_u8(o)));
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn clmul<const IMM: i32>(self, o: Self) -> Self {
        // SAFETY: `self` carries the armv8 token (detected "aes", which is FEAT_AES with
        // FEAT_PMULL).
        let p = unsafe {
            let (a, b) = (q64(self.0), q64(o.0));
            let p = match (IMM & 1, (IMM >> 4) & 1) {
                (0, 0) => vmull_p64(vgetq_lane_u64::<0>(a), vgetq_lane_u64::<0>(b)),
                (1, 1) => vmull_high_p64(vreinterpretq_p64_u64(a), vreinterpretq_p64_u64(b)),
                (1, _) => vmull_p64(vgetq_lane_u64::<1>(a), vgetq_lane_u64::<0>(b)),
                _ => vmull_p64(vgetq_lane_u64::<0>(a), vgetq_lane_u64::<1>(b)),
            };
            vreinterpretq_u8_p128(p)
        };
        Neon(p, self.1)
    }
}
