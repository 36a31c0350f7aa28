//! AES-GCM-SIV (RFC 8452) and its inner construction GCM-SIV+ (Gueron-Langley-Lindell
//! 2017, sec. 3).
//!
//! GCM-SIV+ with a POLYVAL key K1 and an AES key K2, nonce N (12 bytes):
//!   S   = POLYVAL(K1, pad16(A) || pad16(M) || LE64(bitlen A) || LE64(bitlen M))
//!   S  ^= N (bytes 0..11);  S[15] &= 0x7f
//!   TAG = AES(K2, S)
//!   C   = M xor AES-CTR(K2, TAG with bit 127 set, 32-bit little-endian counter in
//!         bytes 0..3)
//! AES-GCM-SIV derives K1 and K2 from the key-generating key and the nonce (DeriveKey)
//! and runs GCM-SIV+. Decryption runs CTR first (the tag is the IV), hashes the
//! plaintext, and releases it only if the recomputed tag matches; otherwise the buffer
//! is zeroed.

pub(crate) mod gcm_siv_2015;
pub(crate) mod plus;

use crate::aes::RoundKeys;
use crate::engine::{Counter, Data, Engine, Kernels};
use crate::error::Error;
use crate::field::{Flavor, HashKey};
use crate::mode::{sealed::Core, Limits, OnFailure, Opening};
pub(crate) use crate::spec::siv::CounterInit;
use crate::spec::siv::{counter_block, length_block as siv_length_block, prf_input};
use crate::tag::Tag;

/// Largest plaintext and AAD of AES-GCM-SIV: 2^36 bytes.
pub const MAX_LEN: u64 = 1 << 36;
/// Nonce length.
pub const NONCE_LEN: usize = 12;
/// Tag length.
pub const TAG_LEN: usize = 16;

pub(crate) fn check_nonce(nonce: &[u8]) -> Result<&[u8; 12], Error> {
    nonce.try_into().map_err(|_| Error::InvalidNonceLength {
        got: nonce.len(),
        expected: "12",
    })
}

/// AES-GCM-SIV's tag length and limits (RFC 8452 sec. 6), shared by the SIV family.
pub(crate) const LIMITS: Limits = Limits {
    tag_len: TAG_LEN,
    max_aad: MAX_LEN,
    max_data: MAX_LEN,
};

/// One SIV construction over GCM parts: the universal hash (POLYVAL or GHASH, with the
/// RFC 8452 length block), the tag PRF key, the CTR key, whether bit 127 is masked/forced
/// and how counters start. AES-GCM-SIV, GCM-SIV+ and the three GCM-SIV (2015) variants
/// are all instances.
pub(crate) struct Siv<'a> {
    pub(crate) engine: Kernels,
    pub(crate) hash: &'a HashKey,
    pub(crate) tag_key: &'a RoundKeys,
    pub(crate) ctr_key: &'a RoundKeys,
    pub(crate) mask: bool,
    pub(crate) counter: CounterInit,
}

impl Siv<'_> {
    /// Tag from the finished hash accumulator: S = H(...) xor N, bit 127 cleared if
    /// masking, TAG = E(K_tag, S).
    fn tag_from_hash(
        &self,
        nonce: &[u8; 12],
        mut acc: u128,
        aad_len: usize,
        msg_len: usize,
    ) -> [u8; 16] {
        self.engine.hash_update(
            self.hash,
            &mut acc,
            &siv_length_block(aad_len as u64, msg_len as u64),
        );
        let h = self.hash.flavor().store(acc);
        let mut s = [prf_input(h, nonce, self.mask)];
        self.engine.encrypt_blocks(self.tag_key, &mut s);
        s[0]
    }

    fn first_counter(&self, tag: &[u8; 16]) -> [u8; 16] {
        counter_block(tag, self.mask, self.counter)
    }

    /// Encrypts `buf` in place; returns the tag.
    pub(crate) fn seal(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        LIMITS.check(aad.len(), buf.len())?;
        let mut acc = 0u128;
        self.engine.hash_update(self.hash, &mut acc, aad);
        self.engine.hash_update(self.hash, &mut acc, buf);
        let tag = self.tag_from_hash(nonce, acc, aad.len(), buf.len());
        self.engine
            .ctr_xor(self.ctr_key, Counter::Le32, self.first_counter(&tag), buf);
        Ok(tag)
    }

    /// Decrypts `buf` in place (CTR, then the hash of the plaintext it produced:
    /// `Kernels::ctr_then_hash`); if the tag does not verify, `buf` is zeroed or holds the ciphertext again, as `on_failure` says.
    pub(crate) fn open(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
        on_failure: OnFailure,
    ) -> Result<(), Error> {
        LIMITS.check(aad.len(), buf.len())?;
        let tag = full_tag(tag)?;
        let mut acc = 0u128;
        self.engine.hash_update(self.hash, &mut acc, aad);
        // CTR first (the tag is the IV), then the plaintext it produced hashed.
        let ctr = self.first_counter(tag);
        self.engine
            .ctr_then_hash(self.ctr_key, self.hash, Counter::Le32, ctr, &mut acc, buf);
        let expected = Tag::truncate(self.tag_from_hash(nonce, acc, aad.len(), buf.len()), 16);
        if expected.ct_eq_slice(tag) {
            return Ok(());
        }
        match on_failure {
            OnFailure::Zero => buf.fill(0),
            // Re-encrypt the unverified plaintext: the ciphertext is back.
            OnFailure::Restore => {
                self.engine
                    .ctr_xor(self.ctr_key, Counter::Le32, self.first_counter(tag), buf);
            }
        }
        Err(Error::AuthenticationFailed)
    }
}

