//! `aes-gcm-siv` 0.12 (aead 0.6), on gcmkit: replace `aes_gcm_siv::` by
//! `gcmkit::compat::aes_gcm_siv::` in `use` lines. Failed decryption leaves the ciphertext
//! in the buffer, as `aes-gcm-siv` does.
//!
//! ```
//! use gcmkit::compat::aes_gcm_siv::{
//!     aead::{Aead, KeyInit},
//!     Aes256GcmSiv, Key, Nonce,
//! };
//! let cipher = Aes256GcmSiv::new(&Key::<Aes256GcmSiv>::from([1u8; 32]));
//! let nonce = Nonce::from([2u8; 12]);
//! let ct = cipher.encrypt(&nonce, b"plaintext message".as_ref()).unwrap();
//! assert_eq!(cipher.decrypt(&nonce, ct.as_ref()).unwrap(), b"plaintext message");
//! ```

pub use aead::{self, AeadCore, AeadInOut, Error, Key, KeyInit, KeySizeUser};
pub use aes;

use super::{on_selected_engine, AesKeySize};
use aead::array::Array;
use aead::consts::{U12, U16};
use aead::inout::InOutBuf;
use aead::TagPosition;
use core::fmt;
use core::marker::PhantomData;

/// Maximum length of associated data.
pub const A_MAX: u64 = 1 << 36;

/// Maximum length of plaintext.
pub const P_MAX: u64 = 1 << 36;

/// Maximum length of ciphertext.
pub const C_MAX: u64 = (1 << 36) + 16;

/// AES-GCM-SIV nonces.
pub type Nonce = Array<u8, U12>;

/// AES-GCM-SIV tags.
pub type Tag = Array<u8, U16>;

/// AES-GCM-SIV with a 128-bit key.
pub type Aes128GcmSiv = AesGcmSiv<aes::Aes128>;

/// AES-GCM-SIV with a 256-bit key.
pub type Aes256GcmSiv = AesGcmSiv<aes::Aes256>;

/// AES-GCM-SIV (RFC 8452), generic over the key size (`aes::Aes128`, `aes::Aes192` as
/// OpenSSL defines it, `aes::Aes256`).
///
/// ```
/// use gcmkit::compat::aes_gcm_siv::aead::{AeadInOut, KeyInit};
/// use gcmkit::compat::aes_gcm_siv::{aes::Aes128, AesGcmSiv, Nonce};
/// let cipher = AesGcmSiv::<Aes128>::new(&[1u8; 16].into()); // = Aes128GcmSiv
/// let nonce = Nonce::from([2u8; 12]);
/// let mut buf = *b"misuse-resistant";
/// let tag = cipher.encrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into()).unwrap();
/// let ciphertext = buf;
///
/// // As in `aes-gcm-siv`, a failed decryption puts the ciphertext back in the buffer.
/// let mut bad_tag = tag;
/// bad_tag[15] ^= 1;
/// let r = cipher.decrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into(), &bad_tag);
/// assert!(r.is_err());
/// assert_eq!(buf, ciphertext);
/// cipher.decrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into(), &tag).unwrap();
/// assert_eq!(&buf, b"misuse-resistant");
/// ```
pub struct AesGcmSiv<Aes> {
    /// The key object, or the error of a bad `GCMKIT_ENGINE` (see `on_selected_engine`).
    pub(crate) inner: Result<crate::AesGcmSiv, crate::Error>,
    pub(crate) types: PhantomData<fn() -> Aes>,
}

impl<Aes> Clone for AesGcmSiv<Aes> {
    fn clone(&self) -> Self {
        AesGcmSiv {
            inner: self.inner.clone(),
            types: PhantomData,
        }
    }
}

impl<Aes: AesKeySize> KeySizeUser for AesGcmSiv<Aes> {
    type KeySize = Aes::KeySize;
}

impl<Aes: AesKeySize> KeyInit for AesGcmSiv<Aes> {
    fn new(key: &Key<Self>) -> Self {
        Self::from_key(key.as_slice())
    }
}

impl<Aes> AesGcmSiv<Aes> {
    /// The key object for both `aead` generations' `KeyInit`.
    pub(crate) fn from_key(key: &[u8]) -> Self {
        AesGcmSiv {
            inner: on_selected_engine(|e| crate::AesGcmSiv::with_engine(key, e)),
            types: PhantomData,
        }
    }
}

impl<Aes> AeadCore for AesGcmSiv<Aes> {
    type NonceSize = U12;
    type TagSize = U16;
    const TAG_POSITION: TagPosition = TagPosition::Postfix;
}

impl<Aes: AesKeySize> AeadInOut for AesGcmSiv<Aes> {
    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> Result<Tag, Error> {
        let inner = self.inner.as_ref().map_err(|_| Error)?;
        super::encrypt_inout(inner, nonce.as_slice(), associated_data, buffer)
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag,
    ) -> Result<(), Error> {
        // `aes-gcm-siv` puts the ciphertext back in the output.
        let buf = buffer.into_out_with_copied_in();
        let inner = self.inner.as_ref().map_err(|_| Error)?;
        let (nonce, tag) = (nonce.as_slice(), tag.as_slice());
        super::decrypt_restoring(inner, nonce, associated_data, buf, tag).map_err(|_| Error)
    }
}

impl<Aes> fmt::Debug for AesGcmSiv<Aes> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AesGcmSiv").finish_non_exhaustive()
    }
}

/// The key material is gcmkit's, which zeroizes itself on drop.
impl<Aes> zeroize::ZeroizeOnDrop for AesGcmSiv<Aes> {}
