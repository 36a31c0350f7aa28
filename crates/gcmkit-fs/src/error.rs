//! The error every function of this crate returns: an [`io::Error`] wrapping a
//! [`PathError`] that names the path (escaped) and keeps the OS error number.

use rustix::io::Errno;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// An error about one path: the path as given (or as a followed link led to), what went
/// wrong, and the OS error behind it (for a refusal, the errno the kernel's own rule would
/// give: `EEXIST`, `EACCES`, `EPERM`, `EISDIR`, `ELOOP`).
///
/// ```
/// use gcmkit_fs::{path_error, Output, Overwrite};
/// use std::io::ErrorKind;
/// let dir = std::env::temp_dir().join(format!("gcmkit-doc-patherror-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let dst = dir.join("taken");
/// std::fs::write(&dst, b"")?;
///
/// let err = Output::create(&dst, Overwrite::Never).unwrap_err();
/// let pe = path_error(&err).expect("errors of gcmkit::fs carry a PathError");
/// assert_eq!(pe.path(), dst);
/// let errno = pe.raw_os_error().expect("an OS error number");
/// assert_eq!(std::io::Error::from_raw_os_error(errno).kind(), ErrorKind::AlreadyExists);
/// println!("{pe}: {}", pe.what());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct PathError {
    path: PathBuf,
    what: String,
    os: io::Error,
}

impl PathError {
    /// The path the error is about.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The OS error number (`errno`).
    pub fn raw_os_error(&self) -> Option<i32> {
        self.os.raw_os_error()
    }

    /// What went wrong, without the path.
    pub fn what(&self) -> &str {
        &self.what
    }
}

impl core::fmt::Display for PathError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", escaped(&self.path), self.what)
    }
}

impl std::error::Error for PathError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.os)
    }
}

/// The [`PathError`] inside an error this module returned, if it is one.
pub fn path_error(e: &io::Error) -> Option<&PathError> {
    e.get_ref().and_then(|i| i.downcast_ref::<PathError>())
}

/// An OS failure about `path`: "`what`: the OS's message".
pub(crate) fn os_error(path: &Path, what: &str, os: impl Into<io::Error>) -> io::Error {
    let os = os.into();
    let what = if what.is_empty() {
        strip_os_suffix(&os)
    } else {
        format!("{what}: {}", strip_os_suffix(&os))
    };
    io::Error::new(
        os.kind(),
        PathError {
            path: path.to_path_buf(),
            what,
            os,
        },
    )
}

/// A refusal of `path` by this module's rules, with the errno the kernel's rule would give.
pub(crate) fn refused(path: &Path, errno: Errno, what: impl Into<String>) -> io::Error {
    let os = io::Error::from(errno);
    io::Error::new(
        os.kind(),
        PathError {
            path: path.to_path_buf(),
            what: what.into(),
            os,
        },
    )
}

/// "No such file or directory" without std's " (os error 2)".
fn strip_os_suffix(e: &io::Error) -> String {
    let s = format!("{e}");
    match s.rfind(" (os error ") {
        Some(i) => s[..i].into(),
        None => s,
    }
}

/// `path` for messages: control characters and bytes that are not UTF-8 escaped, so a
/// file name cannot move the cursor or recolour a terminal.
pub fn escaped(path: &Path) -> String {
    let mut s = String::new();
    for chunk in path.as_os_str().as_bytes().utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                s.extend(c.escape_default());
            } else {
                s.push(c);
            }
        }
        for b in chunk.invalid() {
            s.push_str(&format!("\\x{b:02x}"));
        }
    }
    s
}
