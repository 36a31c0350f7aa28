//! XAES-256-GCM's key derivation (c2sp.org/XAES-256-GCM, v1.0): NIST SP 800-108r1's
//! counter-mode KDF with CMAC-AES-256 as the PRF, label "X", the nonce's first 12 bytes
//! as context, a 16-bit counter and no L field. Each PRF input is one whole block, so CMAC
//! reduces to one AES call on the block xor K1:
//!     L  = AES-256(K, 0^128)                      (per key: CMAC's subkey generation)
//!     K1 = L << 1, xor 0x87 into the last byte if MSB(L) = 1
//!     M_i = 0x00 || i || 0x58 || 0x00 || N[..12]   (i = 1, 2)
//!     Kx = AES-256(K, M_1 xor K1) || AES-256(K, M_2 xor K1),  Nx = N[12..]
//! The two blocks go through the engine's multi-block AES in one call.

/// CMAC's first subkey K1 from L = AES(K, 0^128) (NIST SP 800-38B sec. 6.1): a doubling
/// in GF(2^128) with the CMAC polynomial, written without a branch on L's top bit.
pub(crate) fn cmac_k1(l: &[u8; 16]) -> [u8; 16] {
    let v = u128::from_be_bytes(*l);
    let carry = 0u128.wrapping_sub(v >> 127); // all ones iff MSB(L) = 1
    ((v << 1) ^ (carry & 0x87)).to_be_bytes()
}

/// The two PRF inputs M_1 xor K1 and M_2 xor K1 for a nonce's first 12 bytes.
pub(crate) fn prf_inputs(k1: &[u8; 16], nonce_head: &[u8; 12]) -> [[u8; 16]; 2] {
    let mut blocks = [[0u8; 16]; 2];
    for (i, b) in blocks.iter_mut().enumerate() {
        b[1] = i as u8 + 1;
        b[2] = b'X';
        b[4..].copy_from_slice(nonce_head);
        for (x, k) in b.iter_mut().zip(k1) {
            *x ^= k;
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h16(s: &str) -> [u8; 16] {
        hex::decode(s).unwrap().try_into().unwrap()
    }

    /// The spec's intermediate values: L and K1 for both vectors (MSB(L) = 0 and 1), and
    /// M_1/M_2 for N = "ABCDEFGHIJKLMNOPQRSTUVWX".
    #[test]
    fn c2sp_intermediates() {
        assert_eq!(
            cmac_k1(&h16("7298caa565031eadc6ce23d23ea66378")),
            h16("e531954aca063d5b8d9c47a47d4cc6f0")
        );
        assert_eq!(
            cmac_k1(&h16("91c08762876dccf9ba204a33768fa5fe")),
            h16("23810ec50edb99f374409466ed1f4b7b")
        );
        let m = prf_inputs(&[0; 16], b"ABCDEFGHIJKL");
        assert_eq!(m[0], h16("000158004142434445464748494a4b4c"));
        assert_eq!(m[1], h16("000258004142434445464748494a4b4c"));
    }
}
