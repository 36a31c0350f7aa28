//! The engine's shared types: the data of a pass ([`Data`], [`Block16`]), where a
//! counter starts and how it advances ([`Counter`], [`CtrStart`], [`Y0`],
//! [`SmallStart`]), what a stitched pass hashes ([`Hash`]), and GCM-SIV (2015)'s keys for
//! its kernel. Every engine file names them from here (through `engine`'s re-exports), so
//! no engine file needs another for a type.

use super::RoundOne;
use crate::aes::RoundKeys;
use crate::field::HashKey;

/// How a counter block advances: GCM increments the last 4 bytes big-endian, AES-GCM-SIV
/// the first 4 bytes little-endian; both wrap modulo 2^32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counter {
    /// GCM: last 4 bytes, big-endian.
    Be32,
    /// As `Be32`, from a *public* starting block: GCM with a 96-bit IV, where Y0 = IV || 1.
    /// Kernels may then branch on the counter's value (they batch increments while the
    /// last byte cannot carry). With other IV lengths Y0 = GHASH_H(IV) depends on the key,
    /// so `Be32` is used and nothing branches on it.
    Be32Public,
    /// AES-GCM-SIV: first 4 bytes, little-endian.
    Le32,
}

impl Counter {
    /// The block `n` steps after `block`.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn add(self, block: &[u8; 16], n: u32) -> [u8; 16] {
        let mut b = *block;
        match self {
            Counter::Be32 | Counter::Be32Public => {
                let c = u32::from_be_bytes([b[12], b[13], b[14], b[15]]).wrapping_add(n);
                b[12..].copy_from_slice(&c.to_be_bytes());
            }
            Counter::Le32 => {
                let c = u32::from_le_bytes([b[0], b[1], b[2], b[3]]).wrapping_add(n);
                b[..4].copy_from_slice(&c.to_le_bytes());
            }
        }
        b
    }
}

/// Which data the stitched kernel hashes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hash {
    /// The input (GCM decryption hashes the ciphertext it decrypts).
    Input,
    /// The output (GCM encryption hashes its ciphertext; AES-GCM-SIV decryption hashes the
    /// plaintext it produces).
    Output,
}

impl Hash {
    /// What GCM hashes: its ciphertext, the input when decrypting, else the output.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn gcm(decrypt: bool) -> Hash {
        Hash::from_input(decrypt)
    }

    /// `Input` when `input`, else `Output` (the stitched pass's `INPUT` constant).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) const fn from_input(input: bool) -> Hash {
        if input {
            Hash::Input
        } else {
            Hash::Output
        }
    }
}

/// The data of a counter-mode pass: in place, or from `src` to `dst` (same length) in
/// one pass. (`pub` in name only: it types the sealed mode core's parameters, and this
/// module is private, so nothing outside gcmkit can name or build one.)
pub enum Data<'a> {
    InPlace(&'a mut [u8]),
    Copy(&'a [u8], &'a mut [u8]),
}

