//! DNDK-GCM (draft-gueron-cfrg-dndkgcm-03): AES-256-GCM under a key derived from the root
//! key and the nonce's 15-byte head, with the nonce's 12-byte tail as the IV, and
//! optionally a 32-byte key commitment; the derivation is in `kdf::dndk`.

use super::{RootKey, Secret};
use crate::engine::{Data, Engine};
use crate::error::Error;
use crate::kdf::dndk::{inputs, outputs, MAX_NONCE, MIN_NONCE};
use crate::mode::{sealed::Core, Limits, OnFailure, Opening};
use crate::secret::wipe::wipe;
use crate::tag::Tag;
use subtle::ConstantTimeEq;

/// Length of the key commitment (bytes).
pub const COMMITMENT_LEN: usize = 32;

/// DNDK-GCM (Double Nonce Derive Key AES-GCM), draft-gueron-cfrg-dndkgcm-03: a 32-byte
/// root key and nonces of a fixed length LN (24 bytes unless [`Self::with_nonce_len`]
/// chooses 12 to 27), designed for random nonces. With [`Self::with_key_commitment`]
/// (the draft's KC_Choice = 1) the tag is the 16-byte GCM tag followed by the 32-byte key
/// commitment KC, so a ciphertext decrypts under one key only; decryption checks both.
///
/// ```
/// use gcmkit::AeadMode;
/// let dndk = gcmkit::DndkGcm::new(&[0x42; 32])?.with_key_commitment();
/// let nonce = [7u8; 24];
/// let ct = dndk.encrypt(&nonce, b"data", b"aad")?;
/// assert_eq!(ct.len(), 4 + 16 + 32); // ciphertext || GCM tag || key commitment
/// assert_eq!(dndk.decrypt(&nonce, &ct, b"aad")?, b"data");
/// # Ok::<(), gcmkit::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct DndkGcm {
    root: RootKey,
    nonce_len: usize,
    commit: bool,
}

impl DndkGcm {
    /// A key object (24-byte nonces, no key commitment) on the engine
    /// [`Engine::selected`] names.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_engine(key, Engine::selected()?)
    }

    /// A key object on a given engine (an error if the CPU lacks it).
    pub fn with_engine(key: &[u8], engine: Engine) -> Result<Self, Error> {
        Ok(DndkGcm {
            root: RootKey::new(key, engine)?,
            nonce_len: 24,
            commit: false,
        })
    }

    /// The same key with nonces of `len` bytes (12 to 27; the draft's LN). The length is
    /// bound into the derivation, so both sides must agree on it.
    pub fn with_nonce_len(mut self, len: usize) -> Result<Self, Error> {
        if !(MIN_NONCE..=MAX_NONCE).contains(&len) {
            return Err(Error::InvalidNonceLength {
                got: len,
                expected: "12 to 27",
            });
        }
        self.nonce_len = len;
        Ok(self)
    }

    /// The same key with key commitment (KC_Choice = 1): tags become 48 bytes, the GCM
    /// tag followed by the commitment.
    pub fn with_key_commitment(mut self) -> Self {
        self.commit = true;
        self
    }

    /// Whether tags carry the key commitment.
    pub fn commits_to_key(&self) -> bool {
        self.commit
    }

    /// The nonce length (LN) in bytes.
    pub fn nonce_len(&self) -> usize {
        self.nonce_len
    }

    /// The engine this key object runs on.
    pub fn engine(&self) -> Engine {
        self.root.engine.engine()
    }

    /// DK, KC (meaningful with commitment) and the GCM IV for a nonce.
    #[allow(clippy::type_complexity)]
    fn derive(&self, nonce: &[u8]) -> Result<(Secret<32>, Secret<32>, [u8; 12]), Error> {
        if nonce.len() != self.nonce_len {
            return Err(Error::InvalidNonceLength {
                got: nonce.len(),
                expected: "the key object's nonce length (24 unless set)",
            });
        }
        let (mut blocks, iv) = inputs(nonce, self.commit);
        let n = if self.commit { 5 } else { 3 };
        self.root.encrypt(&mut blocks[..n]);
        let (dk, kc) = outputs(&blocks);
        wipe(&mut blocks);
        Ok((Secret(dk), Secret(kc), iv))
    }

    fn tag(&self, gcm: [u8; 16], kc: &Secret<32>) -> Tag {
        if self.commit {
            Tag::with_commitment(gcm, &kc.0)
        } else {
            Tag::truncate(gcm, 16)
        }
    }
}

impl Core for DndkGcm {
    fn mode_limits(&self) -> Limits {
        super::limits(if self.commit { 16 + COMMITMENT_LEN } else { 16 })
    }

    fn seal_data(&self, nonce: &[u8], aad: &[u8], data: Data<'_>) -> Result<Tag, Error> {
        let (dk, kc, iv) = self.derive(nonce)?;
        Ok(self.tag(self.root.seal(&dk, &iv, aad, data)?, &kc))
    }

    fn open_data(&self, mut o: Opening<'_>) -> Result<(), Error> {
        let (dk, kc, iv) = self.derive(o.nonce)?;
        // `mode::open` checked the length; checked again so no call can split short.
        if o.tag.len() != self.mode_limits().tag_len {
            return Err(Error::InvalidTagLength {
                got: o.tag.len(),
                expected: "the key object's tag length",
            });
        }
        let (gcm_tag, received_kc) = o.tag.split_at(16);
        // The commitment is checked in constant time; its outcome is public.
        if self.commit && !crate::secret::ct::declassify(bool::from(received_kc.ct_eq(&kc.0[..]))) {
            if o.on_failure == OnFailure::Zero {
                o.data.dst().fill(0);
            }
            return Err(Error::AuthenticationFailed);
        }
        self.root.open(
            &dk,
            Opening {
                nonce: &iv,
                tag: gcm_tag,
                ..o
            },
        )
    }
}
