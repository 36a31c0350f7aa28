//! AES-GCM (NIST SP 800-38D; McGrew-Viega spec sec. 2) and GMAC.
//!
//! gcmkit's exact rules (the seed conventions, shared/docs/seed-conventions.md): keys of 16, 24 or 32 bytes; IVs of any length
//! from 1 byte (12 bytes take the fast path Y0 = IV || 0^31 1, others
//! Y0 = GHASH(H, {}, IV)); tags of 16, 15, 14, 13, 12, 8 or 4 bytes; plaintext at most
//! 2^36 - 32 bytes and AAD at most 2^61 - 1 bytes; the counter is incremented in its
//! rightmost 32 bits modulo 2^32 (which really wraps for IVs other than 12 bytes).

mod gmac;
pub(crate) mod gprf;
#[cfg(feature = "alloc")]
pub(crate) mod incremental;
#[cfg(feature = "alloc")]
pub(crate) mod online;
#[cfg(all(feature = "table-strategies", feature = "alloc"))]
pub(crate) mod tables_mode;
pub use gmac::Gmac;
#[cfg(feature = "alloc")]
pub use incremental::IncrementalGmac;
#[cfg(feature = "alloc")]
pub use online::{AadPrefix, GcmDecryptor, GcmEncryptor, UnverifiedGcmDecryptor};

use crate::aes::RoundKeys;
use crate::engine::{Counter, Data, Engine, Kernels, RoundOne};
use crate::error::Error;
use crate::field::{Flavor, HashKey};
use crate::mode::{sealed::Core, Limits, OnFailure, Opening};
use crate::spec::gcm::{iv96_block, length_block as gcm_length_block};
use crate::tag::Tag;
use zeroize::Zeroize;

/// Largest plaintext: 2^39 - 256 bits.
pub const MAX_PLAINTEXT: u64 = (1 << 36) - 32;
/// Largest AAD: 2^64 - 1 bits, rounded down to whole bytes.
pub const MAX_AAD: u64 = (1 << 61) - 1;
/// Largest IV (as for the AAD).
pub const MAX_IV: u64 = (1 << 61) - 1;
/// The tag lengths SP 800-38D allows.
pub const TAG_LENGTHS: [usize; 7] = [16, 15, 14, 13, 12, 8, 4];

/// The block an IV names, as GCM forms Y0 and GPRF its C_0: a 96-bit IV is IV || `start`
/// (a 32-bit big-endian counter: GCM 1, GPRF 0); any other length is
/// GHASH(H, {}, IV) = GHASH of IV padded, then 0^64 || bitlen(IV). IVs of 1 to 2^61 - 1 bytes.
/// `ghash(acc, data)` absorbs zero-padded data into a GHASH accumulator (an engine's or a
/// table method's).
pub(crate) fn iv_block(
    iv: &[u8],
    start: u32,
    mut ghash: impl FnMut(&mut u128, &[u8]),
) -> Result<[u8; 16], Error> {
    if iv.is_empty() || iv.len() as u64 > MAX_IV {
        return Err(Error::InvalidNonceLength {
            got: iv.len(),
            expected: "1 to 2^61 - 1",
        });
    }
    if let Ok(iv) = <&[u8; 12]>::try_from(iv) {
        return Ok(iv96_block(iv, start));
    }
    let mut acc = 0u128;
    ghash(&mut acc, iv);
    ghash(&mut acc, &gcm_length_block(0, iv.len() as u64));
    Ok(acc.to_be_bytes())
}

/// Powers of H a key used for one message needs on `engine`: every block hashed when the
/// message has at most `POWERS` blocks with its length block (a one-batch message
/// multiplies block b by H^(k-b) for all k blocks); else one more than the one-body
/// kernels' batch (`Kernels::gcm_lean`), and at least the portable engine's 8 blocks per
/// reduction. Each power costs a multiplication per message.
pub(crate) fn powers_for(engine: Kernels, aad_len: usize, data_len: usize) -> usize {
    let blocks = aad_len
        .div_ceil(16)
        .saturating_add(data_len.div_ceil(16))
        .saturating_add(1);
    if blocks <= crate::field::POWERS {
        blocks
    } else {
        (engine.lean_blocks() + 1).max(8)
    }
}

