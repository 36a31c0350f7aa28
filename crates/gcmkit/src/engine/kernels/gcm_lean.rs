//! AES-GCM in one body per vector width (#75): four entry points per engine (AAD update,
//! encrypt update, decrypt update, finish), every key size and every message length in
//! the same code, in place or not.
//!
//! # The body
//! - **Round keys.** Key 0 and the last ten (the nine middle rounds every key size has, and
//!   the last) are broadcast into vectors once per call. AES-192 and AES-256 run their two
//!   or four extra rounds (keys 1 to rounds - 10) first, each key read from memory as it
//!   is used, behind one loop whose bound is the (public) key size.
//! - **Counters** stay in integer form (`kernels` module docs): the block byte-reversed,
//!   so SP 800-38D's inc32 is a 32-bit lane addition that wraps exactly as inc32 does,
//!   whatever the counter's value (no branch on it: with an IV other than 96 bits, Y0 is a
//!   secret). Each vector's blocks are `LANES` consecutive counters.
//! - **Main loop**: `N` vectors (a batch of B = N·LANES blocks: 16 on avx512) per
//!   iteration. The AES rounds of the batch are interleaved with the GHASH of a batch,
//!   one vector's products per middle round: decryption hashes the batch's own ciphertext
//!   (known up front), encryption the previous batch's (the first batch is encrypted
//!   alone, the last one hashed after the loop). One reduction per iteration.
//! - **Tail** (under B blocks): one vector at a time, the last partial vector read and
//!   written with `load_partial`/`store_partial` (byte masks on AVX-512), its hashed bytes
//!   past the end zero. Block b of the k tail blocks is multiplied by H^(k-b), so the
//!   powers are read from the key's descending table at an offset given by the remaining
//!   length, the last partial vector's powers as a partial load; the products are summed
//!   unreduced and reduced once.
//! - **Finish**: the length block hashed, E(K, Y0) beside it, the tag.
//!
//! # GHASH
//! Blocks are byte-reversed into POLYVAL-order elements and multiplied by dot-powers of
//! H from `HashKey` (the field and reduction maths are in `kernels` and `field`): a batch
//! X_0..X_(B-1) with the running value Y added into X_0 gives
//!     Y' = sum_b X_b·H^(B-b)   (dot products, one Montgomery reduction),
//! each vector's four 64x64 carry-less products (schoolbook: lo, hi and the two cross
//! terms) summed lane by lane, then reduced lane by lane and the lanes folded.
//!
//! # Registers (avx512, 32 zmm)
//! 11 round keys, 4 powers of H (H^16..H^1, four per vector), 4 AES states, 4 vectors
//! being hashed, 3 product sums, the counter and its step: 28, with the input and
//! output vectors passing through the rest. AES-192/256's extra keys come from memory.
//!
//! # Calls
//! An update takes whole blocks, but for the message's last update, which may end in a
//! partial block. The counter (`ctr`, the next counter block) and the running GHASH value
//! (`acc`) carry from one call to the next. The key must hold at least
//! min(B, blocks of the call) powers of H (`HashKey::count`): every key `gcm` makes does.

use super::super::simd::{wipe_vectors, Simd};
use super::aes::broadcast_key;
use super::ghash::{gcm_tag, hash_block, Sums};
use super::unrolled;
use crate::aes::RoundKeys;
use crate::engine::{Data, Io};
use crate::field::{HashKey, POWERS};

/// Round keys of any key size: key 0 and the last ten in vectors, the extra rounds'
/// keys (none for AES-128) left in memory.
struct RoundRegs<'k, V> {
    first: V,
    /// Keys rounds - 9 to rounds: the nine middle rounds every key size has, then the last.
    last: [V; 10],
    /// Keys 1 to rounds - 10: AES-192's two and AES-256's four extra rounds.
    extra: &'k [[u8; 16]],
}

