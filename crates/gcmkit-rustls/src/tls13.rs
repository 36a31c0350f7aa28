//! TLS 1.3 record protection (RFC 8446 sec. 5.2) on gcmkit's AES-GCM: the record body is
//! encrypted in one pass from rustls's plaintext chunks and the content-type byte into the
//! record buffer, and decrypted in place there, the tag detached.

use crate::key::{KeySize, TrafficKey, Unkeyed, TAG_LEN};
use gcmkit::AeadMode;
use rustls::crypto::cipher::{
    make_tls13_aad, AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, MessageDecrypter,
    MessageEncrypter, OutboundOpaqueMessage, OutboundPlainMessage, PrefixedPayload,
    Tls13AeadAlgorithm, UnsupportedOperationError,
};
use rustls::{ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion};

/// AES-128-GCM and AES-256-GCM as TLS 1.3 record protection.
pub(crate) struct Tls13Aead(pub(crate) KeySize);

impl Tls13AeadAlgorithm for Tls13Aead {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageEncrypter> {
        match self.0.traffic_key(&key, iv) {
            Some(key) => Box::new(Tls13Encrypter(key)),
            None => Box::new(Unkeyed),
        }
    }

    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageDecrypter> {
        match self.0.traffic_key(&key, iv) {
            Some(key) => Box::new(Tls13Decrypter(key)),
            None => Box::new(Unkeyed),
        }
    }

    fn key_len(&self) -> usize {
        self.0.len()
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok(self.0.traffic_secrets(key, iv))
    }
}

struct Tls13Encrypter(TrafficKey);

struct Tls13Decrypter(TrafficKey);

impl MessageEncrypter for Tls13Encrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let total_len = self.encrypted_payload_len(msg.payload.len());
        // TLSInnerPlaintext = content || type (no padding), then the tag: room for all of
        // it up front, so appending the tag does not reallocate.
        // One pass from rustls's chunks and the type byte into the record buffer.
        let mut payload = PrefixedPayload::with_capacity(total_len);
        let aad = make_tls13_aad(total_len);
        let typ = msg.typ.to_array();
        self.0
            .seal_chunks(&self.0.nonce(seq), &aad, &mut payload, &msg.payload, &typ)?;
        // Every TLS 1.3 record carries the legacy type and version (RFC 8446 sec. 5.2).
        Ok(OutboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            payload,
        ))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG_LEN
    }
}

impl MessageDecrypter for Tls13Decrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let payload = &mut msg.payload;
        let Some(body_len) = payload.len().checked_sub(TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let aad = make_tls13_aad(payload.len());
        let nonce = self.0.nonce(seq);
        let (body, tag) = payload.split_at_mut(body_len);
        // On failure gcmkit has zeroed `body`: no unauthenticated plaintext stays behind.
        self.0
            .gcm
            .decrypt_in_place_detached(&nonce, &aad, body, tag)
            .map_err(|_| Error::DecryptError)?;
        payload.truncate(body_len);
        // rustls strips the padding, reads the inner type and applies its length limits.
        msg.into_tls13_unpadded_message()
    }
}
