//! AES-GCM-SIV as OpenSSL 3.2's provider defines it (cipher_aes_gcm_siv.c): AAD
//! accumulates over updates (a zero-length AAD update clears it), one data update per
//! init does the whole message, the tag is read after encryption and set before
//! decryption, Final reports the tag check. gcmkit does the cryptography; unlike
//! OpenSSL's, a decryption whose tag fails releases zeros, not unverified plaintext.

use crate::ffi::{self, raise};
use crate::io::Io;
use crate::params::{self, Requests, Settings};
use crate::stats;
use gcmkit::{AeadMode, AesGcmSiv};
use zeroize::{Zeroize, Zeroizing};

const NONCE_LEN: usize = 12;
const TAG_LEN: usize = 16;
/// RFC 8452's limit on plaintext and AAD (OpenSSL checks the same bound).
const MAX_LEN: u64 = 1 << 36;

/// Room for `more` bytes in the buffered AAD, reserved fallibly: the usual doubling, or if
/// the process cannot have that, exactly what is needed; false if not even that (a
/// failed `Vec` growth aborted the application that loaded the provider: "memory
/// allocation of 8589934592 bytes failed" after 1 GiB AAD updates under a 6 GB limit).
/// The AAD is buffered because AES-GCM-SIV hashes it with the data, which comes in one
/// update after it; the cap is RFC 8452's 2^36 bytes, as OpenSSL's.
fn reserve(aad: &mut Vec<u8>, more: usize) -> bool {
    aad.try_reserve(more).is_ok() || aad.try_reserve_exact(more).is_ok()
}

#[derive(Clone)]
pub struct SivCtx {
    keylen: usize,
    enc: bool,
    key: Option<AesGcmSiv>,
    nonce: [u8; NONCE_LEN],
    aad: Zeroizing<Vec<u8>>,
    tag: [u8; TAG_LEN],
    user_tag: [u8; TAG_LEN],
    have_user_tag: bool,
    /// Encryption: a tag was computed. Decryption: the message's tag verified.
    generated_tag: bool,
    verified: bool,
    used_enc: bool,
    used_dec: bool,
    speed: bool,
}

impl Drop for SivCtx {
    fn drop(&mut self) {
        self.tag.zeroize();
        self.user_tag.zeroize();
    }
}

impl SivCtx {
    pub fn new(keylen: usize) -> Self {
        SivCtx {
            keylen,
            enc: false,
            key: None,
            nonce: [0; NONCE_LEN],
            aad: Zeroizing::new(Vec::new()),
            tag: [0; TAG_LEN],
            user_tag: [0; TAG_LEN],
            have_user_tag: false,
            generated_tag: false,
            verified: false,
            used_enc: false,
            used_dec: false,
            speed: false,
        }
    }

    pub fn init(&mut self, key: Option<&[u8]>, iv: Option<&[u8]>, enc: bool, p: Settings) -> bool {
        self.enc = enc;
        if let Some(key) = key {
            if key.len() != self.keylen {
                raise(ffi::PROV_R_INVALID_KEY_LENGTH, c"ossl_aes_gcm_siv_init");
                return false;
            }
            match AesGcmSiv::new(key) {
                Ok(k) => self.key = Some(k),
                Err(_) => return false,
            }
        }
        if let Some(iv) = iv {
            if iv.len() != NONCE_LEN {
                raise(ffi::PROV_R_INVALID_IV_LENGTH, c"ossl_aes_gcm_siv_init");
                return false;
            }
            self.nonce.copy_from_slice(iv);
        }
        // OpenSSL derives the message keys at every init, from the key-generating key as
        // it stands (all zero if none was ever set).
        if self.key.is_none() {
            match AesGcmSiv::new(&[0u8; 32][..self.keylen]) {
                Ok(k) => self.key = Some(k),
                Err(_) => return false,
            }
        }
        self.used_enc = false;
        self.used_dec = false;
        self.set_ctx_params(p)
    }

    /// `aes_gcm_siv_cipher`: Final, AAD, or the whole message.
    fn run(&mut self, io: Io<'_>) -> bool {
        match io {
            Io::Final => self.finish(),
            Io::Aad(a) => self.add_aad(a),
            Io::Data(d) => match d.into_buf_at_most(MAX_LEN) {
                Some(buf) if self.enc => self.encrypt(buf),
                Some(buf) => self.decrypt(buf),
                None => false,
            },
        }
    }

