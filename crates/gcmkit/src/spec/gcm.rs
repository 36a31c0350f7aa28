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

/// [`iv96_block`] with counter 1 (Y0) as the little-endian integer of its bytes, built in
/// registers: the IV's two loads and a constant, no 16-byte block through memory (a
/// block stored in 12- and 4-byte parts and loaded whole cannot be store-forwarded).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn iv96_y0_le(iv: &[u8; 12]) -> u128 {
    let (lo, hi) = iv.split_at(8);
    let lo = u64::from_le_bytes(lo.try_into().unwrap_or([0; 8]));
    let hi = u32::from_le_bytes(hi.try_into().unwrap_or([0; 4]));
    // Bytes 12..16 are inc32's counter 1, big-endian: byte 15 is 1.
    u128::from(lo) | (u128::from(hi) << 64) | (1u128 << 120)
}

/// The full GCM tag from the finished GHASH accumulator (lengths block included) and the
/// mask E(K, Y0): T = GHASH(H, A, C) xor E(K, Y0). GHASH's value is the accumulator's
/// big-endian bytes (the field works in POLYVAL order; `field` explains the bridge). The
/// one definition, used by the portable path and the fused kernels alike.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn tag_from_ghash(acc: u128, e_k_y0: &[u8; 16]) -> [u8; 16] {
    (acc ^ u128::from_be_bytes(*e_k_y0)).to_be_bytes()
}

#[cfg(test)]
mod tests {
    /// The register-built Y0 is the block's little-endian integer, for IVs whose bytes
    /// are all distinct (a swapped or dropped byte shows).
    #[test]
    fn iv96_y0_le_is_the_blocks_integer() {
        for seed in 0u8..64 {
            let iv: [u8; 12] =
                core::array::from_fn(|i| seed.wrapping_mul(29).wrapping_add(i as u8 * 17 + 3));
            let want = u128::from_le_bytes(super::iv96_block(&iv, 1));
            assert_eq!(super::iv96_y0_le(&iv), want, "{iv:02x?}");
        }
    }
}
