//! Portable constant-time AES encryption: bitsliced and fixsliced.
//!
//! No table is indexed by secret data and no branch depends on it.
//!
//! # Bitslicing
//! A batch of 4·L blocks is held as eight "planes" of L 64-bit lanes: plane p holds bit p
//! of every byte, so one AND or XOR on a plane acts on 64·L bytes at once. Within a lane
//! (4 blocks), the bit of block b, row r, column c sits at index 16r + 4c + b: a row is
//! one 16-bit group, a column one nibble of it. Two consequences:
//! - "the same column, one row down" is the whole lane rotated right by 16 bits;
//! - "the same row, one column on" is each 16-bit group rotated right by 4 bits.
//!
//! SubBytes is the Boyar-Matthews-Peralta S-box circuit: 32 AND and 81 XOR on planes (its
//! four XNORs become XORs: their complement is the affine constant 0x63, folded into the
//! round keys, see below). The word type is generic ([`Word`]): SSE2 or NEON registers of
//! two lanes (8 blocks) where the architecture guarantees them (`aes::soft_word`),
//! else one u64 lane.
//!
//! # Fixslicing (Adomnicai and Peyrin, TCHES 2021/1)
//! ShiftRows ρ, (ρS)(r, c) = S(r, c + r), would cost a masked rotation per row. Instead
//! the state after round i is kept as P_i = ρ^-i(S_i). Since SubBytes commutes with any
//! byte permutation, S_(i+1) = MC(ρ(SB(S_i))) xor K_(i+1) becomes
//!     P_(i+1) = MC_(i+1)(SB(P_i)) xor ρ^-(i+1)(K_(i+1)),   MC_j = ρ^-j ∘ MC ∘ ρ^j,
//! and MC_j mixes "diagonal" columns: out(r, c) = 2·P(r, c) xor 3·P(r+1, c+j) xor
//! P(r+2, c+2j) xor P(r+3, c+3j). With T_j = one row down and j columns on (a 16-bit
//! lane rotation and a 4j-bit rotation inside each group) and t = P xor T_j(P):
//!     MC_j(P) = 2·t xor T_j(P) xor T_j^2(t).
//! ρ has order 4, so four MC_j variants exist (j = 0 needs no group rotation at all). The
//! last round has no MixColumns: S_R = ρ^R(SB(P_(R-1)) xor ρ^-R(K_R)), and ρ^(R mod 4) is
//! applied once, on the planes before unpacking (row r's columns rotated by r·(R mod 4)). The round keys are
//! stored pre-permuted (ρ^-i(K_i)) and pre-packed in [`Schedule`].
//!
//! The S-box's constant 0x63 in every byte passes through MC_j unchanged (a column of
//! equal bytes c maps to 2c + 3c + c + c = c), so it is added to every round key after
//! round 0 instead of to every S-box output.

use super::word::{Lanes, Word};
use super::RoundKeys;
use core::ops::{BitAnd, BitXor};

/// Eight bit planes of a batch.
type Planes<W> = [W; 8];

/// Swaps the bit groups selected by `mask` between `a >> shift` and `b` (every lane).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn swap_move<W: Word>(a: &mut W, b: &mut W, mask: u64, shift: u32) {
    let t = (a.shr(shift) ^ *b) & W::splat(mask);
    *b = *b ^ t;
    *a = *a ^ t.shl(shift);
}

/// Swaps, inside each lane, the bits selected by `mask` with those `shift` above them.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn delta_swap<W: Word>(x: W, mask: u64, shift: u32) -> W {
    let t = (x.shr(shift) ^ x) & W::splat(mask);
    x ^ t ^ t.shl(shift)
}

/// Transposes 8 words of 8 bytes per lane: index a bit by (word k, byte j, bit b); the
/// three swap-move stages exchange b and k, so afterwards word b holds at bit 8j + k what
/// was bit b of byte j of word k. An involution: the same call transposes back.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn transpose<W: Word>(w: &mut [W; 8]) {
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

