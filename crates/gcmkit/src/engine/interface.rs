//! The kernel interface, written once: [`kernel_list!`] holds each kernel's signature,
//! its generic kernel and its portable arm, and hands that list to a consumer macro:
//!
//! - `hw::entry_points!` (once per hardware engine, from `hw_engine!`): the
//!   `#[target_feature]` entry point of each kernel and its safe call on the token;
//! - [`kernel_methods!`] (once, in `engine`): a method of [`super::Kernels`] per kernel,
//!   which runs the portable arm or, with the engine's token, the entry point.
//!
//! A new kernel, or a changed signature, is one edit here; the entry points, the
//! `Kernels` methods and the portable engine's side cannot drift apart. Methods that
//! choose between entry points (`gcm_lean`, `gcm_message`, `siv_whole`) are written by
//! hand in `engine` on top of the generated ones.
//!
//! Entry syntax: `[method] fn entry(arg: Type, ...) -> Ret = kernel, portable { arm };`
//! Attributes before the brackets go on the method, the entry point and its safe call
//! alike; attributes inside the brackets (`[method #[inline(always)]]`) on the `Kernels`
//! method only (an entry point with `#[target_feature]` cannot be `inline(always)`).
//! The kernel path may name `V` (the engine's vector type) and `LEAN_N` (vectors per
//! batch of `kernels::gcm_lean`), which each entry-point module defines. An
//! empty portable arm (`portable {}`) marks a kernel only the hardware engines have: its
//! method returns `Option<Ret>`, `None` on the portable engine.

#![forbid(unsafe_code)]

