//! On-line AES-GCM (spec Table 2: "on-line"): encrypt and decrypt data that arrives in
//! pieces of any size, the total length unknown in advance. AAD first, then data, then
//! `finish`.
//!
//! The safe decryptor never hands out unverified plaintext: it appends plaintext to a
//! caller's `Vec` that it borrows mutably until `finish` (so nobody can read it before),
//! and wipes and truncates that output if the tag fails or if it is dropped unfinished.
//! [`crate::hazmat::UnverifiedGcmDecryptor`] streams plaintext out before verification,
//! for callers who can retract it.
//!
//! A fixed AAD prefix (protocol headers) can be absorbed once into an [`AadPrefix`] and
//! reused for every message (spec Table 2: "fixed parts of A can be processed in
//! advance"): GHASH over A does not depend on the IV.

use super::{AesGcm, MAX_AAD, MAX_PLAINTEXT};
use crate::engine::Counter;
use crate::error::Error;
use crate::tag::Tag;
use alloc::vec::Vec;
use core::borrow::Borrow;
use zeroize::Zeroize;

mod owned;
pub use owned::GcmStream;

/// The GHASH state after a fixed AAD prefix, reusable across messages and nonces.
///
/// ```
/// use gcmkit::{AeadMode, AesGcm};
/// let gcm = AesGcm::new(&[1u8; 16])?;
/// // A header shared by many messages is absorbed once.
/// let prefix = gcm.aad_prefix(b"protocol v1 | session 42 | ")?;
/// let nonce = [2u8; 12];
/// let mut enc = gcm.encryptor_with_prefix(&nonce, &prefix)?;
/// enc.aad(b"record 7")?;
/// let mut buf = *b"payload";
/// enc.update(&mut buf)?;
/// let tag = enc.finish();
/// let one_shot = gcm.encrypt(&nonce, b"payload", b"protocol v1 | session 42 | record 7")?;
/// assert_eq!(&one_shot[..7], &buf);
/// assert_eq!(&one_shot[7..], tag.as_ref());
/// # Ok::<(), gcmkit::Error>(())
/// ```
#[derive(Clone)]
pub struct AadPrefix {
    acc: u128,
    len: u64,
    pending: [u8; 16],
    pos: usize,
}

impl core::fmt::Debug for AadPrefix {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "AadPrefix({} bytes)", self.len)
    }
}

/// Shared state of an on-line computation, over a key object it borrows (`&AesGcm`: the
/// encryptors and decryptors here) or owns (`AesGcm`: [`GcmStream`], which restarts the
/// same state with each IV).
#[derive(Clone)]
struct Stream<K: Borrow<AesGcm>> {
    gcm: K,
    tag_len: usize,
    y0: [u8; 16],
    ctr: [u8; 16],
    acc: u128,
    aad_len: u64,
    data_len: u64,
    in_data: bool,
    /// The current partial block (AAD, then ciphertext) not yet hashed.
    pending: [u8; 16],
    pos: usize,
    /// Keystream of the current partial data block, and whether one is in progress.
    ks: [u8; 16],
    partial: bool,
}

impl<K: Borrow<AesGcm>> Drop for Stream<K> {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl<K: Borrow<AesGcm>> Stream<K> {
    fn new(gcm: K, nonce: &[u8], prefix: Option<&AadPrefix>) -> Result<Self, Error> {
        let mut s = Self::idle(gcm);
        s.tag_len = s.gcm.borrow().tag_len;
        s.restart(nonce, prefix)?;
        Ok(s)
    }

    /// A state with no message (`restart` begins one); tags of 16 bytes.
    fn idle(gcm: K) -> Self {
        Stream {
            gcm,
            tag_len: 16,
            y0: [0; 16],
            ctr: [0; 16],
            acc: 0,
            aad_len: 0,
            data_len: 0,
            in_data: false,
            pending: [0; 16],
            pos: 0,
            ks: [0; 16],
            partial: false,
        }
    }

    /// Begins a message under `nonce` (after an AAD prefix, if any). The state must hold
    /// no other message's secrets (`idle`, or `wipe`d after one), so every field is set
    /// here without wiping first; on an invalid nonce nothing changes.
    fn restart(&mut self, nonce: &[u8], prefix: Option<&AadPrefix>) -> Result<(), Error> {
        let y0 = self.gcm.borrow().key.y0(nonce)?;
        self.y0 = y0;
        self.ctr = Counter::Be32.add(&y0, 1);
        (self.acc, self.aad_len, self.data_len, self.in_data) = (0, 0, 0, false);
        (self.pos, self.partial) = (0, false);
        if let Some(p) = prefix {
            (self.acc, self.aad_len, self.pending, self.pos) = (p.acc, p.len, p.pending, p.pos);
        }
        Ok(())
    }

