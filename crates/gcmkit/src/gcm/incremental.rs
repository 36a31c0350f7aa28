//! Incremental GMAC (GMAC paper sec. 6; spec sec. 6): update a tag after an edit at a
//! cost proportional to the edit, not to the message.
//!
//! GMAC hashes blocks B_1..B_L (the zero-padded data, then the length block):
//!     G = sum B_i·H^(L-i+1),  T = G xor E(K, Y0).
//! GHASH is linear, so an edit that XORs a difference D into the data changes G by the
//! same GHASH of D placed at its position. With P = sum over the n data blocks of
//! B_j·H^(n-j) (the hash before the length block), G = (P + LEN)·H, so
//!     P = G·H^-1 + LEN,
//! and appends continue Horner's rule from P, truncations first cancel the removed bytes
//! and then divide by H^(blocks removed). Powers H^k come from a table of H^(2^i) (one
//! multiply per set bit of k); H^-1 is computed once per key. Only the key holder can
//! update (it needs E(K, Y0) and H); truncated tags cannot be updated, so these functions
//! take and return full 16-byte tags.

use super::GcmKey;
use crate::engine::Engine;
use crate::error::Error;
use crate::field::{dot_inv, gcm_length_block, DOT_ONE};

/// GMAC that can update its tags incrementally.
#[derive(Clone, Debug)]
pub struct IncrementalGmac {
    key: GcmKey,
    /// H^(2^i) in the dot algebra, i = 0..64.
    squares: [u128; 64],
    /// H^-1.
    h_inv: u128,
}

impl Drop for IncrementalGmac {
    fn drop(&mut self) {
        crate::engine::wipe::wipe(&mut self.squares);
        crate::engine::wipe::wipe(core::slice::from_mut(&mut self.h_inv));
    }
}