/// Bit `n` set for each length `n` in [`TAG_LENGTHS`]: one shift and test per call
/// instead of a search of the list (it runs on every decryption).
const TAG_LENGTH_BITS: u32 = {
    let mut bits = 0u32;
    let mut i = 0;
    while i < TAG_LENGTHS.len() {
        bits |= 1 << TAG_LENGTHS[i];
        i += 1;
    }
    bits
};

#[inline]
pub(crate) fn check_tag_len(len: usize) -> Result<usize, Error> {
    if len < 32 && TAG_LENGTH_BITS & (1 << len) != 0 {
        Ok(len)
    } else {
        Err(Error::InvalidTagLength {
            got: len,
            expected: "16, 15, 14, 13, 12, 8 or 4",
        })
    }
}

/// Key material of one AES-GCM key: round keys, the GHASH key and the engine, and for
/// a long-term key on an engine that uses one, the AES round-one table of its counter
/// blocks ([`RoundOne`]; [`Self::with_round_one`]).
#[derive(Clone, Debug)]
pub(crate) struct GcmKey {
    pub(crate) aes: RoundKeys,
    pub(crate) h: HashKey,
    pub(crate) engine: Kernels,
    #[cfg(feature = "alloc")]
    round_one: Option<alloc::boxed::Box<RoundOne>>,
}

impl GcmKey {
    pub(crate) fn new(key: &[u8], engine: Kernels) -> Result<Self, Error> {
        let mut k = Self::empty(engine);
        k.fill(key, crate::field::POWERS)?;
        Ok(k)
    }

    /// An all-zero key to be filled in place with [`Self::fill`].
    pub(crate) fn empty(engine: Kernels) -> Self {
        GcmKey {
            aes: RoundKeys::empty(),
            h: HashKey::empty(Flavor::Ghash),
            engine,
            #[cfg(feature = "alloc")]
            round_one: None,
        }
    }

    /// The key with its round-one table, if its engine uses one: for keys that encrypt
    /// many messages (the table costs 4 KiB and 256/LANES vector AES instructions to
    /// build, 64 on avx512: more than it saves in one message under 128 KiB). Keys derived
    /// per message (XAES-256-GCM, DNDK-GCM) go without.
    pub(crate) fn with_round_one(self) -> Self {
        #[cfg(feature = "alloc")]
        let round_one = self.engine.round_one(&self.aes);
        GcmKey {
            #[cfg(feature = "alloc")]
            round_one,
            ..self
        }
    }