/// Packs 4·LANES blocks into planes.
///
/// Transposition word k of a lane holds columns c with c & 1 = k >> 2 (0 and 2, or 1 and
/// 3) of block k & 3, bytes reordered so that byte j is row j >> 1 of column
/// 2(j & 1) + (k >> 2): after [`transpose`] the bit of block b, row r, column c lands at
/// 8j + k = 16r + 4c + b. Gathering the two columns is two masks and a shift of the
/// block's halves; the reordering interleaves the two columns bytewise with two delta
/// swaps (the middle 16-bit pairs, then the middle bytes of each 32-bit half).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn pack<W: Word>(blocks: &[[u8; 16]], p: &mut Planes<W>) {
    const LOW: u64 = 0x0000_0000_ffff_ffff;
    for b in 0..4 {
        let (mut lo, mut hi) = (W::default(), W::default());
        for l in 0..W::LANES {
            let blk = &blocks[4 * l + b];
            lo.set_lane(l, u64::from_le_bytes(blk[..8].try_into().unwrap_or([0; 8])));
            hi.set_lane(l, u64::from_le_bytes(blk[8..].try_into().unwrap_or([0; 8])));
        }
        let even = (lo & W::splat(LOW)) ^ hi.shl(32);
        let odd = lo.shr(32) ^ (hi & W::splat(!LOW));
        for (k, w) in [(b, even), (b + 4, odd)] {
            let w = delta_swap(w, 0x0000_0000_ffff_0000, 16);
            p[k] = delta_swap(w, 0x0000_ff00_0000_ff00, 8);
        }
    }
    transpose(p);
}

/// Unpacks planes into 4·LANES blocks, applying ρ^`shift` (ShiftRows `shift` times):
/// row r's columns move on by shift·r, on the planes, before the inverse of [`pack`].
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn unpack<W: Word>(p: &Planes<W>, blocks: &mut [[u8; 16]], shift: u32) {
    const LOW: u64 = 0x0000_0000_ffff_ffff;
    let mut w = *p;
    if !shift.is_multiple_of(4) {
        for x in w.iter_mut() {
            let mut y = *x & W::splat(0xffff);
            for r in 1..4 {
                y = y ^ (x.cols_on(shift * r) & W::splat(0xffff << (16 * r)));
            }
            *x = y;
        }
    }
    transpose(&mut w);
    for b in 0..4 {
        let [even, odd] = [w[b], w[b + 4]].map(|x| {
            let x = delta_swap(x, 0x0000_ff00_0000_ff00, 8);
            delta_swap(x, 0x0000_0000_ffff_0000, 16)
        });
        let lo = (even & W::splat(LOW)) ^ odd.shl(32);
        let hi = even.shr(32) ^ (odd & W::splat(!LOW));
        for l in 0..W::LANES {
            let blk = &mut blocks[4 * l + b];
            blk[..8].copy_from_slice(&lo.lane(l).to_le_bytes());
            blk[8..].copy_from_slice(&hi.lane(l).to_le_bytes());
        }
    }
    crate::secret::wipe::wipe(&mut w);
}

