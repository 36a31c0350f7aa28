//! Portable constant-time carry-less multiplication and reduction.
//!
//! # Carry-less multiply from integer multiplies
//! An integer product is a carry-less product plus carries. If both operands keep only
//! every fourth bit (positions = i mod 4), the product's terms land on positions = k mod 4
//! (k = i + j), and position p collects at most p/4 + 1 one-bit terms: at most 15 below
//! bit 60, so each count fits in the four bits from p up and never reaches p + 4, the next
//! position of the same residue. Below bit 64 the 16 products of residue pairs, XORed per
//! residue k and masked to it, are therefore exactly the low 64 bits of the carry-less
//! product (at p = 60..63 a count of 16 carries only past bit 63, out of the word). These
//! are plain 64-bit multiplies (`wrapping_mul`, one IMUL on x86_64: no fixed registers,
//! unlike a 128-bit MUL, whose loop had 330 MOVs per block in the disassembly). Integer
//! multiplication is constant-time on every CPU gcmkit targets, and no branch or index
//! depends on data.
//!
//! The high 64 bits come from bit reversal: with rev the 64-bit reversal,
//! rev(lo64(rev(a)·rev(b))) holds bits 63..126 of a·b, so hi64(a·b) is it shifted right
//! by one. Reversal is linear, so reversed products are summed over a whole batch of
//! blocks and reversed once at the end.
//!
//! Per block (Karatsuba, three 64x64 products): six low-half products of 16 multiplies
//! each, XORed into per-residue sums, and two reversals of the data's halves. Masking
//! distributes over XOR, so the residue masks are applied once per batch of 8 blocks
//! ([`ResidueSum`]; docs/tuning.md: ResidueSum). The key side
//! (powers of H, their halves, the halves' sum and all their reversals) is split once
//! per call.

use super::HashKey;

/// Bits at positions = i (mod 4).
const M4: [u64; 4] = [
    0x1111_1111_1111_1111,
    0x2222_2222_2222_2222,
    0x4444_4444_4444_4444,
    0x8888_8888_8888_8888,
];

/// A 64-bit operand split into its four residue classes.
#[derive(Clone, Copy, Default)]
struct Residues([u64; 4]);

impl Residues {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn of(a: u64) -> Self {
        Self::with_masks(a, &M4)
    }

    /// [`Residues::of`] with the masks read from `m` (= [`M4`]). In the hashing loops `m`
    /// is an opaque copy in memory, so each mask is an AND's memory operand: as
    /// constants, the compiler rematerialized them (64-bit immediates, one instruction
    /// each) under register pressure.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn with_masks(a: u64, m: &[u64; 4]) -> Self {
        Residues([a & m[0], a & m[1], a & m[2], a & m[3]])
    }
}

/// The low 64 bits of a sum of carry-less products, kept per residue and unmasked:
/// `z[k]` is the XOR of the integer products whose terms land on positions = k (mod 4).
/// Masking distributes over XOR, so a whole batch of products is masked once, at
/// [`ResidueSum::value`], not once per product.
#[derive(Clone, Copy, Default)]
struct ResidueSum([u64; 4]);

impl ResidueSum {
    /// Adds the low 64 bits of x·y (carry-less): the 16 residue-pair products.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn add(&mut self, x: &Residues, y: &Residues) {
        let (x, y, z) = (&x.0, &y.0, &mut self.0);
        z[0] ^= x[0].wrapping_mul(y[0])
            ^ x[1].wrapping_mul(y[3])
            ^ x[2].wrapping_mul(y[2])
            ^ x[3].wrapping_mul(y[1]);
        z[1] ^= x[0].wrapping_mul(y[1])
            ^ x[1].wrapping_mul(y[0])
            ^ x[2].wrapping_mul(y[3])
            ^ x[3].wrapping_mul(y[2]);
        z[2] ^= x[0].wrapping_mul(y[2])
            ^ x[1].wrapping_mul(y[1])
            ^ x[2].wrapping_mul(y[0])
            ^ x[3].wrapping_mul(y[3]);
        z[3] ^= x[0].wrapping_mul(y[3])
            ^ x[1].wrapping_mul(y[2])
            ^ x[2].wrapping_mul(y[1])
            ^ x[3].wrapping_mul(y[0]);
    }

    /// The sum's low 64 bits.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn value(self) -> u64 {
        let z = self.0;
        (z[0] & M4[0]) | (z[1] & M4[1]) | (z[2] & M4[2]) | (z[3] & M4[3])
    }
}

