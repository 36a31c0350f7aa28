//! RFC 8452 sec. 4 DeriveKey: AES-GCM-SIV's per-nonce keys from the key-generating key.
//!     block_i = AES(K, LE32(i) || N),  i = 0..3 (AES-128) or 0..5 (AES-256)
//!     auth key = block_0[..8] || block_1[..8];  enc key = block_2[..8] || block_3[..8] (|| ...)
//! RFC 8452 names AES-128 and AES-256; AES-192 (as OpenSSL and pyca/cryptography offer it)
//! follows the same rule with blocks 0..4, its encryption key block_2..block_4's halves.
//! The portable path calls [`derive_into`]; the fused small-message kernel encrypts the
//! same [`derive_key_inputs`] with its own AES chains and splits them with [`derived_keys`].

use crate::aes::RoundKeys;
use crate::engine::wipe::wipe;
use crate::engine::Kernels;
use crate::error::Error;
use crate::field::HashKey;

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
pub(crate) fn enc_key_len(kgk: &RoundKeys) -> usize {
    kgk.key_bits() / 8
}

/// DeriveKey into `auth` (POLYVAL key with `hashed` powers of H) and `enc` (expanded AES
/// key of the key-generating key's size). Every intermediate is wiped.
pub(crate) fn derive_into(
    engine: Kernels,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    hashed: usize,
    auth: &mut HashKey,
    enc: &mut RoundKeys,
) -> Result<(), Error> {
    let n = 2 + enc_key_len(kgk) / 8;
    let mut blocks = derive_key_inputs(nonce);
    engine.encrypt_blocks(kgk, &mut blocks[..n]);
    let (mut a, mut e) = derived_keys(&blocks);
    engine.hash_key_into(auth, &a, hashed);
    let r = engine.expand_key_into(&e[..8 * (n - 2)], enc);
    wipe(&mut blocks);
    wipe(core::slice::from_mut(&mut a));
    wipe(core::slice::from_mut(&mut e));
    r
}
