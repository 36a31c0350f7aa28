//! `aes-gcm` 0.10 (aead 0.5), on gcmkit: replace `aes_gcm::` by
//! `gcmkit::compat05::aes_gcm::` in `use` lines. Failed decryption leaves the buffer as it
//! was, as `aes-gcm` does.
//!
//! ```
//! use gcmkit::compat05::aes_gcm::{
//!     aead::{Aead, KeyInit},
//!     Aes256Gcm, Key, Nonce,
//! };
//! let key = Key::<Aes256Gcm>::from_slice(&[0x42u8; 32]);
//! let cipher = Aes256Gcm::new(key);
//! let nonce = Nonce::from_slice(&[7u8; 12]);
//! let ct = cipher.encrypt(nonce, b"plaintext message".as_ref()).unwrap();
//! assert_eq!(cipher.decrypt(nonce, ct.as_ref()).unwrap(), b"plaintext message");
//! ```

pub use aead05::{self as aead, AeadCore, AeadInPlace, Error, Key, KeyInit, KeySizeUser};
pub use aes08 as aes;

use super::AesKeySize;
use aead05::consts::{U0, U12, U16};
use aead05::generic_array::{ArrayLength, GenericArray};

/// Maximum length of associated data.
pub const A_MAX: u64 = 1 << 36;

/// Maximum length of plaintext.
pub const P_MAX: u64 = 1 << 36;

/// Maximum length of ciphertext.
pub const C_MAX: u64 = (1 << 36) + 16;

/// AES-GCM nonces.
pub type Nonce<NonceSize> = GenericArray<u8, NonceSize>;

/// AES-GCM tags.
pub type Tag<TagSize = U16> = GenericArray<u8, TagSize>;

/// Valid tag sizes: `U12` to `U16` (and `U4`, `U8`; SP 800-38D Appendix C limits them).
/// The same trait (and the same `AesGcm` type) as `gcmkit::compat::aes_gcm`: `typenum`'s
/// sizes serve both `aead` generations.
pub use crate::compat::aes_gcm::{AesGcm, TagSize};

/// AES-GCM with a 128-bit key and 96-bit nonce.
pub type Aes128Gcm = AesGcm<aes08::Aes128, U12>;

/// AES-GCM with a 256-bit key and 96-bit nonce.
pub type Aes256Gcm = AesGcm<aes08::Aes256, U12>;

impl<Aes: AesKeySize, NonceSize, TagSize: self::TagSize> KeySizeUser
    for AesGcm<Aes, NonceSize, TagSize>
{
    type KeySize = Aes::KeySize;
}

impl<Aes: AesKeySize, NonceSize, TagSize: self::TagSize> KeyInit
    for AesGcm<Aes, NonceSize, TagSize>
{
    fn new(key: &Key<Self>) -> Self {
        Self::from_key(key.as_slice(), TagSize::USIZE)
    }
}

impl<Aes, NonceSize, TagSize> AeadCore for AesGcm<Aes, NonceSize, TagSize>
where
    NonceSize: ArrayLength<u8>,
    TagSize: self::TagSize + ArrayLength<u8>,
{
    type NonceSize = NonceSize;
    type TagSize = TagSize;
    type CiphertextOverhead = U0;
}

impl<Aes, NonceSize, TagSize> AeadInPlace for AesGcm<Aes, NonceSize, TagSize>
where
    Aes: AesKeySize,
    NonceSize: ArrayLength<u8>,
    TagSize: self::TagSize + ArrayLength<u8>,
{
    fn encrypt_in_place_detached(
        &self,
        nonce: &Nonce<NonceSize>,
        associated_data: &[u8],
        buffer: &mut [u8],
    ) -> Result<Tag<TagSize>, Error> {
        if buffer.len() as u64 > P_MAX || associated_data.len() as u64 > A_MAX {
            return Err(Error);
        }
        let inner = self.inner.as_ref().map_err(|_| Error)?;
        let tag = crate::compat::encrypt_in_place(inner, nonce, associated_data, buffer)?;
        Ok(Tag::clone_from_slice(tag.as_ref()))
    }

    fn decrypt_in_place_detached(
        &self,
        nonce: &Nonce<NonceSize>,
        associated_data: &[u8],
        buffer: &mut [u8],
        tag: &Tag<TagSize>,
    ) -> Result<(), Error> {
        if buffer.len() as u64 > C_MAX || associated_data.len() as u64 > A_MAX {
            return Err(Error);
        }
        // `aes-gcm`, in place: the ciphertext is back.
        let (nonce, tag) = (nonce.as_slice(), tag.as_slice());
        let inner = self.inner.as_ref().map_err(|_| Error)?;
        crate::compat::decrypt_restoring(inner, nonce, associated_data, buffer, tag)
            .map_err(|_| Error)
    }
}
