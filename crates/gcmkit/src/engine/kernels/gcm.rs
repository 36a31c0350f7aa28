//! AES-GCM kernels: the stitched CTR + GHASH pass, the whole message in one call, and the
//! fused small-message kernel. The mode's own steps (length block, tag = GHASH xor
//! E(K, Y0)) come from `crate::spec`, so they are defined once.

use super::super::simd::Simd;
use super::aes::{aes_n, keys, Keys};
use super::ctr::{ctr_xor_io, Ctr};
use super::ghash::{
    absorb_padded, hash_batch, hash_block, hash_update, kara_ptr, load_block, load_elem, power_ptr,
    Sums,
};
use super::{Hash, Io};
use crate::aes::RoundKeys;
use crate::engine::Counter;
use crate::field::{Flavor, HashKey, POWERS};

/// Largest message (bytes) for [`gcm_small`]: with E(K, Y0), eight AES blocks.
pub(crate) const SMALL_DATA: usize = 7 * 16;
/// Largest padded AAD + padded data + length block for [`gcm_small`] (one reduction).
pub(crate) const SMALL_HASHED: usize = POWERS * 16;

/// Whole AES-GCM of a small input: E(K, Y0) and the keystream in one AES batch, then
/// GHASH(A, C, lengths) as one aggregated batch with one reduction. Returns the full tag.
/// From `io.src` into `io.dst` (or in place): a separate destination costs no copy first.
/// The caller guarantees `io.len <= SMALL_DATA` and
/// `pad16(aad) + pad16(data) + 16 <= SMALL_HASHED`, and `key` is a GHASH key.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract). `io.len <= SMALL_DATA` and `pad16(aad) + pad16(data) + 16 <= SMALL_HASHED`.
#[inline(always)]
pub(crate) unsafe fn gcm_small<V: Simd>(
    rk: &RoundKeys,
    key: &HashKey,
    y0: u128,
    aad: &[u8],
    io: Io,
    decrypt: bool,
) -> [u8; 16] {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        // Y0 arrives in registers (its little-endian bytes): the caller built it with two
        // 8-byte stores, and a 16-byte load of those cannot be store-forwarded, which
        // stalled the start of the AES chain of every small message.
        let y0 = &y0.to_le_bytes();
        // E(K, Y0) and the keystream, counters built in registers (no store-to-load
        // round trip through memory), as many AES chains as blocks.
        match io.len.div_ceil(16) + 1 {
            1 => small::<V, 1>((rk, key), y0, aad, io, decrypt),
            2 => small::<V, 2>((rk, key), y0, aad, io, decrypt),
            3 | 4 => small::<V, 4>((rk, key), y0, aad, io, decrypt),
            _ => small::<V, 8>((rk, key), y0, aad, io, decrypt),
        }
    }
}

/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract). as for `gcm_small`.
#[inline(always)]
unsafe fn small<V: Simd, const N: usize>(
    (rk, key): (&RoundKeys, &HashKey),
    y0: &[u8; 16],
    aad: &[u8],
    io: Io,
    decrypt: bool,
) -> [u8; 16] {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        // Only AES-GCM calls this kernel: the flavor is a constant, not a branch per block.
        let flavor = Flavor::Ghash;
        let ks = keys::<V::Block>(rk);
        let mut c = Ctr::<V::Block>::new(y0, Counter::Be32);
        let mut s = [V::Block::zero(); N];
        for x in s.iter_mut() {
            *x = c.take();
        }
        aes_n(&ks, &mut s);
        // The long-term key's broadcast round keys are not wiped here: the wipe's volatile
        // stores keep them in memory for the whole loop, and AES-128-GCM at 16 KiB-1 MiB
        // measured about 20 % slower (`gcmkit-bench focus`, 0.64x against 0.80x AWS-LC on
        // AES-NI). They are copies of `RoundKeys`, which the key object zeroizes on drop.
        // Per-message keys (AES-GCM-SIV's derived keys) are wiped where they are made.
        // GHASH of pad16(A) || pad16(C) || lengths as one batch of k blocks, hashed straight
        // from the caller's slices (block b times H^(k-b)), one reduction.
        let k = aad.len().div_ceil(16) + io.len.div_ceil(16) + 1;
        let (h, hk) = (power_ptr(key, k), kara_ptr(key, k));
        let mut sums = Sums::<V::Block>::zero();
        let mut next = 0;
        absorb_padded::<V>(&mut sums, aad, h, hk, &mut next, flavor);
        if decrypt {
            absorb_padded::<V>(&mut sums, io.src_slice(), h, hk, &mut next, flavor);
        }
        super::ctr::xor_keystream_io::<V>(io, &s[1..]);
        if !decrypt {
            absorb_padded::<V>(&mut sums, io.dst_slice(), h, hk, &mut next, flavor);
        }
        let len = crate::spec::gcm::length_block(aad.len() as u64, io.len as u64);
        absorb_padded::<V>(&mut sums, &len, h, hk, &mut next, flavor);
        let mut mask = [0u8; 16];
        s[0].store(mask.as_mut_ptr());
        crate::spec::gcm::tag_from_ghash(sums.reduce().to_u128(), &mask)
    }
}

