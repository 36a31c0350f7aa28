//! The one AEAD interface every gcmkit mode implements: in-place sealing and opening with a
//! detached tag, its tag length and its length limits. The allocating `encrypt`/`decrypt`
//! (ciphertext || tag) are written once here, on top of them, instead of once per mode.
//!
//! The trait is sealed: only gcmkit's modes implement it, so their contract (a failed
//! open zeroes the buffer; limits are checked before any work) holds for every
//! implementation. Generic code over gcmkit's modes (the test suites, the vector runner,
//! the Python binding) takes `impl AeadMode`.

use crate::error::Error;
use crate::tag::Tag;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

pub(crate) mod sealed {
    /// Only gcmkit's modes implement [`super::AeadMode`].
    pub trait Sealed {}
}

/// A gcmkit AEAD: AES-GCM, AES-GCM-SIV, GCM-SIV (2015), GCM-SIV+, GCM-64 and the table
/// strategies all implement it.
pub trait AeadMode: sealed::Sealed {
    /// Tag length in bytes.
    fn tag_len(&self) -> usize;

    /// Rejects AAD and message lengths over the mode's limits, before any work.
    fn check_lengths(&self, aad_len: usize, data_len: usize) -> Result<(), Error>;

    /// Encrypts `buf` in place and returns the tag. Allocates nothing.
    fn encrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<Tag, Error>;

    /// Decrypts `buf` in place if `tag` verifies; on any failure `buf` is zeroed.
    fn decrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error>;

    /// Encrypts `plaintext` into `out`, which must be `plaintext.len() + tag_len()` long
    /// (ciphertext then tag). Allocates nothing. Modes with out-of-place kernels (AES-GCM)
    /// read the plaintext and write `out` in one pass; the others copy, then work in place.
    fn encrypt_into(
        &self,
        nonce: &[u8],
        plaintext: &[u8],
        aad: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        let n = plaintext.len();
        let need = n.saturating_add(self.tag_len());
        if out.len() != need {
            return Err(Error::BufferSize {
                got: out.len(),
                expected: need,
            });
        }
        self.check_lengths(aad.len(), n)?;
        let (ct, tag_out) = out.split_at_mut(n);
        ct.copy_from_slice(plaintext);
        let tag = self.encrypt_in_place_detached(nonce, aad, ct)?;
        tag_out.copy_from_slice(tag.as_ref());
        Ok(())
    }

    /// Decrypts ciphertext || tag into `out` (`ciphertext.len() - tag_len()` long); on any
    /// failure `out` is zeroed.
    fn decrypt_into(
        &self,
        nonce: &[u8],
        ciphertext: &[u8],
        aad: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        let tag_len = self.tag_len();
        let n = ciphertext
            .len()
            .checked_sub(tag_len)
            .ok_or(Error::CiphertextTooShort {
                len: ciphertext.len(),
                min: tag_len,
            })?;
        if out.len() != n {
            return Err(Error::BufferSize {
                got: out.len(),
                expected: n,
            });
        }
        let (ct, tag) = ciphertext.split_at(n);
        out.copy_from_slice(ct);
        self.decrypt_in_place_detached(nonce, aad, out, tag)
    }

    /// Encrypts; returns ciphertext || tag (one allocation; lengths checked before it).
    #[cfg(feature = "alloc")]
    fn encrypt(&self, nonce: &[u8], plaintext: &[u8], aad: &[u8]) -> Result<Vec<u8>, Error> {
        self.check_lengths(aad.len(), plaintext.len())?;
        let mut out = Vec::with_capacity(plaintext.len().saturating_add(self.tag_len()));
        out.extend_from_slice(plaintext);
        let tag = self.encrypt_in_place_detached(nonce, aad, &mut out)?;
        out.extend_from_slice(tag.as_ref());
        Ok(out)
    }