    /// The round-one table, if the key has one.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn round_one(&self) -> Option<&RoundOne> {
        #[cfg(feature = "alloc")]
        {
            self.round_one.as_deref()
        }
        #[cfg(not(feature = "alloc"))]
        {
            None
        }
    }

    /// Expands `key` in place with `powers` powers of H: all of them for long-term keys,
    /// only what one message needs ([`powers_for`]) for keys derived per message. In
    /// place, because the key is large (1.3 KiB): moving it per message cost more than
    /// the key schedule.
    pub(crate) fn fill(&mut self, key: &[u8], powers: usize) -> Result<(), Error> {
        self.engine.expand_key_into(key, &mut self.aes)?;
        let mut h = [[0u8; 16]];
        self.engine.encrypt_blocks(&self.aes, &mut h);
        self.engine.hash_key_into(&mut self.h, &h[0], powers);
        h[0].zeroize();
        Ok(())
    }

    /// The pre-counter block Y0 (SP 800-38D's J0).
    pub(crate) fn y0(&self, iv: &[u8]) -> Result<[u8; 16], Error> {
        iv_block(iv, 1, |acc, d| self.engine.hash_update(&self.h, acc, d))
    }

    /// The counter kind for a nonce: `Be32Public` for 96-bit IVs (Y0 = IV || 1 is public),
    /// `Be32` otherwise (Y0 = GHASH_H(IV) depends on the key: no kernel may branch on it).
    pub(crate) fn counter_kind(iv: &[u8]) -> Counter {
        if iv.len() == 12 {
            Counter::Be32Public
        } else {
            Counter::Be32
        }
    }

    /// E(K, Y0), which masks the hash into the tag.
    pub(crate) fn tag_mask(&self, y0: &[u8; 16]) -> [u8; 16] {
        let mut b = [*y0];
        self.engine.encrypt_blocks(&self.aes, &mut b);
        b[0]
    }

    pub(crate) fn check_lengths(aad_len: usize, data_len: usize) -> Result<(), Error> {
        if data_len as u64 > MAX_PLAINTEXT {
            return Err(Error::MessageTooLong {
                len: data_len as u64,
                max: MAX_PLAINTEXT,
            });
        }
        if aad_len as u64 > MAX_AAD {
            return Err(Error::AadTooLong {
                len: aad_len as u64,
                max: MAX_AAD,
            });
        }
        Ok(())
    }

    #[cfg_attr(not(feature = "alloc"), allow(dead_code))] // on-line GCM
    pub(crate) fn finish(
        &self,
        y0: &[u8; 16],
        acc: u128,
        aad_len: usize,
        data_len: usize,
    ) -> [u8; 16] {
        self.engine
            .gcm_finish(&self.aes, &self.h, y0, acc, aad_len, data_len)
    }

    /// Encrypts `buf` in place; returns the full 16-byte tag.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))] // on-line and incremental GMAC
    pub(crate) fn seal(&self, iv: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<[u8; 16], Error> {
        self.seal_data(iv, aad, Data::InPlace(buf))
    }

    /// A message with a 96-bit IV that the engine's fused small-message kernel takes,
    /// whole in that one call (the full tag), or `None` (another IV length, a larger
    /// message, or no such kernel). Such a message is within every limit and its IV
    /// valid, so no check of [`Self::seal_data`] or [`Self::open_data`] can fail for it:
    /// skipping them here changes no outcome. Inlined into both, so that a small message
    /// costs the lengths' tests, one dispatch and the kernel (about 200 instructions of
    /// checks, `Result` and `Option` plumbing and calls between layers went before).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn small96(
        &self,
        iv: &[u8],
        aad: &[u8],
        data: &mut Data<'_>,
        decrypt: bool,
    ) -> Option<[u8; 16]> {
        let iv = <&[u8; 12]>::try_from(iv).ok()?;
        if !self.engine.uses_gcm_lean() {
            return None;
        }
        // The one-body kernels take every length: the limits are checked here (the
        // general path reports a failure).
        Self::check_lengths(aad.len(), data.len()).ok()?;
        self.engine.gcm_lean(
            &self.aes,
            &self.h,
            crate::spec::gcm::iv96_y0_le(iv),
            aad,
            data.reborrow(),
            decrypt,
            self.round_one(),
        )
    }

    /// Encrypts in place or from a source into a destination; returns the full tag.
    #[inline]
    pub(crate) fn seal_data(
        &self,
        iv: &[u8],
        aad: &[u8],
        mut data: Data<'_>,
    ) -> Result<[u8; 16], Error> {
        if let Some(tag) = self.small96(iv, aad, &mut data, false) {
            return Ok(tag);
        }
        self.seal_any(iv, aad, data)
    }

    /// [`Self::seal_data`] for any message: every check, then the kernels.
    #[inline(never)]
    fn seal_any(&self, iv: &[u8], aad: &[u8], mut data: Data<'_>) -> Result<[u8; 16], Error> {
        let len = data.dst().len();
        Self::check_lengths(aad.len(), len)?;
        let y0 = self.y0(iv)?;
        Ok(self.full_tag(iv, &y0, aad, data, false))
    }

    /// Encrypts the concatenation of `parts` into `out` (exactly as long as the parts
    /// together, checked by the caller) in one pass over the data; returns the full tag.
    /// Each part's whole blocks go from the part into `out` in one encryption update; a
    /// block that spans parts is gathered in `out` and encrypted there.
    pub(crate) fn seal_parts(
        &self,
        iv: &[u8],
        aad: &[u8],
        parts: &[&[u8]],
        out: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        Self::check_lengths(aad.len(), out.len())?;
        let y0 = self.y0(iv)?;
        let (e, aes, h) = (self.engine, &self.aes, &self.h);
        let mut acc = 0u128;
        e.hash_update(h, &mut acc, aad);
        let mut ctr = Counter::Be32.add(&y0, 1);
        // `out[..done]` is encrypted; `out[done..at]` holds gathered bytes of a block that
        // spans parts (fewer than 16).
        let (mut done, mut at) = (0, 0);
        for part in parts {
            let mut p = *part;
            if at > done {
                let n = (done + 16 - at).min(p.len());
                out[at..at + n].copy_from_slice(&p[..n]);
                (at, p) = (at + n, &p[n..]);
                if at - done < 16 {
                    continue;
                }
                e.gcm_update_seal(
                    aes,
                    h,
                    &mut ctr,
                    &mut acc,
                    Data::InPlace(&mut out[done..at]),
                );
                done = at;
            }
            let whole = p.len() / 16 * 16;
            if whole > 0 {
                let dst = &mut out[done..done + whole];
                e.gcm_update_seal(aes, h, &mut ctr, &mut acc, Data::Copy(&p[..whole], dst));
                done += whole;
            }
            let rest = &p[whole..];
            out[done..done + rest.len()].copy_from_slice(rest);
            at = done + rest.len();
        }
        if at > done {
            e.gcm_update_seal(
                aes,
                h,
                &mut ctr,
                &mut acc,
                Data::InPlace(&mut out[done..at]),
            );
        }
        Ok(e.gcm_finish(aes, h, &y0, acc, aad.len(), out.len()))
    }

    /// The whole message through the engine (`Kernels::gcm_message`): the one-body
    /// kernels on the hardware engines. Returns the full (untruncated) tag. Inlined:
    /// called out of line, it copied its `Data` argument with 16-byte loads of the
    /// caller's 8-byte stores, a failed store forwarding before every message's kernel
    /// (perf annotate, AES-128-GCM decrypt_into at 128 B; docs/history/refactor-26.md).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn full_tag(
        &self,
        iv: &[u8],
        y0: &[u8; 16],
        aad: &[u8],
        data: Data<'_>,
        decrypt: bool,
    ) -> [u8; 16] {
        self.engine.gcm_message(
            &self.aes,
            &self.h,
            y0,
            Self::counter_kind(iv),
            aad,
            data,
            decrypt,
            self.round_one(),
        )
    }

    /// Decrypts in place or from a source into a destination. On failure the destination
    /// is zeroed, or for [`OnFailure::Restore`] left as it was (the `aes-gcm` crate's
    /// contract, for `gcmkit::compat`): in place, the stitched one-pass kernel decrypts
    /// and on a tag mismatch the same keystream is applied again, restoring the ciphertext
    /// (a cost only on failure); into a separate destination, the tag is checked first and
    /// the destination written only if it verified.
    #[inline]
    pub(crate) fn open_data(&self, o: Opening<'_>) -> Result<(), Error> {
        let (iv, aad, mut data, tag) = (o.nonce, o.aad, o.data, o.tag);
        // A small message with a 96-bit IV: the tag length is the one check that can fail
        // (see `small96`), made first as below; then the kernel decrypts while it hashes.
        // `Restore` (the facades) keeps the general path's verify-first order.
        if o.on_failure == OnFailure::Zero && check_tag_len(tag.len()).is_ok() {
            if let Some(full) = self.small96(iv, aad, &mut data, true) {
                if crate::tag::ct_eq_full(&full, tag) {
                    return Ok(());
                }
                // The caller sees this buffer, so a plain fill cannot be optimized away.
                data.dst().fill(0);
                return Err(Error::AuthenticationFailed);
            }
        }
        self.open_any(Opening { data, ..o })
    }

    /// [`Self::open_data`] for any message and failure policy: every check, then the
    /// kernels.
    #[inline(never)]
    fn open_any(&self, o: Opening<'_>) -> Result<(), Error> {
        let (iv, aad, mut data, tag, on_failure) = (o.nonce, o.aad, o.data, o.tag, o.on_failure);
        let len = data.dst().len();
        Self::check_lengths(aad.len(), len)?;
        // Callers check the tag against their own length first (`mode::open`); a length
        // GCM never produces (an empty tag above all: it would compare nothing) is refused
        // here too.
        check_tag_len(tag.len())?;
        let y0 = self.y0(iv)?;
        if let (OnFailure::Restore, Data::Copy(src, dst)) = (on_failure, &mut data) {
            self.verify(&y0, aad, src, tag)?;
            dst.copy_from_slice(src);
            self.ctr_from_y0(iv, &y0, dst);
            return Ok(());
        }
        let full = self.full_tag(iv, &y0, aad, data.reborrow(), true);
        if crate::tag::ct_eq_full(&full, tag) {
            return Ok(());
        }
        match on_failure {
            // The caller sees this buffer, so a plain fill cannot be optimized away.
            OnFailure::Zero => data.dst().fill(0),
            OnFailure::Restore => self.ctr_from_y0(iv, &y0, data.dst()),
        }
        Err(Error::AuthenticationFailed)
    }

    /// Checks `tag` over the ciphertext `ct` without decrypting (for the verify-first
    /// order: nothing is written unless it verified).
    pub(crate) fn verify(
        &self,
        y0: &[u8; 16],
        aad: &[u8],
        ct: &[u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let mut acc = 0u128;
        self.engine.hash_update(&self.h, &mut acc, aad);
        self.engine.hash_update(&self.h, &mut acc, ct);
        let full = self
            .engine
            .gcm_finish(&self.aes, &self.h, y0, acc, aad.len(), ct.len());
        if Tag::truncate(full, tag.len()).ct_eq_slice(tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    /// Applies the message's keystream (counters from Y0 + 1) to `buf`.
    pub(crate) fn ctr_from_y0(&self, iv: &[u8], y0: &[u8; 16], buf: &mut [u8]) {
        let kind = Self::counter_kind(iv);
        self.engine.ctr_xor(&self.aes, kind, kind.add(y0, 1), buf);
    }
}

/// `aes-gcm`'s out-of-place decryption (for `gcmkit::compat`): the RustCrypto in/out
/// buffer lends its input and output one after the other, so the tag is checked over the
/// input first, with `mode::check_open`'s checks before that, and the output written only
/// if it verified.
#[cfg(feature = "compat")]
impl AesGcm {
    pub(crate) fn open_inout_verified_first(
        &self,
        iv: &[u8],
        aad: &[u8],
        buffer: aead::inout::InOutBuf<'_, '_, u8>,
        tag: &[u8],
    ) -> Result<(), Error> {
        crate::mode::check_open(self, aad.len(), buffer.len(), tag)?;
        let k = &self.key;
        let y0 = k.y0(iv)?;
        k.verify(&y0, aad, buffer.get_in(), tag)?;
        k.ctr_from_y0(iv, &y0, buffer.into_out_with_copied_in());
        Ok(())
    }
}

/// AES-GCM with a 16-, 24- or 32-byte key, any IV length and a chosen tag length.
///
/// ```
/// use gcmkit::AeadMode;
/// let key = [0x42u8; 16];
/// let gcm = gcmkit::AesGcm::new(&key)?;
/// let ct = gcm.encrypt(&[0u8; 12], b"hello", b"header")?;
/// assert_eq!(gcm.decrypt(&[0u8; 12], &ct, b"header")?, b"hello");
/// # Ok::<(), gcmkit::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct AesGcm {
    key: GcmKey,
    tag_len: usize,
}

impl AesGcm {
    /// A key object on the engine [`Engine::selected`] names.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_engine(key, Engine::selected()?)
    }

    /// A key object on a given engine (an error if the CPU lacks it).
    pub fn with_engine(key: &[u8], engine: Engine) -> Result<Self, Error> {
        Ok(AesGcm {
            key: GcmKey::new(key, engine.kernels()?)?.with_round_one(),
            tag_len: 16,
        })
    }

    /// The same key with tags of `len` bytes (16, 15, 14, 13, 12, 8 or 4).
    pub fn with_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.tag_len = check_tag_len(len)?;
        Ok(self)
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.tag_len
    }

    /// The engine this key object runs on.
    pub fn engine(&self) -> Engine {
        self.key.engine.engine()
    }

    /// Encrypts a plaintext given in several parts (the concatenation of `parts`) into
    /// `out`, which must be the parts' total length + [`Self::tag_len`] long (ciphertext,
    /// then tag): the same bytes as [`crate::AeadMode::encrypt_into`] of the concatenated
    /// plaintext, in one pass, without copying the parts together first. For records
    /// assembled from pieces, such as a TLS 1.3 record (its content, then its one-byte
    /// type) or a vectored write. Allocates nothing.
    ///
    /// ```
    /// use gcmkit::{AeadMode, AesGcm};
    /// let gcm = AesGcm::new(&[7u8; 16])?;
    /// let nonce = [1u8; 12];
    /// let (content, typ) = (&b"application data"[..], &[23u8][..]);
    /// let mut record = [0u8; 16 + 1 + 16];
    /// gcm.encrypt_parts_into(&nonce, &[content, typ], b"hdr", &mut record)?;
    /// assert_eq!(record.to_vec(), gcm.encrypt(&nonce, b"application data\x17", b"hdr")?);
    /// # Ok::<(), gcmkit::Error>(())
    /// ```
    pub fn encrypt_parts_into(
        &self,
        nonce: &[u8],
        parts: &[&[u8]],
        aad: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        let total = parts
            .iter()
            .try_fold(0usize, |n, p| n.checked_add(p.len()))
            .ok_or(Error::MessageTooLong {
                len: u64::MAX,
                max: MAX_PLAINTEXT,
            })?;
        crate::mode::check_buffer(out, total.saturating_add(self.tag_len))?;
        let (ct, tag_out) = out.split_at_mut(total);
        let full = self.key.seal_parts(nonce, aad, parts, ct)?;
        tag_out.copy_from_slice(Tag::truncate(full, self.tag_len).as_ref());
        Ok(())
    }
}

