//! The kernels: AES-GCM and AES-GCM-SIV in one body per vector width, counter mode and
//! GHASH/POLYVAL, written once against the ISA-neutral `Simd` trait. No file in this
//! folder names an instruction set: a backend (x86 `Xmm`/`Ymm`/`Zmm`, an Arm NEON type)
//! implements `Simd`, and `hw::entry_points!` instantiates these generic functions inside
//! `#[target_feature]` functions with that backend's feature table, where they inline.
//!
//! Every step is `#[inline(always)]` in optimized builds only: unoptimized (`cfg(gcmkit_o0)`,
//! set by the crate's build script at opt-level 0), the steps are ordinary functions, so
//! that a debug build's entry points do not hold a stack slot for every local of their
//! whole kernel tree (megabytes; docs/perf/code-size.md). The same holds in the crate's own
//! unit-test build (`cfg(test)`): its few dozen tests do not need the inlined kernels, and
//! compiling them a second time, inlined, was the longest step of `make test`
//! (docs/tuning.md: cfg(test) inlining). The integration suites, which test the engines,
//! link the ordinary library, inlined as users get it.
//!
//! The kernels are safe code, and the compiler holds them to it (`forbid(unsafe_code)`): a
//! vector can only be made from its backend's detection token (`Simd::Cpu`), which each
//! kernel takes as its first argument, and data moves through slices (`Data`,
//! `Simd::load`/`store`). The one `unsafe` call per kernel, of its `#[target_feature]`
//! entry point on the token, is made by `hw::entry_points!` in the backend.
//!
//! Files by job: `aes` (round keys, N independent AES chains, ECB), `ghash` (field
//! products, reduction, powers of H), `gcm_lean` (the one body: AES-GCM whole messages and
//! updates, counter mode, the hash update; its header gives the register plan and the
//! calls' rules), `siv_lean` (AES-GCM-SIV on that body), `siv` (AES-GCM-SIV's DeriveKey
//! and tag in registers), `round_one` (a long-term key's table of AES round one).
//!
//! # GHASH and POLYVAL with carry-less multiplication
//! Field elements are in POLYVAL order (see `field`): a 128-bit lane holds the element
//! with bit i = coefficient of x^i, the low qword first. GHASH blocks are byte-reversed
//! on load (`bswap`), which maps them into the same field (RFC 8452 App. A) with the key
//! mulX(H) prepared by `HashKey`.
//!
//! Product of x = x1·z + x0 and h = h1·z + h0 (z = x^64), four 64x64 carry-less products:
//!     lo = x0·h0,  hi = x1·h1,  mid = x0·h1 + x1·h0,  x·h = hi·z^2 + mid·z + lo.
//! Aggregation: a batch of k blocks X_0..X_(k-1) (acc added into X_0) contributes
//! sum X_b·H^(k-b); the products are summed unreduced per lane, the lanes are XORed
//! together, and one Montgomery reduction gives acc' (reduction is linear).
//!
//! Montgomery reduction of lo + mid·z + hi·z^2 by x^-128 = z^-2 mod p, p = x^128 +
//! x^127 + x^126 + x^121 + 1 = z^2 + z·K + 1 with K = x^63 + x^62 + x^57 (the qword
//! 0xc200000000000000). For a 128-bit L = L.hi·z + L.lo, adding L.lo·p clears the low
//! qword, and dividing by z leaves L.hi + L.lo·z + L.lo·K: in vector form
//! `fold(L) = swap64(L) xor clmul(L.lo, K)` = L·z^-1 mod p, still 128 bits. Hence
//! (lo + mid·z + hi·z^2)·z^-2 = hi + fold(mid + fold(lo)): two multiplies by K.
//!
//! # Counters
//! A counter vector is kept in *integer form*: for GCM (32-bit big-endian counter in the
//! last 4 bytes) the block is byte-reversed so the counter is dword 0; AES-GCM-SIV's
//! little-endian counter already is dword 0. `add32` then increments modulo 2^32 without
//! touching the other 96 bits, exactly inc32 of SP 800-38D, including the wrap.
//!
//! # Stitching
//! The AES rounds of a batch of N vectors are interleaved with the GHASH of N vectors:
//! of the same batch's input (decryption: the ciphertext is known up front) or of the
//! previous batch's output (encryption). The two instruction streams are independent, so
//! the core may overlap them, and stitching measured faster than two passes. AES and CLMUL
//! share the vector ports with everything else, so XORs are merged three at a time and
//! counters avoid per-vector byte reversals (docs/tuning.md: stitching).

#![forbid(unsafe_code)]

pub(crate) mod aes;
pub(crate) mod gcm_lean;
pub(crate) mod ghash;
pub(crate) mod round_one;
pub(crate) mod siv;
pub(crate) mod siv_lean;

/// The hardware engines this CPU runs, for the kernels' unit tests; never empty where it
/// has AES and carry-less multiply instructions (detected here on their own), so that no
/// test passes having checked nothing.
#[cfg(all(test, feature = "std"))]
fn hardware() -> std::vec::Vec<super::Kernels> {
    use super::Engine;
    let v: std::vec::Vec<super::Kernels> = Engine::supported()
        .filter(|e| *e != Engine::Portable)
        .map(|e| e.kernels().unwrap())
        .collect();
    #[cfg(target_arch = "x86_64")]
    let has = std::arch::is_x86_feature_detected!("aes")
        && std::arch::is_x86_feature_detected!("pclmulqdq");
    #[cfg(target_arch = "aarch64")]
    let has = std::arch::is_aarch64_feature_detected!("aes");
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let has = false;
    assert!(
        !has || !v.is_empty(),
        "the CPU has AES instructions but no hardware engine ran"
    );
    v
}

/// `for $j in 0..$n $body` with each step a copy of the body in which `$j` is a constant
/// (`$n` a constant, at most 12: the steps from `$n` on are compiled out, but rustc's
/// constant-index lint still checks them against the arrays the body indexes, and the
/// stitched batch's 15 round keys allow `j + 1` up to 14): a loop the compiler cannot
/// leave rolled. LLVM kept the stitched batch's rounds 3..=8 (eight AES rounds and one
/// vector's hashing each) as a loop of six steps, with run-time offsets and branches on
/// the ports the vector units use (docs/tuning.md: unrolled!). (A closure
/// called once per step was not inlined into the call sites, and spilled the batch to
/// the stack.)
macro_rules! unrolled {
    ($j:ident in 0..$n:expr => $body:block) => {
        unrolled!(@steps $j, $n, $body, 0 1 2 3 4 5 6 7 8 9 10 11)
    };
    (@steps $j:ident, $n:expr, $body:block, $($k:literal)*) => {
        const { assert!($n <= 12, "unrolled: at most 12 steps") };
        $(if $k < $n {
            let $j: usize = $k;
            $body
        })*
    };
}
pub(super) use unrolled;
