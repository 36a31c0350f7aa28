//! AES-GCM as OpenSSL 3.0's provider implements it (ciphercommon_gcm.c): the same states,
//! parameters, errors and TLS record paths, with gcmkit doing the cryptography
//! (`hazmat::GcmStream` for streaming, the one-shot AEAD for TLS 1.2 records).

use crate::ffi::{self, raise};
use crate::io::Io;
use crate::params::{self, Requests, Settings};
use crate::stats;
use gcmkit::hazmat::GcmStream;
use gcmkit::AeadMode;
use zeroize::Zeroizing;

/// OpenSSL's GCM IV buffer: IVs of 1 to 128 bytes.
const MAX_IV: usize = 128;
const TLS1_AAD_LEN: usize = 13;
const TLS_FIXED_IV_LEN: usize = 4;
const TLS_EXPLICIT_IV_LEN: usize = 8;
const TLS_TAG_LEN: usize = 16;
const GCM_IV_DEFAULT_SIZE: usize = 12;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum IvState {
    Uninitialised,
    /// Set by the caller, not yet given to the GCM state.
    Buffered,
    /// The GCM state runs on it.
    Copied,
    /// The message ended: no reuse.
    Finished,
}

/// One EVP_CIPHER_CTX's state.
#[derive(Clone)]
pub struct GcmCtx {
    keylen: usize,
    enc: bool,
    stream: Option<GcmStream>,
    /// The key bytes behind `stream` (to recognise the same key set again).
    key: Zeroizing<[u8; 32]>,
    iv: [u8; MAX_IV],
    ivlen: usize,
    iv_state: IvState,
    iv_gen: bool,
    /// The decryption tag's length once set, or 16 after an encryption.
    taglen: Option<usize>,
    /// The tag (computed, or given for decryption).
    tag: [u8; 16],
    /// The TLS 1.2 record's AAD, when `tlsaad` was set (the record path is active).
    tls_aad: Option<[u8; TLS1_AAD_LEN]>,
    tls_aad_pad_sz: usize,
    tls_enc_records: u64,
}

impl Drop for GcmCtx {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.tag);
    }
}

impl GcmCtx {
    pub fn new(keylen: usize) -> Self {
        GcmCtx {
            keylen,
            enc: false,
            stream: None,
            key: Zeroizing::new([0; 32]),
            iv: [0; MAX_IV],
            ivlen: TLS_FIXED_IV_LEN + TLS_EXPLICIT_IV_LEN,
            iv_state: IvState::Uninitialised,
            iv_gen: false,
            taglen: None,
            tag: [0; 16],
            tls_aad: None,
            tls_aad_pad_sz: 0,
            tls_enc_records: 0,
        }
    }

    fn alg(&self) -> usize {
        stats::index(false, self.keylen)
    }

    pub fn init(&mut self, key: Option<&[u8]>, iv: Option<&[u8]>, enc: bool, p: Settings) -> bool {
        self.enc = enc;
        if let Some(iv) = iv {
            if iv.is_empty() || iv.len() > MAX_IV {
                raise(ffi::PROV_R_INVALID_IV_LENGTH, c"gcm_init");
                return false;
            }
            self.ivlen = iv.len();
            self.iv[..iv.len()].copy_from_slice(iv);
            self.iv_state = IvState::Buffered;
        }
        if let Some(key) = key {
            if key.len() != self.keylen {
                raise(ffi::PROV_R_INVALID_KEY_LENGTH, c"gcm_init");
                return false;
            }
            // Callers that pass the same key with every message (openssl speed's AEAD
            // loop, applications re-initialising one context) keep the expanded key and
            // powers of H instead of computing them again.
            //
            // Timing, by design: an init with the context's previous key is faster than
            // one with another key, so its time tells whether the two keys were equal. It
            // tells nothing more: `same_key` compares every byte in time independent of
            // them, so the answer is about the whole key, never a byte or a prefix. A
            // caller who could choose keys for a context holding a secret one learns, per
            // init, whether one whole-key guess was right (brute force, 2^128 guesses or
            // more); a caller who cannot learns only whether its own two inits used one key.
            // Always expanding would cost every re-init the key schedule and the powers of
            // H (openssl speed's AEAD loop re-inits per message).
            if self.stream.is_none() || !same_key(&self.key[..self.keylen], key) {
                match gcmkit::AesGcm::new(key) {
                    Ok(g) => self.stream = Some(GcmStream::new(g)),
                    Err(_) => return false,
                }
                self.key[..key.len()].copy_from_slice(key);
            }
            self.tls_enc_records = 0;
        }
        self.set_ctx_params(p)
    }

