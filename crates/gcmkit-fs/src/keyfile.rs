//! Key files: the one format every gcmkit front end reads (the CLI's `--key`, Python's
//! `gcmkit.load_key_file` and the fsspec filesystem's `key_file=`), so that a key written
//! by `gcmkit keygen` works everywhere and a file one front end refuses, every one refuses.
//!
//! The format ([`KEY_FILE_FORMAT`]): UTF-8 text holding exactly one key line of 32
//! (Cobblestone-128) or 64 (Cobblestone-256) hex digits, either case; besides it only blank
//! lines and lines starting with `#`; surrounding spaces and a final newline or none are
//! fine; at most [`KEY_FILE_MAX`] bytes. A raw binary key is refused, never guessed at: 32
//! bytes of hex digits would read as either a 128-bit hex key or a 256-bit raw one, and
//! taking the wrong reading encrypts under a key no other front end derives.

use crate::error::escaped;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use zeroize::Zeroizing;

/// Largest key file read, in bytes (a key line is 64 hex digits; the rest is comments).
/// A larger file, or a device that never ends, is refused after this many bytes.
pub const KEY_FILE_MAX: u64 = 4096;

/// The format in one sentence, which every format error ends with.
pub const KEY_FILE_FORMAT: &str =
    "a gcmkit key file is a line of 32 or 64 hex digits, with # comment lines";

/// What is wrong with a key file's contents: one variant per mistake.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyFormatError {
    /// Larger than [`KEY_FILE_MAX`] bytes.
    TooLarge,
    /// Starts with a UTF-8 byte-order mark (some Windows editors add one).
    ByteOrderMark,
    /// Not UTF-8 text: a raw binary key, most likely.
    NotText,
    /// Only blank and comment lines.
    NoKey,
    /// More than one line that is neither blank nor a comment.
    ExtraLines,
    /// The key line holds `found`, not a hex digit, at character `position` (from 1).
    NotHex {
        /// The character that is not a hex digit.
        found: char,
        /// Its position in the key line, from 1.
        position: usize,
    },
    /// An odd number of hex digits.
    OddDigits {
        /// How many hex digits the key line holds.
        digits: usize,
    },
    /// An even number of hex digits, but not 32 or 64.
    WrongLength {
        /// How many hex digits the key line holds.
        digits: usize,
    },
}

impl fmt::Display for KeyFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyFormatError::TooLarge => write!(
                f,
                "is larger than {KEY_FILE_MAX} bytes; it must hold only the key"
            ),
            KeyFormatError::ByteOrderMark => {
                write!(
                    f,
                    "starts with a UTF-8 byte-order mark; save it without one"
                )
            }
            KeyFormatError::NotText => write!(
                f,
                "is not text (not UTF-8): a raw binary key is not read; hex-encode it \
                 (xxd -p -c 64 raw.key)"
            ),
            KeyFormatError::NoKey => write!(f, "holds no key"),
            KeyFormatError::ExtraLines => write!(
                f,
                "has more than one non-comment line; it must hold only the key (comments \
                 start with #)"
            ),
            KeyFormatError::NotHex { found, position } => {
                write!(f, "not hex: {found:?} at position {position}")
            }
            KeyFormatError::OddDigits { digits } => {
                write!(f, "odd number of hex digits ({digits})")
            }
            KeyFormatError::WrongLength { digits } => write!(
                f,
                "{digits} hex digits ({} bytes); expected 32 (Cobblestone-128) or 64 \
                 (Cobblestone-256)",
                digits / 2
            ),
        }?;
        write!(f, "; {KEY_FILE_FORMAT}")
    }
}

impl std::error::Error for KeyFormatError {}

/// Why a key file could not be read: the OS's error, or a [`KeyFormatError`]; both name
/// the file.
#[derive(Debug)]
#[non_exhaustive]
pub enum KeyFileError {
    /// Opening or reading the file failed.
    Io {
        /// The key file.
        path: PathBuf,
        /// The OS's error.
        error: io::Error,
    },
    /// The file was read, and is not a key file.
    Format {
        /// The key file.
        path: PathBuf,
        /// What is wrong with its text.
        problem: KeyFormatError,
    },
}

impl KeyFileError {
    /// The key file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            KeyFileError::Io { path, .. } | KeyFileError::Format { path, .. } => path,
        }
    }
}

impl fmt::Display for KeyFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyFileError::Io { path, error } => {
                write!(f, "cannot read key file {}: {error}", escaped(path))
            }
            KeyFileError::Format { path, problem } => {
                // "key file K: not hex: ..." reads better with a colon than without one.
                let sep = match problem {
                    KeyFormatError::NotHex { .. }
                    | KeyFormatError::OddDigits { .. }
                    | KeyFormatError::WrongLength { .. } => ":",
                    _ => "",
                };
                write!(f, "key file {}{sep} {problem}", escaped(path))
            }
        }
    }
}

