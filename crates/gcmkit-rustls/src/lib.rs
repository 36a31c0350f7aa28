//! # gcmkit-rustls: rustls's AES-GCM suites on gcmkit
//!
//! A [rustls](https://docs.rs/rustls/0.23) `CryptoProvider` whose AES-GCM cipher suites
//! protect TLS 1.3 and TLS 1.2 records and QUIC packets with gcmkit's AES-GCM in rustls's
//! record buffer (records encrypted in one pass from rustls's plaintext chunks into it,
//! decrypted in place); key exchange, signatures, hashing, HMAC/HKDF, the TLS 1.2 PRF,
//! key loading and randomness stay those of the base provider, *ring* (feature `ring`, the
//! default) or aws-lc-rs (feature `aws-lc-rs`).
//!
//! ```
//! # #[cfg(feature = "ring")] {
//! use std::sync::Arc;
//! let config = rustls::ClientConfig::builder_with_provider(Arc::new(gcmkit_rustls::provider()))
//!     .with_safe_default_protocol_versions()
//!     .unwrap()
//!     .with_root_certificates(rustls::RootCertStore::empty())
//!     .with_no_client_auth();
//! # let _ = config; }
//! ```
//!
//! Suites: TLS 1.3 `TLS_AES_128_GCM_SHA256`, `TLS_AES_256_GCM_SHA384` (with QUIC packet
//! and header protection), TLS 1.2 `TLS_ECDHE_{ECDSA,RSA}_WITH_AES_{128,256}_GCM_SHA{256,384}`.
//! Limits: 2^24.5 full-size records per TLS key (RFC 8446 sec. 5.5,
//! [`TLS_CONFIDENTIALITY_LIMIT`]); 2^23 packets protected and 2^52 forgeries tolerated per
//! QUIC key (RFC 9001 sec. 6.6). A record or packet that does not authenticate is refused
//! with `rustls::Error::DecryptError`, and its buffer has been zeroed.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod key;
mod quic;
#[cfg(any(feature = "ring", feature = "aws-lc-rs"))]
mod suites;
mod tls12;
mod tls13;

use key::KeySize;
use rustls::crypto::cipher::{Tls12AeadAlgorithm, Tls13AeadAlgorithm};

/// Full-size records one AES-GCM key may protect: RFC 8446 sec. 5.5 sets 2^24.5 for
/// AEAD_AES_128_GCM and AEAD_AES_256_GCM; this is that bound rounded down to an integer
/// (2^24 * sqrt(2) = 23,726,566.4). rustls updates the TLS 1.3 keys, or closes a TLS 1.2
/// connection, before a key reaches it.
pub const TLS_CONFIDENTIALITY_LIMIT: u64 = 23_726_566;

/// gcmkit's suites over *ring*: `gcmkit_rustls::ring::provider()`.
#[cfg(feature = "ring")]
pub mod ring {
    crate::suites::suites_over!(ring, "ring");
}

/// gcmkit's suites over aws-lc-rs: `gcmkit_rustls::aws_lc_rs::provider()`.
#[cfg(feature = "aws-lc-rs")]
pub mod aws_lc_rs {
    crate::suites::suites_over!(aws_lc_rs, "aws-lc-rs");
}

/// The default provider of the base (*ring* when the `ring` feature is on, else aws-lc-rs)
/// with its AES-GCM suites on gcmkit: `ring::provider()` here.
#[cfg(feature = "ring")]
pub fn provider() -> rustls::crypto::CryptoProvider {
    ring::provider()
}

/// The default provider of the base (*ring* when the `ring` feature is on, else aws-lc-rs)
/// with its AES-GCM suites on gcmkit: `aws_lc_rs::provider()` here.
#[cfg(all(feature = "aws-lc-rs", not(feature = "ring")))]
pub fn provider() -> rustls::crypto::CryptoProvider {
    aws_lc_rs::provider()
}

/// TLS 1.3 record protection with AES-128-GCM on gcmkit, for assembling a suite over
/// another base provider.
pub static TLS13_AES_128_GCM: &dyn Tls13AeadAlgorithm = &tls13::Tls13Aead(KeySize::Aes128);
/// TLS 1.3 record protection with AES-256-GCM on gcmkit.
pub static TLS13_AES_256_GCM: &dyn Tls13AeadAlgorithm = &tls13::Tls13Aead(KeySize::Aes256);
/// TLS 1.2 record protection with AES-128-GCM on gcmkit (RFC 5288).
pub static TLS12_AES_128_GCM: &dyn Tls12AeadAlgorithm = &tls12::Tls12Aead(KeySize::Aes128);
/// TLS 1.2 record protection with AES-256-GCM on gcmkit (RFC 5288).
pub static TLS12_AES_256_GCM: &dyn Tls12AeadAlgorithm = &tls12::Tls12Aead(KeySize::Aes256);
/// QUIC packet and header protection with AES-128-GCM on gcmkit (RFC 9001).
pub static QUIC_AES_128_GCM: &dyn rustls::quic::Algorithm = &quic::QuicAead(KeySize::Aes128);
/// QUIC packet and header protection with AES-256-GCM on gcmkit (RFC 9001).
pub static QUIC_AES_256_GCM: &dyn rustls::quic::Algorithm = &quic::QuicAead(KeySize::Aes256);
