//! Wiping secrets with wide volatile stores.
//!
//! `zeroize` on byte arrays writes one volatile byte at a time; these helpers write 16
//! bytes per volatile store (fewer instructions for the same guarantee), then fence, so
//! the compiler can neither skip nor reorder the wipe past later code. Switching the
//! per-message AES-GCM-SIV keys to them made no measurable difference to its speed (the
//! costs there were elsewhere: docs/perf/engines.md); this is about cost, not a speed claim.

use core::sync::atomic::{compiler_fence, Ordering};

/// Overwrites every element with `T::default()` using volatile writes.
#[inline]
pub(crate) fn wipe<T: Copy + Default>(items: &mut [T]) {
    for x in items.iter_mut() {
        // SAFETY: `x` is a valid, aligned, exclusive reference to a `T`.
        unsafe { core::ptr::write_volatile(x, T::default()) };
    }
    compiler_fence(Ordering::SeqCst);
}

/// Overwrites a byte buffer that is about to be dropped, 16 bytes per volatile store.
#[inline]
pub(crate) fn wipe_bytes(bytes: &mut [u8]) {
    let mut chunks = bytes.chunks_exact_mut(16);
    for c in &mut chunks {
        if let Ok(block) = <&mut [u8; 16]>::try_from(c) {
            // SAFETY: `block` is a valid, exclusive reference to 16 bytes.
            unsafe { core::ptr::write_volatile(block, [0u8; 16]) };
        }
    }
    wipe(chunks.into_remainder());
    compiler_fence(Ordering::SeqCst);
}
