//! The fused AES-GCM-SIV kernel for small messages. The byte rules (DeriveKey's inputs
//! and key split, the length block, the tag input S, the first counter) come from
//! `crate::spec`, so this kernel and the portable path share them.

use super::super::message_key::MessageKey;
use super::super::simd::{wipe_vectors, Simd};
use super::aes::{aes_n, keys, Keys};
use super::ctr::{ctr_xor_keys, xor_keystream, Ctr};
use super::for_count;
use super::gcm::stitched_and_lengths;
use super::ghash::mul_lanes;
use super::ghash::{absorb_padded, fill_key_powers, hash_batch, hash_block, hash_update};
use super::ghash::{load_block, mul};
use super::ghash::{powers, Sums, Table};
use super::polyval::{batch as polyval_batch, batch_powers, polyval_bulk};
use crate::aes::RoundKeys;
use crate::engine::{Counter, CtrStart, Data, Siv2015Keys};
use crate::field::{Flavor, HashKey, POWERS};
use crate::spec::{rfc8452, siv};

/// The single-block vector of backend `V`.
type B<V> = <V as Simd>::Block;

/// Largest padded AAD + padded message + length block for [`siv_small`]'s one fused pass
/// (block-wide POLYVAL, powers in registers), in blocks; above it `Kernels` calls
/// [`siv_large`] (the bulk path [`siv_bulk`]: vector-wide POLYVAL from a stack table of
/// powers). From 24 blocks the bulk path measured faster than the fused pass
/// (docs/tuning.md: SIV_SMALL_BLOCKS).
/// It also bounds the stack copy of `open_small_restoring`.
pub(crate) const SIV_SMALL_BLOCKS: usize = 24;
/// Vectors per stitched batch of a bulk decryption shorter than `HALF_BELOW` batches of
/// the engine's N vectors, and the powers of H (HALF·LANES) of such a decryption and of
/// any bulk message shorter than two of those batches (see [`siv_bulk`]).
const HALF: usize = 4;
/// See [`HALF`]: on avx512, decryptions under 2 KiB; on the backends whose
/// `Simd::SIV_HALF_DECRYPT` is set (all but avx2).
const HALF_BELOW: usize = 4;
/// Blocks per reduction in [`siv_small`] (powers computed per message: 7 multiplies).
const SIV_GROUP: usize = 8;

/// Whole AES-GCM-SIV (RFC 8452) in one call, for an input of up to [`SIV_SMALL_BLOCKS`]
/// blocks (above it an `InvalidParameter` error: `Kernels` sends those to
/// [`siv_large`]): one fused pass, so the per-message work overlaps instead of running
/// as eight kernel calls: DeriveKey's 4 or 6 AES blocks as independent chains; the
/// encryption key schedule; H^1..H^8 by doubling, in registers and a stack table;
/// POLYVAL of AAD, plaintext and lengths with one reduction per 8 blocks; the tag; CTR.
/// The schedule (a serial chain) and the hash (which needs only the authentication key)
/// are independent until the tag. Up to [`TINY_GROUP`] data blocks with at most one AAD
/// block, the same steps in the fixed-size [`tiny`], every value in a register (from
/// there up to the backend's `Simd::SIV_TINY_BLOCKS`, [`siv_tiny_upper`]).
///
/// Encryption (`received` None): `data` is the plaintext, encrypted in place; returns the
/// tag. Decryption: `data` is decrypted in place under the received tag's counter and the
/// tag of the resulting plaintext is returned: the caller compares (in constant time)
/// and zeroes `data` on mismatch. The caller guarantees
/// `pad16(aad) + pad16(data) + 16 <= 16 * SIV_SMALL_BLOCKS`.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn siv_small<V: Simd>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    data: &mut [u8],
    received: Option<&[u8; 16]>,
) -> Result<[u8; 16], crate::Error> {
    let (ab, db) = (aad.len().div_ceil(16), data.len().div_ceil(16));
    let total = ab + db + 1;
    if total > SIV_SMALL_BLOCKS {
        // Unreachable through `Kernels` (every caller checks `siv_small_fits`): a typed
        // error rather than a second copy of the bulk path in this kernel's code.
        return Err(crate::Error::InvalidParameter(
            "AES-GCM-SIV message too long for the small kernel",
        ));
    }
    let (h, ek) = derive_small::<V>(cpu, kgk, nonce, received.is_some())?;
    // Up to TINY_GROUP blocks of data and one of AAD: one batch with every block, power
    // and round key in registers. (Up to `Simd::SIV_TINY_BLOCKS` the engine sends such a
    // message to [`siv_tiny_upper`] instead.)
    if tiny_fits(aad.len(), data.len(), TINY_GROUP) {
        let tag = for_count!(db, const D in [0 1 2 3 4 5 6 7], _ => 8,
            tiny::<V, D>(cpu, h, &ek, nonce, aad, data, received));
        return Ok(tag.to_le_bytes());
    }
    let bc = V::block_cpu(cpu);
    // H^1..H^kp (kp = min(blocks, SIV_GROUP)), pw[j - 1] = H^j, and their Karatsuba
    // helpers.
    let kp = total.min(SIV_GROUP);
    let mut pw = [B::<V>::zero(bc); SIV_GROUP];
    let mut kara = [B::<V>::zero(bc); SIV_GROUP];
    powers(h, kp, &mut pw);
    for j in 0..kp {
        kara[j] = pw[j].xor(pw[j].swap64());
    }

    if let Some(t) = received {
        let c = siv::first_counter_u128(u128::from_le_bytes(*t));
        ctr_small::<V>(cpu, &ek, B::<V>::from_u128_computed(bc, c), data);
    }
    // POLYVAL of pad16(AAD) || pad16(plaintext) || lengths: `total` blocks in groups
    // of up to SIV_GROUP, each one aggregated batch (block i of a group ending at
    // `end` times H^(end - i)) with one reduction; the running value enters each
    // group's first block (Horner over groups).
    let len = siv::length_block(aad.len() as u64, data.len() as u64);
    let mut acc = B::<V>::zero(bc);
    {
        let message = [aad, &*data, &len[..]];
        let mut b = 0;
        while b < total {
            let end = (b + SIV_GROUP).min(total);
            let mut sums = Sums::<B<V>>::zero(bc);
            for i in b..end {
                let mut x = small_block::<V>(cpu, message, (ab, db), i);
                if i == b {
                    x = x.xor(acc);
                }
                let e = end - i;
                sums.mul_add(x, pw[e - 1], kara[e - 1]);
            }
            acc = sums.reduce();
            b = end;
        }
    }
    // TAG = AES(K_enc, S), S from POLYVAL and the nonce as `siv` defines it.
    let input = siv::tag_input_u128(acc.to_u128(), nonce);
    let mut s = [B::<V>::from_u128_computed(bc, input)];
    aes_n(&ek, &mut s);
    let tag = s[0].to_u128();
    if received.is_none() {
        let c = siv::first_counter_u128(tag);
        ctr_small::<V>(cpu, &ek, B::<V>::from_u128_computed(bc, c), data);
    }
    // Key material: overwrite the stack copies of the powers (the round keys are
    // registers, see above).
    wipe_vectors(&mut pw);
    wipe_vectors(&mut kara);
    Ok(tag.to_le_bytes())
}