/// The six 64-bit operands of one side of a Karatsuba product a·b, a = a1·x^64 + a0:
/// the halves a0, a1 and their sum a0 + a1 (for the low, high and middle products), each
/// followed by its bit reversal (for that product's high half). Part k of a is multiplied
/// with part k of b; [`PARTS`] partial products make one field product.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn parts_of(a: u128) -> [u64; PARTS] {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (r0, r1) = (a0.reverse_bits(), a1.reverse_bits());
    // The reversal of the halves' sum is the sum of their reversals.
    [a0, r0, a1, r1, a0 ^ a1, r0 ^ r1]
}

/// Partial products per field product: low halves and reversed high halves of the low,
/// high and middle Karatsuba products.
pub(crate) const PARTS: usize = 6;

/// The 128-bit carry-less product (sum) from its low half and its reversed high half.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn finish(lo: ResidueSum, rev_hi: ResidueSum) -> u128 {
    (((rev_hi.value().reverse_bits() >> 1) as u128) << 64) | lo.value() as u128
}

/// 64 x 64 -> 128-bit carry-less product (the tests' window onto the multiplier).
#[cfg(test)]
fn clmul64(a: u64, b: u64) -> u128 {
    let (mut lo, mut rev_hi) = (ResidueSum::default(), ResidueSum::default());
    lo.add(&Residues::of(a), &Residues::of(b));
    rev_hi.add(
        &Residues::of(a.reverse_bits()),
        &Residues::of(b.reverse_bits()),
    );
    finish(lo, rev_hi)
}

/// A field element's [`parts_of`], split into residues once (the key side: powers of H).
#[derive(Clone, Copy, Default)]
struct SplitElement([Residues; PARTS]);

impl SplitElement {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn of(a: u128) -> Self {
        SplitElement(parts_of(a).map(Residues::of))
    }

    /// Overwrites the split (it holds key material).
    fn wipe(&mut self) {
        for r in self.0.iter_mut() {
            crate::secret::wipe::wipe(&mut r.0);
        }
    }
}

/// An unreduced sum of products in Karatsuba form: one [`ResidueSum`] per part (see
/// [`parts_of`]); the middle product still holds (a0+a1)(b0+b1), the low and high ones
/// are folded into it at reduction.
#[derive(Clone, Copy, Default)]
pub(crate) struct Wide([ResidueSum; PARTS]);

impl Wide {
    /// Adds the product a·b.
    #[inline]
    pub(crate) fn add_product(&mut self, a: u128, b: u128) {
        let mut b = SplitElement::of(b);
        self.add_split(a, &b, &M4);
        b.wipe();
    }

