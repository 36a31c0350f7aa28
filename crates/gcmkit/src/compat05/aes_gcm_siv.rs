//! `aes-gcm-siv` 0.11 (aead 0.5), on gcmkit: replace `aes_gcm_siv::` by
//! `gcmkit::compat05::aes_gcm_siv::` in `use` lines. Failed decryption leaves the
//! ciphertext in the buffer, as `aes-gcm-siv` does.
//!
//! ```
//! use gcmkit::compat05::aes_gcm_siv::{
//!     aead::{Aead, KeyInit},
//!     Aes256GcmSiv, Key, Nonce,
//! };
//! let cipher = Aes256GcmSiv::new(Key::<Aes256GcmSiv>::from_slice(&[1u8; 32]));
//! let nonce = Nonce::from_slice(&[2u8; 12]);
//! let ct = cipher.encrypt(nonce, b"plaintext message".as_ref()).unwrap();
//! assert_eq!(cipher.decrypt(nonce, ct.as_ref()).unwrap(), b"plaintext message");
//! ```

pub use aead05::{self as aead, AeadCore, AeadInPlace, Error, Key, KeyInit, KeySizeUser};
pub use aes08 as aes;

use super::AesKeySize;
use aead05::consts::{U0, U12, U16};
use aead05::generic_array::GenericArray;

/// The limits: `aes-gcm-siv` 0.11 and 0.12 have the same.
pub use crate::compat::aes_gcm_siv::{A_MAX, C_MAX, P_MAX};

/// AES-GCM-SIV nonces.
pub type Nonce = GenericArray<u8, U12>;

/// AES-GCM-SIV tags.
pub type Tag = GenericArray<u8, U16>;

/// AES-GCM-SIV with a 128-bit key.
pub type Aes128GcmSiv = AesGcmSiv<aes08::Aes128>;

/// AES-GCM-SIV with a 256-bit key.
pub type Aes256GcmSiv = AesGcmSiv<aes08::Aes256>;

/// The same type as `gcmkit::compat::aes_gcm_siv::AesGcmSiv`, with the `aead` 0.5 traits
/// for the `aes` 0.8 crate's key-size types.
pub use crate::compat::aes_gcm_siv::AesGcmSiv;

impl<Aes: AesKeySize> KeySizeUser for AesGcmSiv<Aes> {
    type KeySize = Aes::KeySize;
}

impl<Aes: AesKeySize> KeyInit for AesGcmSiv<Aes> {
    fn new(key: &Key<Self>) -> Self {
        Self::from_key(key.as_slice())
    }
}

impl<Aes> AeadCore for AesGcmSiv<Aes> {
    type NonceSize = U12;
    type TagSize = U16;
    type CiphertextOverhead = U0;
}

impl<Aes: AesKeySize> AeadInPlace for AesGcmSiv<Aes> {
    fn encrypt_in_place_detached(
        &self,
        nonce: &Nonce,
        associated_data: &[u8],
        buffer: &mut [u8],
    ) -> Result<Tag, Error> {
        let inner = self.inner.as_ref().map_err(|_| Error)?;
        let tag = crate::compat::encrypt_in_place(inner, nonce, associated_data, buffer)?;
        Ok(Tag::clone_from_slice(tag.as_ref()))
    }

    fn decrypt_in_place_detached(
        &self,
        nonce: &Nonce,
        associated_data: &[u8],
        buffer: &mut [u8],
        tag: &Tag,
    ) -> Result<(), Error> {
        // `aes-gcm-siv`, in place: the ciphertext is back.
        let (nonce, tag) = (nonce.as_slice(), tag.as_slice());
        let inner = self.inner.as_ref().map_err(|_| Error)?;
        crate::compat::decrypt_restoring(inner, nonce, associated_data, buffer, tag)
            .map_err(|_| Error)
    }
}