/// SubBytes without its affine constant (see the module docs), on planes: the circuit of
/// Boyar, Matthews and Peralta, "A very compact S-box for AES" (2011/2013), with its bit
/// numbering (u0 = the byte's most significant bit) mapped onto plane numbers.
///
/// `at(k)` runs at [`SBOX_SLOTS`] points spread over the circuit (stitched work, see
/// [`Schedule::encrypt_with`]).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn sub_bytes<W: Copy + BitXor<Output = W> + BitAnd<Output = W>>(
    p: &mut [W; 8],
    mut at: impl FnMut(usize),
) {
    let [u7, u6, u5, u4, u3, u2, u1, u0] = *p;
    // Top linear layer: 8 inputs to 22 (23 XOR).
    let y14 = u3 ^ u5;
    let y13 = u0 ^ u6;
    let y9 = u0 ^ u3;
    let y8 = u0 ^ u5;
    let t0 = u1 ^ u2;
    let y1 = t0 ^ u7;
    let y4 = y1 ^ u3;
    let y12 = y13 ^ y14;
    let y2 = y1 ^ u0;
    let y5 = y1 ^ u6;
    let y3 = y5 ^ y8;
    let t1 = u4 ^ y12;
    let y15 = t1 ^ u5;
    let y20 = t1 ^ u1;
    let y6 = y15 ^ u7;
    let y10 = y15 ^ t0;
    let y11 = y20 ^ y9;
    let y7 = u7 ^ y11;
    let y17 = y10 ^ y11;
    let y19 = y10 ^ y8;
    let y16 = t0 ^ y11;
    let y21 = y13 ^ y16;
    let y18 = u0 ^ y16;
    at(0);
    // Middle: inversion in GF(2^4)^2 (the non-linear part).
    let t2 = y12 & y15;
    let t3 = y3 & y6;
    let t4 = t3 ^ t2;
    let t5 = y4 & u7;
    let t6 = t5 ^ t2;
    let t7 = y13 & y16;
    let t8 = y5 & y1;
    let t9 = t8 ^ t7;
    let t10 = y2 & y7;
    let t11 = t10 ^ t7;
    let t12 = y9 & y11;
    let t13 = y14 & y17;
    let t14 = t13 ^ t12;
    let t15 = y8 & y10;
    let t16 = t15 ^ t12;
    let t17 = t4 ^ y20;
    let t18 = t6 ^ t16;
    let t19 = t9 ^ t14;
    let t20 = t11 ^ t16;
    let t21 = t17 ^ t14;
    let t22 = t18 ^ y19;
    let t23 = t19 ^ y21;
    let t24 = t20 ^ y18;
    at(1);
    let t25 = t21 ^ t22;
    let t26 = t21 & t23;
    let t27 = t24 ^ t26;
    let t28 = t25 & t27;
    let t29 = t28 ^ t22;
    let t30 = t23 ^ t24;
    let t31 = t22 ^ t26;
    let t32 = t31 & t30;
    let t33 = t32 ^ t24;
    let t34 = t23 ^ t33;
    let t35 = t27 ^ t33;
    let t36 = t24 & t35;
    let t37 = t36 ^ t34;
    let t38 = t27 ^ t36;
    let t39 = t29 & t38;
    let t40 = t25 ^ t39;
    let t41 = t40 ^ t37;
    let t42 = t29 ^ t33;
    let t43 = t29 ^ t40;
    let t44 = t33 ^ t37;
    let t45 = t42 ^ t41;
    at(2);
    let z0 = t44 & y15;
    let z1 = t37 & y6;
    let z2 = t33 & u7;
    let z3 = t43 & y16;
    let z4 = t40 & y1;
    let z5 = t29 & y7;
    let z6 = t42 & y11;
    let z7 = t45 & y17;
    let z8 = t41 & y10;
    let z9 = t44 & y12;
    let z10 = t37 & y3;
    let z11 = t33 & y4;
    let z12 = t43 & y13;
    let z13 = t40 & y5;
    let z14 = t29 & y2;
    let z15 = t42 & y9;
    let z16 = t45 & y14;
    let z17 = t41 & y8;
    at(3);
    // Bottom linear layer: 18 products to 8 outputs.
    let tc1 = z15 ^ z16;
    let tc2 = z10 ^ tc1;
    let tc3 = z9 ^ tc2;
    let tc4 = z0 ^ z2;
    let tc5 = z1 ^ z0;
    let tc6 = z3 ^ z4;
    let tc7 = z12 ^ tc4;
    let tc8 = z7 ^ tc6;
    let tc9 = z8 ^ tc7;
    let tc10 = tc8 ^ tc9;
    let tc11 = tc6 ^ tc5;
    let tc12 = z3 ^ z5;
    let tc13 = z13 ^ tc1;
    let tc14 = tc4 ^ tc12;
    let s3 = tc3 ^ tc11;
    let tc16 = z6 ^ tc8;
    let tc17 = z14 ^ tc10;
    let tc18 = tc13 ^ tc14;
    let s7 = z12 ^ tc18; // complemented in the S-box: the 0x63 constant
    let tc20 = z15 ^ tc16;
    let tc21 = tc2 ^ z11;
    let s0 = tc3 ^ tc16;
    let s6 = tc10 ^ tc18; // complemented
    let s4 = tc14 ^ s3;
    let s1 = s3 ^ tc16; // complemented
    let tc26 = tc17 ^ tc20;
    let s2 = tc26 ^ z17; // complemented
    let s5 = tc21 ^ tc17;
    *p = [s7, s6, s5, s4, s3, s2, s1, s0];
    at(4);
}

