//! The portable constant-time engine: fixsliced AES (`aes::soft`, 8 blocks per batch),
//! integer-multiply GF(2^128) (`field::soft`).

#![forbid(unsafe_code)]

use super::sequence::{self, GcmSteps, TwoPass};
use super::{Counter, CtrStart, Data, Hash, Y0};
use crate::aes::{soft, RoundKeys};
use crate::field::{soft as field_soft, HashKey};

// Stitching hashes block i of a batch in round i + 1, one partial product per point of the
// round: every block needs a round, and every partial product a point.
const _: () = assert!(soft::BATCH <= soft::MIN_STITCHED_ROUNDS);
const _: () = assert!(soft::STITCH_POINTS == field_soft::PARTS);

/// XORs the keystream E(K, ctr), E(K, ctr+1), ... into `data`; returns the counter after
/// the last block used.
pub(crate) fn ctr_xor(keys: &RoundKeys, kind: Counter, ctr: [u8; 16], data: &mut [u8]) -> [u8; 16] {
    ctr_xor_with(&soft::Schedule::new(keys), kind, ctr, data)
}

/// [`ctr_xor`] with the fixsliced round keys already made (callers that run many chunks
/// make them once). Out of line: one copy of the batch AES for every caller, not one
/// inlined into each (a whole message's, the stitched pass's tail; docs/perf/code-size.md).
#[inline(never)]
fn ctr_xor_with(
    s: &soft::Schedule<soft::BatchWord>,
    kind: Counter,
    ctr: [u8; 16],
    data: &mut [u8],
) -> [u8; 16] {
    let mut ctr = ctr;
    let mut ks = [[0u8; 16]; soft::BATCH];
    for chunk in data.chunks_mut(16 * soft::BATCH) {
        for (i, k) in ks.iter_mut().enumerate() {
            *k = kind.add(&ctr, i as u32);
        }
        s.encrypt(&mut ks);
        let used = chunk.len().div_ceil(16) as u32;
        ctr = kind.add(&ctr, used);
        for (d, k) in chunk.iter_mut().zip(ks.as_flattened()) {
            *d ^= k;
        }
    }
    crate::secret::wipe::wipe(&mut ks);
    ctr
}

/// H^1..H^count (H in POLYVAL form) into the descending table (`desc[POWERS - k]` =
/// H^k), one multiply per power.
pub(crate) fn fill_powers(h: u128, count: usize, desc: &mut [u128; crate::field::POWERS]) {
    let p = crate::field::POWERS;
    desc[p - 1] = h;
    for k in 2..=count.clamp(1, p) {
        desc[p - k] = field_soft::dot(desc[p - k + 1], h);
    }
}

pub(crate) fn hash_update(key: &HashKey, acc: &mut u128, data: &[u8]) {
    field_soft::update_padded(key, acc, data);
}

/// CTR with the hash of the input (before it is decrypted) or of the output absorbed into
/// `acc`. Whole batches are stitched: the batch's keystream is computed while the batch's
/// input, or the previous batch's output, is hashed in small slots inside its rounds
/// (`Schedule::encrypt_with`, `field::soft::BatchHash`), one reduction per batch.
pub(crate) fn ctr_and_hash(
    keys: &RoundKeys,
    h: &HashKey,
    start: CtrStart,
    acc: &mut u128,
    data: &mut [u8],
    what: Hash,
) -> [u8; 16] {
    let schedule = soft::Schedule::new(keys);
    let powers = field_soft::Powers::for_len(h, data.len());
    ctr_and_hash_with(&schedule, &powers, start, acc, data, what)
}

/// An AES-GCM update (`Kernels::gcm_update_seal`, `gcm_update_open`): counter mode from
/// the counter block `ctr`, the ciphertext (`what`) hashed into `acc`; `ctr` becomes the
/// next counter block. A source and destination pair is copied first, then run in place.
pub(crate) fn gcm_update(
    keys: &RoundKeys,
    h: &HashKey,
    ctr: &mut [u8; 16],
    acc: &mut u128,
    io: Data<'_>,
    what: Hash,
) {
    let start = CtrStart {
        kind: Counter::Be32,
        block: *ctr,
    };
    *ctr = ctr_and_hash(keys, h, start, acc, io.into_in_place(), what);
}

/// The GCM tag (before truncation) from the GHASH value `acc` of AAD and ciphertext: the
/// length block absorbed, xor E(K, Y0).
pub(crate) fn gcm_finish(
    keys: &RoundKeys,
    h: &HashKey,
    y0: &[u8; 16],
    mut acc: u128,
    aad_len: usize,
    data_len: usize,
) -> [u8; 16] {
    let lb = crate::spec::gcm::length_block(aad_len as u64, data_len as u64);
    hash_update(h, &mut acc, &lb);
    let mut m = [*y0];
    soft::encrypt_blocks(keys, &mut m);
    crate::spec::gcm::tag_from_ghash(acc, &m[0])
}

/// Whole AES-GCM (tag before truncation) on the portable engine, in the order of
/// `engine::sequence::gcm_whole`, with the fixsliced round keys and the split powers of H
/// made once for the AAD, the data, the length block and E(K, Y0).
pub(crate) fn gcm_whole(
    keys: &RoundKeys,
    h: &HashKey,
    y0: Y0<'_>,
    aad: &[u8],
    data: &mut [u8],
    what: Hash,
) -> [u8; 16] {
    let schedule = soft::Schedule::new(keys);
    let powers = field_soft::Powers::for_len(h, aad.len().max(data.len()));
    let mut steps = Whole {
        schedule: &schedule,
        powers: &powers,
        y0,
    };
    sequence::gcm_whole(&mut steps, aad, Data::InPlace(data), what)
}

