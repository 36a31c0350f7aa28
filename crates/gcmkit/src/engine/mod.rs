//! Engines: the per-key choice of kernels. A mode calls the functions here and never asks
//! which CPU it runs on; an engine never knows about modes' formats.
//!
//! The engine is chosen once per key object: the best one the CPU supports, or the one
//! named by the environment variable `GCMKIT_ENGINE` (read once per process). Naming an
//! engine the CPU lacks, or no engine, is an error naming the variable, never a silent
//! fallback: every native `new` fails with it, and so does every operation of the compat
//! facades (whose `KeyInit::new` cannot fail).
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
//! call inside each (`hw::entry_points!`). The kernels are safe code; `unsafe` lives
//! only in the backends (`x86`, `arm`: intrinsics and key schedules), the raw loads and
//! stores of `simd`, the in-place writes and wipe of `message_key`, and the entry points.

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)] // NEON intrinsics and the key schedule: each block has its SAFETY comment
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
#[allow(unsafe_code)] // in-place writes of the table and its wide wipe (SAFETY comments)
mod message_key;
pub(crate) mod portable;
mod round_one;
pub(crate) mod sequence;
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code, unused_imports, unused_macros)
)]
#[allow(unsafe_code)] // the vector trait's raw loads and stores (SAFETY comments)
pub(crate) mod simd;
#[allow(unsafe_code)] // `Block16`'s two pointer accesses (SAFETY comments)
mod types;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // intrinsics and the key schedule: each block has its SAFETY comment
pub(crate) mod x86;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[allow(unused_imports)] // used by the backends' engine tables
pub(crate) use hw::hw_engine;
pub(crate) use round_one::RoundOne;
pub use types::Data;
pub(crate) use types::{Counter, CtrStart, Hash, Io, Y0};

use crate::aes::RoundKeys;
use crate::error::Error;
use crate::field::{Flavor, HashKey};

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