/// Points in [`sub_bytes`] where stitched work runs.
const SBOX_SLOTS: usize = 5;

/// Points per round where [`Schedule::encrypt_with`] runs stitched work: the S-box's and
/// one after MixColumns.
pub(crate) const STITCH_POINTS: usize = SBOX_SLOTS + 1;

/// Rounds that carry stitched work with the fewest rounds (AES-128: rounds 1 to 9).
pub(crate) const MIN_STITCHED_ROUNDS: usize = 9;

/// MC_j (MixColumns on the diagonals of a state kept ρ^-j-permuted; module docs).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn mix_columns<W: Word>(p: &mut Planes<W>, j: u32) {
    let mut t = [W::default(); 8];
    let mut tp = [W::default(); 8];
    for i in 0..8 {
        tp[i] = p[i].rows_down(1).cols_on(j);
        t[i] = p[i] ^ tp[i];
    }
    // 2·t: planes shift up one, and bit 7 folds back as 0x1b (bits 0, 1, 3, 4).
    let x2 = [
        t[7],
        t[0] ^ t[7],
        t[1],
        t[2] ^ t[7],
        t[3] ^ t[7],
        t[4],
        t[5],
        t[6],
    ];
    for i in 0..8 {
        p[i] = x2[i] ^ tp[i] ^ t[i].rows_down(2).cols_on(2 * j);
    }
}

/// Round keys for fixsliced encryption of 4·L blocks at a time: ρ^-i(K_i) (with 0x63
/// added for i >= 1), replicated to every block and packed. Wiped on drop.
pub(crate) struct Schedule<W: Word> {
    k: [Planes<W>; 15],
    rounds: usize,
}

impl<W: Word> Drop for Schedule<W> {
    fn drop(&mut self) {
        for k in self.k.iter_mut() {
            crate::secret::wipe::wipe(k);
        }
    }
}

impl<W: Word> Schedule<W> {
    pub(crate) fn new(keys: &RoundKeys) -> Self {
        let rounds = keys.rounds();
        let mut s = Schedule {
            k: [[W::default(); 8]; 15],
            rounds,
        };
        let mut blocks = [[0u8; 16]; 16];
        for (i, (ki, key)) in s.k.iter_mut().zip(keys.as_blocks()).enumerate() {
            if i > rounds {
                break;
            }
            // ρ^-i: (ρ^-i K)(r, c) = K(r, c - i·r).
            let mut perm = [0u8; 16];
            for r in 0..4 {
                for c in 0..4 {
                    perm[r + 4 * c] = key[r + 4 * ((c + 4 * 4 - (i % 4) * r) % 4)];
                    if i > 0 {
                        perm[r + 4 * c] ^= 0x63;
                    }
                }
            }
            for b in blocks.iter_mut().take(4 * W::LANES) {
                *b = perm;
            }
            pack(&blocks[..4 * W::LANES], ki);
            crate::secret::wipe::wipe(&mut perm);
        }
        crate::secret::wipe::wipe(&mut blocks);
        s
    }

