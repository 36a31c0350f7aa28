//! Engines: the per-key choice of kernels. A mode calls the functions here and never asks
//! which CPU it runs on; an engine never knows about modes' formats.
//!
//! The engine is chosen once per key object: the best one the CPU supports, or the one
//! named by the environment variable `GCMKIT_ENGINE` (read once per process). Naming an
//! engine the CPU lacks is an error, never a silent fallback.
//!
//! Layout: `simd` (the ISA-neutral vector trait), `kernels` (every kernel, written once
//! against it), `interface` (the one list of kernels: signatures, generic kernels and
//! portable arms, from which the entry points and the `Kernels` methods are made),
//! `sequence` (AES-GCM's order of steps, once for every engine), `hw` (one engine from
//! one feature table), one backend per ISA (`x86`: AES-NI, AVX2 and AVX-512 vector types,
//! feature tables, key schedule; `arm`: the ARMv8 Crypto Extensions on NEON), `portable`
//! (the constant-time engine for every other CPU), `message_key` (AES-GCM-SIV's
//! per-message table of powers, built in place and wiped wide), `round_one` (a long-term
//! AES-GCM key's table of AES round one for its counter blocks).
//! Key objects hold a [`Kernels`] value: the portable engine, or a hardware engine with
//! its token (`x86::avx512::Cpu`, ...), a zero-sized type whose only constructor is that
//! engine's detection (`hw_engine!`). `dispatch!` hands the token to the engine's entry
//! points, which are safe functions: the token is the SAFETY argument of the one `unsafe`
//! call inside each (`kernels::entry_points!`). The kernels are safe code; `unsafe` lives
//! only in the backends (`x86`, `arm`: intrinsics and key schedules), the raw loads and
//! stores of `simd`, the in-place writes and wipe of `message_key`, and the entry points.

#[cfg(target_arch = "aarch64")]
pub(crate) mod arm;
// The engine generator exists for the hardware backends only. The generic kernels and
// their vector trait are instantiated only by those backends too; on other targets
// (thumbv7em, wasm32, ...) the portable engine uses just their shared type (`Hash`),
// and the rest is compiled, type-checked and unused by design: no warnings for that.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod hw;
mod interface;
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code, unused_imports, unused_macros)
)]
pub(crate) mod kernels;
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code, unused_imports)
)]
mod message_key;
pub(crate) mod portable;
mod round_one;
pub(crate) mod sequence;
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code, unused_imports, unused_macros)
)]
pub(crate) mod simd;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[allow(unused_imports)] // used by the backends' engine tables
pub(crate) use hw::hw_engine;
pub(crate) use kernels::Hash;
pub(crate) use portable::Counter;
pub(crate) use round_one::RoundOne;

use crate::aes::RoundKeys;
use crate::error::Error;
use crate::field::{Flavor, HashKey};

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
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn range(&mut self, start: usize, n: usize) -> Data<'_> {
        let r = start..start + n;
        match self {
            Data::InPlace(b) => Data::InPlace(&mut b[r]),
            Data::Copy(s, d) => Data::Copy(&s[r.clone()], &mut d[r]),
        }
    }

    /// Both sides from byte `off` (<= [`Self::len`]) to [`Self::len`].
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn tail(self, off: usize) -> Data<'a> {
        let len = self.len();
        match self {
            Data::InPlace(b) => Data::InPlace(&mut b[off..]),
            Data::Copy(s, d) => Data::Copy(&s[off..len], &mut d[off..len]),
        }
    }

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

/// A message of exactly one whole block, in place or from a source into a destination,
/// as two pointers: passed to a kernel in two registers, where a [`Data`] goes through
/// memory (its shape and both lengths stored by the caller, loaded and tested by the
/// kernel, then a bounds check per access): about 25 instructions of a 16-byte AES-GCM
/// call. Built only from a `Data` whose sides are 16 bytes long, and borrowing it, so the
/// pointers are valid (and, but in place, disjoint) for as long as it lives.
pub(crate) struct Block16<'a> {
    src: *const [u8; 16],
    dst: *mut [u8; 16],
    _data: core::marker::PhantomData<&'a mut [u8; 16]>,
}