/// [`tiny`] of a message of more than [`TINY_GROUP`] and at most `V::SIV_TINY_BLOCKS` data
/// blocks (at most [`TINY_MAX`]) and at most one AAD block, after [`derive`] (an
/// `InvalidParameter` error for any other shape: `Kernels::siv_small` checks). Its own
/// entry point rather than more arms of [`siv_small`]'s: with the two larger instances in
/// it, the rest of the function compiled otherwise and ran slower (docs/tuning.md:
/// siv_tiny_upper).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn siv_tiny_upper<V: Simd>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    data: &mut [u8],
    received: Option<&[u8; 16]>,
) -> Result<[u8; 16], crate::Error> {
    const {
        assert!(
            TINY_GROUP <= V::SIV_TINY_BLOCKS && V::SIV_TINY_BLOCKS <= TINY_MAX,
            "a backend's tiny bound lies between TINY_GROUP and TINY_MAX"
        );
        assert!(
            TINY_MAX == TINY_GROUP + 2,
            "the arms below cover 9 and 10 blocks"
        );
    };
    let shape = Err(crate::Error::InvalidParameter(
        "AES-GCM-SIV message not of the upper tiny kernel's shape",
    ));
    // A backend whose bound is the group's never gets here (`Kernels::siv_small`), and its
    // entry point instantiates no `tiny` of its own.
    if const { V::SIV_TINY_BLOCKS <= TINY_GROUP } {
        return shape;
    }
    let db = data.len().div_ceil(16);
    if db <= TINY_GROUP || !tiny_fits(aad.len(), data.len(), V::SIV_TINY_BLOCKS) {
        return shape;
    }
    let (h, ek) = derive_small::<V>(cpu, kgk, nonce, received.is_some())?;
    let tag = match db {
        9 => tiny::<V, 9>(cpu, h, &ek, nonce, aad, data, received),
        10 => tiny::<V, 10>(cpu, h, &ek, nonce, aad, data, received),
        _ => return shape,
    };
    Ok(tag.to_le_bytes())
}

/// [`derive`] for the fused small kernels: on wide vectors, except a decryption on
/// 512-bit ones (see `derive`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn derive_small<V: Simd>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    decrypt: bool,
) -> Result<(B<V>, Keys<B<V>>), crate::Error> {
    derive::<V>(cpu, kgk, nonce, !decrypt || V::LANES < 4)
}

/// [`siv_small`] on `V`'s single-block vectors, compiled with `V`'s engine features.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn siv_small_blocks<V: Simd>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    data: &mut [u8],
    received: Option<&[u8; 16]>,
) -> Result<[u8; 16], crate::Error> {
    siv_small::<B<V>>(V::block_cpu(cpu), kgk, nonce, aad, data, received)
}

/// Most data blocks (with at most one block of AAD) any backend runs in [`tiny`]: its
/// `Simd::SIV_TINY_BLOCKS`, ten on aesni and avx2 (docs/tuning.md: Xmm::SIV_TINY_BLOCKS,
/// Ymm::SIV_TINY_BLOCKS), [`TINY_GROUP`] elsewhere.
pub(crate) const TINY_MAX: usize = 10;

/// Data blocks up to which [`siv_small`] itself runs [`tiny`] (above it, up to the
/// backend's bound, [`siv_tiny_upper`]). Eight, one group of independent AES chains: from
/// 4 to 8, 80 and 128 B ran faster and 64 B the same (docs/tuning.md: TINY_GROUP).
pub(crate) const TINY_GROUP: usize = 8;

