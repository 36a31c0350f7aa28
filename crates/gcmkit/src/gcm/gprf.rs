//! GPRF (GMAC paper sec. 3): a pseudorandom function with variable-length nonces and
//! arbitrary-length output, built from GCM's parts:
//!     GPRF(K_n, K_b, N) = S_0 || S_1 || ...,  S_i = E(K_b, C_i),
//!     C_0 = N || 0^32 for a 12-byte N, else GHASH(K_n, N) with length block 0^64 || bitlen(N),
//!     C_i = incr(C_(i-1)) (rightmost 32 bits).
//! With K_n = E(K, 0) and K_b = K it is GCM's counter stream (GCM starts a 12-byte IV at
//! counter 1, so GPRF block i+1 is GCM's keystream block i there).

use crate::aes::RoundKeys;
use crate::engine::{Counter, Engine, Kernels};
use crate::error::Error;
use crate::field::{Flavor, HashKey, POWERS};

/// GPRF with a GHASH key K_n (16 bytes) and a block-cipher key K_b (AES, 16/24/32 bytes).
///
/// ```
/// use gcmkit::hazmat::Gprf;
/// let prf = Gprf::new(&[1u8; 16], &[2u8; 16])?;
/// let (mut a, mut b, mut c) = ([0u8; 48], [0u8; 16], [0u8; 16]);
/// prf.fill(&[3u8; 12], &mut a)?;
/// prf.fill(&[3u8; 12], &mut b)?;
/// prf.fill(&[4u8; 12], &mut c)?;
/// assert_eq!(&a[..16], &b); // deterministic; a shorter output is a prefix
/// assert_ne!(b, c); // another nonce, another output
/// let _c0: [u8; 16] = prf.first_counter(&[3u8; 12])?;
/// # Ok::<(), gcmkit::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Gprf {
    kn: HashKey,
    kb: RoundKeys,
    engine: Kernels,
}

impl Gprf {
    /// GPRF on the selected engine.
    pub fn new(kn: &[u8], kb: &[u8]) -> Result<Self, Error> {
        Self::with_engine(kn, kb, Engine::selected()?)
    }

    /// GPRF on a given engine.
    pub fn with_engine(kn: &[u8], kb: &[u8], engine: Engine) -> Result<Self, Error> {
        let engine = engine.kernels()?;
        let kn: &[u8; 16] = kn.try_into().map_err(|_| Error::InvalidKeyLength {
            got: kn.len(),
            expected: "16 (K_n)",
        })?;
        Ok(Gprf {
            kn: engine.hash_key(kn, Flavor::Ghash, POWERS),
            kb: engine.expand_key(kb)?,
            engine,
        })
    }

    /// C_0 for a nonce (formed as GCM forms Y0, with counter 0 for 96-bit nonces).
    pub fn first_counter(&self, nonce: &[u8]) -> Result<[u8; 16], Error> {
        super::iv_block(nonce, 0, |acc, d| self.engine.hash_update(&self.kn, acc, d))
    }

    /// Fills `out` with GPRF(K_n, K_b, nonce) (any length up to 2^32 blocks).
    pub fn fill(&self, nonce: &[u8], out: &mut [u8]) -> Result<(), Error> {
        if out.len() as u64 > (1u64 << 36) {
            return Err(Error::MessageTooLong {
                len: out.len() as u64,
                max: 1 << 36,
            });
        }
        let c0 = self.first_counter(nonce)?;
        out.fill(0);
        self.engine.ctr_xor(&self.kb, Counter::Be32, c0, out);
        Ok(())
    }
}
