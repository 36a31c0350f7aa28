//! HKDF-Expand with HMAC-SHA-512 (RFC 5869 sec. 2.3), as c2sp.org/chunked-encryption uses
//! it: the input key itself is the PRK.

use hmac::{KeyInit as _, Mac};
use std::vec::Vec;
use zeroize::Zeroizing;

/// HKDF-Expand (RFC 5869 sec. 2.3) with HMAC-SHA-512, PRK = the input key as the format
/// specifies (the `hkdf` crate insists on a PRK of at least 64 bytes, so the two blocks
/// are computed here).
pub(crate) fn expand_sha512(prk: &[u8], info: &[&[u8]], out: &mut [u8]) {
    let mut t: Zeroizing<Vec<u8>> = Zeroizing::new(Vec::new());
    for (i, chunk) in out.chunks_mut(64).enumerate() {
        let mut mac =
            <hmac::Hmac<sha2::Sha512>>::new_from_slice(prk).expect("HMAC takes keys of any length");
        mac.update(&t);
        for part in info {
            mac.update(part);
        }
        mac.update(&[(i + 1) as u8]);
        *t = mac.finalize().into_bytes().to_vec();
        chunk.copy_from_slice(&t[..chunk.len()]);
    }
}
