//! One hardware engine from one feature table: its detection and its kernels.
//!
//! `hw_engine!(name, detect_macro, [features], Vector, N, MAXW)` generates module `name`
//! with `FEATURES`, `feature_states()`, `detected()` (the architecture's
//! `is_*_feature_detected!` over the same list) and the kernels instantiated for `Vector`
//! inside functions compiled with exactly those target features
//! (`kernels::entry_points!`), so detection and compilation can never disagree.
//! Used by `x86` (three engines) and `arm` (one).

macro_rules! hw_engine {
    ($name:ident, $detect:ident, [$($feat:tt),+], $v:ty, $n:literal, $maxw:literal) => {
        pub(crate) mod $name {
            #[allow(unused_imports)]
            use super::*;

            /// The CPU features this engine's code is compiled for.
            #[cfg(feature = "std")]
            pub(crate) const FEATURES: &[&str] = &[$($feat),+];

            /// Each feature of [`FEATURES`] with whether this CPU has it.
            #[cfg(feature = "std")]
            #[allow(dead_code)]
            pub(crate) fn feature_states() -> std::vec::Vec<(&'static str, bool)> {
                std::vec![$(($feat, std::arch::$detect!($feat))),+]
            }

            /// Whether this CPU has every feature in [`FEATURES`].
            #[cfg(feature = "std")]
            pub(crate) fn detected() -> bool {
                $(std::arch::$detect!($feat))&&+
            }

            /// Without `std` there is no run-time detection: hardware engines are off.
            #[cfg(not(feature = "std"))]
            pub(crate) fn detected() -> bool {
                false
            }

            crate::engine::kernels::entry_points!([$($feat),+], $v, $n, $maxw);
        }
    };
}
pub(crate) use hw_engine;