/// Hands the kernel list to `$cb` (a consumer macro's path in brackets), after the tokens
/// in braces (the consumer's own arguments).
macro_rules! kernel_list {
    ([$($cb:tt)*] { $($pre:tt)* }) => {
        $($cb)*! { $($pre)*
            /// Encrypts blocks in place (ECB; used for H, E(K, Y0), key derivation, tags).
            [encrypt_blocks] fn encrypt_blocks(rk: &crate::aes::RoundKeys, blocks: &mut [[u8; 16]])
                = crate::engine::kernels::aes::encrypt_blocks::<V>,
                portable { crate::aes::soft::encrypt_blocks(rk, blocks) };
            /// XORs the counter-mode keystream into `data`; returns the next counter.
            [ctr_xor] fn ctr_xor(rk: &crate::aes::RoundKeys, kind: crate::engine::Counter, ctr: [u8; 16], data: &mut [u8]) -> [u8; 16]
                = crate::engine::kernels::gcm_lean::ctr_xor::<V, LEAN_N>,
                portable { crate::engine::portable::ctr_xor(rk, kind, ctr, data) };
            /// Fills the round-one table of an AES key (`engine::RoundOne`; only engines
            /// whose `ROUND_ONE` is set use it).
            #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
            [round_one_kernel] fn round_one(rk: &crate::aes::RoundKeys, table: &mut crate::engine::RoundOne) -> ()
                = crate::engine::kernels::round_one::round_one_table::<V>,
                portable {};
            /// Absorbs `data` (final partial block zero-padded) into the hash accumulator.
            [hash_update] fn hash_update(key: &crate::field::HashKey, acc: &mut u128, data: &[u8])
                = crate::engine::kernels::gcm_lean::hash_update::<V, LEAN_N>,
                portable { crate::engine::portable::hash_update(key, acc, data) };
            /// AES-GCM encryption update (on-line GCM, gathered parts): counter mode from
            /// the counter block `ctr` (advanced past the blocks used), the output hashed
            /// into `acc`. Whole blocks, but for a message's last update.
            [gcm_update_seal] fn gcm_update_seal(rk: &crate::aes::RoundKeys, key: &crate::field::HashKey, ctr: &mut [u8; 16], acc: &mut u128, io: crate::engine::Data<'_>) -> ()
                = crate::engine::kernels::gcm_lean::update::<V, LEAN_N, false>,
                portable { crate::engine::portable::gcm_update(rk, key, ctr, acc, io, crate::engine::Hash::Output) };
            /// AES-GCM decryption update: as [`gcm_update_seal`], the input hashed.
            #[cfg_attr(not(feature = "alloc"), allow(dead_code))] // on-line GCM
            [gcm_update_open] fn gcm_update_open(rk: &crate::aes::RoundKeys, key: &crate::field::HashKey, ctr: &mut [u8; 16], acc: &mut u128, io: crate::engine::Data<'_>) -> ()
                = crate::engine::kernels::gcm_lean::update::<V, LEAN_N, true>,
                portable { crate::engine::portable::gcm_update(rk, key, ctr, acc, io, crate::engine::Hash::Input) };
            /// One-body AES-GCM: whole encryption from Y0 (little-endian integer), the tag;
            /// the AAD as the GHASH value `a0` of what the caller hashed, and at most
            /// `gcm_lean::AAD_INLINE` bytes to hash here.
            #[allow(clippy::too_many_arguments)] // the message, its AAD's three parts
            [gcm_lean_seal_whole_kernel] fn gcm_lean_seal_whole(rk: &crate::aes::RoundKeys, key: &crate::field::HashKey, y0: u128, a0: u128, aad: &[u8], aad_len: usize, io: crate::engine::Data<'_>, round_one: Option<&crate::engine::RoundOne>) -> [u8; 16]
                = crate::engine::kernels::gcm_lean::whole::<V, LEAN_N, false>,
                portable {};
            /// One-body AES-GCM: whole decryption from Y0, the tag of the ciphertext.
            #[allow(clippy::too_many_arguments)] // the message, its AAD's three parts
            [gcm_lean_open_whole_kernel] fn gcm_lean_open_whole(rk: &crate::aes::RoundKeys, key: &crate::field::HashKey, y0: u128, a0: u128, aad: &[u8], aad_len: usize, io: crate::engine::Data<'_>, round_one: Option<&crate::engine::RoundOne>) -> [u8; 16]
                = crate::engine::kernels::gcm_lean::whole::<V, LEAN_N, true>,
                portable {};
            /// One-body AES-GCM: whole encryption of at most one block of AAD and of data.
            [gcm_lean_seal_one_kernel] fn gcm_lean_seal_one(rk: &crate::aes::RoundKeys, key: &crate::field::HashKey, y0: u128, aad: &[u8], io: crate::engine::Data<'_>) -> [u8; 16]
                = crate::engine::kernels::gcm_lean::one_block::<V, false>,
                portable {};
            /// One-body AES-GCM: whole decryption of at most one block of AAD and of data.
            [gcm_lean_open_one_kernel] fn gcm_lean_open_one(rk: &crate::aes::RoundKeys, key: &crate::field::HashKey, y0: u128, aad: &[u8], io: crate::engine::Data<'_>) -> [u8; 16]
                = crate::engine::kernels::gcm_lean::one_block::<V, true>,
                portable {};
            /// The GCM tag (before truncation) from the GHASH value of AAD and ciphertext:
            /// the length block absorbed, xor E(K, Y0).
            [gcm_finish] fn gcm_finish(rk: &crate::aes::RoundKeys, key: &crate::field::HashKey, y0: &[u8; 16], acc: u128, aad_len: usize, data_len: usize) -> [u8; 16]
                = crate::engine::kernels::gcm_lean::finish::<V>,
                portable { crate::engine::portable::gcm_finish(rk, key, y0, acc, aad_len, data_len) };
            /// One-body AES-GCM-SIV (`kernels::siv_lean`): whole encryption, from key
            /// derivation to the tag.
            [siv_lean_seal_kernel] fn siv_lean_seal(kgk: &crate::aes::RoundKeys, nonce: &[u8; 12], aad: &[u8], io: crate::engine::Data<'_>) -> Result<[u8; 16], crate::Error>
                = crate::engine::kernels::siv_lean::seal::<V, LEAN_N>,
                portable {};
            /// One-body AES-GCM-SIV: whole decryption under the received tag, the tag of
            /// the plaintext (the caller compares).
            [siv_lean_open_kernel] fn siv_lean_open(kgk: &crate::aes::RoundKeys, nonce: &[u8; 12], aad: &[u8], io: crate::engine::Data<'_>, received: &[u8; 16]) -> Result<[u8; 16], crate::Error>
                = crate::engine::kernels::siv_lean::open::<V, LEAN_N>,
                portable {};
            /// One-body AES-GCM-SIV: whole encryption of at most one block of AAD and four
            /// of data, straight through.
            [siv_lean_seal_one_kernel] fn siv_lean_seal_one(kgk: &crate::aes::RoundKeys, nonce: &[u8; 12], aad: &[u8], io: crate::engine::Data<'_>) -> Result<[u8; 16], crate::Error>
                = crate::engine::kernels::siv_lean::seal_one::<V>,
                portable {};
            /// One-body AES-GCM-SIV: whole decryption of at most one block of AAD and four
            /// of data, straight through.
            [siv_lean_open_one_kernel] fn siv_lean_open_one(kgk: &crate::aes::RoundKeys, nonce: &[u8; 12], aad: &[u8], io: crate::engine::Data<'_>, received: &[u8; 16]) -> Result<[u8; 16], crate::Error>
                = crate::engine::kernels::siv_lean::open_one::<V>,
                portable {};
            /// H^1..H^count into the descending table `desc` (`desc[POWERS - k]` = H^k),
            /// H in POLYVAL form.
            [fill_powers] fn fill_powers(h: u128, count: usize, desc: &mut [u128; crate::field::POWERS])
                = crate::engine::kernels::ghash::fill_powers::<V>,
                portable { crate::engine::portable::fill_powers(h, count, desc) };
            /// POLYVAL's dot(a, b) = a·b·x^-128 with this engine's multiplier.
            #[cfg_attr(not(feature = "alloc"), allow(dead_code))] // incremental GMAC
            [dot] fn dot(a: u128, b: u128) -> u128
                = crate::engine::kernels::ghash::dot::<V>,
                portable { crate::field::soft::dot(a, b) };
            /// Expands an AES key into `rk` in place (AES-NI key schedule on x86).
            [expand_key_into] fn expand_key_into(key: &[u8], rk: &mut crate::aes::RoundKeys) -> Result<(), crate::Error>
                = <V as crate::engine::simd::Simd>::expand_key_into,
                portable { crate::aes::RoundKeys::new(key).map(|k| *rk = k) };
        }
    };
}
pub(crate) use kernel_list;

/// The methods of [`super::Kernels`] from [`kernel_list!`]: each runs its portable arm, or
/// the engine's entry point with the engine's token (`dispatch!`, in `engine`). No inline
/// attribute, as the hand-written methods had none: with `#[inline]` or
/// `#[inline(always)]` the callers grew and the compiler stopped inlining `GcmKey::y0`
/// into them, whose `Result` then came back through memory (docs/tuning.md:
/// kernel_methods!). An entry may still ask for one on its method alone
/// (`[method #[inline(always)]]`), where a per-message path needs it.
macro_rules! kernel_methods {
    ($(
        $(#[$m:meta])*
        [$method:ident $(#[$mm:meta])*] fn $name:ident($($arg:ident: $t:ty),*) $(-> $ret:ty)?
            = $kernel:expr, portable { $($portable:tt)* };
    )+) => {
        impl Kernels {
            $(
                crate::engine::interface::kernel_methods! {
                    @one $(#[$m])* $(#[$mm])* [$method] fn $name($($arg: $t),*) $(-> $ret)?;
                    { $($portable)* }
                }
            )+
        }
    };
    // A kernel only the hardware engines have: `None` on the portable engine.
    (@one $(#[$m:meta])* [$method:ident] fn $name:ident($($arg:ident: $t:ty),*) -> $ret:ty; {}) => {
        $(#[$m])*
        #[cfg_attr(
            not(any(target_arch = "x86_64", target_arch = "aarch64")),
            allow(unused_variables)
        )]
        pub(crate) fn $method(self, $($arg: $t),*) -> Option<$ret> {
            dispatch!(self, None, |m, cpu| Some(m::$name(cpu, $($arg),*)))
        }
    };
    (@one $(#[$m:meta])* [$method:ident] fn $name:ident($($arg:ident: $t:ty),*) $(-> $ret:ty)?;
     { $portable:expr }) => {
        $(#[$m])*
        pub(crate) fn $method(self, $($arg: $t),*) $(-> $ret)? {
            dispatch!(self, $portable, |m, cpu| m::$name(cpu, $($arg),*))
        }
    };
}
pub(crate) use kernel_methods;
