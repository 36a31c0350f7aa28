//! The x86_64 backend: AES-NI + PCLMULQDQ on xmm, VAES + VPCLMULQDQ on ymm (AVX2) and on
//! zmm (AVX-512). This file holds what is x86-specific: each engine's feature table, the
//! vector types (`vectors`) and the AES-NI key schedule (`keys`). The kernels themselves
//! are the ISA-neutral ones in `engine/kernels`.
//!
//! One feature table per engine feeds both run-time detection (`detect`, which makes the engine's token) and the
//! `#[target_feature]` attributes of its entry points (`engine::hw_engine!`), so the two
//! can never disagree.

mod keys;
mod vectors;

use vectors::{Xmm, Ymm, Zmm};

// The feature tables, one line per engine (each is a superset of the one above).
#[rustfmt::skip]
crate::engine::hw_engine!(aesni, is_x86_feature_detected, ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1"], Xmm, 8);
#[rustfmt::skip]
crate::engine::hw_engine!(avx2, is_x86_feature_detected, ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1", "avx", "avx2", "vaes", "vpclmulqdq"], Ymm, 8, implies [aesni]);
#[rustfmt::skip]
crate::engine::hw_engine!(avx512, is_x86_feature_detected, ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1", "avx", "avx2", "vaes", "vpclmulqdq", "avx512f", "avx512bw", "avx512vl"], Zmm, 4, implies [aesni, avx2]);

/// The CPU features gcmkit's x86 engines use, each with whether this CPU has it (for
/// `gcmkit info`): the widest engine's table, a superset of the others.
#[cfg(feature = "std")]
pub(crate) fn features() -> std::vec::Vec<(&'static str, bool)> {
    avx512::feature_states()
}