impl<'a> Block16<'a> {
    /// `data` as one block, if both its sides are exactly 16 bytes long.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn new(data: &'a mut Data<'_>) -> Option<Self> {
        let (src, dst): (*const [u8; 16], *mut [u8; 16]) = match data {
            Data::InPlace(b) => {
                // Both from one raw pointer: in place, the read and the write are one block.
                let b: *mut [u8; 16] = <&mut [u8; 16]>::try_from(&mut **b).ok()?;
                (b, b)
            }
            Data::Copy(s, d) => {
                let s: &[u8; 16] = (*s).try_into().ok()?;
                (s, <&mut [u8; 16]>::try_from(&mut **d).ok()?)
            }
        };
        Some(Block16 {
            src,
            dst,
            _data: core::marker::PhantomData,
        })
    }

    /// The input block (read it before [`Self::write`]: in place, the two are one).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn read(&self) -> [u8; 16] {
        // SAFETY: `src` came from a 16-byte slice of the `Data` this value borrows (`new`),
        // so it is valid for reads for as long as `self` lives; `[u8; 16]` has alignment 1.
        unsafe { self.src.read() }
    }

    /// Writes the output block.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn write(self, out: [u8; 16]) {
        // SAFETY: `dst` came from a 16-byte `&mut` of the `Data` this value borrows
        // mutably (`new`), so it is valid for writes and nothing else reads it meanwhile.
        unsafe { self.dst.write(out) }
    }
}

/// Padded AAD + padded message + length block, in blocks.
fn siv_small_blocks(aad_len: usize, data_len: usize) -> usize {
    aad_len
        .div_ceil(16)
        .saturating_add(data_len.div_ceil(16))
        .saturating_add(1)
}

/// Largest padded AAD + padded message + length block of [`Kernels::siv_small`], in
/// blocks (the kernel's own bound, `kernels::siv`; portable builds have no such kernel).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const SIV_SMALL_BLOCKS: usize = kernels::SIV_SMALL_BLOCKS;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const SIV_SMALL_BLOCKS: usize = 0;

/// On avx2 and avx512, the largest padded AAD + padded message + length block of
/// [`Kernels::siv_small`] in blocks, besides every message of `tiny`'s shape (up to the
/// engine's `Simd::SIV_TINY_BLOCKS` data blocks, eight on avx512 and ten on avx2, and one
/// AAD block: `kernels::siv::tiny_fits`); larger ones run the bulk kernel. (Since avx2's
/// `tiny` takes ten blocks, its 144 B below runs there unless the AAD is over a block.)
/// Measured (local harness beside haberdashery, Intel f6 m167, AES-256-GCM-SIV,
/// alternated, cycles, enc / dec, 24 -> 9 blocks with DeriveKey on wide vectors in the
/// bulk kernel): avx512 144 B 421-432 / 401-406 -> 363-371 / 305-312, 192 B 443-448 /
/// 422-484 -> 334-335 / 299-300, 256 B 467-482 / 446-500 -> 356-362 / 308-316, 368 B
/// 579-589 / 555-567 -> 473-474 / 384; avx2 (one round) 144 B 433 / 390 -> 407 /
/// 421, 256 B 477 / 438 -> 387 / 384, 368 B 557 / 518 -> 503 / 437. On aesni the bulk
/// kernel was slower at 144-160 B (417-429 -> 440-444 encrypting), so it keeps
/// [`SIV_SMALL_BLOCKS`], as does armv8 (not measured).
#[cfg(target_arch = "x86_64")]
const SIV_SMALL_BLOCKS_WIDE: usize = 9;

/// Largest message [`Kernels::siv_small`] takes (bytes): a buffer of this size holds any
/// message that [`Kernels::siv_small_fits`].
pub(crate) const SIV_SMALL_MAX_DATA: usize = 16 * SIV_SMALL_BLOCKS;

