//! The x86_64 backend: AES-NI + PCLMULQDQ on xmm, VAES + VPCLMULQDQ on ymm (AVX2) and on
//! zmm (AVX-512). This file holds what is x86-specific: each engine's feature table, the
//! vector types (`vectors`) and the AES-NI key schedule (`keys`). The kernels themselves
//! are the ISA-neutral ones in `engine/kernels`.
//!
//! One feature table per engine feeds both run-time detection (`detected`) and the
//! `#[target_feature]` attributes of its entry points, so the two can never disagree.

mod keys;
mod vectors;

use vectors::{Xmm, Ymm, Zmm};

/// One engine: its feature table, its detection, and the kernels instantiated for its
/// vector type inside functions compiled with exactly those features.
macro_rules! x86_engine {
    ($name:ident, [$($feat:tt),+], $v:ty, $n:literal, $maxw:literal) => {
        pub(crate) mod $name {
            #[allow(unused_imports)]
            use super::*;

            /// The CPU features this engine's code is compiled for.
            #[cfg(feature = "std")]
            pub(crate) const FEATURES: &[&str] = &[$($feat),+];

            /// Each feature of [`FEATURES`] with whether this CPU has it.
            #[cfg(feature = "std")]
            #[allow(dead_code)]
            pub(crate) fn feature_states() -> std::vec::Vec<(&'static str, bool)> {
                std::vec![$(($feat, std::arch::is_x86_feature_detected!($feat))),+]
            }

            /// Whether this CPU has every feature in [`FEATURES`].
            #[cfg(feature = "std")]
            pub(crate) fn detected() -> bool {
                $(std::arch::is_x86_feature_detected!($feat))&&+
            }

            /// Without `std` there is no run-time detection: hardware engines are off.
            #[cfg(not(feature = "std"))]
            pub(crate) fn detected() -> bool {
                false
            }

            crate::engine::kernels::entry_points!([$($feat),+], $v, $n, $maxw);
        }
    };
}

// The feature tables, one line per engine (each is a superset of the one above).
#[rustfmt::skip]
x86_engine!(aesni, ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1"], Xmm, 8, 8);
#[rustfmt::skip]
x86_engine!(avx2, ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1", "avx", "avx2", "vaes", "vpclmulqdq"], Ymm, 8, 16);
#[rustfmt::skip]
x86_engine!(avx512, ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1", "avx", "avx2", "vaes", "vpclmulqdq", "avx512f", "avx512bw", "avx512vl"], Zmm, 8, 32);

/// The CPU features gcmkit's x86 engines use, each with whether this CPU has it (for
/// `gcmkit info`): the widest engine's table, a superset of the others.
#[cfg(feature = "std")]
pub(crate) fn features() -> std::vec::Vec<(&'static str, bool)> {
    avx512::feature_states()
}
