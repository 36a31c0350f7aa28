//! AES encryption (FIPS 197): the key schedule every engine shares, and the portable
//! constant-time block function. Only encryption is needed: every mode in gcmkit uses
//! AES in the forward direction (CTR, tag PRF, key derivation).

pub(crate) mod soft;
#[allow(unsafe_code)] // SSE2/NEON intrinsics, part of the architectures' baseline
pub(crate) mod soft_word;
pub(crate) mod word;

use crate::error::Error;
use zeroize::Zeroize;

/// Expanded AES encryption key: up to 15 round keys of 16 bytes, in the byte order of
/// FIPS 197 (which is also what AESENC expects when loaded with an unaligned load).
///
/// Zeroized on drop (16-byte volatile stores); `Debug` prints only the key size.
#[derive(Clone)]
pub(crate) struct RoundKeys {
    keys: [[u8; 16]; 15],
    rounds: u8,
}

impl Drop for RoundKeys {
    fn drop(&mut self) {
        crate::secret::wipe::wipe(&mut self.keys);
    }
}

impl core::fmt::Debug for RoundKeys {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RoundKeys(AES-{}, <secret>)", self.key_bits())
    }
}

/// Round constants of the key schedule: x^(i-1) in GF(2^8).
const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

impl RoundKeys {
    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(key: &[u8]) -> Result<Self, Error> {
        let nk = match key.len() {
            16 | 24 | 32 => key.len() / 4,
            n => {
                return Err(Error::InvalidKeyLength {
                    got: n,
                    expected: "16, 24 or 32",
                })
            }
        };
        let rounds = nk + 6;
        let total = 4 * (rounds + 1);
        let mut w = [[0u8; 4]; 60];
        for (i, wi) in w.iter_mut().enumerate().take(nk) {
            wi.copy_from_slice(&key[4 * i..4 * i + 4]);
        }
        for i in nk..total {
            let mut t = w[i - 1];
            if i % nk == 0 {
                t = soft::sub_word([t[1], t[2], t[3], t[0]]);
                t[0] ^= RCON[i / nk - 1];
            } else if nk > 6 && i % nk == 4 {
                t = soft::sub_word(t);
            }
            for j in 0..4 {
                w[i][j] = w[i - nk][j] ^ t[j];
            }
        }
        let mut keys = [[0u8; 16]; 15];
        for (r, k) in keys.iter_mut().enumerate().take(rounds + 1) {
            for c in 0..4 {
                k[4 * c..4 * c + 4].copy_from_slice(&w[4 * r + c]);
            }
        }
        w.zeroize();
        Ok(Self {
            keys,
            rounds: rounds as u8,
        })
    }

    /// An all-zero schedule to be filled in place.
    pub(crate) fn empty() -> Self {
        RoundKeys {
            keys: [[0; 16]; 15],
            rounds: 10,
        }
    }

    /// Storage for a schedule filled in place (the AES-NI key schedule).
    #[allow(dead_code)]
    pub(crate) fn raw_mut(&mut self, rounds: usize) -> &mut [[u8; 16]; 15] {
        self.rounds = rounds as u8;
        &mut self.keys
    }

    /// Number of rounds: 10, 12 or 14.
    pub(crate) fn rounds(&self) -> usize {
        self.rounds as usize
    }

    /// Key size in bits.
    pub(crate) fn key_bits(&self) -> usize {
        (self.rounds as usize - 6) * 32
    }

    /// All 15 slots; only `rounds() + 1` are meaningful.
    pub(crate) fn as_blocks(&self) -> &[[u8; 16]; 15] {
        &self.keys
    }

    /// Encrypts one block with the portable constant-time implementation.
    #[cfg(test)]
    pub fn encrypt_block_soft(&self, block: &[u8; 16]) -> [u8; 16] {
        let mut b = [*block];
        soft::encrypt_blocks(self, &mut b);
        b[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Vec<u8> {
        hex::decode(s).unwrap()
    }

    /// FIPS 197 Appendix C example vectors.
    #[test]
    fn fips197_appendix_c() {
        let pt: [u8; 16] = h("00112233445566778899aabbccddeeff").try_into().unwrap();
        for (key, ct) in [
            (
                "000102030405060708090a0b0c0d0e0f",
                "69c4e0d86a7b0430d8cdb78070b4c55a",
            ),
            (
                "000102030405060708090a0b0c0d0e0f1011121314151617",
                "dda97ca4864cdfe06eaf70a0ec0d7191",
            ),
            (
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                "8ea2b7ca516745bfeafc49904b496089",
            ),
        ] {
            let rk = RoundKeys::new(&h(key)).unwrap();
            assert_eq!(rk.encrypt_block_soft(&pt).to_vec(), h(ct));
        }
    }

    /// FIPS 197 Appendix A.1: last round key of the AES-128 expansion.
    #[test]
    fn fips197_key_expansion_128() {
        let rk = RoundKeys::new(&h("2b7e151628aed2a6abf7158809cf4f3c")).unwrap();
        assert_eq!(
            rk.as_blocks()[10].to_vec(),
            h("d014f9a8c9ee2589e13f0cc8b6630ca6")
        );
    }

    #[test]
    fn bad_key_lengths_are_rejected() {
        for n in [0, 1, 15, 17, 23, 25, 31, 33, 64] {
            assert!(matches!(
                RoundKeys::new(&vec![0u8; n]),
                Err(Error::InvalidKeyLength { got, .. }) if got == n
            ));
        }
    }

    #[test]
    fn debug_does_not_print_key() {
        let rk = RoundKeys::new(&[0x41; 16]).unwrap();
        let s = format!("{rk:?}");
        assert!(!s.contains("41") && s.contains("AES-128"));
    }
}
