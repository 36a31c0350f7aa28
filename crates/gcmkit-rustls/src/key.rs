//! gcmkit key objects from rustls key material, built once per traffic key, and the
//! stand-in that refuses every record when one cannot be built.

use gcmkit::AesGcm;
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, MessageDecrypter, MessageEncrypter,
    OutboundOpaqueMessage, OutboundPlainMessage,
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

    /// The traffic secrets rustls hands to kernel TLS and other record layers.
    pub(crate) fn traffic_secrets(self, key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
        match self {
            KeySize::Aes128 => ConnectionTrafficSecrets::Aes128Gcm { key, iv },
            KeySize::Aes256 => ConnectionTrafficSecrets::Aes256Gcm { key, iv },
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
