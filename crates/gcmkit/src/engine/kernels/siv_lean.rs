//! AES-GCM-SIV (RFC 8452) on the one-body kernels of [`super::gcm_lean`] (#75 milestone
//! 3): per engine one whole-message entry point per direction ([`seal`], [`open`]), every
//! key size and message length in the same code, in place or not, and one per direction
//! for at most one block of AAD and four of data ([`seal_one`], [`open_one`]: [`one_block`],
//! straight through). The steps are those of RFC 8452 sec. 4 and 5 on the same body as
//! AES-GCM:
//!
//! - **Key derivation** (`siv::derive`): DeriveKey's four or six AES blocks under the
//!   key-generating key as independent chains, the encryption key's schedule in
//!   registers, the POLYVAL key H.
//! - **Powers of H**: per message (the key changes with the nonce), only as many as the
//!   message reads: its blocks (AAD, data, the length block), at most a batch's and one
//!   more (`gcm_lean`'s calls' rule), rounded up to whole vectors; `LANES` powers per
//!   multiply, by doubling (`ghash::fill_key_powers`), while the key schedule runs.
//! - **POLYVAL** is `gcm_lean`'s GHASH body without the byte reversal (its blocks and
//!   H are already POLYVAL elements; `int_form`): batches of B blocks, one reduction
//!   each, the tail one vector at a time with the length block in its one reduction;
//!   the AAD one vector at a time, in runs of the key's powers.
//! - **Counter mode** is `gcm_lean`'s with the 32-bit counter little-endian in the first
//!   word (already integer form: no byte reversal), from the tag with bit 127 set.
//! - **Encryption**: POLYVAL of AAD, plaintext and lengths; TAG = AES(K_enc, S), S the
//!   hash xor the nonce with bit 127 cleared; counter mode from the tag ([`ctr`]).
//! - **Decryption**: counter mode from the received tag with POLYVAL of its output (the
//!   plaintext) stitched into the same batches (`gcm_lean::crypt`, as GCM encryption
//!   hashes its output), then the tag of the plaintext, which the caller compares in
//!   constant time (zeroing the output on mismatch).
//!
//! Every per-message secret that goes to memory is wiped: the table of powers
//! (`MessageKey`, on drop) and AES-192/256's extra round keys ([`whole`]).

use super::super::message_key::{KeyStorage, MessageKey};
use super::super::simd::Simd;
use super::aes::{aes_n, Keys};
use super::gcm_lean::{crypt, ctr, hash, product, Counters, RoundRegs};
use super::ghash::{fill_key_powers, mul, Sums, FILL_VECTORS};
use super::siv::{derive, tag_of};
use crate::aes::RoundKeys;
use crate::engine::{Data, Io};
use crate::field::{Flavor, POWERS};
use crate::spec::siv;

/// Whole AES-GCM-SIV encryption of `data` (in place or into a separate destination):
/// returns the tag.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn seal<V: Simd, const N: usize>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    data: Data<'_>,
) -> Result<[u8; 16], crate::Error> {
    whole::<V, N, false>(cpu, kgk, nonce, aad, data, &[0; 16])
}

/// [`one_block`] encryption (at most one block of AAD and four of data).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn seal_one<V: Simd>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    data: Data<'_>,
) -> Result<[u8; 16], crate::Error> {
    one_block::<V, false>(cpu, kgk, nonce, aad, data, &[0; 16])
}

/// [`one_block`] decryption (at most one block of AAD and four of data).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn open_one<V: Simd>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    data: Data<'_>,
    received: &[u8; 16],
) -> Result<[u8; 16], crate::Error> {
    one_block::<V, true>(cpu, kgk, nonce, aad, data, received)
}

/// Whole AES-GCM-SIV decryption of `data` under the `received` tag's counter: returns
/// the tag of the plaintext written (the caller compares, and zeroes it on mismatch).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn open<V: Simd, const N: usize>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    data: Data<'_>,
    received: &[u8; 16],
) -> Result<[u8; 16], crate::Error> {
    whole::<V, N, true>(cpu, kgk, nonce, aad, data, received)
}

