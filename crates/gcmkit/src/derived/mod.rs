//! AES-256-GCM under a key derived from a root key and a long nonce, per message:
//! XAES-256-GCM (c2sp.org/XAES-256-GCM) and DNDK-GCM (draft-gueron-cfrg-dndkgcm-03).
//! Both take a 256-bit root key and (typically) a 24-byte random nonce, so random nonces
//! are safe for far more than AES-GCM's 2^32 messages per key; DNDK-GCM can also commit
//! to the key.
//!
//! The per-message cost over AES-256-GCM with a fixed key is the derivation's few AES
//! blocks (one multi-block call on the root key), one AES-256 key schedule and H with
//! only the powers this message needs (`gcm::powers_for`), filled in place; the message itself runs on the
//! same kernels as AES-256-GCM. The derived key, its schedule and its powers of H are
//! zeroized when the call returns.

pub(crate) mod dndk;
pub(crate) mod xaes;

use crate::aes::RoundKeys;
use crate::engine::{Data, Engine, Kernels};
use crate::error::Error;
use crate::gcm::{powers_for, GcmKey};
use crate::mode::Opening;
use crate::secret::wipe::wipe_bytes;

/// Largest plaintext (as AES-256-GCM: 2^36 - 32 bytes).
pub const MAX_PLAINTEXT: u64 = crate::gcm::MAX_PLAINTEXT;
/// Largest AAD (as AES-256-GCM).
pub const MAX_AAD: u64 = crate::gcm::MAX_AAD;

/// A 256-bit root key expanded once, and the engine that runs it.
#[derive(Clone, Debug)]
pub(crate) struct RootKey {
    pub(crate) aes: RoundKeys,
    pub(crate) engine: Kernels,
}

impl RootKey {
    pub(crate) fn new(key: &[u8], engine: Engine) -> Result<Self, Error> {
        if key.len() != 32 {
            return Err(Error::InvalidKeyLength {
                got: key.len(),
                expected: "32",
            });
        }
        let engine = engine.kernels()?;
        Ok(RootKey {
            aes: engine.expand_key(key)?,
            engine,
        })
    }

    /// Encrypts the derivation's blocks under the root key (one multi-block call).
    pub(crate) fn encrypt(&self, blocks: &mut [[u8; 16]]) {
        self.engine.encrypt_blocks(&self.aes, blocks);
    }

    /// AES-256-GCM of one message under the derived key `dk` and the 96-bit IV `iv`:
    /// encrypts in place or from a source, returns the full tag.
    pub(crate) fn seal(
        &self,
        dk: &Secret<32>,
        iv: &[u8; 12],
        aad: &[u8],
        mut data: Data<'_>,
    ) -> Result<[u8; 16], Error> {
        let mut key = GcmKey::empty(self.engine);
        key.fill(&dk.0, powers_for(self.engine, aad.len(), data.dst().len()))?;
        key.seal_data(iv, aad, data)
    }

    /// The inverse of [`Self::seal`], `o.nonce` being the 96-bit IV: unless `o.tag` (16
    /// bytes) verifies, the destination is as `o.on_failure` says.
    pub(crate) fn open(&self, dk: &Secret<32>, o: Opening<'_>) -> Result<(), Error> {
        let mut key = GcmKey::empty(self.engine);
        key.fill(
            &dk.0,
            powers_for(self.engine, o.aad.len(), o.data.src().len()),
        )?;
        key.open_data(o)
    }
}

/// Per-message key material, wiped on drop with 16-byte volatile stores (`zeroize`'s
/// byte-at-a-time stores showed up per message).
pub(crate) struct Secret<const N: usize>(pub(crate) [u8; N]);

impl<const N: usize> Drop for Secret<N> {
    fn drop(&mut self) {
        wipe_bytes(&mut self.0);
    }
}

/// Limits shared by both constructions (the tag length is each one's own).
pub(crate) fn limits(tag_len: usize) -> crate::mode::Limits {
    crate::mode::Limits {
        tag_len,
        max_aad: MAX_AAD,
        max_data: MAX_PLAINTEXT,
    }
}