impl<'a> Data<'a> {
    /// The destination, after copying the source into it if needed.
    pub(crate) fn into_in_place(self) -> &'a mut [u8] {
        match self {
            Data::InPlace(b) => b,
            Data::Copy(src, dst) => {
                dst.copy_from_slice(src);
                dst
            }
        }
    }

    /// Bytes to process (a `Copy` pair of unequal lengths is cut to the shorter).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn len(&self) -> usize {
        match self {
            Data::InPlace(b) => b.len(),
            Data::Copy(s, d) => s.len().min(d.len()),
        }
    }

    /// Bytes `start..start + n` of both sides (within [`Self::len`]).
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn range(&mut self, start: usize, n: usize) -> Data<'_> {
        let r = start..start + n;
        match self {
            Data::InPlace(b) => Data::InPlace(&mut b[r]),
            Data::Copy(s, d) => Data::Copy(&s[r.clone()], &mut d[r]),
        }
    }

    /// Both sides from byte `off` (<= [`Self::len`]) to [`Self::len`].
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn tail(self, off: usize) -> Data<'a> {
        let len = self.len();
        match self {
            Data::InPlace(b) => Data::InPlace(&mut b[off..]),
            Data::Copy(s, d) => Data::Copy(&s[off..len], &mut d[off..len]),
        }
    }

    /// The destination, read-only (the output, after a kernel wrote it).
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn output(&self) -> &[u8] {
        match self {
            Data::InPlace(b) => b,
            Data::Copy(_, d) => d,
        }
    }

    /// A shorter-lived view of the same data.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn reborrow(&mut self) -> Data<'_> {
        match self {
            Data::InPlace(b) => Data::InPlace(b),
            Data::Copy(s, d) => Data::Copy(s, d),
        }
    }

    /// The source: the buffer itself in place.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn src(&self) -> &[u8] {
        match self {
            Data::InPlace(b) => b,
            Data::Copy(s, _) => s,
        }
    }

    /// The destination buffer.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn dst(&mut self) -> &mut [u8] {
        match self {
            Data::InPlace(b) => b,
            Data::Copy(_, d) => d,
        }
    }
}

/// A message of exactly one whole block, in place or from a source into a destination,
/// as two pointers: passed to a kernel in two registers, where a [`Data`] goes through
/// memory (its shape and both lengths stored by the caller, loaded and tested by the
/// kernel, then a bounds check per access): about 25 instructions of a 16-byte AES-GCM
/// call. Built only from a `Data` whose sides are 16 bytes long, and borrowing it, so the
/// pointers are valid (and, but in place, disjoint) for as long as it lives.
pub(crate) struct Block16<'a> {
    src: *const [u8; 16],
    dst: *mut [u8; 16],
    _data: core::marker::PhantomData<&'a mut [u8; 16]>,
}

impl<'a> Block16<'a> {
    /// `data` as one block, if both its sides are exactly 16 bytes long.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn new(data: &'a mut Data<'_>) -> Option<Self> {
        let (src, dst): (*const [u8; 16], *mut [u8; 16]) = match data {
            Data::InPlace(b) => {
                // Both from one raw pointer: in place, the read and the write are one block.
                let b: *mut [u8; 16] = <&mut [u8; 16]>::try_from(&mut **b).ok()?;
                (b, b)
            }
            Data::Copy(s, d) => {
                let s: &[u8; 16] = (*s).try_into().ok()?;
                (s, <&mut [u8; 16]>::try_from(&mut **d).ok()?)
            }
        };
        Some(Block16 {
            src,
            dst,
            _data: core::marker::PhantomData,
        })
    }

    /// The input block (read it before [`Self::write`]: in place, the two are one).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn read(&self) -> [u8; 16] {
        // SAFETY: `src` came from a 16-byte slice of the `Data` this value borrows (`new`),
        // so it is valid for reads for as long as `self` lives; `[u8; 16]` has alignment 1.
        unsafe { self.src.read() }
    }

    /// Writes the output block.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn write(self, out: [u8; 16]) {
        // SAFETY: `dst` came from a 16-byte `&mut` of the `Data` this value borrows
        // mutably (`new`), so it is valid for writes and nothing else reads it meanwhile.
        unsafe { self.dst.write(out) }
    }
}

/// The data of a pass as two pointers and a length, for a kernel that reads and writes
/// it vector by vector in one body whether in place or not: in place the two pointers are
/// one, so each vector is read before its output is written over it; otherwise the
/// destination is disjoint from the source (two slices, one `&mut`). No copy, no branch on
/// the shape per access. Built from a [`Data`] and borrowing it, so the pointers are valid
/// for `len` bytes for as long as it lives; every access is checked against `len`.
pub(crate) struct Io<'a> {
    src: *const u8,
    dst: *mut u8,
    len: usize,
    _data: core::marker::PhantomData<&'a mut [u8]>,
}

