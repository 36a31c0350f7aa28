//! The engine's shared types: the data of a pass ([`Data`], [`Io`]), where a counter
//! starts and how it advances ([`Counter`], [`CtrStart`], [`Y0`]), and what a stitched
//! pass hashes ([`Hash`]). Every engine file names them from here (through `engine`'s re-exports), so
//! no engine file needs another for a type.

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
    /// Both sides from byte `off` (<= [`Self::len`]) to [`Self::len`].
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
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
}
