//! The ISA-neutral vector abstraction every kernel is written against.
//!
//! A vector holds `LANES` independent 128-bit blocks (x86: `Xmm` 1, `Ymm` 2, `Zmm` 4;
//! a NEON backend would be one lane). Every operation acts lane by lane, exactly as the
//! 128-bit instruction does on one block, so a kernel written against [`Simd`] computes
//! the same thing at every width and on every ISA. Nothing here names an instruction set:
//! each backend (`engine/x86/vectors.rs`, and an Arm one beside it) implements the trait
//! with its intrinsics, and `kernels::entry_points!` instantiates the kernels inside
//! functions compiled with that backend's target features.
//!
//! Byte order: a lane holds 16 bytes; `from_u128`/`to_u128` read them as a little-endian
//! integer, which is the field's POLYVAL order and the integer form of the counters.

use crate::aes::RoundKeys;
use crate::error::Error;

/// A vector of `LANES` 128-bit blocks.
///
/// # Safety
/// Every method is `unsafe` for one reason: it may only run inside a function compiled
/// with the backend's target features, on a CPU that has them (the engine entry points,
/// reachable only through a checked [`crate::engine::Kernels`] token). Pointer arguments
/// must be valid for the bytes each method names.
pub(crate) trait Simd: Copy {
    /// Blocks per vector.
    const LANES: usize;
    /// This backend's single-block vector (lane 0 on its own).
    type Block: Simd<Block = Self::Block>;

    /// All zero.
    unsafe fn zero() -> Self;
    /// Loads `16 * LANES` bytes (unaligned).
    unsafe fn load(p: *const u8) -> Self;
    /// Stores `16 * LANES` bytes (unaligned).
    unsafe fn store(self, p: *mut u8);
    /// Loads the first `n` < 16·LANES bytes at `p`, the rest of the vector zero; never
    /// touches memory past `p + n`. A backend with masked loads overrides this; the default
    /// copies through a stack buffer (wiped afterwards: it held data).
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize) -> Self {
        let mut b = [0u8; 64];
        // SAFETY: the caller guarantees n readable bytes at p; n < 64.
        unsafe {
            core::ptr::copy_nonoverlapping(p, b.as_mut_ptr(), n);
            let v = Self::load(b.as_ptr());
            crate::secret::wipe::wipe_bytes(&mut b);
            v
        }
    }
    /// Stores the first `n` < 16·LANES bytes of the vector at `p` (nothing past `p + n`).
    #[inline(always)]
    unsafe fn store_partial(self, p: *mut u8, n: usize) {
        let mut b = [0u8; 64];
        // SAFETY: the caller guarantees n writable bytes at p; n < 64.
        unsafe {
            self.store(b.as_mut_ptr());
            core::ptr::copy_nonoverlapping(b.as_ptr(), p, n);
        }
        crate::secret::wipe::wipe_bytes(&mut b);
    }
    /// `x` (little-endian bytes) in every lane. (The single-block type must override
    /// this and `to_u128`, which the defaults reach through.)
    #[inline(always)]
    unsafe fn from_u128(x: u128) -> Self {
        // SAFETY: the trait's contract, passed on.
        unsafe { Self::broadcast(Self::Block::from_u128(x)) }
    }
    /// Lane 0 as a little-endian integer.
    #[inline(always)]
    unsafe fn to_u128(self) -> u128 {
        // SAFETY: the trait's contract, passed on.
        unsafe { self.lane0().to_u128() }
    }
    /// Lane 0.
    unsafe fn lane0(self) -> Self::Block;
    /// The same block in every lane.
    unsafe fn broadcast(b: Self::Block) -> Self;
    /// `b` in lane 0, zero elsewhere.
    unsafe fn from_lane0(b: Self::Block) -> Self;
    /// XOR of all lanes.
    unsafe fn fold_lanes(self) -> Self::Block;
    /// Bitwise XOR.
    unsafe fn xor(self, o: Self) -> Self;
    /// self xor a xor b: one three-input instruction where the ISA has one (`vpternlogd`
    /// on AVX-512). On the benchmark machine every 512-bit op shares two ports with AES
    /// and CLMUL (`gcmkit-bench ports`; op counts in docs/perf/engines.md), so each XOR
    /// saved is issue bandwidth returned to them.
    unsafe fn xor3(self, a: Self, b: Self) -> Self;
    /// Dword 0 of lane 0 (the lane-0 counter in integer form).
    unsafe fn dword0(self) -> u32;
    /// Dword 3 of every lane = `n` (with `n` = m << 24, adding this to a big-endian
    /// counter block adds m to its last byte: exact while that byte does not carry).
    unsafe fn splat_dword3(n: i32) -> Self;
    /// Dword 0 of every lane = `n`, the rest zero.
    unsafe fn splat_dword0(n: i32) -> Self;
    /// Dword 0 of lane l = l (the lane's counter offset).
    unsafe fn lane_offsets() -> Self;
    /// One AES round (SubBytes, ShiftRows, MixColumns, then XOR `k`) per lane.
    unsafe fn aesenc(self, k: Self) -> Self;
    /// The last AES round (no MixColumns) per lane.
    unsafe fn aesenclast(self, k: Self) -> Self;
    /// Carry-less 64x64 product per lane; IMM bit 0 picks self's qword, bit 4 o's.
    unsafe fn clmul<const IMM: i32>(self, o: Self) -> Self;
    /// Swaps the two 64-bit halves of each lane.
    unsafe fn swap64(self) -> Self;
    /// Reverses the 16 bytes of each lane.
    unsafe fn bswap(self) -> Self;
    /// 32-bit additions (wrapping) per dword.
    unsafe fn add32(self, o: Self) -> Self;
    /// This ISA's AES key schedule into `rk` (the fused AES-GCM-SIV kernel expands its
    /// per-nonce key inline). The single-block type must override it.
    #[inline(always)]
    unsafe fn expand_key_into(key: &[u8], rk: &mut RoundKeys) -> Result<(), Error> {
        // SAFETY: the trait's contract, passed on.
        unsafe { Self::Block::expand_key_into(key, rk) }
    }
}

