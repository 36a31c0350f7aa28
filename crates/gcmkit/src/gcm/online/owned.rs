//! On-line AES-GCM that owns its key object and can be copied mid-message (hazmat).
//!
//! [`GcmStream`] is the streaming state an EVP-style interface needs (OpenSSL's provider
//! API in `crates/gcmkit-ossl`): one object holding the key and at most one message in
//! progress, restartable with a new IV without expanding the key again, clonable at any
//! point of a message (`EVP_CIPHER_CTX_copy`), releasing decrypted data before the tag is
//! checked (as `EVP_DecryptUpdate` does) and verifying tags of 1 to 16 bytes (OpenSSL
//! accepts any tag length up to 16 when decrypting).
//!
//! It is the borrowed on-line state ([`super::Stream`]) over an owned key object, restarted
//! in place for each IV, so the GCM logic exists once and nothing is copied per call.

use super::Stream;
use crate::error::Error;
use crate::gcm::AesGcm;
use crate::tag::Tag;
use zeroize::Zeroize;

/// On-line AES-GCM owning its key: `start` a message under an IV, `aad`, `update` in
/// pieces of any size, then `tag` (encryption) or `verify` (decryption).
///
/// Decryption is UNVERIFIED until `verify` succeeds: `update` hands out plaintext before
/// the tag is checked, so the caller must discard all of it if `verify` fails (what
/// OpenSSL's EVP decryption requires of its callers). Prefer [`crate::GcmDecryptor`].
///
/// ```
/// use gcmkit::hazmat::GcmStream;
/// use gcmkit::{AeadMode, AesGcm, Error};
/// let mut s = GcmStream::new(AesGcm::new(&[1u8; 16])?);
/// let iv = [2u8; 12];
///
/// s.start(&iv, false)?; // encrypt
/// s.aad(b"hdr")?;
/// let mut buf = *b"owned-key stream";
/// s.update(&mut buf)?;
/// let tag = s.tag()?;
/// assert!(!s.in_message());
/// let one_shot = s.key().encrypt(&iv, b"owned-key stream", b"hdr")?;
/// assert_eq!([&buf[..], tag.as_ref()].concat(), one_shot);
///
/// s.start(&iv, true)?; // decrypt (UNVERIFIED until `verify`)
/// s.aad(b"hdr")?;
/// s.update(&mut buf)?;
/// s.verify(tag.as_ref())?;
/// assert_eq!(&buf, b"owned-key stream");
///
/// s.start(&iv, true)?;
/// s.aad(b"other hdr")?;
/// assert_eq!(s.verify(tag.as_ref()), Err(Error::AuthenticationFailed));
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone)]
pub struct GcmStream {
    st: Stream<AesGcm>,
    /// `Some(decrypt)` while a message is in progress.
    msg: Option<bool>,
}

impl core::fmt::Debug for GcmStream {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GcmStream")
            .field("in_message", &self.msg.is_some())
            .finish_non_exhaustive()
    }
}

const NO_MESSAGE: Error = Error::InvalidParameter("no message started (call start first)");

impl GcmStream {
    /// A stream over `gcm`'s key (its tag length is ignored: tags are 16 bytes, or the
    /// prefix `verify` is given).
    pub fn new(gcm: AesGcm) -> Self {
        GcmStream {
            st: Stream::idle(gcm),
            msg: None,
        }
    }

    /// The key object, for one-shot calls beside the stream.
    pub fn key(&self) -> &AesGcm {
        &self.st.gcm
    }

    /// Starts a message under `iv` (any length from 1 byte), dropping any message in
    /// progress.
    pub fn start(&mut self, iv: &[u8], decrypt: bool) -> Result<(), Error> {
        // A message in progress is abandoned: its secrets go first (an ended one's
        // already went in `end`).
        if self.msg.take().is_some() {
            self.st.wipe();
        }
        self.st.restart(iv, None)?;
        self.msg = Some(decrypt);
        Ok(())
    }

    /// Whether a message is in progress.
    pub fn in_message(&self) -> bool {
        self.msg.is_some()
    }

    /// Absorbs more AAD (only before the first `update`).
    pub fn aad(&mut self, aad: &[u8]) -> Result<(), Error> {
        self.msg.ok_or(NO_MESSAGE)?;
        self.st.absorb_aad(aad)
    }

    /// Encrypts, or decrypts (UNVERIFIED), the next piece in place.
    pub fn update(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        let decrypt = self.msg.ok_or(NO_MESSAGE)?;
        self.st.process(buf, decrypt)
    }

