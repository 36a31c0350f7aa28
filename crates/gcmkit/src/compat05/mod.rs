//! Drop-in replacements for the previous generation, RustCrypto's `aes-gcm` 0.10 and
//! `aes-gcm-siv` 0.11 (`aead` 0.5, `generic_array`), at `gcmkit::compat05::aes_gcm` and
//! `gcmkit::compat05::aes_gcm_siv` (feature `aead05`). The same items and failed-decryption
//! contracts as each crate (see `gcmkit::compat`, which these share their core with).

pub mod aes_gcm;
pub mod aes_gcm_siv;

crate::compat::aes_key_size! {
    /// The `aes` 0.8 crate's block cipher types that name an AES key size.
    ///
    /// ```
    /// use gcmkit::compat05::aes_gcm::aead::{consts::U12, Aead, KeyInit};
    /// use gcmkit::compat05::aes_gcm::{aes, AesGcm, Key, Nonce};
    /// use gcmkit::compat05::AesKeySize;
    ///
    /// // Generic over the key size, as code written for `aes-gcm` 0.10 is.
    /// fn seal<A: AesKeySize>(key: &Key<AesGcm<A, U12>>, msg: &[u8]) -> Vec<u8> {
    ///     AesGcm::<A, U12>::new(key).encrypt(Nonce::from_slice(&[0u8; 12]), msg).unwrap()
    /// }
    /// let k128 = Key::<AesGcm<aes::Aes128, U12>>::from_slice(&[1u8; 16]);
    /// let k256 = Key::<AesGcm<aes::Aes256, U12>>::from_slice(&[1u8; 32]);
    /// assert_eq!(seal::<aes::Aes128>(k128, b"m").len(), 17);
    /// assert_eq!(seal::<aes::Aes256>(k256, b"m").len(), 17);
    /// ```
    pub trait AesKeySize: aead05::KeySizeUser, sealed to aes08;
}