/// A set of kernels.
///
/// ```
/// use gcmkit::{AeadMode, AesGcm, Engine, Error};
/// // Every engine this CPU supports gives the same bytes; `Portable` runs everywhere.
/// let portable = AesGcm::with_engine(&[1u8; 16], Engine::Portable)?;
/// let reference = portable.encrypt(&[2u8; 12], b"m", b"")?;
/// for engine in Engine::supported() {
///     assert!(engine.is_supported());
///     assert_eq!(Engine::from_name(engine.name())?, engine);
///     let gcm = AesGcm::with_engine(&[1u8; 16], engine)?;
///     assert_eq!(gcm.encrypt(&[2u8; 12], b"m", b"")?, reference);
/// }
/// println!("fastest here: {}", Engine::best().name());
/// assert!(Engine::from_name("no-such-engine").is_err());
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Constant-time portable Rust: bitsliced AES, integer-multiply GF(2^128).
    Portable,
    /// AES-NI + PCLMULQDQ on 128-bit registers.
    #[cfg(target_arch = "x86_64")]
    Aesni,
    /// VAES + VPCLMULQDQ on 256-bit registers (AVX2).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// VAES + VPCLMULQDQ on 512-bit registers (AVX-512 F/BW/VL).
    #[cfg(target_arch = "x86_64")]
    Avx512,
    /// ARMv8 Crypto Extensions (AESE/AESMC + PMULL) on 128-bit NEON registers.
    #[cfg(target_arch = "aarch64")]
    Armv8,
}

/// Every engine name of every architecture, for telling "not on this CPU architecture"
/// apart from a misspelling.
const ALL_NAMES: &[&str] = &["portable", "aesni", "avx2", "avx512", "armv8"];

/// Runs `$hw` with `$m` bound to the engine's entry-point module and `$cpu` to its
/// token, or `$portable`. No `unsafe` here: the entry points are safe functions of the
/// token.
macro_rules! dispatch {
    ($kernels:expr, $portable:expr, |$m:ident, $cpu:pat_param| $hw:expr) => {
        dispatch!(@arms $kernels, $portable, |$m, $cpu| $hw;
            "x86_64" Aesni x86::aesni,
            "x86_64" Avx2 x86::avx2,
            "x86_64" Avx512 x86::avx512,
            "aarch64" Armv8 arm::armv8)
    };
    (@arms $kernels:expr, $portable:expr, |$m:ident, $cpu:pat_param| $hw:expr;
     $($arch:literal $engine:ident $($module:ident)::+),+) => {
        match $kernels {
            Kernels::Portable => $portable,
            $(
                #[cfg(target_arch = $arch)]
                Kernels::$engine($cpu) => {
                    use $($module)::+::call as $m;
                    $hw
                }
            )+
        }
    };
}

// The kernels' methods (`encrypt_blocks`, `ctr_xor`, `hash_update`, `ctr_and_hash`,
// `gcm_whole`, `fill_powers`, `dot`, `expand_key_into`, and the hardware-only
// `*_small_kernel`s), generated from the one kernel list (`interface`).
interface::kernel_list!([interface::kernel_methods] {});

/// Where a counter-mode pass starts: how the counter advances, and its first block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CtrStart {
    /// How the counter advances.
    pub(crate) kind: Counter,
    /// The first counter block.
    pub(crate) block: [u8; 16],
}

/// Where a small AES-GCM message's counter starts (`Kernels::gcm_small`): a 96-bit IV,
/// which the few-block kernel takes whole, or a Y0 already derived (any IV length).
#[derive(Clone, Copy)]
pub(crate) enum SmallStart<'a> {
    Iv96(&'a [u8; 12]),
    Y0(&'a [u8; 16]),
}

/// GCM's pre-counter block Y0, borrowed from the mode, and how its counter advances: the
/// whole-message kernel's start. By reference, not copied into a [`CtrStart`]: the mode
/// builds Y0 piecewise (IV, then the counter word), and the 16-byte reload of such a copy
/// cannot be store-forwarded; that copy sat before every AES-GCM message from 113 B up
/// (docs/perf/refactor-26.md). The kernels read it with `Simd::load_halves` (two 8-byte
/// loads, each forwarded from the mode's store): with one 16-byte load, the reload waited
/// for the mode's stores to reach the cache, and AES-128-GCM at 1500 B took 7-9 % longer
/// on avx512 (docs/perf/cycles-intel-f6-m207.md).
#[derive(Clone, Copy)]
pub(crate) struct Y0<'a> {
    /// How the counter advances.
    pub(crate) kind: Counter,
    /// The block itself.
    pub(crate) block: &'a [u8; 16],
    /// The key's round-one table ([`RoundOne`]), if it has one: the stitched batches of
    /// a public counter (`Counter::Be32Public`) start from it one AES round in.
    pub(crate) round_one: Option<&'a RoundOne>,
}

