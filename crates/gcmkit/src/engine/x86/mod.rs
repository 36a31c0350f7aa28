//! x86_64 engines: AES-NI + PCLMULQDQ on xmm, VAES + VPCLMULQDQ on ymm (AVX2) and on zmm
//! (AVX-512). One kernel source (`kernels`, generic over [`simd::Simd`]) is instantiated
//! per width inside `#[target_feature]` entry points, where the intrinsics inline.
//!
//! Every entry point is `unsafe`: the caller must have checked the CPU features
//! (`Engine::check` does, once per key object, before any kernel call).

mod kernels;
mod keys;
pub(crate) mod simd;

pub(crate) use kernels::{Hash, Io, SIV_SMALL_BLOCKS, SMALL_DATA, SMALL_HASHED};

/// Runtime feature checks, one per engine.
#[cfg(feature = "std")]
pub(crate) fn has_aesni() -> bool {
    std::arch::is_x86_feature_detected!("aes")
        && std::arch::is_x86_feature_detected!("pclmulqdq")
        && std::arch::is_x86_feature_detected!("sse4.1")
}

#[cfg(feature = "std")]
pub(crate) fn has_avx2() -> bool {
    has_aesni()
        && std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("vaes")
        && std::arch::is_x86_feature_detected!("vpclmulqdq")
}

#[cfg(feature = "std")]
pub(crate) fn has_avx512() -> bool {
    has_avx2()
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vl")
}

#[cfg(not(feature = "std"))]
pub(crate) fn has_aesni() -> bool {
    false
}
#[cfg(not(feature = "std"))]
pub(crate) fn has_avx2() -> bool {
    false
}
#[cfg(not(feature = "std"))]
pub(crate) fn has_avx512() -> bool {
    false
}

pub(crate) use keys::expand_into as expand_key_into;

/// Generates one engine's entry points: the generic kernels at vector type `$v`, `$n`
/// vectors per AES batch and up to `$maxw` blocks per GHASH reduction.
macro_rules! entry_points {
    ($name:ident, $features:literal, $v:ty, $n:literal, $maxw:literal) => {
        pub(crate) mod $name {
            use super::kernels;
            use super::simd::*;
            use crate::aes::RoundKeys;
            use crate::engine::Counter;
            use crate::field::HashKey;

            /// # Safety
            /// The CPU must support this engine's features.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn encrypt_blocks(rk: &RoundKeys, blocks: &mut [[u8; 16]]) {
                unsafe { kernels::encrypt_blocks(rk, blocks) }
            }

            /// # Safety
            /// The CPU must support this engine's features.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn ctr_xor(
                rk: &RoundKeys,
                kind: Counter,
                ctr: [u8; 16],
                data: &mut [u8],
            ) -> [u8; 16] {
                unsafe { kernels::ctr_xor::<$v, $n>(rk, kind, ctr, data) }
            }

            /// # Safety
            /// The CPU must support this engine's features.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn hash_update(key: &HashKey, acc: &mut u128, data: &[u8]) {
                unsafe { kernels::hash_update::<$v, $maxw>(key, acc, data) }
            }

            /// # Safety
            /// The CPU must support this engine's features.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn stitched(
                rk: &RoundKeys,
                key: &HashKey,
                kind: Counter,
                ctr: [u8; 16],
                acc: &mut u128,
                io: kernels::Io,
                what: kernels::Hash,
            ) -> [u8; 16] {
                unsafe { kernels::stitched::<$v, $n, $maxw>(rk, key, kind, ctr, acc, io, what) }
            }

            /// # Safety
            /// The CPU must support this engine's features.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn gcm_whole(
                rk: &RoundKeys,
                key: &HashKey,
                kind: Counter,
                y0: &[u8; 16],
                aad: &[u8],
                io: kernels::Io,
                what: kernels::Hash,
            ) -> [u8; 16] {
                unsafe { kernels::gcm_whole::<$v, $n, $maxw>(rk, key, kind, y0, aad, io, what) }
            }

            /// # Safety
            /// The CPU must support this engine's features; sizes as `kernels::gcm_small`.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn gcm_small(
                rk: &RoundKeys,
                key: &HashKey,
                y0: &[u8; 16],
                aad: &[u8],
                data: &mut [u8],
                decrypt: bool,
            ) -> [u8; 16] {
                unsafe { kernels::gcm_small::<$v>(rk, key, y0, aad, data, decrypt) }
            }

            /// # Safety
            /// The CPU must support this engine's features; sizes as `kernels::siv_small`.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn siv_small(
                kgk: &RoundKeys,
                nonce: &[u8; 12],
                aad: &[u8],
                data: &mut [u8],
                received: Option<&[u8; 16]>,
            ) -> Result<[u8; 16], crate::Error> {
                unsafe { kernels::siv_small::<$v>(kgk, nonce, aad, data, received) }
            }

            /// # Safety
            /// The CPU must support this engine's features.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn fill_powers(
                h: u128,
                count: usize,
                desc: &mut [u128; crate::field::POWERS],
            ) {
                unsafe { kernels::fill_powers(h, count, desc) }
            }

            /// # Safety
            /// The CPU must support this engine's features.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn dot(a: u128, b: u128) -> u128 {
                unsafe { kernels::dot(a, b) }
            }
        }
    };
}

entry_points!(aesni, "aes,pclmulqdq,sse2,ssse3,sse4.1", Xmm, 8, 8);
entry_points!(
    avx2,
    "aes,pclmulqdq,sse4.1,avx,avx2,vaes,vpclmulqdq",
    Ymm,
    8,
    16
);
entry_points!(
    avx512,
    "aes,pclmulqdq,sse4.1,avx,avx2,avx512f,avx512bw,avx512vl,vaes,vpclmulqdq",
    Zmm,
    8,
    32
);
