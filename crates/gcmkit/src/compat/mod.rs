//! Drop-in replacements for RustCrypto's `aes-gcm` 0.11 and `aes-gcm-siv` 0.12 (the
//! `aead` 0.6 generation), at `gcmkit::compat::aes_gcm` and `gcmkit::compat::aes_gcm_siv`:
//! the same public items (types, aliases, constants, trait re-exports) and the same
//! failed-decryption buffer contract as each crate, running on gcmkit's engines. Users
//! switch by changing the crate path in their `use` lines (README, "Migrating").
//!
//! The `Aes` type parameter takes the `aes` crate's `Aes128`, `Aes192` and `Aes256` (as
//! users write `AesGcm<aes::Aes128, U12>`); they serve only as names for the key size:
//! gcmkit's own key schedule and engines do the work.
//!
//! gcmkit's own API zeroes the buffer on every failed decryption; these modules instead
//! keep each crate's contract, because code written for the crates relies on it (trying
//! a new key, then the old one, on one buffer):
//! - `aes_gcm`: the buffer is left as it was (in place: the stitched one-pass kernel runs
//!   and, on a tag mismatch, the keystream is applied again; into a separate output: the
//!   tag is checked first and the output written only if it verified);
//! - `aes_gcm_siv`: the buffer holds the ciphertext again.

pub mod aes_gcm;
pub mod aes_gcm_siv;

/// `AesKeySize` for one `aead` generation: a `KeySizeUser` sealed to one `aes` crate's
/// three cipher types (`compat` and `compat05` each declare theirs).
macro_rules! aes_key_size {
    ($(#[$doc:meta])* pub trait $name:ident: $key_size_user:path, sealed to $aes:ident;) => {
        $(#[$doc])*
        pub trait $name: $key_size_user + sealed::Sealed {}

        impl<T: $key_size_user + sealed::Sealed> $name for T {}

        mod sealed {
            pub trait Sealed {}
            impl Sealed for $aes::Aes128 {}
            impl Sealed for $aes::Aes192 {}
            impl Sealed for $aes::Aes256 {}
        }
    };
}
#[cfg(feature = "aead05")]
pub(crate) use aes_key_size;

aes_key_size! {
    /// The `aes` crate's block cipher types that name an AES key size.
    ///
    /// ```
    /// use gcmkit::compat::aes_gcm::aead::{consts::U12, Aead, KeyInit};
    /// use gcmkit::compat::aes_gcm::{aes, AesGcm, Key};
    /// use gcmkit::compat::AesKeySize;
    ///
    /// // Generic over the key size, as code written for `aes-gcm` is.
    /// fn seal<A: AesKeySize>(key: &Key<AesGcm<A, U12>>, msg: &[u8]) -> Vec<u8> {
    ///     AesGcm::<A, U12>::new(key).encrypt(&[0u8; 12].into(), msg).unwrap()
    /// }
    /// assert_eq!(seal::<aes::Aes128>(&[1u8; 16].into(), b"m").len(), 17);
    /// assert_eq!(seal::<aes::Aes192>(&[1u8; 24].into(), b"m").len(), 17);
    /// assert_eq!(seal::<aes::Aes256>(&[1u8; 32].into(), b"m").len(), 17);
    /// ```
    pub trait AesKeySize: aead::KeySizeUser, sealed to aes;
}

/// Encryption for `AeadInOut::encrypt_inout_detached`: the input copied to the output,
/// encrypted there; the tag as the crate's array type.
pub(crate) fn encrypt_inout<T: for<'a> TryFrom<&'a [u8]>>(
    mode: &impl crate::AeadMode,
    nonce: &[u8],
    aad: &[u8],
    buffer: aead::inout::InOutBuf<'_, '_, u8>,
) -> Result<T, aead::Error> {
    let buf = buffer.into_out_with_copied_in();
    let tag = mode
        .encrypt_in_place_detached(nonce, aad, buf)
        .map_err(|_| aead::Error)?;
    T::try_from(tag.as_ref()).map_err(|_| aead::Error)
}

/// In-place encryption for the `aead` 0.5 generation's `AeadInPlace`: the tag as bytes
/// for its `GenericArray`.
#[cfg(feature = "aead05")]
pub(crate) fn encrypt_in_place(
    mode: &impl crate::AeadMode,
    nonce: &[u8],
    aad: &[u8],
    buf: &mut [u8],
) -> Result<crate::Tag, aead05::Error> {
    mode.encrypt_in_place_detached(nonce, aad, buf)
        .map_err(|_| aead05::Error)
}

/// In-place decryption with the RustCrypto crates' failure contract: the buffer holds the
/// ciphertext again (every check of `mode::open` first).
pub(crate) fn decrypt_restoring(
    mode: &impl crate::mode::sealed::Core,
    nonce: &[u8],
    aad: &[u8],
    buf: &mut [u8],
    tag: &[u8],
) -> Result<(), crate::Error> {
    let data = crate::engine::Data::InPlace(buf);
    crate::mode::open(mode, nonce, aad, data, tag, crate::mode::OnFailure::Restore)
}

/// A key object on the engine [`crate::Engine::selected`] gives, or its error: a bad
/// `GCMKIT_ENGINE` (unknown, another architecture's, or one this CPU lacks). `KeyInit::new`
/// cannot fail, so the facade keeps the error and every operation of the object fails,
/// as every native `new` fails: never a silent fallback to another engine.
pub(crate) fn on_selected_engine<T>(
    build: impl FnOnce(crate::Engine) -> Result<T, crate::Error>,
) -> Result<T, crate::Error> {
    crate::Engine::selected().and_then(build)
}
