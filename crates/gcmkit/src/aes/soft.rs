//! Portable constant-time AES encryption.
//!
//! No table is indexed by secret data and no branch depends on it. The S-box is computed,
//! not looked up: S(x) = A(x^254) in GF(2^8) = GF(2)[x]/(x^8 + x^4 + x^3 + x + 1), where
//! x^254 = x^-1 for x != 0 (and 0 for 0, as AES wants) and A is the AES affine map.
//!
//! The computation is *bitsliced*: 64 bytes are transposed into eight 64-bit "planes",
//! plane `i` holding bit `i` of every byte, so one AND or XOR on planes acts on 64 bytes
//! at once. On planes, multiplication in GF(2^8) is a schoolbook product of the bit
//! vectors (64 ANDs) followed by reduction modulo the AES polynomial (a fixed XOR
//! network), and squaring is linear (a fixed permutation plus reduction). The inverse uses
//! the addition chain
//!     x^2, x^3 = x^2·x, x^12 = (x^3)^4, x^15 = x^12·x^3, x^240 = (x^15)^16,
//!     x^252 = x^240·x^12, x^254 = x^252·x^2,
//! i.e. 4 multiplications and 7 squarings. ShiftRows, MixColumns and AddRoundKey are
//! byte-position operations with no data-dependent addressing, done on packed words.
//!
//! Throughput is modest (this is the fallback; the x86_64 engines use AES-NI/VAES), but
//! every path is constant-time. Up to four blocks are processed per batch; fewer blocks
//! cost the same as four, which is a public quantity (the block count), not a secret.

use super::RoundKeys;

/// Bitsliced planes of 64 bytes: `p[i]` holds bit `i` of each byte.
type Planes = [u64; 8];

/// Swap the bit groups selected by `mask` between `a >> shift` and `b`.
#[inline(always)]
fn swap_move(a: &mut u64, b: &mut u64, mask: u64, shift: u32) {
    let t = ((*a >> shift) ^ *b) & mask;
    *b ^= t;
    *a ^= t << shift;
}

/// Transposes 8 words of 8 bytes so that word `i` holds bit `i` of every byte.
///
/// Index a bit by (word k, byte j, bit b), three bits each. The three swap-move stages
/// exchange bit 0, 1, 2 of `b` with bit 0, 1, 2 of `k`. Each stage is an involution and
/// they act on disjoint index bits, so the same function also transposes back.
#[inline(always)]
fn transpose(w: &mut Planes) {
    for i in [0, 2, 4, 6] {
        let (lo, hi) = w.split_at_mut(i + 1);
        swap_move(&mut lo[i], &mut hi[0], 0x5555_5555_5555_5555, 1);
    }
    for i in [0, 1, 4, 5] {
        let (lo, hi) = w.split_at_mut(i + 2);
        swap_move(&mut lo[i], &mut hi[0], 0x3333_3333_3333_3333, 2);
    }
    for i in [0, 1, 2, 3] {
        let (lo, hi) = w.split_at_mut(i + 4);
        swap_move(&mut lo[i], &mut hi[0], 0x0f0f_0f0f_0f0f_0f0f, 4);
    }
}

/// Reduces a 15-coefficient product modulo x^8 + x^4 + x^3 + x + 1
/// (x^k = x^(k-8)·(x^4 + x^3 + x + 1), applied from the top down).
#[inline(always)]
fn reduce(mut c: [u64; 15]) -> Planes {
    for k in (8..15).rev() {
        let t = c[k];
        c[k - 4] ^= t;
        c[k - 5] ^= t;
        c[k - 7] ^= t;
        c[k - 8] ^= t;
    }
    [c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]
}

#[inline(always)]
fn gf_mul(a: &Planes, b: &Planes) -> Planes {
    let mut c = [0u64; 15];
    for i in 0..8 {
        for j in 0..8 {
            c[i + j] ^= a[i] & b[j];
        }
    }
    reduce(c)
}

/// Squaring is linear in GF(2^8): (sum a_i x^i)^2 = sum a_i x^(2i).
#[inline(always)]
fn gf_square(a: &Planes) -> Planes {
    let mut c = [0u64; 15];
    for i in 0..8 {
        c[2 * i] = a[i];
    }
    reduce(c)
}

#[inline(always)]
fn gf_square_n(a: &Planes, n: usize) -> Planes {
    let mut r = *a;
    for _ in 0..n {
        r = gf_square(&r);
    }
    r
}

/// The AES S-box on 64 bytes in plane form.
#[inline(always)]
fn sbox_planes(x: &Planes) -> Planes {
    let x2 = gf_square(x);
    let x3 = gf_mul(&x2, x);
    let x12 = gf_square_n(&x3, 2);
    let x15 = gf_mul(&x12, &x3);
    let x240 = gf_square_n(&x15, 4);
    let x252 = gf_mul(&x240, &x12);
    let inv = gf_mul(&x252, &x2);
    // Affine map: s_i = b_i ^ b_(i+4) ^ b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ c_i, c = 0x63.
    let mut s = [0u64; 8];
    for (i, si) in s.iter_mut().enumerate() {
        *si = inv[i] ^ inv[(i + 4) % 8] ^ inv[(i + 5) % 8] ^ inv[(i + 6) % 8] ^ inv[(i + 7) % 8];
        if (0x63 >> i) & 1 == 1 {
            *si = !*si; // constant of the affine map, not data-dependent
        }
    }
    s
}

