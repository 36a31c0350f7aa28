//! AES-GCM encryption of a plaintext given in several parts (a TLS 1.3 record: the
//! content, then its one-byte type; a vectored write) into one contiguous output, in one
//! pass: the parts are never copied together first.
//!
//! The stitched kernel needs whole blocks until the message's last (partial) block, so
//! the parts are cut into runs: each part's whole blocks go straight through the
//! stitched kernel from the part into the output (its batches unchanged), and only the
//! blocks that straddle two parts, and the message's last partial block, are gathered
//! into a 16-byte stack buffer (the seam) and encrypted there. The counter and the GHASH
//! accumulator carry over from run to run, so the result is exactly that of the
//! one-part message.

use super::super::simd::Simd;
use super::aes::{aes_n, keys};
use super::gcm::{gcm_small, small_fits, stitched_gcm_seal, Whole, SMALL_DATA};
use crate::aes::RoundKeys;
use crate::engine::sequence::{self, GcmSteps};
use crate::engine::Hash;
use crate::engine::{CtrStart, Data, Y0};
use crate::field::HashKey;
use zeroize::Zeroize;

/// Whole AES-GCM encryption (tag before truncation) of the concatenation of `parts` into
/// `out`, which the caller makes exactly as long as the parts together (a shorter one is
/// an internal error: a panic on a slice bound). `engine::sequence::gcm_whole`'s order
/// with the vector kernels' steps, the data step fed by the runs of [`Gather`]: one
/// kernel call. Returns the full tag.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn gcm_seal_parts<V: Simd, const N: usize, const MAXW: usize>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    y0: Y0<'_>,
    aad: &[u8],
    parts: &[&[u8]],
    out: &mut [u8],
) -> [u8; 16] {
    let len = out.len();
    if small_fits(aad.len(), len) {
        // A message for the fused small-message kernel: its few blocks gathered on the
        // stack first, then the kernel's one pass from there into `out`.
        let mut buf = [0u8; SMALL_DATA];
        let buf = &mut buf[..len];
        concat_into(parts, buf);
        let y0 = u128::from_le_bytes(*y0.block);
        let tag = gcm_small::<V, false>(cpu, rk, key, y0, aad, Data::Copy(buf, out));
        // The caller's plaintext passed through the stack.
        buf.zeroize();
        return tag;
    }
    let whole = Whole::<V, N, MAXW> { cpu, rk, key, y0 };
    let mut steps = Parts { whole, parts };
    // The sequence takes the output as the message (its length for the length block);
    // `Parts::data_and_mask` reads the plaintext from the parts and writes it there.
    sequence::gcm_whole(&mut steps, aad, Data::InPlace(out), Hash::Output)
}

/// [`Whole`]'s steps, except that the data comes from a list of parts.
struct Parts<'a, V: Simd, const N: usize, const MAXW: usize> {
    whole: Whole<'a, V, N, MAXW>,
    parts: &'a [&'a [u8]],
}

impl<V: Simd, const N: usize, const MAXW: usize> GcmSteps for Parts<'_, V, N, MAXW> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn hash(&mut self, acc: &mut u128, data: &[u8]) {
        self.whole.hash(acc, data);
    }

    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn data_and_mask(&mut self, acc: &mut u128, io: Data<'_>, what: Hash) -> [u8; 16] {
        // Encryption only (`gcm_seal_parts`): the stitched runs hash the output.
        debug_assert!(what == Hash::Output);
        let w = &self.whole;
        let bc = V::block_cpu(w.cpu);
        // E(K, Y0) first, as `Whole` does.
        // (The long-term key's broadcast round keys are not wiped: see `ctr::ctr_xor_io`.)
        let mut mask = [V::Block::load_halves(bc, w.y0.block)];
        aes_n(&keys::<V::Block>(bc, w.rk), &mut mask);
        let mut ctr = CtrStart {
            kind: w.y0.kind,
            block: w.y0.kind.add(w.y0.block, 1),
        };
        let out = io.into_in_place();
        let mut gather = Gather::new(self.parts);
        let mut off = 0;
        // One call site of the stitched kernel for both kinds of run (it is large once
        // inlined): a run of whole blocks from a part, or the seam in place.
        loop {
            let run = gather.next_run();
            let (io, len) = match run {
                Run::Blocks(src) => (Data::Copy(src, &mut out[off..off + src.len()]), src.len()),
                Run::Seam(len) => (Data::InPlace(&mut gather.seam[..len]), len),
                Run::Done => break,
            };
            let table = w.y0.round_one;
            ctr.block = stitched_gcm_seal::<V, N, MAXW>(w.cpu, w.rk, w.key, table, ctr, acc, io);
            if let Run::Seam(len) = run {
                out[off..off + len].copy_from_slice(&gather.seam[..len]);
            }
            off += len;
        }
        // The seam ends as ciphertext, but a caller's plaintext passed through it.
        gather.seam.zeroize();
        mask[0].to_bytes()
    }

    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn lengths_and_tag(&mut self, acc: u128, lengths: &[u8; 16], mask: &[u8; 16]) -> [u8; 16] {
        self.whole.lengths_and_tag(acc, lengths, mask)
    }
}

/// The next piece of a gathered message to encrypt.
#[derive(Clone, Copy)]
enum Run<'p> {
    /// Whole blocks of one part, encrypted from the part into the output.
    Blocks(&'p [u8]),
    /// The first `len` bytes of the seam: a whole block gathered from two or more parts,
    /// or (`len` < 16) the message's last partial block.
    Seam(usize),
    /// No bytes left.
    Done,
}

/// Cuts a list of parts into [`Run`]s: every run but the last is whole blocks, so the
/// stitched kernel hashes each exactly as it would within one contiguous message.
struct Gather<'p> {
    parts: core::slice::Iter<'p, &'p [u8]>,
    /// What is left of the current part.
    cur: &'p [u8],
    /// A block gathered across parts.
    seam: [u8; 16],
    /// Bytes in `seam`.
    pos: usize,
}

impl<'p> Gather<'p> {
    fn new(parts: &'p [&'p [u8]]) -> Self {
        Gather {
            parts: parts.iter(),
            cur: &[],
            seam: [0; 16],
            pos: 0,
        }
    }

    /// The next run; a `Seam` run's bytes are in `self.seam` until the next call.
    fn next_run(&mut self) -> Run<'p> {
        loop {
            if self.pos == 0 && self.cur.len() >= 16 {
                let (blocks, rest) = self.cur.split_at(self.cur.len() / 16 * 16);
                self.cur = rest;
                return Run::Blocks(blocks);
            }
            // Fewer than 16 bytes left in this part, or a seam begun: top the seam up.
            let n = (16 - self.pos).min(self.cur.len());
            self.seam[self.pos..self.pos + n].copy_from_slice(&self.cur[..n]);
            self.pos += n;
            self.cur = &self.cur[n..];
            if self.pos == 16 {
                self.pos = 0;
                return Run::Seam(16);
            }
            // The seam is not full, so this part is used up.
            match self.parts.next() {
                Some(part) => self.cur = part,
                None => {
                    let len = core::mem::take(&mut self.pos);
                    return if len > 0 { Run::Seam(len) } else { Run::Done };
                }
            }
        }
    }
}

/// Copies the concatenation of `parts` into `out` (exactly as long), for the engines and
/// sizes that encrypt it in place afterwards.
pub(crate) fn concat_into(parts: &[&[u8]], out: &mut [u8]) {
    let mut off = 0;
    for p in parts {
        out[off..off + p.len()].copy_from_slice(p);
        off += p.len();
    }
}