    /// `hw->setiv`: the GCM state starts a message under the current IV.
    fn setiv(&mut self) -> bool {
        let (enc, ivlen) = (self.enc, self.ivlen);
        match self.stream.as_mut() {
            Some(s) => s.start(&self.iv[..ivlen], !enc).is_ok(),
            None => false,
        }
    }

    /// `gcm_iv_generate`: a random IV of at least 96 bits from `offset` on.
    fn iv_generate(&mut self, offset: usize) -> bool {
        if self.ivlen <= offset || self.ivlen < GCM_IV_DEFAULT_SIZE {
            return false;
        }
        if getrandom::fill(&mut self.iv[offset..self.ivlen]).is_err() {
            return false;
        }
        self.iv_state = IvState::Buffered;
        true
    }

    /// `gcm_cipher_internal`: the length produced, or None on failure.
    fn cipher_internal(&mut self, io: Io<'_>) -> Option<usize> {
        if self.tls_aad.is_some() {
            return self.tls_cipher(io);
        }
        if self.stream.is_none() || self.iv_state == IvState::Finished {
            return None;
        }
        if self.iv_state == IvState::Uninitialised && (!self.enc || !self.iv_generate(0)) {
            return None;
        }
        if self.iv_state == IvState::Buffered {
            if !self.setiv() {
                return None;
            }
            self.iv_state = IvState::Copied;
        }
        let stream = self.stream.as_mut()?;
        match io {
            Io::Aad(a) => {
                stream.aad(a).ok()?;
                Some(a.len())
            }
            Io::Data(d) => {
                // Longer than any AES-GCM message: refused before the copy.
                let buf = d.into_buf_at_most(gcmkit::limits::GCM_MAX_PLAINTEXT)?;
                stream.update(buf).ok()?;
                Some(buf.len())
            }
            Io::Final => {
                // The tag must be set before decrypting.
                if !self.enc && self.taglen.is_none() {
                    raise(ffi::PROV_R_TAG_NOT_SET, c"gcm_cipher_internal");
                    return None;
                }
                let taglen = self.taglen.unwrap_or(16);
                if self.enc {
                    let t = stream.tag().ok()?;
                    self.tag.copy_from_slice(t.as_ref());
                    self.taglen = Some(16);
                } else {
                    stream.verify(&self.tag[..taglen]).ok()?;
                }
                self.iv_state = IvState::Finished;
                stats::record(self.alg(), self.enc);
                Some(0)
            }
        }
    }

    /// `OSSL_FUNC_cipher_update`: `inl` bytes of AAD or data (`in == NULL` with a
    /// length finishes the message, as in OpenSSL; a zero length does nothing).
    pub fn update(&mut self, io: Io<'_>, inl: usize, outsize: usize, outl: &mut usize) -> bool {
        if inl == 0 {
            *outl = 0;
            return true;
        }
        if outsize < inl {
            raise(
                ffi::PROV_R_OUTPUT_BUFFER_TOO_SMALL,
                c"ossl_gcm_stream_update",
            );
            return false;
        }
        match self.cipher_internal(io) {
            Some(n) => {
                *outl = n;
                true
            }
            None => {
                *outl = 0;
                raise(
                    ffi::PROV_R_CIPHER_OPERATION_FAILED,
                    c"ossl_gcm_stream_update",
                );
                false
            }
        }
    }

    /// `OSSL_FUNC_cipher_final`.
    pub fn finalize(&mut self, outl: &mut usize) -> bool {
        if self.cipher_internal(Io::Final).is_none() {
            return false;
        }
        *outl = 0;
        true
    }

    /// `OSSL_FUNC_cipher_cipher` (EVP_Cipher).
    pub fn cipher(&mut self, io: Io<'_>, inl: usize, outsize: usize, outl: &mut usize) -> bool {
        if outsize < inl {
            raise(ffi::PROV_R_OUTPUT_BUFFER_TOO_SMALL, c"ossl_gcm_cipher");
            return false;
        }
        if self.cipher_internal(io).is_none() {
            return false;
        }
        *outl = inl;
        true
    }

