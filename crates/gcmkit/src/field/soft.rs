//! Portable constant-time carry-less multiplication and reduction.
//!
//! # Carry-less multiply from integer multiplies
//! An integer product is a carry-less product plus carries. If both operands keep only
//! every fifth bit (bits at positions = i mod 5), each output position collects at most
//! 13 one-bit terms; 13 < 2^5, so its carries stay in the four positions above it, which
//! belong to other residues and are masked off. Splitting each 64-bit operand into the
//! five residue classes, the 25 integer products, masked to the residue i + j mod 5, give
//! the exact 128-bit carry-less product. Integer multiplication is constant-time on every
//! CPU gcmkit targets, and no branch or index depends on data.

use super::HashKey;

/// `m[i]` has the bits at positions = i (mod 5).
const fn residue_masks() -> [u128; 5] {
    let mut m = [0u128; 5];
    let mut pos = 0;
    while pos < 128 {
        m[pos % 5] |= 1u128 << pos;
        pos += 1;
    }
    m
}
const MASKS: [u128; 5] = residue_masks();

/// 64 x 64 -> 128-bit carry-less product.
#[inline]
pub fn clmul64(a: u64, b: u64) -> u128 {
    let mut xs = [0u128; 5];
    let mut ys = [0u128; 5];
    for i in 0..5 {
        xs[i] = (a as u128) & MASKS[i];
        ys[i] = (b as u128) & MASKS[i];
    }
    let mut z = 0u128;
    for k in 0..5 {
        let mut acc = 0u128;
        for i in 0..5 {
            // Both factors are below 2^64, so the u128 product never overflows.
            acc ^= xs[i].wrapping_mul(ys[(k + 5 - i) % 5]);
        }
        z |= acc & MASKS[k];
    }
    z
}

/// An unreduced 256-bit product in Karatsuba form: a·b = hi·x^128 + mid·x^64 + lo, with
/// `mid` still holding (a0+a1)(b0+b1) (lo and hi are folded in at reduction).
#[derive(Clone, Copy, Default)]
pub struct Wide {
    lo: u128,
    mid: u128,
    hi: u128,
}

impl Wide {
    /// Adds the product a·b.
    #[inline]
    pub fn add_product(&mut self, a: u128, b: u128) {
        let (a0, a1) = (a as u64, (a >> 64) as u64);
        let (b0, b1) = (b as u64, (b >> 64) as u64);
        self.lo ^= clmul64(a0, b0);
        self.hi ^= clmul64(a1, b1);
        self.mid ^= clmul64(a0 ^ a1, b0 ^ b1);
    }

    /// Montgomery reduction: returns (this product)·x^-128 mod p.
    ///
    /// With c = c3·x^192 + c2·x^128 + c1·x^64 + c0, adding c0·p clears c0 (p = 1 mod
    /// x^64): c0·(x^127 + x^126 + x^121) = x^64·c0·(x^63 + x^62 + x^57) lands in c1, c2
    /// and c0·x^128 in c2. The same step clears c1. The remaining c3·x^64 + c2 equals
    /// c·x^-128 mod p and has degree < 128.
    #[inline]
    pub fn reduce(self) -> u128 {
        let mid = self.mid ^ self.lo ^ self.hi;
        let lo = self.lo ^ (mid << 64);
        let hi = self.hi ^ (mid >> 64);
        let (c0, mut c1) = (lo as u64, (lo >> 64) as u64);
        let (mut c2, mut c3) = (hi as u64, (hi >> 64) as u64);
        let fold = |c: u64| -> u128 {
            let c = c as u128;
            (c << 63) ^ (c << 62) ^ (c << 57)
        };
        let t = fold(c0);
        c1 ^= t as u64;
        c2 ^= (t >> 64) as u64 ^ c0;
        let t = fold(c1);
        c2 ^= t as u64;
        c3 ^= (t >> 64) as u64 ^ c1;
        ((c3 as u128) << 64) | c2 as u128
    }
}

/// POLYVAL's product a·b·x^-128 mod p.
#[inline]
pub fn dot(a: u128, b: u128) -> u128 {
    let mut w = Wide::default();
    w.add_product(a, b);
    w.reduce()
}

/// Absorbs `data` (final partial block zero-padded) into `acc`, eight blocks per
/// reduction.
pub fn update_padded(key: &HashKey, acc: &mut u128, data: &[u8]) {
    let flavor = key.flavor;
    // Eight blocks per reduction (or fewer if the key has fewer powers).
    let width = key.count.min(8);
    let mut chunks = data.chunks_exact(16 * width);
    for group in &mut chunks {
        let mut w = Wide::default();
        for (i, blk) in group.chunks_exact(16).enumerate() {
            let mut x = flavor.load(blk.try_into().unwrap_or(&[0; 16]));
            if i == 0 {
                x ^= *acc;
            }
            w.add_product(x, key.power(width - i));
        }
        *acc = w.reduce();
    }
    let rest = chunks.remainder();
    let mut blocks = rest.chunks_exact(16);
    for blk in &mut blocks {
        *acc = dot(
            *acc ^ flavor.load(blk.try_into().unwrap_or(&[0; 16])),
            key.power(1),
        );
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mut b = [0u8; 16];
        b[..tail.len()].copy_from_slice(tail);
        *acc = dot(*acc ^ flavor.load(&b), key.power(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clmul_reference(a: u64, b: u64) -> u128 {
        (0..64)
            .filter(|i| (b >> i) & 1 == 1)
            .fold(0u128, |z, i| z ^ ((a as u128) << i))
    }

    #[test]
    fn clmul64_matches_shift_and_xor() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let edge = [0u64, 1, u64::MAX, 1 << 63, 0x8000_0000_0000_0001];
        for &a in &edge {
            for &b in &edge {
                assert_eq!(clmul64(a, b), clmul_reference(a, b));
            }
        }
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(29) ^ 0x5555;
            assert_eq!(clmul64(x, y), clmul_reference(x, y));
        }
    }
}
