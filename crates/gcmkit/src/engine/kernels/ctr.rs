//! Counter mode: counter blocks built in registers in integer form, N vectors of
//! keystream per batch, and tails as one group of independent AES chains.

use super::super::simd::Simd;
use super::aes::{aes_n_whitened, keys, Keys};
use super::Io;
use crate::aes::RoundKeys;
use crate::engine::Counter;

/// Counter blocks, `LANES` at a time, in integer form (see module docs).
pub(super) struct Ctr<V> {
    next: V,
    step: V,
    be: bool,
    /// The starting counter is public (`Counter::Be32Public`), so batching may branch on
    /// its value.
    public: bool,
    /// Lane 0's counter value of `next`; only branched on when `public`.
    low: u32,
}

impl<V: Simd> Ctr<V> {
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn new(ctr: &[u8; 16], kind: Counter) -> Self {
        // SAFETY: within this function's `# Safety` contract.
        unsafe {
            let be = kind != Counter::Le32;
            let mut c = V::Block::load(ctr.as_ptr());
            if be {
                c = c.bswap();
            }
            Ctr {
                next: V::broadcast(c).add32(V::lane_offsets()),
                step: V::splat_dword0(V::LANES as i32),
                be,
                public: kind == Counter::Be32Public,
                low: c.dword0(),
            }
        }
    }

    /// The next vector of counter blocks, ready for AES.
    ///
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn take(&mut self) -> V {
        // SAFETY: within this function's `# Safety` contract.
        unsafe {
            let c = self.next;
            self.next = c.add32(self.step);
            self.low = self.low.wrapping_add(V::LANES as u32);
            if self.be {
                c.bswap()
            } else {
                c
            }
        }
    }

    /// The next N vectors of counter blocks, ready for AES, each xored with `k0` (AES
    /// round 0). GCM's big-endian counters cost a byte reversal per vector in integer
    /// form; when the counter's last byte does not carry within the batch (7 batches in
    /// 8 at 32 blocks per batch), one reversal serves the batch and the others are byte
    /// additions on the block form. That choice branches on the counter's value, so it is
    /// only made for a public starting counter (96-bit IVs); `make ct-check` flags it
    /// otherwise.
    ///
    /// # Safety
    /// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
    #[inline(always)]
    pub(super) unsafe fn take_batch<const N: usize>(&mut self, k0: V) -> [V; N] {
        // SAFETY: within this function's `# Safety` contract.
        unsafe {
            let mut s = [V::zero(); N];
            let blocks = (N * V::LANES) as u32;
            if self.be && self.public && (self.low & 0xff) + blocks <= 0x100 {
                let first = self.next.bswap();
                for (j, x) in s.iter_mut().enumerate() {
                    *x = first
                        .add32(V::splat_dword3(((j * V::LANES) as i32) << 24))
                        .xor(k0);
                }
                self.next = self.next.add32(V::splat_dword0(blocks as i32));
                self.low = self.low.wrapping_add(blocks);
            } else {
                for x in s.iter_mut() {
                    *x = self.take().xor(k0);
                }
            }
            s
        }
    }
}

/// XORs the counter-mode keystream into `data`; returns the counter after the last block.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(crate) unsafe fn ctr_xor<V: Simd, const N: usize>(
    rk: &RoundKeys,
    kind: Counter,
    ctr: [u8; 16],
    data: &mut [u8],
) -> [u8; 16] {
    // SAFETY: this function's own contract (the backend's features are present); `Io`
    // over `data` names exactly its bytes, in place.
    unsafe { ctr_xor_io::<V, N>(rk, kind, ctr, Io::in_place(data)) }
}

