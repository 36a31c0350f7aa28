//! One hardware engine from one feature table: its token, its detection and its kernels.
//!
//! `hw_engine!(name, detect_macro, [features], Vector, LEAN_N $(, implies [names])?)`
//! generates module `name` with `FEATURES`, `feature_states()`, the token type `Cpu` and
//! its only constructor `detect()` (the architecture's `is_*_feature_detected!` over the
//! same list), and the kernels instantiated for `Vector` inside functions compiled with
//! exactly those target features ([`entry_points!`]), so detection and compilation
//! can never disagree. `implies` names engines of the same backend whose tables are
//! subsets of this one (checked at compile time): their tokens convert from this one, so
//! a wide vector can hand out its single-block lanes.
//! Used by `x86` (three engines) and `arm` (one).

/// Whether every name of `sub` is in `sup` (for the `implies` check, at compile time).
#[allow(dead_code)] // only engines with an `implies` list call it
pub(crate) const fn includes(sup: &[&str], sub: &[&str]) -> bool {
    let mut i = 0;
    while i < sub.len() {
        let mut found = false;
        let mut j = 0;
        while j < sup.len() {
            let (a, b) = (sub[i].as_bytes(), sup[j].as_bytes());
            if a.len() == b.len() {
                let mut k = 0;
                while k < a.len() && a[k] == b[k] {
                    k += 1;
                }
                found |= k == a.len();
            }
            j += 1;
        }
        if !found {
            return false;
        }
        i += 1;
    }
    true
}

macro_rules! hw_engine {
    ($name:ident, $detect:ident, [$($feat:tt),+], $v:ty, $lean:literal
     $(, implies [$($sub:ident),+])?) => {
        pub(crate) mod $name {
            #[allow(unused_imports)]
            use super::*;

            /// The CPU features this engine's code is compiled for.
            #[allow(dead_code)] // read by `required_features` (std) and `implies` checks
            pub(crate) const FEATURES: &[&str] = &[$($feat),+];

            /// Proof that this CPU has every feature in [`FEATURES`]: zero-sized, and the
            /// field is visible only to this backend (the superset conversions below), so
            /// every value comes from [`detect`].
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub(crate) struct Cpu(pub(super) ());

            /// The token, if this CPU has every feature in [`FEATURES`]. Without `std`
            /// there is no run-time detection: hardware engines are off.
            pub(crate) fn detect() -> Option<Cpu> {
                #[cfg(feature = "std")]
                if $(std::arch::$detect!($feat))&&+ {
                    return Some(Cpu(()));
                }
                None
            }

            $($(
                const _: () = assert!(
                    crate::engine::hw::includes(FEATURES, super::$sub::FEATURES),
                    "an implied engine's features must be a subset of this one's"
                );
                impl From<Cpu> for super::$sub::Cpu {
                    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
                    fn from(_: Cpu) -> Self {
                        // Sound: detection of this table found every feature of `$sub`'s
                        // (the assertion above).
                        super::$sub::Cpu(())
                    }
                }
            )+)?

            /// Each feature of [`FEATURES`] with whether this CPU has it.
            #[cfg(feature = "std")]
            #[allow(dead_code)]
            pub(crate) fn feature_states() -> std::vec::Vec<(&'static str, bool)> {
                std::vec![$(($feat, std::arch::$detect!($feat))),+]
            }

            crate::engine::hw::entry_points!([$($feat),+], $v, $lean);
        }
    };
}
pub(crate) use hw_engine;

/// Instantiates every kernel of `engine::interface::kernel_list!` for one backend: vector
/// type `$v`, `$lean` vectors per batch of the one-body kernels (`kernels::gcm_lean`),
/// compiled with the target features `$feat` (the backend's feature table, the same list
/// run-time detection checks).
///
/// For each kernel of the list it makes `name(cpu: Cpu, ...)`, a `#[target_feature]`
/// function in which the generic kernel inlines (its symbol, e.g.
/// `engine::arm::armv8::gcm_update_seal`, is what `make arm-counts` reads), and `call::name`, the
/// safe call of it on the token. The token `cpu` (made only by `detect()`, `hw_engine!`)
/// is the SAFETY argument of that one `unsafe` call.
macro_rules! entry_points {
    ([$($feat:tt),+], $v:ty, $lean:literal) => {
        /// This engine's vector type, as the kernel list names it.
        type V = $v;
        /// Vectors per batch of the one-body AES-GCM (`kernels::gcm_lean`).
        const LEAN_N: usize = $lean;
        /// Blocks per batch of the one-body AES-GCM: the most powers of H it reads.
        pub(crate) const LEAN_BLOCKS: usize = LEAN_N * <V as crate::engine::simd::Simd>::LANES;

        /// Whether AES-GCM's batches start from a key's round-one table (read where
        /// tables are made: with `alloc`).
        #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
        pub(crate) const ROUND_ONE: bool = <V as crate::engine::simd::Simd>::ROUND_ONE;

        crate::engine::interface::kernel_list!(
            [crate::engine::hw::entry_points] { @each [$($feat),+]; }
        );
    };
    (@each $feats:tt;
     $($(#[$m:meta])* [$method:ident $(#[$mm:meta])*] fn $name:ident($($arg:ident: $t:ty),*) $(-> $ret:ty)?
        = $f:expr, portable { $($p:tt)* };)+) => {
        $(
            crate::engine::hw::entry_points! {
                @one $feats; $(#[$m])* fn $name($($arg: $t),*) $(-> $ret)? = $f
            }
        )+

        /// The entry points as safe calls on the engine's token.
        pub(crate) mod call {
            #[allow(unused_imports)]
            use super::*;
            pub(crate) use super::LEAN_BLOCKS;
            #[cfg(feature = "alloc")]
            pub(crate) use super::ROUND_ONE;
            $(
                $(#[$m])*
                #[inline]
                pub(crate) fn $name(cpu: Cpu, $($arg: $t),*) $(-> $ret)? {
                    // SAFETY: `cpu` exists only after `detect()` found every feature of
                    // this engine's table, the features `super::$name` is compiled with.
                    unsafe { super::$name(cpu, $($arg),*) }
                }
            )+
        }
    };
    (@one [$($feat:tt),+];
     $(#[$m:meta])* fn $name:ident($($arg:ident: $t:ty),*) $(-> $ret:ty)? = $f:expr) => {
        // Safe to call only where these features are enabled: elsewhere, through `call`.
        $(#[$m])*
        $(#[target_feature(enable = $feat)])+
        pub(crate) fn $name(cpu: Cpu, $($arg: $t),*) $(-> $ret)? {
            $f(cpu, $($arg),*)
        }
    };
}
pub(crate) use entry_points;
