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

use super::{new_or_portable, AesKeySize};
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
pub struct AesGcm<Aes, NonceSize, TagSize = U16>
where
    TagSize: self::TagSize,
{
    pub(crate) inner: crate::AesGcm,
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
    /// its type there, so construction cannot fail; see `new_or_portable`).
    pub(crate) fn from_key(key: &[u8], tag_len: usize) -> Self {
        AesGcm {
            inner: new_or_portable(|e| crate::AesGcm::with_engine(key, e)?.with_tag_len(tag_len)),
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
        super::encrypt_inout(&self.inner, nonce.as_slice(), associated_data, buffer)
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
        let in_place = buffer.get_in().as_ptr() == buffer.get_out().as_ptr();
        let (nonce, tag) = (nonce.as_slice(), tag.as_slice());
        let r = if in_place {
            let buf = buffer.into_out();
            super::decrypt_restoring(&self.inner, nonce, associated_data, buf, tag)
        } else {
            self.inner
                .open_inout_verified_first(nonce, associated_data, buffer, tag)
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
