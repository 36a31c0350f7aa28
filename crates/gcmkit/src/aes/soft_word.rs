//! Plane words for the portable engine's fixsliced AES (`aes::soft`) on the vector unit
//! every CPU of the architecture has: SSE2 on x86_64, NEON on aarch64 (both part of the
//! architecture's baseline), eight blocks per word (two 64-bit lanes). No run-time
//! detection is needed: the `cfg(target_feature)` guards hold for every CPU the build
//! runs on, and the types exist only where they hold. Other targets use one 64-bit lane.
//!
//! Instruction choice: the "one row down" move rotates each 64-bit lane by 16 or 32 bits,
//! a 16-bit-element shuffle (PSHUFLW/PSHUFHW or PSHUFD; on NEON a shift and a
//! shift-and-insert, or REV64 on 32-bit elements); the "one column on" move rotates each
//! 16-bit element by 4, 8 or 12 bits: two element shifts and an OR (NEON: a shift and a
//! shift-and-insert), no masks (a u64 lane needs five operations for it).

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) use x86::Sse2Word as SimdWord;

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) use arm::NeonWord as SimdWord;

/// Elsewhere: one 64-bit lane in a general-purpose register, which measured faster than
/// two lanes left to the auto-vectorizer (docs/tuning.md: SimdWord).
#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
pub(crate) type SimdWord = crate::aes::word::Lanes<1>;

