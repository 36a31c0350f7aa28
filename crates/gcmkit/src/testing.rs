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