/// Whether a message of these lengths has [`tiny`]'s shape: at most one AAD block and
/// at most `max` data blocks ([`TINY_GROUP`], or a backend's `Simd::SIV_TINY_BLOCKS`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn tiny_fits(aad_len: usize, data_len: usize, max: usize) -> bool {
    aad_len <= 16 && data_len <= 16 * max
}

/// AES-GCM-SIV of `D` (at most the backend's `Simd::SIV_TINY_BLOCKS`) data blocks and at
/// most one AAD block after [`derive`], every value in a register and every loop of a
/// fixed count (as `gcm::gcm_small`): the message loaded once; H^1..H^(D+2) by multiplies
/// of two lower powers (depth log2, off the critical path: it runs beside the key
/// schedule); POLYVAL
/// of AAD || data || lengths as one batch, block b of the D + 2 times H^(D+2-b) (an
/// absent AAD block contributes nothing and is skipped), one reduction; the tag; D
/// keystream blocks as independent chains. Decryption (`received`) runs the keystream
/// first (its counter is the received tag's, so the chains follow the key schedule round
/// by round) and hashes the plaintext from registers. The general loop above cost about
/// 150 instructions of indexing, zeroed and wiped power tables per 16-byte message.
/// Returns the tag (of the plaintext, for decryption: the caller compares).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn tiny<V: Simd, const D: usize>(
    cpu: V::Cpu,
    h: B<V>,
    ek: &Keys<B<V>>,
    nonce: &[u8; 12],
    aad: &[u8],
    data: &mut [u8],
    received: Option<&[u8; 16]>,
) -> u128 {
    let bc = V::block_cpu(cpu);
    let len = data.len();
    // Bytes in the last data block (1 to 16 when D > 0).
    let last = len.wrapping_sub(16 * D.saturating_sub(1));
    let whole = |i: usize| i + 1 < D || last == 16;
    // The input blocks, the last one zero-padded (a masked or piecewise load that never
    // reads past the data).
    let mut input = [B::<V>::zero(bc); D];
    for (i, x) in input.iter_mut().enumerate() {
        let src = &data[16 * i..];
        *x = if whole(i) {
            B::<V>::load(bc, src)
        } else {
            V::load_partial(cpu, src).lane0()
        };
    }
    // pw[j - 1] = H^j for j = 1..D+2; H^p = H^(p/2)·H^(p - p/2).
    let mut pw = [h; TINY_MAX + 2];
    for p in 2..D + 3 {
        pw[p - 1] = mul(pw[p / 2 - 1], pw[p - p / 2 - 1]);
    }
    let mut plain = input;
    if let Some(t) = received {
        let first = B::<V>::load(bc, t).or(B::<V>::from_u128(bc, siv::first_counter_u128(0)));
        let s = keystream::<V, D>(ek, first);
        // The partial block's keystream cut to its length: the zero-padded plaintext.
        for i in 0..D {
            let k = if whole(i) {
                s[i]
            } else {
                B::<V>::from_u128_computed(bc, s[i].to_u128() & ((1u128 << (8 * last)) - 1))
            };
            plain[i] = input[i].xor(k);
        }
        store_blocks::<V, D>(cpu, &plain, data, last);
    }
    // (No closure for the products: closures do not inherit the entry point's target
    // features.)
    let mut sums = Sums::<B<V>>::zero(bc);
    if !aad.is_empty() {
        let p = pw[D + 1];
        let x = load_block::<V>(cpu, aad, Flavor::Polyval);
        sums.mul_add(x, p, p.xor(p.swap64()));
    }
    for (i, x) in plain.iter().enumerate() {
        let p = pw[D - i];
        sums.mul_add(*x, p, p.xor(p.swap64()));
    }
    // The length block (`siv::length_block`'s bytes as a little-endian integer).
    let bits = |n: usize| (n as u64).wrapping_mul(8) as u128;
    let lb = B::<V>::from_u128_computed(bc, bits(aad.len()) | bits(len) << 64);
    sums.mul_add(lb, h, h.xor(h.swap64()));
    // S = POLYVAL xor nonce, bit 127 cleared (`siv::tag_input_u128`), and the tag, in
    // vector registers: the nonce's vector and the mask are ready long before POLYVAL.
    // (Through general-purpose registers, S and the first counter were each two moves out
    // and two back, on the critical path: POLYVAL -> tag -> compare for decryption,
    // tag -> CTR for encryption.)
    let top = B::<V>::from_u128(bc, siv::first_counter_u128(0));
    let n = B::<V>::from_u128_computed(bc, siv::tag_input_u128(0, nonce));
    let low127 = B::<V>::from_u128(bc, !siv::first_counter_u128(0));
    let mut s = [sums.reduce().xor(n).and(low127)];
    aes_n(ek, &mut s);
    let tag = s[0];
    if received.is_none() {
        let s = keystream::<V, D>(ek, tag.or(top));
        let mut out = input;
        for (o, k) in out.iter_mut().zip(s.iter()) {
            *o = o.xor(*k);
        }
        store_blocks::<V, D>(cpu, &out, data, last);
    }
    tag.to_u128()
}

