//! POLYVAL of a long input as its own pass (AES-GCM-SIV encryption's first pass, which
//! must finish before the tag and CTR can start): fixed batches of [`VECS`] vectors with
//! the batch's powers of H in registers and an accumulator kept lane by lane, so no batch
//! waits for the previous one's lane fold.
//!
//! The math. A batch is W = VECS·LANES blocks; block i of it is multiplied by H^(W-i)
//! (vector j, lane l: H^(W - LANES·j - l), the table's last W powers as `hash_batch`
//! reads them). The running value A is a vector of LANES partial values whose sum is the
//! hash so far; each batch computes, lane by lane, with one reduction,
//!     A' = A·H^W + sum_j X_j·P_j,
//! where H^W is broadcast to every lane. Summing the lanes of A' gives
//! (sum of lanes of A)·H^W + the batch's aggregated products: Horner over batches, the
//! same value as `hash_update`. The lanes are folded once, at the end.
//!
//! Why: `hash_update`'s batches (any k up to MAXW, a branch per vector) reload the powers
//! from the table every batch and fold the lanes of each reduced batch into one block
//! (two extracts on the CLMUL/shuffle port, on the chain into the next batch's first
//! product). Here the loop is a fixed unrolled batch of 8 products (3 carry-less
//! multiplies each, Karatsuba, the x.lo + x.hi half from a load 8 bytes further on as in
//! `ghash::product_at`), A·H^W schoolbook (4 multiplies, which need no helper power and
//! give the true middle term directly), and one lane-wise reduction (2 multiplies, 2
//! qword swaps). The chain from A to A' is one multiply, two XORs and the reduction;
//! everything else in a batch is independent of it (docs/tuning.md: polyval_bulk).

use super::super::simd::Simd;
use super::ghash::{hash_update, Sums};
use crate::field::{HashKey, POWERS};

/// Vectors per batch: with their powers and Karatsuba helpers, 16 registers, which the
/// 32 of AVX-512 hold beside the sums and the accumulator.
const VECS: usize = 8;

/// Absorbs `data` into `acc` (the final partial block zero-padded), as
/// `ghash::hash_update` for a POLYVAL key. Used where the whole batch's powers fit in
/// registers (backends of 4 lanes, 32 vector registers) and the key holds W = VECS·LANES
/// powers, for inputs from 4 batches up; otherwise, and for the rest after the last whole
/// batch, `hash_update`.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn polyval_bulk<V: Simd, const MAXW: usize>(
    cpu: V::Cpu,
    key: &HashKey,
    acc: &mut u128,
    data: &[u8],
) {
    let w = VECS * V::LANES;
    let bytes = 16 * w;
    if V::LANES < 4 || w > MAXW || key.count < w || data.len() < 4 * bytes {
        hash_update::<V, MAXW>(cpu, key, acc, data);
        return;
    }
    let bc = V::block_cpu(cpu);
    let (h, hk) = batch_powers::<V, VECS>(cpu, key);
    let hw = V::broadcast(cpu, V::Block::from_u128(bc, key.desc[POWERS - w]));
    let mut a = V::from_lane0(cpu, V::Block::from_u128(bc, *acc));
    let mut rest = data;
    // Each vector's Karatsuba half reads 8 bytes past it, so a batch takes that path
    // while 8 more bytes follow it; a last whole batch without them takes qword swaps.
    while rest.len() >= bytes + 8 {
        a = batch::<V, VECS, true>(cpu, rest, &h, &hk, hw, a);
        rest = &rest[bytes..];
    }
    if rest.len() >= bytes {
        a = batch::<V, VECS, false>(cpu, rest, &h, &hk, hw, a);
        rest = &rest[bytes..];
    }
    *acc = a.fold_lanes().to_u128();
    hash_update::<V, MAXW>(cpu, key, acc, rest);
}

/// The powers of a batch of `NV` vectors (W = NV·LANES blocks, `key.count` >= W) in
/// registers, with their Karatsuba helpers: vector j = desc[POWERS - W + LANES·j..],
/// H^(W - LANES·j) first.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn batch_powers<V: Simd, const NV: usize>(
    cpu: V::Cpu,
    key: &HashKey,
) -> ([V; NV], [V; NV]) {
    let base = POWERS - NV * V::LANES;
    let mut h = [V::zero(cpu); NV];
    let mut hk = [V::zero(cpu); NV];
    for j in 0..NV {
        h[j] = V::load_elems(cpu, &key.desc[base + V::LANES * j..]);
        hk[j] = V::load_elems(cpu, &key.kara[base + V::LANES * j..]);
    }
    (h, hk)
}

/// One batch: A·H^W + sum_j X_j·P_j for the `NV` vectors at the start of `src`,
/// reduced lane by lane. `SHIFTED`: as in [`products`].
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn batch<V: Simd, const NV: usize, const SHIFTED: bool>(
    cpu: V::Cpu,
    src: &[u8],
    h: &[V; NV],
    hk: &[V; NV],
    hw: V,
    a: V,
) -> V {
    let s = products::<V, NV, SHIFTED>(cpu, src, h, hk);
    // Karatsuba's middle term minus lo and hi, then A·H^W with its two cross products.
    let lo = s.lo.xor(a.clmul::<0x00>(hw));
    let hi = s.hi.xor(a.clmul::<0x11>(hw));
    let mid = s.mid.xor3(s.lo, s.hi);
    let mid = mid.xor3(a.clmul::<0x01>(hw), a.clmul::<0x10>(hw));
    Sums { lo, mid, hi }.reduce_lanes_true_mid()
}

/// sum_j X_j·P_j, unreduced (Karatsuba `mid`), for the `NV` vectors X_j at the start of
/// `src` and the powers P_j in registers (`hk` their Karatsuba helpers): straight-line
/// code, no table loads, no bounds checks past one. `SHIFTED`: each vector's x.lo + x.hi
/// from a load 8 bytes on (`src` holds 8 bytes past the `NV` vectors), else from a qword
/// swap.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn products<V: Simd, const NV: usize, const SHIFTED: bool>(
    cpu: V::Cpu,
    src: &[u8],
    h: &[V; NV],
    hk: &[V; NV],
) -> Sums<V> {
    let vb = 16 * V::LANES;
    let src = &src[..vb * NV + if SHIFTED { 8 } else { 0 }];
    let mut s = Sums::<V>::zero(cpu);
    for j in 0..NV {
        let x = V::load(cpu, &src[vb * j..]);
        // Lane by lane, the low qword of x xor (the bytes 8 on) is x.lo + x.hi.
        let half = if SHIFTED {
            x.xor(V::load(cpu, &src[vb * j + 8..]))
        } else {
            x.xor(x.swap64())
        };
        s.lo = s.lo.xor(x.clmul::<0x00>(h[j]));
        s.hi = s.hi.xor(x.clmul::<0x11>(h[j]));
        s.mid = s.mid.xor(half.clmul::<0x00>(hk[j]));
    }
    s
}
