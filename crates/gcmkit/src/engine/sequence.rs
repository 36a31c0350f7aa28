//! The order of AES-GCM's steps, written once for every engine. The portable engine and
//! the generic kernels each supply their primitives (a [`TwoPass`], a [`GcmSteps`]) and
//! run these sequences: what differs between engines is how a step is computed (fixsliced
//! AES and integer-multiply GHASH, or vectors), never which step comes when.

#![forbid(unsafe_code)]

use super::{Data, Hash};

/// An engine's counter mode and hash over data it does not stitch.
pub(crate) trait TwoPass {
    /// Absorbs `data` (the last block zero-padded) into `acc`.
    fn hash(&mut self, acc: &mut u128, data: &[u8]);
    /// dst = src xor the keystream, from the pass's counter.
    fn ctr(&mut self, io: Data<'_>);
}

/// Counter mode and the hash as two passes: the input hashed before the keystream is
/// applied (GCM decryption) or the output after (GCM encryption, AES-GCM-SIV decryption).
/// For inputs too short to stitch and for the rest after the stitched batches.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn two_pass<P: TwoPass>(p: &mut P, acc: &mut u128, mut io: Data<'_>, what: Hash) {
    if what == Hash::Input {
        p.hash(acc, io.src());
    }
    p.ctr(io.reborrow());
    if what == Hash::Output {
        p.hash(acc, io.output());
    }
}

/// An engine's steps of one whole AES-GCM message.
pub(crate) trait GcmSteps {
    /// Absorbs `data` (the last block zero-padded) into `acc`.
    fn hash(&mut self, acc: &mut u128, data: &[u8]);
    /// Counter mode over the data from the block after Y0, the ciphertext (`what`)
    /// absorbed into `acc`: whole batches stitched, the rest by [`two_pass`]. Returns
    /// E(K, Y0), which an engine may compute with the data's own AES.
    fn data_and_mask(&mut self, acc: &mut u128, io: Data<'_>, what: Hash) -> [u8; 16];
    /// Absorbs the length block `lengths` into the running value `acc` and returns the
    /// full tag, GHASH xor `mask` (E(K, Y0)). A vector engine overrides it to keep the
    /// value in a vector to the tag's one 16-byte store (`Simd::to_bytes`): this default's
    /// `u128` form leaves the tag as two 8-byte stores, which a caller's 16-byte reload
    /// cannot forward from.
    ///
    /// The defaults here are `#[inline(always)]` like every kernel step: a default
    /// method compiled out of line is compiled without the kernel's target features, so
    /// its SIMD intrinsics become calls (docs/tuning.md: GcmSteps default methods).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn lengths_and_tag(&mut self, mut acc: u128, lengths: &[u8; 16], mask: &[u8; 16]) -> [u8; 16] {
        self.hash(&mut acc, lengths);
        crate::spec::gcm::tag_from_ghash(acc, mask)
    }
    /// The data as [`GcmSteps::data_and_mask`], then the length block `lengths`, then
    /// the full tag GHASH xor E(K, Y0). An engine may fuse the steps (the length block
    /// into the data's last hash, E(K, Y0) beside it); this default runs them in order.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn data_and_tag(
        &mut self,
        acc: &mut u128,
        io: Data<'_>,
        what: Hash,
        lengths: &[u8; 16],
    ) -> [u8; 16] {
        data_then_tag(self, acc, io, what, lengths)
    }
}

/// [`GcmSteps::data_and_tag`]'s steps in order: the data and E(K, Y0), the length block,
/// the tag (for engines that fuse them only for some messages).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn data_then_tag<S: GcmSteps + ?Sized>(
    s: &mut S,
    acc: &mut u128,
    io: Data<'_>,
    what: Hash,
    lengths: &[u8; 16],
) -> [u8; 16] {
    let mask = s.data_and_mask(acc, io, what);
    s.lengths_and_tag(*acc, lengths, &mask)
}

/// Whole AES-GCM, the tag before truncation, in SP 800-38D's order: GHASH of the AAD, the
/// data (CTR from Y0 + 1, the ciphertext hashed), the length block, then
/// tag = GHASH xor E(K, Y0).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn gcm_whole<S: GcmSteps>(s: &mut S, aad: &[u8], io: Data<'_>, what: Hash) -> [u8; 16] {
    let mut acc = 0u128;
    s.hash(&mut acc, aad);
    let lb = crate::spec::gcm::length_block(aad.len() as u64, io.len() as u64);
    s.data_and_tag(&mut acc, io, what, &lb)
}
