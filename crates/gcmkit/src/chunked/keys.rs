//! Per-message keys: HKDF-Expand-SHA-512 of the input key into the AEAD key, base nonce and
//! commitment; chunk nonces; sealing and opening one chunk.

use super::{LABEL, SALT, TAG};
use crate::error::Error;
use crate::AeadMode;
use crate::{AesGcm, Engine};
use std::format;
use std::io;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// The per-message keys: AEAD key, base nonce, commitment.
pub(crate) struct MessageKeys {
    aead: AesGcm,
    base_nonce: [u8; 12],
    pub(crate) commitment: [u8; 32],
    pub(crate) salt: [u8; SALT],
}

/// Checks that `key` is a Cobblestone key: 16 bytes (Cobblestone-128) or 32
/// (Cobblestone-256), else `Error::InvalidKeyLength`; for callers that must refuse a bad
/// key before they do anything else (open a file, size a buffer).
pub fn check_key(key: &[u8]) -> Result<(), Error> {
    aead_name(key.len()).map(|_| ())
}

pub(crate) fn aead_name(key_len: usize) -> Result<&'static [u8], Error> {
    match key_len {
        16 => Ok(b"AEAD_AES_128_GCM"),
        32 => Ok(b"AEAD_AES_256_GCM"),
        n => Err(Error::InvalidKeyLength {
            got: n,
            expected: "16 (Cobblestone-128) or 32 (Cobblestone-256)",
        }),
    }
}

/// The message key schedule (c2sp.org/chunked-encryption): HKDF-Expand-SHA-512 of the
/// key over LABEL || AEAD name || 0 || salt || context gives the AEAD key (the key's
/// length), the base nonce (12 bytes) and the commitment (32 bytes), in that order. The
/// one definition, for `MessageKeys::derive` and `hazmat::derive`; wiped on drop.
pub(crate) struct Okm {
    bytes: Zeroizing<[u8; 32 + 12 + 32]>,
    key_len: usize,
}

impl Okm {
    pub(crate) fn expand(key: &[u8], salt: &[u8; SALT], context: &[u8]) -> Result<Self, Error> {
        let name = aead_name(key.len())?;
        let mut bytes = Zeroizing::new([0u8; 32 + 12 + 32]);
        let n = key.len();
        crate::kdf::hkdf::expand_sha512(
            key,
            &[LABEL, name, &[0], salt, context],
            &mut bytes[..n + 44],
        );
        Ok(Okm { bytes, key_len: n })
    }

    /// The AEAD key.
    pub(crate) fn aead_key(&self) -> &[u8] {
        &self.bytes[..self.key_len]
    }

    /// The base nonce.
    pub(crate) fn base_nonce(&self) -> [u8; 12] {
        let n = self.key_len;
        let mut nonce = [0u8; 12];
        nonce.copy_from_slice(&self.bytes[n..n + 12]);
        nonce
    }

    /// The key commitment.
    fn commitment(&self) -> [u8; 32] {
        let n = self.key_len + 12;
        let mut c = [0u8; 32];
        c.copy_from_slice(&self.bytes[n..n + 32]);
        c
    }
}

impl MessageKeys {
    pub(crate) fn derive(
        key: &[u8],
        salt: &[u8; SALT],
        context: &[u8],
        engine: Engine,
    ) -> Result<Self, Error> {
        let okm = Okm::expand(key, salt, context)?;
        let aead = AesGcm::with_engine(okm.aead_key(), engine)?;
        let base_nonce = okm.base_nonce();
        let commitment = okm.commitment();
        Ok(MessageKeys {
            aead,
            base_nonce,
            commitment,
            salt: *salt,
        })
    }

    /// Raw mode: the caller supplies the AEAD key and the base nonce.
    pub(crate) fn raw(
        aead_key: &[u8],
        base_nonce: &[u8; 12],
        engine: Engine,
    ) -> Result<Self, Error> {
        let aead = AesGcm::with_engine(aead_key, engine)?;
        Ok(MessageKeys {
            aead,
            base_nonce: *base_nonce,
            commitment: [0; 32],
            salt: [0; SALT],
        })
    }

    fn nonce(&self, k: u64) -> [u8; 12] {
        let mut n = self.base_nonce;
        let kb = k.to_be_bytes();
        for i in 0..5 {
            n[7 + i] ^= kb[3 + i];
        }
        n
    }

    /// Encrypts chunk `k` from `pt` into `out` (ciphertext || tag, `pt.len() + 16` bytes)
    /// in one pass.
    pub(crate) fn seal(&self, k: u64, pt: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.aead.encrypt_into(&self.nonce(k), pt, b"", out)
    }

    /// Decrypts chunk `k` in place; the plaintext is `buf[..len - 16]`.
    pub(crate) fn open(&self, k: u64, buf: &mut [u8]) -> Result<(), Error> {
        if buf.len() < TAG {
            return Err(Error::Truncated);
        }
        let n = buf.len() - TAG;
        let (ct, tag) = buf.split_at_mut(n);
        self.aead
            .decrypt_in_place_detached(&self.nonce(k), b"", ct, tag)
            .map_err(|_| Error::ModifiedChunk { chunk: k })
    }

    /// Decrypts chunk `k` (ciphertext || tag) into `out` (`chunk.len() - 16` bytes) in one
    /// pass; `out` is zeroed if the chunk does not verify.
    pub(crate) fn open_into(&self, k: u64, chunk: &[u8], out: &mut [u8]) -> Result<(), Error> {
        if chunk.len() < TAG {
            return Err(Error::Truncated);
        }
        self.aead
            .decrypt_into(&self.nonce(k), chunk, b"", out)
            .map_err(|_| Error::ModifiedChunk { chunk: k })
    }

    pub(crate) fn check_commitment(&self, c: &[u8]) -> Result<(), Error> {
        if crate::secret::ct::declassify(bool::from(self.commitment.ct_eq(c))) {
            Ok(())
        } else {
            Err(Error::WrongKeyOrContext)
        }
    }
}

/// The error for the chunk the input ends in (short: where only a final chunk can be)
/// failing authentication: no final chunk verified, so the message is incomplete, whether
/// it was cut inside a chunk or its end was changed (a reader cannot tell which). Other
/// errors pass unchanged. Only the error is renamed: it is chosen after the tag check,
/// from its public outcome and the input's length.
pub(crate) fn at_end(e: Error) -> Error {
    match e {
        Error::ModifiedChunk { chunk } => Error::EndsInUnverifiedChunk { chunk },
        e => e,
    }
}

pub(crate) fn random_salt() -> Result<[u8; SALT], Error> {
    let mut s = [0u8; SALT];
    getrandom::fill(&mut s)
        .map_err(|e| io::Error::other(format!("no system randomness: {e:?}")))?;
    Ok(s)
}