/// The long-term keys and variant of GCM-SIV (2015), for its small-message kernel
/// ([`Kernels::siv2015_small`]).
#[derive(Clone, Copy)]
pub(crate) struct Siv2015Keys<'a> {
    /// The hash key (with enough powers for the message: see the kernel).
    pub(crate) hash: &'a HashKey,
    /// The tag (PRF) key.
    pub(crate) prf: &'a RoundKeys,
    /// The counter-mode key.
    pub(crate) ctr: &'a RoundKeys,
    /// Whether bit 127 of S is cleared before the PRF (the variant's mask).
    pub(crate) mask: bool,
    /// How the first counter block is made from the tag.
    pub(crate) counter: crate::spec::siv::CounterInit,
}

impl Engine {
    /// All engines this build knows, slowest first.
    pub const ALL: &'static [Engine] = &[
        Engine::Portable,
        #[cfg(target_arch = "x86_64")]
        Engine::Aesni,
        #[cfg(target_arch = "x86_64")]
        Engine::Avx2,
        #[cfg(target_arch = "x86_64")]
        Engine::Avx512,
        #[cfg(target_arch = "aarch64")]
        Engine::Armv8,
    ];

    /// The engine's name as `GCMKIT_ENGINE` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Engine::Aesni => "aesni",
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512 => "avx512",
            #[cfg(target_arch = "aarch64")]
            Engine::Armv8 => "armv8",
        }
    }

    /// Parses a name as `GCMKIT_ENGINE` spells it. A name of another architecture's
    /// engine (`armv8` on x86_64, `aesni` on aarch64) is an error of its own.
    pub fn from_name(name: &str) -> Result<Engine, Error> {
        if let Some(e) = Engine::ALL.iter().copied().find(|e| e.name() == name) {
            return Ok(e);
        }
        Err(Error::EngineUnavailable(if ALL_NAMES.contains(&name) {
            "this engine is for another CPU architecture than this build's"
        } else {
            "unknown engine name (portable, aesni, avx2, avx512, armv8)"
        }))
    }

    /// The CPU features the engine's code is compiled for (and detection checks).
    #[cfg(feature = "std")]
    pub fn required_features(self) -> &'static [&'static str] {
        match self {
            Engine::Portable => &[],
            #[cfg(target_arch = "x86_64")]
            Engine::Aesni => x86::aesni::FEATURES,
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2 => x86::avx2::FEATURES,
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512 => x86::avx512::FEATURES,
            #[cfg(target_arch = "aarch64")]
            Engine::Armv8 => arm::armv8::FEATURES,
        }
    }

    /// Whether this CPU can run the engine.
    pub fn is_supported(self) -> bool {
        self.detect().is_some()
    }

    /// The engine's kernels with its token, if detection finds its features.
    fn detect(self) -> Option<Kernels> {
        match self {
            Engine::Portable => Some(Kernels::Portable),
            #[cfg(target_arch = "x86_64")]
            Engine::Aesni => x86::aesni::detect().map(Kernels::Aesni),
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2 => x86::avx2::detect().map(Kernels::Avx2),
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512 => x86::avx512::detect().map(Kernels::Avx512),
            #[cfg(target_arch = "aarch64")]
            Engine::Armv8 => arm::armv8::detect().map(Kernels::Armv8),
        }
    }

    /// Engines this CPU can run, slowest first.
    pub fn supported() -> impl Iterator<Item = Engine> {
        Engine::ALL.iter().copied().filter(|e| e.is_supported())
    }

    /// The fastest engine this CPU supports.
    pub fn best() -> Engine {
        Engine::supported().last().unwrap_or(Engine::Portable)
    }

    /// The engine new key objects use: `GCMKIT_ENGINE` if set (an error if unknown or
    /// unsupported), else [`Engine::best`]. Read once per process.
    pub fn selected() -> Result<Engine, Error> {
        #[cfg(feature = "std")]
        {
            static SELECTED: std::sync::OnceLock<Result<Engine, Error>> =
                std::sync::OnceLock::new();
            SELECTED
                .get_or_init(|| match std::env::var("GCMKIT_ENGINE") {
                    Ok(name) if !name.is_empty() => {
                        Engine::from_name(&name).and_then(|e| e.check())
                    }
                    _ => Ok(Engine::best()),
                })
                .clone()
        }
        #[cfg(not(feature = "std"))]
        {
            Ok(Engine::best())
        }
    }

    /// Returns `self` if the CPU supports it, else an error naming it.
    pub fn check(self) -> Result<Engine, Error> {
        self.kernels().map(|_| self)
    }

    /// The kernels of this engine, if the CPU has its features: what every key object
    /// holds, and the only way to reach a hardware kernel.
    pub(crate) fn kernels(self) -> Result<Kernels, Error> {
        self.detect().ok_or(Error::EngineUnavailable(
            "this CPU lacks the engine's instructions",
        ))
    }
}

