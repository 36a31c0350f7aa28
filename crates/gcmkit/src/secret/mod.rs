//! Handling secrets, a leaf every layer may use: wiping them (`wipe`) and marking the few
//! secret-derived results that are public by design (`ct::declassify`: whether a tag
//! matched). It imports nothing from the crate.

pub(crate) mod ct;
pub(crate) mod wipe;