/// The portable engine's steps of a whole message, for `engine::sequence::gcm_whole`.
struct Whole<'a> {
    schedule: &'a soft::Schedule<soft::BatchWord>,
    powers: &'a field_soft::Powers,
    y0: Y0<'a>,
}

impl GcmSteps for Whole<'_> {
    fn hash(&mut self, acc: &mut u128, data: &[u8]) {
        self.powers.update(acc, data);
    }

    fn data_and_mask(&mut self, acc: &mut u128, io: Data<'_>, what: Hash) -> [u8; 16] {
        let data = io.into_in_place();
        let Y0 { kind, block, .. } = self.y0;
        // E(K, Y0) is block 0 of a batch: of the data's own batch when the data fits in the
        // other blocks (one batch of AES for a short message, not two), else of its own.
        let mut ks = [[0u8; 16]; soft::BATCH];
        for (i, k) in ks.iter_mut().enumerate() {
            *k = kind.add(block, i as u32);
        }
        if data.len() <= 16 * (soft::BATCH - 1) {
            self.schedule.encrypt(&mut ks);
            let mut pass = Pass {
                schedule: self.schedule,
                powers: self.powers,
                kind,
                ctr: ks[1],
                ready: Some(&ks[1..]),
            };
            sequence::two_pass(&mut pass, acc, Data::InPlace(data), what);
        } else {
            let first = CtrStart { kind, block: ks[1] };
            ctr_and_hash_with(self.schedule, self.powers, first, acc, data, what);
            self.schedule.encrypt(&mut ks);
        }
        let mask = ks[0];
        crate::secret::wipe::wipe(&mut ks);
        mask
    }
}

/// The portable engine's unstitched counter mode and hash, for
/// `engine::sequence::two_pass`.
struct Pass<'a> {
    schedule: &'a soft::Schedule<soft::BatchWord>,
    powers: &'a field_soft::Powers,
    kind: Counter,
    /// The next counter block.
    ctr: [u8; 16],
    /// The keystream, if already made (a short message's, in the batch of E(K, Y0)).
    ready: Option<&'a [[u8; 16]]>,
}

impl TwoPass for Pass<'_> {
    fn hash(&mut self, acc: &mut u128, data: &[u8]) {
        self.powers.update(acc, data);
    }

    fn ctr(&mut self, io: Data<'_>) {
        let data = io.into_in_place();
        match self.ready {
            Some(ks) => {
                for (x, k) in data.iter_mut().zip(ks.as_flattened()) {
                    *x ^= k;
                }
            }
            None => self.ctr = ctr_xor_with(self.schedule, self.kind, self.ctr, data),
        }
    }
}

/// [`ctr_and_hash`] with the round keys and powers already made: whole batches stitched,
/// the rest by `engine::sequence::two_pass`. Out of line, as [`ctr_xor_with`]: one copy
/// of the stitched batch.
#[inline(never)]
fn ctr_and_hash_with(
    schedule: &soft::Schedule<soft::BatchWord>,
    powers: &field_soft::Powers,
    start: CtrStart,
    acc: &mut u128,
    data: &mut [u8],
    what: Hash,
) -> [u8; 16] {
    let CtrStart { kind, block: ctr } = start;
    let bb = 16 * soft::BATCH;
    // Stitching hashes one batch per batch of keystream: it needs as many split powers.
    let batches = if powers.batch_blocks() == soft::BATCH {
        data.len() / bb
    } else {
        0
    };
    let mut ctr = ctr;
    let mut ks = [[0u8; 16]; soft::BATCH];
    for b in 0..batches {
        for (i, k) in ks.iter_mut().enumerate() {
            *k = kind.add(&ctr, i as u32);
        }
        ctr = kind.add(&ctr, soft::BATCH as u32);
        let (done, rest) = data.split_at_mut(b * bb);
        let cur = &mut rest[..bb];
        let src: Option<&[u8]> = match what {
            Hash::Input => Some(cur),
            Hash::Output if b > 0 => Some(&done[(b - 1) * bb..]),
            Hash::Output => None,
        };
        let src = src.map(|s| &s[..bb]);
        let stitched = src
            .and_then(|s| s.as_chunks::<16>().0.first_chunk::<{ soft::BATCH }>())
            .and_then(|blocks| field_soft::BatchHash::new(powers, blocks, *acc));
        if let Some(mut hash) = stitched {
            schedule.encrypt_with(&mut ks, |i, k| hash.slot(i, k));
            *acc = hash.finish();
        } else {
            // Not reached (whole batches are stitched only with BATCH split powers), but
            // correct if it were: hash unstitched.
            if let Some(src) = src {
                powers.update(acc, src);
            }
            schedule.encrypt(&mut ks);
        }
        for (d, k) in cur.iter_mut().zip(ks.as_flattened()) {
            *d ^= k;
        }
    }
    crate::secret::wipe::wipe(&mut ks);
    let done = batches * bb;
    if what == Hash::Output && batches > 0 {
        powers.update(acc, &data[done - bb..done]);
    }
    let mut pass = Pass {
        schedule,
        powers,
        kind,
        ctr,
        ready: None,
    };
    sequence::two_pass(&mut pass, acc, Data::InPlace(&mut data[done..]), what);
    pass.ctr
}