/// dst = src XOR keystream from `ctr`; returns the counter after the last block.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
#[inline(always)]
pub(crate) unsafe fn ctr_xor_io<V: Simd, const N: usize>(
    rk: &RoundKeys,
    kind: Counter,
    ctr: [u8; 16],
    io: Io,
) -> [u8; 16] {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let ks = keys::<V>(rk);
        let mut c = Ctr::<V>::new(&ctr, kind);
        let (vb, wb) = (16 * V::LANES, 16 * V::LANES * N);
        let len = io.len;
        let mut off = 0;
        while off + wb <= len {
            let mut s = c.take_batch::<N>(ks.k[0]);
            aes_n_whitened(&ks, &mut s);
            for (j, x) in s.iter().enumerate() {
                let o = off + vb * j;
                V::load(io.src.add(o)).xor(*x).store(io.dst.add(o));
            }
            off += wb;
        }
        // The rest (less than a batch) as one group of G independent AES chains, G the
        // smallest of 1, 2, 4, 8 that covers it, so short inputs and tails do not run
        // their vectors one latency chain after another.
        const { assert!(N <= 8, "the tail groups cover at most 8 vectors") };
        let rest = io.skip(off);
        match rest.len.div_ceil(vb) {
            0 => {}
            1 => ctr_group::<V, 1>(&ks, &mut c, rest),
            2 => ctr_group::<V, 2>(&ks, &mut c, rest),
            3 | 4 => ctr_group::<V, 4>(&ks, &mut c, rest),
            _ => ctr_group::<V, 8>(&ks, &mut c, rest),
        }
        // The long-term key's broadcast round keys are not wiped here: the wipe's volatile
        // stores keep them in memory for the whole loop, and AES-128-GCM at 16 KiB-1 MiB
        // measured about 20 % slower (`gcmkit-bench focus`, 0.64x against 0.80x AWS-LC on
        // AES-NI). They are copies of `RoundKeys`, which the key object zeroizes on drop.
        // Per-message keys (AES-GCM-SIV's derived keys) are wiped where they are made.
        kind.add(&ctr, len.div_ceil(16) as u32)
    }
}

/// dst = src xor the next G vectors of keystream, for `io.len` <= 16·LANES·G bytes (the
/// last vector may be partial: masked load and store on AVX-512).
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract). `io`'s buffers (borrowed slices) hold `io.len` <= 16·LANES·G bytes.
#[inline(always)]
unsafe fn ctr_group<V: Simd, const G: usize>(ks: &Keys<V>, c: &mut Ctr<V>, io: Io) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let vb = 16 * V::LANES;
        let mut s = c.take_batch::<G>(ks.k[0]);
        aes_n_whitened(ks, &mut s);
        for (j, x) in s.iter().enumerate() {
            let o = vb * j;
            if o >= io.len {
                break;
            }
            let n = io.len - o;
            if n >= vb {
                V::load(io.src.add(o)).xor(*x).store(io.dst.add(o));
            } else {
                V::load_partial(io.src.add(o), n)
                    .xor(*x)
                    .store_partial(io.dst.add(o), n);
            }
        }
    }
}

/// XORs keystream blocks into a short `data` (at most `ks.len()` blocks): whole blocks with
/// plain loads and stores, the partial last block with a masked (or staged) one, so
/// nothing past `data` is read or written. The small-message kernels share it.
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
/// `data.len() <= 16 * ks.len()`.
#[inline(always)]
pub(super) unsafe fn xor_keystream<V: Simd>(data: &mut [u8], ks: &[V::Block]) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe { xor_keystream_io::<V>(Io::in_place(data), ks) }
}

/// [`xor_keystream`] from `io.src` into `io.dst` (or in place).
///
/// # Safety
/// Only under the backend's target features, on a CPU that has them (the [`Simd`] contract).
/// `io.len <= 16 * ks.len()`.
#[inline(always)]
pub(super) unsafe fn xor_keystream_io<V: Simd>(io: Io, ks: &[V::Block]) {
    // SAFETY: within this function's `# Safety` contract.
    unsafe {
        let full = io.len / 16;
        for (i, k) in ks.iter().enumerate().take(full) {
            V::Block::load(io.src.add(16 * i))
                .xor(*k)
                .store(io.dst.add(16 * i));
        }
        let n = io.len % 16;
        if n != 0 {
            let o = 16 * full;
            let x = V::load_partial(io.src.add(o), n).lane0().xor(ks[full]);
            V::from_lane0(x).store_partial(io.dst.add(o), n);
        }
    }
}