    /// Decrypts ciphertext || tag; returns the plaintext only if the tag verifies.
    #[cfg(feature = "alloc")]
    fn decrypt(&self, nonce: &[u8], ciphertext: &[u8], aad: &[u8]) -> Result<Vec<u8>, Error> {
        let tag_len = self.tag_len();
        let n = ciphertext
            .len()
            .checked_sub(tag_len)
            .ok_or(Error::CiphertextTooShort {
                len: ciphertext.len(),
                min: tag_len,
            })?;
        self.check_lengths(aad.len(), n)?;
        let (ct, tag) = ciphertext.split_at(n);
        let mut out = ct.to_vec();
        self.decrypt_in_place_detached(nonce, aad, &mut out, tag)?;
        Ok(out)
    }
}

/// Implements [`AeadMode`] for a mode from its inherent in-place methods, and gives it the
/// inherent `encrypt`/`decrypt` (so callers need no trait import). `$tag_len` and `$check`
/// are closures over `&Self`.
macro_rules! aead_mode {
    ([$($gen:tt)*] $ty:ty, tag_len: $tag_len:expr, check: $check:expr, { $($extra:tt)* }) => {
        impl<$($gen)*> $crate::mode::sealed::Sealed for $ty {}

        impl<$($gen)*> $crate::mode::AeadMode for $ty {
            fn tag_len(&self) -> usize {
                let f: fn(&$ty) -> usize = $tag_len;
                f(self)
            }

            fn check_lengths(
                &self,
                aad_len: usize,
                data_len: usize,
            ) -> Result<(), $crate::Error> {
                let f: fn(&$ty, usize, usize) -> Result<(), $crate::Error> = $check;
                f(self, aad_len, data_len)
            }

            fn encrypt_in_place_detached(
                &self,
                nonce: &[u8],
                aad: &[u8],
                buf: &mut [u8],
            ) -> Result<$crate::Tag, $crate::Error> {
                <$ty>::encrypt_in_place_detached(self, nonce, aad, buf)
            }

            fn decrypt_in_place_detached(
                &self,
                nonce: &[u8],
                aad: &[u8],
                buf: &mut [u8],
                tag: &[u8],
            ) -> Result<(), $crate::Error> {
                <$ty>::decrypt_in_place_detached(self, nonce, aad, buf, tag)
            }

            $($extra)*
        }

        #[cfg(feature = "alloc")]
        impl<$($gen)*> $ty {
            /// Encrypts; returns ciphertext || tag.
            pub fn encrypt(
                &self,
                nonce: &[u8],
                plaintext: &[u8],
                aad: &[u8],
            ) -> Result<alloc::vec::Vec<u8>, $crate::Error> {
                <$ty as $crate::mode::AeadMode>::encrypt(self, nonce, plaintext, aad)
            }

            /// Decrypts ciphertext || tag; returns the plaintext only if the tag verifies.
            pub fn decrypt(
                &self,
                nonce: &[u8],
                ciphertext: &[u8],
                aad: &[u8],
            ) -> Result<alloc::vec::Vec<u8>, $crate::Error> {
                <$ty as $crate::mode::AeadMode>::decrypt(self, nonce, ciphertext, aad)
            }
        }
    };
    ([$($gen:tt)*] $ty:ty, tag_len: $tag_len:expr, check: $check:expr) => {
        $crate::mode::aead_mode!([$($gen)*] $ty, tag_len: $tag_len, check: $check, {});
    };
    // A mode with inherent out-of-place `encrypt_into`/`decrypt_into` (one-pass kernels).
    (out_of_place $ty:ty, tag_len: $tag_len:expr, check: $check:expr) => {
        $crate::mode::aead_mode!([] $ty, tag_len: $tag_len, check: $check, {
            fn encrypt_into(
                &self,
                nonce: &[u8],
                plaintext: &[u8],
                aad: &[u8],
                out: &mut [u8],
            ) -> Result<(), $crate::Error> {
                <$ty>::encrypt_into(self, nonce, plaintext, aad, out)
            }

            fn decrypt_into(
                &self,
                nonce: &[u8],
                ciphertext: &[u8],
                aad: &[u8],
                out: &mut [u8],
            ) -> Result<(), $crate::Error> {
                <$ty>::decrypt_into(self, nonce, ciphertext, aad, out)
            }
        });
    };
    ($ty:ty, tag_len: $tag_len:expr, check: $check:expr) => {
        $crate::mode::aead_mode!([] $ty, tag_len: $tag_len, check: $check);
    };
}
pub(crate) use aead_mode;