/// An engine's kernels: the portable engine, or a hardware engine with its token. A
/// token is made only by its engine's detection, so every hardware value went through
/// it (and [`Engine::kernels`] is the only place that wraps one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernels {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Aesni(x86::aesni::Cpu),
    #[cfg(target_arch = "x86_64")]
    Avx2(x86::avx2::Cpu),
    #[cfg(target_arch = "x86_64")]
    Avx512(x86::avx512::Cpu),
    #[cfg(target_arch = "aarch64")]
    Armv8(arm::armv8::Cpu),
}

impl Kernels {
    /// Which engine these kernels are.
    pub(crate) fn engine(self) -> Engine {
        match self {
            Kernels::Portable => Engine::Portable,
            #[cfg(target_arch = "x86_64")]
            Kernels::Aesni(_) => Engine::Aesni,
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2(_) => Engine::Avx2,
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx512(_) => Engine::Avx512,
            #[cfg(target_arch = "aarch64")]
            Kernels::Armv8(_) => Engine::Armv8,
        }
    }

    /// Expands an AES key (AES-NI key schedule on the x86 engines).
    pub(crate) fn expand_key(self, key: &[u8]) -> Result<RoundKeys, Error> {
        let mut rk = RoundKeys::empty();
        self.expand_key_into(key, &mut rk)?;
        Ok(rk)
    }

    /// Blocks per stitched batch (the powers of H the stitched kernel needs); the
    /// portable engine hashes 8 blocks per reduction.
    pub(crate) fn batch_blocks(self) -> usize {
        dispatch!(self, 8, |m, _| m::BATCH_BLOCKS)
    }

    /// The round-one table of the AES key `rk` ([`RoundOne`]) when this engine's stitched
    /// kernel starts from one (`Simd::ROUND_ONE`: `kernels::ctr::Ctr::take_batch_round_one`),
    /// else `None`, allocating nothing.
    #[cfg(feature = "alloc")]
    pub(crate) fn round_one(self, rk: &RoundKeys) -> Option<alloc::boxed::Box<RoundOne>> {
        if !dispatch!(self, false, |m, _| m::ROUND_ONE) {
            return None;
        }
        let mut t = alloc::boxed::Box::new(RoundOne::empty());
        self.round_one_kernel(rk, &mut t)?;
        Some(t)
    }

    /// Fills `key` in place with `count` powers of H from its 16 bytes.
    pub(crate) fn hash_key_into(self, key: &mut HashKey, h: &[u8; 16], count: usize) {
        key.fill_with(h, count, |e, n, desc| self.fill_powers(e, n, desc))
    }

    /// A hash key with `count` powers of H, computed with this engine's multiplier.
    pub(crate) fn hash_key(self, h: &[u8; 16], flavor: Flavor, count: usize) -> HashKey {
        let mut k = HashKey::empty(flavor);
        self.hash_key_into(&mut k, h, count);
        k
    }

