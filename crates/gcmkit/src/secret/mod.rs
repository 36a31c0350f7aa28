//! Handling secrets, a leaf every layer may use: wiping them (`wipe`) and marking the few
//! secret-derived results that are public by design (`ct::declassify`: whether a tag
//! matched). It imports nothing from the crate.

#[cfg(gcmkit_ct_control)]
pub(crate) mod control;
#[allow(unsafe_code)] // the ct-check harness's extern hook
pub(crate) mod ct;
#[allow(unsafe_code)] // volatile stores
pub(crate) mod wipe;