/// `D` keystream blocks of AES-GCM-SIV's counter mode from its first counter block
/// (`siv::first_counter`: the tag with bit 127 set), as independent AES chains with the
/// round keys in registers.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn keystream<V: Simd, const D: usize>(ek: &Keys<B<V>>, first: B<V>) -> [B<V>; D] {
    let bc = first.cpu();
    let mut c = Ctr::<B<V>>::from_block(bc, first, Counter::Le32);
    let mut s = [B::<V>::zero(bc); D];
    for x in s.iter_mut() {
        *x = c.take();
    }
    aes_n(ek, &mut s);
    s
}

/// Block `i` of pad16(AAD) || pad16(data) || lengths (`message` those three, `ab` and `db`
/// the first two's block counts) as a POLYVAL element, for [`siv_small`]. (A function,
/// not a closure: a closure does not inherit the entry point's target features, and the
/// one this replaces called SSE4.1's `_mm_insert_epi64` of a partial block as a function:
/// `scripts/check-inlined.sh`.)
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn small_block<V: Simd>(
    cpu: V::Cpu,
    message: [&[u8]; 3],
    (ab, db): (usize, usize),
    i: usize,
) -> B<V> {
    let (src, off) = if i < ab {
        (message[0], 16 * i)
    } else if i < ab + db {
        (message[1], 16 * (i - ab))
    } else {
        (message[2], 0)
    };
    let end = (off + 16).min(src.len());
    load_block::<V>(cpu, &src[off..end], Flavor::Polyval)
}

/// Stores `D` blocks into `data` (`D` = `data.len().div_ceil(16)`; the last block holds
/// `last` bytes, stored without writing past `data`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn store_blocks<V: Simd, const D: usize>(cpu: V::Cpu, x: &[B<V>; D], data: &mut [u8], last: usize) {
    for (i, b) in x.iter().enumerate() {
        let dst = &mut data[16 * i..];
        if i + 1 < D || last == 16 {
            b.store(dst);
        } else {
            V::from_lane0(cpu, *b).store_partial(dst);
        }
    }
}

/// Whole AES-GCM-SIV (RFC 8452) of a message above [`SIV_SMALL_BLOCKS`] blocks in one
/// call, from `io`'s source into its destination (or in place): [`derive`], then
/// [`siv_bulk`]. `decrypt_into` passes its separate source and destination through, so
/// the ciphertext is not first copied into the output (at 1 MiB that copy was a second
/// pass over memory; docs/tuning.md: siv_large). Encryption (`received` None)
/// returns the tag; decryption returns the tag of the plaintext it wrote, which the
/// caller compares (in constant time), zeroing the destination on mismatch.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn siv_large<V: Simd, const N: usize, const MAXW: usize>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    io: Data<'_>,
    received: Option<&[u8; 16]>,
) -> Result<[u8; 16], crate::Error> {
    let (h, ek) = derive::<V>(cpu, kgk, nonce, true)?;
    Ok(siv_bulk::<V, N, MAXW>(
        cpu, h, &ek, nonce, aad, io, received,
    ))
}

/// AES-GCM-SIV of a message above [`SIV_SMALL_BLOCKS`], after [`derive`]: H's powers into
/// a stack `HashKey` (as many as the widest aggregation uses, at most `MAXW`), then
/// encryption as POLYVAL of AAD and plaintext in wide batches (one reduction per batch),
/// the tag, and CTR with the round keys broadcast from the registers; decryption as
/// POLYVAL of the AAD, then CTR and POLYVAL of the plaintext it produces in one stitched
/// pass with the length block (`gcm::stitched_and_lengths`, its powers and round keys from
/// the stack copies), then the tag.
/// The same steps as `siv::Siv::seal`/`open`, without the per-message plumbing between
/// them (DeriveKey and the key schedule through memory, five dispatches, the tag block
/// stored and reloaded).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn siv_bulk<V: Simd, const N: usize, const MAXW: usize>(
    cpu: V::Cpu,
    h: B<V>,
    ek: &Keys<B<V>>,
    nonce: &[u8; 12],
    aad: &[u8],
    mut io: Data<'_>,
    received: Option<&[u8; 16]>,
) -> [u8; 16] {
    let bc = V::block_cpu(cpu);
    // H^1..H^count: `MAXW` is the widest batch `hash_update` and the stitched pass take.
    // As many powers as the message has blocks, up to the widest batch: `hash_update`
    // then hashes it in the fewest reductions. (Decryption from two stitched batches up
    // has more blocks than `MAXW`, so the stitched pass gets the batch's powers.)
    let len = io.len();
    let total = aad.len().div_ceil(16) + len.div_ceil(16) + 1;
    // A short decryption stitches batches of HALF vectors (below; on the backends with
    // `Simd::SIV_HALF_DECRYPT`), which need HALF·LANES
    // powers; an encryption of up to SPLIT_BATCHES such batches (on avx512 under
    // 1536 B, on avx2 under 768 B) takes as many: one doubling step fewer on avx512,
    // which the whole message waits for, against more batches to reduce (docs/tuning.md:
    // siv_bulk powers).
    let half = received.is_some()
        && V::SIV_HALF_DECRYPT
        && N > HALF
        && len < HALF_BELOW * 16 * V::LANES * N;
    let short = N > HALF && len < SPLIT_BATCHES * 16 * V::LANES * HALF;
    let widest = if half || short { HALF * V::LANES } else { MAXW };
    let count = widest
        .min(MAXW)
        .min(POWERS)
        .min(total.next_multiple_of(V::LANES));
    let mut storage = MessageKey::<V>::new(cpu);
    let hk = fill_key_powers::<V>(cpu, h, count, Flavor::Polyval, &mut storage);
    let mut acc = 0u128;
    hash_update::<V, MAXW>(cpu, hk, &mut acc, aad);
    let lb = siv::length_block(aad.len() as u64, len as u64);
    // The message as `nb` batches of w whole blocks and a last batch of the `m` blocks
    // after them with the length block (taken apart below while m <= w: not when the
    // whole blocks after the batches are w - 1 and a partial one follows).
    let w = hk.count;
    let nb = len / 16 / w;
    let m = len.div_ceil(16) + 1 - w * nb;
    let a = match received {
        None if V::LANES > 1 && nb <= SPLIT_BATCHES && m <= w && split_width::<V>(w, nb) => {
            return encrypt_split::<V>(cpu, hk, ek, nonce, acc, io, &lb, (w, m, nb));
        }
        None => {
            polyval_bulk::<V, MAXW>(cpu, hk, &mut acc, io.src());
            let x = load_block::<V>(cpu, &lb, Flavor::Polyval);
            hash_block(hk, B::<V>::from_u128(bc, acc), x)
        }
        Some(t) => {
            let rk = stack_keys::<V>(ek);
            let start = CtrStart {
                kind: Counter::Le32,
                block: siv::first_counter_u128(u128::from_le_bytes(*t)).to_le_bytes(),
            };
            // Below two whole batches of N vectors `stitched` runs CTR and then POLYVAL
            // as two passes, and above, the rest after the last whole batch: a short
            // decryption takes batches of HALF vectors (on avx512 from 512 B stitched,
            // and 1500 B is 5 batches and 220 B of rest instead of 2 and 476 B;
            // docs/tuning.md: HALF). The length block is fused into the batches where they
            // end the data: no multiply, reduction and lane fold after the last batch
            // (docs/tuning.md: stitched_and_lengths).
            // POLYVAL (`GHASH` false) of the output (`INPUT` false).
            let io = io.reborrow();
            if half {
                stitched_and_lengths::<V, HALF, MAXW, false, false>(
                    cpu, &rk, hk, start, acc, io, &lb,
                )
            } else {
                stitched_and_lengths::<V, N, MAXW, false, false>(cpu, &rk, hk, start, acc, io, &lb)
            }
        }
    };
    let tag = tag_of::<V>(ek, a, nonce);
    if received.is_none() {
        let first = B::<V>::from_u128(bc, siv::first_counter_u128(0));
        ctr_wide::<V>(cpu, ek, tag.or(first), 0, io);
    }
    tag.to_bytes()
}