impl std::error::Error for KeyFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            KeyFileError::Io { error, .. } => Some(error),
            KeyFileError::Format { problem, .. } => Some(problem),
        }
    }
}

/// A key read from a key file.
#[derive(Debug)]
pub struct KeyFile {
    /// The key: 16 bytes (Cobblestone-128) or 32 (Cobblestone-256); wiped on drop.
    pub key: Zeroizing<Vec<u8>>,
    /// The file's permission bits when a regular file that group or others may read (for
    /// a warning, as ssh gives); `None` otherwise.
    pub readable_by_others: Option<u32>,
}

/// Parses a key file's contents ([`KEY_FILE_FORMAT`]) into the key, 16 or 32 bytes.
///
/// ```
/// use gcmkit_fs::{parse_key, KeyFormatError};
/// let key = parse_key(b"# gcmkit key: Cobblestone-128\n000102030405060708090a0b0c0d0e0f\n")?;
/// assert_eq!(&key[..], &(0u8..16).collect::<Vec<u8>>()[..]);
/// // 32 hex digits without a newline are a 128-bit key, never a raw 32-byte one.
/// assert_eq!(parse_key(b"000102030405060708090a0b0c0d0e0f")?.len(), 16);
/// // Raw binary is refused, and the message names the format.
/// let err = parse_key(&[0xff; 16]).unwrap_err();
/// assert_eq!(err, KeyFormatError::NotText);
/// assert!(err.to_string().contains("a line of 32 or 64 hex digits"));
/// # Ok::<(), KeyFormatError>(())
/// ```
pub fn parse_key(text: &[u8]) -> Result<Zeroizing<Vec<u8>>, KeyFormatError> {
    if text.len() as u64 > KEY_FILE_MAX {
        return Err(KeyFormatError::TooLarge);
    }
    if text.starts_with(b"\xef\xbb\xbf") {
        return Err(KeyFormatError::ByteOrderMark);
    }
    let text = std::str::from_utf8(text).map_err(|_| KeyFormatError::NotText)?;
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let line = lines.next().ok_or(KeyFormatError::NoKey)?;
    if lines.next().is_some() {
        return Err(KeyFormatError::ExtraLines);
    }
    if let Some((i, c)) = line
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_hexdigit())
    {
        return Err(KeyFormatError::NotHex {
            found: c,
            position: i + 1,
        });
    }
    // Only ASCII hex digits from here on: one byte per digit.
    let digits = line.len();
    if digits % 2 == 1 {
        return Err(KeyFormatError::OddDigits { digits });
    }
    if digits != 32 && digits != 64 {
        return Err(KeyFormatError::WrongLength { digits });
    }
    let mut key = Zeroizing::new(vec![0u8; digits / 2]);
    for (byte, pair) in key.iter_mut().zip(line.as_bytes().chunks_exact(2)) {
        *byte = (hex_value(pair[0]) << 4) | hex_value(pair[1]);
    }
    Ok(key)
}

/// The value of an ASCII hex digit (checked by the caller).
fn hex_value(d: u8) -> u8 {
    match d {
        b'0'..=b'9' => d - b'0',
        b'a'..=b'f' => d - b'a' + 10,
        _ => d - b'A' + 10,
    }
}

/// Reads and parses the key file `path` (at most [`KEY_FILE_MAX`] bytes are read, so a
/// device that never ends is refused, not read until memory runs out).
pub fn read_key_file(path: &Path) -> Result<KeyFile, KeyFileError> {
    let io_err = |error| KeyFileError::Io {
        path: path.to_path_buf(),
        error,
    };
    let f = File::open(path).map_err(io_err)?;
    let readable_by_others = f.metadata().ok().and_then(|m| {
        let mode = m.permissions().mode();
        (m.is_file() && mode & 0o077 != 0).then_some(mode & 0o777)
    });
    // Room for the whole read up front: a reallocation would leave a copy of the key in
    // freed memory, out of the wipe's reach.
    let mut text = Zeroizing::new(Vec::with_capacity(KEY_FILE_MAX as usize + 64));
    f.take(KEY_FILE_MAX + 1)
        .read_to_end(&mut text)
        .map_err(io_err)?;
    let key = parse_key(&text).map_err(|problem| KeyFileError::Format {
        path: path.to_path_buf(),
        problem,
    })?;
    Ok(KeyFile {
        key,
        readable_by_others,
    })
}
