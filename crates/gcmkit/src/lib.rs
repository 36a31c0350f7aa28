//! # gcmkit: the GCM family of authenticated encryption
//!
//! One Rust core for AES-GCM (any IV length, the SP 800-38D tag lengths), GMAC and
//! AES-GCM-SIV (RFC 8452), with a portable constant-time engine everywhere and
//! hardware engines on x86_64 (AES-NI, AVX2 with VAES, AVX-512) and aarch64 (ARMv8
//! crypto extensions). Same words as pyca/cryptography:
//! `encrypt(nonce, plaintext, aad)` / `decrypt(nonce, ciphertext, aad)`.
//!
//! ```
//! # fn main() -> Result<(), gcmkit::Error> {
//! use gcmkit::AeadMode;
//! let key = [0x11u8; 32];
//! let nonce = [0x22u8; 12];
//! let gcm = gcmkit::AesGcm::new(&key)?;
//! let ct = gcm.encrypt(&nonce, b"attack at dawn", b"header")?;
//! assert_eq!(gcm.decrypt(&nonce, &ct, b"header")?, b"attack at dawn");
//!
//! // Zero-copy: in place, tag detached; the buffer is zeroed if decryption fails.
//! let mut buf = *b"in place";
//! let tag = gcm.encrypt_in_place_detached(&nonce, b"", &mut buf)?;
//! gcm.decrypt_in_place_detached(&nonce, b"", &mut buf, tag.as_ref())?;
//!
//! // Nonce-misuse resistance: AES-GCM-SIV.
//! let siv = gcmkit::AesGcmSiv::new(&key)?;
//! let ct = siv.encrypt(&nonce, b"same nonce is fine", b"")?;
//! # let _ = ct;
//!
//! // A MAC over data with a nonce.
//! let mac = gcmkit::Gmac::new(&key)?.with_tag_len(12)?;
//! let t = mac.compute(&nonce, b"data")?;
//! mac.verify(&nonce, b"data", t.as_ref())?;
//! # Ok(()) }
//! ```
//!
//! ## Which algorithm when
//! - [`AesGcm`]: the standard AEAD; fastest; a nonce must never repeat under one key.
//! - [`AesGcmSiv`]: when nonces might repeat (random nonces at high volume, stateless
//!   senders). A repeated nonce only reveals whether two messages were equal.
//! - [`XAes256Gcm`], [`DndkGcm`]: AES-256-GCM with 24-byte nonces that are safe to pick
//!   at random for any number of messages; DNDK-GCM can also commit to the key.
//! - [`Gmac`]: authentication only.
//! - [`hazmat`]: building blocks for experts and for reproducing the papers.
//!
//! ## Safety properties
//! Every default path is constant time (no secret-dependent branch, loop bound or memory
//! index); tags are compared in constant time; key material is zeroized on drop and
//! never printed by `Debug`; failed decryption returns [`Error::AuthenticationFailed`] and
//! zeroes the output. Bad input gets a typed [`Error`], never a panic.
#![cfg_attr(not(test), no_std)]
#![deny(unsafe_op_in_unsafe_fn)]
// Unsafe code only where a module below allows it: the engine's backends and kernels,
// the portable AES's baseline-ISA plane words, the volatile wipes and the ct-check hook.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub(crate) mod aes;
#[cfg(feature = "chunked")]
pub mod chunked;
#[cfg(feature = "compat")]
pub mod compat;
#[cfg(feature = "aead05")]
pub mod compat05;
mod derived;
// `unsafe` is allowed only in the engine's backends and its raw-memory modules (listed in
// engine/mod.rs); the kernels, the interface and the portable engine forbid it.
pub(crate) mod engine;
mod error;
pub(crate) mod field;
mod gcm;
pub mod gcm64;
pub mod hazmat;
mod kdf;
mod mode;
mod secret;
#[cfg(feature = "alloc")]
pub mod selftest;
mod siv;
mod spec;
mod tag;
#[cfg(test)]
mod testing;

pub use aead;
/// RustCrypto `aead` 0.6 types (the `compat` drop-ins, with `aes-gcm`'s and
/// `aes-gcm-siv`'s failure contracts).
#[cfg(feature = "compat")]
pub use compat::aes_gcm::{Aes128Gcm, Aes256Gcm};
#[cfg(feature = "compat")]
pub use compat::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
pub use derived::dndk::DndkGcm;
pub use derived::xaes::XAes256Gcm;
#[cfg(feature = "std")]
pub use engine::cpu_features;
pub use engine::Engine;
pub use error::Error;
#[cfg(feature = "std")]
pub use error::IoError;
#[cfg(feature = "alloc")]
pub use gcm::{AadPrefix, GcmDecryptor, GcmEncryptor, IncrementalGmac};
pub use gcm::{AesGcm, Gmac};
pub use mode::{AeadMode, Limits};
/// `make ct-check`'s negative controls (built only under `--cfg gcmkit_ct_control`).
#[cfg(gcmkit_ct_control)]
#[doc(hidden)]
pub use secret::control::select as ct_control_select;
pub use siv::gcm_siv_2015::{GcmSiv2015, GcmSiv2015Variant};
pub use siv::AesGcmSiv;
pub use tag::{Tag, MAX_TAG_LEN};

/// Limits and fixed sizes of each algorithm.
pub mod limits {
    pub use crate::derived::dndk::COMMITMENT_LEN as DNDK_COMMITMENT_LEN;
    pub use crate::derived::xaes::NONCE_LEN as XAES_NONCE_LEN;
    pub use crate::derived::{MAX_AAD as DERIVED_MAX_AAD, MAX_PLAINTEXT as DERIVED_MAX_PLAINTEXT};
    pub use crate::gcm::{
        MAX_AAD as GCM_MAX_AAD, MAX_IV as GCM_MAX_IV, MAX_PLAINTEXT as GCM_MAX_PLAINTEXT,
        TAG_LENGTHS as GCM_TAG_LENGTHS,
    };
    pub use crate::siv::{
        MAX_LEN as SIV_MAX_LEN, NONCE_LEN as SIV_NONCE_LEN, TAG_LEN as SIV_TAG_LEN,
    };
}

/// The crate version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