/// Whole batches before the last one up to which [`siv_bulk`] hashes an encryption's
/// batches apart ([`encrypt_split`]), on engines of two or more blocks per vector. (With
/// one, AES-NI, the batches are 8 blocks, 576 B is four of them, and the multiplies for
/// their powers made encryption slower; docs/tuning.md: SPLIT_BATCHES.)
/// Six: with HALF·LANES powers below six such batches, avx512 hashes every message below
/// 1536 B in batches of four vectors (with four, 1 KiB took 32 powers), avx2 below 768 B.
const SPLIT_BATCHES: usize = 6;

/// Whether [`encrypt_split`] takes `nb` whole batches of `w` blocks: none, or batches of
/// four or eight vectors, the widths [`whole_batches`] is built for. (The whole batches
/// of a bulk message are the widest its key holds, `HALF` or `N` vectors; a key of
/// fewer powers covers the message in its last batch.)
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn split_width<V: Simd>(w: usize, nb: usize) -> bool {
    nb == 0 || w == 4 * V::LANES || w == 8 * V::LANES
}

/// [`siv_bulk`]'s encryption of `nb` (<= [`SPLIT_BATCHES`]) whole batches of `w` blocks
/// (`hk.count`) and a last batch of `m` blocks with the length block (`shape` = (w, m,
/// nb)): POLYVAL of the whole batches ([`whole_batches`], lane by lane, times H^m) and
/// of the last batch ([`last_batch`], reduced on its own) added; the tag; CTR. Through
/// `hash_update` (block-wise Horner, then the length block) every batch's first product
/// waited for the reduction and fold of the batch before, and the length block for the
/// last: on avx512 at 576 B (16 powers) four reductions in a row between the powers and
/// the tag, the longest chain of the message (the key schedule beside it is shorter).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
#[allow(clippy::too_many_arguments)]
fn encrypt_split<V: Simd>(
    cpu: V::Cpu,
    hk: &HashKey,
    ek: &Keys<B<V>>,
    nonce: &[u8; 12],
    acc: u128,
    io: Data<'_>,
    lb: &[u8; 16],
    (w, m, nb): (usize, usize, usize),
) -> [u8; 16] {
    let bc = V::block_cpu(cpu);
    let zero = B::<V>::zero(bc);
    // `acc` (the AAD's POLYVAL) enters the message's first block.
    let acc = B::<V>::from_u128(bc, acc);
    let src = io.src();
    let head = 16 * w * nb;
    let into_last = if nb == 0 { acc } else { zero };
    let mut a = last_batch::<V>(cpu, hk, into_last, &src[head..], lb, m);
    if nb > 0 {
        let batches = if w == 4 * V::LANES {
            whole_batches::<V, 4>(cpu, hk, acc, src, (w, m, nb))
        } else {
            whole_batches::<V, 8>(cpu, hk, acc, src, (w, m, nb))
        };
        a = batches.xor(a);
    }
    let tag = tag_of::<V>(ek, a, nonce);
    let first = B::<V>::from_u128(bc, siv::first_counter_u128(0));
    ctr_wide::<V>(cpu, ek, tag.or(first), 0, io);
    tag.to_bytes()
}

