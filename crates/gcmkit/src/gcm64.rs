//! GCM for 64-bit block ciphers (GCM specification, Appendix A).
//!
//! **Legacy.** GCM-64 exists for interoperability with 64-bit-block systems and for study.
//! With a 64-bit block, the birthday bound is 2^32 blocks (32 GiB) per key, and NIST
//! SP 800-67 Rev. 2 limits a TDEA key to 2^20 blocks. gcmkit therefore rejects messages
//! longer than [`MAX_BLOCKS`] blocks (8 MiB); keep the total per key far below 2^32
//! blocks as well. Use AES-GCM for anything new.
//!
//! Definitions (conventions sec. 5):
//! - field GF(2^64) modulo 1 + a + a^3 + a^4 + a^64 in GCM bit order (bit 0 = most
//!   significant bit of byte 0 = coefficient of a^0); Algorithm 1 with 64 bits and
//!   R = 0xD8 || 0^56;
//! - GHASH64(H, A, C) over 8-byte blocks with zero padding, then
//!   X = ((X xor len(A))·H xor len(C))·H, each length a 64-bit bit count;
//! - H = E(K, 0^64); Y0 = IV || 0^31 1 for a 4-byte IV, else GHASH64(H, {}, IV);
//! - counters: the rightmost 32 bits incremented modulo 2^32; tags of 4 to 8 bytes.
//!
//! Everything here is constant time: the field multiply uses masks, not branches.

use crate::engine::Data;
use crate::error::Error;
use crate::mode::{sealed::Core, Limits, Opening};
use crate::tag::Tag;
use subtle::ConstantTimeEq;

/// Longest message: 2^20 blocks of 8 bytes (NIST SP 800-67 Rev. 2's TDEA key limit).
pub const MAX_BLOCKS: u64 = 1 << 20;

/// A block cipher with 64-bit blocks (encryption direction only).
///
/// ```
/// use gcmkit::gcm64::{BlockCipher64, Gcm64};
/// use gcmkit::AeadMode;
///
/// /// A stand-in 64-bit "cipher" (NOT secure: it only shows the plumbing). Real uses
/// /// pass `des::TdesEde3` or `blowfish::Blowfish`, which implement the trait already.
/// struct XorCipher(u64);
/// impl BlockCipher64 for XorCipher {
///     fn encrypt_block(&self, block: &mut [u8; 8]) {
///         *block = (u64::from_be_bytes(*block) ^ self.0).rotate_left(13).to_be_bytes();
///     }
/// }
///
/// let gcm = Gcm64::new(XorCipher(0x0123_4567_89ab_cdef));
/// let ct = gcm.encrypt(&[1u8; 4], b"legacy", b"")?;
/// assert_eq!(ct.len(), 6 + 8); // 8-byte tags by default
/// assert_eq!(gcm.decrypt(&[1u8; 4], &ct, b"")?, b"legacy");
/// # Ok::<(), gcmkit::Error>(())
/// ```
pub trait BlockCipher64 {
    /// Encrypts one 8-byte block in place.
    fn encrypt_block(&self, block: &mut [u8; 8]);
}

#[cfg(feature = "gcm64")]
impl BlockCipher64 for des::TdesEde3 {
    fn encrypt_block(&self, block: &mut [u8; 8]) {
        cipher::BlockCipherEncrypt::encrypt_block(self, block.into());
    }
}

#[cfg(feature = "gcm64")]
impl BlockCipher64 for blowfish::Blowfish {
    fn encrypt_block(&self, block: &mut [u8; 8]) {
        cipher::BlockCipherEncrypt::encrypt_block(self, block.into());
    }
}

/// Multiplication in GF(2^64) (Algorithm 1 with 64 bits), constant time.
/// Elements are big-endian u64: the most significant bit is the coefficient of a^0.
pub fn gf64_mul(x: u64, y: u64) -> u64 {
    const R: u64 = 0xd8 << 56;
    let mut z = 0u64;
    let mut v = y;
    for i in 0..64 {
        let bit = (x >> (63 - i)) & 1;
        z ^= v & 0u64.wrapping_sub(bit);
        let lsb = v & 1;
        v = (v >> 1) ^ (R & 0u64.wrapping_sub(lsb));
    }
    z
}

