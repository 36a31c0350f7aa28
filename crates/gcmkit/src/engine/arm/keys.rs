//! The AES key schedule (FIPS 197, every key size) with SubWord done by AESE.
//!
//! AESE(x, 0) = SubBytes(ShiftRows(x)). With the same 32-bit word in all four columns,
//! every row holds one byte value four times, so ShiftRows changes nothing and lane 0 of
//! the result is SubWord(w): the S-box in hardware, constant time, no tables.

use crate::aes::RoundKeys;
use core::arch::aarch64::*;

/// Round constants: x^(i-1) in GF(2^8).
const RCON: [u32; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// SubWord of a word in little-endian byte order (byte 0 of the key word in bits 0..8).
///
/// # Safety
/// The CPU must have the AES extension (called only from `expand_into`, which enables it).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
unsafe fn sub_word(w: u32) -> u32 {
    // SAFETY: register-only NEON/AES intrinsics under the caller's target features.
    unsafe {
        let x = vreinterpretq_u8_u32(vdupq_n_u32(w));
        let s = vaeseq_u8(x, vdupq_n_u8(0));
        vgetq_lane_u32::<0>(vreinterpretq_u32_u8(s))
    }
}

/// Expands a 16-, 24- or 32-byte key into `rk` in place.
///
/// # Safety
/// The CPU must have NEON and the AES extension (the armv8 engine's feature table;
/// `Neon::expand_key_into` calls it on the engine's token).
#[target_feature(enable = "neon,aes")]
pub(crate) unsafe fn expand_into(key: &[u8], rk: &mut RoundKeys) -> Result<(), crate::Error> {
    let nk = match key.len() {
        16 | 24 | 32 => key.len() / 4,
        _ => {
            // The portable schedule names the bad length in its error.
            *rk = RoundKeys::new(key)?;
            return Ok(());
        }
    };
    let rounds = nk + 6;
    let mut w = [0u32; 60];
    for (i, wi) in w.iter_mut().enumerate().take(nk) {
        *wi = u32::from_le_bytes([key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]]);
    }
    for i in nk..4 * (rounds + 1) {
        let mut t = w[i - 1];
        if i % nk == 0 {
            // RotWord moves byte 1 to byte 0: a right rotation in little-endian order.
            // SAFETY: this function's target features are enabled and present.
            t = unsafe { sub_word(t.rotate_right(8)) } ^ RCON[i / nk - 1];
        } else if nk > 6 && i % nk == 4 {
            // SAFETY: as above.
            t = unsafe { sub_word(t) };
        }
        w[i] = w[i - nk] ^ t;
    }
    let out = rk.raw_mut(rounds);
    for (r, k) in out.iter_mut().enumerate().take(rounds + 1) {
        for c in 0..4 {
            k[4 * c..4 * c + 4].copy_from_slice(&w[4 * r + c].to_le_bytes());
        }
    }
    crate::secret::wipe::wipe(&mut w);
    Ok(())
}
