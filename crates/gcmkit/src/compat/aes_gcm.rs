//! `aes-gcm` 0.11 (aead 0.6), on gcmkit: replace `aes_gcm::` by
//! `gcmkit::compat::aes_gcm::` in `use` lines. Failed decryption leaves the buffer as it
//! was, as `aes-gcm` does.
//!
//! ```
//! use gcmkit::compat::aes_gcm::{
//!     aead::{Aead, AeadCore, KeyInit},
//!     Aes256Gcm, Key, Nonce,
//! };
//! let key = Key::<Aes256Gcm>::from([0x42u8; 32]);
//! let cipher = Aes256Gcm::new(&key);
//! let nonce = Nonce::from([7u8; 12]);
//! let ct = cipher.encrypt(&nonce, b"plaintext message".as_ref()).unwrap();
//! assert_eq!(cipher.decrypt(&nonce, ct.as_ref()).unwrap(), b"plaintext message");
//! ```

pub use aead::{self, AeadCore, AeadInOut, Error, Key, KeyInit, KeySizeUser};
pub use aes;

use super::{on_selected_engine, AesKeySize};
use aead::array::{Array, ArraySize};
use aead::consts::{U12, U16};
use aead::inout::InOutBuf;
use aead::TagPosition;
use core::fmt;
use core::marker::PhantomData;

/// Maximum length of associated data in bytes.
pub const A_MAX: u64 = (1 << 61) - 1;

/// Maximum length of plaintext in bytes.
pub const P_MAX: u64 = (1 << 36) - 32;

/// AES-GCM nonces.
pub type Nonce<NonceSize> = Array<u8, NonceSize>;

/// AES-GCM tags.
pub type Tag<TagSize = U16> = Array<u8, TagSize>;

/// Valid tag sizes: `U12` to `U16`, and `U4`, `U8` (which `aes-gcm` offers under its
/// `hazmat` feature; SP 800-38D Appendix C limits what they protect).
///
/// ```
/// use gcmkit::compat::aes_gcm::aead::{consts::U12, AeadInOut, KeyInit};
/// use gcmkit::compat::aes_gcm::{aes::Aes128, AesGcm};
/// // AES-128-GCM with 12-byte tags: the third parameter is the tag size.
/// type Aes128Gcm12 = AesGcm<Aes128, U12, U12>;
/// let cipher = Aes128Gcm12::new(&[1u8; 16].into());
/// let nonce = [2u8; 12].into();
/// let mut buf = *b"short tags";
/// let tag = cipher.encrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into()).unwrap();
/// assert_eq!(tag.len(), 12);
/// cipher.decrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into(), &tag).unwrap();
/// assert_eq!(&buf, b"short tags");
/// ```
pub trait TagSize: private::SealedTagSize {}

impl<T: private::SealedTagSize> TagSize for T {}

mod private {
    use aead::array::typenum::Unsigned;
    use aead::array::ArraySize;
    use aead::consts;

    pub trait SealedTagSize: ArraySize + Unsigned {}
    macro_rules! tag_sizes {
        ($($n:ident),*) => { $(impl SealedTagSize for consts::$n {})* };
    }
    tag_sizes!(U4, U8, U12, U13, U14, U15, U16);
}

/// AES-GCM with a 128-bit key and 96-bit nonce.
pub type Aes128Gcm = AesGcm<aes::Aes128, U12>;

/// AES-GCM with a 256-bit key and 96-bit nonce.
pub type Aes256Gcm = AesGcm<aes::Aes256, U12>;

/// The type parameters, held without owning values of them (so the key object is
/// `Send`/`Sync` whatever they are).
type Params<A, N, T> = fn() -> (A, N, T);