    /// `gcm_tls_cipher`: one TLS 1.2 record in place: explicit nonce (8 bytes), payload,
    /// tag (16 bytes).
    fn tls_cipher(&mut self, io: Io<'_>) -> Option<usize> {
        let r = self.tls_record(io);
        self.iv_state = IvState::Finished;
        self.tls_aad = None;
        r
    }

    fn tls_record(&mut self, io: Io<'_>) -> Option<usize> {
        self.stream.as_ref()?;
        let Io::Data(d) = io else { return None };
        if !d.in_place() || d.len() < TLS_EXPLICIT_IV_LEN + TLS_TAG_LEN {
            return None;
        }
        // No record longer than an AES-GCM message: refused before a slice is made of it.
        let most = gcmkit::limits::GCM_MAX_PLAINTEXT + (TLS_EXPLICIT_IV_LEN + TLS_TAG_LEN) as u64;
        if d.len() as u64 > most {
            return None;
        }
        if self.enc {
            self.tls_enc_records = self.tls_enc_records.wrapping_add(1);
            if self.tls_enc_records == 0 {
                raise(ffi::PROV_R_TOO_MANY_RECORDS, c"gcm_tls_cipher");
                return None;
            }
        }
        let rec = d.into_buf();
        let (explicit, rest) = rec.split_at_mut(TLS_EXPLICIT_IV_LEN);
        let ok = if self.enc {
            self.getivgen(explicit)
        } else {
            self.setivinv(explicit)
        };
        if !ok {
            return None;
        }
        let aad = self.tls_aad?;
        let n = rest.len() - TLS_TAG_LEN;
        let (payload, tag) = rest.split_at_mut(n);
        // The record's IV: the fixed part and this record's explicit nonce (getivgen has
        // already advanced the context's IV for the next record).
        let mut iv = [0u8; MAX_IV];
        let fixed = self.ivlen - TLS_EXPLICIT_IV_LEN;
        iv[..fixed].copy_from_slice(&self.iv[..fixed]);
        iv[fixed..self.ivlen].copy_from_slice(explicit);
        let iv = &iv[..self.ivlen];
        let gcm = self.stream.as_ref()?.key();
        if self.enc {
            let t = gcm.encrypt_in_place_detached(iv, &aad, payload).ok()?;
            tag.copy_from_slice(t.as_ref());
        } else {
            // gcmkit zeroes the payload when the tag fails (OpenSSL cleanses it too).
            gcm.decrypt_in_place_detached(iv, &aad, payload, tag).ok()?;
        }
        stats::record(self.alg(), self.enc);
        Some(if self.enc { rec_len(n) } else { n })
    }

    /// `getivgen`: the invocation field of the IV into `out`, then increments it.
    fn getivgen(&mut self, out: &mut [u8]) -> bool {
        if !self.iv_gen || self.stream.is_none() || !self.setiv() {
            return false;
        }
        let olen = if out.is_empty() || out.len() > self.ivlen {
            self.ivlen
        } else {
            out.len()
        };
        let ivlen = self.ivlen;
        out[..olen].copy_from_slice(&self.iv[ivlen - olen..ivlen]);
        // The invocation field is at least 8 bytes: increment its last 8 (big-endian).
        let ctr = &mut self.iv[ivlen - 8..ivlen];
        let v = u64::from_be_bytes(ctr.try_into().expect("8 bytes")).wrapping_add(1);
        ctr.copy_from_slice(&v.to_be_bytes());
        self.iv_state = IvState::Copied;
        true
    }

    /// `setivinv`: the explicit part of a received record's IV.
    fn setivinv(&mut self, inv: &[u8]) -> bool {
        if !self.iv_gen || self.stream.is_none() || self.enc || inv.len() > self.ivlen {
            return false;
        }
        let ivlen = self.ivlen;
        self.iv[ivlen - inv.len()..ivlen].copy_from_slice(inv);
        if !self.setiv() {
            return false;
        }
        self.iv_state = IvState::Copied;
        true
    }

