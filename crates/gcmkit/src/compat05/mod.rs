//! Drop-in replacements for the previous generation, RustCrypto's `aes-gcm` 0.10 and
//! `aes-gcm-siv` 0.11 (`aead` 0.5, `generic_array`), at `gcmkit::compat05::aes_gcm` and
//! `gcmkit::compat05::aes_gcm_siv` (feature `aead05`). The same items and failed-decryption
//! contracts as each crate (see `gcmkit::compat`, which these share their core with).

pub mod aes_gcm;
pub mod aes_gcm_siv;

/// The `aes` 0.8 crate's block cipher types that name an AES key size.
pub trait AesKeySize: aead05::KeySizeUser + sealed::Sealed {}

impl<T: aead05::KeySizeUser + sealed::Sealed> AesKeySize for T {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for aes08::Aes128 {}
    impl Sealed for aes08::Aes192 {}
    impl Sealed for aes08::Aes256 {}
}
