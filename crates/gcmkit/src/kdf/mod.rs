//! Key derivations, one module each: RFC 8452's DeriveKey (AES-GCM-SIV's per-nonce keys)
//! and HKDF-Expand-SHA-512 (the chunked format's per-message keys). New constructions'
//! derivations (XAES-256-GCM's CMAC-based one, DNDK-GCM's) belong here too.

#[cfg(feature = "chunked")]
pub(crate) mod hkdf;
pub(crate) mod rfc8452;
