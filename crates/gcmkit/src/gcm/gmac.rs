//! GMAC: GCM with an empty plaintext, the data being the AAD.
//!
//! A stand-alone MAC with a nonce. As the GMAC paper warns, verification must not leak
//! where a tag differs: [`Gmac::verify`] compares in constant time.

use super::AesGcm;
use crate::engine::Engine;
use crate::error::Error;
use crate::tag::Tag;
use crate::AeadMode;

/// GMAC with an AES key of 16, 24 or 32 bytes: AES-GCM whose data is all AAD, so it shares
/// AES-GCM's key setup, limits and tag lengths.
///
/// ```
/// use gcmkit::{Error, Gmac};
/// let mac = Gmac::new(&[6u8; 32])?;
/// let nonce = [7u8; 12];
/// let tag = mac.compute(&nonce, b"log line 1")?;
/// assert_eq!(mac.tag_len(), 16);
/// mac.verify(&nonce, b"log line 1", tag.as_ref())?;
/// assert_eq!(mac.verify(&nonce, b"log line 2", tag.as_ref()), Err(Error::AuthenticationFailed));
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Gmac {
    gcm: AesGcm,
}

impl Gmac {
    /// A key object on the engine [`Engine::selected`] names.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        AesGcm::new(key).map(|gcm| Gmac { gcm })
    }

    /// A key object on a given engine.
    pub fn with_engine(key: &[u8], engine: Engine) -> Result<Self, Error> {
        AesGcm::with_engine(key, engine).map(|gcm| Gmac { gcm })
    }

    /// Tags of `len` bytes (16, 15, 14, 13, 12, 8 or 4).
    pub fn with_tag_len(self, len: usize) -> Result<Self, Error> {
        self.gcm.with_tag_len(len).map(|gcm| Gmac { gcm })
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.gcm.tag_len()
    }

    /// The tag of `data` under `nonce` (any length from 1 byte).
    pub fn compute(&self, nonce: &[u8], data: &[u8]) -> Result<Tag, Error> {
        self.gcm.encrypt_in_place_detached(nonce, data, &mut [])
    }

    /// Checks a tag in constant time.
    pub fn verify(&self, nonce: &[u8], data: &[u8], tag: &[u8]) -> Result<(), Error> {
        self.gcm
            .decrypt_in_place_detached(nonce, data, &mut [], tag)
    }
}
