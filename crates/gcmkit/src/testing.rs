//! Helpers for the unit tests (compiled only with `cfg(test)`).

/// Marsaglia's xorshift64 (shifts 13, 7, 17) from `seed` (non-zero): a reproducible
/// stream of operands for comparing a multiply against its bit-by-bit reference.
pub(crate) fn xorshift64(seed: u64) -> impl Iterator<Item = u64> {
    core::iter::successors(Some(seed), |&x| {
        let x = x ^ (x << 13);
        let x = x ^ (x >> 7);
        Some(x ^ (x << 17))
    })
    .skip(1)
}

/// `n` bytes of the xorshift64 stream from `seed` (0 taken as 1).
#[cfg(feature = "std")]
pub(crate) fn bytes(n: usize, seed: u64) -> std::vec::Vec<u8> {
    xorshift64(seed | 1).take(n).map(|x| x as u8).collect()
}

/// Each base and the lengths 17, 16, 15 and 1 either side of it (those not below zero),
/// sorted, once each: lengths around block, vector and batch boundaries.
#[cfg(feature = "std")]
pub(crate) fn lengths_around(bases: &[usize]) -> std::vec::Vec<usize> {
    let mut v = std::vec::Vec::new();
    for &base in bases {
        for d in [-17isize, -16, -15, -1, 0, 1, 15, 16, 17] {
            let n = base as isize + d;
            if n >= 0 {
                v.push(n as usize);
            }
        }
    }
    v.sort();
    v.dedup();
    v
}
