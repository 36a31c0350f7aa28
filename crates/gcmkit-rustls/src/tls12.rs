//! TLS 1.2 AES-GCM record protection (RFC 5288) on gcmkit: nonce = 4-byte salt from the
//! key block || 8-byte explicit part sent in front of each record, the record body
//! encrypted in one pass from rustls's plaintext chunks into the record buffer and
//! decrypted in place there.

use crate::key::{KeySize, TrafficKey, Unkeyed, TAG_LEN};
use gcmkit::{AeadMode, AesGcm};
use rustls::crypto::cipher::{
    make_tls12_aad, AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, KeyBlockShape,
    MessageDecrypter, MessageEncrypter, OutboundOpaqueMessage, OutboundPlainMessage,
    PrefixedPayload, Tls12AeadAlgorithm, UnsupportedOperationError, NONCE_LEN,
};
use rustls::{ConnectionTrafficSecrets, Error};

/// Bytes of the nonce that come from the key block (the "salt").
const SALT_LEN: usize = 4;
/// Bytes of the nonce sent in clear in front of each record.
const EXPLICIT_LEN: usize = NONCE_LEN - SALT_LEN;
/// Largest record plaintext (RFC 5246 sec. 6.2.1).
const MAX_FRAGMENT_LEN: usize = 1 << 14;

/// AES-128-GCM and AES-256-GCM as TLS 1.2 record protection.
pub(crate) struct Tls12Aead(pub(crate) KeySize);

impl Tls12AeadAlgorithm for Tls12Aead {
    fn encrypter(&self, key: AeadKey, salt: &[u8], explicit: &[u8]) -> Box<dyn MessageEncrypter> {
        let key = first_nonce(salt, explicit).and_then(|iv| self.0.traffic_key(&key, iv));
        match key {
            Some(key) => Box::new(Tls12Encrypter(key)),
            None => Box::new(Unkeyed),
        }
    }

    fn decrypter(&self, key: AeadKey, salt: &[u8]) -> Box<dyn MessageDecrypter> {
        match (self.0.gcm(&key), <[u8; SALT_LEN]>::try_from(salt)) {
            (Some(gcm), Ok(salt)) => Box::new(Tls12Decrypter { gcm, salt }),
            _ => Box::new(Unkeyed),
        }
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: self.0.len(),
            fixed_iv_len: SALT_LEN,
            explicit_nonce_len: EXPLICIT_LEN,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        salt: &[u8],
        explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        let iv = first_nonce(salt, explicit).ok_or(UnsupportedOperationError)?;
        Ok(self.0.traffic_secrets(key, iv))
    }
}

/// The nonce of record 0: salt || explicit part. RFC 5288 leaves the explicit part's
/// construction open; as rustls's own providers do, record `seq` uses this value with
/// `seq` XORed into its last 8 bytes (TLS 1.3's construction), which never repeats under
/// one key and is what `extract_keys` reports to kernel TLS.
fn first_nonce(salt: &[u8], explicit: &[u8]) -> Option<Iv> {
    if salt.len() != SALT_LEN || explicit.len() != EXPLICIT_LEN {
        return None;
    }
    let mut iv = [0u8; NONCE_LEN];
    iv[..SALT_LEN].copy_from_slice(salt);
    iv[SALT_LEN..].copy_from_slice(explicit);
    Some(Iv::new(iv))
}

struct Tls12Encrypter(TrafficKey);

struct Tls12Decrypter {
    gcm: AesGcm,
    salt: [u8; SALT_LEN],
}

impl MessageEncrypter for Tls12Encrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let nonce = self.0.nonce(seq);
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        // explicit nonce || body || tag, with room for all of it up front.
        let mut payload = PrefixedPayload::with_capacity(total_len);
        payload.extend_from_slice(&nonce[SALT_LEN..]);
        self.0
            .seal_chunks(&nonce, &aad, &mut payload, &msg.payload, &[])?;
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        EXPLICIT_LEN + payload_len + TAG_LEN
    }
}

impl MessageDecrypter for Tls12Decrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let payload = &mut msg.payload;
        let Some(body_len) = payload.len().checked_sub(EXPLICIT_LEN + TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let mut nonce = [0u8; NONCE_LEN];
        nonce[..SALT_LEN].copy_from_slice(&self.salt);
        nonce[SALT_LEN..].copy_from_slice(&payload[..EXPLICIT_LEN]);
        let aad = make_tls12_aad(seq, msg.typ, msg.version, body_len);
        let (body, tag) = payload[EXPLICIT_LEN..].split_at_mut(body_len);
        // On failure gcmkit has zeroed `body`: no unauthenticated plaintext stays behind.
        self.gcm
            .decrypt_in_place_detached(&nonce, &aad, body, tag)
            .map_err(|_| Error::DecryptError)?;
        if body_len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        // The plaintext stays where it was decrypted, after the explicit nonce: no move.
        Ok(msg.into_plain_message_range(EXPLICIT_LEN..EXPLICIT_LEN + body_len))
    }
}