    /// `gcm_tls_init`: saves the record's AAD with its length corrected for the explicit
    /// nonce (and the tag when decrypting); the padding the record needs (16), or 0.
    fn tls_init(&mut self, aad: &[u8]) -> usize {
        if aad.len() != TLS1_AAD_LEN {
            return 0;
        }
        let mut buf = [0u8; TLS1_AAD_LEN];
        buf.copy_from_slice(aad);
        self.tls_aad = Some(buf);
        let mut len = usize::from(u16::from_be_bytes([buf[11], buf[12]]));
        if len < TLS_EXPLICIT_IV_LEN {
            return 0;
        }
        len -= TLS_EXPLICIT_IV_LEN;
        if !self.enc {
            if len < TLS_TAG_LEN {
                return 0;
            }
            len -= TLS_TAG_LEN;
        }
        buf[11..].copy_from_slice(&(len as u16).to_be_bytes());
        self.tls_aad = Some(buf);
        TLS_TAG_LEN
    }

    /// `gcm_tls_iv_set_fixed`.
    fn tls_iv_set_fixed(&mut self, p: &params::In) -> bool {
        if p.data_size() == usize::MAX {
            // -1: restore the whole IV.
            let Some(iv) = p.leading_octets(self.ivlen) else {
                return false;
            };
            let n = self.ivlen;
            self.iv[..n].copy_from_slice(iv);
            self.iv_gen = true;
            self.iv_state = IvState::Buffered;
            return true;
        }
        let len = p.data_size();
        if len < TLS_FIXED_IV_LEN || len > self.ivlen || self.ivlen - len < TLS_EXPLICIT_IV_LEN {
            return false;
        }
        let Some(fixed) = p.octets() else {
            return false;
        };
        self.iv[..len].copy_from_slice(fixed);
        if self.enc {
            let n = self.ivlen;
            if getrandom::fill(&mut self.iv[len..n]).is_err() {
                return false;
            }
        }
        self.iv_gen = true;
        self.iv_state = IvState::Buffered;
        true
    }

    /// `ossl_gcm_get_ctx_params`.
    pub fn get_ctx_params(&mut self, p: Requests) -> bool {
        const F: &core::ffi::CStr = c"ossl_gcm_get_ctx_params";
        let failed_set = || {
            raise(ffi::PROV_R_FAILED_TO_SET_PARAMETER, F);
            false
        };
        // EVP_CipherInit_ex asks for the IV length and the key length, one parameter per
        // call, on every message: those two questions are answered before the general
        // walk (with the answers it gives).
        if let Some(q) = p.sole(ffi::PARAM_IVLEN) {
            return q.set_size_t(self.ivlen) || failed_set();
        }
        if let Some(q) = p.sole(ffi::PARAM_KEYLEN) {
            return q.set_size_t(self.keylen) || failed_set();
        }
        let [ivlen, keylen, taglen, iv, updated_iv, pad, tag, ivgen] = p.find_all([
            ffi::PARAM_IVLEN,
            ffi::PARAM_KEYLEN,
            ffi::PARAM_AEAD_TAGLEN,
            ffi::PARAM_IV,
            ffi::PARAM_UPDATED_IV,
            ffi::PARAM_AEAD_TLS1_AAD_PAD,
            ffi::PARAM_AEAD_TAG,
            ffi::PARAM_AEAD_TLS1_GET_IV_GEN,
        ]);
        if let Some(q) = ivlen {
            if !q.set_size_t(self.ivlen) {
                return failed_set();
            }
        }
        if let Some(q) = keylen {
            if !q.set_size_t(self.keylen) {
                return failed_set();
            }
        }
        if let Some(q) = taglen {
            if !q.set_size_t(self.taglen.unwrap_or(16)) {
                return failed_set();
            }
        }
        for q in [iv, updated_iv].into_iter().flatten() {
            if self.iv_state == IvState::Uninitialised {
                return false;
            }
            if self.ivlen > q.data_size() {
                raise(ffi::PROV_R_INVALID_IV_LENGTH, F);
                return false;
            }
            if !q.set_octets_or_ptr(&self.iv[..self.ivlen]) {
                return failed_set();
            }
        }
        if let Some(q) = pad {
            if !q.set_size_t(self.tls_aad_pad_sz) {
                return failed_set();
            }
        }
        if let Some(q) = tag {
            let sz = q.data_size();
            if sz == 0 || sz > TLS_TAG_LEN || !self.enc || self.taglen.is_none() {
                raise(ffi::PROV_R_INVALID_TAG, F);
                return false;
            }
            if !q.set_octets(&self.tag[..sz]) {
                return failed_set();
            }
        }
        if let Some(mut q) = ivgen {
            if q.data_type() != ffi::OSSL_PARAM_OCTET_STRING || !q.has_data() {
                return false;
            }
            let mut out = [0u8; MAX_IV];
            let n = q.data_size().min(MAX_IV);
            if !self.getivgen(&mut out[..n]) {
                return false;
            }
            let olen = if n == 0 || n > self.ivlen {
                self.ivlen
            } else {
                n
            };
            match q.octets_mut() {
                Some(dst) if dst.len() >= olen => dst[..olen].copy_from_slice(&out[..olen]),
                _ => return false,
            }
        }
        true
    }

