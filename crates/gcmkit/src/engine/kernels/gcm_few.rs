//! AES-GCM of a message of up to four blocks with at most one block of AAD under a
//! 96-bit IV: 1 to 64 bytes of data, 0 to 16 of AAD. The shape of an acknowledgement,
//! a short RPC reply or a TLS record's header-sized AAD (5 or 13 bytes), and the sizes at
//! which a general kernel's set-up (a block count to dispatch on, an AAD loop, power-table
//! indices, the tag through memory) costs as much as the message.
//!
//! With B data blocks (1 to 4, a compile-time count, as is the AES round count), the whole
//! message is B + 1 AES chains and one GHASH batch with one reduction:
//!     Y0 = IV || 0^31 1,  Y_i = IV || be32(1 + i) (i = 1..B: the counter's last byte
//!         only, 1 + i <= 5, so Y_i is Y0's whitened register XOR (1 xor (1 + i)) << 120),
//!     C_i = P_i xor MSB(E(K, Y_i)) (the last block cut to its length),
//!     S = A·H^(B+2) + C_1·H^(B+1) + ... + C_B·H^2 + L·H
//!         (A the zero-padded AAD block, absent without AAD: a leading zero block adds
//!         nothing to GHASH; L = bitlen(A) || bitlen(C), so without AAD its high qword is
//!         zero and L·H is two products),
//!     T = S xor E(K, Y0) (`spec::gcm::tag_from_ghash`, here on vectors).
//! The products are schoolbook (four carry-less multiplies each: no Karatsuba helper to
//! load, the middle term needs no correction), summed unreduced and reduced once (the
//! math in `kernels/mod.rs`); the powers H^1..H^6 are constant indices into the key's
//! table. An encryption's hash waits for the keystream; a decryption's (its input is the
//! ciphertext) runs beside the AES chains, so only the tag's last XOR waits for them.

use super::super::simd::Simd;
use super::aes::middle_rounds;
use super::ghash::{gcm_tag, Sums};
use crate::aes::RoundKeys;
use crate::engine::Data;
use crate::field::{HashKey, POWERS};
use crate::spec::gcm::iv96_block;

/// Largest message (bytes) for [`gcm_few`]: four blocks.
pub(crate) const FEW_DATA: usize = 64;
/// Largest AAD (bytes) for [`gcm_few`]: one block.
pub(crate) const FEW_AAD: usize = 16;

/// Whether [`gcm_few`] takes a message of these lengths (with a 96-bit IV). An empty
/// message goes to the general small kernel (a GMAC has no keystream to overlap).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn few_fits(aad_len: usize, len: usize) -> bool {
    aad_len <= FEW_AAD && len.wrapping_sub(1) < FEW_DATA
}

/// Whole AES-GCM of a message that [`few_fits`] (a larger one is an internal error: a
/// panic on a slice bound, never memory outside it), encryption or (`DEC`) decryption,
/// from `io`'s source into its destination or in place, with the GHASH key `key` (at
/// least six powers). Returns the full tag before truncation as the little-endian
/// integer of its 16 bytes (in two registers, not through memory); a decryption returns
/// the tag of its ciphertext, which the caller compares.
///
/// A one-block message without AAD takes `gcm_one` instead: this kernel's B = 1 form,
/// in the same function as the four-block form (its registers: a prologue of five
/// pushes) and behind the block count's dispatch, measured slower (docs/tuning.md: gcm_one).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn gcm_few<V: Simd, const DEC: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    iv: &[u8; 12],
    aad: &[u8],
    io: Data<'_>,
) -> u128 {
    // The block count is public (the length); so is the round count (the key size),
    // tested in `middle_rounds`: one copy of the kernel per block count, not three.
    match io.len().div_ceil(16) {
        0 | 1 => few::<V, 1, DEC>(cpu, rk, key, iv, aad, io),
        2 => few::<V, 2, DEC>(cpu, rk, key, iv, aad, io),
        3 => few::<V, 3, DEC>(cpu, rk, key, iv, aad, io),
        _ => few::<V, 4, DEC>(cpu, rk, key, iv, aad, io),
    }
}

/// Adds the schoolbook product x·h (module docs of `kernels`: lo, hi and the true
/// middle term x0·h1 + x1·h0).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn mul_add<B: Simd>(s: &mut Sums<B>, x: B, h: B) {
    s.lo = s.lo.xor(x.clmul::<0x00>(h));
    s.mid = s.mid.xor3(x.clmul::<0x01>(h), x.clmul::<0x10>(h));
    s.hi = s.hi.xor(x.clmul::<0x11>(h));
}

