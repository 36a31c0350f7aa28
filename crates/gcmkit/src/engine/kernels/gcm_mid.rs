//! AES-GCM of a message of five to `Simd::GCM_MID_BLOCKS` blocks under a 96-bit IV, on
//! the engine's wide vectors: a TLS record or QUIC packet of 65 to 256 bytes, the sizes
//! between `gcm_few` and the stitched bulk kernel. There, below two of its batches, the
//! bulk kernel runs CTR and then GHASH as two passes, with the AAD, the length block and
//! E(K, Y0) each a step of its own, and the small kernel runs one block per AES chain
//! (docs/tuning.md: gcm_mid).
//!
//! With D data blocks in `NV` vectors of `LANES` blocks (the last vector may be part
//! full: its absent lanes are zero), the message is NV + 1 AES chains and one GHASH batch
//! of a + D + 1 blocks (a the AAD's blocks) with one reduction:
//!     Y0 = IV || 0^31 1,  Y_i = IV || be32(1 + i) (i = 1..D: only the last byte, 1 + i
//!         <= 17, so Y_i is Y0 xor (1 xor (1 + i)) << 120, and the whitened counter
//!         vectors are Y0's whitened block, broadcast, xor a constant row),
//!     C_i = P_i xor MSB(E(K, Y_i)) (the last vector's keystream cut to the message),
//!     S = A_1·H^(a+D+1) + ... + C_1·H^(D+1) + ... + C_D·H^2 + L·H,
//!     T = S xor E(K, Y0).
//! The data's products are Karatsuba (three multiplies per vector: on AMD Zen 3 the
//! multiplies, not the AES rounds, are the scarce pipe time, docs/history/cycles-amd-f25-m1.md)
//! with the powers and their helpers as whole-vector loads from the key's table: block b
//! of the batch takes the table's element b, so a vector's lanes take consecutive
//! elements. An absent lane (D odd on two lanes) is zero and multiplies the length
//! block's power, which is in the table. The AAD blocks and the length block are single
//! blocks, summed into lane 0 before the one reduction.

use super::super::simd::Simd;
use super::aes::middle_rounds;
use super::for_count;
use super::gcm_few::FEW_DATA;
use super::ghash::{absorb_padded, gcm_tag, Sums, Table};
use crate::aes::RoundKeys;
use crate::engine::Data;
use crate::field::{Flavor, HashKey, POWERS};
use crate::spec::gcm::iv96_block;

/// Most data blocks any backend's [`gcm_mid`] takes: eight vectors of two blocks.
pub(crate) const MID_MAX: usize = 16;

/// Row i: Y_(i+1) xor Y0 for a 96-bit IV (the counter's last byte, 1 xor (2 + i)), as the
/// little-endian integer of the block. A vector loaded from row i holds lanes i, i + 1.
static COUNTER_DELTA: [u128; MID_MAX] = counter_delta();

const fn counter_delta() -> [u128; MID_MAX] {
    let mut t = [0u128; MID_MAX];
    let mut i = 0;
    while i < MID_MAX {
        t[i] = ((1 ^ (2 + i)) as u128) << 120;
        i += 1;
    }
    t
}

/// 64 bytes of ones, then 64 of zeros: the vector loaded from byte 64 - r keeps the
/// first r bytes (r <= 64) of another.
static KEEP: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 64 {
        t[i] = 0xff;
        i += 1;
    }
    t
};

/// Whether [`gcm_mid`] takes a message of these lengths (with a 96-bit IV) on a backend
/// whose bound is `max` data blocks: more than `gcm_few`'s four blocks, at most `max`,
/// and the AAD, data and length blocks within the key's powers (one reduction).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn mid_fits(aad_len: usize, len: usize, max: usize) -> bool {
    len > FEW_DATA && len <= 16 * max && aad_len.div_ceil(16) + len.div_ceil(16) < POWERS
}

/// Whole AES-GCM of a message that [`mid_fits`] the backend's `Simd::GCM_MID_BLOCKS`
/// (anything else is an internal error: a panic on a slice bound, never memory outside
/// it), encryption or (`DEC`) decryption, from `io`'s source into its destination or in
/// place. Returns the full tag as the little-endian integer of its 16 bytes (a
/// decryption's is its ciphertext's, which the caller compares). A backend whose bound
/// is zero instantiates no kernel here and returns `None`, having written nothing.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn gcm_mid<V: Simd, const DEC: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    iv: &[u8; 12],
    aad: &[u8],
    io: Data<'_>,
) -> Option<u128> {
    const {
        // Eight vectors at most (the dispatch below), of at most two lanes (an absent
        // lane's power is the length block's only when one lane is absent).
        assert!(V::GCM_MID_BLOCKS <= 8 * V::LANES && V::GCM_MID_BLOCKS <= MID_MAX);
        assert!(V::GCM_MID_BLOCKS == 0 || V::LANES <= 2);
    }
    if const { V::GCM_MID_BLOCKS == 0 } {
        // Not reached through `Kernels` (it checks the bound, zero here).
        return None;
    }
    // The vector count is public (the length); one copy of the kernel per count. (On one
    // lane the counts 3 and 4 are never reached: a message here has more than four
    // blocks. Their copies cost build time only.)
    let vectors = io.len().div_ceil(16 * V::LANES).max(3);
    let tag = for_count!(vectors, const NV in [3 4 5 6 7], _ => 8,
        mid::<V, NV, DEC>(cpu, rk, key, iv, aad, io));
    Some(tag)
}