    fn finish(&mut self) -> bool {
        let ok = if self.enc {
            self.generated_tag
        } else {
            self.generated_tag && self.verified && self.have_user_tag
        };
        if ok {
            stats::record(stats::index(true, self.keylen), self.enc);
        }
        ok
    }

    fn add_aad(&mut self, a: &[u8]) -> bool {
        if a.is_empty() {
            self.aad = Zeroizing::new(Vec::new());
            return true;
        }
        let total = (self.aad.len() as u64 + a.len() as u64).div_ceil(16) * 16;
        if total > MAX_LEN {
            raise(ffi::PROV_R_INVALID_AAD, c"ossl_aes_gcm_siv_aad");
            return false;
        }
        if !reserve(&mut self.aad, a.len()) {
            raise(ffi::ERR_R_MALLOC_FAILURE, c"ossl_aes_gcm_siv_aad");
            return false;
        }
        self.aad.extend_from_slice(a);
        true
    }

    fn encrypt(&mut self, buf: &mut [u8]) -> bool {
        self.generated_tag = false;
        if !self.speed && self.used_enc {
            return false;
        }
        if buf.len() as u64 > MAX_LEN {
            return false;
        }
        self.used_enc = true;
        let Some(key) = self.key.as_ref() else {
            return false;
        };
        match key.encrypt_in_place_detached(&self.nonce, &self.aad, buf) {
            Ok(t) => {
                self.tag.copy_from_slice(t.as_ref());
                self.generated_tag = true;
                true
            }
            Err(_) => false,
        }
    }

    fn decrypt(&mut self, buf: &mut [u8]) -> bool {
        self.generated_tag = false;
        self.verified = false;
        if !self.speed && self.used_dec {
            return false;
        }
        if buf.len() as u64 > MAX_LEN {
            return false;
        }
        self.used_dec = true;
        let Some(key) = self.key.as_ref() else {
            return false;
        };
        if !self.have_user_tag {
            // OpenSSL decrypts under a tag nobody gave and fails at Final; nothing
            // verifiable is released here.
            buf.zeroize();
            self.generated_tag = true;
            return true;
        }
        // On a wrong tag gcmkit zeroes `buf`; the update succeeds and Final fails, as
        // OpenSSL's does (which leaves the unverified plaintext in the output instead).
        match key.decrypt_in_place_detached(&self.nonce, &self.aad, buf, &self.user_tag) {
            Ok(()) => {
                self.verified = true;
                self.generated_tag = true;
                true
            }
            Err(gcmkit::Error::AuthenticationFailed) => {
                self.generated_tag = true;
                true
            }
            Err(_) => false,
        }
    }

    /// `ossl_aes_gcm_siv_stream_update` (= cipher).
    pub fn update(&mut self, io: Io<'_>, inl: usize, outsize: usize, outl: &mut usize) -> bool {
        if outsize < inl {
            raise(
                ffi::PROV_R_OUTPUT_BUFFER_TOO_SMALL,
                c"ossl_aes_gcm_siv_cipher",
            );
            return false;
        }
        if !self.run(io) {
            return false;
        }
        *outl = inl;
        true
    }

    pub fn finalize(&mut self, outl: &mut usize) -> bool {
        if !self.run(Io::Final) {
            return false;
        }
        *outl = 0;
        true
    }

    pub fn get_ctx_params(&mut self, p: Requests) -> bool {
        const F: &core::ffi::CStr = c"ossl_aes_gcm_siv_get_ctx_params";
        if let Some(q) = p.find(ffi::PARAM_AEAD_TAG) {
            if q.data_type() == ffi::OSSL_PARAM_OCTET_STRING
                && (!self.enc
                    || !self.generated_tag
                    || q.data_size() != TAG_LEN
                    || !q.set_octets(&self.tag))
            {
                raise(ffi::PROV_R_FAILED_TO_SET_PARAMETER, F);
                return false;
            }
        }
        if let Some(q) = p.find(ffi::PARAM_AEAD_TAGLEN) {
            if !q.set_size_t(TAG_LEN) {
                raise(ffi::PROV_R_FAILED_TO_SET_PARAMETER, F);
                return false;
            }
        }
        if let Some(q) = p.find(ffi::PARAM_KEYLEN) {
            if !q.set_size_t(self.keylen) {
                raise(ffi::PROV_R_FAILED_TO_SET_PARAMETER, F);
                return false;
            }
        }
        true
    }