    /// Adds the product a·b with b already split.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn add_split(&mut self, a: u128, b: &SplitElement, m: &[u64; 4]) {
        for (k, a_k) in parts_of(a).into_iter().enumerate() {
            self.add_part(k, a_k, b, m);
        }
    }

    /// Adds partial product `k` of a·b, given part `k` of a (`parts_of`).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn add_part(&mut self, k: usize, a_k: u64, b: &SplitElement, m: &[u64; 4]) {
        self.0[k].add(&Residues::with_masks(a_k, m), &b.0[k]);
    }

    /// Montgomery reduction: returns (this product)·x^-128 mod p.
    ///
    /// With c = c3·x^192 + c2·x^128 + c1·x^64 + c0, adding c0·p clears c0 (p = 1 mod
    /// x^64): c0·(x^127 + x^126 + x^121) = x^64·c0·(x^63 + x^62 + x^57) lands in c1, c2
    /// and c0·x^128 in c2. The same step clears c1. The remaining c3·x^64 + c2 equals
    /// c·x^-128 mod p and has degree < 128.
    #[inline]
    pub(crate) fn reduce(self) -> u128 {
        let z = self.0;
        let (lo, hi, mid) = (finish(z[0], z[1]), finish(z[2], z[3]), finish(z[4], z[5]));
        let mid = mid ^ lo ^ hi;
        let lo = lo ^ (mid << 64);
        let hi = hi ^ (mid >> 64);
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
pub(crate) fn dot(a: u128, b: u128) -> u128 {
    let mut w = Wide::default();
    w.add_product(a, b);
    w.reduce()
}

/// Up to eight powers of H (H^width .. H^1), split once for many batches of `width`
/// blocks, or H alone when no whole batch is coming (a GMAC tag's length block, a few
/// blocks of AAD: splitting eight powers would cost more than hashing them). Wiped on drop.
pub(crate) struct Powers {
    split: [SplitElement; 8],
    width: usize,
    /// All `width` powers are split (else only H, at `split[width - 1]`).
    full: bool,
    flavor: super::Flavor,
    /// [`M4`], opaque to the optimizer (see [`Residues::with_masks`]).
    masks: [u64; 4],
}

impl Powers {
    /// The powers an input of `len` bytes needs.
    pub(crate) fn for_len(key: &HashKey, len: usize) -> Self {
        let width = key.count.min(8);
        let full = len >= 16 * width;
        let mut split = [SplitElement::default(); 8];
        for (i, p) in split.iter_mut().enumerate().take(width) {
            if full || i == width - 1 {
                *p = SplitElement::of(key.power(width - i));
            }
        }
        Powers {
            split,
            width,
            full,
            flavor: key.flavor,
            masks: core::hint::black_box(M4),
        }
    }

    /// Blocks per reduction when all powers are split, else 0 (no batches).
    pub(crate) fn batch_blocks(&self) -> usize {
        if self.full {
            self.width
        } else {
            0
        }
    }

    /// Block `i` of a batch as a field element, with the running `acc` added into block 0
    /// (GHASH's X_i = (X_(i-1) + C_i)·H, aggregated over the batch).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn block_in(&self, i: usize, block: &[u8; 16], acc: u128) -> u128 {
        let x = self.flavor.load(block);
        if i == 0 {
            x ^ acc
        } else {
            x
        }
    }

    /// Absorbs `data` (final partial block zero-padded) into `acc`: whole batches with one
    /// reduction each (when all powers are split), the rest block by block with H.
    pub(crate) fn update(&self, acc: &mut u128, data: &[u8]) {
        let batch = 16 * self.batch_blocks();
        let whole = data.len().checked_div(batch).map_or(0, |n| n * batch);
        for group in data[..whole].chunks_exact(batch.max(16)) {
            let mut w = Wide::default();
            for (i, blk) in group.as_chunks::<16>().0.iter().enumerate() {
                w.add_split(self.block_in(i, blk, *acc), &self.split[i], &self.masks);
            }
            *acc = w.reduce();
        }
        for blk in data[whole..].chunks(16) {
            let mut b = [0u8; 16];
            b[..blk.len()].copy_from_slice(blk);
            let mut w = Wide::default();
            w.add_split(
                self.block_in(0, &b, *acc),
                &self.split[self.width - 1],
                &self.masks,
            );
            *acc = w.reduce();
        }
    }
}

/// One batch of `N` blocks hashed in [`PARTS`] slots per block, for stitching into the
/// rounds of the batch's keystream (`aes::soft::Schedule::encrypt_with`). The slots are
/// small (one partial product each, about 50 instructions) so that the CPU's reorder
/// window holds AES and multiplier work at once: whole blocks (about 440 instructions)
/// between whole rounds ran one after the other. `N` is a constant so that the stitched
/// loop indexes blocks and powers without bounds checks.
pub(crate) struct BatchHash<'a, const N: usize> {
    powers: &'a Powers,
    src: &'a [[u8; 16]; N],
    acc: u128,
    parts: [u64; PARTS],
    w: Wide,
}