/// Applies the S-box to each of 64 bytes.
pub(crate) fn sub_bytes_64(bytes: &mut [u8; 64]) {
    let mut w: Planes = [0; 8];
    for (k, wk) in w.iter_mut().enumerate() {
        *wk = u64::from_le_bytes(bytes[8 * k..8 * k + 8].try_into().unwrap_or([0; 8]));
    }
    transpose(&mut w);
    let mut s = sbox_planes(&w);
    transpose(&mut s);
    for (k, sk) in s.iter().enumerate() {
        bytes[8 * k..8 * k + 8].copy_from_slice(&sk.to_le_bytes());
    }
}

/// The S-box applied to the four bytes of a word (for the key schedule).
pub(crate) fn sub_word(w: [u8; 4]) -> [u8; 4] {
    let mut buf = [0u8; 64];
    buf[..4].copy_from_slice(&w);
    sub_bytes_64(&mut buf);
    [buf[0], buf[1], buf[2], buf[3]]
}

/// Multiplies each byte of a packed word by x in GF(2^8).
#[inline(always)]
fn xtime(x: u32) -> u32 {
    ((x & 0x7f7f_7f7f) << 1) ^ (((x >> 7) & 0x0101_0101) * 0x1b)
}

/// ShiftRows then MixColumns (if `mix`) then AddRoundKey on one block.
///
/// State is column-major: byte `r + 4c` is row `r` of column `c`. ShiftRows rotates
/// row `r` left by `r`. MixColumns with a column packed little-endian into `a`
/// (byte r = a_r) is out = 2(a ^ a') ^ a' ^ a'' ^ a''' where a', a'', a''' are the column
/// rotated by one, two, three bytes: row r gets 2a_r ^ 3a_(r+1) ^ a_(r+2) ^ a_(r+3).
#[inline(always)]
fn shift_mix_add(block: &mut [u8], rk: &[u8; 16], mix: bool) {
    let mut s = [0u8; 16];
    for c in 0..4 {
        for r in 0..4 {
            s[r + 4 * c] = block[r + 4 * ((c + r) % 4)];
        }
    }
    for c in 0..4 {
        let a = u32::from_le_bytes([s[4 * c], s[4 * c + 1], s[4 * c + 2], s[4 * c + 3]]);
        let col = if mix {
            let a1 = a.rotate_right(8);
            xtime(a ^ a1) ^ a1 ^ a.rotate_right(16) ^ a.rotate_right(24)
        } else {
            a
        };
        let k = u32::from_le_bytes([rk[4 * c], rk[4 * c + 1], rk[4 * c + 2], rk[4 * c + 3]]);
        block[4 * c..4 * c + 4].copy_from_slice(&(col ^ k).to_le_bytes());
    }
}

/// Encrypts up to four blocks held in `buf` (unused blocks are processed and ignored).
pub(crate) fn encrypt4(keys: &RoundKeys, buf: &mut [u8; 64]) {
    let rounds = keys.rounds();
    let rk = keys.as_blocks();
    for blk in buf.chunks_exact_mut(16) {
        for (b, k) in blk.iter_mut().zip(rk[0].iter()) {
            *b ^= k;
        }
    }
    for (round, key) in rk.iter().enumerate().take(rounds + 1).skip(1) {
        sub_bytes_64(buf);
        for blk in buf.chunks_exact_mut(16) {
            shift_mix_add(blk, key, round != rounds);
        }
    }
}

/// Encrypts any number of blocks, four at a time.
pub(crate) fn encrypt_blocks(keys: &RoundKeys, blocks: &mut [[u8; 16]]) {
    let mut buf = [0u8; 64];
    for group in blocks.chunks_mut(4) {
        for (i, b) in group.iter().enumerate() {
            buf[16 * i..16 * i + 16].copy_from_slice(b);
        }
        encrypt4(keys, &mut buf);
        for (i, b) in group.iter_mut().enumerate() {
            b.copy_from_slice(&buf[16 * i..16 * i + 16]);
        }
    }
    zeroize::Zeroize::zeroize(&mut buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference S-box computed the slow, obvious way (for testing only).
    fn sbox_reference(x: u8) -> u8 {
        fn mul(mut a: u8, mut b: u8) -> u8 {
            let mut p = 0u8;
            while b != 0 {
                if b & 1 != 0 {
                    p ^= a;
                }
                let hi = a & 0x80;
                a <<= 1;
                if hi != 0 {
                    a ^= 0x1b;
                }
                b >>= 1;
            }
            p
        }
        let inv = (1..=255u8).find(|&y| mul(x, y) == 1).unwrap_or(0);
        let mut s = inv;
        for i in 1..5 {
            s ^= inv.rotate_left(i);
        }
        s ^ 0x63
    }

    #[test]
    fn sbox_matches_definition_for_all_bytes() {
        let mut buf = [0u8; 64];
        for base in (0..256).step_by(64) {
            for (i, b) in buf.iter_mut().enumerate() {
                *b = (base + i) as u8;
            }
            sub_bytes_64(&mut buf);
            for (i, b) in buf.iter().enumerate() {
                assert_eq!(*b, sbox_reference((base + i) as u8), "S({})", base + i);
            }
        }
        assert_eq!(sbox_reference(0), 0x63);
        assert_eq!(sbox_reference(0x53), 0xed);
    }
}