impl<'k, V: Simd> RoundRegs<'k, V> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn new(cpu: V::Cpu, rk: &'k RoundKeys) -> Self {
        let b = rk.as_blocks();
        // 10, 12 or 14 (the key size: public).
        let rounds = rk.rounds().clamp(10, 14);
        let t = &b[rounds - 9..=rounds];
        // Explicit loads, no closure: a closure would not inherit the entry point's
        // target features (`aes::keys`).
        RoundRegs {
            first: broadcast_key(cpu, &b[0]),
            last: [
                broadcast_key(cpu, &t[0]),
                broadcast_key(cpu, &t[1]),
                broadcast_key(cpu, &t[2]),
                broadcast_key(cpu, &t[3]),
                broadcast_key(cpu, &t[4]),
                broadcast_key(cpu, &t[5]),
                broadcast_key(cpu, &t[6]),
                broadcast_key(cpu, &t[7]),
                broadcast_key(cpu, &t[8]),
                broadcast_key(cpu, &t[9]),
            ],
            extra: &b[1..rounds - 9],
        }
    }

    /// Whitening and the extra rounds (from memory, one predictable loop).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn begin<const M: usize>(&self, s: &mut [V; M]) {
        for x in s.iter_mut() {
            *x = x.xor(self.first);
        }
        let cpu = self.first.cpu();
        for kb in self.extra {
            let k = broadcast_key::<V>(cpu, kb);
            for x in s.iter_mut() {
                *x = x.aesenc(k);
            }
        }
    }

    /// The last round.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn end<const M: usize>(&self, s: &mut [V; M]) {
        for x in s.iter_mut() {
            *x = x.aesenclast(self.last[9]);
        }
    }

    /// AES of the blocks of `s`, in place.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn encrypt<const M: usize>(&self, s: &mut [V; M]) {
        self.begin(s);
        for k in &self.last[..9] {
            for x in s.iter_mut() {
                *x = x.aesenc(*k);
            }
        }
        self.end(s);
    }

    /// Overwrites the broadcast keys (key material) before the stack is reused.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn wipe(&mut self) {
        wipe_vectors(core::slice::from_mut(&mut self.first));
        wipe_vectors(&mut self.last);
    }
}

/// Counter blocks in integer form: `next` holds the next `LANES` counters, `step` adds
/// `LANES` to each.
struct Counters<V> {
    next: V,
    step: V,
}

impl<V: Simd> Counters<V> {
    /// From the next counter block (SP 800-38D's form).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn new(cpu: V::Cpu, block: &[u8; 16]) -> Self {
        let c = V::Block::load_halves(V::block_cpu(cpu), block).bswap();
        Counters {
            next: V::broadcast(cpu, c).add32(V::lane_offsets(cpu)),
            step: V::splat_dword0(cpu, V::LANES as i32),
        }
    }

    /// The next `M` vectors of counter blocks, ready for AES.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn take<const M: usize>(&mut self) -> [V; M] {
        let mut s = [self.next; M];
        for x in s.iter_mut() {
            *x = self.next.bswap();
            self.next = self.next.add32(self.step);
        }
        s
    }

    /// The next counter block, for the next call.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn store(&self, block: &mut [u8; 16]) {
        self.next.lane0().bswap().store(block);
    }
}

/// x·h lane by lane, unreduced: the four 64x64 products, the cross terms summed.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn product<V: Simd>(x: V, h: V) -> Sums<V> {
    Sums {
        lo: x.clmul::<0x00>(h),
        hi: x.clmul::<0x11>(h),
        mid: x.clmul::<0x01>(h).xor(x.clmul::<0x10>(h)),
    }
}

/// The powers H^B..H^1 of a whole batch (B = N·LANES), `LANES` per vector.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn batch_powers<V: Simd, const N: usize>(cpu: V::Cpu, key: &HashKey) -> [V; N] {
    let first = POWERS - N * V::LANES;
    let mut pw = [V::zero(cpu); N];
    for (j, p) in pw.iter_mut().enumerate() {
        *p = V::load_elems(cpu, &key.desc[first + V::LANES * j..]);
    }
    pw
}

