//! AES on vectors of blocks: round keys broadcast to every lane, N independent chains
//! per call so the rounds pipeline, and the round count fixed at compile time so they
//! unroll (the count is public: it is the key size).

use super::super::simd::Simd;
use crate::aes::RoundKeys;

/// Round keys broadcast to every lane.
pub(super) struct Keys<V> {
    pub(super) k: [V; 15],
    pub(super) rounds: usize,
}

/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(super) unsafe fn keys<V: Simd>(rk: &RoundKeys) -> Keys<V> {
    // All 15 slots, whatever the round count (the unused ones hold zeros), with explicit
    // loads and no loop bound: with `take(rounds + 1)` the compiler built the array with
    // a `memset` and a `memcpy` call on the stack (two libc calls per kernel call, a
    // measurable share of a 16-byte message), and the fixed count lets it fold each load
    // into the AES instruction that uses it. (Not a closure or `array::from_fn`: closures
    // do not inherit the entry point's target features, and their intrinsics would become
    // calls.)
    let b = rk.as_blocks();
    // SAFETY: within this function's `# Safety` contract; each slot is 16 readable bytes.
    unsafe {
        Keys {
            k: [
                broadcast_key(&b[0]),
                broadcast_key(&b[1]),
                broadcast_key(&b[2]),
                broadcast_key(&b[3]),
                broadcast_key(&b[4]),
                broadcast_key(&b[5]),
                broadcast_key(&b[6]),
                broadcast_key(&b[7]),
                broadcast_key(&b[8]),
                broadcast_key(&b[9]),
                broadcast_key(&b[10]),
                broadcast_key(&b[11]),
                broadcast_key(&b[12]),
                broadcast_key(&b[13]),
                broadcast_key(&b[14]),
            ],
            rounds: rk.rounds(),
        }
    }
}

/// One round key broadcast to every lane.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
unsafe fn broadcast_key<V: Simd>(b: &[u8; 16]) -> V {
    // SAFETY: `b` is 16 readable bytes; the target features are the caller's contract.
    unsafe { V::broadcast(V::Block::load(b.as_ptr())) }
}

impl<V: Simd> Keys<V> {
    /// Overwrites the broadcast round keys (key material) before the stack is reused.
    ///
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn wipe(&mut self) {
        // SAFETY: this function's contract.
        unsafe { super::wipe_vectors(&mut self.k) }
    }
}

/// Encrypts N vectors of blocks in place. Specialized per round count so the rounds
/// unroll completely (the count is public: it is the key size).
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(super) unsafe fn aes_n<V: Simd, const N: usize>(keys: &Keys<V>, s: &mut [V; N]) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        for x in s.iter_mut() {
            *x = x.xor(keys.k[0]);
        }
        aes_n_whitened(keys, s)
    }
}

/// [`aes_n`] on blocks already xored with round key 0.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(super) unsafe fn aes_n_whitened<V: Simd, const N: usize>(keys: &Keys<V>, s: &mut [V; N]) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        match keys.rounds {
            10 => aes_rounds::<V, N, 10>(keys, s),
            12 => aes_rounds::<V, N, 12>(keys, s),
            _ => aes_rounds::<V, N, 14>(keys, s),
        }
    }
}

/// Rounds 1..=R.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
unsafe fn aes_rounds<V: Simd, const N: usize, const R: usize>(keys: &Keys<V>, s: &mut [V; N]) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        for r in 1..R {
            let k = keys.k[r];
            for x in s.iter_mut() {
                *x = x.aesenc(k);
            }
        }
        let k = keys.k[R];
        for x in s.iter_mut() {
            *x = x.aesenclast(k);
        }
    }
}

/// ECB encryption of a few blocks (H, E(K, Y0), DeriveKey, SIV tags): as many
/// independent AES chains as there are blocks, up to 8.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(crate) unsafe fn encrypt_blocks<V: Simd>(rk: &RoundKeys, blocks: &mut [[u8; 16]]) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let mut ks = keys::<V::Block>(rk);
        for group in blocks.chunks_mut(8) {
            match group.len() {
                1 => ecb::<V::Block, 1>(&ks, group),
                2 => ecb::<V::Block, 2>(&ks, group),
                3 | 4 => ecb::<V::Block, 4>(&ks, group),
                _ => ecb::<V::Block, 8>(&ks, group),
            }
        }
        ks.wipe();
    }
}

/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
unsafe fn ecb<B: Simd, const N: usize>(ks: &Keys<B>, group: &mut [[u8; 16]]) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let mut s = [B::zero(); N];
        for (x, b) in s.iter_mut().zip(group.iter()) {
            *x = B::load(b.as_ptr());
        }
        aes_n(ks, &mut s);
        for (x, b) in s.iter().zip(group.iter_mut()) {
            x.store(b.as_mut_ptr());
        }
    }
}