    /// Forgets the message's secrets: the keystream, the pending bytes, the hash state.
    fn wipe(&mut self) {
        self.ks.zeroize();
        self.pending.zeroize();
        self.acc.zeroize();
    }

    fn absorb_aad(&mut self, mut a: &[u8]) -> Result<(), Error> {
        if self.in_data {
            return Err(Error::InvalidParameter("AAD must come before the data"));
        }
        let total = self.aad_len.saturating_add(a.len() as u64);
        if total > MAX_AAD {
            return Err(Error::AadTooLong {
                len: total,
                max: MAX_AAD,
            });
        }
        self.aad_len = total;
        if self.pos > 0 {
            let n = (16 - self.pos).min(a.len());
            self.pending[self.pos..self.pos + n].copy_from_slice(&a[..n]);
            self.pos += n;
            a = &a[n..];
            if self.pos == 16 {
                hash(&self.gcm, &mut self.acc, &self.pending);
                self.pos = 0;
            }
        }
        let full = a.len() / 16 * 16;
        hash(&self.gcm, &mut self.acc, &a[..full]);
        let rest = &a[full..];
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pos += rest.len();
        Ok(())
    }

    /// Ends the AAD: its partial block is hashed zero-padded.
    fn start_data(&mut self) {
        if !self.in_data {
            if self.pos > 0 {
                hash(&self.gcm, &mut self.acc, &self.pending[..self.pos]);
                self.pos = 0;
            }
            self.in_data = true;
        }
    }

    /// Encrypts (or decrypts) `data` in place, hashing the ciphertext.
    fn process(&mut self, data: &mut [u8], decrypt: bool) -> Result<(), Error> {
        let total = self.data_len.saturating_add(data.len() as u64);
        if total > MAX_PLAINTEXT {
            return Err(Error::MessageTooLong {
                len: total,
                max: MAX_PLAINTEXT,
            });
        }
        self.start_data();
        self.data_len = total;
        // 1. Finish a partial block left by the previous call.
        let mut i = self.consume(data, 0, decrypt);
        // 2. Whole blocks through the engine's stitched kernel.
        let full = (data.len() - i) / 16 * 16;
        if full > 0 {
            let k = &self.gcm.borrow().key;
            let run = &mut data[i..i + full];
            // GCM hashes the ciphertext: the input when decrypting, the output otherwise.
            let run = crate::engine::Data::InPlace(run);
            if decrypt {
                k.engine
                    .gcm_update_open(&k.aes, &k.h, &mut self.ctr, &mut self.acc, run);
            } else {
                k.engine
                    .gcm_update_seal(&k.aes, &k.h, &mut self.ctr, &mut self.acc, run);
            }
            i += full;
        }
        // 3. Start a new partial block with what is left (fewer than 16 bytes).
        if i < data.len() {
            let mut b = [self.ctr];
            let k = &self.gcm.borrow().key;
            k.engine.encrypt_blocks(&k.aes, &mut b);
            self.ks = b[0];
            b[0].zeroize();
            self.ctr = Counter::Be32.add(&self.ctr, 1);
            self.partial = true;
            self.consume(data, i, decrypt);
        }
        Ok(())
    }

    /// Runs the active partial keystream block over `data[i..]` until the block or the data
    /// ends; returns the index reached.
    fn consume(&mut self, data: &mut [u8], mut i: usize, decrypt: bool) -> usize {
        while self.partial && i < data.len() {
            let input = data[i];
            let out = input ^ self.ks[self.pos];
            self.pending[self.pos] = if decrypt { input } else { out };
            data[i] = out;
            self.pos += 1;
            i += 1;
            if self.pos == 16 {
                hash(&self.gcm, &mut self.acc, &self.pending);
                self.pos = 0;
                self.partial = false;
            }
        }
        i
    }