/// GCM-SIV+ with POLYVAL key `k1` and AES key `k2` (AES-GCM-SIV after DeriveKey).
pub(crate) fn plus<'a>(engine: Kernels, k1: &'a HashKey, k2: &'a RoundKeys) -> Siv<'a> {
    Siv {
        engine,
        hash: k1,
        tag_key: k2,
        ctr_key: k2,
        mask: true,
        counter: CounterInit::TagLow32,
    }
}

/// The 16-byte tag every SIV mode takes.
fn full_tag(tag: &[u8]) -> Result<&[u8; 16], Error> {
    tag.try_into().map_err(|_| Error::InvalidTagLength {
        got: tag.len(),
        expected: "16",
    })
}

/// The outcome of a verification: `buf` (already decrypted in place) is zeroed unless
/// the tag matched.
fn verified(buf: &mut [u8], ok: bool) -> Result<(), Error> {
    if ok {
        Ok(())
    } else {
        // The caller sees this buffer, so a plain fill cannot be optimized away.
        buf.fill(0);
        Err(Error::AuthenticationFailed)
    }
}

/// Powers of H to compute for a message. AES-GCM-SIV's POLYVAL key changes with every
/// nonce, so each power costs a multiply per message, while fewer powers cost a reduction
/// every that-many blocks: short messages take 8, long ones up to 32 (where the setup
/// amortizes). The tiers below take the fixed count that measured best at each size
/// (docs/tuning.md: hashed_blocks).
fn hashed_blocks(aad_len: usize, msg_len: usize) -> usize {
    let blocks = aad_len
        .div_ceil(16)
        .saturating_add(msg_len.div_ceil(16))
        .saturating_add(1);
    match blocks {
        0..128 => blocks.min(8),
        128..512 => 16,
        _ => 32,
    }
}

/// Per-nonce keys of AES-GCM-SIV, filled in place (they are large: no moves per message).
pub(crate) struct DerivedKeys {
    pub(crate) auth: HashKey,
    pub(crate) enc: RoundKeys,
}

impl DerivedKeys {
    fn empty() -> Self {
        DerivedKeys {
            auth: HashKey::empty(Flavor::Polyval),
            enc: RoundKeys::empty(),
        }
    }
}

/// AES-GCM-SIV (RFC 8452) with a 16- or 32-byte key (or 24: AES-192-GCM-SIV as OpenSSL
/// and pyca/cryptography define it, the RFC's rule with a 24-byte derived key):
/// nonce-misuse resistant AEAD.
///
/// ```
/// use gcmkit::AeadMode;
/// let siv = gcmkit::AesGcmSiv::new(&[7u8; 32])?;
/// let ct = siv.encrypt(&[1u8; 12], b"data", b"")?;
/// assert_eq!(ct.len(), 4 + 16);
/// assert_eq!(siv.decrypt(&[1u8; 12], &ct, b"")?, b"data");
/// # Ok::<(), gcmkit::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct AesGcmSiv {
    kgk: RoundKeys,
    engine: Kernels,
}

impl AesGcmSiv {
    /// A key object on the engine [`Engine::selected`] names.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_engine(key, Engine::selected()?)
    }

    /// A key object on a given engine.
    pub fn with_engine(key: &[u8], engine: Engine) -> Result<Self, Error> {
        if ![16, 24, 32].contains(&key.len()) {
            return Err(Error::InvalidKeyLength {
                got: key.len(),
                expected: "16, 24 or 32",
            });
        }
        Ok(AesGcmSiv {
            kgk: RoundKeys::new(key)?,
            engine: engine.kernels()?,
        })
    }

    /// The engine this key object runs on.
    pub fn engine(&self) -> Engine {
        self.engine.engine()
    }

    /// Tag length (always 16).
    pub fn tag_len(&self) -> usize {
        TAG_LEN
    }

    /// RFC 8452 DeriveKey for a nonce into `out` (`kdf::rfc8452`).
    pub(crate) fn derive_into(
        &self,
        nonce: &[u8; 12],
        hashed: usize,
        out: &mut DerivedKeys,
    ) -> Result<(), Error> {
        crate::kdf::rfc8452::derive_into(
            self.engine,
            &self.kgk,
            nonce,
            hashed,
            &mut out.auth,
            &mut out.enc,
        )
    }
}

