//! Key derivations, one module each: RFC 8452's DeriveKey (AES-GCM-SIV's per-nonce keys),
//! HKDF-Expand-SHA-512 (the chunked format's per-message keys), XAES-256-GCM's
//! CMAC-based KDF and DNDK-GCM's double-nonce derivation (per-nonce AES-256-GCM keys).

pub(crate) mod dndk;
#[cfg(feature = "chunked")]
pub(crate) mod hkdf;
pub(crate) mod rfc8452;
pub(crate) mod xaes;