/// [`encrypt_split`]'s whole batches: their POLYVAL times H^m (the last batch's `m`
/// blocks follow them), `acc` added into block 0, reduced. `NV` vectors a batch
/// (w = NV·LANES), their powers loaded once into registers, the running value kept lane
/// by lane in Horner form as `polyval_bulk` keeps it (`polyval::batch`: A' = A·H^w +
/// the batch's products, one reduction per batch, no fold), times H^m in every lane and
/// folded once at the end. Each batch's products are straight-line code, independent of
/// A; the chain from batch to batch is one multiply and one reduction.
///
/// A tree of multiplies (each batch reduced on its own, times its power) measured slower:
/// its work on the carry-less multiply port cost more than the chain it shortens
/// (docs/tuning.md: whole_batches).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn whole_batches<V: Simd, const NV: usize>(
    cpu: V::Cpu,
    hk: &HashKey,
    acc: B<V>,
    src: &[u8],
    (w, m, nb): (usize, usize, usize),
) -> B<V> {
    let bc = V::block_cpu(cpu);
    let (h, kara) = batch_powers::<V, NV>(cpu, hk);
    let hw = V::broadcast(cpu, power::<V>(bc, hk, w));
    let mut a = V::from_lane0(cpu, acc);
    for j in 0..nb {
        let batch = &src[16 * w * j..];
        a = if batch.len() >= 16 * w + 8 {
            polyval_batch::<V, NV, true>(cpu, batch, &h, &kara, hw, a)
        } else {
            polyval_batch::<V, NV, false>(cpu, batch, &h, &kara, hw, a)
        };
    }
    mul_lanes(a, V::broadcast(cpu, power::<V>(bc, hk, m))).fold_lanes()
}

/// POLYVAL with one reduction of a message's last `m` blocks: `rest` (the data after its
/// whole batches, at most m - 1 blocks) and the length block `lb`, block i times
/// H^(m - i), `acc` added into the first: the whole blocks as one batch (times
/// H^(m - whole) after its reduction), the partial block and the length block as single
/// products. (Through a zero-padded stack copy of the rest the batch was one call, but
/// its 512 bytes grew the small kernel's frame, which it shares, and 16 B ran slower;
/// docs/tuning.md: last_batch.)
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn last_batch<V: Simd>(
    cpu: V::Cpu,
    hk: &HashKey,
    acc: B<V>,
    rest: &[u8],
    lb: &[u8; 16],
    m: usize,
) -> B<V> {
    let bc = V::block_cpu(cpu);
    let whole = rest.len() / 16;
    let tail = &rest[16 * whole..];
    let mut sums = Sums::<B<V>>::zero(bc);
    let mut first = acc;
    // (A function, not a closure, for the products: closures do not inherit the entry
    // point's target features.)
    if whole > 0 {
        let r = hash_batch::<V>(cpu, hk, Flavor::Polyval, first, rest, whole);
        first = B::<V>::zero(bc);
        mul_add_power::<V>(&mut sums, r, hk, m - whole);
    }
    if !tail.is_empty() {
        let x = load_block::<V>(cpu, tail, Flavor::Polyval).xor(first);
        first = B::<V>::zero(bc);
        mul_add_power::<V>(&mut sums, x, hk, 2);
    }
    mul_add_power::<V>(&mut sums, B::<V>::load(bc, lb).xor(first), hk, 1);
    sums.reduce()
}

/// Adds x·H^k (1 <= k <= `hk.count`) to `sums`.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn mul_add_power<V: Simd>(sums: &mut Sums<B<V>>, x: B<V>, hk: &HashKey, k: usize) {
    let p = power::<V>(x.cpu(), hk, k);
    sums.mul_add(x, p, p.xor(p.swap64()));
}

/// H^k (1 <= k <= `hk.count`) from the table.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn power<V: Simd>(bc: <B<V> as Simd>::Cpu, hk: &HashKey, k: usize) -> B<V> {
    B::<V>::from_u128(bc, hk.desc[POWERS - k])
}

/// TAG = AES(K_enc, S), S = POLYVAL xor nonce with bit 127 cleared
/// (`siv::tag_input_u128`), in vector registers.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn tag_of<V: Simd>(ek: &Keys<B<V>>, polyval: B<V>, nonce: &[u8; 12]) -> B<V> {
    let bc = polyval.cpu();
    let n = B::<V>::from_u128_computed(bc, siv::tag_input_u128(0, nonce));
    let low127 = B::<V>::from_u128(bc, !siv::first_counter_u128(0));
    let mut s = [polyval.xor(n).and(low127)];
    aes_n(ek, &mut s);
    s[0]
}

/// A stack copy of the registers' schedule for the stitched pass, which takes its round
/// keys from memory (wiped on drop, `RoundKeys`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn stack_keys<V: Simd>(ek: &Keys<B<V>>) -> RoundKeys {
    let mut rk = RoundKeys::empty();
    let raw = rk.raw_mut(ek.rounds);
    for (r, k) in raw.iter_mut().zip(ek.k.iter()).take(ek.rounds + 1) {
        k.store(r);
    }
    rk
}