/// AES-GCM, generic over the key size (`aes::Aes128`, `aes::Aes192`, `aes::Aes256`), the
/// nonce size (any, as SP 800-38D allows; `U12` is the fast path) and the tag size.
///
/// ```
/// use gcmkit::compat::aes_gcm::aead::{consts::U12, AeadInOut, KeyInit};
/// use gcmkit::compat::aes_gcm::{aes::Aes256, AesGcm, Key, Nonce};
/// type Cipher = AesGcm<Aes256, U12>; // = Aes256Gcm
/// let cipher = Cipher::new(&Key::<Cipher>::from([0x42u8; 32]));
/// let nonce = Nonce::<U12>::from([7u8; 12]);
/// let mut buf = *b"in place";
/// let tag = cipher.encrypt_inout_detached(&nonce, b"aad", buf.as_mut_slice().into()).unwrap();
/// let ciphertext = buf;
///
/// // As in `aes-gcm`, a failed decryption leaves the buffer as it was: the ciphertext.
/// let mut bad_tag = tag;
/// bad_tag[0] ^= 1;
/// let r = cipher.decrypt_inout_detached(&nonce, b"aad", buf.as_mut_slice().into(), &bad_tag);
/// assert!(r.is_err());
/// assert_eq!(buf, ciphertext);
/// cipher.decrypt_inout_detached(&nonce, b"aad", buf.as_mut_slice().into(), &tag).unwrap();
/// assert_eq!(&buf, b"in place");
/// ```
pub struct AesGcm<Aes, NonceSize, TagSize = U16>
where
    TagSize: self::TagSize,
{
    /// The key object, or the error of a bad `GCMKIT_ENGINE` (see `on_selected_engine`).
    pub(crate) inner: Result<crate::AesGcm, crate::Error>,
    pub(crate) types: PhantomData<Params<Aes, NonceSize, TagSize>>,
}

impl<Aes, NonceSize, TagSize: self::TagSize> Clone for AesGcm<Aes, NonceSize, TagSize> {
    fn clone(&self) -> Self {
        AesGcm {
            inner: self.inner.clone(),
            types: PhantomData,
        }
    }
}

impl<Aes, NonceSize, TagSize> KeySizeUser for AesGcm<Aes, NonceSize, TagSize>
where
    Aes: AesKeySize,
    TagSize: self::TagSize,
{
    type KeySize = Aes::KeySize;
}

impl<Aes, NonceSize, TagSize> KeyInit for AesGcm<Aes, NonceSize, TagSize>
where
    Aes: AesKeySize,
    TagSize: self::TagSize,
{
    fn new(key: &Key<Self>) -> Self {
        Self::from_key(key.as_slice(), TagSize::USIZE)
    }
}

impl<Aes, NonceSize, TagSize: self::TagSize> AesGcm<Aes, NonceSize, TagSize> {
    /// The key object for both `aead` generations' `KeyInit` (the key's length is fixed by
    /// its type there, so only a bad `GCMKIT_ENGINE` can fail it: see `on_selected_engine`).
    pub(crate) fn from_key(key: &[u8], tag_len: usize) -> Self {
        AesGcm {
            inner: on_selected_engine(|e| {
                crate::AesGcm::with_engine(key, e)?.with_tag_len(tag_len)
            }),
            types: PhantomData,
        }
    }
}

impl<Aes, NonceSize, TagSize> AeadCore for AesGcm<Aes, NonceSize, TagSize>
where
    NonceSize: ArraySize,
    TagSize: self::TagSize,
{
    type NonceSize = NonceSize;
    type TagSize = TagSize;
    const TAG_POSITION: TagPosition = TagPosition::Postfix;
}

impl<Aes, NonceSize, TagSize> AeadInOut for AesGcm<Aes, NonceSize, TagSize>
where
    Aes: AesKeySize,
    NonceSize: ArraySize,
    TagSize: self::TagSize,
{
    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce<NonceSize>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> Result<Tag<TagSize>, Error> {
        let inner = self.inner.as_ref().map_err(|_| Error)?;
        super::encrypt_inout(inner, nonce.as_slice(), associated_data, buffer)
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce<NonceSize>,
        associated_data: &[u8],
        mut buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag<TagSize>,
    ) -> Result<(), Error> {
        // `aes-gcm` leaves the buffer as it was: in place the ciphertext is restored; into
        // a separate output the tag is checked first and the output written only if it
        // verified.
        let inner = self.inner.as_ref().map_err(|_| Error)?;
        let in_place = buffer.get_in().as_ptr() == buffer.get_out().as_ptr();
        let (nonce, tag) = (nonce.as_slice(), tag.as_slice());
        let r = if in_place {
            let buf = buffer.into_out();
            super::decrypt_restoring(inner, nonce, associated_data, buf, tag)
        } else {
            inner.open_inout_verified_first(nonce, associated_data, buffer, tag)
        };
        r.map_err(|_| Error)
    }
}

impl<Aes, NonceSize, TagSize: self::TagSize> fmt::Debug for AesGcm<Aes, NonceSize, TagSize> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AesGcm").finish_non_exhaustive()
    }
}

/// The key material is gcmkit's, which zeroizes itself on drop.
impl<Aes, NonceSize, TagSize: self::TagSize> zeroize::ZeroizeOnDrop
    for AesGcm<Aes, NonceSize, TagSize>
{
}
