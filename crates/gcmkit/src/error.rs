//! The one error type of gcmkit. Each variant names the problem; authentication failure
//! deliberately carries no detail.

use core::fmt;

/// Everything that can go wrong in gcmkit.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[allow(missing_docs)] // fields: `got`/`len` what was given, `expected`/`max`/`min` the rule
pub enum Error {
    /// The key has the wrong length for this algorithm.
    InvalidKeyLength { got: usize, expected: &'static str },
    /// The nonce (IV) has a length this algorithm does not accept.
    InvalidNonceLength { got: usize, expected: &'static str },
    /// The requested or supplied tag length is not allowed.
    InvalidTagLength { got: usize, expected: &'static str },
    /// The plaintext or ciphertext is longer than the algorithm's limit.
    MessageTooLong { len: u64, max: u64 },
    /// The associated data is longer than the algorithm's limit.
    AadTooLong { len: u64, max: u64 },
    /// The input is shorter than a tag, so it cannot be a ciphertext.
    CiphertextTooShort { len: usize, min: usize },
    /// An output buffer has the wrong size.
    BufferSize { got: usize, expected: usize },
    /// A parameter outside its allowed range (the message names it).
    InvalidParameter(&'static str),
    /// The requested engine is not supported by this CPU or build.
    EngineUnavailable(&'static str),
    /// The tag did not verify: the data, AAD, nonce, key or tag is wrong. Any output
    /// buffer has been zeroed.
    AuthenticationFailed,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidKeyLength { got, expected } => {
                write!(f, "invalid key length: {got} bytes (expected {expected})")
            }
            Error::InvalidNonceLength { got, expected } => {
                write!(f, "invalid nonce length: {got} bytes (expected {expected})")
            }
            Error::InvalidTagLength { got, expected } => {
                write!(f, "invalid tag length: {got} bytes (expected {expected})")
            }
            Error::MessageTooLong { len, max } => {
                write!(f, "message too long: {len} bytes (maximum {max})")
            }
            Error::AadTooLong { len, max } => {
                write!(f, "associated data too long: {len} bytes (maximum {max})")
            }
            Error::CiphertextTooShort { len, min } => {
                write!(
                    f,
                    "ciphertext too short: {len} bytes (at least {min} needed for the tag)"
                )
            }
            Error::BufferSize { got, expected } => {
                write!(f, "output buffer has {got} bytes, {expected} needed")
            }
            Error::InvalidParameter(what) => write!(f, "invalid parameter: {what}"),
            Error::EngineUnavailable(what) => write!(f, "engine unavailable: {what}"),
            Error::AuthenticationFailed => write!(f, "authentication failed"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