/// The powers from the key's descending table entry `from` on, one per lane; lanes past
/// the table's end zero (they meet zero blocks).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn powers_at<V: Simd>(cpu: V::Cpu, key: &HashKey, from: usize) -> V {
    let rest = &key.desc[from.min(POWERS)..];
    if rest.len() >= V::LANES {
        V::load_elems(cpu, rest)
    } else {
        V::load_elems_partial(cpu, rest)
    }
}

/// AES of the counter blocks `s` with the GHASH products of `g` by `pw` interleaved, one
/// vector's products per middle round (pinned, so the compiler keeps the chains round by
/// round). Returns the unreduced sums.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn stitched<V: Simd, const N: usize>(
    k: &RoundRegs<'_, V>,
    s: &mut [V; N],
    g: &[V; N],
    pw: &[V; N],
) -> Sums<V> {
    k.begin(s);
    let mut sums = Sums::<V>::zero(k.first.cpu());
    unrolled!(r in 0..9 => {
        for x in s.iter_mut() {
            *x = x.aesenc(k.last[r]).pin();
        }
        if r < N {
            sums.add(product(g[r], pw[r]));
        }
    });
    k.end(s);
    sums
}

/// Counter mode over `data` from the counter block `ctr`, its ciphertext (the input
/// when `DECRYPT`, else the output) absorbed into the GHASH value `acc`; `ctr` becomes the
/// next counter block. See the module docs for the calls' rules.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn update<V: Simd, const N: usize, const DECRYPT: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    ctr: &mut [u8; 16],
    acc: &mut u128,
    data: Data<'_>,
) {
    let mut io = Io::new(data);
    let len = io.len();
    let vb = 16 * V::LANES;
    let batch = N * vb;
    let mut k = RoundRegs::<V>::new(cpu, rk);
    let mut c = Counters::<V>::new(cpu, ctr);
    let mut a = V::Block::from_u128(V::block_cpu(cpu), *acc);
    let mut at = 0;
    if len >= batch {
        let mut pw = batch_powers::<V, N>(cpu, key);
        // Encryption: the previous batch's ciphertext, as field elements.
        let mut pending = [V::zero(cpu); N];
        if !DECRYPT {
            let mut s = c.take::<N>();
            k.encrypt(&mut s);
            for (j, (x, p)) in s.iter().zip(pending.iter_mut()).enumerate() {
                let out = io.load::<V>(cpu, vb * j).xor(*x);
                io.store(vb * j, out);
                *p = out.bswap();
            }
            at = batch;
        }
        while len - at >= batch {
            let mut s = c.take::<N>();
            let mut inp = [V::zero(cpu); N];
            for (j, x) in inp.iter_mut().enumerate() {
                *x = io.load::<V>(cpu, at + vb * j);
            }
            let mut g = pending;
            if DECRYPT {
                for (x, i) in g.iter_mut().zip(&inp) {
                    *x = i.bswap();
                }
            }
            g[0] = g[0].xor(V::from_lane0(cpu, a));
            let sums = stitched(&k, &mut s, &g, &pw);
            for (j, (x, i)) in s.iter().zip(&inp).enumerate() {
                let out = i.xor(*x);
                io.store(at + vb * j, out);
                if !DECRYPT {
                    pending[j] = out.bswap();
                }
            }
            a = sums.reduce_true_mid();
            at += batch;
        }
        if !DECRYPT {
            pending[0] = pending[0].xor(V::from_lane0(cpu, a));
            let mut sums = Sums::<V>::zero(cpu);
            for (x, p) in pending.iter().zip(&pw) {
                sums.add(product(*x, *p));
            }
            a = sums.reduce_true_mid();
        }
        wipe_vectors(&mut pw);
    }
    if at < len {
        // Under a batch: one vector at a time, block b of the k left multiplied by
        // H^(k-b), all products reduced once.
        let first_power = POWERS - (len - at).div_ceil(16);
        let mut sums = Sums::<V>::zero(cpu);
        let mut carry = V::from_lane0(cpu, a);
        let mut b = 0;
        while at < len {
            let mut s = c.take::<1>();
            k.encrypt(&mut s);
            let rest = len - at;
            let hashed = if rest >= vb {
                let inp = io.load::<V>(cpu, at);
                let out = inp.xor(s[0]);
                io.store(at, out);
                if DECRYPT {
                    inp
                } else {
                    out
                }
            } else {
                let inp = io.load_tail::<V>(cpu, at);
                let out = inp.xor(s[0]);
                io.store_tail(at, out);
                // Past the end, `out` holds keystream: hash zeros there.
                if DECRYPT {
                    inp
                } else {
                    out.keep_bytes(rest)
                }
            };
            let p = powers_at::<V>(cpu, key, first_power + b);
            sums.add(product(hashed.bswap().xor(carry), p));
            carry = V::zero(cpu);
            at += vb.min(rest);
            b += V::LANES;
        }
        a = sums.reduce_true_mid();
    }
    *acc = a.to_u128();
    c.store(ctr);
    k.wipe();
}

