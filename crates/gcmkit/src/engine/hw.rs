//! One hardware engine from one feature table: its token, its detection and its kernels.
//!
//! `hw_engine!(name, detect_macro, [features], Vector, N, MAXW $(, implies [names])?)`
//! generates module `name` with `FEATURES`, `feature_states()`, the token type `Cpu` and
//! its only constructor `detect()` (the architecture's `is_*_feature_detected!` over the
//! same list), and the kernels instantiated for `Vector` inside functions compiled with
//! exactly those target features (`kernels::entry_points!`), so detection and compilation
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
    ($name:ident, $detect:ident, [$($feat:tt),+], $v:ty, $n:literal, $maxw:literal
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

            crate::engine::kernels::entry_points!([$($feat),+], $v, $n, $maxw);
        }
    };
}
pub(crate) use hw_engine;