    /// `ossl_gcm_set_ctx_params`.
    pub fn set_ctx_params(&mut self, p: Settings) -> bool {
        const F: &core::ffi::CStr = c"ossl_gcm_set_ctx_params";
        // The IV length alone (EVP_CTRL_AEAD_SET_IVLEN, before every message in `openssl
        // speed`'s loop) skips the general walk, as does a lone setting of another's.
        if let Some(q) = p.sole(ffi::PARAM_IVLEN) {
            return self.set_ivlen(&q);
        }
        let known = [
            ffi::PARAM_AEAD_TAG,
            ffi::PARAM_IVLEN,
            ffi::PARAM_AEAD_TLS1_AAD,
            ffi::PARAM_AEAD_TLS1_IV_FIXED,
            ffi::PARAM_AEAD_TLS1_SET_IV_INV,
        ];
        // Nothing of ours (EVP_CipherInit_ex's `padding`, every message): nothing to do.
        if p.sole_other(known) {
            return true;
        }
        let [tag, ivlen, tlsaad, ivfixed, ivinv] = p.find_all(known);
        if let Some(q) = tag {
            let mut buf = [0u8; TLS_TAG_LEN];
            let Some(sz) = q.get_octets_into(&mut buf) else {
                raise(ffi::PROV_R_FAILED_TO_GET_PARAMETER, F);
                return false;
            };
            self.tag = buf;
            if sz == 0 || self.enc {
                raise(ffi::PROV_R_INVALID_TAG, F);
                return false;
            }
            self.taglen = Some(sz);
        }
        if let Some(q) = ivlen {
            if !self.set_ivlen(&q) {
                return false;
            }
        }
        if let Some(q) = tlsaad {
            if q.data_type() != ffi::OSSL_PARAM_OCTET_STRING {
                raise(ffi::PROV_R_FAILED_TO_GET_PARAMETER, F);
                return false;
            }
            let sz = q.octets().map_or(0, |a| self.tls_init(a));
            if sz == 0 {
                raise(ffi::PROV_R_INVALID_AAD, F);
                return false;
            }
            self.tls_aad_pad_sz = sz;
        }
        if let Some(q) = ivfixed {
            if q.data_type() != ffi::OSSL_PARAM_OCTET_STRING {
                raise(ffi::PROV_R_FAILED_TO_GET_PARAMETER, F);
                return false;
            }
            if !self.tls_iv_set_fixed(&q) {
                raise(ffi::PROV_R_FAILED_TO_GET_PARAMETER, F);
                return false;
            }
        }
        if let Some(q) = ivinv {
            if q.data_type() != ffi::OSSL_PARAM_OCTET_STRING {
                return false;
            }
            match q.octets() {
                Some(inv) if self.setivinv(inv) => {}
                _ => return false,
            }
        }
        true
    }

    /// The `ivlen` setting of `ossl_gcm_set_ctx_params`.
    fn set_ivlen(&mut self, q: &params::In) -> bool {
        const F: &core::ffi::CStr = c"ossl_gcm_set_ctx_params";
        let Some(sz) = q.get_size_t() else {
            raise(ffi::PROV_R_FAILED_TO_GET_PARAMETER, F);
            return false;
        };
        if sz == 0 || sz > MAX_IV {
            raise(ffi::PROV_R_INVALID_IV_LENGTH, F);
            return false;
        }
        if self.ivlen != sz {
            // An IV already set or generated is invalid at another length.
            if self.iv_state != IvState::Uninitialised {
                self.iv_state = IvState::Finished;
            }
            self.ivlen = sz;
        }
        true
    }
}