impl Core for AesGcmSiv {
    #[inline]
    fn mode_limits(&self) -> Limits {
        LIMITS
    }

    // `seal_data` and `open_data` are inlined into `mode::seal`/`mode::open` (as AES-GCM's
    // are), so a small message costs the checks, one dispatch and the one-body kernel; the
    // general path is out of line (`seal_any`, `open_any`).
    #[inline]
    fn seal_data(&self, nonce: &[u8], aad: &[u8], data: Data<'_>) -> Result<Tag, Error> {
        let nonce = check_nonce(nonce)?;
        let mut data = data;
        let tag = match self
            .engine
            .siv_whole(&self.kgk, nonce, aad, data.reborrow(), None)
        {
            Some(tag) => tag?,
            None => self.seal_any(nonce, aad, data.into_in_place())?,
        };
        Ok(Tag::truncate(tag, TAG_LEN))
    }

    /// The kernels decrypt and return the plaintext's tag (from the ciphertext into a
    /// separate destination without copying it there first); their derived key never
    /// leaves them, so to restore (`aes-gcm-siv`'s contract, for `gcmkit::compat`) a
    /// ciphertext of at most [`RESTORE_KEPT`] bytes is kept on the stack (it is public)
    /// and put back. The general path re-applies the keystream.
    #[inline]
    fn open_data(&self, o: Opening<'_>) -> Result<(), Error> {
        let (nonce, aad, mut data, tag, on_failure) = (o.nonce, o.aad, o.data, o.tag, o.on_failure);
        let nonce = check_nonce(nonce)?;
        let received = full_tag(tag)?;
        let small = match on_failure {
            // The 16-byte tags compared as one 128-bit difference (`tag::ct_eq_full`; a
            // `Tag` built and compared byte by byte was about 90 instructions a message).
            OnFailure::Zero => self
                .engine
                .siv_whole(&self.kgk, nonce, aad, data.reborrow(), Some(received))
                .map(|expected| verified(data.dst(), crate::tag::ct_eq_full(&expected?, tag))),
            OnFailure::Restore => {
                let buf = data.reborrow().into_in_place();
                self.open_small_restoring(nonce, aad, buf, received)
            }
        };
        match small {
            Some(outcome) => outcome,
            None => self.open_any(nonce, aad, data.into_in_place(), tag, on_failure),
        }
    }
}

impl AesGcmSiv {
    /// Encryption on the general path (the portable engine): DeriveKey into a key
    /// object, then GCM-SIV+.
    #[inline(never)]
    fn seal_any(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> Result<[u8; 16], Error> {
        let mut k = DerivedKeys::empty();
        self.derive_into(nonce, hashed_blocks(aad.len(), buf.len()), &mut k)?;
        plus(self.engine, &k.auth, &k.enc).seal(nonce, aad, buf)
    }

    /// Decryption on the general path (the portable engine; `Restore` above
    /// [`RESTORE_KEPT`] bytes).
    #[inline(never)]
    fn open_any(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
        on_failure: OnFailure,
    ) -> Result<(), Error> {
        let mut k = DerivedKeys::empty();
        self.derive_into(nonce, hashed_blocks(aad.len(), buf.len()), &mut k)?;
        plus(self.engine, &k.auth, &k.enc).open(nonce, aad, buf, tag, on_failure)
    }
}

/// Largest ciphertext whose copy AES-GCM-SIV's restoring decryption keeps on the stack
/// to put back on failure (larger ones take the general path, which re-applies the
/// keystream).
const RESTORE_KEPT: usize = 384;

impl AesGcmSiv {
    /// The one-body kernels with the ciphertext kept and put back on failure; `None` if
    /// it is longer than [`RESTORE_KEPT`] or the engine is the portable one.
    fn open_small_restoring(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        received: &[u8; 16],
    ) -> Option<Result<(), Error>> {
        if buf.len() > RESTORE_KEPT {
            return None;
        }
        let mut keep = [0u8; RESTORE_KEPT];
        let n = buf.len();
        keep[..n].copy_from_slice(buf);
        let expected =
            self.engine
                .siv_whole(&self.kgk, nonce, aad, Data::InPlace(buf), Some(received))?;
        Some(match expected {
            Ok(t) if crate::tag::ct_eq_full(&t, received) => Ok(()),
            Ok(_) => {
                buf.copy_from_slice(&keep[..n]);
                Err(Error::AuthenticationFailed)
            }
            Err(e) => {
                buf.copy_from_slice(&keep[..n]);
                Err(e)
            }
        })
    }
}
