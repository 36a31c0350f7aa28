//! XAES-256-GCM (c2sp.org/XAES-256-GCM v1.0): AES-256-GCM under Kx = KDF(K, N[..12]) with
//! the IV N[12..]; the KDF is in `kdf::xaes`.

use super::{RootKey, Secret};
use crate::engine::{Data, Engine};
use crate::error::Error;
use crate::kdf::xaes::{cmac_k1, prf_inputs};
use crate::mode::{sealed::Core, Limits, Opening};
use crate::secret::wipe::wipe;
use crate::tag::Tag;
use zeroize::Zeroizing;

/// Nonce length of XAES-256-GCM (bytes).
pub const NONCE_LEN: usize = 24;

/// XAES-256-GCM: a 32-byte key and 24-byte nonces that may be chosen at random for a
/// virtually unlimited number of messages (2^80 with collision risk 2^-32). Each message
/// runs AES-256-GCM under a key derived from the first half of the nonce; like AES-GCM it
/// is neither nonce-misuse resistant nor key committing (see [`crate::DndkGcm`] for
/// commitment). Tags are 16 bytes.
///
/// ```
/// use gcmkit::AeadMode;
/// let xaes = gcmkit::XAes256Gcm::new(&[0x01; 32])?;
/// let nonce = *b"ABCDEFGHIJKLMNOPQRSTUVWX";
/// let ct = xaes.encrypt(&nonce, b"XAES-256-GCM", b"")?;
/// assert_eq!(ct[..4], [0xce, 0x54, 0x6e, 0xf6]); // the c2sp.org vector
/// assert_eq!(xaes.decrypt(&nonce, &ct, b"")?, b"XAES-256-GCM");
/// # Ok::<(), gcmkit::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct XAes256Gcm {
    root: RootKey,
    /// CMAC's subkey K1 (secret: it is derived from the key).
    k1: Zeroizing<[u8; 16]>,
}

impl XAes256Gcm {
    /// A key object on the engine [`Engine::selected`] names.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_engine(key, Engine::selected()?)
    }

    /// A key object on a given engine (an error if the CPU lacks it).
    pub fn with_engine(key: &[u8], engine: Engine) -> Result<Self, Error> {
        let root = RootKey::new(key, engine)?;
        let mut l = Zeroizing::new([[0u8; 16]]);
        root.encrypt(&mut l[..]);
        let k1 = Zeroizing::new(cmac_k1(&l[0]));
        Ok(XAes256Gcm { root, k1 })
    }

    /// The engine this key object runs on.
    pub fn engine(&self) -> Engine {
        self.root.engine.engine()
    }

    /// Kx and Nx for a nonce.
    fn derive(&self, nonce: &[u8]) -> Result<(Secret<32>, [u8; 12]), Error> {
        let nonce: &[u8; NONCE_LEN] = nonce.try_into().map_err(|_| Error::InvalidNonceLength {
            got: nonce.len(),
            expected: "24",
        })?;
        let (head, tail) = nonce.split_at(12);
        let mut blocks = prf_inputs(&self.k1, head.try_into().expect("12 bytes"));
        self.root.encrypt(&mut blocks);
        let mut kx = Secret([0u8; 32]);
        kx.0[..16].copy_from_slice(&blocks[0]);
        kx.0[16..].copy_from_slice(&blocks[1]);
        wipe(&mut blocks);
        Ok((kx, tail.try_into().expect("12 bytes")))
    }
}

impl Core for XAes256Gcm {
    fn mode_limits(&self) -> Limits {
        super::limits(16)
    }

    fn seal_data(&self, nonce: &[u8], aad: &[u8], data: Data<'_>) -> Result<Tag, Error> {
        let (kx, iv) = self.derive(nonce)?;
        Ok(Tag::truncate(self.root.seal(&kx, &iv, aad, data)?, 16))
    }

    fn open_data(&self, o: Opening<'_>) -> Result<(), Error> {
        let (kx, iv) = self.derive(o.nonce)?;
        self.root.open(&kx, Opening { nonce: &iv, ..o })
    }
}