    /// Ends an encryption and returns its 16-byte tag.
    pub fn tag(&mut self) -> Result<Tag, Error> {
        if self.msg.ok_or(NO_MESSAGE)? {
            return Err(Error::InvalidParameter(
                "tag() ends an encryption; use verify",
            ));
        }
        let t = self.end();
        Ok(Tag::truncate(t, 16))
    }

    /// Ends a decryption: checks `tag` (1 to 16 bytes, compared in constant time with
    /// that many leading bytes of the computed tag).
    pub fn verify(&mut self, tag: &[u8]) -> Result<(), Error> {
        if self.msg != Some(true) {
            return Err(Error::InvalidParameter(
                "verify() ends a decryption; use tag",
            ));
        }
        if tag.is_empty() || tag.len() > 16 {
            return Err(Error::InvalidTagLength {
                got: tag.len(),
                expected: "1 to 16",
            });
        }
        let mut t = self.end();
        let ok = Tag::truncate(t, tag.len()).ct_eq_slice(tag);
        t.zeroize();
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    /// The message's full tag; the message ends and its state is wiped.
    fn end(&mut self) -> [u8; 16] {
        let t = self.st.finish_tag();
        self.st.wipe();
        self.msg = None;
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AeadMode;

    fn msg(n: usize, seed: u8) -> alloc::vec::Vec<u8> {
        (0..n)
            .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
            .collect()
    }

    #[test]
    fn pieces_clone_and_short_tags_match_one_shot() {
        for (klen, ivlen) in [(16, 12), (24, 1), (32, 60)] {
            let gcm = AesGcm::new(&msg(klen, 1)).unwrap();
            let iv = msg(ivlen, 2);
            for (alen, plen) in [(0, 0), (13, 0), (0, 1), (17, 100), (40, 1000)] {
                let (aad, pt) = (msg(alen, 3), msg(plen, 4));
                let mut want = pt.clone();
                let tag = gcm.encrypt_in_place_detached(&iv, &aad, &mut want).unwrap();
                let mut s = GcmStream::new(gcm.clone());
                s.start(&iv, false).unwrap();
                let (a1, a2) = aad.split_at(alen / 3);
                s.aad(a1).unwrap();
                s.aad(a2).unwrap();
                let mut buf = pt.clone();
                let (b1, b2) = buf.split_at_mut(plen / 2 + plen % 7);
                s.update(b1).unwrap();
                // A copy made mid-message finishes the same message.
                let mut copy = s.clone();
                let mut b2c = b2.to_vec();
                s.update(b2).unwrap();
                copy.update(&mut b2c).unwrap();
                assert_eq!(buf, want);
                assert_eq!(&buf[buf.len() - b2c.len()..], &b2c[..]);
                assert_eq!(s.tag().unwrap().as_ref(), tag.as_ref());
                assert_eq!(copy.tag().unwrap().as_ref(), tag.as_ref());
                assert!(s.tag().is_err(), "the message ended");
                for n in [1usize, 4, 12, 16] {
                    let mut d = GcmStream::new(gcm.clone());
                    d.start(&iv, true).unwrap();
                    d.aad(&aad).unwrap();
                    let mut c = want.clone();
                    d.update(&mut c).unwrap();
                    assert_eq!(c, pt);
                    let mut bad = d.clone();
                    d.verify(&tag.as_ref()[..n]).unwrap();
                    let mut t = tag.as_ref()[..n].to_vec();
                    t[n - 1] ^= 1;
                    assert_eq!(bad.verify(&t), Err(Error::AuthenticationFailed));
                }
            }
        }
    }

    #[test]
    fn misuse_is_an_error() {
        let mut s = GcmStream::new(AesGcm::new(&[0u8; 16]).unwrap());
        assert!(s.aad(b"x").is_err());
        assert!(s.update(&mut [0u8; 3]).is_err());
        assert!(s.start(&[], false).is_err());
        s.start(&[0u8; 12], false).unwrap();
        s.update(&mut [0u8; 3]).unwrap();
        assert!(s.aad(b"late").is_err());
        assert!(s.verify(&[0u8; 16]).is_err());
        s.start(&[0u8; 12], true).unwrap();
        assert!(s.tag().is_err());
        assert!(s.verify(&[]).is_err());
        assert!(s.verify(&[0u8; 17]).is_err());
    }
}