/// The lane methods of a one-block vector type (`LANES` = 1, `Block` = Self), where each
/// is the identity, and the block methods the trait's defaults delegate to `Block`:
/// integer conversion through `load`/`store` (both targets are little-endian, so a
/// `u128`'s bytes in memory are its little-endian form) and the backend's key schedule
/// (`super::keys::expand_into` of the module the macro is used in). Shared by the x86
/// `Xmm` and the Arm `Neon` backends.
macro_rules! single_lane_identities {
    () => {
        const LANES: usize = 1;
        type Block = Self;
        #[inline(always)]
        unsafe fn from_u128(x: u128) -> Self {
            // SAFETY: the `Simd` contract; `x` is 16 readable bytes.
            unsafe { Self::load((&x as *const u128).cast()) }
        }
        #[inline(always)]
        unsafe fn to_u128(self) -> u128 {
            let mut out = 0u128;
            // SAFETY: the `Simd` contract; `out` is 16 writable bytes.
            unsafe { self.store((&mut out as *mut u128).cast()) };
            out
        }
        #[inline(always)]
        unsafe fn expand_key_into(
            key: &[u8],
            rk: &mut crate::aes::RoundKeys,
        ) -> Result<(), crate::Error> {
            // SAFETY: the `Simd` contract (the engine's features are enabled and present).
            unsafe { super::keys::expand_into(key, rk) }
        }
        #[inline(always)]
        unsafe fn broadcast(b: Self) -> Self {
            b
        }
        #[inline(always)]
        unsafe fn from_lane0(b: Self) -> Self {
            b
        }
        #[inline(always)]
        unsafe fn lane0(self) -> Self {
            self
        }
        #[inline(always)]
        unsafe fn fold_lanes(self) -> Self {
            self
        }
        #[inline(always)]
        unsafe fn lane_offsets() -> Self {
            // SAFETY: the `Simd` contract (one lane: offset 0).
            unsafe { Self::zero() }
        }
    };
}
pub(crate) use single_lane_identities;
