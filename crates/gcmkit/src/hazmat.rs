//! Building blocks for experts and for reproducing the papers' measurements. Each item
//! says what it gives up; none of them is needed for ordinary encryption.

use crate::aes::RoundKeys;
use crate::engine::{Counter, Engine, Kernels};
use crate::error::Error;
use crate::field::{Flavor, HashKey, POWERS};

pub use crate::gcm::gprf::Gprf;
#[cfg(feature = "alloc")]
pub use crate::gcm::online::GcmStream;
#[cfg(feature = "alloc")]
pub use crate::gcm::UnverifiedGcmDecryptor;
pub use crate::gcm::{trace as gcm_trace, GcmTrace};
pub use crate::siv::plus::GcmSivPlus;

/// How gcmkit measures speed, defined once for `gcmkit bench`, `make bench` and
/// `make paper-tables`: the Internet Performance Index of the GCM papers, and one
/// estimator (the fastest of many short samples).
#[cfg(feature = "std")]
pub mod measure {
    use std::time::Instant;

    /// The Internet Performance Index's packet mix (McGrew-Viega; seed conventions sec. 9):
    /// (bytes, fraction of packets).
    pub const IPI_MIX: [(usize, f64); 4] = [(1500, 0.60), (576, 0.20), (552, 0.15), (44, 0.05)];

    /// IPI = 1 / sum f(s)/T(s) from the throughput T(s) at each size of the mix (in any
    /// unit; the index is in the same unit).
    pub fn ipi(mut throughput: impl FnMut(usize) -> f64) -> f64 {
        1.0 / IPI_MIX
            .iter()
            .map(|&(size, f)| f / throughput(size))
            .sum::<f64>()
    }

    /// Seconds per call of `f`: after a short calibration, the fastest of `samples`
    /// samples of about `sample_secs` each. On a shared machine a neighbour can slow any
    /// one sample by 2x; the least disturbed sample repeats within a few per cent.
    pub fn fastest(samples: usize, sample_secs: f64, f: &mut dyn FnMut()) -> f64 {
        let t = Instant::now();
        let mut n = 0u64;
        while t.elapsed().as_secs_f64() < sample_secs.min(0.005) || n < 2 {
            f();
            n += 1;
        }
        let per = t.elapsed().as_secs_f64() / n as f64;
        let iters = ((sample_secs / per) as u64).max(1);
        (0..samples.max(1))
            .map(|_| {
                let t = Instant::now();
                for _ in 0..iters {
                    f();
                }
                t.elapsed().as_secs_f64() / iters as f64
            })
            .fold(f64::MAX, f64::min)
    }
}

/// The spec's table-driven GHASH methods and AES-GCM over them (NOT constant time).
#[cfg(all(feature = "table-strategies", feature = "alloc"))]
pub mod tables {
    pub use crate::field::tables::{algorithm3, mul_bitwise, TableMethod, TableMul};
    pub use crate::gcm::tables_mode::TableAesGcm;
}

/// GHASH or POLYVAL alone, keyed directly (no nonce, no length block, no masking: a
/// universal hash, not a MAC). For measurements and for building other constructions.
#[derive(Clone, Debug)]
pub struct UniversalHash {
    key: HashKey,
    acc: u128,
    engine: Kernels,
}

impl UniversalHash {
    /// GHASH with hash key `h` (GCM's H = E(K, 0^128)).
    pub fn ghash(h: &[u8; 16], engine: Engine) -> Result<Self, Error> {
        Self::new(h, Flavor::Ghash, engine)
    }

    /// POLYVAL (RFC 8452) with key `h`.
    pub fn polyval(h: &[u8; 16], engine: Engine) -> Result<Self, Error> {
        Self::new(h, Flavor::Polyval, engine)
    }

    fn new(h: &[u8; 16], flavor: Flavor, engine: Engine) -> Result<Self, Error> {
        let engine = engine.kernels()?;
        Ok(UniversalHash {
            key: engine.hash_key(h, flavor, POWERS),
            acc: 0,
            engine,
        })
    }

    /// Absorbs `data`; a final partial block is zero-padded.
    pub fn update_padded(&mut self, data: &[u8]) {
        self.engine.hash_update(&self.key, &mut self.acc, data);
    }

    /// The current value (the state is kept: more data may follow).
    pub fn value(&self) -> [u8; 16] {
        self.key.flavor().store(self.acc)
    }

    /// Starts over with the same key.
    pub fn reset(&mut self) {
        self.acc = 0;
    }
}

/// AES in counter mode with GCM's 32-bit big-endian counter, no authentication: the
/// keystream rate that bounds AES-GCM. Malleable; never use it alone to protect data.
#[derive(Clone, Debug)]
pub struct AesCtr32 {
    keys: RoundKeys,
    engine: Kernels,
}

impl AesCtr32 {
    /// An AES-128/192/256 key on `engine`.
    pub fn new(key: &[u8], engine: Engine) -> Result<Self, Error> {
        let engine = engine.kernels()?;
        Ok(AesCtr32 {
            keys: engine.expand_key(key)?,
            engine,
        })
    }

    /// XORs E(K, ctr), E(K, ctr + 1), ... into `data`; returns the next counter block.
    pub fn apply_keystream(&self, ctr: [u8; 16], data: &mut [u8]) -> [u8; 16] {
        self.engine.ctr_xor(&self.keys, Counter::Be32, ctr, data)
    }
}