/// Absorbs `data` (the last block zero-padded) into the GHASH value `acc`: batches of
/// B blocks with one reduction each, then the rest one vector at a time with one
/// reduction.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn aad<V: Simd, const N: usize>(
    cpu: V::Cpu,
    key: &HashKey,
    acc: &mut u128,
    data: &[u8],
) {
    let len = data.len();
    let vb = 16 * V::LANES;
    let batch = N * vb;
    let mut a = V::Block::from_u128(V::block_cpu(cpu), *acc);
    let mut at = 0;
    if len >= batch {
        let mut pw = batch_powers::<V, N>(cpu, key);
        while len - at >= batch {
            let mut sums = Sums::<V>::zero(cpu);
            let mut carry = V::from_lane0(cpu, a);
            for (j, p) in pw.iter().enumerate() {
                let x = V::load(cpu, &data[at + vb * j..]).bswap().xor(carry);
                sums.add(product(x, *p));
                carry = V::zero(cpu);
            }
            a = sums.reduce_true_mid();
            at += batch;
        }
        wipe_vectors(&mut pw);
    }
    if at < len {
        let first_power = POWERS - (len - at).div_ceil(16);
        let mut sums = Sums::<V>::zero(cpu);
        let mut carry = V::from_lane0(cpu, a);
        let mut b = 0;
        while at < len {
            let rest = len - at;
            let x = if rest >= vb {
                V::load(cpu, &data[at..])
            } else {
                V::load_partial(cpu, &data[at..])
            };
            let p = powers_at::<V>(cpu, key, first_power + b);
            sums.add(product(x.bswap().xor(carry), p));
            carry = V::zero(cpu);
            at += vb.min(rest);
            b += V::LANES;
        }
        a = sums.reduce_true_mid();
    }
    *acc = a.to_u128();
}

/// The full tag: the length block of `aad_len` and `data_len` bytes absorbed into `acc`,
/// xor E(K, Y0).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn finish<V: Simd>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    y0: &[u8; 16],
    acc: u128,
    aad_len: usize,
    data_len: usize,
) -> [u8; 16] {
    let bc = V::block_cpu(cpu);
    let mut k = RoundRegs::<V::Block>::new(bc, rk);
    let mut m = [V::Block::load_halves(bc, y0)];
    k.encrypt(&mut m);
    // The length block as a GHASH element: its big-endian integer.
    let bits = |n: usize| u128::from((n as u64).wrapping_mul(8));
    let lengths = (bits(aad_len) << 64) | bits(data_len);
    let s = hash_block(
        key,
        V::Block::from_u128(bc, acc),
        V::Block::from_u128_computed(bc, lengths),
    );
    k.wipe();
    gcm_tag(s, m[0]).to_bytes()
}
