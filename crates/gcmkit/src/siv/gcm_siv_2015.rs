//! GCM-SIV as Gueron and Lindell published it in 2015, with the exact definitions of
//! gcmkit's conventions (shared/docs/seed-conventions.md sec. 4):
//!
//! - hash: GHASH (GCM bit order) with key K1 over pad16(A) || pad16(M) || LENBLK, LENBLK
//!   being RFC 8452's little-endian bit lengths;
//! - S = hash xor N (bytes 0..11); two- and one-key variants clear bit 127 of S;
//! - TAG = AES(K2, S);
//! - counter block i: TAG as a little-endian integer, bit 127 set (two-/one-key), its low
//!   k bits replaced by i = 0, 1, 2, ...; a message has at most 2^k - 1 blocks;
//! - CTR keystream under K2 (K3 in the three-key variant).
//!
//! Variants (seed sec. 4.1-4.3): **two-key** (K1 hash key 16 bytes, K2 AES key 16 or 32
//! bytes) is the default; **one-key** derives K1 = AES-128(K0, 0) and K2 = AES-128(K0, 1)
//! from a 16-byte K0; **three-key** separates the tag PRF key K2 from the CTR key K3 and
//! forces no bits. Which to use: AES-GCM-SIV (RFC 8452) for new designs; GCM-SIV (2015)
//! to interoperate with or study the original construction. The one-key variant's bound
//! is the weakest (one AES key does everything); the three-key variant is the one the
//! paper's proofs treat most directly.

use super::{check_nonce, CounterInit, Siv, TAG_LEN};
use crate::aes::RoundKeys;
use crate::engine::{Data, Engine, Kernels};
use crate::error::Error;
use crate::field::{Flavor, HashKey, POWERS};
use crate::mode::{sealed::Core, Limits, Opening};
use crate::tag::Tag;

/// Which of the paper's key arrangements.
///
/// ```
/// use gcmkit::{AeadMode, GcmSiv2015, GcmSiv2015Variant};
/// let one = GcmSiv2015::one_key(&[1u8; 16])?;
/// assert_eq!(one.variant(), GcmSiv2015Variant::OneKey);
/// let three = GcmSiv2015::three_key(&[1u8; 16], &[2u8; 16], &[3u8; 16])?;
/// assert_eq!(three.variant(), GcmSiv2015Variant::ThreeKey);
/// let ct = three.encrypt(&[4u8; 12], b"m", b"")?;
/// assert_eq!(three.decrypt(&[4u8; 12], &ct, b"")?, b"m");
/// # Ok::<(), gcmkit::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GcmSiv2015Variant {
    /// One 16-byte key K0; K1 and K2 derived with AES-128.
    OneKey,
    /// Hash key K1 and AES key K2 (the default).
    TwoKey,
    /// Hash key K1, tag PRF key K2, CTR key K3; no bits forced.
    ThreeKey,
}

/// GCM-SIV (2015): nonce-misuse-resistant AEAD with GHASH and a k-bit block counter.
///
/// ```
/// use gcmkit::AeadMode;
/// use gcmkit::GcmSiv2015;
/// let c = GcmSiv2015::two_key(&[1u8; 16], &[2u8; 16])?.with_counter_bits(16)?;
/// let ct = c.encrypt(&[3u8; 12], b"message", b"aad")?;
/// assert_eq!(c.decrypt(&[3u8; 12], &ct, b"aad")?, b"message");
/// # Ok::<(), gcmkit::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct GcmSiv2015 {
    hash: HashKey,
    prf: RoundKeys,
    ctr: Option<RoundKeys>,
    variant: GcmSiv2015Variant,
    k: u32,
    engine: Kernels,
}

fn key16<'a>(k: &'a [u8], what: &'static str) -> Result<&'a [u8; 16], Error> {
    k.try_into().map_err(|_| Error::InvalidKeyLength {
        got: k.len(),
        expected: what,
    })
}

fn aes_key(k: &[u8], what: &'static str) -> Result<(), Error> {
    if k.len() == 16 || k.len() == 32 {
        Ok(())
    } else {
        Err(Error::InvalidKeyLength {
            got: k.len(),
            expected: what,
        })
    }
}

impl GcmSiv2015 {
    /// Two-key GCM-SIV: K1 (16 bytes, GHASH key), K2 (16 or 32 bytes, AES key).
    pub fn two_key(k1: &[u8], k2: &[u8]) -> Result<Self, Error> {
        Self::build(
            GcmSiv2015Variant::TwoKey,
            (k1, k2, None),
            Engine::selected()?,
        )
    }

    /// One-key GCM-SIV: K0 (16 bytes); K1 = AES-128(K0, 0^128), K2 = AES-128(K0, 01 00..00).
    pub fn one_key(k0: &[u8]) -> Result<Self, Error> {
        Self::one_key_with_engine(k0, Engine::selected()?)
    }