impl<'a, const N: usize> BatchHash<'a, N> {
    /// Hashing of the batch `src` (N blocks) into `acc`; `None` unless `powers` holds
    /// exactly N split powers (`batch_blocks() == N`).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn new(powers: &'a Powers, src: &'a [[u8; 16]; N], acc: u128) -> Option<Self> {
        (powers.batch_blocks() == N).then_some(BatchHash {
            powers,
            src,
            acc,
            parts: [0; PARTS],
            w: Wide::default(),
        })
    }

    /// Slot `k` (< [`PARTS`]) of block `i` (< N): slot 0 loads and splits the block, each
    /// slot adds one partial product. Other indices are ignored.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn slot(&mut self, i: usize, k: usize) {
        let p = self.powers;
        let (Some(block), Some(power)) = (self.src.get(i), p.split.get(i)) else {
            return;
        };
        if k == 0 {
            self.parts = parts_of(p.block_in(i, block, self.acc));
        }
        if let Some(&part) = self.parts.get(k) {
            self.w.add_part(k, part, power, &p.masks);
        }
    }

    /// The new accumulator (every slot of every block must have run).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn finish(self) -> u128 {
        self.w.reduce()
    }
}

impl Drop for Powers {
    fn drop(&mut self) {
        for p in self.split.iter_mut() {
            p.wipe();
        }
    }
}

/// Absorbs `data` (final partial block zero-padded) into `acc`, eight blocks per
/// reduction.
pub(crate) fn update_padded(key: &HashKey, acc: &mut u128, data: &[u8]) {
    Powers::for_len(key, data.len()).update(acc, data);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clmul_reference(a: u64, b: u64) -> u128 {
        (0..64)
            .filter(|i| (b >> i) & 1 == 1)
            .fold(0u128, |z, i| z ^ ((a as u128) << i))
    }

    /// The stitched hashing's contract: all slots of a batch, in the order the AES rounds
    /// call them (every slot of block i before block i + 1, with calls for blocks past the
    /// batch), give what the unstitched update gives; a batch width other than the
    /// powers' is refused rather than hashed wrongly.
    #[test]
    fn batch_hash_equals_unstitched_update() {
        use super::super::HashKey;
        for key in [HashKey::ghash(&[0x5c; 16]), HashKey::polyval(&[0xa3; 16])] {
            let mut data = [[0u8; 16]; 8];
            for (i, b) in data.iter_mut().enumerate() {
                for (j, x) in b.iter_mut().enumerate() {
                    *x = (i * 31 + j * 7) as u8 ^ 0x96;
                }
            }
            let acc = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
            let powers = Powers::for_len(&key, 128);
            let mut want = acc;
            powers.update(&mut want, data.as_flattened());
            let mut hash = BatchHash::new(&powers, &data, acc).expect("8 split powers");
            for i in 0..13 {
                for k in 0..=PARTS {
                    hash.slot(i, k);
                }
            }
            assert_eq!(hash.finish(), want);
            let half: &[[u8; 16]; 4] = data.first_chunk().expect("8 blocks");
            assert!(BatchHash::new(&powers, half, acc).is_none());
            let short = Powers::for_len(&key, 64);
            assert!(BatchHash::new(&short, &data, acc).is_none());
        }
    }

    #[test]
    fn clmul64_matches_shift_and_xor() {
        let edge = [0u64, 1, u64::MAX, 1 << 63, 0x8000_0000_0000_0001];
        for &a in &edge {
            for &b in &edge {
                assert_eq!(clmul64(a, b), clmul_reference(a, b));
            }
        }
        for x in crate::testing::xorshift64(0x9e37_79b9_7f4a_7c15).take(2000) {
            let y = x.rotate_left(29) ^ 0x5555;
            assert_eq!(clmul64(x, y), clmul_reference(x, y));
        }
    }
}
