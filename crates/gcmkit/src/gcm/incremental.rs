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
//! and then divide by H^(blocks removed). Powers come from per-key window tables
//! ([`PowerTable`]): H^(d·16^i) and H^-(d·16^i) for every hex digit d and position i, so
//! x·H^k costs one multiplication per nonzero hex digit of k (at most 15 for any message
//! GMAC allows, 4 for a 1 MiB message) instead of square-and-multiply's one per bit.
//! Memory: 2 × 16 × 15 × 16 bytes = 7.5 KiB per key. Only the key holder can update (it
//! needs E(K, Y0) and H); truncated tags cannot be updated, so these functions take and
//! return full 16-byte tags. The exponents (lengths, positions) are public.

use super::GcmKey;
use crate::engine::{Engine, Kernels};
use crate::error::Error;
use crate::field::{dot_inv, Flavor};
use crate::spec::gcm::length_block as gcm_length_block;
use alloc::boxed::Box;

/// Hex digits of a 64-bit exponent.
const DIGITS: usize = 16;

/// Window table of one base element B in the dot algebra: `t[i][d - 1]` = B^(d·16^i) for
/// d = 1..15, i = 0..15, so B^k is the product of one entry per nonzero hex digit of k.
/// 3.75 KiB, boxed; wiped on drop.
#[derive(Clone)]
struct PowerTable(Box<[[u128; 15]; DIGITS]>);

impl PowerTable {
    /// 240 multiplications, once per key.
    fn new(base: u128, e: Kernels) -> Self {
        let mut t = Box::new([[0u128; 15]; DIGITS]);
        let mut b = base; // B^(16^i)
        for row in t.iter_mut() {
            row[0] = b;
            for d in 1..15 {
                row[d] = e.dot(row[d - 1], b);
            }
            b = e.dot(row[14], b); // B^(16·16^i)
        }
        PowerTable(t)
    }

    /// x·B^k (k public).
    fn mul_pow(&self, x: u128, mut k: u64, e: Kernels) -> u128 {
        let mut r = x;
        // Only the nonzero hex digits cost anything (k is public: a length or position).
        while k != 0 {
            let i = (k.trailing_zeros() / 4) as usize;
            let d = ((k >> (4 * i)) & 15) as usize;
            r = e.dot(r, self.0[i][d - 1]);
            k &= !(15u64 << (4 * i));
        }
        r
    }
}

impl Drop for PowerTable {
    fn drop(&mut self) {
        for row in self.0.iter_mut() {
            crate::secret::wipe::wipe(row);
        }
    }
}

impl core::fmt::Debug for PowerTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("PowerTable(<secret>)")
    }
}

/// GMAC that can update its tags incrementally.
#[derive(Clone, Debug)]
pub struct IncrementalGmac {
    key: GcmKey,
    /// H^(d·16^i).
    powers: PowerTable,
    /// H^-(d·16^i).
    inverse_powers: PowerTable,
    /// H^-1.
    h_inv: u128,
}

impl Drop for IncrementalGmac {
    fn drop(&mut self) {
        crate::secret::wipe::wipe(core::slice::from_mut(&mut self.h_inv));
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
        let h_inv = dot_inv(h, |a, b| e.dot(a, b));
        Ok(IncrementalGmac {
            powers: PowerTable::new(h, e),
            inverse_powers: PowerTable::new(h_inv, e),
            key,
            h_inv,
        })
    }

    /// The full 16-byte GMAC tag of `data` under `nonce` (as [`crate::Gmac`] computes it).
    pub fn compute(&self, nonce: &[u8], data: &[u8]) -> Result<[u8; 16], Error> {
        self.key.seal(nonce, data, &mut [])
    }

    /// x·H^k.
    fn mul_h_pow(&self, x: u128, k: u64) -> u128 {
        self.powers.mul_pow(x, k, self.key.engine)
    }

    /// x·H^-k.
    fn mul_h_inv_pow(&self, x: u128, k: u64) -> u128 {
        self.inverse_powers.mul_pow(x, k, self.key.engine)
    }

    fn len_elem(len: u64) -> u128 {
        u128::from_be_bytes(gcm_length_block(len, 0))
    }

    /// The unmasked hash P of the data (before the length block), from a full tag.
    fn unmask(&self, nonce: &[u8], tag: &[u8], len: u64) -> Result<u128, Error> {
        let t = Self::full_tag(tag)?;
        let m = self.key.tag_mask(&self.key.y0(nonce)?);
        let g = t ^ u128::from_be_bytes(m);
        Ok(self.key.engine.dot(g, self.h_inv) ^ Self::len_elem(len))
    }