/// GHASH64 state.
struct Ghash64 {
    h: u64,
    x: u64,
}

impl Ghash64 {
    fn update_padded(&mut self, data: &[u8]) {
        for chunk in data.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.x = gf64_mul(self.x ^ u64::from_be_bytes(b), self.h);
        }
    }

    fn finish(mut self, a_len: usize, c_len: usize) -> u64 {
        self.x = gf64_mul(self.x ^ (a_len as u64).wrapping_mul(8), self.h);
        gf64_mul(self.x ^ (c_len as u64).wrapping_mul(8), self.h)
    }
}

/// GCM over a 64-bit block cipher `C`.
///
/// ```
/// use gcmkit::gcm64::TdeaGcm;
/// use gcmkit::{AeadMode, Error};
/// let gcm = TdeaGcm::tdea(&[0x5au8; 24])?.with_tag_len(4)?;
/// let iv = [7u8; 4]; // 4-byte IVs are the fast path, as 12 bytes are for AES-GCM
/// let mut ct = gcm.encrypt(&iv, b"interop only", b"hdr")?;
/// assert_eq!(gcm.decrypt(&iv, &ct, b"hdr")?, b"interop only");
/// ct[0] ^= 1;
/// assert_eq!(gcm.decrypt(&iv, &ct, b"hdr"), Err(Error::AuthenticationFailed));
/// assert!(matches!(TdeaGcm::tdea(&[0u8; 16]), Err(Error::InvalidKeyLength { got: 16, .. })));
/// # Ok::<(), Error>(())
/// ```
pub struct Gcm64<C: BlockCipher64> {
    cipher: C,
    h: u64,
    tag_len: usize,
}

impl<C: BlockCipher64> core::fmt::Debug for Gcm64<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Gcm64(tag {} bytes, <secret>)", self.tag_len)
    }
}

/// GCM-64 with three-key Triple DES (24-byte key).
#[cfg(feature = "gcm64")]
pub type TdeaGcm = Gcm64<des::TdesEde3>;
/// GCM-64 with Blowfish (4- to 56-byte key).
#[cfg(feature = "gcm64")]
pub type BlowfishGcm = Gcm64<blowfish::Blowfish>;