/// Whether two keys of the same length are equal, in time independent of their bytes.
/// (Keys are 16, 24 or 32 bytes: compared 8 bytes at a time.)
fn same_key(a: &[u8], b: &[u8]) -> bool {
    let ((wa, ra), (wb, rb)) = (a.as_chunks::<8>(), b.as_chunks::<8>());
    let diff = wa.iter().zip(wb).fold(0u64, |d, (x, y)| {
        d | (u64::from_ne_bytes(*x) ^ u64::from_ne_bytes(*y))
    });
    a.len() == b.len() && ra.is_empty() && rb.is_empty() && core::hint::black_box(diff) == 0
}

/// A whole TLS 1.2 record's length from its payload's.
fn rec_len(payload: usize) -> usize {
    payload + TLS_EXPLICIT_IV_LEN + TLS_TAG_LEN
}

/// `cipher_aead_known_gettable_ctx_params` (OpenSSL 3.0).
pub static GETTABLE_CTX: ffi::Shared<[ffi::OsslParam; 9]> = ffi::Shared([
    params::size_t(ffi::PARAM_KEYLEN),
    params::size_t(ffi::PARAM_IVLEN),
    params::size_t(ffi::PARAM_AEAD_TAGLEN),
    params::octets(ffi::PARAM_IV),
    params::octets(ffi::PARAM_UPDATED_IV),
    params::octets(ffi::PARAM_AEAD_TAG),
    params::size_t(ffi::PARAM_AEAD_TLS1_AAD_PAD),
    params::octets(ffi::PARAM_AEAD_TLS1_GET_IV_GEN),
    params::END,
]);

/// `cipher_aead_known_settable_ctx_params` (OpenSSL 3.0).
pub static SETTABLE_CTX: ffi::Shared<[ffi::OsslParam; 6]> = ffi::Shared([
    params::size_t(ffi::PARAM_IVLEN),
    params::octets(ffi::PARAM_AEAD_TAG),
    params::octets(ffi::PARAM_AEAD_TLS1_AAD),
    params::octets(ffi::PARAM_AEAD_TLS1_IV_FIXED),
    params::octets(ffi::PARAM_AEAD_TLS1_SET_IV_INV),
    params::END,
]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::Data;

    /// An update longer than any AES-GCM message (2^36 - 32 bytes) is refused before the
    /// input is copied into the output, both ways (before: a segmentation fault).
    #[test]
    fn an_oversized_update_is_refused_before_the_copy() {
        for enc in [true, false] {
            let mut c: GcmCtx = crate::io::keyed(16, enc);
            crate::io::refuses_oversized_claim(|io, n| c.update(io, n, n, &mut 0));
        }
    }

    /// The TLS 1.2 record path (in place) refuses a record longer than any AES-GCM message
    /// from its length, both ways, and takes an honest record. (Before, encryption wrote
    /// the record's explicit nonce first and then failed.)
    #[test]
    fn an_oversized_tls_record_is_refused() {
        for enc in [true, false] {
            let mut c: GcmCtx = crate::io::keyed(16, enc);
            let mut aad = [0u8; TLS1_AAD_LEN];
            aad[11..].copy_from_slice(&40u16.to_be_bytes());
            c.iv_gen = true; // as a whole-IV `tls1_iv_fixed` (-1) sets it
            let mut rec = [0u8; 40];
            for claim in [(1usize << 36) + 64, 1 << 40, isize::MAX as usize] {
                // (Each record has its own `tlsaad`, as OpenSSL's TLS code sets it.)
                assert_eq!(c.tls_init(&aad), TLS_TAG_LEN);
                // SAFETY: deliberately not: the claim is far past the 40-byte record, and
                // must be refused from the length alone.
                let io = Io::Data(unsafe { Data::new(rec.as_mut_ptr(), rec.as_ptr(), claim) });
                assert!(
                    !c.update(io, claim, claim, &mut 0),
                    "claim {claim:#x} accepted"
                );
                assert_eq!(rec, [0u8; 40]);
            }
            if enc {
                assert_eq!(c.tls_init(&aad), TLS_TAG_LEN);
                // SAFETY: the record holds the 40 bytes claimed.
                let io = Io::Data(unsafe { Data::new(rec.as_mut_ptr(), rec.as_ptr(), 40) });
                assert!(c.update(io, 40, 40, &mut 0), "an honest record was refused");
            }
        }
    }
}
