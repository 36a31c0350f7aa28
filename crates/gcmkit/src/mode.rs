//! The one AEAD interface every gcmkit mode implements. A mode supplies its [`Limits`]
//! (tag length, largest AAD and message) and two crate-private entry points, `seal_data`
//! and `open_data` (trait `sealed::Core`, which no code outside gcmkit can name or
//! implement); everything users call — `encrypt`/`decrypt` (ciphertext || tag), the
//! in-place detached forms and `encrypt_into`/`decrypt_into` — is written once here, on
//! top of them, with the checks in one place: [`open`] checks the tag length first, then
//! the limits, and only then lets a mode run.
//!
//! The trait is sealed: only gcmkit's modes implement it, so its contract holds for every
//! implementation: limits and the tag length are checked before any work, and a failed
//! decryption returns an error and leaves the output buffer zeroed, on every error path.
//!
//! ```
//! use gcmkit::AeadMode;
//! let gcm = gcmkit::AesGcm::new(&[0x42u8; 16])?;
//! let ct = gcm.encrypt(&[0u8; 12], b"hello", b"header")?;
//! assert_eq!(gcm.decrypt(&[0u8; 12], &ct, b"header")?, b"hello");
//! # Ok::<(), gcmkit::Error>(())
//! ```
//!
//! The modes' own entry points (`seal_data`, `open_data`: they skip the limit and
//! tag-length checks) cannot be called from outside the crate. On a mode they are not in
//! scope: the trait that provides them is private (E0599). Through a generic bound their
//! names resolve, as a supertrait's methods always do, but their arguments cannot be made: `Data` and `Opening` live in crate-private
//! modules (E0603). Each `compile_fail` example below differs from the compiling one
//! beside it only in what it calls, so it fails for that reason alone:
//!
//! ```
//! use gcmkit::AeadMode;
//! let gcm = gcmkit::AesGcm::new(&[0x42u8; 16]).unwrap();
//! let mut buf = *b"plaintext";
//! let _tag = gcm.encrypt_in_place_detached(&[0u8; 12], b"", &mut buf);
//! fn seal<M: gcmkit::AeadMode>(m: &M, buf: &mut [u8]) {
//!     let _ = m.encrypt_in_place_detached(&[0u8; 12], b"", buf);
//! }
//! ```
//!
//! ```compile_fail,E0599
//! use gcmkit::AeadMode;
//! let gcm = gcmkit::AesGcm::new(&[0x42u8; 16]).unwrap();
//! let mut buf = *b"plaintext";
//! let _tag = gcm.seal_data(&[0u8; 12], b"", todo!());
//! ```
//!
//! ```compile_fail,E0603
//! fn seal<M: gcmkit::AeadMode>(m: &M, buf: &mut [u8]) {
//!     let _ = m.seal_data(&[0u8; 12], b"", gcmkit::engine::Data::InPlace(buf));
//! }
//! ```
//!
//! ```compile_fail,E0603
//! // The sealed core is not nameable either: `mode` is a private module.
//! use gcmkit::mode::sealed::Core;
//! ```

use crate::engine::Data;
use crate::error::Error;
use crate::tag::Tag;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// What a failed decryption leaves in the destination. (`pub` in name only, as the type
/// of a parameter of the sealed core: this module is private, so nothing outside gcmkit
/// can name it.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFailure {
    /// Zeros: gcmkit's own contract (no unverified plaintext, no ciphertext either).
    Zero,
    /// What was there before: in place, the ciphertext again (the RustCrypto crates'
    /// contracts, for `compat`). Modes that verify before decrypting leave a separate
    /// destination unwritten; modes that decrypt first (the SIV family) copy the source
    /// in and put the ciphertext back.
    #[cfg_attr(not(feature = "compat"), allow(dead_code))] // only the facades ask for it
    Restore,
}

/// One decryption as a mode's `open_data` receives it (checks done). (`pub` in name only,
/// as [`OnFailure`].)
pub struct Opening<'a> {
    /// The nonce (for the derived-key modes' inner GCM: its 96-bit IV).
    pub(crate) nonce: &'a [u8],
    pub(crate) aad: &'a [u8],
    /// The ciphertext, in place or with its destination.
    pub(crate) data: Data<'a>,
    /// The received tag, of the mode's tag length.
    pub(crate) tag: &'a [u8],
    pub(crate) on_failure: OnFailure,
}

pub(crate) mod sealed {
    use super::{Limits, Opening};
    use crate::engine::Data;
    use crate::error::Error;
    use crate::tag::Tag;

    /// The per-mode entry points. Public in name only (a supertrait of [`super::AeadMode`]
    /// must be), in a module no code outside gcmkit can reach, with a crate-private data
    /// type in every signature: outside the crate these methods can be neither named nor
    /// called, nor the trait implemented. Callers inside go through [`super::open`] and
    /// [`super::seal`], which do the checks first.
    pub trait Core {
        /// Tag length and length limits.
        fn mode_limits(&self) -> Limits;

