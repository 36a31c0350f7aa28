//! QUIC packet protection (RFC 9001 sec. 5.3) and header protection (sec. 5.4.3) on
//! gcmkit: AES-GCM in place on the packet payload, and the header mask AES(hp_key, sample)
//! from gcmkit's AES (one counter block of `hazmat::AesCtr32` over zeros is exactly
//! AES-ECB of the sample).

use crate::key::{KeySize, TrafficKey, TAG_LEN};
use gcmkit::hazmat::AesCtr32;
use gcmkit::{AeadMode, Engine};
use rustls::crypto::cipher::{AeadKey, Iv, Nonce};
use rustls::quic::{self, Tag};
use rustls::Error;

/// Packets one AES-GCM key may protect (RFC 9001 sec. 6.6: 2^23 for AEAD_AES_128_GCM and
/// AEAD_AES_256_GCM, for packets of up to 2^16 bytes).
const CONFIDENTIALITY_LIMIT: u64 = 1 << 23;
/// Forged packets tolerated under one AES-GCM key before it is retired (RFC 9001 sec. 6.6:
/// 2^52).
const INTEGRITY_LIMIT: u64 = 1 << 52;
/// Ciphertext bytes sampled for the header mask (RFC 9001 sec. 5.4.2).
const SAMPLE_LEN: usize = 16;
/// Longest packet number (RFC 9000 sec. 17.1).
const MAX_PN_LEN: usize = 4;

/// AES-128-GCM and AES-256-GCM as QUIC packet and header protection.
pub(crate) struct QuicAead(pub(crate) KeySize);

impl quic::Algorithm for QuicAead {
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn quic::PacketKey> {
        match self.0.traffic_key(&key, iv) {
            Some(key) => Box::new(PacketKey(key)),
            None => Box::new(Unkeyed),
        }
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn quic::HeaderProtectionKey> {
        let aes = (key.as_ref().len() == self.0.len())
            .then(|| Engine::selected().and_then(|e| AesCtr32::new(key.as_ref(), e)))
            .and_then(Result::ok);
        match aes {
            Some(aes) => Box::new(HeaderProtectionKey(aes)),
            None => Box::new(Unkeyed),
        }
    }

    fn aead_key_len(&self) -> usize {
        self.0.len()
    }
}

/// One direction's packet key.
struct PacketKey(TrafficKey);

impl PacketKey {
    fn seal(&self, nonce: Nonce, header: &[u8], payload: &mut [u8]) -> Result<Tag, Error> {
        let tag = self
            .0
            .gcm
            .encrypt_in_place_detached(&nonce.0, header, payload)
            .map_err(|_| Error::EncryptError)?;
        Ok(Tag::from(tag.as_ref()))
    }

    /// `payload` is ciphertext || tag; on success the plaintext is its front part.
    fn open<'a>(
        &self,
        nonce: Nonce,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        let Some(body_len) = payload.len().checked_sub(TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let (body, tag) = payload.split_at_mut(body_len);
        self.0
            .gcm
            .decrypt_in_place_detached(&nonce.0, header, body, tag)
            .map_err(|_| Error::DecryptError)?;
        Ok(body)
    }
}

impl quic::PacketKey for PacketKey {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, Error> {
        self.seal(Nonce::new(&self.0.iv, packet_number), header, payload)
    }

    fn encrypt_in_place_for_path(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, Error> {
        let nonce = Nonce::for_path(path_id, &self.0.iv, packet_number);
        self.seal(nonce, header, payload)
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(Nonce::new(&self.0.iv, packet_number), header, payload)
    }

    fn decrypt_in_place_for_path<'a>(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        let nonce = Nonce::for_path(path_id, &self.0.iv, packet_number);
        self.open(nonce, header, payload)
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn confidentiality_limit(&self) -> u64 {
        CONFIDENTIALITY_LIMIT
    }

    fn integrity_limit(&self) -> u64 {
        INTEGRITY_LIMIT
    }
}

/// The header protection key: AES alone, for the 5-byte mask.
struct HeaderProtectionKey(AesCtr32);

impl HeaderProtectionKey {
    /// Applies or removes header protection (RFC 9001 sec. 5.4.1). Checks everything
    /// before touching `first` or `packet_number`, as the trait requires.
    fn xor_mask(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
        removing: bool,
    ) -> Result<(), Error> {
        let sample: [u8; SAMPLE_LEN] = sample
            .try_into()
            .map_err(|_| Error::General("QUIC header protection: sample is not 16 bytes".into()))?;
        if packet_number.len() > MAX_PN_LEN {
            return Err(Error::General(
                "QUIC header protection: packet number longer than 4 bytes".into(),
            ));
        }
        let mut mask = [0u8; SAMPLE_LEN];
        self.0.apply_keystream(sample, &mut mask);

        // Long headers protect the low 4 bits of the first byte, short headers 5.
        let protected_bits = if *first & 0x80 != 0 { 0x0f } else { 0x1f };
        // The packet number length is in the unprotected first byte: after removing the
        // mask, or before applying it.
        let unprotected_first = if removing {
            *first ^ (mask[0] & protected_bits)
        } else {
            *first
        };
        let pn_len = (unprotected_first & 0x03) + 1;
        *first ^= mask[0] & protected_bits;
        // The packet number length is itself protected: every byte the caller passed is
        // visited and only the first `pn_len` get mask bytes, selected without a branch
        // (i < pn_len <=> i - pn_len wraps to a byte with its top bit set; both are <= 4).
        for (i, (byte, m)) in (0u8..).zip(packet_number.iter_mut().zip(&mask[1..])) {
            let in_pn = 0u8.wrapping_sub(i.wrapping_sub(pn_len) >> 7);
            *byte ^= m & in_pn;
        }
        Ok(())
    }
}

impl quic::HeaderProtectionKey for HeaderProtectionKey {
    fn encrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor_mask(sample, first, packet_number, false)
    }

    fn decrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor_mask(sample, first, packet_number, true)
    }

    fn sample_len(&self) -> usize {
        SAMPLE_LEN
    }
}

/// Stands in for a packet or header protection key that gcmkit could not build (see
/// [`crate::key::Unkeyed`]): every packet is refused.
struct Unkeyed;

impl quic::PacketKey for Unkeyed {
    fn encrypt_in_place(&self, _: u64, _: &[u8], _: &mut [u8]) -> Result<Tag, Error> {
        Err(Error::EncryptError)
    }

    fn decrypt_in_place<'a>(&self, _: u64, _: &[u8], _: &'a mut [u8]) -> Result<&'a [u8], Error> {
        Err(Error::DecryptError)
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn confidentiality_limit(&self) -> u64 {
        0
    }

    fn integrity_limit(&self) -> u64 {
        0
    }
}

impl quic::HeaderProtectionKey for Unkeyed {
    fn encrypt_in_place(&self, _: &[u8], _: &mut u8, _: &mut [u8]) -> Result<(), Error> {
        Err(Error::EncryptError)
    }

    fn decrypt_in_place(&self, _: &[u8], _: &mut u8, _: &mut [u8]) -> Result<(), Error> {
        Err(Error::DecryptError)
    }

    fn sample_len(&self) -> usize {
        SAMPLE_LEN
    }
}
