//! RFC 8452 sec. 4 DeriveKey's byte rules (the derivation itself, which encrypts, is
//! `kdf::rfc8452`):
//!     block_i = AES(K, LE32(i) || N),  i = 0..3 (AES-128) or 0..5 (AES-256)
//!     auth key = block_0[..8] || block_1[..8];  enc key = block_2[..8] || block_3[..8] (|| ...)

/// RFC 8452 sec. 4, DeriveKey's inputs: LE32(i) || N for i = 0..5 (AES-128 uses 0..3).
#[inline(always)]
pub(crate) fn derive_key_inputs(nonce: &[u8; 12]) -> [[u8; 16]; 6] {
    let mut blocks = [[0u8; 16]; 6];
    for (i, b) in blocks.iter_mut().enumerate() {
        b[..4].copy_from_slice(&(i as u32).to_le_bytes());
        b[4..].copy_from_slice(nonce);
    }
    blocks
}

/// DeriveKey's outputs to keys: the first 8 bytes of each encrypted block, blocks 0-1 the
/// POLYVAL key, blocks 2-3 (AES-128), 2-4 (AES-192) or 2-5 (AES-256) the encryption key
/// (its first 16, 24 or 32 bytes: [`enc_key_len`]).
#[inline(always)]
pub(crate) fn derived_keys(blocks: &[[u8; 16]; 6]) -> ([u8; 16], [u8; 32]) {
    let mut auth = [0u8; 16];
    auth[..8].copy_from_slice(&blocks[0][..8]);
    auth[8..].copy_from_slice(&blocks[1][..8]);
    let mut enc = [0u8; 32];
    for i in 2..6 {
        enc[8 * (i - 2)..8 * (i - 1)].copy_from_slice(&blocks[i][..8]);
    }
    (auth, enc)
}

/// Bytes of the derived encryption key: the key-generating key's size.
#[inline(always)]
pub(crate) fn enc_key_len(kgk_bits: usize) -> usize {
    kgk_bits / 8
}