/// DeriveKey (RFC 8452 sec. 4) and the derived encryption key's schedule, kept in
/// registers: the POLYVAL key H and the round keys, for both the small and the bulk path.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn derive<V: Simd>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    wide: bool,
) -> Result<(B<V>, Keys<B<V>>), crate::Error> {
    let bc = V::block_cpu(cpu);
    // Every per-message value of the chain DeriveKey -> key schedule -> tag -> CTR stays in
    // registers: built and split as integers (`spec::rfc8452`, `spec::siv`) and moved to
    // vectors through general-purpose registers (`Simd::from_u128_computed`). Through
    // memory, each step was a 16-byte load of bytes written piecewise, which cannot be
    // store-forwarded (five of them on the chain; docs/tuning.md: derive).
    //
    // DeriveKey (RFC 8452 sec. 4): all six blocks as independent chains (AES-128 uses 4,
    // AES-192 5; in parallel the rest cost no latency). With `wide`, on engines of two or
    // more blocks per vector, the six blocks are two 512-bit or three 256-bit vectors
    // ([`derive_wide`]): 30 or 45 AES instructions instead of 90. Past a few blocks a
    // message is bound by the vector ports, not by its chain: on Intel with 512-bit
    // instructions in flight only two ports run vector operations, and AES only one of
    // them. The blocks come back through a stack copy, a few cycles more on the chain,
    // which a decryption of the small path on 512-bit vectors pays without the gain
    // (docs/tuning.md: derive_wide).
    let first = B::<V>::from_u128_computed(bc, rfc8452::derive_key_input0(nonce));
    // What is wiped here, and what is not: every copy this kernel writes to memory (the
    // power tables, which are indexed and so live on the stack; the expanded key where a
    // backend has no register schedule). Vectors and integers that live in registers
    // (`d`, the derived keys, the round keys of both keys) are not: a volatile wipe of
    // them only gives them a stack home to write zeros to, and never reaches a register
    // spill; it cost 36 stores and their spills per message (AES-256-GCM-SIV 16 B: commit
    // message, measured). The long-term key's copies follow `gcm_small`'s rule (the key
    // object zeroizes its own `RoundKeys`).
    let d = if !wide || V::LANES == 1 {
        let mut d = [first; 6];
        for (i, x) in d.iter_mut().enumerate().skip(1) {
            *x = first.xor(B::<V>::from_u128_computed(bc, i as u128));
        }
        aes_n(&keys::<B<V>>(bc, kgk), &mut d);
        d
    } else if V::LANES >= 4 {
        derive_wide::<V, 2>(cpu, kgk, first)
    } else {
        derive_wide::<V, 3>(cpu, kgk, first)
    };
    // The keys from the first 8 bytes of each block, two blocks to a key or key half, as
    // `rfc8452::derived_keys_u128` splits them (auth from blocks 0-1, the encryption key
    // from 2-3 and 4-5): one unpack each, in the vector registers. (Through integers, each
    // was two moves out and two back on the DeriveKey -> key schedule chain.)
    let h = d[0].unpack_lo64(d[1]);
    let lo = d[2].unpack_lo64(d[3]);
    let hi = d[4].unpack_lo64(d[5]);
    let enc_len = rfc8452::enc_key_len(kgk.key_bits());
    let registers = match enc_len {
        16 => B::<V>::expand_in_registers(lo, None),
        32 => B::<V>::expand_in_registers(lo, Some(hi)),
        _ => None,
    };
    let ek = match registers {
        Some(k) => Keys {
            k,
            rounds: if enc_len == 16 { 10 } else { 14 },
        },
        None => {
            // Through memory: AES-192's derived key, and backends without a register
            // schedule. The bytes and the expanded key are wiped (`RoundKeys` on drop).
            let mut enc = [0u8; 32];
            lo.store(&mut enc[..16]);
            hi.store(&mut enc[16..]);
            let mut rk = RoundKeys::empty();
            let expanded = V::expand_key_into(cpu, &enc[..enc_len], &mut rk);
            crate::secret::wipe::wipe_bytes(&mut enc);
            expanded?;
            keys::<B<V>>(bc, &rk)
        }
    };
    Ok((h, ek))
}

/// DeriveKey's six AES blocks (block i = `first` xor i: lane k of vector j is block
/// j·LANES + k, the index XORed into the first 32-bit word) as `NV` vectors of `V`
/// (NV·LANES >= 6), returned as blocks through a stack copy, which is wiped (it holds
/// the derived keys).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn derive_wide<V: Simd, const NV: usize>(cpu: V::Cpu, kgk: &RoundKeys, first: B<V>) -> [B<V>; 6] {
    let bc = V::block_cpu(cpu);
    let lanes = V::broadcast(cpu, first).xor(V::lane_offsets(cpu));
    let mut v = [lanes; NV];
    for (j, x) in v.iter_mut().enumerate() {
        *x = lanes.xor(V::splat_dword0(cpu, (j * V::LANES) as i32));
    }
    aes_n(&keys::<V>(cpu, kgk), &mut v);
    let mut buf = [0u8; 16 * 8];
    for (j, x) in v.iter().enumerate() {
        x.store(&mut buf[16 * V::LANES * j..]);
    }
    let mut d = [B::<V>::zero(bc); 6];
    for (i, x) in d.iter_mut().enumerate() {
        *x = B::<V>::load(bc, &buf[16 * i..]);
    }
    crate::secret::wipe::wipe_bytes(&mut buf);
    d
}

