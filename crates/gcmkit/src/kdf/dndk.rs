//! DNDK-GCM's key derivation (draft-gueron-cfrg-dndkgcm-03, sec. 4): a nonce of LN bytes
//! (12 <= LN <= 27) is zero-padded to 27 bytes and split into a 15-byte head and a
//! 12-byte tail (the AES-GCM IV). With ConfigByte = 128·KC_Choice + 8·(LN - 12):
//!     X_i = AES-256(K, head || (ConfigByte + i)),  i = 0..2 (0..4 with key commitment)
//!     Y_i = X_i xor X_0
//!     DK  = Y_1 || Y_2 (the AES-256-GCM key),  KC = Y_3 || Y_4 (the key commitment)
//! The blocks go through the engine's multi-block AES in one call.

/// Shortest and longest nonce (bytes).
pub(crate) const MIN_NONCE: usize = 12;
/// Longest nonce: the head (15 bytes) plus the IV (12 bytes).
pub(crate) const MAX_NONCE: usize = 27;

/// The derivation's AES inputs (the first 3, or all 5 with key commitment) and the GCM IV
/// (the padded nonce's last 12 bytes). The nonce length is checked by the caller.
pub(crate) fn inputs(nonce: &[u8], commit: bool) -> ([[u8; 16]; 5], [u8; 12]) {
    let mut padded = [0u8; MAX_NONCE];
    padded[..nonce.len()].copy_from_slice(nonce);
    let config = 128 * u8::from(commit) + 8 * (nonce.len() - MIN_NONCE) as u8;
    let mut blocks = [[0u8; 16]; 5];
    for (i, b) in blocks.iter_mut().enumerate() {
        b[..15].copy_from_slice(&padded[..15]);
        b[15] = config + i as u8;
    }
    let mut iv = [0u8; 12];
    iv.copy_from_slice(&padded[15..]);
    (blocks, iv)
}

/// DK (blocks 1-2) and KC (blocks 3-4), each xored with block 0, from the encrypted
/// blocks. KC is meaningful only when the 5 blocks were encrypted.
pub(crate) fn outputs(x: &[[u8; 16]; 5]) -> ([u8; 32], [u8; 32]) {
    let mut dk = [0u8; 32];
    let mut kc = [0u8; 32];
    for j in 0..16 {
        dk[j] = x[1][j] ^ x[0][j];
        dk[16 + j] = x[2][j] ^ x[0][j];
        kc[j] = x[3][j] ^ x[0][j];
        kc[16 + j] = x[4][j] ^ x[0][j];
    }
    (dk, kc)
}