    pub fn set_ctx_params(&mut self, p: Settings) -> bool {
        const F: &core::ffi::CStr = c"ossl_aes_gcm_siv_set_ctx_params";
        if p.is_empty() {
            return true;
        }
        if let Some(q) = p.find(ffi::PARAM_AEAD_TAG) {
            let tag = q.octets().filter(|t| t.len() == TAG_LEN);
            let Some(tag) = tag.filter(|_| q.data_type() == ffi::OSSL_PARAM_OCTET_STRING) else {
                raise(ffi::PROV_R_FAILED_TO_GET_PARAMETER, F);
                return false;
            };
            if !self.enc {
                self.user_tag.copy_from_slice(tag);
                self.have_user_tag = true;
            }
        }
        if let Some(q) = p.find(ffi::PARAM_SPEED) {
            let Some(speed) = q.get_uint() else {
                raise(ffi::PROV_R_FAILED_TO_GET_PARAMETER, F);
                return false;
            };
            self.speed = speed != 0;
        }
        if let Some(q) = p.find(ffi::PARAM_KEYLEN) {
            let Some(k) = q.get_size_t() else {
                raise(ffi::PROV_R_FAILED_TO_GET_PARAMETER, F);
                return false;
            };
            if k != self.keylen {
                raise(ffi::PROV_R_INVALID_KEY_LENGTH, F);
                return false;
            }
        }
        true
    }
}

pub static GETTABLE_CTX: ffi::Shared<[ffi::OsslParam; 4]> = ffi::Shared([
    params::size_t(ffi::PARAM_KEYLEN),
    params::size_t(ffi::PARAM_AEAD_TAGLEN),
    params::octets(ffi::PARAM_AEAD_TAG),
    params::END,
]);

pub static SETTABLE_CTX: ffi::Shared<[ffi::OsslParam; 4]> = ffi::Shared([
    params::size_t(ffi::PARAM_KEYLEN),
    params::uint(ffi::PARAM_SPEED),
    params::octets(ffi::PARAM_AEAD_TAG),
    params::END,
]);

#[cfg(test)]
mod tests {
    use super::*;

    /// A length over AES-GCM-SIV's 2^36 is refused before the input is copied into the
    /// output, both ways (before: a segmentation fault).
    #[test]
    fn an_oversized_update_is_refused_before_the_copy() {
        for enc in [true, false] {
            let mut c: SivCtx = crate::io::keyed(16, enc);
            crate::io::refuses_oversized_claim(|io, n| c.update(io, n, n, &mut 0));
        }
    }

    /// AAD updates past what the process may allocate fail (an OpenSSL error, update
    /// returns 0) instead of aborting the application: in a child process limited to
    /// 1.5 GiB of address space, 128 MiB AAD updates until one is refused; then the same
    /// context still encrypts after a clearing (zero-length) AAD update. Before the fix the
    /// child died of SIGABRT ("memory allocation of ... bytes failed").
    #[test]
    fn an_aad_the_process_cannot_hold_is_refused_not_aborted() {
        const CHILD: &str = "GCMKIT_OSSL_AAD_CHILD";
        if std::env::var_os(CHILD).is_some() {
            return aad_child();
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "siv::tests::an_aad_the_process_cannot_hold_is_refused_not_aborted",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("aad refused after"),
            "{:?}\n{text}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn aad_child() {
        let limit = libc::rlimit {
            rlim_cur: 3 << 29,
            rlim_max: 3 << 29,
        };
        // SAFETY: setrlimit reads the struct it is given; lowering a limit is always allowed.
        assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) }, 0);
        let mut c: SivCtx = crate::io::keyed(16, true);
        let piece = vec![3u8; 128 << 20];
        let mut fed = 0usize;
        while c.add_aad(&piece) {
            fed += piece.len();
            assert!(fed < 1 << 33, "8 GiB of AAD taken under a 1.5 GiB limit");
        }
        println!("aad refused after {} MiB", fed >> 20);
        drop(piece);
        assert!(c.add_aad(&[]), "a zero-length AAD update clears it");
        let mut msg = [0u8; 32];
        assert!(c.encrypt(&mut msg));
    }
}