    /// One-key GCM-SIV on a given engine.
    pub fn one_key_with_engine(k0: &[u8], engine: Engine) -> Result<Self, Error> {
        key16(k0, "16 (K0)")?;
        let engine = engine.kernels()?;
        let rk = engine.expand_key(k0)?;
        let mut blocks = [[0u8; 16]; 2];
        blocks[1][0] = 1;
        engine.encrypt_blocks(&rk, &mut blocks);
        let keys = (&blocks[0][..], &blocks[1][..], None);
        let r = Self::build(GcmSiv2015Variant::OneKey, keys, engine.engine());
        crate::secret::wipe::wipe(&mut blocks);
        r
    }

    /// Three-key GCM-SIV: K1 (16 bytes), K2 tag key and K3 CTR key (both 16 or both 32).
    pub fn three_key(k1: &[u8], k2: &[u8], k3: &[u8]) -> Result<Self, Error> {
        Self::build(
            GcmSiv2015Variant::ThreeKey,
            (k1, k2, Some(k3)),
            Engine::selected()?,
        )
    }

    /// Any variant on a given engine (`k3` only for three-key; K0 variants use
    /// [`GcmSiv2015::one_key_with_engine`]).
    pub fn with_engine(
        variant: GcmSiv2015Variant,
        k1: &[u8],
        k2: &[u8],
        k3: Option<&[u8]>,
        engine: Engine,
    ) -> Result<Self, Error> {
        match variant {
            GcmSiv2015Variant::OneKey => Self::one_key_with_engine(k1, engine),
            v => Self::build(v, (k1, k2, k3), engine),
        }
    }

    /// The variant from its keys (K1, K2, K3 if three-key).
    fn build(
        variant: GcmSiv2015Variant,
        (k1, k2, k3): (&[u8], &[u8], Option<&[u8]>),
        engine: Engine,
    ) -> Result<Self, Error> {
        let engine = engine.kernels()?;
        let k1 = key16(k1, "16 (K1, hash key)")?;
        aes_key(k2, "16 or 32 (K2)")?;
        let ctr = match (variant, k3) {
            (GcmSiv2015Variant::ThreeKey, Some(k3)) => {
                if k3.len() != k2.len() {
                    return Err(Error::InvalidKeyLength {
                        got: k3.len(),
                        expected: "the length of K2 (K3)",
                    });
                }
                Some(engine.expand_key(k3)?)
            }
            (GcmSiv2015Variant::ThreeKey, None) => {
                return Err(Error::InvalidParameter("three-key GCM-SIV needs K3"))
            }
            (_, Some(_)) => return Err(Error::InvalidParameter("only three-key GCM-SIV takes K3")),
            (_, None) => None,
        };
        Ok(GcmSiv2015 {
            hash: engine.hash_key(k1, Flavor::Ghash, POWERS),
            prf: engine.expand_key(k2)?,
            ctr,
            variant,
            k: 32,
            engine,
        })
    }

    /// The counter width k (1..=32, default 32): messages have at most 2^k - 1 blocks.
    pub fn with_counter_bits(mut self, k: u32) -> Result<Self, Error> {
        if !(1..=32).contains(&k) {
            return Err(Error::InvalidParameter("counter bits k must be 1..=32"));
        }
        self.k = k;
        Ok(self)
    }

    /// The variant.
    pub fn variant(&self) -> GcmSiv2015Variant {
        self.variant
    }

    /// The counter width k.
    pub fn counter_bits(&self) -> u32 {
        self.k
    }

    fn siv(&self) -> Siv<'_> {
        Siv {
            engine: self.engine,
            hash: &self.hash,
            tag_key: &self.prf,
            ctr_key: self.ctr.as_ref().unwrap_or(&self.prf),
            mask: self.variant != GcmSiv2015Variant::ThreeKey,
            counter: CounterInit::IndexInLowBits(self.k),
        }
    }
}

impl Core for GcmSiv2015 {
    fn mode_limits(&self) -> Limits {
        // At most 2^k - 1 blocks (the counter's k bits), within AES-GCM-SIV's limits.
        let blocks = ((1u64 << self.k) - 1).saturating_mul(16);
        Limits {
            max_data: blocks.min(super::MAX_LEN),
            ..super::LIMITS
        }
    }

    fn seal_data(&self, nonce: &[u8], aad: &[u8], data: Data<'_>) -> Result<Tag, Error> {
        let nonce = check_nonce(nonce)?;
        let tag = self.siv().seal(nonce, aad, data.into_in_place())?;
        Ok(Tag::truncate(tag, TAG_LEN))
    }

    /// Counter mode, then the hash of the plaintext (`Siv::open`), which zeroes or
    /// restores (re-applies the keystream) on failure.
    fn open_data(&self, o: Opening<'_>) -> Result<(), Error> {
        let (nonce, aad, data, tag, on_failure) = (o.nonce, o.aad, o.data, o.tag, o.on_failure);
        let nonce = check_nonce(nonce)?;
        self.siv()
            .open(nonce, aad, data.into_in_place(), tag, on_failure)
    }
}
