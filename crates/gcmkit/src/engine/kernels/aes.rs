//! AES on vectors of blocks: round keys broadcast to every lane, N independent chains
//! per call so the rounds pipeline, and the round count fixed at compile time so they
//! unroll (the count is public: it is the key size).

use super::super::simd::{wipe_vectors, Simd};
use crate::aes::RoundKeys;

/// Round keys broadcast to every lane.
pub(super) struct Keys<V> {
    pub(super) k: [V; 15],
    pub(super) rounds: usize,
}

#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn keys<V: Simd>(cpu: V::Cpu, rk: &RoundKeys) -> Keys<V> {
    // All 15 slots, whatever the round count (the unused ones hold zeros), with explicit
    // loads and no loop bound: with `take(rounds + 1)` the compiler built the array with
    // a `memset` and a `memcpy` call on the stack (two libc calls per kernel call, a
    // measurable share of a 16-byte message), and the fixed count lets it fold each load
    // into the AES instruction that uses it. (Not a closure or `array::from_fn`: closures
    // do not inherit the entry point's target features, and their intrinsics would become
    // calls.)
    let b = rk.as_blocks();
    Keys {
        k: [
            broadcast_key(cpu, &b[0]),
            broadcast_key(cpu, &b[1]),
            broadcast_key(cpu, &b[2]),
            broadcast_key(cpu, &b[3]),
            broadcast_key(cpu, &b[4]),
            broadcast_key(cpu, &b[5]),
            broadcast_key(cpu, &b[6]),
            broadcast_key(cpu, &b[7]),
            broadcast_key(cpu, &b[8]),
            broadcast_key(cpu, &b[9]),
            broadcast_key(cpu, &b[10]),
            broadcast_key(cpu, &b[11]),
            broadcast_key(cpu, &b[12]),
            broadcast_key(cpu, &b[13]),
            broadcast_key(cpu, &b[14]),
        ],
        rounds: rk.rounds(),
    }
}

/// One round key broadcast to every lane.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn broadcast_key<V: Simd>(cpu: V::Cpu, b: &[u8; 16]) -> V {
    V::broadcast(cpu, V::Block::load(V::block_cpu(cpu), b))
}

impl<V: Simd> Keys<V> {
    /// Overwrites the broadcast round keys (key material) before the stack is reused.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn wipe(&mut self) {
        wipe_vectors(&mut self.k)
    }
}

/// Encrypts N vectors of blocks in place. Specialized per round count so the rounds
/// unroll completely (the count is public: it is the key size).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn aes_n<V: Simd, const N: usize>(keys: &Keys<V>, s: &mut [V; N]) {
    for x in s.iter_mut() {
        *x = x.xor(keys.k[0]);
    }
    aes_n_whitened(keys, s)
}

/// [`aes_n`] on blocks already xored with round key 0.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn aes_n_whitened<V: Simd, const N: usize>(keys: &Keys<V>, s: &mut [V; N]) {
    match keys.rounds {
        10 => aes_rounds::<V, N, 10>(keys, s),
        12 => aes_rounds::<V, N, 12>(keys, s),
        _ => aes_rounds::<V, N, 14>(keys, s),
    }
}

/// Rounds 1..=R.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn aes_rounds<V: Simd, const N: usize, const R: usize>(keys: &Keys<V>, s: &mut [V; N]) {
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

/// ECB encryption of a few blocks (H, E(K, Y0), DeriveKey, SIV tags): as many
/// independent AES chains as there are blocks, up to 8.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn encrypt_blocks<V: Simd>(cpu: V::Cpu, rk: &RoundKeys, blocks: &mut [[u8; 16]]) {
    let mut ks = keys::<V::Block>(V::block_cpu(cpu), rk);
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

#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn ecb<B: Simd, const N: usize>(ks: &Keys<B>, group: &mut [[u8; 16]]) {
    let cpu = ks.k[0].cpu();
    let mut s = [B::zero(cpu); N];
    for (x, b) in s.iter_mut().zip(group.iter()) {
        *x = B::load(cpu, b);
    }
    aes_n(ks, &mut s);
    for (x, b) in s.iter().zip(group.iter_mut()) {
        x.store(b);
    }
}
