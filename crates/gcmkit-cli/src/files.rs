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

/// Reads a key file in the one format of every gcmkit front end (gcmkit-fs's `keyfile`:
/// a line of 32 or 64 hex digits, `#` comment lines), warning on stderr when its
/// permissions let group or others read it, as ssh does.
pub fn read_key(path: &Path) -> Result<zeroize::Zeroizing<Vec<u8>>, Failure> {
    let k = gcmkit_fs::read_key_file(path).map_err(|e| usage(e.to_string()))?;
    if let Some(mode) = k.readable_by_others {
        let name = escaped(path);
        crate::say(&format!(
            "gcmkit: warning: key file {name} is readable by others (mode {mode:o}); \
             run chmod 600 {name}"
        ));
    }
    Ok(k.key)
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
            let meta = f.metadata().ok();
            // A directory opens, and only its first read fails (EISDIR, without a name):
            // refuse it here, by name, before any output is created.
            if meta.as_ref().is_some_and(|m| m.is_dir()) {
                return Err(usage(format!(
                    "cannot read {}: is a directory (give a file, or - for stdin)",
                    escaped(p)
                )));
            }
            let len = meta.map(|m| m.len());
            Ok((
                Box::new(Named {
                    inner: f,
                    name: escaped(p),
                }),
                len,
            ))
        }
        _ => {
            if !fd_open(0) {
                return Err(usage("stdin is closed"));
            }
            Ok((Box::new(io::stdin().lock()), None))
        }
    }
}

/// An input whose read errors name it ("cannot read NAME: ..."), keeping their kind.
struct Named<R> {
    inner: R,
    name: String,
}

impl<R: Read> Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", self.name)))
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
