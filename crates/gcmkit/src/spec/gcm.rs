//! GCM's byte rules (NIST SP 800-38D; McGrew-Viega sec. 2).

/// The 16-byte length block of GCM: bitlen(A) || bitlen(C), big-endian 64-bit each.
pub(crate) fn length_block(aad_len: u64, data_len: u64) -> [u8; 16] {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&(aad_len.wrapping_mul(8)).to_be_bytes());
    b[8..].copy_from_slice(&(data_len.wrapping_mul(8)).to_be_bytes());
    b
}

/// The pre-counter block of a 96-bit IV: IV || `start` as a 32-bit big-endian counter
/// (GCM's J0 = IV || 0^31 1 with `start` 1; GPRF's C_0 with 0). Other IV lengths are
/// hashed (`gcm::iv_block`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn iv96_block(iv: &[u8; 12], start: u32) -> [u8; 16] {
    let mut y = [0u8; 16];
    y[..12].copy_from_slice(iv);
    y[12..].copy_from_slice(&start.to_be_bytes());
    y
}

/// The full GCM tag from the finished GHASH accumulator (lengths block included) and the
/// mask E(K, Y0): T = GHASH(H, A, C) xor E(K, Y0). GHASH's value is the accumulator's
/// big-endian bytes (the field works in POLYVAL order; `field` explains the bridge). The
/// one definition, used by the portable path and the fused kernels alike.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn tag_from_ghash(acc: u128, e_k_y0: &[u8; 16]) -> [u8; 16] {
    (acc ^ u128::from_be_bytes(*e_k_y0)).to_be_bytes()
}