/// [`gcm_mid`] with `NV` data vectors (the module docs' formulas).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn mid<V: Simd, const NV: usize, const DEC: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    iv: &[u8; 12],
    aad: &[u8],
    mut io: Data<'_>,
) -> u128 {
    let bc = V::block_cpu(cpu);
    let vb = 16 * V::LANES;
    let len = io.len();
    // Bytes in the last vector, 1 to vb.
    let tail = len.wrapping_sub(vb * (NV - 1));
    let whole = |j: usize| j + 1 < NV || tail == vb;
    // The input first (independent of everything else); a part-full last vector by a
    // masked or piecewise load that never reads past the data.
    let mut input = [V::zero(cpu); NV];
    {
        let src = &io.src()[..len];
        for (j, x) in input.iter_mut().enumerate() {
            *x = if whole(j) {
                V::load(cpu, &src[vb * j..])
            } else {
                V::load_partial(cpu, &src[vb * j..])
            };
        }
    }
    // Y0 from the IV in general-purpose registers (as `gcm_few`: a 16-byte load of a block
    // built in memory cannot be store-forwarded); the counter vectors from its whitened
    // block by one XOR each.
    let k = rk.as_blocks();
    let y0 = V::Block::from_u128_computed(bc, u128::from_le_bytes(iv96_block(iv, 1)));
    let w0 = y0.xor(V::Block::load(bc, &k[0]));
    let wv = V::broadcast(cpu, w0);
    let mut e = w0;
    let mut s = [wv; NV];
    for (j, x) in s.iter_mut().enumerate() {
        *x = wv.xor(V::load_elems(cpu, &COUNTER_DELTA[V::LANES * j..]));
    }
    // The chains interleaved round by round (`pin`, as `gcm_few`).
    let kl = middle_rounds!(rk, |r| {
        let rb = V::Block::load(bc, r);
        let rv = V::broadcast(cpu, rb);
        e = e.aesenc(rb).pin();
        for x in s.iter_mut() {
            *x = x.aesenc(rv).pin();
        }
    });
    let klb = V::Block::load(bc, kl);
    let klv = V::broadcast(cpu, klb);
    let mask = e.aesenclast(klb);
    // The output; the last vector's keystream cut to the message first, so that vector is
    // the zero-padded ciphertext GHASH takes.
    let mut out = [wv; NV];
    for (j, o) in out.iter_mut().enumerate() {
        let ks = s[j].aesenclast(klv);
        let ks = if whole(j) {
            ks
        } else {
            ks.and(V::load(cpu, &KEEP[64 - tail..]))
        };
        *o = input[j].xor(ks);
    }
    {
        let dst = &mut io.dst()[..len];
        for (j, x) in out.iter().enumerate() {
            if whole(j) {
                x.store(&mut dst[vb * j..]);
            } else {
                x.store_partial(&mut dst[vb * j..]);
            }
        }
    }
    // S: the AAD's blocks and the length block one by one, the data a vector at a time,
    // one reduction. An encryption's hash waits for the keystream; a decryption's (its
    // input is the ciphertext) runs beside the AES chains.
    let ab = aad.len().div_ceil(16);
    let db = len.div_ceil(16);
    let table = Table::last(key, ab + db + 1);
    let mut narrow = Sums::<V::Block>::zero(bc);
    let mut next = 0;
    absorb_padded::<V>(cpu, &mut narrow, aad, table, &mut next, Flavor::Ghash);
    let mut wide = Sums::<V>::zero(cpu);
    for (j, x) in if DEC { &input } else { &out }.iter().enumerate() {
        // Lane l of vector j is block ab + LANES·j + l of the batch; an absent lane's
        // element is the length block's, at most one lane past the data (two lanes).
        let at = ab + V::LANES * j;
        wide.mul_add(
            x.bswap(),
            V::load_elems(cpu, &table.h[at..]),
            V::load_elems(cpu, &table.kara[at..]),
        );
    }
    // The length block (its GHASH element: bitlen(A) in the high half, bitlen(C) in the
    // low), the batch's last element.
    let bits = |n: usize| (n as u64).wrapping_mul(8) as u128;
    let last = ab + db;
    narrow.mul_add(
        V::Block::from_u128_computed(bc, bits(aad.len()) << 64 | bits(len)),
        V::Block::from_u128(bc, table.h[last]),
        V::Block::from_u128(bc, table.kara[last]),
    );
    wide.add(Sums {
        lo: V::from_lane0(cpu, narrow.lo),
        mid: V::from_lane0(cpu, narrow.mid),
        hi: V::from_lane0(cpu, narrow.hi),
    });
    gcm_tag(wide.reduce(), mask).to_u128()
}
