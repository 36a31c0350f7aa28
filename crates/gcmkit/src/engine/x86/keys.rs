//! AES-128 and AES-256 key expansion with AESKEYGENASSIST (AES-192 uses the portable
//! schedule: it is set up once per key and never on a per-message path).
//!
//! FIPS 197: w[i] = w[i-Nk] xor temp, temp = SubWord(RotWord(w[i-1])) xor Rcon at the
//! start of each Nk-word group (and SubWord(w[i-1]) mid-group for AES-256). With the
//! previous group in a register, the four new words are the prefix-XOR of the previous
//! words (three 4-byte shifts) XOR temp broadcast to all dwords. AESKEYGENASSIST(x, rcon)
//! puts RotWord(SubWord(x3)) xor rcon in dword 3 and SubWord(x3) in dword 2.

use crate::aes::RoundKeys;
use core::arch::x86_64::*;

/// prev[0], prev[0]^prev[1], prev[0]^prev[1]^prev[2], ... then XOR with `t`.
///
/// # Safety
/// SSE2 must be available (called only from `expand_into`, which enables it).
#[inline(always)]
unsafe fn mix(prev: __m128i, t: __m128i) -> __m128i {
    // SAFETY: register-only SSE2 operations; the caller runs with SSE2 enabled.
    unsafe {
        let mut x = prev;
        x = _mm_xor_si128(x, _mm_slli_si128::<4>(x));
        x = _mm_xor_si128(x, _mm_slli_si128::<8>(x));
        _mm_xor_si128(x, t)
    }
}

macro_rules! step128 {
    ($prev:expr, $rcon:literal) => {
        mix(
            $prev,
            _mm_shuffle_epi32::<0xff>(_mm_aeskeygenassist_si128::<$rcon>($prev)),
        )
    };
}

/// # Safety
/// SSE2 must be available (as for `mix`).
#[inline(always)]
unsafe fn store(out: &mut [[u8; 16]; 15], i: usize, x: __m128i) {
    // SAFETY: out[i] is 16 writable bytes.
    unsafe { _mm_storeu_si128(out[i].as_mut_ptr().cast(), x) }
}

/// Expands a 16- or 32-byte key into `rk` in place; other lengths go to the portable
/// schedule.
///
/// # Safety
/// The CPU must have AES-NI and SSE2 (`Xmm::expand_key_into` calls it on the aesni
/// token, which every x86 engine's token converts into).
#[target_feature(enable = "aes,sse2")]
pub(crate) unsafe fn expand_into(key: &[u8], rk: &mut RoundKeys) -> Result<(), crate::Error> {
    let rounds = match key.len() {
        16 => 10,
        32 => 14,
        _ => {
            *rk = RoundKeys::new(key)?;
            return Ok(());
        }
    };
    let out = rk.raw_mut(rounds);
    match key.len() {
        // SAFETY: AES-NI and SSE2 are enabled here and present (this function's contract);
        // loads read the 16 or 32 key bytes, stores write into `out`'s 15 blocks.
        16 => unsafe {
            let mut k = _mm_loadu_si128(key.as_ptr().cast());
            store(out, 0, k);
            // Round key i from round key i - 1 with Rcon_i (FIPS 197 Table 5).
            macro_rules! rounds {
                ($($i:literal: $rcon:literal),+) => {
                    $(
                        k = step128!(k, $rcon);
                        store(out, $i, k);
                    )+
                };
            }
            rounds!(1: 0x01, 2: 0x02, 3: 0x04, 4: 0x08, 5: 0x10, 6: 0x20, 7: 0x40, 8: 0x80, 9: 0x1b, 10: 0x36);
            Ok(())
        },
        // SAFETY: as above.
        32 => unsafe {
            let mut a = _mm_loadu_si128(key.as_ptr().cast());
            let mut b = _mm_loadu_si128(key.as_ptr().add(16).cast());
            store(out, 0, a);
            store(out, 1, b);
            // Each even group: RotWord+SubWord+Rcon of b's last word; each odd group:
            // SubWord (no rotation, no Rcon) of the new a's last word.
            macro_rules! pair {
                ($i:literal, $rcon:literal) => {
                    a = mix(
                        a,
                        _mm_shuffle_epi32::<0xff>(_mm_aeskeygenassist_si128::<$rcon>(b)),
                    );
                    store(out, $i, a);
                    if $i < 14 {
                        b = mix(
                            b,
                            _mm_shuffle_epi32::<0xaa>(_mm_aeskeygenassist_si128::<0>(a)),
                        );
                        store(out, $i + 1, b);
                    }
                };
            }
            pair!(2, 0x01);
            pair!(4, 0x02);
            pair!(6, 0x04);
            pair!(8, 0x08);
            pair!(10, 0x10);
            pair!(12, 0x20);
            pair!(14, 0x40);
            Ok(())
        },
        _ => Ok(()),
    }
}
