//! Key files, inputs and outputs for `keygen`, `encrypt` and `decrypt`.
//!
//! Outputs go through the gcmkit-fs crate, gcmkit's one file-output layer (its module docs
//! give the whole rule): a regular file is written through a random, exclusive, 0600
//! temporary name next to it and appears only when the whole operation succeeded (never
//! replacing a file that exists, or appeared meanwhile, unless `--force`; a replaced file
//! keeps its owner and mode); FIFOs and character devices are written in place; symlinks
//! only of the caller or root are followed; other users' files, FIFOs and links in sticky
//! shared directories are refused; stdout is streamed. File names in messages are escaped.

use gcmkit_fs::{escaped, Output as FsOutput, Overwrite};
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Exit code for a failed check (authentication, truncation, selftest, vectors).
pub const EXIT_FAILED: u8 = 1;
/// Exit code for bad usage, unreadable input, refused overwrite or an I/O error.
pub const EXIT_USAGE: u8 = 2;
/// Exit code when stdout's reader went away (as a shell reports a process killed by
/// SIGPIPE: 128 + 13). Nothing is printed.
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// A CLI failure: the message (empty: print nothing) and the exit code.
pub struct Failure {
    pub msg: String,
    pub code: u8,
}

pub fn usage(msg: impl Into<String>) -> Failure {
    Failure {
        msg: msg.into(),
        code: EXIT_USAGE,
    }
}

pub fn failed(msg: impl Into<String>) -> Failure {
    Failure {
        msg: msg.into(),
        code: EXIT_FAILED,
    }
}

/// Exit code when a write went past the file size limit (`ulimit -f`): 128 + SIGXFSZ, as
/// a shell reports a process that signal killed (the CLI catches it to remove its
/// temporary file first).
pub const EXIT_FILE_TOO_LARGE: u8 = 128 + 25;

/// An I/O failure: a broken pipe on stdout ends the run quietly with 141, a write past
/// `ulimit -f` with 153 (SIGXFSZ's), anything else is exit 2 with `what` and the error.
pub fn io_failure(what: &str, e: &io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure {
            msg: String::new(),
            code: EXIT_BROKEN_PIPE,
        }
    } else if e.raw_os_error() == Some(libc::EFBIG) {
        Failure {
            msg: format!("{what}: {e}"),
            code: EXIT_FILE_TOO_LARGE,
        }
    } else {
        usage(format!("{what}: {e}"))
    }
}

/// Largest key file read (a key line is 64 hex digits; the rest is comments).
pub const KEY_FILE_MAX: u64 = 4096;

/// Parses a key file's text: exactly one key line of 32 or 64 hex digits; besides it only
/// blank lines and `#` comments. Each mistake gets its own message.
pub fn parse_key(text: &[u8], name: &str) -> Result<zeroize::Zeroizing<Vec<u8>>, Failure> {
    if text.starts_with(b"\xef\xbb\xbf") {
        return Err(usage(format!(
            "key file {name} starts with a UTF-8 byte-order mark; save it without one"
        )));
    }
    let text = std::str::from_utf8(text)
        .map_err(|_| usage(format!("key file {name} is not text (not UTF-8)")))?;
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let line = lines
        .next()
        .ok_or_else(|| usage(format!("key file {name} holds no key")))?;
    if lines.next().is_some() {
        return Err(usage(format!(
            "key file {name} has more than one non-comment line; it must hold only the key \
             (comments start with #)"
        )));
    }
    if let Some((i, c)) = line.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(usage(format!(
            "key file {name}: not hex: {c:?} at position {}",
            i + 1
        )));
    }
    if line.len() % 2 == 1 {
        return Err(usage(format!(
            "key file {name}: odd number of hex digits ({}); a key is 32 or 64 digits",
            line.len()
        )));
    }
    let key = zeroize::Zeroizing::new(hex::decode(line).map_err(|e| usage(e.to_string()))?);
    if key.len() != 16 && key.len() != 32 {
        return Err(usage(format!(
            "key file {name}: {} bytes; expected 16 (Cobblestone-128) or 32 (Cobblestone-256), \
             i.e. 32 or 64 hex digits",
            key.len()
        )));
    }
    Ok(key)
}

/// Reads and parses a key file (at most [`KEY_FILE_MAX`] bytes), warning on stderr when
/// its permissions let group or others read it, as ssh does.
pub fn read_key(path: &Path) -> Result<zeroize::Zeroizing<Vec<u8>>, Failure> {
    let name = escaped(path);
    let f = File::open(path).map_err(|e| usage(format!("cannot read key file {name}: {e}")))?;
    if let Ok(m) = f.metadata() {
        let mode = m.permissions().mode();
        if m.is_file() && mode & 0o077 != 0 {
            crate::say(&format!(
                "gcmkit: warning: key file {name} is readable by others (mode {:o}); \
                 run chmod 600 {name}",
                mode & 0o777
            ));
        }
    }
    let mut text = zeroize::Zeroizing::new(Vec::new());
    f.take(KEY_FILE_MAX + 1)
        .read_to_end(&mut text)
        .map_err(|e| usage(format!("cannot read key file {name}: {e}")))?;
    if text.len() as u64 > KEY_FILE_MAX {
        return Err(usage(format!(
            "key file {name} is larger than {KEY_FILE_MAX} bytes; it must hold only the key"
        )));
    }
    parse_key(&text, &name)
}