impl Core for AesGcm {
    #[inline]
    fn mode_limits(&self) -> Limits {
        Limits {
            tag_len: self.tag_len,
            max_aad: MAX_AAD,
            max_data: MAX_PLAINTEXT,
        }
    }

    // In place, or in one pass from the source into the destination (the out-of-place
    // kernels). Inlined (as `mode_limits`), so that the checks `mode::seal` and
    // `mode::open` make before fold into the small-message path's.
    //
    // A small message's tag is truncated on its own path: merged with the general
    // path's full tag (returned through memory) before the truncation, its 16 bytes went
    // through the stack, eight moves per call.
    #[inline]
    fn seal_data(&self, nonce: &[u8], aad: &[u8], mut data: Data<'_>) -> Result<Tag, Error> {
        if let Some(full) = self.key.small96(nonce, aad, &mut data, false) {
            return Ok(Tag::truncate(full, self.tag_len));
        }
        let full = self.key.seal_data(nonce, aad, data)?;
        Ok(Tag::truncate(full, self.tag_len))
    }

    #[inline]
    fn open_data(&self, o: Opening<'_>) -> Result<(), Error> {
        self.key.open_data(o)
    }
}

/// The intermediate values of the spec's Appendix B for one AES-GCM computation.
///
/// ```
/// use gcmkit::hazmat::gcm_trace;
/// use gcmkit::{AeadMode, AesGcm};
/// let (key, iv) = ([0u8; 16], [0u8; 12]);
/// let ct = AesGcm::new(&key)?.encrypt(&iv, b"", b"")?; // the spec's Test Case 1: a tag only
/// let t = gcm_trace(&key, &iv, b"", b"")?;
/// assert_eq!(t.h, 0x66e94bd4ef8a2c3b884cfa59ca342b2eu128.to_be_bytes());
/// assert_eq!(t.y0[15], 1); // 96-bit IV: Y0 = IV || 0^31 1
/// let tag: Vec<u8> = t.e_k_y0.iter().zip(&t.ghash).map(|(a, b)| a ^ b).collect();
/// assert_eq!(ct, tag);
/// # Ok::<(), gcmkit::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GcmTrace {
    /// The hash subkey H = E(K, 0^128).
    pub h: [u8; 16],
    /// The pre-counter block Y0.
    pub y0: [u8; 16],
    /// E(K, Y0), the tag mask.
    pub e_k_y0: [u8; 16],
    /// GHASH(H, A, C).
    pub ghash: [u8; 16],
}

/// Computes the Appendix B intermediates for key, IV, AAD and *ciphertext* (hazmat: it
/// returns H and E(K, Y0), which are secret).
pub fn trace(key: &[u8], iv: &[u8], aad: &[u8], ciphertext: &[u8]) -> Result<GcmTrace, Error> {
    let k = GcmKey::new(key, Engine::selected()?.kernels()?)?;
    GcmKey::check_lengths(aad.len(), ciphertext.len())?;
    let mut h = [[0u8; 16]];
    k.engine.encrypt_blocks(&k.aes, &mut h);
    let y0 = k.y0(iv)?;
    let mut acc = 0u128;
    k.engine.hash_update(&k.h, &mut acc, aad);
    k.engine.hash_update(&k.h, &mut acc, ciphertext);
    k.engine.hash_update(
        &k.h,
        &mut acc,
        &gcm_length_block(aad.len() as u64, ciphertext.len() as u64),
    );
    Ok(GcmTrace {
        h: h[0],
        y0,
        e_k_y0: k.tag_mask(&y0),
        ghash: acc.to_be_bytes(),
    })
}