/// [`seal`] and [`open`] in one generic body (`received` is read only when `DECRYPT`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn whole<V: Simd, const N: usize, const DECRYPT: bool>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    data: Data<'_>,
    received: &[u8; 16],
) -> Result<[u8; 16], crate::Error> {
    let bc = V::block_cpu(cpu);
    let len = data.len();
    // The powers the calls read (`gcm_lean`'s rule): every block's, at most a batch's and
    // one more.
    let blocks = aad.len().div_ceil(16) + len.div_ceil(16) + 1;
    let count = blocks.min(N * V::LANES + 1).next_multiple_of(V::LANES);
    if N == 0 || count > POWERS.min(FILL_VECTORS * V::LANES) {
        // Not reached (every engine's batch is at least one vector, its powers fit the
        // table): a typed error, not a short table.
        return Err(crate::Error::InvalidParameter(
            "AES-GCM-SIV kernel without batches or with batches past its table",
        ));
    }
    let (h, ek) = derive::<V>(cpu, kgk, nonce, !DECRYPT || V::LANES < 4)?;
    let mut table = KeyStorage::uninit();
    let mut storage = MessageKey::<V>::new(cpu, &mut table);
    let key = fill_key_powers::<V>(cpu, h, count, Flavor::Polyval, &mut storage);
    let mut extra = [[0u8; 16]; 4];
    let k = RoundRegs::<V>::from_keys(cpu, &ek, &mut extra);
    let lengths = length_block::<V::Block>(bc, aad.len(), len);
    // The AAD one vector at a time, in runs of as many blocks as the key has powers, each
    // with one reduction (`hash` without batches): a second copy of the batch loop here
    // was a kilobyte of each entry point for what is mostly a short header.
    let mut a = V::Block::zero(bc);
    for piece in aad.chunks(16 * key.count) {
        a = hash::<V, 0, true>(cpu, key, a, piece, None);
    }
    // The first counter block: a tag with bit 127 set.
    let top = V::Block::from_u128(bc, siv::first_counter_u128(0));
    let tag = if DECRYPT {
        let first = V::Block::load(bc, received).or(top);
        let mut c = Counters::<V, true>::new(cpu, first);
        let io = Io::new(data);
        let a = crypt::<V, N, false, true>(&k, key, &mut c, a, io, Some(lengths), None);
        tag_of::<V>(&ek, a, nonce)
    } else {
        let a = hash::<V, N, true>(cpu, key, a, data.src(), Some(lengths));
        let tag = tag_of::<V>(&ek, a, nonce);
        let mut c = Counters::<V, true>::new(cpu, tag.or(top));
        ctr::<V, N, true>(&k, &mut c, Io::new(data));
        tag
    };
    crate::secret::wipe::wipe_bytes(extra.as_flattened_mut());
    Ok(tag.to_bytes())
}

/// Largest data, in blocks, of a message [`one_block`] takes (with at most one block of
/// AAD).
pub(crate) const FEW_BLOCKS: usize = 4;