    /// Encrypts 4·LANES blocks in place. Out of line: one copy of the unstitched batch
    /// (about 9 KB of machine code) for its callers (ECB, counter mode, a short whole
    /// message), where inlined each held its own (docs/perf/code-size.md); a call per
    /// batch of thousands of cycles.
    #[inline(never)]
    pub(crate) fn encrypt(&self, blocks: &mut [[u8; 16]]) {
        self.encrypt_with(blocks, |_, _| {});
    }

    /// Encrypts 4·LANES blocks in place, calling `between(i, k)` in round i + 1 for
    /// i = 0 .. rounds - 2 (at least 9 rounds) at the points k = 0 ..= [`SBOX_SLOTS`]:
    /// five inside the S-box, one after MixColumns. The portable engine hashes block i
    /// there, one partial product per point (the hashing runs on the integer multiplier,
    /// the bitsliced rounds on the vector unit), as the hardware kernels stitch AES and
    /// CLMUL. The pieces are small so that the CPU's reorder window holds both kinds of
    /// work at once: whole blocks between whole rounds mostly ran one after the other
    /// (docs/tuning.md: Schedule::encrypt_with).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn encrypt_with(&self, blocks: &mut [[u8; 16]], between: impl FnMut(usize, usize)) {
        let mut p = [W::default(); 8];
        pack(blocks, &mut p);
        self.rounds_on(&mut p, between);
        unpack(&p, blocks, (self.rounds % 4) as u32);
        crate::secret::wipe::wipe(&mut p);
    }

    /// All rounds on packed planes (the caller unpacks with ρ^(rounds mod 4)).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn rounds_on(&self, p: &mut Planes<W>, mut between: impl FnMut(usize, usize)) {
        let add_key = |p: &mut Planes<W>, k: &Planes<W>| {
            for (x, y) in p.iter_mut().zip(k.iter()) {
                *x = *x ^ *y;
            }
        };
        add_key(p, &self.k[0]);
        for i in 1..self.rounds {
            sub_bytes(p, |k| between(i - 1, k));
            mix_columns(p, (i % 4) as u32);
            between(i - 1, SBOX_SLOTS);
            add_key(p, &self.k[i]);
        }
        sub_bytes(p, |_| {});
        add_key(p, &self.k[self.rounds]);
    }
}

/// The plane word of the portable engine's batches.
pub(crate) type BatchWord = super::soft_word::SimdWord;
/// Blocks per batch.
pub(crate) const BATCH: usize = 4 * <BatchWord as Word>::LANES;

/// The S-box applied to the four bytes of a word (for the key schedule; runs the circuit
/// on one lane whose first four bytes are the word).
pub(crate) fn sub_word(w: [u8; 4]) -> [u8; 4] {
    let mut blocks = [[0u8; 16]; 4];
    blocks[0][..4].copy_from_slice(&w);
    let mut p = [Lanes::<1>::default(); 8];
    pack(&blocks, &mut p);
    sub_bytes(&mut p, |_| {});
    unpack(&p, &mut blocks, 0);
    let out = [
        blocks[0][0] ^ 0x63,
        blocks[0][1] ^ 0x63,
        blocks[0][2] ^ 0x63,
        blocks[0][3] ^ 0x63,
    ];
    crate::secret::wipe::wipe(&mut blocks);
    out
}

