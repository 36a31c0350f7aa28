//! gcmkit key objects from rustls key material, built once per traffic key, and the
//! stand-in that refuses every record when one cannot be built.

use gcmkit::{AeadMode, AesGcm};
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, MessageDecrypter, MessageEncrypter,
    Nonce, OutboundChunks, OutboundOpaqueMessage, OutboundPlainMessage, PrefixedPayload, NONCE_LEN,
};
use rustls::{ConnectionTrafficSecrets, Error};

/// The GCM tag length of every TLS and QUIC AES-GCM suite.
pub(crate) const TAG_LEN: usize = 16;

/// The AES key size of a suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeySize {
    Aes128,
    Aes256,
}

impl KeySize {
    /// Key length in bytes.
    pub(crate) const fn len(self) -> usize {
        match self {
            KeySize::Aes128 => 16,
            KeySize::Aes256 => 32,
        }
    }

    /// The AES-GCM key object for `key`, or `None` when `key` is not of this size (rustls
    /// always passes `key_len()` bytes; a longer key must not silently select AES-256) or
    /// gcmkit cannot build it (an engine forced by `GCMKIT_ENGINE` that this CPU lacks).
    pub(crate) fn gcm(self, key: &AeadKey) -> Option<AesGcm> {
        let key = key.as_ref();
        if key.len() != self.len() {
            return None;
        }
        AesGcm::new(key).ok()
    }

    /// The traffic key for `key` and `iv` (see [`KeySize::gcm`]).
    pub(crate) fn traffic_key(self, key: &AeadKey, iv: Iv) -> Option<TrafficKey> {
        self.gcm(key).map(|gcm| TrafficKey { gcm, iv })
    }

    /// The traffic secrets rustls hands to kernel TLS and other record layers.
    pub(crate) fn traffic_secrets(self, key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
        match self {
            KeySize::Aes128 => ConnectionTrafficSecrets::Aes128Gcm { key, iv },
            KeySize::Aes256 => ConnectionTrafficSecrets::Aes256Gcm { key, iv },
        }
    }
}

/// One direction's traffic key: the AES-GCM key object, expanded once when rustls installs
/// the key (never per record), and the static IV each record's or packet's number is XORed
/// into (RFC 8446 sec. 5.3, RFC 9001 sec. 5.3).
pub(crate) struct TrafficKey {
    pub(crate) gcm: AesGcm,
    pub(crate) iv: Iv,
}

impl TrafficKey {
    /// The nonce of record (or packet) number `seq`.
    pub(crate) fn nonce(&self, seq: u64) -> [u8; NONCE_LEN] {
        Nonce::new(&self.iv, seq).0
    }

    /// Encrypts `payload[from..]` in place and appends the tag, for which the caller
    /// reserved room (so the record buffer is not reallocated).
    pub(crate) fn seal_appending_tag(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        payload: &mut PrefixedPayload,
        from: usize,
    ) -> Result<(), Error> {
        let tag = self
            .gcm
            .encrypt_in_place_detached(nonce, aad, &mut payload.as_mut()[from..])
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(tag.as_ref());
        Ok(())
    }

    /// Appends the encryption of `plaintext` and its tag to `payload` (whose capacity the
    /// caller reserved). A single contiguous chunk is encrypted in one pass from the
    /// caller's bytes into the record buffer (its room zero-filled first, a store-only
    /// pass, instead of a copy of the plaintext that is then encrypted in place); several
    /// chunks are copied in and encrypted in place.
    pub(crate) fn seal_chunks(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        payload: &mut PrefixedPayload,
        plaintext: &OutboundChunks<'_>,
    ) -> Result<(), Error> {
        let from = payload.as_ref().len();
        match *plaintext {
            OutboundChunks::Single(chunk) => {
                payload.extend(core::iter::repeat_n(&0u8, chunk.len() + TAG_LEN));
                self.gcm
                    .encrypt_into(nonce, chunk, aad, &mut payload.as_mut()[from..])
                    .map_err(|_| Error::EncryptError)
            }
            OutboundChunks::Multiple { .. } => {
                payload.extend_from_chunks(plaintext);
                self.seal_appending_tag(nonce, aad, payload, from)
            }
        }
    }
}

/// Stands in for an encrypter or decrypter whose key object could not be built: every
/// record is refused with rustls's encryption or decryption error, so the connection fails
/// instead of the process panicking inside a trait method that cannot return an error.
pub(crate) struct Unkeyed;

impl MessageEncrypter for Unkeyed {
    fn encrypt(
        &mut self,
        _msg: OutboundPlainMessage<'_>,
        _seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        Err(Error::EncryptError)
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + TAG_LEN
    }
}

impl MessageDecrypter for Unkeyed {
    fn decrypt<'a>(
        &mut self,
        _msg: InboundOpaqueMessage<'a>,
        _seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        Err(Error::DecryptError)
    }
}