// The kernels' methods (`encrypt_blocks`, `ctr_xor`, `hash_update`, `gcm_update_seal`,
// `gcm_finish`, `fill_powers`, `dot`, `expand_key_into`, and the hardware-only
// `*_kernel`s of the one-body kernels), generated from the one kernel list (`interface`).
interface::kernel_list!([interface::kernel_methods] {});

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
                    Ok(name) if !name.is_empty() => Engine::from_variable(&name),
                    _ => Ok(Engine::best()),
                })
                .clone()
        }
        #[cfg(not(feature = "std"))]
        {
            Ok(Engine::best())
        }
    }

    /// The engine `GCMKIT_ENGINE=name` selects, or an error that names the variable (the
    /// same error for the native API, whose `new` fails, and the compat facades, whose
    /// every operation fails).
    #[cfg(feature = "std")]
    fn from_variable(name: &str) -> Result<Engine, Error> {
        let engine = Engine::from_name(name).map_err(|_| {
            Error::EngineUnavailable(if ALL_NAMES.contains(&name) {
                "GCMKIT_ENGINE names an engine for another CPU architecture than this build's"
            } else {
                "GCMKIT_ENGINE names no engine (portable, aesni, avx2, avx512, armv8)"
            })
        })?;
        engine.check().map_err(|_| {
            Error::EngineUnavailable(
                "GCMKIT_ENGINE names an engine whose instructions this CPU lacks",
            )
        })
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

    /// The round-one table of the AES key `rk` ([`RoundOne`]) when this engine's AES-GCM
    /// batches start from one (`Simd::ROUND_ONE`: `kernels::gcm_lean::RoundOneRun`), else
    /// `None`, allocating nothing.
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
        key.fill_with(h, count, |e, n, desc| self.fill_powers(e, n, desc));
        // make ct-check's negative controls: a deliberate leak of H as this engine's
        // multiplier left it (a spot every engine's AES-GCM, GMAC, GPRF and SIV path
        // reaches); compiled only under `--cfg gcmkit_ct_control`.
        #[cfg(gcmkit_ct_control)]
        crate::secret::control::leak(key.desc[crate::field::POWERS - 1]);
    }

    /// A hash key with `count` powers of H, computed with this engine's multiplier.
    pub(crate) fn hash_key(self, h: &[u8; 16], flavor: Flavor, count: usize) -> HashKey {
        let mut k = HashKey::empty(flavor);
        self.hash_key_into(&mut k, h, count);
        k
    }

    /// Whether this engine runs whole AES-GCM messages on the one-body kernels
    /// (`kernels::gcm_lean`, #75): every hardware engine.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn uses_gcm_lean(self) -> bool {
        !matches!(self, Kernels::Portable)
    }

    /// Blocks per batch of the one-body AES-GCM kernels (the most powers of H a call
    /// reads; 0 on the portable engine).
    pub(crate) fn lean_blocks(self) -> usize {
        dispatch!(self, 0, |m, _| m::LEAN_BLOCKS)
    }

    /// Whole AES-GCM (the tag before truncation) on the one-body kernels in one call: the
    /// AAD, the data from the block after Y0 (in place or not) with the length block, and
    /// E(K, Y0).
    /// `None` on the portable engine, or if `h` holds fewer powers than the kernels read
    /// for these lengths (a key derived for a shorter message). `round_one`: the key's
    /// table, given only for a public Y0 (a 96-bit IV's: the kernel branches on the
    /// counter's last byte and indexes the table by it).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    #[allow(clippy::too_many_arguments)] // the entry points' inputs, and the direction
    pub(crate) fn gcm_lean(
        self,
        keys: &RoundKeys,
        h: &HashKey,
        y0: u128,
        aad: &[u8],
        data: Data<'_>,
        decrypt: bool,
        round_one: Option<&RoundOne>,
    ) -> Option<[u8; 16]> {
        // A call reads at most a batch's powers and one more (a tail of a whole batch's
        // blocks, then the length block), and no more than the blocks of its AAD and data
        // and the length block (a one-block message hashes all three in one sum).
        // A key with more powers (every key but a derived one) skips the sum.
        if h.count <= self.lean_blocks() {
            let blocks = aad
                .len()
                .div_ceil(16)
                .saturating_add(data.len().div_ceil(16));
            if h.count <= blocks {
                return None;
            }
        }
        // At most one block of AAD and of data: the straight-line entry, a function of
        // its own so that it does not pay `whole`'s prologue (docs/tuning.md).
        if aad.len() <= 16 && data.len() <= 16 {
            return if decrypt {
                self.gcm_lean_open_one_kernel(keys, h, y0, aad, data)
            } else {
                self.gcm_lean_seal_one_kernel(keys, h, y0, aad, data)
            };
        }
        // A longer AAD through the hash update's batches first, so that each whole-message
        // entry point holds a block-at-a-time AAD loop, not a batched hash of its own.
        let mut a0 = 0u128;
        let inline = if aad.len() > kernels::gcm_lean::AAD_INLINE {
            self.hash_update(h, &mut a0, aad);
            &aad[..0]
        } else {
            aad
        };
        let n = aad.len();
        if decrypt {
            self.gcm_lean_open_whole_kernel(keys, h, y0, a0, inline, n, data, round_one)
        } else {
            self.gcm_lean_seal_whole_kernel(keys, h, y0, a0, inline, n, data, round_one)
        }
    }

    /// Whole AES-GCM (the tag before truncation) of one message from Y0 (`kind`: how its
    /// counter advances): on the hardware engines the one-body kernels ([`Self::gcm_lean`]);
    /// on the portable engine its stitched sequence (`portable::gcm_whole`). `round_one`
    /// is used only for a public Y0 (`Counter::Be32Public`).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    #[allow(clippy::too_many_arguments)] // the message, its start and the direction
    pub(crate) fn gcm_message(
        self,
        keys: &RoundKeys,
        h: &HashKey,
        y0: &[u8; 16],
        kind: Counter,
        aad: &[u8],
        mut data: Data<'_>,
        decrypt: bool,
        round_one: Option<&RoundOne>,
    ) -> [u8; 16] {
        let round_one = round_one.filter(|_| kind == Counter::Be32Public);
        if self.uses_gcm_lean() {
            let t = self.gcm_lean(
                keys,
                h,
                u128::from_le_bytes(*y0),
                aad,
                data.reborrow(),
                decrypt,
                round_one,
            );
            if let Some(t) = t {
                return t;
            }
        }
        self.gcm_steps(keys, h, Y0 { kind, block: y0 }, aad, data, decrypt)
    }

    /// [`Self::gcm_message`] outside the one-body kernels: the portable engine's
    /// sequence, which it runs on its own primitives (stitched batches, one schedule);
    /// on a hardware engine with a key of fewer powers than its kernels read for these
    /// lengths (none that `gcm::powers_for` makes), the same sequence on the engine's
    /// counter mode and GHASH, one after the other.
    #[inline(never)]
    fn gcm_steps(
        self,
        keys: &RoundKeys,
        h: &HashKey,
        y0: Y0<'_>,
        aad: &[u8],
        data: Data<'_>,
        decrypt: bool,
    ) -> [u8; 16] {
        let what = Hash::gcm(decrypt);
        if self == Kernels::Portable {
            return portable::gcm_whole(keys, h, y0, aad, data.into_in_place(), what);
        }
        let data = data.into_in_place();
        let mut acc = 0u128;
        self.hash_update(h, &mut acc, aad);
        if decrypt {
            self.hash_update(h, &mut acc, data);
        }
        self.ctr_xor(keys, y0.kind, y0.kind.add(y0.block, 1), data);
        if !decrypt {
            self.hash_update(h, &mut acc, data);
        }
        self.gcm_finish(keys, h, y0.block, acc, aad.len(), data.len())
    }

    /// Counter mode over `data` in place from the counter block `ctr`, then the output
    /// hashed into `acc` (the SIV family's decryption on the general path: GCM-SIV+,
    /// GCM-SIV (2015), AES-GCM-SIV on the portable engine). The portable engine stitches
    /// the two passes in one (`portable::ctr_and_hash`); a hardware engine runs its
    /// counter mode, then its hash update.
    #[allow(clippy::too_many_arguments)] // the keys, the counter, the value and the data
    pub(crate) fn ctr_then_hash(
        self,
        keys: &RoundKeys,
        h: &HashKey,
        kind: Counter,
        ctr: [u8; 16],
        acc: &mut u128,
        data: &mut [u8],
    ) {
        if self == Kernels::Portable {
            let start = CtrStart { kind, block: ctr };
            portable::ctr_and_hash(keys, h, start, acc, data, Hash::Output);
            return;
        }
        self.ctr_xor(keys, kind, ctr, data);
        self.hash_update(h, acc, data);
    }

    /// Whole AES-GCM-SIV in one kernel call from `io`'s source into its destination (or in
    /// place), or `None` on the portable engine: the one-body kernels (`kernels::siv_lean`)
    /// on every hardware engine, at most one block of AAD and four of data in their
    /// one-block entry, straight through (the lengths are public). Returns the tag (encryption) or
    /// the plaintext's tag (decryption, with `received`; the caller compares).
    // Inlined, with the kernel dispatchers (`interface`), into the mode's seal and open:
    // out of line they were calls between the mode and the engine's entry point
    // (docs/tuning.md: Kernels::siv_whole).
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn siv_whole(
        self,
        kgk: &RoundKeys,
        nonce: &[u8; 12],
        aad: &[u8],
        io: Data<'_>,
        received: Option<&[u8; 16]>,
    ) -> Option<Result<[u8; 16], crate::Error>> {
        let one = aad.len() <= 16 && io.len() <= 16 * kernels::siv_lean::FEW_BLOCKS;
        match (received, one) {
            (None, true) => self.siv_lean_seal_one_kernel(kgk, nonce, aad, io),
            (None, false) => self.siv_lean_seal_kernel(kgk, nonce, aad, io),
            (Some(t), true) => self.siv_lean_open_one_kernel(kgk, nonce, aad, io, t),
            (Some(t), false) => self.siv_lean_open_kernel(kgk, nonce, aad, io, t),
        }
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
