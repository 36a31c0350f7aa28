//! Key files, inputs and outputs for `keygen`, `encrypt` and `decrypt`.
//!
//! Outputs go through `gcmkit::fs`, the library's one file-output layer: a regular file
//! is written through a random, exclusive, 0600 temporary name next to it and appears only
//! when the whole operation succeeded (never replacing a file that exists, or appeared
//! meanwhile, unless `--force`); FIFOs and character devices are written in place; stdout
//! is streamed.

use gcmkit::fs::{Output as FsOutput, Overwrite};
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

/// An I/O failure: a broken pipe on stdout ends the run quietly with 141, anything else
/// is exit 2 with `what` and the error.
pub fn io_failure(what: &str, e: &io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure {
            msg: String::new(),
            code: EXIT_BROKEN_PIPE,
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
    let name = path.display().to_string();
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
/// or stdout (`<&-`, `>&-`) is an error, not an empty input or a discarded output.
fn fd_open(fd: i32) -> bool {
    STD_FDS_OPEN
        .get()
        .map_or_else(|| fd_open_now(fd), |open| open[fd as usize])
}

/// Whether stdin, stdout and stderr were open at start, recorded by [`record_std_fds`].
static STD_FDS_OPEN: std::sync::OnceLock<[bool; 3]> = std::sync::OnceLock::new();

/// Records which standard descriptors are open; call first thing in `main`, before any
/// file is opened (a file opened later would take a closed descriptor's number).
pub fn record_std_fds() {
    let _ = STD_FDS_OPEN.set([fd_open_now(0), fd_open_now(1), fd_open_now(2)]);
}

/// Rust's runtime reopens a closed 0, 1 or 2 as `/dev/null` read-write before `main`, so
/// a closed descriptor shows as `/dev/null` opened O_RDWR (a shell's `</dev/null` is
/// O_RDONLY, `>/dev/null` O_WRONLY). Read from /proc without unsafe code; where /proc is
/// missing, the descriptor counts as open.
fn fd_open_now(fd: i32) -> bool {
    let Ok(target) = std::fs::read_link(format!("/proc/self/fd/{fd}")) else {
        return Path::new(&format!("/dev/fd/{fd}"))
            .symlink_metadata()
            .is_ok();
    };
    if target != Path::new("/dev/null") {
        return true;
    }
    let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")).unwrap_or_default();
    let flags = info
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|v| u32::from_str_radix(v.trim(), 8).ok());
    // O_ACCMODE = 3, O_RDWR = 2.
    flags.is_none_or(|f| f & 3 != 2)
}

/// The input: a file or stdin (`None` or `-`), and its length if known.
pub fn open_input(path: Option<&Path>) -> Result<(Box<dyn Read>, Option<u64>), Failure> {
    match path {
        Some(p) if p != Path::new("-") => {
            let f =
                File::open(p).map_err(|e| usage(format!("cannot open {}: {e}", p.display())))?;
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
    /// Opens the destination; `ciphertext` outputs refuse to go to a terminal.
    pub fn open(path: Option<&Path>, force: bool, ciphertext: bool) -> Result<Output, Failure> {
        match path {
            Some(p) if p != Path::new("-") => {
                let policy = if force {
                    Overwrite::Replace
                } else {
                    Overwrite::Never
                };
                FsOutput::create(p, policy)
                    .map(Output::Path)
                    .map_err(|e| match e.kind() {
                        io::ErrorKind::AlreadyExists => {
                            usage(format!("refusing to overwrite: {e} (use --force)"))
                        }
                        _ => usage(format!("cannot write {}: {e}", p.display())),
                    })
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
