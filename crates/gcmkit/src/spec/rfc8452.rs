//! RFC 8452 sec. 4 DeriveKey's byte rules (the derivation itself, which encrypts, is
//! `kdf::rfc8452`):
//!     block_i = AES(K, LE32(i) || N),  i = 0..3 (AES-128) or 0..5 (AES-256)
//!     auth key = block_0[..8] || block_1[..8];  enc key = block_2[..8] || block_3[..8] (|| ...)

/// DeriveKey's input block 0, LE32(0) || N, as a little-endian integer; block i is this
/// value plus i (the counter is the low 32 bits). As an integer so that a kernel builds
/// the six blocks in registers instead of reloading byte-wise stores.
///
/// From integer loads of the nonce (`siv::nonce_u128`: bytes 0-7 and 8-11, as a caller
/// writes a 12-byte array), not from a zeroed 16-byte array: the compiler built that
/// array on the stack with three stores and read it back with one 16-byte load, which
/// the core cannot forward from narrower stores (at the head of every AES-GCM-SIV
/// message; `objdump -d` of the avx512 AES-GCM-SIV kernel of the time).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn derive_key_input0(nonce: &[u8; 12]) -> u128 {
    super::siv::nonce_u128(nonce) << 32
}

/// RFC 8452 sec. 4, DeriveKey's inputs: LE32(i) || N for i = 0..5 (AES-128 uses 0..3).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn derive_key_inputs(nonce: &[u8; 12]) -> [[u8; 16]; 6] {
    let first = derive_key_input0(nonce);
    let mut blocks = [[0u8; 16]; 6];
    for (i, b) in blocks.iter_mut().enumerate() {
        *b = (first | i as u128).to_le_bytes();
    }
    blocks
}

/// DeriveKey's outputs (the encrypted blocks as little-endian integers) to keys: the first
/// 8 bytes (low 64 bits) of each, blocks 0-1 the POLYVAL key, blocks 2-3 (AES-128), 2-4
/// (AES-192) or 2-5 (AES-256) the encryption key (its first 16, 24 or 32 bytes:
/// [`enc_key_len`]). Returns (auth, enc bytes 0..16, enc bytes 16..32), little-endian.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn derived_keys_u128(blocks: &[u128; 6]) -> (u128, u128, u128) {
    let half = |lo: u128, hi: u128| (lo & u128::from(u64::MAX)) | hi << 64;
    (
        half(blocks[0], blocks[1]),
        half(blocks[2], blocks[3]),
        half(blocks[4], blocks[5]),
    )
}

/// [`derived_keys_u128`] on byte blocks: (auth key, encryption key bytes).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn derived_keys(blocks: &[[u8; 16]; 6]) -> ([u8; 16], [u8; 32]) {
    let mut b = [0u128; 6];
    for (x, block) in b.iter_mut().zip(blocks) {
        *x = u128::from_le_bytes(*block);
    }
    let (auth, lo, hi) = derived_keys_u128(&b);
    let mut enc = [0u8; 32];
    enc[..16].copy_from_slice(&lo.to_le_bytes());
    enc[16..].copy_from_slice(&hi.to_le_bytes());
    (auth.to_le_bytes(), enc)
}

/// Bytes of the derived encryption key: the key-generating key's size.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn enc_key_len(kgk_bits: usize) -> usize {
    kgk_bits / 8
}
