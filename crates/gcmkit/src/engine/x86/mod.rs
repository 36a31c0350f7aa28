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

x86_engine!(
    aesni,
    ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1"],
    Xmm,
    8,
    8
);
x86_engine!(
    avx2,
    [
        "aes",
        "pclmulqdq",
        "sse2",
        "ssse3",
        "sse4.1",
        "avx",
        "avx2",
        "vaes",
        "vpclmulqdq"
    ],
    Ymm,
    8,
    16
);
x86_engine!(
    avx512,
    [
        "aes",
        "pclmulqdq",
        "sse2",
        "ssse3",
        "sse4.1",
        "avx",
        "avx2",
        "avx512f",
        "avx512bw",
        "avx512vl",
        "vaes",
        "vpclmulqdq"
    ],
    Zmm,
    8,
    32
);

/// The CPU features gcmkit's x86 engines use, each with whether this CPU has it (for
/// `gcmkit info`): the union of the engines' tables.
#[cfg(feature = "std")]
pub(crate) fn features() -> std::vec::Vec<(&'static str, bool)> {
    let mut out: std::vec::Vec<(&'static str, bool)> = std::vec::Vec::new();
    for f in avx512::FEATURES {
        if !out.iter().any(|(n, _)| n == f) {
            out.push((f, feature_detected(f)));
        }
    }
    out
}

#[cfg(feature = "std")]
fn feature_detected(name: &str) -> bool {
    match name {
        "aes" => std::arch::is_x86_feature_detected!("aes"),
        "pclmulqdq" => std::arch::is_x86_feature_detected!("pclmulqdq"),
        "sse2" => std::arch::is_x86_feature_detected!("sse2"),
        "ssse3" => std::arch::is_x86_feature_detected!("ssse3"),
        "sse4.1" => std::arch::is_x86_feature_detected!("sse4.1"),
        "avx" => std::arch::is_x86_feature_detected!("avx"),
        "avx2" => std::arch::is_x86_feature_detected!("avx2"),
        "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
        "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
        "avx512vl" => std::arch::is_x86_feature_detected!("avx512vl"),
        "vaes" => std::arch::is_x86_feature_detected!("vaes"),
        "vpclmulqdq" => std::arch::is_x86_feature_detected!("vpclmulqdq"),
        _ => false,
    }
}