/// Whole AES-GCM of any length in one kernel call: GHASH of the AAD, the stitched
/// CTR + GHASH pass from the counter after `y0`, the length block and the tag mask
/// E(K, Y0). One entry instead of five (AAD hash, stitched pass, length block, tag mask,
/// and the dispatch around each) saves their set-ups: AES-128-GCM at 576 B and 1500 B went
/// from 0.86-0.96x to about 1.05-1.15x AWS-LC (`gcmkit-bench focus`, same run).
/// Returns the full tag (GHASH xor E(K, Y0)).
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn gcm_whole<V: Simd, const N: usize, const MAXW: usize>(
    rk: &RoundKeys,
    key: &HashKey,
    kind: Counter,
    y0: &[u8; 16],
    aad: &[u8],
    io: Io,
    what: Hash,
) -> [u8; 16] {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        // E(K, Y0) first: independent of everything else, it overlaps the hashing.
        // (The long-term key's broadcast round keys are not wiped: see `stitched`.)
        let mut mask = [V::Block::load(y0.as_ptr())];
        let mask_keys = keys::<V::Block>(rk);
        aes_n(&mask_keys, &mut mask);
        let mut acc = 0u128;
        hash_update::<V, MAXW>(key, &mut acc, aad);
        stitched::<V, N, MAXW>(rk, key, kind, kind.add(y0, 1), &mut acc, io, what);
        let len = crate::spec::gcm::length_block(aad.len() as u64, io.len as u64);
        let a = hash_block(
            key,
            V::Block::from_u128(acc),
            load_block::<V::Block>(len.as_ptr(), 16, key.flavor),
        );
        let mut e = [0u8; 16];
        mask[0].store(e.as_mut_ptr());
        crate::spec::gcm::tag_from_ghash(a.to_u128(), &e)
    }
}

/// CTR over `data` in place with the GHASH/POLYVAL of the input or output absorbed into
/// `acc`, N vectors per batch, AES and CLMUL interleaved. Returns the next counter.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(crate) unsafe fn stitched<V: Simd, const N: usize, const MAXW: usize>(
    rk: &RoundKeys,
    key: &HashKey,
    kind: Counter,
    ctr: [u8; 16],
    acc: &mut u128,
    io: Io,
    what: Hash,
) -> [u8; 16] {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let wblocks = N * V::LANES;
        let (vb, wb) = (16 * V::LANES, 16 * wblocks);
        let batches = io.len / wb;
        if key.count < wblocks || batches < 2 {
            // Short input: the two passes back to back.
            return hashed_around::<V, N, MAXW>(rk, key, (kind, ctr), acc, io, what);
        }
        let ks = keys::<V>(rk);
        let mut hpow = [V::zero(); N];
        let mut hkar = [V::zero(); N];
        for j in 0..N {
            hpow[j] = V::load(power_ptr(key, wblocks).add(vb * j));
            hkar[j] = V::load(kara_ptr(key, wblocks).add(vb * j));
        }
        let mut c = Ctr::<V>::new(&ctr, kind);
        let args = (&ks, key, &hpow, &hkar, io, batches, what);
        let mut a = match ks.rounds {
            10 => batch_loop::<V, N, 10>(args, &mut c, V::Block::from_u128(*acc)),
            12 => batch_loop::<V, N, 12>(args, &mut c, V::Block::from_u128(*acc)),
            _ => batch_loop::<V, N, 14>(args, &mut c, V::Block::from_u128(*acc)),
        };
        // The long-term key's broadcast round keys are not wiped here: the wipe's volatile
        // stores keep them in memory for the whole loop, and AES-128-GCM at 16 KiB-1 MiB
        // measured about 20 % slower (`gcmkit-bench focus`, 0.64x against 0.80x AWS-LC on
        // AES-NI). They are copies of `RoundKeys`, which the key object zeroizes on drop.
        // Per-message keys (AES-GCM-SIV's derived keys) are wiped where they are made.
        if what == Hash::Output {
            a = hash_batch::<V>(key, a, io.dst.add((batches - 1) * wb), wblocks);
        }
        *acc = a.to_u128();
        let done = batches * wb;
        let next = kind.add(&ctr, (done / 16) as u32);
        hashed_around::<V, N, MAXW>(rk, key, (kind, next), acc, io.skip(done), what)
    }
}