/// `Default` (all zero), `^` and `&` of a plane word held in one vector register, from
/// the architecture's zero, XOR and AND intrinsics (register-only; the caller's module
/// is compiled only where they are part of the baseline).
#[allow(unused_macros)]
macro_rules! register_bit_ops {
    ($word:ident, $zero:expr, $xor:ident, $and:ident) => {
        impl Default for $word {
            #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
            fn default() -> Self {
                // SAFETY: see the module's SAFETY note.
                $word(unsafe { $zero })
            }
        }

        impl core::ops::BitXor for $word {
            type Output = Self;
            #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
            fn bitxor(self, o: Self) -> Self {
                // SAFETY: see the module's SAFETY note.
                $word(unsafe { $xor(self.0, o.0) })
            }
        }

        impl core::ops::BitAnd for $word {
            type Output = Self;
            #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
            fn bitand(self, o: Self) -> Self {
                // SAFETY: see the module's SAFETY note.
                $word(unsafe { $and(self.0, o.0) })
            }
        }
    };
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod arm {
    use crate::aes::word::Word;
    use core::arch::aarch64::*;

    #[derive(Clone, Copy)]
    pub(crate) struct NeonWord(uint64x2_t);

    // SAFETY (every block in this module): register-only NEON intrinsics; NEON is enabled
    // for the whole build (the module's cfg) and present on every AArch64 CPU.
    register_bit_ops!(NeonWord, vdupq_n_u64(0), veorq_u64, vandq_u64);

    impl Word for NeonWord {
        const LANES: usize = 2;
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn rows_down(self, rows: u32) -> Self {
            // SAFETY: see the module's SAFETY note. SLI (shift left and insert) puts the
            // bits shifted out on the right back on the left: a rotation in two ops.
            NeonWord(unsafe {
                match rows % 4 {
                    0 => self.0,
                    1 => vsliq_n_u64::<48>(vshrq_n_u64::<16>(self.0), self.0),
                    2 => vreinterpretq_u64_u32(vrev64q_u32(vreinterpretq_u32_u64(self.0))),
                    _ => vsliq_n_u64::<16>(vshrq_n_u64::<48>(self.0), self.0),
                }
            })
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn cols_on(self, cols: u32) -> Self {
            // SAFETY: see the module's SAFETY note. Each u16 rotated right by 4·cols.
            NeonWord(unsafe {
                let x = vreinterpretq_u16_u64(self.0);
                vreinterpretq_u64_u16(match cols % 4 {
                    0 => x,
                    1 => vsliq_n_u16::<12>(vshrq_n_u16::<4>(x), x),
                    2 => vsliq_n_u16::<8>(vshrq_n_u16::<8>(x), x),
                    _ => vsliq_n_u16::<4>(vshrq_n_u16::<12>(x), x),
                })
            })
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn lane(self, l: usize) -> u64 {
            // SAFETY: see the module's SAFETY note.
            unsafe {
                if l == 0 {
                    vgetq_lane_u64::<0>(self.0)
                } else {
                    vgetq_lane_u64::<1>(self.0)
                }
            }
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn set_lane(&mut self, l: usize, v: u64) {
            // SAFETY: see the module's SAFETY note.
            self.0 = unsafe {
                if l == 0 {
                    vsetq_lane_u64::<0>(v, self.0)
                } else {
                    vsetq_lane_u64::<1>(v, self.0)
                }
            };
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn splat(v: u64) -> Self {
            // SAFETY: see the module's SAFETY note.
            NeonWord(unsafe { vdupq_n_u64(v) })
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn shr(self, n: u32) -> Self {
            // SAFETY: see the module's SAFETY note. USHL by a negative count shifts right.
            NeonWord(unsafe { vshlq_u64(self.0, vdupq_n_s64(-(n as i64))) })
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn shl(self, n: u32) -> Self {
            // SAFETY: see the module's SAFETY note.
            NeonWord(unsafe { vshlq_u64(self.0, vdupq_n_s64(n as i64)) })
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod x86 {
    use crate::aes::word::Word;
    use core::arch::x86_64::*;

    #[derive(Clone, Copy)]
    pub(crate) struct Sse2Word(__m128i);

    // SAFETY (every block in this module): register-only SSE2 intrinsics; SSE2 is enabled
    // for the whole build (the module's cfg) and present on every x86_64 CPU.
    register_bit_ops!(Sse2Word, _mm_setzero_si128(), _mm_xor_si128, _mm_and_si128);

    /// Each 16-bit element rotated right by S bits (S + R = 16).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn rot16<const S: i32, const R: i32>(x: __m128i) -> __m128i {
        // SAFETY: see the module's SAFETY note.
        unsafe { _mm_or_si128(_mm_srli_epi16::<S>(x), _mm_slli_epi16::<R>(x)) }
    }

    impl Word for Sse2Word {
        const LANES: usize = 2;
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn rows_down(self, rows: u32) -> Self {
            // SAFETY: see the module's SAFETY note.
            Sse2Word(unsafe {
                match rows % 4 {
                    0 => self.0,
                    // 16-bit elements (1, 2, 3, 0) of each lane.
                    1 => _mm_shufflehi_epi16::<0x39>(_mm_shufflelo_epi16::<0x39>(self.0)),
                    // 32-bit elements (1, 0) of each lane.
                    2 => _mm_shuffle_epi32::<0xb1>(self.0),
                    _ => _mm_shufflehi_epi16::<0x93>(_mm_shufflelo_epi16::<0x93>(self.0)),
                }
            })
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn cols_on(self, cols: u32) -> Self {
            Sse2Word(match cols % 4 {
                0 => self.0,
                1 => rot16::<4, 12>(self.0),
                2 => rot16::<8, 8>(self.0),
                _ => rot16::<12, 4>(self.0),
            })
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn lane(self, l: usize) -> u64 {
            // SAFETY: see the module's SAFETY note.
            unsafe {
                let x = if l == 0 {
                    self.0
                } else {
                    _mm_unpackhi_epi64(self.0, self.0)
                };
                _mm_cvtsi128_si64(x) as u64
            }
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn splat(v: u64) -> Self {
            // SAFETY: see the module's SAFETY note.
            Sse2Word(unsafe { _mm_set1_epi64x(v as i64) })
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn shr(self, n: u32) -> Self {
            // SAFETY: see the module's SAFETY note.
            Sse2Word(unsafe { _mm_srl_epi64(self.0, _mm_cvtsi32_si128(n as i32)) })
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn shl(self, n: u32) -> Self {
            // SAFETY: see the module's SAFETY note.
            Sse2Word(unsafe { _mm_sll_epi64(self.0, _mm_cvtsi32_si128(n as i32)) })
        }
        #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
        fn set_lane(&mut self, l: usize, v: u64) {
            let (lo, hi) = if l == 0 {
                (v, self.lane(1))
            } else {
                (self.lane(0), v)
            };
            // SAFETY: see the module's SAFETY note.
            self.0 = unsafe { _mm_set_epi64x(hi as i64, lo as i64) };
        }
    }
}
