//! RFC 8452 sec. 4 DeriveKey: AES-GCM-SIV's per-nonce keys from the key-generating key.
//!     block_i = AES(K, LE32(i) || N),  i = 0..3 (AES-128) or 0..5 (AES-256)
//!     auth key = block_0[..8] || block_1[..8];  enc key = block_2[..8] || block_3[..8] (|| ...)
//! RFC 8452 names AES-128 and AES-256; AES-192 (as OpenSSL and pyca/cryptography offer it)
//! follows the same rule with blocks 0..4, its encryption key block_2..block_4's halves.
//! The inputs and the key split are byte rules (`spec::rfc8452`): the portable path calls
//! [`derive_into`]; the fused small-message kernel encrypts the same inputs with its own
//! AES chains and splits them the same way.

use crate::aes::RoundKeys;
use crate::engine::Kernels;
use crate::error::Error;
use crate::field::HashKey;
use crate::secret::wipe::wipe;
use crate::spec::rfc8452::{derive_key_inputs, derived_keys, enc_key_len};

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
    let n = 2 + enc_key_len(kgk.key_bits()) / 8;
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
