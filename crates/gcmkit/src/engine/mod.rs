//! Engines: the per-key choice of kernels. A mode calls the functions here and never asks
//! which CPU it runs on; an engine never knows about modes' formats.
//!
//! The engine is chosen once per key object: the best one the CPU supports, or the one
//! named by the environment variable `GCMKIT_ENGINE` (read once per process). Naming an
//! engine the CPU lacks is an error, never a silent fallback.

pub(crate) mod portable;

pub use portable::Counter;

use crate::aes::RoundKeys;
use crate::error::Error;
use crate::field::HashKey;

/// A set of kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Constant-time portable Rust: bitsliced AES, integer-multiply GF(2^128).
    Portable,
}

impl Engine {
    /// All engines this build knows, slowest first.
    pub const ALL: &'static [Engine] = &[Engine::Portable];

    /// The engine's name as `GCMKIT_ENGINE` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Portable => "portable",
        }
    }

    /// Parses a name as `GCMKIT_ENGINE` spells it.
    pub fn from_name(name: &str) -> Result<Engine, Error> {
        Engine::ALL
            .iter()
            .copied()
            .find(|e| e.name() == name)
            .ok_or(Error::EngineUnavailable("unknown engine name (portable)"))
    }

    /// Whether this CPU can run the engine.
    pub fn is_supported(self) -> bool {
        match self {
            Engine::Portable => true,
        }
    }

    /// Engines this CPU can run, slowest first.
    pub fn supported() -> impl Iterator<Item = Engine> {
        Engine::ALL.iter().copied().filter(|e| e.is_supported())
    }

    /// The fastest engine this CPU supports.
    pub fn best() -> Engine {
        Engine::supported().last().unwrap_or(Engine::Portable)
    }

    /// The engine new key objects use: `GCMKIT_ENGINE` if set (an error if unknown or
    /// unsupported), else [`Engine::best`]. Read once per process.
    pub fn selected() -> Result<Engine, Error> {
        #[cfg(feature = "std")]
        {
            static SELECTED: std::sync::OnceLock<Result<Engine, Error>> =
                std::sync::OnceLock::new();
            SELECTED
                .get_or_init(|| match std::env::var("GCMKIT_ENGINE") {
                    Ok(name) if !name.is_empty() => {
                        Engine::from_name(&name).and_then(|e| e.check())
                    }
                    _ => Ok(Engine::best()),
                })
                .clone()
        }
        #[cfg(not(feature = "std"))]
        {
            Ok(Engine::best())
        }
    }

    /// Returns `self` if the CPU supports it, else an error naming it.
    pub fn check(self) -> Result<Engine, Error> {
        if self.is_supported() {
            Ok(self)
        } else {
            Err(Error::EngineUnavailable(
                "this CPU lacks the engine's instructions",
            ))
        }
    }

    // ---- kernels, dispatched by engine ----

    /// Encrypts blocks in place (ECB; used for H, E(K, Y0), key derivation, tags).
    pub(crate) fn encrypt_blocks(self, keys: &RoundKeys, blocks: &mut [[u8; 16]]) {
        match self {
            Engine::Portable => crate::aes::soft::encrypt_blocks(keys, blocks),
        }
    }

    /// XORs the counter-mode keystream into `data`; returns the next counter.
    pub(crate) fn ctr_xor(
        self,
        keys: &RoundKeys,
        kind: Counter,
        ctr: [u8; 16],
        data: &mut [u8],
    ) -> [u8; 16] {
        match self {
            Engine::Portable => portable::ctr_xor(keys, kind, ctr, data),
        }
    }

    /// Absorbs `data` (final partial block zero-padded) into the hash accumulator.
    pub(crate) fn hash_update(self, key: &HashKey, acc: &mut u128, data: &[u8]) {
        match self {
            Engine::Portable => portable::hash_update(key, acc, data),
        }
    }

    /// GCM encryption of `data` in place, hashing the ciphertext into `acc`.
    pub(crate) fn gcm_seal(
        self,
        keys: &RoundKeys,
        h: &HashKey,
        ctr: [u8; 16],
        acc: &mut u128,
        data: &mut [u8],
    ) {
        match self {
            Engine::Portable => {
                // Chunks small enough to stay in L1 between the two passes.
                let mut ctr = ctr;
                for chunk in data.chunks_mut(4096) {
                    ctr = portable::ctr_xor(keys, Counter::Be32, ctr, chunk);
                    portable::hash_update(h, acc, chunk);
                }
            }
        }
    }

    /// GCM decryption of `data` in place, hashing the ciphertext into `acc` first.
    pub(crate) fn gcm_open(
        self,
        keys: &RoundKeys,
        h: &HashKey,
        ctr: [u8; 16],
        acc: &mut u128,
        data: &mut [u8],
    ) {
        match self {
            Engine::Portable => {
                let mut ctr = ctr;
                for chunk in data.chunks_mut(4096) {
                    portable::hash_update(h, acc, chunk);
                    ctr = portable::ctr_xor(keys, Counter::Be32, ctr, chunk);
                }
            }
        }
    }
}

/// CPU features relevant to gcmkit's engines, as (name, present) pairs.
#[cfg(feature = "std")]
pub fn cpu_features() -> std::vec::Vec<(&'static str, bool)> {
    #[cfg(target_arch = "x86_64")]
    {
        std::vec![
            ("aes", std::arch::is_x86_feature_detected!("aes")),
            (
                "pclmulqdq",
                std::arch::is_x86_feature_detected!("pclmulqdq")
            ),
            ("avx", std::arch::is_x86_feature_detected!("avx")),
            ("avx2", std::arch::is_x86_feature_detected!("avx2")),
            ("avx512f", std::arch::is_x86_feature_detected!("avx512f")),
            ("avx512bw", std::arch::is_x86_feature_detected!("avx512bw")),
            ("avx512vl", std::arch::is_x86_feature_detected!("avx512vl")),
            ("vaes", std::arch::is_x86_feature_detected!("vaes")),
            (
                "vpclmulqdq",
                std::arch::is_x86_feature_detected!("vpclmulqdq")
            ),
        ]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::vec::Vec::new()
    }
}