/// [`whole`] for at most one block of AAD and [`FEW_BLOCKS`] of data, straight through on
/// the engine's single-block vectors (a short message's fixed cost: no table of powers,
/// no batch loop): H^2..H^6 by five multiplies (three deep) beside the key schedule, the
/// (at most six) hashed blocks, the length block last, multiplied by H^n..H^1 and reduced
/// once; the tag; the counter blocks as one group of independent AES chains. Encryption
/// hashes its input, so its AES waits only for the tag; decryption's keystream runs from
/// the received tag beside the hash of the AAD. The derived encryption key stays in
/// registers (`aes_n`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn one_block<V: Simd, const DECRYPT: bool>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    aad: &[u8],
    data: Data<'_>,
    received: &[u8; 16],
) -> Result<[u8; 16], crate::Error> {
    let cpu = V::block_cpu(cpu);
    let mut io = Io::new(data);
    let len = io.len();
    if aad.len() > 16 || len > 16 * FEW_BLOCKS {
        return Err(crate::Error::InvalidParameter(
            "AES-GCM-SIV message longer than one block of AAD and four of data",
        ));
    }
    let (h, ek) = derive::<V::Block>(cpu, kgk, nonce, false)?;
    let blocks = len.div_ceil(16);
    // Blocks hashed: the AAD's (when not empty) and the data's, then the length block.
    let n = usize::from(!aad.is_empty()) + blocks + 1;
    // pw[6 - k] = H^k, only as far as the message reads (the count is public).
    let h2 = mul(h, h);
    let mut pw = [h; 6];
    pw[4] = h2;
    if n >= 3 {
        pw[3] = mul(h2, h);
    }
    if n >= 4 {
        let h4 = mul(h2, h2);
        pw[2] = h4;
        pw[1] = mul(h4, h);
        pw[0] = mul(h4, h2);
    }
    let mut at = 6 - n;
    let mut sums = Sums::<V::Block>::zero(cpu);
    if !aad.is_empty() {
        let x = if aad.len() == 16 {
            V::Block::load(cpu, aad)
        } else {
            V::Block::load_partial(cpu, aad)
        };
        sums.add(product(x, pw[at]));
        at += 1;
    }
    let top = V::Block::from_u128(cpu, siv::first_counter_u128(0));
    // Decryption's keystream from the received tag, beside the AAD's product.
    let ks = if DECRYPT && len > 0 {
        keystream::<V::Block>(&ek, V::Block::load(cpu, received).or(top), blocks)
    } else {
        [V::Block::zero(cpu); FEW_BLOCKS]
    };
    // The data blocks (zero past the end); decryption's plaintext, written as it is made.
    let mut x = [V::Block::zero(cpu); FEW_BLOCKS];
    for (b, xb) in x.iter_mut().enumerate().take(blocks) {
        let off = 16 * b;
        let whole = len - off >= 16;
        *xb = if whole {
            io.load::<V::Block>(cpu, off)
        } else {
            io.load_tail::<V::Block>(cpu, off)
        };
        if DECRYPT {
            *xb = xb.xor(ks[b]);
            store_block(&mut io, off, *xb, len - off);
            if !whole {
                // Past the end the plaintext holds keystream: hash zeros there.
                *xb = xb.keep_bytes(len - off);
            }
        }
        sums.add(product(*xb, pw[at]));
        at += 1;
    }
    let l = length_block::<V::Block>(cpu, aad.len(), len);
    sums.add(product(l, h));
    let tag = tag_of::<V::Block>(&ek, sums.reduce_true_mid(), nonce);
    if !DECRYPT && len > 0 {
        let ks = keystream::<V::Block>(&ek, tag.or(top), blocks);
        for (b, xb) in x.iter().enumerate().take(blocks) {
            let off = 16 * b;
            store_block(&mut io, off, xb.xor(ks[b]), len - off);
        }
    }
    Ok(tag.to_bytes())
}

/// [`FEW_BLOCKS`] keystream blocks from the counter block `first` (a tag with bit 127
/// set): the counter in the first word plus 0, 1, 2, 3, as independent AES chains; for a
/// message of one block, the first alone (the count is public).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn keystream<B: Simd<Block = B>>(ek: &Keys<B>, first: B, blocks: usize) -> [B; FEW_BLOCKS] {
    let mut s = [first; FEW_BLOCKS];
    if blocks <= 1 {
        aes_n(ek, core::array::from_mut(&mut s[0]));
        return s;
    }
    for (i, x) in s.iter_mut().enumerate().skip(1) {
        *x = first.add32(B::splat_dword0(first.cpu(), i as i32));
    }
    aes_n(ek, &mut s);
    s
}

/// Stores `x` at `off` in `io`: a whole block when `rest` (the bytes from `off` to the
/// end) is 16 or more, else its first `rest` bytes.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn store_block<B: Simd>(io: &mut Io<'_>, off: usize, x: B, rest: usize) {
    if rest >= 16 {
        io.store(off, x);
    } else {
        io.store_tail(off, x);
    }
}

/// AES-GCM-SIV's length block (`siv::length_block`: the AAD's and the data's bit
/// lengths, little-endian, AAD first) as a POLYVAL element.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn length_block<B: Simd>(cpu: B::Cpu, aad_len: usize, data_len: usize) -> B {
    let bits = |n: usize| u128::from((n as u64).wrapping_mul(8));
    B::from_u128_computed(cpu, bits(aad_len) | (bits(data_len) << 64))
}

/// The one-body kernels against the portable engine, on every hardware engine this CPU
/// has: every key size, lengths across every block, vector and batch boundary, AAD
/// lengths likewise, in place and not, both directions, the one-block entry points (and their typed error on other shapes); a
/// wrong tag is never the plaintext's tag.
#[cfg(all(test, feature = "std"))]
mod tests {
    use super::super::hardware;
    use crate::aes::RoundKeys;
    use crate::engine::{Data, Engine};
    use crate::mode::AeadMode;
    use crate::testing::{bytes, lengths_around};
    use crate::{AesGcmSiv, Error};