    /// Whole AES-GCM (tag before truncation) of a small message in one kernel call, or
    /// `None` if the engine has no such kernel or the message is too large for it. The one
    /// entry for both small kernels, chosen by the (public) lengths: under a 96-bit IV, up
    /// to four blocks with up to one block of AAD in `kernels::gcm_few` (one block without
    /// AAD in `kernels::gcm_one`; no block count, AAD loop or table index to work out per
    /// call); past four blocks, up to the engine's `Simd::GCM_MID_BLOCKS`, the wide-vector
    /// `kernels::gcm_mid`; else, up to `gcm::SMALL_DATA` bytes, the general
    /// `kernels::gcm::gcm_small`.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn gcm_small(
        self,
        keys: &RoundKeys,
        h: &HashKey,
        start: SmallStart<'_>,
        aad: &[u8],
        data: &mut Data<'_>,
        decrypt: bool,
    ) -> Option<[u8; 16]> {
        let len = data.dst().len();
        let y0 = match start {
            SmallStart::Iv96(iv) => {
                // Entry points per direction and shape, not one with flags: each stays
                // compact. The tag comes back in two registers.
                // One whole block: its two pointers in registers (`Block16`).
                if aad.is_empty() {
                    if let Some(io) = Block16::new(data) {
                        let t = if decrypt {
                            self.gcm_one16_open_kernel(keys, h, iv, io)
                        } else {
                            self.gcm_one16_seal_kernel(keys, h, iv, io)
                        };
                        return t.map(u128::to_le_bytes);
                    }
                }
                let io = data.reborrow();
                if kernels::gcm_one::one_fits(aad.len(), len) {
                    let t = if decrypt {
                        self.gcm_one_open_kernel(keys, h, iv, io)
                    } else {
                        self.gcm_one_seal_kernel(keys, h, iv, io)
                    };
                    return t.map(u128::to_le_bytes);
                }
                if kernels::gcm_few::few_fits(aad.len(), len) {
                    let t = if decrypt {
                        self.gcm_few_open_kernel(keys, h, iv, aad, io)
                    } else {
                        self.gcm_few_seal_kernel(keys, h, iv, aad, io)
                    };
                    return t.map(u128::to_le_bytes);
                }
                if kernels::gcm_mid::mid_fits(aad.len(), len, self.gcm_mid_blocks()) {
                    let t = if decrypt {
                        self.gcm_mid_open_kernel(keys, h, iv, aad, io)
                    } else {
                        self.gcm_mid_seal_kernel(keys, h, iv, aad, io)
                    };
                    if let Some(t) = t.flatten() {
                        return Some(t.to_le_bytes());
                    }
                }
                crate::spec::gcm::iv96_block(iv, 1)
            }
            SmallStart::Y0(y0) => *y0,
        };
        // Y0 by value, in registers (see the kernel); from the source into the destination
        // in the kernel's one pass (a copy first was a `memcpy` call per message).
        if !kernels::gcm::small_fits(aad.len(), len) {
            return None;
        }
        let y0 = u128::from_le_bytes(y0);
        // (No `fits.then(|| ...)`: the closure stayed a function of its own on the
        // decryption's path, the tag passing through its frame: about 25 cycles at 16 B.)
        if decrypt {
            self.gcm_small_open_kernel(keys, h, y0, aad, data.reborrow())
        } else {
            self.gcm_small_seal_kernel(keys, h, y0, aad, data.reborrow())
        }
    }

    /// Whether this engine runs an AES-GCM-SIV message of these lengths in
    /// [`Self::siv_small`]'s fused kernel (so a mode can prepare for it without knowing
    /// the kernel's limits).
    pub(crate) fn siv_small_fits(self, aad_len: usize, data_len: usize) -> bool {
        let blocks = siv_small_blocks(aad_len, data_len);
        match self {
            Kernels::Portable => false,
            // On the wide-vector engines the bulk kernel, whose DeriveKey runs on wide
            // vectors, is the faster one from just past `tiny`'s shape (see
            // `SIV_SMALL_BLOCKS_WIDE`; the shape's bound is the engine's own,
            // `Simd::SIV_TINY_BLOCKS`).
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2(_) | Kernels::Avx512(_) => {
                blocks <= SIV_SMALL_BLOCKS_WIDE
                    || kernels::siv::tiny_fits(aad_len, data_len, self.siv_tiny_blocks())
            }
            #[allow(unreachable_patterns)] // a target without hardware engines has only `Portable`
            _ => blocks <= SIV_SMALL_BLOCKS,
        }
    }

    /// Whole AES-GCM-SIV in one kernel call (key derivation to tag; above
    /// [`SIV_SMALL_BLOCKS`] an `InvalidParameter` error: callers check
    /// [`Self::siv_small_fits`]), or `None` on the portable engine. With
    /// `received`, decrypts in place and returns the tag of the plaintext (the caller
    /// compares); without, encrypts in place and returns the tag.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn siv_small(
        self,
        kgk: &RoundKeys,
        nonce: &[u8; 12],
        aad: &[u8],
        data: &mut [u8],
        received: Option<&[u8; 16]>,
    ) -> Option<Result<[u8; 16], crate::Error>> {
        // A message of `tiny`'s shape runs on avx512 the kernel on 128-bit vectors compiled
        // with avx512's features (EVEX encodings, 32 registers, no 512-bit instruction).
        // The Zmm instantiation took 264 cycles at 48 B against the aesni kernel's 220 (its
        // paths from 3 data blocks spill key registers as 512-bit stores; that this is the
        // cost is inferred, not measured), and the aesni engine's kernel, used before, has
        // 16 registers and SSE encodings. AES-256-GCM-SIV, local harness
        // beside haberdashery, Intel f6 m167, alternated, enc/dec cycles: 16 B 165-171 /
        // 174-179 -> 158-162 / 171-175, 64 B 234-246 / 243-250 -> 223-230 / 236-244
        // (docs/perf/cycles-intel-f6-m167.md). The lengths are public.
        //
        // Past `tiny`'s one group of AES chains (`kernels::siv::TINY_GROUP` data blocks),
        // up to the engine's `Simd::SIV_TINY_BLOCKS`, `tiny` runs in a kernel of its own.
        let (a, d) = (aad.len(), data.len());
        if d > 16 * kernels::siv::TINY_GROUP
            && kernels::siv::tiny_fits(a, d, self.siv_tiny_blocks())
        {
            return self.siv_tiny_upper_kernel(kgk, nonce, aad, data, received);
        }
        #[cfg(target_arch = "x86_64")]
        if matches!(self, Kernels::Avx512(_))
            && kernels::siv::tiny_fits(a, d, kernels::siv::TINY_GROUP)
        {
            return self.siv_small_blocks_kernel(kgk, nonce, aad, data, received);
        }
        self.siv_small_kernel(kgk, nonce, aad, data, received)
    }

    /// Data blocks up to which this engine runs an AES-GCM message under a 96-bit IV in
    /// the fused wide-vector `kernels::gcm_mid` (its vectors' `Simd::GCM_MID_BLOCKS`; zero:
    /// never).
    fn gcm_mid_blocks(self) -> usize {
        dispatch!(self, 0, |m, _| m::GCM_MID_BLOCKS)
    }

    /// Data blocks up to which this engine runs an AES-GCM-SIV message of at most one
    /// AAD block in the fused `kernels::siv::tiny` (its vectors' `Simd::SIV_TINY_BLOCKS`).
    fn siv_tiny_blocks(self) -> usize {
        dispatch!(self, 0, |m, _| m::SIV_TINY_BLOCKS)
    }

    /// Whole AES-GCM-SIV in one kernel call from `io`'s source into its destination (or in
    /// place), or `None` on the portable engine: up to [`SIV_SMALL_BLOCKS`] the fused
    /// small kernel (in place: a separate destination gets the source's bytes first),
    /// above it the bulk kernel, which reads the source and writes the destination in its
    /// own pass. Returns the tag (encryption) or the plaintext's tag (decryption, with
    /// `received`; the caller compares).
    // Inlined, with `siv_small` and the two kernel dispatchers (`interface`), into the
    // mode's seal and open: out of line they were three calls between the mode and the
    // engine's entry point. AES-256-GCM-SIV, local harness beside haberdashery, Intel f6
    // m167, avx512, alternated: 16 B 177/185 -> 167/177 cycles (enc/dec), 64 B 244/250 ->
    // 237-242/246-252, 576 B decryption 462-467 -> 446-447 (docs/perf/cycles-intel-f6-m167.md).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn siv_whole(
        self,
        kgk: &RoundKeys,
        nonce: &[u8; 12],
        aad: &[u8],
        io: Data<'_>,
        received: Option<&[u8; 16]>,
    ) -> Option<Result<[u8; 16], crate::Error>> {
        if self.siv_small_fits(aad.len(), io.len()) {
            self.siv_small(kgk, nonce, aad, io.into_in_place(), received)
        } else {
            self.siv_large_kernel(kgk, nonce, aad, io, received)
        }
    }

    /// Whole GCM-SIV (2015) of a small input with long-term keys in one kernel call, or
    /// `None` if the engine has no such kernel or the input is too large for it (see
    /// `kernels::siv::siv2015_small`: with `received`, decrypts in place and returns the
    /// plaintext's tag for the caller to compare).
    pub(crate) fn siv2015_small(
        self,
        keys: Siv2015Keys<'_>,
        nonce: &[u8; 12],
        aad: &[u8],
        data: &mut [u8],
        received: Option<&[u8; 16]>,
    ) -> Option<[u8; 16]> {
        let blocks = aad.len().div_ceil(16) + data.len().div_ceil(16) + 1;
        let fits = data.len() <= kernels::SIV2015_SMALL_DATA && blocks <= keys.hash.count;
        if !fits {
            return None;
        }
        self.siv2015_small_kernel(keys, nonce, aad, data, received)
    }

    /// The GCM tag (before truncation) from the GHASH accumulator of AAD and ciphertext:
    /// absorbs the length block, then XORs E(K, Y0).
    pub(crate) fn gcm_finish(
        self,
        keys: &RoundKeys,
        h: &HashKey,
        y0: &[u8; 16],
        mut acc: u128,
        aad_len: usize,
        data_len: usize,
    ) -> [u8; 16] {
        let lb = crate::spec::gcm::length_block(aad_len as u64, data_len as u64);
        self.hash_update(h, &mut acc, &lb);
        let mut m = [*y0];
        self.encrypt_blocks(keys, &mut m);
        crate::spec::gcm::tag_from_ghash(acc, &m[0])
    }
}