/// Encrypts any number of blocks, [`BATCH`] at a time (a short last batch is padded; the
/// padding's count is public).
pub(crate) fn encrypt_blocks(keys: &RoundKeys, blocks: &mut [[u8; 16]]) {
    let s = Schedule::<BatchWord>::new(keys);
    let mut buf = [[0u8; 16]; BATCH];
    for group in blocks.chunks_mut(BATCH) {
        buf[..group.len()].copy_from_slice(group);
        s.encrypt(&mut buf);
        group.copy_from_slice(&buf[..group.len()]);
    }
    crate::secret::wipe::wipe(&mut buf);
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
        for x in 0..=255u8 {
            let w = sub_word([x, x ^ 0x5a, x.wrapping_add(1), !x]);
            let want = [x, x ^ 0x5a, x.wrapping_add(1), !x].map(sbox_reference);
            assert_eq!(w, want, "S({x})");
        }
        assert_eq!(sbox_reference(0), 0x63);
        assert_eq!(sbox_reference(0x53), 0xed);
    }

    #[test]
    fn pack_then_unpack_is_the_identity() {
        let mut blocks = [[0u8; 16]; 8];
        for (i, b) in blocks.iter_mut().enumerate() {
            for (j, x) in b.iter_mut().enumerate() {
                *x = (i * 16 + j) as u8 ^ 0xa5;
            }
        }
        let mut p = [Lanes::<2>::default(); 8];
        pack(&blocks, &mut p);
        let mut out = [[0u8; 16]; 8];
        unpack(&p, &mut out, 0);
        assert_eq!(out, blocks);
    }

    /// FIPS 197 Appendix C: every key size, and every block position of a batch.
    #[test]
    fn fips197_appendix_c() {
        let pt: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
        for (klen, want) in [
            (16, "69c4e0d86a7b0430d8cdb78070b4c55a"),
            (24, "dda97ca4864cdfe06eaf70a0ec0d7191"),
            (32, "8ea2b7ca516745bfeafc49904b496089"),
        ] {
            let key: Vec<u8> = (0..klen as u8).collect();
            let rk = RoundKeys::new(&key).unwrap();
            let mut blocks = [pt; 11];
            encrypt_blocks(&rk, &mut blocks);
            for b in blocks {
                let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
                assert_eq!(hex, want, "AES-{}", klen * 8);
            }
        }
    }

    /// Every plane word computes the same AES: the u64 words (one and two lanes, the
    /// engine's word on targets without SSE2 or NEON) against this target's vector word,
    /// on distinct blocks in every batch position, for every key size; and the first
    /// block against FIPS 197 App. C.1.
    #[test]
    fn every_plane_word_agrees() {
        fn run<W: Word>(rk: &RoundKeys, blocks: &[[u8; 16]]) -> Vec<[u8; 16]> {
            let s = Schedule::<W>::new(rk);
            let mut out = Vec::new();
            for group in blocks.chunks(4 * W::LANES) {
                let mut b = group.to_vec();
                s.encrypt(&mut b);
                out.extend(b);
            }
            out
        }
        let mut blocks: Vec<[u8; 16]> = (0..16u8)
            .map(|i| core::array::from_fn(|j| i.wrapping_mul(37) ^ (j as u8).wrapping_mul(11)))
            .collect();
        blocks[0] = core::array::from_fn(|i| (i as u8) * 0x11);
        for klen in [16, 24, 32] {
            let key: Vec<u8> = (0..klen as u8).map(|x| x ^ 0x5c).collect();
            let rk = RoundKeys::new(&key).unwrap();
            let want = run::<BatchWord>(&rk, &blocks);
            assert_eq!(
                run::<Lanes<1>>(&rk, &blocks),
                want,
                "one u64 lane, AES-{}",
                klen * 8
            );
            assert_eq!(
                run::<Lanes<2>>(&rk, &blocks),
                want,
                "two u64 lanes, AES-{}",
                klen * 8
            );
            // Distinct inputs give distinct outputs (no lane mixed into another).
            assert!(want.windows(2).all(|w| w[0] != w[1]));
        }
        let key: Vec<u8> = (0..16u8).collect();
        let rk = RoundKeys::new(&key).unwrap();
        let hex: String = run::<Lanes<1>>(&rk, &blocks[..4])[0]
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect();
        assert_eq!(hex, "69c4e0d86a7b0430d8cdb78070b4c55a");
    }
}
