//! The one AEAD interface every gcmkit mode implements. A mode supplies its [`Limits`]
//! (tag length, largest AAD and message) and two in-place operations, `seal` and `open`;
//! everything users call — `encrypt`/`decrypt` (ciphertext || tag), the in-place detached
//! forms and `encrypt_into`/`decrypt_into` — is written once here, on top of them, with
//! the length checks in one place.
//!
//! The trait is sealed: only gcmkit's modes implement it, so its contract holds for every
//! implementation: limits are checked before any work, and a failed decryption returns an
//! error and leaves the output buffer zeroed, on every error path.
//!
//! ```
//! use gcmkit::AeadMode;
//! let gcm = gcmkit::AesGcm::new(&[0x42u8; 16])?;
//! let ct = gcm.encrypt(&[0u8; 12], b"hello", b"header")?;
//! assert_eq!(gcm.decrypt(&[0u8; 12], &ct, b"header")?, b"hello");
//! # Ok::<(), gcmkit::Error>(())
//! ```

use crate::error::Error;
use crate::tag::Tag;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

pub(crate) mod sealed {
    /// Only gcmkit's modes implement [`super::AeadMode`].
    pub trait Sealed {}
    impl Sealed for crate::AesGcm {}
    impl Sealed for crate::AesGcmSiv {}
    impl Sealed for crate::GcmSiv2015 {}
    impl Sealed for crate::siv::plus::GcmSivPlus {}
    impl Sealed for crate::XAes256Gcm {}
    impl Sealed for crate::DndkGcm {}
    impl<C: crate::gcm64::BlockCipher64> Sealed for crate::gcm64::Gcm64<C> {}
    #[cfg(all(feature = "table-strategies", feature = "alloc"))]
    impl Sealed for crate::gcm::tables_mode::TableAesGcm {}
}

/// A mode's tag length and length limits (bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Tag length.
    pub tag_len: usize,
    /// Largest associated data.
    pub max_aad: u64,
    /// Largest plaintext.
    pub max_data: u64,
}

impl Limits {
    /// Rejects AAD and message lengths over the limits.
    pub fn check(&self, aad_len: usize, data_len: usize) -> Result<(), Error> {
        if data_len as u64 > self.max_data {
            return Err(Error::MessageTooLong {
                len: data_len as u64,
                max: self.max_data,
            });
        }
        if aad_len as u64 > self.max_aad {
            return Err(Error::AadTooLong {
                len: aad_len as u64,
                max: self.max_aad,
            });
        }
        Ok(())
    }

    /// `tag` must be exactly the tag length.
    fn check_tag(&self, tag: &[u8]) -> Result<(), Error> {
        if tag.len() == self.tag_len {
            Ok(())
        } else {
            Err(Error::InvalidTagLength {
                got: tag.len(),
                expected: "the key object's tag length",
            })
        }
    }

    /// The ciphertext part of ciphertext || tag.
    fn body_len(&self, ciphertext: &[u8]) -> Result<usize, Error> {
        ciphertext
            .len()
            .checked_sub(self.tag_len)
            .ok_or(Error::CiphertextTooShort {
                len: ciphertext.len(),
                min: self.tag_len,
            })
    }
}

/// The output buffer must have exactly `need` bytes.
fn check_buffer(out: &[u8], need: usize) -> Result<(), Error> {
    if out.len() == need {
        Ok(())
    } else {
        Err(Error::BufferSize {
            got: out.len(),
            expected: need,
        })
    }
}

/// A gcmkit AEAD: AES-GCM, AES-GCM-SIV, GCM-SIV (2015), GCM-SIV+, GCM-64 and the table
/// strategies all implement it. Bring it into scope (`use gcmkit::AeadMode;`) to call
/// `encrypt`, `decrypt` and the rest.
pub trait AeadMode: sealed::Sealed {
    /// Tag length and length limits.
    fn limits(&self) -> Limits;