impl<'a> Io<'a> {
    /// `data`'s two sides (a `Copy` pair of unequal lengths cut to the shorter, as
    /// [`Data::len`]).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn new(data: Data<'a>) -> Self {
        let len = data.len();
        let (src, dst): (*const u8, *mut u8) = match data {
            Data::InPlace(b) => {
                // Both from one raw pointer: the reads and writes of one buffer.
                let p = b.as_mut_ptr();
                (p, p)
            }
            Data::Copy(s, d) => (s.as_ptr(), d.as_mut_ptr()),
        };
        Io {
            src,
            dst,
            len,
            _data: core::marker::PhantomData,
        }
    }

    /// Bytes in the pass.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Panics (an internal error: kernels index whole vectors within the length) unless
    /// `n` bytes from `at` are within the pass.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn check(&self, at: usize, n: usize) {
        assert!(
            at <= self.len && n <= self.len - at,
            "Io: access past the data"
        );
    }

    /// The whole vector of source bytes at `at`.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn load<V: super::simd::Simd>(&self, cpu: V::Cpu, at: usize) -> V {
        self.check(at, 16 * V::LANES);
        // SAFETY: `src` is valid for reads of `len` bytes while `self` lives (`new`), and
        // `at..at + 16·LANES` is within them (checked above).
        unsafe { V::load_ptr(cpu, self.src.add(at)) }
    }

    /// Writes a whole vector of output at `at` (after every read of those bytes: in
    /// place, they are the input's).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn store<V: super::simd::Simd>(&mut self, at: usize, v: V) {
        self.check(at, 16 * V::LANES);
        // SAFETY: `dst` is valid for writes of `len` bytes while `self` lives, borrowed
        // mutably from the `Data` (`new`); `at..at + 16·LANES` is within them (checked
        // above).
        unsafe { v.store_ptr(self.dst.add(at)) }
    }

    /// `M` whole vectors of source bytes from `at`, one after another: one check for the
    /// run (a check per vector cost a compare and branch each in the batch loops).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn load_run<V: super::simd::Simd, const M: usize>(
        &self,
        cpu: V::Cpu,
        at: usize,
    ) -> [V; M] {
        let vb = 16 * V::LANES;
        self.check(at, vb * M);
        let mut run = [V::zero(cpu); M];
        for (j, x) in run.iter_mut().enumerate() {
            // SAFETY: `src` is valid for reads of `len` bytes while `self` lives (`new`),
            // and `at..at + M·16·LANES`, which holds this vector, is within them (checked
            // above).
            *x = unsafe { V::load_ptr(cpu, self.src.add(at + vb * j)) };
        }
        run
    }

    /// Writes `M` whole vectors of output from `at`, one after another (after every read
    /// of those bytes), with one check for the run.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn store_run<V: super::simd::Simd, const M: usize>(
        &mut self,
        at: usize,
        run: &[V; M],
    ) {
        let vb = 16 * V::LANES;
        self.check(at, vb * M);
        for (j, v) in run.iter().enumerate() {
            // SAFETY: `dst` is valid for writes of `len` bytes while `self` lives, borrowed
            // mutably from the `Data` (`new`); `at..at + M·16·LANES`, which holds this
            // vector, is within them (checked above).
            unsafe { v.store_ptr(self.dst.add(at + vb * j)) }
        }
    }

    /// The source bytes from `at` to the end (fewer than a vector's), the rest of the
    /// vector zero; nothing past the end is read.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn load_tail<V: super::simd::Simd>(&self, cpu: V::Cpu, at: usize) -> V {
        self.check(at, 0);
        // SAFETY: `at..len` lies within the source (checked above), valid for reads while
        // `self` lives; the shared slice ends before any write through `dst` (in place, the
        // same bytes) since it dies with this call.
        let s = unsafe { core::slice::from_raw_parts(self.src.add(at), self.len - at) };
        V::load_partial(cpu, s)
    }

    /// Writes the vector's first bytes from `at` to the end (fewer than a vector's).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn store_tail<V: super::simd::Simd>(&mut self, at: usize, v: V) {
        self.check(at, 0);
        // SAFETY: `at..len` lies within the destination (checked above), valid for writes
        // while `self` lives and borrowed mutably (`new`); no other reference to it is live.
        let d = unsafe { core::slice::from_raw_parts_mut(self.dst.add(at), self.len - at) };
        v.store_partial(d)
    }
}