impl IncrementalGmac {
    /// An AES key of 16, 24 or 32 bytes on the selected engine.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_engine(key, Engine::selected()?)
    }

    /// The same on a given engine.
    pub fn with_engine(key: &[u8], engine: Engine) -> Result<Self, Error> {
        let key = GcmKey::new(key, engine.kernels()?)?;
        let e = key.engine;
        let h = key.h.power(1);
        let mut squares = [0u128; 64];
        squares[0] = h;
        for i in 1..64 {
            squares[i] = e.dot(squares[i - 1], squares[i - 1]);
        }
        let h_inv = dot_inv(h, |a, b| e.dot(a, b));
        Ok(IncrementalGmac {
            key,
            squares,
            h_inv,
        })
    }

    /// The full 16-byte GMAC tag of `data` under `nonce` (as [`crate::Gmac`] computes it).
    pub fn compute(&self, nonce: &[u8], data: &[u8]) -> Result<[u8; 16], Error> {
        self.key.seal(nonce, data, &mut [])
    }

    /// x·H^k.
    fn mul_h_pow(&self, x: u128, k: u64) -> u128 {
        let e = self.key.engine;
        let mut r = x;
        for i in 0..64 {
            if (k >> i) & 1 == 1 {
                r = e.dot(r, self.squares[i]);
            }
        }
        r
    }

    /// x·H^-k.
    fn mul_h_inv_pow(&self, x: u128, k: u64) -> u128 {
        let e = self.key.engine;
        let p = crate::field::dot_pow(self.h_inv, k as u128, |a, b| e.dot(a, b));
        if p == DOT_ONE {
            x
        } else {
            e.dot(x, p)
        }
    }

    fn len_elem(len: u64) -> u128 {
        u128::from_be_bytes(gcm_length_block(len, 0))
    }

    /// The unmasked hash P of the data (before the length block), from a full tag.
    fn unmask(&self, nonce: &[u8], tag: &[u8], len: u64) -> Result<u128, Error> {
        let tag: &[u8; 16] = tag.try_into().map_err(|_| Error::InvalidTagLength {
            got: tag.len(),
            expected: "16 (full tag)",
        })?;
        let m = self.key.tag_mask(&self.key.y0(nonce)?);
        let g = u128::from_be_bytes(*tag) ^ u128::from_be_bytes(m);
        Ok(self.key.engine.dot(g, self.h_inv) ^ Self::len_elem(len))
    }

    /// The full tag of the data with hash P and length `len` under `nonce`.
    fn mask(&self, nonce: &[u8], p: u128, len: u64) -> Result<[u8; 16], Error> {
        let g = self
            .key
            .engine
            .dot(p ^ Self::len_elem(len), self.key.h.power(1));
        let m = self.key.tag_mask(&self.key.y0(nonce)?);
        Ok((g ^ u128::from_be_bytes(m)).to_be_bytes())
    }

    /// P's change for XORing `diff` into the data at byte `offset` of a message of `n`
    /// blocks: the run's Horner sum times the power of H of its last block.
    fn diff_hash(&self, n: u64, offset: u64, diff: &[u8]) -> u128 {
        if diff.is_empty() {
            return 0;
        }
        let last = (offset + diff.len() as u64 - 1) / 16;
        let lead = (offset % 16) as usize;
        let mut acc = 0u128;
        // The run, block-aligned: `lead` zero bytes, then the differences.
        let mut head = [0u8; 16];
        let take = (16 - lead).min(diff.len());
        head[lead..lead + take].copy_from_slice(&diff[..take]);
        self.key.engine.hash_update(&self.key.h, &mut acc, &head);
        self.key
            .engine
            .hash_update(&self.key.h, &mut acc, &diff[take..]);
        // Horner over blocks first..=last gives sum D_j·H^(last-j+1); P needs H^(n-j).
        self.mul_h_pow(acc, n - 1 - last)
    }

    fn check_range(len: u64, offset: u64, count: usize) -> Result<(), Error> {
        match offset.checked_add(count as u64) {
            Some(end) if end <= len => Ok(()),
            _ => Err(Error::InvalidParameter(
                "edit range lies outside the message",
            )),
        }
    }

    /// The tag after replacing `old` by `new` (same length) at byte `offset` of a
    /// `len`-byte message tagged `tag` under `old_nonce`, now under `new_nonce`.
    #[allow(clippy::too_many_arguments)]
    pub fn replace(
        &self,
        old_nonce: &[u8],
        tag: &[u8],
        len: u64,
        offset: u64,
        old: &[u8],
        new: &[u8],
        new_nonce: &[u8],
    ) -> Result<[u8; 16], Error> {
        if old.len() != new.len() {
            return Err(Error::InvalidParameter("replacement must keep the length"));
        }
        Self::check_range(len, offset, old.len())?;
        let p = self.unmask(old_nonce, tag, len)?;
        let diff: alloc::vec::Vec<u8> = old.iter().zip(new).map(|(a, b)| a ^ b).collect();
        let p = p ^ self.diff_hash(len.div_ceil(16), offset, &diff);
        self.mask(new_nonce, p, len)
    }

    /// The tag after appending `data` to a `len`-byte message.
    pub fn append(
        &self,
        old_nonce: &[u8],
        tag: &[u8],
        len: u64,
        data: &[u8],
        new_nonce: &[u8],
    ) -> Result<[u8; 16], Error> {
        let new_len = len
            .checked_add(data.len() as u64)
            .filter(|&l| l <= crate::gcm::MAX_AAD)
            .ok_or(Error::AadTooLong {
                len: u64::MAX,
                max: crate::gcm::MAX_AAD,
            })?;
        let mut p = self.unmask(old_nonce, tag, len)?;
        // Bytes that fill the old partial last block change that block in place.
        let r = (len % 16) as usize;
        let fill = if r == 0 { 0 } else { (16 - r).min(data.len()) };
        if fill > 0 {
            p ^= self.diff_hash(len.div_ceil(16), len, &data[..fill]);
        }
        // The rest are new blocks: Horner's rule continues from P.
        self.key
            .engine
            .hash_update(&self.key.h, &mut p, &data[fill..]);
        self.mask(new_nonce, p, new_len)
    }

    /// The tag after removing the last `removed.len()` bytes (given) of a `len`-byte message.
    pub fn truncate(
        &self,
        old_nonce: &[u8],
        tag: &[u8],
        len: u64,
        removed: &[u8],
        new_nonce: &[u8],
    ) -> Result<[u8; 16], Error> {
        let new_len = len
            .checked_sub(removed.len() as u64)
            .ok_or(Error::InvalidParameter("removing more than the message"))?;
        let n = len.div_ceil(16);
        let mut p = self.unmask(old_nonce, tag, len)?;
        // Cancel the removed bytes: the blocks after the new end become zero.
        p ^= self.diff_hash(n, new_len, removed);
        // P = P'·H^(n - n'): divide by the blocks that vanished.
        p = self.mul_h_inv_pow(p, n - new_len.div_ceil(16));
        self.mask(new_nonce, p, new_len)
    }

    /// The tag of the same data under a new nonce.
    pub fn renonce(
        &self,
        old_nonce: &[u8],
        tag: &[u8],
        len: u64,
        new_nonce: &[u8],
    ) -> Result<[u8; 16], Error> {
        let p = self.unmask(old_nonce, tag, len)?;
        self.mask(new_nonce, p, len)
    }
}