/// AES-GCM-SIV's counter mode (Le32 from `first`) over the fused kernel's data, with the
/// derived key's round keys as they are (in registers): block-wide up to 8 blocks, where
/// one group of independent chains covers the message (keys broadcast to 512-bit lanes
/// ran slower; docs/tuning.md: ctr_small), and `V`-wide above.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn ctr_small<V: Simd>(cpu: V::Cpu, ek: &Keys<B<V>>, first: B<V>, data: &mut [u8]) {
    if data.len() <= 8 * 16 {
        let c = Ctr::<B<V>>::from_block(V::block_cpu(cpu), first, Counter::Le32);
        ctr_xor_keys::<B<V>, 8>(ek, c, Data::InPlace(data));
    } else {
        ctr_wide::<V>(cpu, ek, first, 0, Data::InPlace(data));
    }
}

/// AES-GCM-SIV's counter mode (Le32 from `skip` blocks after `first`) `V`-wide, from
/// `io`'s source into its destination, with the derived key's round keys broadcast from
/// their registers.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn ctr_wide<V: Simd>(cpu: V::Cpu, ek: &Keys<B<V>>, first: B<V>, skip: i32, io: Data<'_>) {
    let mut k = [V::zero(cpu); 15];
    for (x, b) in k.iter_mut().zip(ek.k.iter()) {
        *x = V::broadcast(cpu, *b);
    }
    let wide = Keys {
        k,
        rounds: ek.rounds,
    };
    let c = Ctr::<V>::after(cpu, first, Counter::Le32, skip);
    ctr_xor_keys::<V, 8>(&wide, c, io);
}

/// Largest message (bytes) for [`siv2015_small`]: the tag block and up to four keystream
/// blocks, and the one-reduction GHASH of at most `POWERS` blocks.
pub(crate) const SIV2015_SMALL_DATA: usize = 64;

/// Whole GCM-SIV (2015) of a small input with keys set up once (seed 001, the short-message
/// case of its Table 2): GHASH of pad16(A) || pad16(M) || lengths as one aggregated batch
/// with the key's precomputed powers and one reduction; S = hash xor N (bit 127 cleared
/// when `keys.mask`); TAG = AES(K_prf, S); then the keystream blocks as independent AES chains
/// from the tag's counter block (`siv::counter_block`). The chain is hash -> AES -> AES:
/// one AES latency longer than AES-GCM's small kernel (AES -> hash), which is why the
/// paper's short-message claim is measured, not assumed (docs/perf/paper-tables.md).
///
/// Encryption (`received` None) encrypts `data` in place and returns the tag; decryption
/// decrypts in place under the received tag and returns the tag of the plaintext (the
/// caller compares in constant time and zeroes `data` on mismatch).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn siv2015_small<V: Simd>(
    cpu: V::Cpu,
    long_term: Siv2015Keys<'_>,
    nonce: &[u8; 12],
    aad: &[u8],
    data: &mut [u8],
    received: Option<&[u8; 16]>,
) -> [u8; 16] {
    let bc = V::block_cpu(cpu);
    let Siv2015Keys {
        hash,
        prf,
        ctr,
        mask,
        counter,
    } = long_term;
    let ck = keys::<B<V>>(bc, ctr);
    if let Some(t) = received {
        keystream_xor::<V>(cpu, &ck, &siv::counter_block(t, mask, counter), data);
    }
    // GHASH of pad16(A) || pad16(M) || lengths: k blocks, block b times H^(k-b).
    let k = aad.len().div_ceil(16) + data.len().div_ceil(16) + 1;
    let table = Table::last(hash, k);
    let mut sums = Sums::<B<V>>::zero(bc);
    let mut next = 0;
    let len = siv::length_block(aad.len() as u64, data.len() as u64);
    for part in [aad, &*data, &len[..]] {
        absorb_padded::<V>(cpu, &mut sums, part, table, &mut next, hash.flavor);
    }
    let value = hash.flavor.store(sums.reduce().to_u128());
    let input = siv::prf_input(value, nonce, mask);
    let mut s = [B::<V>::load(bc, &input)];
    let pk = keys::<B<V>>(bc, prf);
    aes_n(&pk, &mut s);
    let mut tag = [0u8; 16];
    s[0].store(&mut tag);
    if received.is_none() {
        keystream_xor::<V>(cpu, &ck, &siv::counter_block(&tag, mask, counter), data);
    }
    // Long-term keys: their broadcast copies are not secret beyond the key objects,
    // which wipe themselves (as in `gcm_small`).
    tag
}

/// XORs the keystream from counter block `first` (Le32 counting, at most 4 blocks as
/// independent AES chains) into `data` (`data.len() <= 64`). A function, not a closure:
/// closures do not inherit the caller's target features, and their intrinsics would
/// become calls.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn keystream_xor<V: Simd>(cpu: V::Cpu, ck: &Keys<B<V>>, first: &[u8; 16], data: &mut [u8]) {
    let start = CtrStart {
        kind: Counter::Le32,
        block: *first,
    };
    let mut c = Ctr::<B<V>>::new(V::block_cpu(cpu), start);
    let mut s = [B::<V>::zero(V::block_cpu(cpu)); 4];
    for x in s.iter_mut() {
        *x = c.take();
    }
    aes_n(ck, &mut s);
    xor_keystream::<V>(cpu, Data::InPlace(data), &s);
}
