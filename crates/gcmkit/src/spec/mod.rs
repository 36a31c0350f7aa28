//! The byte rules of the specifications, a leaf layer: how the GCM family lays out the
//! blocks it hashes and encrypts (length blocks, the pre-counter block, the tag), the SIV
//! tag and counter inputs, RFC 8452's DeriveKey inputs and key split. Modes and kernels
//! both call these, so a rule is written once and the fused kernels cannot drift from
//! the portable path. Pure functions on bytes; nothing here imports the rest of the crate.

pub(crate) mod gcm;
pub(crate) mod rfc8452;
pub(crate) mod siv;
