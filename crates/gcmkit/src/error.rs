//! The one error type of gcmkit. Each variant names the problem; authentication failure
//! deliberately carries no detail.

use core::fmt;

/// Everything that can go wrong in gcmkit.
///
/// ```
/// use gcmkit::{AeadMode, AesGcm, Error};
/// // Bad input names the problem...
/// match AesGcm::new(&[0u8; 15]) {
///     Err(Error::InvalidKeyLength { got, expected }) => {
///         assert_eq!(got, 15);
///         println!("key of {got} bytes; expected {expected}");
///     }
///     other => panic!("unexpected: {other:?}"),
/// }
/// // ...a failed decryption deliberately says nothing more than that.
/// let gcm = AesGcm::new(&[0u8; 16])?;
/// let ct = gcm.encrypt(&[1u8; 12], b"msg", b"right aad")?;
/// let err = gcm.decrypt(&[1u8; 12], &ct, b"wrong aad").unwrap_err();
/// assert_eq!(err, Error::AuthenticationFailed);
/// assert!(!err.to_string().is_empty());
/// # Ok::<(), Error>(())
/// ```
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
    /// Chunked format: the key commitment does not match, so the key or the context is
    /// wrong, or the input is not a Cobblestone message at all (nothing was decrypted).
    WrongKeyOrContext,
    /// Chunked format: the ciphertext ends early (header, a chunk, a tag or the final
    /// chunk is missing).
    Truncated,
    /// Chunked format: chunk `chunk` failed authentication (modified, reordered, from
    /// another message, or followed by trailing data).
    ModifiedChunk { chunk: u64 },
    /// Chunked format: the input ends in chunk `chunk`, a short chunk (the final chunk's
    /// shape) that failed authentication, so no final chunk verified. A reader cannot
    /// tell a message cut inside a chunk (a truncated download: the usual cause) from one
    /// whose last chunk was modified or extended; either way the message is incomplete.
    EndsInUnverifiedChunk { chunk: u64 },
    /// A stream that failed earlier keeps failing.
    StreamFailed,
    /// An I/O error of an underlying reader, writer or file.
    #[cfg(feature = "std")]
    Io(IoError),
}

/// An `std::io::Error`, shared so that [`Error`] stays `Clone` and comparable (two I/O
/// errors compare equal when their kinds are equal).
///
/// ```
/// use gcmkit::Error;
/// use std::io::{self, ErrorKind};
/// let err = Error::from(io::Error::new(ErrorKind::UnexpectedEof, "short read"));
/// match &err {
///     Error::Io(e) => {
///         assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
///         assert_eq!(e.get_ref().to_string(), "short read");
///     }
///     other => panic!("unexpected: {other:?}"),
/// }
/// // Back into `io::Error` (inside `io::Read`/`io::Write` adapters) it is the original again.
/// assert_eq!(io::Error::from(err).kind(), ErrorKind::UnexpectedEof);
/// ```
#[cfg(feature = "std")]
#[derive(Debug, Clone)]
pub struct IoError(std::sync::Arc<std::io::Error>);

#[cfg(feature = "std")]
impl IoError {
    /// The underlying error.
    pub fn get_ref(&self) -> &std::io::Error {
        &self.0
    }

    /// Its kind.
    pub fn kind(&self) -> std::io::ErrorKind {
        self.0.kind()
    }
}

#[cfg(feature = "std")]
impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(feature = "std")]
impl PartialEq for IoError {
    fn eq(&self, other: &Self) -> bool {
        self.kind() == other.kind()
    }
}
#[cfg(feature = "std")]
impl Eq for IoError {}

#[cfg(feature = "std")]
impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(IoError(std::sync::Arc::new(e)))
    }
}

/// gcmkit errors inside `io::Read`/`io::Write` adapters: I/O errors come back as they
/// were, every other error as `InvalidData` carrying the gcmkit error (recover it with
/// `get_ref().downcast_ref::<gcmkit::Error>()`).
#[cfg(feature = "std")]
impl From<Error> for std::io::Error {
    fn from(e: Error) -> Self {
        match e {
            Error::Io(e) => match std::sync::Arc::try_unwrap(e.0) {
                Ok(e) => e,
                Err(shared) => std::io::Error::new(shared.kind(), std::format!("{shared}")),
            },
            other => std::io::Error::new(std::io::ErrorKind::InvalidData, other),
        }
    }
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
            Error::WrongKeyOrContext => write!(
                f,
                "wrong key or context, or not a gcmkit/Cobblestone file (commitment \
                 mismatch); nothing was decrypted"
            ),
            Error::Truncated => write!(f, "ciphertext is truncated"),
            Error::ModifiedChunk { chunk } => write!(
                f,
                "chunk {chunk} failed authentication (modified, reordered, from another message, or followed by appended data)"
            ),
            Error::EndsInUnverifiedChunk { chunk } => write!(
                f,
                "truncated, or modified at its end: the input ends in chunk {chunk}, which did \
                 not verify, so no final chunk did (a file cut short, or its last chunk \
                 modified or extended)"
            ),
            Error::StreamFailed => write!(f, "stream already failed"),
            #[cfg(feature = "std")]
            Error::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e.get_ref()),
            _ => None,
        }
    }
}