    /// Checks a received tag: its length first (a shorter one would compare only a
    /// prefix), then its value in constant time.
    fn verify(&mut self, tag: &[u8]) -> Result<(), Error> {
        if tag.len() != self.tag_len {
            return Err(Error::InvalidTagLength {
                got: tag.len(),
                expected: "the key object's tag length",
            });
        }
        if Tag::truncate(self.finish_tag(), self.tag_len).ct_eq_slice(tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    fn finish_tag(&mut self) -> [u8; 16] {
        self.start_data();
        if self.pos > 0 {
            hash(&self.gcm, &mut self.acc, &self.pending[..self.pos]);
            self.pos = 0;
        }
        self.gcm.borrow().key.finish(
            &self.y0,
            self.acc,
            self.aad_len as usize,
            self.data_len as usize,
        )
    }
}

/// Absorbs `data` (a final partial block zero-padded) into `acc` under `gcm`'s hash key.
fn hash(gcm: &impl Borrow<AesGcm>, acc: &mut u128, data: &[u8]) {
    let k = &gcm.borrow().key;
    k.engine.hash_update(&k.h, acc, data);
}

/// On-line AES-GCM encryption: `aad` (any number of pieces), then `update` (in place, any
/// piece sizes), then `finish` for the tag.
///
/// ```
/// use gcmkit::{AeadMode, AesGcm};
/// let gcm = AesGcm::new(&[1u8; 16])?;
/// let nonce = [2u8; 12];
/// let mut enc = gcm.encryptor(&nonce)?;
/// enc.aad(b"hdr")?;
/// let mut data = *b"a message that arrives in pieces";
/// for piece in data.chunks_mut(7) {
///     enc.update(piece)?; // in place, any piece sizes
/// }
/// let tag = enc.finish();
/// let one_shot = gcm.encrypt(&nonce, b"a message that arrives in pieces", b"hdr")?;
/// assert_eq!([&data[..], tag.as_ref()].concat(), one_shot);
/// # Ok::<(), gcmkit::Error>(())
/// ```
pub struct GcmEncryptor<'k> {
    st: Stream<&'k AesGcm>,
}

impl GcmEncryptor<'_> {
    /// Absorbs more AAD (only before the first `update`).
    pub fn aad(&mut self, aad: &[u8]) -> Result<(), Error> {
        self.st.absorb_aad(aad)
    }

    /// Encrypts the next piece of plaintext in place.
    pub fn update(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.st.process(buf, false)
    }

    /// The tag (of the key object's tag length).
    pub fn finish(mut self) -> Tag {
        let t = self.st.finish_tag();
        Tag::truncate(t, self.st.tag_len)
    }
}

/// On-line AES-GCM decryption that releases nothing unverified: the plaintext stays in the
/// decryptor's own buffer (zeroized on drop) and reaches the caller's `out` only in
/// `finish`, after the tag verified. So `out` never holds unverified plaintext, whatever
/// happens to the decryptor: a failed tag, a drop without `finish`, or `mem::forget` (which
/// leaks the decryptor's buffer, unreachable from safe code, instead of leaving plaintext in
/// `out`).
///
/// ```
/// use gcmkit::{AeadMode, AesGcm, Error};
/// let gcm = AesGcm::new(&[1u8; 16])?;
/// let nonce = [2u8; 12];
/// let ct = gcm.encrypt(&nonce, b"streamed plaintext", b"")?;
/// let (body, tag) = ct.split_at(ct.len() - 16);
///
/// let mut out = Vec::new();
/// let mut dec = gcm.decryptor(&nonce, &mut out)?;
/// for piece in body.chunks(5) {
///     dec.update(piece)?;
/// }
/// dec.finish(tag)?; // only now does `out` receive the plaintext
/// assert_eq!(out, b"streamed plaintext");
///
/// // A wrong tag: `out` never sees a byte of the unverified plaintext.
/// let mut out = Vec::new();
/// let mut dec = gcm.decryptor(&nonce, &mut out)?;
/// dec.update(body)?;
/// let mut bad = tag.to_vec();
/// bad[0] ^= 1;
/// assert_eq!(dec.finish(&bad), Err(Error::AuthenticationFailed));
/// assert!(out.is_empty());
/// # Ok::<(), Error>(())
/// ```
pub struct GcmDecryptor<'k, 'o> {
    st: Stream<&'k AesGcm>,
    out: &'o mut Vec<u8>,
    plain: zeroize::Zeroizing<Vec<u8>>,
}

impl GcmDecryptor<'_, '_> {
    /// Absorbs more AAD (only before the first `update`).
    pub fn aad(&mut self, aad: &[u8]) -> Result<(), Error> {
        self.st.absorb_aad(aad)
    }

    /// Decrypts the next piece of ciphertext (kept inside until `finish`).
    pub fn update(&mut self, ciphertext: &[u8]) -> Result<(), Error> {
        let at = self.plain.len();
        self.plain.extend_from_slice(ciphertext);
        self.st.process(&mut self.plain[at..], true)
    }

