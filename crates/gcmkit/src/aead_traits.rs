//! RustCrypto `aead` traits for the fixed-size types, so that users of the `aes-gcm` and
//! `aes-gcm-siv` crates can switch by changing an import:
//! `use gcmkit::aead::{Aead, KeyInit}; let c = gcmkit::Aes256Gcm::new(&key);`

use crate::engine::Engine;
use crate::{AeadMode, AesGcm, AesGcmSiv};
use aead::array::Array;
use aead::consts::{U12, U16, U32};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, TagPosition};

macro_rules! fixed_aead {
    ($name:ident, $inner:ty, $keysize:ty, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Debug)]
        pub struct $name {
            inner: $inner,
        }

        impl KeySizeUser for $name {
            type KeySize = $keysize;
        }

        impl KeyInit for $name {
            fn new(key: &Key<Self>) -> Self {
                // The key length is fixed by the type and valid; engine selection only fails
                // if GCMKIT_ENGINE names an unavailable engine, in which case the portable
                // engine (always available) is used rather than panicking.
                let inner = <$inner>::new(key.as_slice())
                    .or_else(|_| <$inner>::with_engine(key.as_slice(), Engine::Portable));
                match inner {
                    Ok(inner) => $name { inner },
                    Err(_) => unreachable!("fixed-size key of a valid length"),
                }
            }
        }

        impl AeadCore for $name {
            type NonceSize = U12;
            type TagSize = U16;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        impl AeadInOut for $name {
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> aead::Result<aead::Tag<Self>> {
                let buf = buffer.into_out_with_copied_in();
                let tag = self
                    .inner
                    .encrypt_in_place_detached(nonce.as_slice(), associated_data, buf)
                    .map_err(|_| aead::Error)?;
                Array::try_from(tag.as_ref()).map_err(|_| aead::Error)
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &aead::Tag<Self>,
            ) -> aead::Result<()> {
                let buf = buffer.into_out_with_copied_in();
                self.inner
                    .decrypt_in_place_detached(
                        nonce.as_slice(),
                        associated_data,
                        buf,
                        tag.as_slice(),
                    )
                    .map_err(|_| aead::Error)
            }
        }
    };
}

fixed_aead!(
    Aes128Gcm,
    AesGcm,
    U16,
    "AES-128-GCM with 12-byte nonces and 16-byte tags (`aead` traits)."
);
fixed_aead!(
    Aes256Gcm,
    AesGcm,
    U32,
    "AES-256-GCM with 12-byte nonces and 16-byte tags (`aead` traits)."
);
fixed_aead!(
    Aes128GcmSiv,
    AesGcmSiv,
    U16,
    "AES-128-GCM-SIV (RFC 8452) with the `aead` traits."
);
fixed_aead!(
    Aes256GcmSiv,
    AesGcmSiv,
    U32,
    "AES-256-GCM-SIV (RFC 8452) with the `aead` traits."
);
