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
//! The storage is a `MaybeUninit<HashKey>` ([`KeyStorage`], 64-byte aligned), declared
//! by the kernel and borrowed by the [`MessageKey`] that writes and wipes it, so the
//! kilobyte never moves: built as one value (the storage with the count and token) and
//! moved into its place, it was zero-filled by a `memset` call of 1,048 bytes on each
//! message, 16 lines of stack written (docs/tuning.md: `KeyStorage`). [`Writer`] is the only way to write it: it
//! stores the power vectors from the top of the descending table down, reads back only
//! vectors it has stored, and hands out `&HashKey` only from [`Writer::finish`], after
//! zeroing the vectors below the last power and writing `count` and the flavor, so
//! every field is initialized before a reference to it exists. The wipe on drop covers
//! the vectors `push` wrote (the powers and their helpers: the only secrets; the rest of
//! the storage is zeros, `count` and the flavor, or unwritten), so a short message that
//! pushed two vectors wipes two, not the whole kilobyte.

use super::simd::Simd;
use crate::field::{Flavor, HashKey, POWERS};
use core::mem::{align_of, size_of, MaybeUninit};
use core::sync::atomic::{compiler_fence, Ordering};

/// Storage for one per-message `HashKey`, uninitialized, aligned to 64 bytes so that
/// the writer's vector stores fall on their own alignment. Declared where it is used and
/// never moved once a [`MessageKey`] borrows it.
#[repr(C, align(64))]
pub(crate) struct KeyStorage(MaybeUninit<HashKey>);

impl KeyStorage {
    /// Unwritten storage (no stores: nothing is zero-filled).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn uninit() -> Self {
        KeyStorage(MaybeUninit::uninit())
    }
}

/// One per-message `HashKey` of engine vector type `V` in a borrowed [`KeyStorage`],
/// wiped on drop.
pub(crate) struct MessageKey<'s, V: Simd> {
    key: &'s mut MaybeUninit<HashKey>,
    cpu: V::Cpu,
    /// Vectors of powers written by `Writer::push` (each in `desc` and in `kara`).
    pushed: usize,
}

impl<'s, V: Simd> MessageKey<'s, V> {
    /// The key of `storage`, unwritten (no stores: nothing is zero-filled).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn new(cpu: V::Cpu, storage: &'s mut KeyStorage) -> Self {
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
            key: &mut storage.0,
            cpu,
            pushed: 0,
        }
    }

    /// The writer of this storage's table (see the module docs). Its pushes continue from
    /// any earlier writer's, so the count the wipe reads never shrinks below what was
    /// written.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn writer(&mut self) -> Writer<'_, 's, V> {
        Writer { key: self }
    }
}

impl<V: Simd> Drop for MessageKey<'_, V> {
    /// Zeroes the pushed vectors of both tables with volatile stores, a `V` each where
    /// its place is aligned to `V` (with the storage 64-byte aligned and the tables at
    /// multiples of 64 bytes in the key, every place is), else 16 bytes at a time; then a
    /// fence so that none is dropped or moved past later code.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn drop(&mut self) {
        let zero = V::zero(self.cpu);
        let block = V::Block::zero(V::block_cpu(self.cpu));
        let p = self.key.as_mut_ptr();
        // SAFETY: `p` points to the storage of a `HashKey`; `&raw mut` of its fields makes
        // pointers into it without reading or referencing them.
        let tables: [*mut u128; 2] =
            unsafe { [(&raw mut (*p).desc).cast(), (&raw mut (*p).kara).cast()] };
        for j in 0..self.pushed.min(POWERS / V::LANES) {
            for t in tables {
                // SAFETY: `j < POWERS / LANES`, so `at + LANES <= POWERS`: LANES `u128`
                // elements inside the table.
                let v = unsafe { t.add(POWERS - V::LANES * (j + 1)) };
                if v.cast::<V>().is_aligned() {
                    // SAFETY: 16·LANES = size_of::<V>() bytes inside the table (above),
                    // aligned to `V` (just checked).
                    unsafe { core::ptr::write_volatile(v.cast::<V>(), zero) };
                } else {
                    for i in 0..V::LANES {
                        // SAFETY: element `i < LANES` of the vector's place, inside the
                        // table; 16-byte aligned (an element of a `[u128; POWERS]`), and a
                        // block is 16 bytes aligned to at most 16 (checked in `new`).
                        unsafe { core::ptr::write_volatile(v.add(i).cast::<V::Block>(), block) };
                    }
                }
            }
        }
        compiler_fence(Ordering::SeqCst);
    }
}

/// Writes a [`MessageKey`]'s descending table one vector of `V::LANES` powers at a time:
/// vector j covers `desc[POWERS - LANES·(j + 1)..]` (lane 0 the highest power), with its
/// Karatsuba helper at the same place in `kara`.
pub(crate) struct Writer<'a, 's, V: Simd> {
    key: &'a mut MessageKey<'s, V>,
}

impl<'a, 's, V: Simd> Writer<'a, 's, V> {
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

    /// Vector `j` of `desc`, one of those pushed (the doubling's sources).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn get(&mut self, j: usize) -> V {
        assert!(j < self.key.pushed && j < Self::VECTORS);
        let (desc, _) = self.tables();
        // SAFETY: `j < VECTORS`, so `at(j) + LANES <= POWERS`: 16·LANES bytes inside
        // `desc`, written by `push` (j < pushed: every pushed vector was stored whole).
        unsafe { V::load_ptr(self.key.cpu, desc.add(Self::at(j)).cast()) }
    }

    /// Appends the next vector of powers (the first holds H^LANES..H^1), and its Karatsuba
    /// helper (hi64 xor lo64 in both halves of each lane).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn push(&mut self, h: V) {
        self.store(self.key.pushed, h, h.xor(h.swap64()));
        self.key.pushed += 1;
    }

    /// The key: the vectors below the pushed ones zeroed (in both tables), `count` the
    /// pushed powers, the given flavor. At least one vector must have been pushed.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn finish(mut self, flavor: Flavor) -> &'a HashKey {
        assert!(self.key.pushed > 0);
        let zero = V::zero(self.key.cpu);
        for j in self.key.pushed..Self::VECTORS {
            self.store(j, zero, zero);
        }
        let count = self.key.pushed * V::LANES;
        let p = self.key.key.as_mut_ptr();
        // SAFETY: `p` points to the storage of a `HashKey`; the writes go to its fields
        // through `&raw mut`, without reading them.
        unsafe {
            (&raw mut (*p).count).write(count);
            (&raw mut (*p).flavor).write(flavor);
        }
        let key: &'a mut MessageKey<'s, V> = self.key;
        // SAFETY: every field is written: `desc` and `kara` in full (vectors 0..pushed by
        // `push`, the rest zero just above, VECTORS·LANES = POWERS elements), `count` and
        // `flavor` just above.
        unsafe { key.key.assume_init_ref() }
    }
}