/// Whether descriptor `fd` (0, 1 or 2) was open when the program started: a closed stdin
/// or stdout (`<&-`, `>&-`) is an error, not an empty input or a discarded output. Open on
/// anything, `/dev/null` in any mode included (`subprocess.DEVNULL` opens it read-write),
/// counts as open.
pub fn fd_open(fd: i32) -> bool {
    // Recorded before Rust's runtime started (which reopens a closed 0, 1 or 2 on
    // /dev/null, so that afterwards a closed descriptor cannot be told from one the user
    // pointed at /dev/null).
    STD_FDS_AT_EXEC.load(std::sync::atomic::Ordering::Relaxed) & (1 << fd) != 0
}

/// Bit N set: descriptor N (0, 1, 2) was open at exec. Written once by [`record_std_fds`],
/// before `main` and before any other thread exists.
static STD_FDS_AT_EXEC: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0b111);

/// Records which standard descriptors are open at exec, before Rust's runtime starts: an
/// ELF constructor (`.init_array`) runs before the C `main` that starts the runtime.
extern "C" fn record_std_fds() {
    let mut open = 0u8;
    for fd in 0..3 {
        // SAFETY: fcntl(F_GETFD) on a descriptor number only reads the descriptor table;
        // a closed descriptor yields -1 (EBADF) and nothing else happens.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1 {
            open |= 1 << fd;
        }
    }
    STD_FDS_AT_EXEC.store(open, std::sync::atomic::Ordering::Relaxed);
}

#[used]
#[link_section = ".init_array"]
static RECORD_STD_FDS: extern "C" fn() = record_std_fds;

/// Whether `file` is the descriptor stdout was replaced with because it was closed (an
/// output path like `/dev/stdout` that leads there must fail, not write into /dev/null).
fn is_closed_stdout(file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    if fd_open(1) {
        return false;
    }
    let same =
        |a: &std::fs::Metadata, b: &std::fs::Metadata| a.dev() == b.dev() && a.ino() == b.ino();
    match (file.metadata(), std::fs::metadata("/proc/self/fd/1")) {
        (Ok(a), Ok(b)) => same(&a, &b),
        _ => true,
    }
}

/// The input: a file or stdin (`None` or `-`), and its length if known.
pub fn open_input(path: Option<&Path>) -> Result<(Box<dyn Read>, Option<u64>), Failure> {
    match path {
        Some(p) if p != Path::new("-") => {
            let f = File::open(p).map_err(|e| usage(format!("cannot open {}: {e}", escaped(p))))?;
            let len = f.metadata().ok().map(|m| m.len());
            Ok((Box::new(f), len))
        }
        _ => {
            if !fd_open(0) {
                return Err(usage("stdin is closed"));
            }
            Ok((Box::new(io::stdin().lock()), None))
        }
    }
}

/// Where output goes.
pub enum Output {
    /// A path, through the library's output layer.
    Path(FsOutput),
    /// Standard output, streamed.
    Stdout,
}

impl Output {
    /// Opens the destination; `ciphertext` outputs refuse to go to a terminal; `private`
    /// ones (key files) are 0600 whatever they replace.
    pub fn open(
        path: Option<&Path>,
        force: bool,
        ciphertext: bool,
        private: bool,
    ) -> Result<Output, Failure> {
        match path {
            Some(p) if p != Path::new("-") => {
                let policy = if force {
                    Overwrite::Replace
                } else {
                    Overwrite::Never
                };
                let o = if private {
                    FsOutput::create_private(p, policy)
                } else {
                    FsOutput::create(p, policy)
                };
                let mut o = o.map_err(|e| match e.kind() {
                    io::ErrorKind::AlreadyExists if !force => {
                        usage(format!("refusing to overwrite: {e} (use --force)"))
                    }
                    _ => usage(format!("cannot write {e}")),
                })?;
                if o.is_direct() && is_closed_stdout(o.file()) {
                    return Err(usage(format!("{}: stdout is closed", escaped(p))));
                }
                Ok(Output::Path(o))
            }
            _ => {
                if !fd_open(1) {
                    return Err(usage("stdout is closed"));
                }
                if ciphertext && io::stdout().is_terminal() {
                    return Err(usage(
                        "refusing to write ciphertext to a terminal (use -o FILE or a pipe)",
                    ));
                }
                Ok(Output::Stdout)
            }
        }
    }

    /// Whether what is written is seen at once (stdout, a FIFO, a device): then decryption
    /// streams verified chunks; otherwise the output appears only at [`Output::commit`].
    pub fn is_streamed(&self) -> bool {
        match self {
            Output::Path(o) => o.is_direct(),
            Output::Stdout => true,
        }
    }

    /// Moves a finished file into place (no-clobber unless `--force`).
    pub fn commit(self) -> Result<(), Failure> {
        match self {
            Output::Path(o) => o
                .commit()
                .map_err(|e| io_failure("cannot move the output into place", &e)),
            Output::Stdout => io::stdout()
                .flush()
                .map_err(|e| io_failure("cannot write", &e)),
        }
    }

    pub fn writer(&mut self) -> Box<dyn Write + '_> {
        match self {
            Output::Path(o) => Box::new(o.file()),
            Output::Stdout => Box::new(io::stdout().lock()),
        }
    }
}