/// A GCM-64 key object from a cipher key, or the error naming the lengths it takes.
#[cfg(feature = "gcm64")]
fn keyed<C>(key: &[u8], expected: &'static str) -> Result<Gcm64<C>, Error>
where
    C: BlockCipher64 + cipher::KeyInit,
{
    let c = C::new_from_slice(key).map_err(|_| Error::InvalidKeyLength {
        got: key.len(),
        expected,
    })?;
    Ok(Gcm64::new(c))
}

#[cfg(feature = "gcm64")]
impl Gcm64<des::TdesEde3> {
    /// TDEA (3-key, 24 bytes).
    pub fn tdea(key: &[u8]) -> Result<Self, Error> {
        keyed(key, "24 (three-key TDEA)")
    }
}

#[cfg(feature = "gcm64")]
impl Gcm64<blowfish::Blowfish> {
    /// Blowfish (4 to 56 bytes of key).
    pub fn blowfish(key: &[u8]) -> Result<Self, Error> {
        keyed(key, "4 to 56 (Blowfish)")
    }
}

impl<C: BlockCipher64> Gcm64<C> {
    /// GCM-64 over an already keyed cipher; tags of 8 bytes.
    pub fn new(cipher: C) -> Self {
        let mut h = [0u8; 8];
        cipher.encrypt_block(&mut h);
        Gcm64 {
            cipher,
            h: u64::from_be_bytes(h),
            tag_len: 8,
        }
    }

    /// Tags of `len` bytes, 4 to 8.
    pub fn with_tag_len(mut self, len: usize) -> Result<Self, Error> {
        if !(4..=8).contains(&len) {
            return Err(Error::InvalidTagLength {
                got: len,
                expected: "4 to 8 (GCM-64)",
            });
        }
        self.tag_len = len;
        Ok(self)
    }

    fn y0(&self, iv: &[u8]) -> Result<u64, Error> {
        if iv.is_empty() {
            return Err(Error::InvalidNonceLength {
                got: 0,
                expected: "at least 1",
            });
        }
        if iv.len() == 4 {
            let mut y = [0u8; 8];
            y[..4].copy_from_slice(iv);
            y[7] = 1;
            return Ok(u64::from_be_bytes(y));
        }
        let mut g = Ghash64 { h: self.h, x: 0 };
        g.update_padded(iv);
        Ok(g.finish(0, iv.len()))
    }

    fn ctr(&self, y0: u64, data: &mut [u8]) {
        let mut y = y0;
        for chunk in data.chunks_mut(8) {
            // incr: the rightmost 32 bits modulo 2^32.
            y = (y & !0xffff_ffff) | ((y as u32).wrapping_add(1) as u64);
            let mut k = y.to_be_bytes();
            self.cipher.encrypt_block(&mut k);
            for (d, k) in chunk.iter_mut().zip(k.iter()) {
                *d ^= k;
            }
        }
    }

    fn tag(&self, y0: u64, aad: &[u8], ct: &[u8]) -> [u8; 16] {
        let mut g = Ghash64 { h: self.h, x: 0 };
        g.update_padded(aad);
        g.update_padded(ct);
        let s = g.finish(aad.len(), ct.len());
        let mut m = y0.to_be_bytes();
        self.cipher.encrypt_block(&mut m);
        let mut t = [0u8; 16];
        t[..8].copy_from_slice(&(s ^ u64::from_be_bytes(m)).to_be_bytes());
        t
    }
}

impl<C: BlockCipher64> Core for Gcm64<C> {
    fn mode_limits(&self) -> Limits {
        Limits {
            tag_len: self.tag_len,
            max_aad: crate::gcm::MAX_AAD,
            max_data: MAX_BLOCKS * 8,
        }
    }

    fn seal_data(&self, iv: &[u8], aad: &[u8], data: Data<'_>) -> Result<Tag, Error> {
        let y0 = self.y0(iv)?;
        let buf = data.into_in_place();
        self.ctr(y0, buf);
        Ok(Tag::truncate(self.tag(y0, aad, buf), self.tag_len))
    }

    /// Verifies before decrypting (the tag covers the ciphertext), so on failure the
    /// destination is untouched whatever `on_failure` asks (the caller zeroes it).
    fn open_data(&self, o: Opening<'_>) -> Result<(), Error> {
        let (iv, aad, data, tag) = (o.nonce, o.aad, o.data, o.tag);
        let y0 = self.y0(iv)?;
        let t = self.tag(y0, aad, data.src());
        if tag.len() != self.tag_len
            || !crate::secret::ct::declassify(bool::from(t[..self.tag_len].ct_eq(tag)))
        {
            return Err(Error::AuthenticationFailed);
        }
        self.ctr(y0, data.into_in_place());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference: the field multiply by schoolbook carry-less product and reduction.
    fn mul_reference(x: u64, y: u64) -> u64 {
        // Reflect to natural order (bit i = a^i), multiply, reduce by a^64 = 1 + a + a^3 + a^4.
        let (a, b) = (x.reverse_bits() as u128, y.reverse_bits() as u128);
        let mut p = 0u128;
        for i in 0..64 {
            if (b >> i) & 1 == 1 {
                p ^= a << i;
            }
        }
        for i in (64..128).rev() {
            if (p >> i) & 1 == 1 {
                p ^= (1u128 << i) | (0b11011u128 << (i - 64));
            }
        }
        (p as u64).reverse_bits()
    }

    #[test]
    fn gf64_mul_matches_reference() {
        for s in crate::testing::xorshift64(0x1234_5678_9abc_def1).take(1000) {
            let t = s.rotate_left(31) ^ 0xdead_beef;
            assert_eq!(gf64_mul(s, t), mul_reference(s, t));
        }
        // a^0 is the identity: the most significant bit.
        assert_eq!(gf64_mul(1 << 63, 0x1234), 0x1234);
    }
}