    /// Verifies the tag; on success the plaintext is appended to `out` (moved, not
    /// copied, when `out` was empty); on failure `out` is as it was.
    pub fn finish(mut self, tag: &[u8]) -> Result<(), Error> {
        self.st.verify(tag)?;
        if self.out.is_empty() {
            core::mem::swap(self.out, &mut *self.plain);
        } else {
            self.out.extend_from_slice(&self.plain);
        }
        Ok(())
    }
}

/// On-line decryption that hands out plaintext *before* the tag is checked (hazmat): the
/// caller must discard everything if `finish` fails.
///
/// ```
/// use gcmkit::{AeadMode, AesGcm, Error};
/// let gcm = AesGcm::new(&[1u8; 16])?;
/// let nonce = [2u8; 12];
/// let ct = gcm.encrypt(&nonce, b"large stream", b"")?;
/// let (body, tag) = ct.split_at(ct.len() - 16);
///
/// let mut buf = body.to_vec();
/// let mut dec = gcm.unverified_decryptor(&nonce)?;
/// dec.update(&mut buf)?; // UNVERIFIED plaintext from here on
/// dec.finish(tag)?; // now it may be used
/// assert_eq!(buf, b"large stream");
///
/// let mut buf = body.to_vec();
/// let mut dec = gcm.unverified_decryptor(&nonce)?;
/// dec.update(&mut buf)?;
/// if dec.finish(&[0u8; 16]).is_err() {
///     buf.iter_mut().for_each(|b| *b = 0); // the caller's duty: discard it all
/// }
/// assert_eq!(buf, [0u8; 12]);
/// # Ok::<(), Error>(())
/// ```
pub struct UnverifiedGcmDecryptor<'k> {
    st: Stream<&'k AesGcm>,
}

impl UnverifiedGcmDecryptor<'_> {
    /// Absorbs more AAD (only before the first `update`).
    pub fn aad(&mut self, aad: &[u8]) -> Result<(), Error> {
        self.st.absorb_aad(aad)
    }

    /// Decrypts the next piece in place: UNVERIFIED plaintext.
    pub fn update(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.st.process(buf, true)
    }

    /// Checks the tag over everything decrypted.
    pub fn finish(mut self, tag: &[u8]) -> Result<(), Error> {
        self.st.verify(tag)
    }
}

impl AesGcm {
    /// Starts on-line encryption under `nonce`.
    pub fn encryptor(&self, nonce: &[u8]) -> Result<GcmEncryptor<'_>, Error> {
        Ok(GcmEncryptor {
            st: Stream::new(self, nonce, None)?,
        })
    }

    /// Starts on-line encryption with a precomputed AAD prefix (more AAD may follow).
    pub fn encryptor_with_prefix(
        &self,
        nonce: &[u8],
        prefix: &AadPrefix,
    ) -> Result<GcmEncryptor<'_>, Error> {
        Ok(GcmEncryptor {
            st: Stream::new(self, nonce, Some(prefix))?,
        })
    }

    /// Starts on-line decryption whose verified plaintext is appended to `out` by `finish`.
    pub fn decryptor<'o>(
        &self,
        nonce: &[u8],
        out: &'o mut Vec<u8>,
    ) -> Result<GcmDecryptor<'_, 'o>, Error> {
        Ok(GcmDecryptor {
            st: Stream::new(self, nonce, None)?,
            out,
            plain: zeroize::Zeroizing::new(Vec::new()),
        })
    }

    /// On-line decryption with a precomputed AAD prefix.
    pub fn decryptor_with_prefix<'o>(
        &self,
        nonce: &[u8],
        prefix: &AadPrefix,
        out: &'o mut Vec<u8>,
    ) -> Result<GcmDecryptor<'_, 'o>, Error> {
        Ok(GcmDecryptor {
            st: Stream::new(self, nonce, Some(prefix))?,
            out,
            plain: zeroize::Zeroizing::new(Vec::new()),
        })
    }

    /// On-line decryption releasing unverified plaintext (see [`UnverifiedGcmDecryptor`]).
    pub fn unverified_decryptor(&self, nonce: &[u8]) -> Result<UnverifiedGcmDecryptor<'_>, Error> {
        Ok(UnverifiedGcmDecryptor {
            st: Stream::new(self, nonce, None)?,
        })
    }

    /// Absorbs a fixed AAD prefix once, for reuse with any nonce.
    pub fn aad_prefix(&self, prefix: &[u8]) -> Result<AadPrefix, Error> {
        // The prefix state does not depend on the nonce; any valid one builds it.
        let mut st = Stream::new(self, &[0u8; 12], None)?;
        st.absorb_aad(prefix)?;
        Ok(AadPrefix {
            acc: st.acc,
            len: st.aad_len,
            pending: st.pending,
            pos: st.pos,
        })
    }
}
