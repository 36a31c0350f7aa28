//! gcmkit key objects from rustls key material, built once per traffic key, and the
//! stand-in that refuses every record when one cannot be built.

use gcmkit::AesGcm;
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

    /// Appends the encryption of `plaintext` then `suffix` (TLS 1.3's content-type byte;
    /// empty for TLS 1.2), and the tag, to `payload`, whose capacity the caller reserved
    /// (so the record buffer is not reallocated). One pass from the caller's chunks into
    /// the record buffer (`AesGcm::encrypt_parts_into`): the room is zero-filled first (a
    /// store-only pass: `PrefixedPayload` offers safe code no uninitialized room) instead
    /// of copying the plaintext in and encrypting it in place, a load and a store more per
    /// byte.
    pub(crate) fn seal_chunks(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        payload: &mut PrefixedPayload,
        plaintext: &OutboundChunks<'_>,
        suffix: &[u8],
    ) -> Result<(), Error> {
        let from = payload.as_ref().len();
        let len = plaintext.len() + suffix.len() + TAG_LEN;
        // Zeroed room in 4 KiB slices of a static block, not through `Extend`'s byte
        // iterator: in a debug build (rustls at opt-level 0) that iterator ran one call per
        // byte (docs/tuning.md: TrafficKey::seal_chunks).
        static ZEROS: [u8; 4096] = [0; 4096];
        let mut room = len;
        while room > 0 {
            let n = room.min(ZEROS.len());
            payload.extend_from_slice(&ZEROS[..n]);
            room -= n;
        }
        let out = &mut payload.as_mut()[from..];
        let sealed = match *plaintext {
            OutboundChunks::Single(chunk) => {
                self.gcm
                    .encrypt_parts_into(nonce, &[chunk, suffix], aad, out)
            }
            OutboundChunks::Multiple { chunks, start, end } => {
                let mut parts = Vec::with_capacity(chunks.len() + 1);
                parts.extend(window(chunks, start, end));
                parts.push(suffix);
                self.gcm.encrypt_parts_into(nonce, &parts, aad, out)
            }
        };
        sealed.map_err(|_| Error::EncryptError)
    }
}

/// The pieces of `chunks` that bytes `start..end` of their concatenation fall in (the
/// window of rustls's `OutboundChunks::Multiple`), in order, empty pieces left out.
fn window<'a>(
    chunks: &'a [&'a [u8]],
    start: usize,
    end: usize,
) -> impl Iterator<Item = &'a [u8]> + 'a {
    chunks
        .iter()
        .scan(0usize, |at, chunk| {
            let first = *at;
            *at += chunk.len();
            Some((first, *chunk))
        })
        .filter_map(move |(first, chunk)| {
            let lo = start.clamp(first, first + chunk.len()) - first;
            let hi = end.clamp(first, first + chunk.len()) - first;
            (lo < hi).then(|| &chunk[lo..hi])
        })
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
