//! GMAC: GCM with an empty plaintext, the data being the AAD.
//!
//! A stand-alone MAC with a nonce. As the GMAC paper warns, verification must not leak
//! where a tag differs: [`Gmac::verify`] compares in constant time.

use super::{check_tag_len, GcmKey};
use crate::engine::Engine;
use crate::error::Error;
use crate::tag::Tag;

/// GMAC with an AES key of 16, 24 or 32 bytes.
#[derive(Clone, Debug)]
pub struct Gmac {
    key: GcmKey,
    tag_len: usize,
}

impl Gmac {
    /// A key object on the engine [`Engine::selected`] names.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_engine(key, Engine::selected()?)
    }

    /// A key object on a given engine.
    pub fn with_engine(key: &[u8], engine: Engine) -> Result<Self, Error> {
        Ok(Gmac {
            key: GcmKey::new(key, engine.kernels()?)?,
            tag_len: 16,
        })
    }

    /// Tags of `len` bytes (16, 15, 14, 13, 12, 8 or 4).
    pub fn with_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.tag_len = check_tag_len(len)?;
        Ok(self)
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.tag_len
    }

    /// The tag of `data` under `nonce` (any length from 1 byte).
    pub fn compute(&self, nonce: &[u8], data: &[u8]) -> Result<Tag, Error> {
        Ok(Tag::truncate(
            self.key.seal(nonce, data, &mut [])?,
            self.tag_len,
        ))
    }

    /// Checks a tag in constant time.
    pub fn verify(&self, nonce: &[u8], data: &[u8], tag: &[u8]) -> Result<(), Error> {
        if tag.len() != self.tag_len {
            return Err(Error::InvalidTagLength {
                got: tag.len(),
                expected: "the key object's tag length",
            });
        }
        if self.compute(nonce, data)?.ct_eq_slice(tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}