/// Where a counter-mode pass starts: how the counter advances, and its first block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CtrStart {
    /// How the counter advances.
    pub(crate) kind: Counter,
    /// The first counter block.
    pub(crate) block: [u8; 16],
}

/// Where a small AES-GCM message's counter starts (`Kernels::gcm_small`): a 96-bit IV,
/// which the few-block kernel takes whole, or a Y0 already derived (any IV length).
#[derive(Clone, Copy)]
pub(crate) enum SmallStart<'a> {
    Iv96(&'a [u8; 12]),
    Y0(&'a [u8; 16]),
}

/// GCM's pre-counter block Y0, borrowed from the mode, and how its counter advances: the
/// whole-message kernel's start. By reference, not copied into a [`CtrStart`]: the mode
/// builds Y0 piecewise (IV, then the counter word), and the 16-byte reload of such a copy
/// cannot be store-forwarded. The kernels read it with `Simd::load_halves` (two 8-byte
/// loads, each forwarded from the mode's store): with one 16-byte load, the reload waited
/// for the mode's stores to reach the cache (docs/tuning.md: Y0).
#[derive(Clone, Copy)]
pub(crate) struct Y0<'a> {
    /// How the counter advances.
    pub(crate) kind: Counter,
    /// The block itself.
    pub(crate) block: &'a [u8; 16],
    /// The key's round-one table ([`RoundOne`]), if it has one: the stitched batches of
    /// a public counter (`Counter::Be32Public`) start from it one AES round in.
    pub(crate) round_one: Option<&'a RoundOne>,
}

/// The long-term keys and variant of GCM-SIV (2015), for its small-message kernel
/// ([`super::Kernels::siv2015_small`]).
#[derive(Clone, Copy)]
pub(crate) struct Siv2015Keys<'a> {
    /// The hash key (with enough powers for the message: see the kernel).
    pub(crate) hash: &'a HashKey,
    /// The tag (PRF) key.
    pub(crate) prf: &'a RoundKeys,
    /// The counter-mode key.
    pub(crate) ctr: &'a RoundKeys,
    /// Whether bit 127 of S is cleared before the PRF (the variant's mask).
    pub(crate) mask: bool,
    /// How the first counter block is made from the tag.
    pub(crate) counter: crate::spec::siv::CounterInit,
}

#[cfg(test)]
mod tests {
    use super::{Block16, Data};

    /// Only a `Data` whose sides are both 16 bytes becomes a `Block16`; in place, the
    /// write lands on the block just read.
    #[test]
    fn only_whole_blocks() {
        let (mut a, mut b) = ([0u8; 17], [0u8; 17]);
        for n in [0, 1, 15, 17] {
            assert!(Block16::new(&mut Data::InPlace(&mut a[..n])).is_none());
            assert!(Block16::new(&mut Data::Copy(&a[..n], &mut b[..n])).is_none());
        }
        assert!(Block16::new(&mut Data::Copy(&a[..16], &mut b[..15])).is_none());
        assert!(Block16::new(&mut Data::Copy(&a[..15], &mut b[..16])).is_none());
        let mut buf = [7u8; 16];
        let mut d = Data::InPlace(&mut buf);
        let io = Block16::new(&mut d).unwrap();
        let x = io.read();
        io.write(x.map(|v| v + 1));
        assert_eq!(buf, [8u8; 16]);
        let src = [3u8; 16];
        let mut d = Data::Copy(&src, &mut b[..16]);
        let io = Block16::new(&mut d).unwrap();
        let x = io.read();
        io.write(x);
        assert_eq!(b[..16], src);
    }
}
