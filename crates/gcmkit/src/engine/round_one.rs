//! AES round one of counter blocks from a per-key table (Bernstein and Schwabe's
//! counter-mode caching, "New AES software speed records", 2008, sec. 4).
//!
//! Write a GCM counter block as B xor v·e15: v its last byte, B the block with that byte
//! zero. Round 0 gives S = (B xor k0) xor v·e15, and round 1 is
//! AESENC(S, k1) = L(SubBytes(S)) xor k1, L = MixColumns ∘ ShiftRows, linear. SubBytes
//! works byte by byte, and byte 15 of S is k0[15] xor v whatever B is, so
//!
//! ```text
//! AESENC(S, k1) = AESENC(B xor k0, k1) xor T[v],
//! T[v] = AESENC(k0 xor v·e15, AESENC(k0, 0)) = L(SB(k0 xor v·e15)) xor L(SB(k0)),
//! ```
//!
//! the first term the same for every block until the counter carries out of its last
//! byte, the second a table of 256 blocks that depends on the key alone. A batch of the
//! one-body kernels (16 blocks on avx512) then starts one round in: a kept block xor a
//! table vector per vector, instead of an AES round (`kernels::gcm_lean::RoundOneRun`). The index is the counter's last byte, so the
//! table is read only for public counters (96-bit IVs); its entries are key material,
//! wiped on drop. It is built once per long-term key (4 KiB and 256/LANES vector AES
//! instructions, 64 on avx512): built per message it cost more than it saved
//! (docs/tuning.md: RoundOne). Whole messages under a 96-bit IV (`kernels::gcm_lean::whole`)
//! read it; the updates (on-line GCM, `AesGcm::encrypt_parts_into`) do not.

#![forbid(unsafe_code)]

/// The table T above: `t[v]` for each last byte v, in little-endian lane form.
#[derive(Clone)]
#[repr(align(64))]
pub(crate) struct RoundOne {
    pub(crate) t: [u128; 256],
}

impl RoundOne {
    /// An all-zero table to be filled in place (by an engine's kernel).
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(crate) fn empty() -> Self {
        RoundOne { t: [0; 256] }
    }
}

impl Drop for RoundOne {
    fn drop(&mut self) {
        crate::secret::wipe::wipe(&mut self.t);
    }
}

impl core::fmt::Debug for RoundOne {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("RoundOne(<secret>)")
    }
}