/// CPU features relevant to gcmkit's engines, as (name, present) pairs.
#[cfg(feature = "std")]
pub fn cpu_features() -> std::vec::Vec<(&'static str, bool)> {
    #[cfg(target_arch = "x86_64")]
    {
        x86::features()
    }
    #[cfg(target_arch = "aarch64")]
    {
        arm::features()
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        std::vec::Vec::new()
    }
}

#[cfg(test)]
mod block16_tests {
    use super::{Block16, Data};

    /// Only a `Data` whose sides are both 16 bytes becomes a `Block16`; in place, the
    /// write lands on the block just read.
    #[test]
    fn only_whole_blocks() {
        let (mut a, mut b) = ([0u8; 17], [0u8; 17]);
        for n in [0, 1, 15, 17] {
            assert!(Block16::new(&mut Data::InPlace(&mut a[..n])).is_none());
            assert!(Block16::new(&mut Data::Copy(&a[..n], &mut b[..n])).is_none());
        }
        assert!(Block16::new(&mut Data::Copy(&a[..16], &mut b[..15])).is_none());
        assert!(Block16::new(&mut Data::Copy(&a[..15], &mut b[..16])).is_none());
        let mut buf = [7u8; 16];
        let mut d = Data::InPlace(&mut buf);
        let io = Block16::new(&mut d).unwrap();
        let x = io.read();
        io.write(x.map(|v| v + 1));
        assert_eq!(buf, [8u8; 16]);
        let src = [3u8; 16];
        let mut d = Data::Copy(&src, &mut b[..16]);
        let io = Block16::new(&mut d).unwrap();
        let x = io.read();
        io.write(x);
        assert_eq!(b[..16], src);
    }
}