    /// The full tag of the data with hash P and length `len` under `nonce`.
    fn mask(&self, nonce: &[u8], p: u128, len: u64) -> Result<[u8; 16], Error> {
        let g = self
            .key
            .engine
            .dot(p ^ Self::len_elem(len), self.key.h.power(1));
        let m = self.key.tag_mask(&self.key.y0(nonce)?);
        Ok(crate::spec::gcm::tag_from_ghash(g, &m))
    }

    /// The hash's change for XORing `diff` into the data at byte `offset` of a message of
    /// `n` blocks, times H^`extra`: the run's Horner sum times the power of H of its last
    /// block. `extra` = 0 gives P's change; `extra` = 1 gives G's (G = (P + LEN)·H, so an
    /// edit that keeps the length changes G by P's change times H).
    fn diff_hash(&self, n: u64, offset: u64, diff: &[u8], extra: u64) -> u128 {
        if diff.is_empty() {
            return 0;
        }
        let last = (offset + diff.len() as u64 - 1) / 16;
        let lead = (offset % 16) as usize;
        // The run, block-aligned: `lead` zero bytes, then the differences.
        let mut head = [0u8; 16];
        let take = (16 - lead).min(diff.len());
        head[lead..lead + take].copy_from_slice(&diff[..take]);
        if take == diff.len() {
            // A one-block run's Horner sum is D·H, so the change is D·H^(n-last+extra):
            // one power from the table, no hashing call.
            return self.mul_h_pow(Flavor::Ghash.load(&head), n - last + extra);
        }
        let mut acc = 0u128;
        self.key.engine.hash_update(&self.key.h, &mut acc, &head);
        self.key
            .engine
            .hash_update(&self.key.h, &mut acc, &diff[take..]);
        // Horner over blocks first..=last gives sum D_j·H^(last-j+1); P needs H^(n-j).
        self.mul_h_pow(acc, n - 1 - last + extra)
    }

    /// E(K, Y0) for two nonces in one AES call (their chains overlap).
    fn mask_pair(&self, a: &[u8], b: &[u8]) -> Result<(u128, u128), Error> {
        let mut y = [self.key.y0(a)?, self.key.y0(b)?];
        self.key.engine.encrypt_blocks(&self.key.aes, &mut y);
        Ok((u128::from_be_bytes(y[0]), u128::from_be_bytes(y[1])))
    }

    /// A full tag as a field element, or the error for a truncated one.
    fn full_tag(tag: &[u8]) -> Result<u128, Error> {
        let tag: &[u8; 16] = tag.try_into().map_err(|_| Error::InvalidTagLength {
            got: tag.len(),
            expected: "16 (full tag)",
        })?;
        Ok(u128::from_be_bytes(*tag))
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
        let t = Self::full_tag(tag)?;
        let (m_old, m_new) = self.mask_pair(old_nonce, new_nonce)?;
        // The length is unchanged, so G changes by the edit's hash times H: no division.
        let mut buf = [0u8; 64];
        let mut heap;
        let diff: &mut [u8] = if old.len() <= buf.len() {
            &mut buf[..old.len()]
        } else {
            heap = alloc::vec![0u8; old.len()];
            &mut heap
        };
        for ((d, a), b) in diff.iter_mut().zip(old).zip(new) {
            *d = a ^ b;
        }
        let g = t ^ m_old ^ self.diff_hash(len.div_ceil(16), offset, diff, 1);
        Ok((g ^ m_new).to_be_bytes())
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
            p ^= self.diff_hash(len.div_ceil(16), len, &data[..fill], 0);
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
        p ^= self.diff_hash(n, new_len, removed, 0);
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
        // Same data and length: only the mask changes, T' = T xor E(K, Y0) xor E(K, Y0').
        let _ = len;
        let (m_old, m_new) = self.mask_pair(old_nonce, new_nonce)?;
        Ok((Self::full_tag(tag)? ^ m_old ^ m_new).to_be_bytes())
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::dot_pow;

    /// Every row and digit of the window table against square-and-multiply, for
    /// exponents up to 2^64 - 1, on every engine.
    #[test]
    fn window_table_matches_square_and_multiply() {
        for engine in Engine::supported() {
            let e = engine.kernels().unwrap();
            let base = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
            let t = PowerTable::new(base, e);
            let mut k = 0x9e37_79b9_7f4a_7c15u64;
            for i in 0..200 {
                k = k.rotate_left(7) ^ (i * 0x1000_0001);
                for exp in [k, k >> 32, k & 0xffff, u64::MAX, 1, 16, 0] {
                    let x = 0x42u128 << 64 | exp as u128;
                    let want = e.dot(x, dot_pow(base, exp as u128, |a, b| e.dot(a, b)));
                    assert_eq!(t.mul_pow(x, exp, e), want, "{engine:?} k = {exp:#x}");
                }
            }
        }
    }
}
