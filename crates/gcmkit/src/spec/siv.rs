//! The SIV byte rules: RFC 8452 (AES-GCM-SIV) and the GCM-SIV (2015) variants
//! (shared/docs/seed-conventions.md sec. 4).

/// The 16-byte length block of AES-GCM-SIV: bitlen(A) || bitlen(M), little-endian.
pub(crate) fn length_block(aad_len: u64, data_len: u64) -> [u8; 16] {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&(aad_len.wrapping_mul(8)).to_le_bytes());
    b[8..].copy_from_slice(&(data_len.wrapping_mul(8)).to_le_bytes());
    b
}

/// The nonce as a little-endian integer (bytes 0..11; bytes 12..15 zero), from an 8-byte
/// load of bytes 0-7 and a 4-byte load of bytes 8-11: the shape in which a caller's
/// compiler writes a 12-byte array (an 8-byte and a 4-byte store), so each load is
/// forwarded from one store when the nonce was written just before the call. A load
/// spanning both stores cannot be forwarded and waits for them to reach the cache behind
/// every older store (docs/tuning.md: nonce_u128).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn nonce_u128(nonce: &[u8; 12]) -> u128 {
    let [a, b, c, d, e, f, g, h, i, j, k, l] = *nonce;
    let lo = u64::from_le_bytes([a, b, c, d, e, f, g, h]) as u128;
    let hi = u32::from_le_bytes([i, j, k, l]) as u128;
    lo | hi << 64
}

/// Bit 127 of a block read as a little-endian integer (the top bit of byte 15).
const TOP: u128 = 1 << 127;

/// [`tag_input`] on little-endian integers (for kernels that keep the hash in registers).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn tag_input_u128(hash: u128, nonce: &[u8; 12]) -> u128 {
    (hash ^ nonce_u128(nonce)) & !TOP
}

/// The tag PRF's input S: the hash value xor the nonce (bytes 0..11), with bit 127
/// cleared (RFC 8452; the GCM-SIV (2015) variants that mask do the same).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn tag_input(hash: [u8; 16], nonce: &[u8; 12]) -> [u8; 16] {
    tag_input_u128(u128::from_le_bytes(hash), nonce).to_le_bytes()
}

/// [`first_counter`] on a little-endian integer.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn first_counter_u128(tag: u128) -> u128 {
    tag | TOP
}

/// AES-GCM-SIV's first counter block: the tag with bit 127 set.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn first_counter(tag: &[u8; 16]) -> [u8; 16] {
    first_counter_u128(u128::from_le_bytes(*tag)).to_le_bytes()
}

/// The tag PRF's input: the hash value xor the nonce, bit 127 cleared when `mask`
/// (AES-GCM-SIV and the one-/two-key GCM-SIV (2015); the three-key variant forces none).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn prf_input(hash: [u8; 16], nonce: &[u8; 12], mask: bool) -> [u8; 16] {
    if mask {
        tag_input(hash, nonce)
    } else {
        let mut s = hash;
        for (b, n) in s.iter_mut().zip(nonce.iter()) {
            *b ^= n;
        }
        s
    }
}

/// The first counter block from the tag: bit 127 set when `mask`, and for
/// [`CounterInit::IndexInLowBits`] the low k bits cleared (the Le32 counter then adds the
/// block index, which stays below 2^k, so no carry leaves those bits).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn counter_block(tag: &[u8; 16], mask: bool, counter: CounterInit) -> [u8; 16] {
    let mut c = if mask { first_counter(tag) } else { *tag };
    if let CounterInit::IndexInLowBits(k) = counter {
        let v = u128::from_le_bytes(c) & !((1u128 << k) - 1);
        c = v.to_le_bytes();
    }
    c
}

/// How the first counter block is formed from the tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CounterInit {
    /// AES-GCM-SIV: the tag with bit 127 set; its low 32 bits are the starting count.
    TagLow32,
    /// GCM-SIV (2015): the tag (bit 127 set if `mask`), its low k bits replaced by the
    /// block index 0, 1, 2, ...
    IndexInLowBits(u32),
}
