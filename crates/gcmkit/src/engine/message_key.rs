//! AES-GCM-SIV's per-message POLYVAL key on the bulk path (the powers of H that the
//! kernels read as a `HashKey`): built in place without first zero-filling what the
//! powers overwrite, and wiped with volatile stores as wide as the engine's vectors.
//!
//! Why a storage of its own: `HashKey::empty` zero-fills 1032 bytes, which LLVM writes
//! with a `memset` call (above its inline limit of 16 stores): a `vzeroupper` before it
//! and the round keys and first powers spilled around it; and `HashKey`'s drop wipes
//! entry by entry (two 8-byte volatile stores per `u128`, 128 for 32 powers). Removing both
//! made AES-256-GCM-SIV faster (docs/tuning.md: MessageKey). The long-term `HashKey`
//! (AES-GCM's key object, made once) keeps its own construction and wipe.
//!
//! The storage is a `MaybeUninit<HashKey>`. [`Writer`] is the only way to write it: it
//! stores the power vectors from the top of the descending table down, reads back only
//! vectors it has stored, and hands out `&HashKey` only from [`Writer::finish`], after
//! zeroing the vectors below the last power and writing `count` and the flavor, so
//! every field is initialized before a reference to it exists. The wipe on drop covers
//! the whole storage, filled or not (it only writes).

use super::simd::Simd;
use crate::field::{Flavor, HashKey, POWERS};
use core::mem::{align_of, size_of, MaybeUninit};
use core::sync::atomic::{compiler_fence, Ordering};

/// Storage for one per-message `HashKey` of engine vector type `V`, wiped on drop.
/// Aligned to 64 bytes so that each of `V`'s volatile stores in the wipe is aligned.
#[repr(C, align(64))]
pub(crate) struct MessageKey<V: Simd> {
    key: MaybeUninit<HashKey>,
    cpu: V::Cpu,
}

impl<V: Simd> MessageKey<V> {
    /// Unwritten storage (no stores: nothing is zero-filled).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn new(cpu: V::Cpu) -> Self {
        const {
            // The wipe's stores: `V`s at multiples of its size from the 64-aligned start,
            // then 16-byte blocks; both tile the key exactly.
            assert!(align_of::<V>() <= 64 && size_of::<V>() == 16 * V::LANES);
            assert!(size_of::<V>().is_multiple_of(align_of::<V>()));
            assert!(size_of::<V::Block>() == 16 && align_of::<V::Block>() <= 16);
            assert!(size_of::<HashKey>().is_multiple_of(16));
            assert!(POWERS.is_multiple_of(V::LANES));
        }
        MessageKey {
            key: MaybeUninit::uninit(),
            cpu,
        }
    }

    /// The writer of this storage's table (see the module docs).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn writer(&mut self) -> Writer<'_, V> {
        Writer {
            key: self,
            pushed: 0,
        }
    }
}

impl<V: Simd> Drop for MessageKey<V> {
    /// Zeroes the whole storage with volatile `V` stores (16 for a 512-bit engine,
    /// instead of 128 8-byte ones), the last bytes with 16-byte ones, then a fence so that
    /// neither is dropped or moved past later code.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn drop(&mut self) {
        let base = self.key.as_mut_ptr().cast::<u8>();
        let n = size_of::<HashKey>();
        let wide = n / size_of::<V>() * size_of::<V>();
        let zero = V::zero(self.cpu);
        for off in (0..wide).step_by(size_of::<V>()) {
            // SAFETY: `off + size_of::<V>() <= n`, inside the storage; `base` is 64-byte
            // aligned (`repr(C, align(64))`, `key` first) and `off` a multiple of
            // `size_of::<V>()`, itself a multiple of `align_of::<V>()` (checked in `new`).
            unsafe { core::ptr::write_volatile(base.add(off).cast::<V>(), zero) };
        }
        let block = V::Block::zero(V::block_cpu(self.cpu));
        for off in (wide..n).step_by(16) {
            // SAFETY: `n` is a multiple of 16 (checked in `new`), so `off + 16 <= n`;
            // `off` is a multiple of 16 from a 64-aligned base, and a block is 16 bytes
            // aligned to at most 16.
            unsafe { core::ptr::write_volatile(base.add(off).cast::<V::Block>(), block) };
        }
        compiler_fence(Ordering::SeqCst);
    }
}

/// Writes a [`MessageKey`]'s descending table one vector of `V::LANES` powers at a time:
/// vector j covers `desc[POWERS - LANES·(j + 1)..]` (lane 0 the highest power), with its
/// Karatsuba helper at the same place in `kara`.
pub(crate) struct Writer<'a, V: Simd> {
    key: &'a mut MessageKey<V>,
    /// Vectors stored so far (0..pushed are written).
    pushed: usize,
}

impl<'a, V: Simd> Writer<'a, V> {
    /// Vectors in a full table.
    const VECTORS: usize = POWERS / V::LANES;

    /// Pointers to element 0 of `desc` and `kara` (no reference to the storage's
    /// possibly unwritten fields is made).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn tables(&mut self) -> (*mut u128, *mut u128) {
        let p = self.key.key.as_mut_ptr();
        // SAFETY: `p` points to the storage of a `HashKey`; `&raw mut` of its fields makes
        // pointers into it without reading or referencing them.
        unsafe { ((&raw mut (*p).desc).cast(), (&raw mut (*p).kara).cast()) }
    }

    /// Element offset of vector `j`.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn at(j: usize) -> usize {
        POWERS - V::LANES * (j + 1)
    }

    /// Stores vector `j` (below [`Self::VECTORS`]) of `desc` and its helper in `kara`.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn store(&mut self, j: usize, h: V, helper: V) {
        assert!(j < Self::VECTORS);
        let (desc, kara) = self.tables();
        // SAFETY: `j < VECTORS`, so `at(j) + LANES <= POWERS`: 16·LANES bytes inside each
        // table (the stores are unaligned).
        unsafe {
            h.store_ptr(desc.add(Self::at(j)).cast());
            helper.store_ptr(kara.add(Self::at(j)).cast());
        }
    }

    /// Appends the next vector of powers (the first holds H^LANES..H^1), and its Karatsuba
    /// helper (hi64 xor lo64 in both halves of each lane).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn push(&mut self, h: V) {
        self.store(self.pushed, h, h.xor(h.swap64()));
        self.pushed += 1;
    }

    /// The key: the vectors below the pushed ones zeroed (in both tables), `count` the
    /// pushed powers, the given flavor. At least one vector must have been pushed.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn finish(mut self, flavor: Flavor) -> &'a HashKey {
        assert!(self.pushed > 0);
        let zero = V::zero(self.key.cpu);
        for j in self.pushed..Self::VECTORS {
            self.store(j, zero, zero);
        }
        let count = self.pushed * V::LANES;
        let p = self.key.key.as_mut_ptr();
        // SAFETY: `p` points to the storage of a `HashKey`; the writes go to its fields
        // through `&raw mut`, without reading them.
        unsafe {
            (&raw mut (*p).count).write(count);
            (&raw mut (*p).flavor).write(flavor);
        }
        let key: &'a mut MessageKey<V> = self.key;
        // SAFETY: every field is written: `desc` and `kara` in full (vectors 0..pushed by
        // `push`, the rest zero just above, VECTORS·LANES = POWERS elements), `count` and
        // `flavor` just above.
        unsafe { key.key.assume_init_ref() }
    }
}