    /// Lengths around every boundary: blocks, vectors (1, 2, 4 blocks), 32 B, batches (8
    /// and 16 blocks), a batch and one more block, and two batches.
    fn lengths() -> std::vec::Vec<usize> {
        lengths_around(&[0, 16, 32, 48, 64, 128, 144, 256, 272, 512, 1024])
    }

    #[test]
    fn lean_matches_portable() {
        let mut seed = 1u64;
        for k in hardware() {
            for key_len in [16, 24, 32] {
                let key = bytes(key_len, seed);
                let kgk = RoundKeys::new(&key).unwrap();
                let portable = AesGcmSiv::with_engine(&key, Engine::Portable).unwrap();
                for len in lengths() {
                    for aad_len in [0usize, 1, 16, 17, 33, 255, 256, 257, 600] {
                        seed += 1;
                        let nonce: [u8; 12] = bytes(12, seed).try_into().unwrap();
                        let aad = bytes(aad_len, seed + 7);
                        let pt = bytes(len, seed + 9);
                        let what = format!("{k:?} AES-{} len {len} aad {aad_len}", 8 * key_len);
                        let sealed = portable.encrypt(&nonce, &pt, &aad).unwrap();
                        let (want, want_tag) = sealed.split_at(len);
                        let want_tag: [u8; 16] = want_tag.try_into().unwrap();
                        // Encrypt in place and into a separate buffer.
                        let mut ct = pt.clone();
                        let tag =
                            k.siv_lean_seal_kernel(&kgk, &nonce, &aad, Data::InPlace(&mut ct));
                        assert_eq!(tag.unwrap().unwrap(), want_tag, "{what}");
                        assert_eq!(ct, want, "{what}");
                        let mut out = std::vec![0u8; len];
                        let tag =
                            k.siv_lean_seal_kernel(&kgk, &nonce, &aad, Data::Copy(&pt, &mut out));
                        assert_eq!(
                            (tag.unwrap().unwrap(), &out[..]),
                            (want_tag, want),
                            "{what}"
                        );
                        // Decrypt both ways: the plaintext back, its tag the received one.
                        let open = |data: Data<'_>, t: &[u8; 16]| {
                            k.siv_lean_open_kernel(&kgk, &nonce, &aad, data, t)
                                .unwrap()
                                .unwrap()
                        };
                        assert_eq!(
                            (open(Data::InPlace(&mut ct), &want_tag), &ct),
                            (want_tag, &pt),
                            "{what}"
                        );
                        assert_eq!(
                            (open(Data::Copy(want, &mut out), &want_tag), &out),
                            (want_tag, &pt),
                            "{what}"
                        );
                        // The one-block entry points where the shape is theirs, else a
                        // typed error.
                        let mut ct = pt.clone();
                        let tag = k
                            .siv_lean_seal_one_kernel(&kgk, &nonce, &aad, Data::InPlace(&mut ct))
                            .unwrap();
                        let mut back = std::vec![0u8; len];
                        let back_tag = k
                            .siv_lean_open_one_kernel(
                                &kgk,
                                &nonce,
                                &aad,
                                Data::Copy(want, &mut back),
                                &want_tag,
                            )
                            .unwrap();
                        if aad_len <= 16 && len <= 16 * super::FEW_BLOCKS {
                            assert_eq!((tag.unwrap(), &ct[..]), (want_tag, want), "one {what}");
                            assert_eq!((back_tag.unwrap(), &back), (want_tag, &pt), "one {what}");
                        } else {
                            assert!(matches!(tag, Err(Error::InvalidParameter(_))), "{what}");
                            assert!(
                                matches!(back_tag, Err(Error::InvalidParameter(_))),
                                "{what}"
                            );
                        }
                        // A wrong tag: the plaintext's tag (what the caller compares it
                        // with) is not that tag.
                        let mut bad = want_tag;
                        bad[seed as usize % 16] ^= 1 << (seed % 8);
                        let mut ct = want.to_vec();
                        assert_ne!(open(Data::InPlace(&mut ct), &bad), bad, "{what}");
                    }
                }
            }
        }
    }
}
