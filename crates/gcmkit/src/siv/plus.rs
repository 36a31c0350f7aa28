//! GCM-SIV+ with explicit keys (hazmat): AES-GCM-SIV without DeriveKey.

use super::{check_nonce, plus, TAG_LEN};
use crate::aes::RoundKeys;
use crate::engine::{Data, Engine, Kernels};
use crate::error::Error;
use crate::field::{Flavor, HashKey};
use crate::mode::{sealed::Core, Limits, Opening};
use crate::tag::Tag;

/// GCM-SIV+ (seed 003 sec. 3): the caller supplies the POLYVAL key K1 (16 bytes) and the
/// AES key K2 (16 or 32 bytes). Reusing (K1, K2) across many messages loses the per-nonce
/// key separation that makes AES-GCM-SIV's bounds good; use [`crate::AesGcmSiv`] unless
/// you are reproducing the paper or already derive per-nonce keys yourself.
#[derive(Clone, Debug)]
pub struct GcmSivPlus {
    k1: HashKey,
    k2: RoundKeys,
    engine: Kernels,
}

impl GcmSivPlus {
    /// Keys K1 (POLYVAL, 16 bytes) and K2 (AES, 16 or 32 bytes).
    pub fn new(k1: &[u8], k2: &[u8]) -> Result<Self, Error> {
        Self::with_engine(k1, k2, Engine::selected()?)
    }

    /// The same on a given engine.
    pub fn with_engine(k1: &[u8], k2: &[u8], engine: Engine) -> Result<Self, Error> {
        let k1: &[u8; 16] = k1.try_into().map_err(|_| Error::InvalidKeyLength {
            got: k1.len(),
            expected: "16 (K1)",
        })?;
        if k2.len() != 16 && k2.len() != 32 {
            return Err(Error::InvalidKeyLength {
                got: k2.len(),
                expected: "16 or 32 (K2)",
            });
        }
        let engine = engine.kernels()?;
        Ok(GcmSivPlus {
            k1: engine.hash_key(k1, Flavor::Polyval, crate::field::POWERS),
            k2: engine.expand_key(k2)?,
            engine,
        })
    }
}

impl Core for GcmSivPlus {
    fn mode_limits(&self) -> Limits {
        super::LIMITS
    }

    fn seal_data(&self, nonce: &[u8], aad: &[u8], data: Data<'_>) -> Result<Tag, Error> {
        let buf = data.into_in_place();
        let tag = plus(self.engine, &self.k1, &self.k2).seal(check_nonce(nonce)?, aad, buf)?;
        Ok(Tag::truncate(tag, TAG_LEN))
    }

    fn open_data(&self, o: Opening<'_>) -> Result<(), Error> {
        let (nonce, aad, data, tag, on_failure) = (o.nonce, o.aad, o.data, o.tag, o.on_failure);
        let nonce = check_nonce(nonce)?;
        let buf = data.into_in_place();
        plus(self.engine, &self.k1, &self.k2).open(nonce, aad, buf, tag, on_failure)
    }
}
