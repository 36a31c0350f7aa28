//! AES on vectors of blocks: round keys broadcast to every lane, N independent chains
//! per call so the rounds pipeline, and the round count fixed at compile time so they
//! unroll (the count is public: it is the key size).

use super::super::simd::{wipe_vectors, Simd};
use crate::aes::RoundKeys;

/// The rounds between the whitening and the last one, for a kernel written once for
/// every key size: `middle_rounds!(rk, |r| { ... })` runs the block once for each of
/// round keys 1 to `rounds - 1`, in order, with `r` the round key, and evaluates to the
/// last round key. The round count is public (the key size) and tested here, after the
/// nine rounds every key size has. (A kernel copied per round count, identical but for
/// the keys' offsets, was merged by the compiler into one sequence addressed by seven
/// saved registers in `gcm_one`; in `gcm_few` it was twelve forms.)
///
/// A macro, not a function taking a closure: the block is pasted into the kernel, so its
/// intrinsics are compiled with the entry point's target features whatever the inliner
/// decides. As a closure run by `Iter::for_each`, the armv8 release build left
/// `for_each` out of line in `gcm_few_seal`/`gcm_few_open`, and every `vaeseq_u8` and
/// `vaesmcq_u8` in it as a call (the closure has no target features).
macro_rules! middle_rounds {
    ($rk:expr, |$r:ident| $body:block) => {{
        let rk: &crate::aes::RoundKeys = $rk;
        let k = rk.as_blocks();
        for $r in &k[1..10] $body
        // AES-192 and AES-256: two or four more rounds before the last.
        let rounds = rk.rounds();
        if rounds > 10 {
            for $r in &k[10..12] $body
            if rounds > 12 {
                for $r in &k[12..14] $body
            }
        }
        &k[rounds.min(14)]
    }};
}
pub(super) use middle_rounds;

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
    /// The round keys' first lanes (for one block beside the vector batches).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(super) fn lane0(&self) -> Keys<V::Block> {
        // An index loop: `array::map` left a call (and a `vzeroupper`) in the kernel.
        let mut k = [self.k[0].lane0(); 15];
        for (b, v) in k.iter_mut().zip(&self.k) {
            *b = v.lane0();
        }
        Keys {
            k,
            rounds: self.rounds,
        }
    }

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