/// Counter mode and the hash as two passes: the input hashed before the keystream is
/// applied (GCM decryption) or the output after (encryption); for inputs too short to
/// stitch and for the tail after the stitched batches (as `engine::portable`'s
/// `hashed_around`). Returns the next counter.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
unsafe fn hashed_around<V: Simd, const N: usize, const MAXW: usize>(
    rk: &RoundKeys,
    key: &HashKey,
    (kind, ctr): (Counter, [u8; 16]),
    acc: &mut u128,
    io: Io,
    what: Hash,
) -> [u8; 16] {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        if what == Hash::Input {
            hash_update::<V, MAXW>(key, acc, io.src_slice());
        }
        let next = ctr_xor_io::<V, N>(rk, kind, ctr, io);
        if what == Hash::Output {
            hash_update::<V, MAXW>(key, acc, io.dst_slice());
        }
        next
    }
}

/// Borrowed state of one stitched run: keys, hash key, the batch's powers and Karatsuba
/// helpers, the data, the batch count and what to hash.
type LoopArgs<'a, V, const N: usize> = (
    &'a Keys<V>,
    &'a HashKey,
    &'a [V; N],
    &'a [V; N],
    Io<'a>,
    usize,
    Hash,
);

/// The stitched batches with the AES round count `R` fixed at compile time.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract). `args.4` (the data) holds at least `args.5` whole batches.
#[inline(always)]
unsafe fn batch_loop<V: Simd, const N: usize, const R: usize>(
    args: LoopArgs<'_, V, N>,
    c: &mut Ctr<V>,
    mut a: V::Block,
) -> V::Block {
    // Rounds 1..=N each carry one vector of hashing: the round count must exceed N.
    const {
        assert!(
            R > N,
            "every hashed vector needs an AES round to hide behind"
        )
    };
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let (ks, key, hpow, hkar, io, batches, what) = args;
        let vb = 16 * V::LANES;
        let wb = vb * N;
        for b in 0..batches {
            let off = b * wb;
            // The N vectors this batch hashes: its own input, or the previous batch's output.
            let src: Option<*const u8> = match what {
                Hash::Input => Some(io.src.add(off)),
                Hash::Output if b > 0 => Some(io.dst.add(off - wb) as *const u8),
                Hash::Output => None,
            };
            let mut s = c.take_batch::<N>(ks.k[0]);
            // Rounds 1..=N each carry one vector of hashing (R > N, asserted above); products
            // are summed in pairs with three-input XORs.
            let mut sums = Sums::<V>::zero();
            let mut pending = Sums::<V>::zero();
            for j in 0..N {
                let k = ks.k[j + 1];
                for x in s.iter_mut() {
                    *x = x.aesenc(k);
                }
                if let Some(src) = src {
                    let mut x = load_elem::<V>(src.add(vb * j), key.flavor);
                    if j == 0 {
                        x = x.xor(V::from_lane0(a));
                    }
                    let p = Sums::product(x, hpow[j], hkar[j]);
                    match j {
                        1 => sums = Sums::sum2(pending, p),
                        _ if j % 2 == 1 => sums.add2(pending, p),
                        _ if j == N - 1 => sums.add(p),
                        _ => pending = p,
                    }
                }
            }
            for r in N + 1..R {
                let k = ks.k[r];
                for x in s.iter_mut() {
                    *x = x.aesenc(k);
                }
            }
            if src.is_some() {
                a = sums.reduce();
            }
            let k = ks.k[R];
            for (j, x) in s.iter().enumerate() {
                let o = off + vb * j;
                V::load(io.src.add(o))
                    .xor(x.aesenclast(k))
                    .store(io.dst.add(o));
            }
        }
        a
    }
}