/// [`gcm_few`] with `B` data blocks (the module docs' formulas).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn few<V: Simd, const B: usize, const DEC: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    iv: &[u8; 12],
    aad: &[u8],
    mut io: Data<'_>,
) -> u128 {
    let bc = V::block_cpu(cpu);
    let len = io.len();
    // Bytes in the last block, 1 to 16.
    let last = len.wrapping_sub(16 * (B - 1));
    let whole = |i: usize| i + 1 < B || last == 16;
    // The input first (independent of everything else; a partial block by a masked or
    // piecewise load that never reads past the data).
    let mut input = [V::Block::zero(bc); B];
    {
        let src = &io.src()[..len];
        for (i, x) in input.iter_mut().enumerate() {
            *x = if whole(i) {
                V::Block::load(bc, &src[16 * i..])
            } else {
                V::load_partial(cpu, &src[16 * i..]).lane0()
            };
        }
    }
    // Y0 from the IV in general-purpose registers (a 16-byte load of a block built in
    // memory from its 12- and 4-byte parts cannot be store-forwarded), the counter blocks
    // from Y0's whitened register by one XOR each.
    let k = rk.as_blocks();
    let y0 = V::Block::from_u128_computed(bc, u128::from_le_bytes(iv96_block(iv, 1)));
    let w0 = y0.xor(V::Block::load(bc, &k[0]));
    let mut e = w0;
    let mut s = [w0; B];
    for (i, x) in s.iter_mut().enumerate() {
        *x = w0.xor(V::Block::from_u128(bc, ((1 ^ (2 + i)) as u128) << 120));
    }
    // The chains interleaved round by round (`pin`, as the stitched loop): left to
    // itself, the compiler sank E(K, Y0)'s rounds below the output's stores, so its chain
    // started one decode window late and the tag waited for it (docs/tuning.md: gcm_few,
    // pinned chains).
    let kl = middle_rounds!(rk, |r| {
        let r = V::Block::load(bc, r);
        e = e.aesenc(r).pin();
        for x in s.iter_mut() {
            *x = x.aesenc(r).pin();
        }
    });
    let kl = V::Block::load(bc, kl);
    let mask = e.aesenclast(kl);
    // The output, stored at once; a partial block's keystream is cut to its length first,
    // so the register is the zero-padded ciphertext block GHASH takes.
    let mut out = [w0; B];
    for (i, (o, x)) in out.iter_mut().zip(&input).enumerate() {
        let ks = s[i].aesenclast(kl);
        let ks = if whole(i) {
            ks
        } else {
            V::Block::from_u128_computed(bc, ks.to_u128() & ((1u128 << (8 * last)) - 1))
        };
        *o = x.xor(ks);
    }
    {
        let dst = &mut io.dst()[..len];
        for (i, x) in out.iter().enumerate() {
            if whole(i) {
                x.store(&mut dst[16 * i..]);
            } else {
                V::from_lane0(cpu, *x).store_partial(&mut dst[16 * i..]);
            }
        }
    }
    // S, schoolbook, one reduction. H^k is `desc[POWERS - k]`; block i of the data takes
    // H^(B + 1 - i).
    let h = |k: usize| V::Block::from_u128(bc, key.desc[POWERS - k]);
    let h1 = h(1);
    // The length block's GHASH element (its big-endian value, as `gcm::finish_tag`
    // builds it): bitlen(A) in the high qword, bitlen(C) in the low. Its low half first
    // (two products with H); the high half is zero without AAD.
    let l = V::Block::from_u128_computed(bc, u128::from((len as u64) << 3));
    let mut sums = Sums {
        lo: l.clmul::<0x00>(h1),
        mid: l.clmul::<0x10>(h1),
        hi: V::Block::zero(bc),
    };
    if !aad.is_empty() {
        // The AAD block and the length block's high half bitlen(A) (a public length
        // decides), here in the low qword of `la`: its products with H's halves go to
        // the middle and high terms.
        let a = if aad.len() == 16 {
            V::Block::load(bc, aad)
        } else {
            V::load_partial(cpu, aad).lane0()
        };
        mul_add(&mut sums, a.bswap(), h(B + 2));
        let la = V::Block::from_u128_computed(bc, u128::from((aad.len() as u64) << 3));
        sums.mid = sums.mid.xor(la.clmul::<0x00>(h1));
        sums.hi = sums.hi.xor(la.clmul::<0x10>(h1));
    }
    for (i, x) in if DEC { &input } else { &out }.iter().enumerate() {
        mul_add(&mut sums, x.bswap(), h(B + 1 - i));
    }
    // The tag in two registers (`ghash::gcm_tag`).
    gcm_tag(sums.reduce_true_mid(), mask).to_u128()
}
