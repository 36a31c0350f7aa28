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
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
unsafe fn mix(prev: __m128i, t: __m128i) -> __m128i {
    // SAFETY: register-only SSE2 operations; the caller runs with SSE2 enabled.
    unsafe {
        let mut x = prev;
        x = _mm_xor_si128(x, _mm_slli_si128::<4>(x));
        x = _mm_xor_si128(x, _mm_slli_si128::<8>(x));
        _mm_xor_si128(x, t)
    }
}

/// AESKEYGENASSIST; in `make ct-check`'s MSan build, through `msan_strict` (MSan has no
/// shadow rule for it: secret::ct::msan_strict).
macro_rules! keygen {
    ($x:expr, $rcon:literal) => {{
        #[cfg(not(gcmkit_ct_msan))]
        let r = _mm_aeskeygenassist_si128::<$rcon>($x);
        #[cfg(gcmkit_ct_msan)]
        let r = crate::secret::ct::msan_strict($x, |x| _mm_aeskeygenassist_si128::<$rcon>(x));
        r
    }};
}

macro_rules! step128 {
    ($prev:expr, $rcon:literal) => {
        mix($prev, _mm_shuffle_epi32::<0xff>(keygen!($prev, $rcon)))
    };
}

/// # Safety
/// SSE2 must be available (as for `mix`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
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
                    a = mix(a, _mm_shuffle_epi32::<0xff>(keygen!(b, $rcon)));
                    store(out, $i, a);
                    if $i < 14 {
                        b = mix(b, _mm_shuffle_epi32::<0xaa>(keygen!(a, 0)));
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

/// SubWord(RotWord(w3)) xor `rcon` (with `ROT`) or SubWord(w3) (without) of `x`'s last
/// word, in all four words, by AESENCLAST instead of AESKEYGENASSIST: with the word
/// broadcast to every column, ShiftRows moves nothing, so AESENCLAST(t, rcon) is
/// SubBytes(t) xor rcon. Its latency (about 3 cycles) is well under AESKEYGENASSIST's on
/// recent Intel and AMD cores, and the schedule is a serial chain of 10 or 13 such steps on
/// the per-message path of AES-GCM-SIV.
///
/// # Safety
/// AES-NI and SSSE3 must be enabled in the caller.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
unsafe fn sub_word<const ROT: bool>(x: __m128i, rcon: i32) -> __m128i {
    // SAFETY: register-only AES-NI/SSSE3 operations; this function's contract.
    unsafe {
        // Bytes 12..15 (the last word), rotated by one byte for RotWord, in every word.
        let mask = if ROT {
            _mm_set_epi8(
                12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13,
            )
        } else {
            _mm_set_epi8(
                15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13, 12,
            )
        };
        _mm_aesenclast_si128(_mm_shuffle_epi8(x, mask), _mm_set1_epi32(rcon))
    }
}

/// [`expand_into`] in registers: the round keys of the 16-byte key `a`, or of the 32-byte
/// key `a || b`, as an array the caller keeps in registers (slots past the last round key
/// are zero). Each round key is ready as soon as its step is done, so AES rounds that use
/// it can start while the schedule goes on (the out-of-order core overlaps them).
///
/// # Safety
/// The CPU must have AES-NI and SSE2, enabled in the caller (every x86 engine's table).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) unsafe fn expand_in_registers(a: __m128i, b: Option<__m128i>) -> [__m128i; 15] {
    // SAFETY: register-only AES-NI/SSE2 operations; this function's contract.
    unsafe {
        let mut k = [_mm_setzero_si128(); 15];
        k[0] = a;
        match b {
            None => {
                macro_rules! rounds {
                    ($($i:literal: $rcon:literal),+) => {
                        $( k[$i] = mix(k[$i - 1], sub_word::<true>(k[$i - 1], $rcon)); )+
                    };
                }
                rounds!(1: 0x01, 2: 0x02, 3: 0x04, 4: 0x08, 5: 0x10, 6: 0x20, 7: 0x40, 8: 0x80, 9: 0x1b, 10: 0x36);
            }
            Some(b) => {
                k[1] = b;
                // Round key i from i - 2 and SubWord of i - 1's last word: rotated with the
                // round constant for even i, plain for odd i.
                macro_rules! steps {
                    ($($i:literal: $rot:literal, $rcon:literal);+) => {
                        $( k[$i] = mix(k[$i - 2], sub_word::<$rot>(k[$i - 1], $rcon)); )+
                    };
                }
                steps!(2: true, 0x01; 3: false, 0; 4: true, 0x02; 5: false, 0;
                    6: true, 0x04; 7: false, 0; 8: true, 0x08; 9: false, 0;
                    10: true, 0x10; 11: false, 0; 12: true, 0x20; 13: false, 0;
                    14: true, 0x40);
            }
        }
        k
    }
}
