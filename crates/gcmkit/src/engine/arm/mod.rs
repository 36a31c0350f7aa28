//! The aarch64 backend: ARMv8 Crypto Extensions (AESE/AESMC and PMULL/PMULL2) on 128-bit
//! NEON registers. Like `x86`, this file holds only what is Arm-specific: the engine's
//! feature table, the vector type (`vectors`) and the key schedule (`keys`); the kernels
//! are the ISA-neutral ones in `engine/kernels`, instantiated here for [`Neon`].
//!
//! Rust's aarch64 feature "aes" is FEAT_AES together with FEAT_PMULL (both arrive with
//! the Crypto Extensions), so one name covers AESE/AESMC and the 64x64 carry-less product.
//!
//! Batch shape: 8 independent AES chains interleaved with 8 blocks of GHASH per batch and
//! one reduction per 8 blocks, as on the AES-NI engine (AArch64's 32 vector registers
//! hold the 8 states and the 11-15 round keys; docs/perf/armv8.md counts the loads and
//! stores per block).

// The NEON/AES intrinsics are `#[inline(always)]` with their own target features, which
// the trait methods wrapping them cannot carry (`target_feature` and `inline(always)`
// do not combine on stable). The wrappers inline into the engine's entry points, which
// have the features, and LLVM then inlines the intrinsics: the disassembly of the entry
// points shows bare AESE/AESMC/PMULL and no calls.
#[allow(inline_always_mismatching_target_features)]
mod keys;
#[allow(inline_always_mismatching_target_features)]
mod vectors;

use vectors::Neon;

crate::engine::hw_engine!(armv8, is_aarch64_feature_detected, ["neon", "aes"], Neon, 8);

/// The CPU features gcmkit's Arm engine uses, each with whether this CPU has it (for
/// `gcmkit info`).
#[cfg(feature = "std")]
pub(crate) fn features() -> std::vec::Vec<(&'static str, bool)> {
    armv8::feature_states()
}