        /// Encrypts in place or from a source (limits already checked); returns the tag.
        fn seal_data(&self, nonce: &[u8], aad: &[u8], data: Data<'_>) -> Result<Tag, Error>;

        /// Decrypts in place or from a source (tag length and limits already checked);
        /// on failure leaves the destination as `o.on_failure` says.
        fn open_data(&self, o: Opening<'_>) -> Result<(), Error>;
    }

    /// Only gcmkit's modes implement [`super::AeadMode`].
    impl<T: Core> super::AeadMode for T {}
}

/// Encrypts with every check first (the limits); the one way in to a mode's `seal_data`.
#[inline]
pub(crate) fn seal<M: sealed::Core + ?Sized>(
    mode: &M,
    nonce: &[u8],
    aad: &[u8],
    mut data: Data<'_>,
) -> Result<Tag, Error> {
    mode.mode_limits().check(aad.len(), data.dst().len())?;
    mode.seal_data(nonce, aad, data)
}

/// The checks before any decryption: the tag length first, then the limits.
#[inline]
pub(crate) fn check_open<M: sealed::Core + ?Sized>(
    mode: &M,
    aad_len: usize,
    data_len: usize,
    tag: &[u8],
) -> Result<(), Error> {
    let limits = mode.mode_limits();
    limits.check_tag(tag)?;
    limits.check(aad_len, data_len)
}

/// Decrypts with every check first: the tag must be exactly the mode's tag length (a
/// shorter one would compare only a prefix), then the limits; the one way in to a mode's
/// `open_data`. On any failure the destination is as `on_failure` says (for `Zero`,
/// zeroed here whatever the mode did).
#[inline]
pub(crate) fn open<M: sealed::Core + ?Sized>(
    mode: &M,
    nonce: &[u8],
    aad: &[u8],
    mut data: Data<'_>,
    tag: &[u8],
    on_failure: OnFailure,
) -> Result<(), Error> {
    let r = check_open(mode, aad.len(), data.dst().len(), tag).and_then(|()| {
        let data = data.reborrow();
        mode.open_data(Opening {
            nonce,
            aad,
            data,
            tag,
            on_failure,
        })
    });
    if r.is_err() && on_failure == OnFailure::Zero {
        // The caller sees this buffer, so a plain fill cannot be optimized away.
        data.dst().fill(0);
    }
    r
}

/// A mode's tag length and length limits (bytes).
///
/// ```
/// use gcmkit::{AeadMode, AesGcm, Error};
/// let gcm = AesGcm::new(&[0u8; 16])?.with_tag_len(12)?;
/// let limits = gcm.limits();
/// assert_eq!(limits.tag_len, 12);
/// assert_eq!(limits.max_data, gcmkit::limits::GCM_MAX_PLAINTEXT);
/// limits.check(64, 1500)?; // 64 bytes of AAD, a 1500-byte message: fine
/// if let Ok(too_long) = usize::try_from(limits.max_data + 1) {
///     assert!(matches!(limits.check(0, too_long), Err(Error::MessageTooLong { .. })));
/// }
/// # Ok::<(), Error>(())
/// ```
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
    #[inline]
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
    #[inline]
    pub(crate) fn check_tag(&self, tag: &[u8]) -> Result<(), Error> {
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
    #[inline]
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
#[inline]
pub(crate) fn check_buffer(out: &[u8], need: usize) -> Result<(), Error> {
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
///
/// ```
/// use gcmkit::{AeadMode, AesGcm, AesGcmSiv, Error};
///
/// // Code written against the trait works with every mode.
/// fn round_trip(mode: &impl AeadMode) -> Result<(), Error> {
///     let nonce = [9u8; 12];
///     // Allocation-free: ciphertext || tag into a caller's buffer.
///     let mut sealed = [0u8; 5 + 16];
///     let sealed = &mut sealed[..5 + mode.tag_len()];
///     mode.encrypt_into(&nonce, b"hello", b"aad", sealed)?;
///     let mut opened = [0u8; 5];
///     mode.decrypt_into(&nonce, sealed, b"aad", &mut opened)?;
///     assert_eq!(&opened, b"hello");
///
///     // A flipped bit fails, and the output is zeroed.
///     sealed[0] ^= 1;
///     let r = mode.decrypt_into(&nonce, sealed, b"aad", &mut opened);
///     assert_eq!(r, Err(Error::AuthenticationFailed));
///     assert_eq!(opened, [0u8; 5]);
///     Ok(())
/// }
/// round_trip(&AesGcm::new(&[1u8; 16])?)?;
/// round_trip(&AesGcm::new(&[1u8; 32])?.with_tag_len(12)?)?;
/// round_trip(&AesGcmSiv::new(&[1u8; 32])?)?;
/// # Ok::<(), Error>(())
/// ```
pub trait AeadMode: sealed::Core {
    /// Tag length and length limits.
    fn limits(&self) -> Limits {
        self.mode_limits()
    }

    /// Tag length in bytes.
    fn tag_len(&self) -> usize {
        self.mode_limits().tag_len
    }

    /// Encrypts `buf` in place and returns the tag. Allocates nothing.
    fn encrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<Tag, Error> {
        seal(self, nonce, aad, Data::InPlace(buf))
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
        open(self, nonce, aad, Data::InPlace(buf), tag, OnFailure::Zero)
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
        check_buffer(out, plaintext.len().saturating_add(self.tag_len()))?;
        let (ct, tag_out) = out.split_at_mut(plaintext.len());
        let tag = seal(self, nonce, aad, Data::Copy(plaintext, ct))?;
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
        let n = self.mode_limits().body_len(ciphertext)?;
        check_buffer(out, n)?;
        let (ct, tag) = ciphertext.split_at(n);
        open(self, nonce, aad, Data::Copy(ct, out), tag, OnFailure::Zero)
    }

    /// Encrypts; returns ciphertext || tag (one allocation, after the limits are checked).
    #[cfg(feature = "alloc")]
    fn encrypt(&self, nonce: &[u8], plaintext: &[u8], aad: &[u8]) -> Result<Vec<u8>, Error> {
        let limits = self.mode_limits();
        limits.check(aad.len(), plaintext.len())?;
        let mut out = Vec::with_capacity(plaintext.len() + limits.tag_len);
        out.extend_from_slice(plaintext);
        let tag = self.seal_data(nonce, aad, Data::InPlace(&mut out))?;
        out.extend_from_slice(tag.as_ref());
        Ok(out)
    }

    /// Decrypts ciphertext || tag; returns the plaintext only if the tag verifies.
    #[cfg(feature = "alloc")]
    fn decrypt(&self, nonce: &[u8], ciphertext: &[u8], aad: &[u8]) -> Result<Vec<u8>, Error> {
        let limits = self.mode_limits();
        let n = limits.body_len(ciphertext)?;
        limits.check(aad.len(), n)?;
        let (ct, tag) = ciphertext.split_at(n);
        let mut out = ct.to_vec();
        open(
            self,
            nonce,
            aad,
            Data::InPlace(&mut out),
            tag,
            OnFailure::Zero,
        )?;
        Ok(out)
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;

    /// The failure policy, for every mode: `Zero` zeroes the destination, `Restore` leaves
    /// the ciphertext in place; a wrong-length tag is refused before any work under both.
    #[test]
    fn failure_policy_for_every_mode() {
        let modes: [(&str, alloc::boxed::Box<dyn AeadMode>, usize); 6] = [
            (
                "AesGcm",
                alloc::boxed::Box::new(crate::AesGcm::new(&[1; 16]).unwrap()),
                12,
            ),
            (
                "AesGcmSiv",
                alloc::boxed::Box::new(crate::AesGcmSiv::new(&[1; 32]).unwrap()),
                12,
            ),
            (
                "GcmSiv2015",
                alloc::boxed::Box::new(crate::GcmSiv2015::two_key(&[1; 16], &[2; 16]).unwrap()),
                12,
            ),
            (
                "GcmSivPlus",
                alloc::boxed::Box::new(
                    crate::siv::plus::GcmSivPlus::new(&[1; 16], &[2; 16]).unwrap(),
                ),
                12,
            ),
            (
                "XAes256Gcm",
                alloc::boxed::Box::new(crate::XAes256Gcm::new(&[1; 32]).unwrap()),
                24,
            ),
            (
                "DndkGcm",
                alloc::boxed::Box::new(
                    crate::DndkGcm::new(&[1; 32]).unwrap().with_key_commitment(),
                ),
                24,
            ),
        ];
        for (name, m, nonce_len) in modes {
            let nonce = [7u8; 24];
            let nonce = &nonce[..nonce_len];
            for len in [0usize, 5, 64, 300, 2000] {
                let pt: Vec<u8> = (0..len).map(|i| i as u8).collect();
                let mut ct = pt.clone();
                let tag = m.encrypt_in_place_detached(nonce, b"ad", &mut ct).unwrap();
                let mut bad = tag.as_ref().to_vec();
                bad[0] ^= 1;
                for (t, what) in [(&bad[..], "wrong tag"), (&tag.as_ref()[..4], "short tag")] {
                    let mut buf = ct.clone();
                    let data = Data::InPlace(&mut buf);
                    assert!(open(&*m, nonce, b"ad", data, t, OnFailure::Restore).is_err());
                    assert_eq!(buf, ct, "{name} {len} {what}: restored");
                    let data = Data::InPlace(&mut buf);
                    assert!(open(&*m, nonce, b"ad", data, t, OnFailure::Zero).is_err());
                    assert!(buf.iter().all(|&b| b == 0), "{name} {len} {what}: zeroed");
                }
                let mut buf = ct.clone();
                let data = Data::InPlace(&mut buf);
                open(&*m, nonce, b"ad", data, tag.as_ref(), OnFailure::Restore).unwrap();
                assert_eq!(buf, pt, "{name} {len}: opens");
            }
        }
    }
}
