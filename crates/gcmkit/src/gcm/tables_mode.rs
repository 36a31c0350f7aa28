//! AES-GCM with one of the spec's table-driven GHASH methods (hazmat; NOT constant time:
//! see `field::tables`). AES runs on the selected engine, so whole-mode timings isolate
//! the cost of the GHASH method, as the spec's Table 3 compares them.

use super::{check_tag_len, GcmKey};
use crate::engine::{Counter, Data, Engine};
use crate::error::Error;
use crate::field::tables::{TableMethod, TableMul};
use crate::mode::{sealed::Core, Limits, Opening};
use crate::spec::gcm::length_block as gcm_length_block;
use crate::tag::Tag;
use zeroize::Zeroize;

/// AES-GCM whose GHASH uses a table method of the spec's Table 1.
#[derive(Clone, Debug)]
pub struct TableAesGcm {
    key: GcmKey,
    mul: TableMul,
    tag_len: usize,
}

impl TableAesGcm {
    /// A 16-, 24- or 32-byte AES key with the GHASH `method`.
    pub fn new(key: &[u8], method: TableMethod) -> Result<Self, Error> {
        let k = GcmKey::new(key, Engine::selected()?.kernels()?)?;
        let mut h = [[0u8; 16]];
        k.engine.encrypt_blocks(&k.aes, &mut h);
        let mul = TableMul::new(&h[0], method);
        h[0].zeroize();
        Ok(TableAesGcm {
            key: k,
            mul,
            tag_len: 16,
        })
    }

    /// Tags of `len` bytes (16, 15, 14, 13, 12, 8 or 4).
    pub fn with_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.tag_len = check_tag_len(len)?;
        Ok(self)
    }

    /// The GHASH method's memory: (bytes per key, key-independent bytes).
    pub fn memory(&self) -> (usize, usize) {
        self.mul.memory()
    }

    fn y0(&self, iv: &[u8]) -> Result<[u8; 16], Error> {
        super::iv_block(iv, 1, |acc, d| self.mul.update_padded(acc, d))
    }

    fn tag(&self, y0: &[u8; 16], aad: &[u8], ct: &[u8]) -> [u8; 16] {
        let mut y = 0u128;
        self.mul.update_padded(&mut y, aad);
        self.mul.update_padded(&mut y, ct);
        self.mul
            .update_padded(&mut y, &gcm_length_block(aad.len() as u64, ct.len() as u64));
        let mut m = [*y0];
        self.key.engine.encrypt_blocks(&self.key.aes, &mut m);
        crate::spec::gcm::tag_from_ghash(y, &m[0])
    }
}

impl Core for TableAesGcm {
    fn mode_limits(&self) -> Limits {
        Limits {
            tag_len: self.tag_len,
            max_aad: super::MAX_AAD,
            max_data: super::MAX_PLAINTEXT,
        }
    }

    fn seal_data(&self, iv: &[u8], aad: &[u8], data: Data<'_>) -> Result<Tag, Error> {
        let y0 = self.y0(iv)?;
        let buf = data.into_in_place();
        let first = Counter::Be32.add(&y0, 1);
        self.key
            .engine
            .ctr_xor(&self.key.aes, Counter::Be32, first, buf);
        Ok(Tag::truncate(self.tag(&y0, aad, buf), self.tag_len))
    }

    /// Verifies before decrypting (the tag covers the ciphertext), so on failure the
    /// destination is untouched whatever `on_failure` asks (the caller zeroes it).
    fn open_data(&self, o: Opening<'_>) -> Result<(), Error> {
        let (iv, aad, data, tag) = (o.nonce, o.aad, o.data, o.tag);
        let y0 = self.y0(iv)?;
        if !Tag::truncate(self.tag(&y0, aad, data.src()), self.tag_len).ct_eq_slice(tag) {
            return Err(Error::AuthenticationFailed);
        }
        let first = Counter::Be32.add(&y0, 1);
        self.key
            .engine
            .ctr_xor(&self.key.aes, Counter::Be32, first, data.into_in_place());
        Ok(())
    }
}