    /// The mode's in-place encryption (limits already checked); returns the tag.
    #[doc(hidden)]
    fn seal(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Tag, Error>;

    /// The mode's in-place decryption (limits and tag length already checked); zeroes
    /// `buf` on failure.
    #[doc(hidden)]
    fn open(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> Result<(), Error>;

    /// `seal` from `src` into `dst` (equal lengths). Modes with one-pass out-of-place
    /// kernels (AES-GCM) override it; the default copies, then works in place.
    #[doc(hidden)]
    fn seal_copy(&self, iv: &[u8], aad: &[u8], src: &[u8], out: &mut [u8]) -> Result<Tag, Error> {
        out.copy_from_slice(src);
        self.seal(iv, aad, out)
    }

    /// `open` from `src` into `dst` (equal lengths); zeroes `dst` on failure.
    #[doc(hidden)]
    fn open_copy(
        &self,
        iv: &[u8],
        aad: &[u8],
        src: &[u8],
        out: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        out.copy_from_slice(src);
        self.open(iv, aad, out, tag)
    }

    /// Tag length in bytes.
    fn tag_len(&self) -> usize {
        self.limits().tag_len
    }

    /// Encrypts `buf` in place and returns the tag. Allocates nothing.
    fn encrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<Tag, Error> {
        self.limits().check(aad.len(), buf.len())?;
        self.seal(nonce, aad, buf)
    }

    /// Decrypts `buf` in place if `tag` verifies. On any failure (wrong tag, wrong tag
    /// length, bad nonce, over the limits) `buf` is zeroed.
    fn decrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let limits = self.limits();
        let r = limits
            .check(aad.len(), buf.len())
            .and_then(|()| limits.check_tag(tag))
            .and_then(|()| self.open(nonce, aad, buf, tag));
        if r.is_err() {
            // The caller sees this buffer, so a plain fill cannot be optimized away.
            buf.fill(0);
        }
        r
    }

    /// Encrypts `plaintext` into `out`, which must be `plaintext.len() + tag_len()` long
    /// (ciphertext then tag). Allocates nothing.
    fn encrypt_into(
        &self,
        nonce: &[u8],
        plaintext: &[u8],
        aad: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        let limits = self.limits();
        check_buffer(out, plaintext.len().saturating_add(limits.tag_len))?;
        limits.check(aad.len(), plaintext.len())?;
        let (ct, tag_out) = out.split_at_mut(plaintext.len());
        let tag = self.seal_copy(nonce, aad, plaintext, ct)?;
        tag_out.copy_from_slice(tag.as_ref());
        Ok(())
    }

    /// Decrypts ciphertext || tag into `out` (`ciphertext.len() - tag_len()` long). On a
    /// failed verification `out` is zeroed.
    fn decrypt_into(
        &self,
        nonce: &[u8],
        ciphertext: &[u8],
        aad: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        let limits = self.limits();
        let n = limits.body_len(ciphertext)?;
        check_buffer(out, n)?;
        let (ct, tag) = ciphertext.split_at(n);
        let r = limits
            .check(aad.len(), n)
            .and_then(|()| self.open_copy(nonce, aad, ct, out, tag));
        if r.is_err() {
            out.fill(0);
        }
        r
    }

    /// Encrypts; returns ciphertext || tag (one allocation, after the limits are checked).
    #[cfg(feature = "alloc")]
    fn encrypt(&self, nonce: &[u8], plaintext: &[u8], aad: &[u8]) -> Result<Vec<u8>, Error> {
        let limits = self.limits();
        limits.check(aad.len(), plaintext.len())?;
        let mut out = Vec::with_capacity(plaintext.len() + limits.tag_len);
        out.extend_from_slice(plaintext);
        let tag = self.seal(nonce, aad, &mut out)?;
        out.extend_from_slice(tag.as_ref());
        Ok(out)
    }

    /// Decrypts ciphertext || tag; returns the plaintext only if the tag verifies.
    #[cfg(feature = "alloc")]
    fn decrypt(&self, nonce: &[u8], ciphertext: &[u8], aad: &[u8]) -> Result<Vec<u8>, Error> {
        let limits = self.limits();
        let n = limits.body_len(ciphertext)?;
        limits.check(aad.len(), n)?;
        let (ct, tag) = ciphertext.split_at(n);
        let mut out = ct.to_vec();
        self.open(nonce, aad, &mut out, tag)?;
        Ok(out)
    }
}
