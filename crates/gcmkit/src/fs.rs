//! The one file-output layer of gcmkit, used by the library's file functions, the CLI and
//! the Python package. Output files hold data users cannot get back, and the directories
//! they go to may be shared with other users (`/tmp`), so one rule decides every output:
//!
//! - The destination's directory is opened once, walked one component at a time without
//!   following links (a link on the way gets the symlink rule below); every later step (the probe, the
//!   temporary file, the rename, the cleanup) works in the directory that descriptor holds,
//!   so swapping a directory on the path mid-run can neither redirect nor strand anything.
//! - The final name is opened once, without following a symlink (`O_PATH | O_NOFOLLOW`: no
//!   side effect, no blocking, not even a device's open), and what that descriptor is
//!   (`fstat`) decides. A FIFO or character device is then written through that same
//!   descriptor (reopened by `/proc/self/fd`), so the thing written is the thing checked,
//!   whatever is swapped in at that name meanwhile.
//! - A regular-file destination is written through a temporary file in that directory with
//!   a random name, created exclusively (`O_EXCL | O_NOFOLLOW`) with mode 0600, and moved
//!   into place only by [`Output::commit`]: with [`Overwrite::Never`] by a no-clobber
//!   rename (`renameat2(RENAME_NOREPLACE)`, or `link` + `unlink` where the filesystem lacks
//!   it), so a file that appeared meanwhile is never replaced; with [`Overwrite::Replace`] by
//!   an atomic rename over it.
//! - A replaced file keeps its owner, group and permission bits (set-id bits dropped):
//!   root gives the new file the old one's owner; another user may replace only their own
//!   files (the new file would otherwise change hands) and is refused otherwise.
//!   [`Output::create_private`] (key files) makes the result 0600 whatever it replaces.
//! - Shared directories (sticky, and group- or world-writable, like `/tmp`): an existing
//!   regular file, FIFO or device there that belongs to neither the caller nor the
//!   directory's owner is refused, as the kernel's `protected_regular=2` and
//!   `protected_fifos=2` intend, whether or not they are on.
//! - Symlinks, at the final name or anywhere on the path, are followed only when they
//!   belong to the caller or to root (so `/dev/stdout` and `/dev/fd/N` work), never another
//!   user's, in any directory (stricter than `protected_symlinks`). A followed link to a FIFO or device is written in place; to a
//!   regular file the same rules apply to the target in its own directory (replaced only
//!   with [`Overwrite::Replace`]; the link stays); at most [`MAX_LINKS`] links deep.
//! - Directories, sockets and block devices are refused.
//! - An `Output` dropped without `commit` removes its temporary file; every temporary file
//!   of the process is listed in a registry that [`remove_temp_files`] empties, so a
//!   signal handler (the CLI's, Python's) can clean up before the process dies.
//!
//! Errors name the path (escaped: see [`escaped`]) and keep the OS error number: each is an
//! [`io::Error`] wrapping a [`PathError`].
//!
//! Linux only (`O_PATH`, `renameat2`, `/proc/self/fd`).

use rustix::fs::{AtFlags, FileType, Mode, OFlags, RenameFlags, Stat};
use rustix::io::Errno;
use std::boxed::Box;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::{Arc, Mutex};
use std::vec::Vec;

/// Whether an existing destination may be replaced.
///
/// ```
/// use gcmkit::fs::{Output, Overwrite};
/// use std::io::{ErrorKind, Write};
/// let dir = std::env::temp_dir().join(format!("gcmkit-doc-overwrite-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let dst = dir.join("existing.txt");
/// std::fs::write(&dst, b"old")?;
///
/// // `Never` refuses an existing destination...
/// let err = Output::create(&dst, Overwrite::Never).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::AlreadyExists);
///
/// // ...`Replace` swaps it atomically at commit.
/// let mut out = Output::create(&dst, Overwrite::Replace)?;
/// out.file().write_all(b"new")?;
/// assert_eq!(std::fs::read(&dst)?, b"old"); // untouched until commit
/// out.commit()?;
/// assert_eq!(std::fs::read(&dst)?, b"new");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overwrite {
    /// Fail if the destination exists, at the start and again at the final step.
    Never,
    /// Replace an existing regular file (atomically, at the final step).
    Replace,
}

/// How many symlinks are followed from the given name to the destination.
pub const MAX_LINKS: usize = 8;

/// An error about one path: the path as given (or as a followed link led to), what went
/// wrong, and the OS error behind it (for a refusal, the errno the kernel's own rule would
/// give: `EEXIST`, `EACCES`, `EPERM`, `EISDIR`, `ELOOP`).
///
/// ```
/// use gcmkit::fs::{path_error, Output, Overwrite};
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
        std::format!("{what}: {}", strip_os_suffix(&os))
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
fn refused(path: &Path, errno: Errno, what: impl Into<String>) -> io::Error {
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
    let s = std::format!("{e}");
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
            s.push_str(&std::format!("\\x{b:02x}"));
        }
    }
    s
}

/// An output being written: [`Output::file`] to write, then [`Output::commit`].
///
/// ```
/// use gcmkit::fs::{Output, Overwrite};
/// use std::io::Write;
/// let dir = std::env::temp_dir().join(format!("gcmkit-doc-output-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let dst = dir.join("message.bin");
///
/// let mut out = Output::create(&dst, Overwrite::Never)?;
/// assert!(!out.is_direct()); // a regular file: written aside, renamed at commit
/// out.file().write_all(b"sealed bytes")?;
/// assert!(!dst.exists());
/// out.commit()?;
/// assert_eq!(std::fs::read(&dst)?, b"sealed bytes");
///
/// // Dropped without `commit`: nothing appears and the temporary file is removed.
/// let other = dir.join("abandoned.bin");
/// let mut out = Output::create(&other, Overwrite::Never)?;
/// out.file().write_all(b"half written")?;
/// drop(out);
/// assert!(!other.exists());
/// assert_eq!(std::fs::read_dir(&dir)?.count(), 1);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Output {
    file: File,
    kind: Kind,
    /// Set by `commit`: the temporary name is gone, nothing for `Drop` to remove.
    done: bool,
}

#[derive(Debug)]
enum Kind {
    /// A temporary file that becomes the destination at commit.
    Atomic(Box<Atomic>),
    /// A FIFO or character device, written in place.
    Direct,
}

#[derive(Debug)]
struct Atomic {
    /// The temporary file's name in `dir`.
    tmp: Temp,
    /// The destination's name in `dir`, and its path for messages.
    name: OsString,
    dst: PathBuf,
    overwrite: Overwrite,
    /// Owner, group and permission bits the committed file gets (a replaced file's).
    keep: Option<Keep>,
}

/// A temporary file: the directory descriptor it was created in and its name there.
#[derive(Clone, Debug)]
struct Temp {
    dir: Arc<OwnedFd>,
    name: OsString,
}

impl Temp {
    fn remove(&self) {
        let _ = rustix::fs::unlinkat(&*self.dir, self.name.as_os_str(), AtFlags::empty());
    }

    fn is(&self, other: &Temp) -> bool {
        Arc::ptr_eq(&self.dir, &other.dir) && self.name == other.name
    }
}

#[derive(Clone, Copy, Debug)]
struct Keep {
    uid: u32,
    gid: u32,
    mode: u32,
}

/// Longest file name most filesystems take (bytes).
const NAME_MAX: usize = 255;

/// The process's temporary files not yet committed or removed.
static PENDING: Mutex<Vec<Temp>> = Mutex::new(Vec::new());

fn pending() -> std::sync::MutexGuard<'static, Vec<Temp>> {
    // A panic while holding the lock cannot corrupt a Vec of names: keep using it.
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every temporary file this process has open through [`Output`] (for signal
/// handlers: call it, then exit). Returns how many were removed.
pub fn remove_temp_files() -> usize {
    let mut p = pending();
    let n = p.len();
    for t in p.drain(..) {
        t.remove();
    }
    n
}

fn forget_pending(tmp: &Temp) {
    pending().retain(|p| !p.is(tmp));
}

/// `.NAME.RANDOM.tmp`, NAME shortened so the whole stays within NAME_MAX.
fn temp_name(name: &OsStr) -> io::Result<OsString> {
    let mut rnd = [0u8; 8];
    getrandom::fill(&mut rnd)
        .map_err(|e| io::Error::other(std::format!("no system randomness: {e:?}")))?;
    let suffix: String = rnd.iter().map(|b| std::format!("{b:02x}")).collect();
    let name = name.as_bytes();
    let room = NAME_MAX - (1 + 1 + suffix.len() + 4);
    let mut t = Vec::with_capacity(NAME_MAX);
    t.push(b'.');
    t.extend_from_slice(&name[..name.len().min(room)]);
    t.push(b'.');
    t.extend_from_slice(suffix.as_bytes());
    t.extend_from_slice(b".tmp");
    Ok(OsString::from_vec(t))
}

/// The destination's directory, opened once, and what the rules need to know of it.
struct Dir {
    fd: Arc<OwnedFd>,
    path: PathBuf,
    uid: u32,
    /// Sticky and group- or world-writable (`/tmp`): others may add names here.
    shared: bool,
}

impl Dir {
    fn open(dst: &Path) -> io::Result<Dir> {
        let path = match dst.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let fd = walk(&path).map_err(|e| match e {
            Walk::Os(e) => os_error(dst, "cannot open its directory", e),
            Walk::ForeignLink(name, uid) => refused(
                dst,
                Errno::ACCESS,
                std::format!(
                    "{} on its path is a symlink of uid {uid}; gcmkit follows only your own \
                     or root's",
                    escaped(Path::new(&name))
                ),
            ),
        })?;
        let st = rustix::fs::fstat(&fd).map_err(|e| os_error(dst, "", e))?;
        Ok(Dir {
            fd: Arc::new(fd),
            path,
            uid: st.st_uid,
            shared: st.st_mode & 0o1000 != 0 && st.st_mode & 0o022 != 0,
        })
    }

    /// Whether an entry owned by `uid` may be used here: anywhere but in a shared
    /// directory, only the caller's or the directory owner's (the kernel's protected_*).
    fn trusts(&self, uid: u32) -> bool {
        !self.shared || uid == euid() || uid == self.uid
    }
}

enum Walk {
    Os(Errno),
    /// A symlink on the way (its name) belongs to this uid, not the caller nor root.
    ForeignLink(OsString, u32),
}

impl From<Errno> for Walk {
    fn from(e: Errno) -> Walk {
        Walk::Os(e)
    }
}

/// Opens the directory `path` one component at a time, each without following a link
/// (`O_PATH | O_NOFOLLOW`), so that a symlink anywhere on the way is followed under the
/// same rule as the final name: only the caller's or root's, at most [`MAX_LINKS`] in all
/// (the kernel's protected_symlinks would check only sticky directories, and only where on).
fn walk(path: &Path) -> Result<OwnedFd, Walk> {
    use std::collections::VecDeque;
    use std::path::Component;
    let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    // Where the walk is: the root (not opened: a name under it is opened as "/name", which
    // also keeps qemu-user's sysroot remapping of "/" out of the way) or a directory.
    enum Here {
        Root,
        Dir(OwnedFd),
    }
    let mut here = if path.is_absolute() {
        Here::Root
    } else {
        Here::Dir(rustix::fs::openat(
            rustix::fs::CWD,
            ".",
            flags | OFlags::DIRECTORY,
            Mode::empty(),
        )?)
    };
    let mut todo: VecDeque<OsString> = VecDeque::new();
    let push_front = |todo: &mut VecDeque<OsString>, p: &Path| {
        let parts: Vec<OsString> = p
            .components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(n.to_os_string()),
                Component::ParentDir => Some(OsString::from("..")),
                _ => None,
            })
            .collect();
        for c in parts.into_iter().rev() {
            todo.push_front(c);
        }
    };
    push_front(&mut todo, path);
    let mut links = 0;
    while let Some(name) = todo.pop_front() {
        let next = match &here {
            Here::Root if name == ".." => continue,
            Here::Root => {
                let mut abs = OsString::from("/");
                abs.push(&name);
                rustix::fs::openat(rustix::fs::CWD, abs.as_os_str(), flags, Mode::empty())?
            }
            Here::Dir(at) => rustix::fs::openat(at, name.as_os_str(), flags, Mode::empty())?,
        };
        let st = rustix::fs::fstat(&next)?;
        match FileType::from_raw_mode(st.st_mode) {
            FileType::Directory => here = Here::Dir(next),
            FileType::Symlink => {
                if st.st_uid != euid() && st.st_uid != 0 {
                    return Err(Walk::ForeignLink(name, st.st_uid));
                }
                links += 1;
                if links > MAX_LINKS {
                    return Err(Walk::Os(Errno::LOOP));
                }
                let to = rustix::fs::readlinkat(&next, "", Vec::new())?;
                let to = PathBuf::from(OsString::from_vec(to.into_bytes()));
                if to.is_absolute() {
                    here = Here::Root;
                }
                push_front(&mut todo, &to);
            }
            _ => return Err(Walk::Os(Errno::NOTDIR)),
        }
    }
    match here {
        Here::Dir(fd) => Ok(fd),
        Here::Root => Ok(rustix::fs::openat(
            rustix::fs::CWD,
            "/",
            flags | OFlags::DIRECTORY,
            Mode::empty(),
        )?),
    }
}

fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

fn egid() -> u32 {
    rustix::process::getegid().as_raw()
}

/// Runs the test hook set between the probe and the reopen of a FIFO or device (where a
/// swap at the name must make no difference).
fn between_probe_and_open() {
    #[cfg(test)]
    tests::BETWEEN_PROBE_AND_OPEN.with(|h| {
        if let Some(f) = h.borrow_mut().as_mut() {
            f()
        }
    });
}

/// What an open that a signal interrupted (`EINTR`) does before it is tried again: a FIFO's
/// open waits for the other end, and a caller that runs signal handlers (Python's) must get
/// to run them there; an error it returns ends the open with that error. [`Output::create`]
/// and [`open_source`]'s plain form retry at once, as `std` does.
pub type OnInterrupt<'a> = &'a mut dyn FnMut() -> io::Result<()>;

/// Retries `open` while a signal interrupts it, calling `on_interrupt` before each retry;
/// the OS's own error goes through `named`, the hook's is returned as it is.
fn open_retrying(
    on_interrupt: OnInterrupt<'_>,
    mut open: impl FnMut() -> rustix::io::Result<OwnedFd>,
    named: impl FnOnce(Errno) -> io::Error,
) -> io::Result<File> {
    loop {
        match open() {
            Err(Errno::INTR) => on_interrupt()?,
            Err(e) => return Err(named(e)),
            Ok(fd) => return Ok(File::from(fd)),
        }
    }
}

/// Opens `src` for reading (close-on-exec, never as a controlling terminal). An open that
/// blocks (a FIFO without a writer) and is interrupted by a signal calls `on_interrupt`
/// before it is retried; its error, if any, is returned. Errors are the OS's, unnamed (the
/// caller names the file).
pub fn open_source(src: &Path, on_interrupt: OnInterrupt<'_>) -> io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::NOCTTY | OFlags::CLOEXEC;
    let open = || rustix::fs::open(src, flags, Mode::empty());
    open_retrying(on_interrupt, open, io::Error::from)
}

/// Opens for writing the very file `fd` (an `O_PATH` descriptor) refers to; a FIFO's open
/// waits for a reader, `on_interrupt` run at each signal.
fn reopen_for_writing(fd: &OwnedFd, dst: &Path, on_interrupt: OnInterrupt<'_>) -> io::Result<File> {
    let path = std::format!("/proc/self/fd/{}", fd.as_raw_fd());
    let flags = OFlags::WRONLY | OFlags::NOCTTY | OFlags::CLOEXEC;
    let open = || rustix::fs::open(path.as_str(), flags, Mode::empty());
    open_retrying(on_interrupt, open, |e| {
        os_error(dst, "cannot open for writing", e)
    })
}

impl Output {
    /// Prepares `dst` for writing under the rules in the module docs.
    pub fn create(dst: &Path, overwrite: Overwrite) -> io::Result<Output> {
        Self::open(dst, overwrite, false, 0, &mut || Ok(()))
    }

    /// As [`Output::create`], with `on_interrupt` run whenever a signal interrupts the open
    /// of a FIFO waiting for its reader (see [`OnInterrupt`]).
    pub fn create_interruptible(
        dst: &Path,
        overwrite: Overwrite,
        on_interrupt: OnInterrupt<'_>,
    ) -> io::Result<Output> {
        Self::open(dst, overwrite, false, 0, on_interrupt)
    }

    /// As [`Output::create`], but the committed file is 0600 whatever it replaces (for
    /// secrets such as key files).
    pub fn create_private(dst: &Path, overwrite: Overwrite) -> io::Result<Output> {
        Self::open(dst, overwrite, true, 0, &mut || Ok(()))
    }

    fn open(
        dst: &Path,
        overwrite: Overwrite,
        private: bool,
        links: usize,
        on_interrupt: OnInterrupt<'_>,
    ) -> io::Result<Output> {
        let Some(name) = dst.file_name() else {
            return Err(refused(dst, Errno::ISDIR, "not a file name (a directory?)"));
        };
        let dir = Dir::open(dst)?;
        let probe = rustix::fs::openat(
            &*dir.fd,
            name,
            OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        );
        let fd = match probe {
            Err(Errno::NOENT) if links > 0 => {
                return Err(refused(
                    dst,
                    Errno::EXIST,
                    "a symlink leads here and nothing is here",
                ))
            }
            Err(Errno::NOENT) => return Self::atomic(dir, name, dst, overwrite, None),
            Err(e) => return Err(os_error(dst, "", e)),
            Ok(fd) => fd,
        };
        let st = rustix::fs::fstat(&fd).map_err(|e| os_error(dst, "", e))?;
        match FileType::from_raw_mode(st.st_mode) {
            FileType::RegularFile => {
                let keep = check_replace(&dir, &st, dst, overwrite, private)?;
                Self::atomic(dir, name, dst, overwrite, Some(keep))
            }
            FileType::Fifo | FileType::CharacterDevice => {
                if !dir.trusts(st.st_uid) {
                    return Err(refused(
                        dst,
                        Errno::ACCESS,
                        std::format!(
                            "a FIFO or device of uid {} in a shared sticky directory; not \
                             written (as protected_fifos)",
                            st.st_uid
                        ),
                    ));
                }
                between_probe_and_open();
                Self::direct(reopen_for_writing(&fd, dst, on_interrupt)?)
            }
            FileType::Symlink => Self::through_link(
                &dir,
                name,
                &fd,
                &st,
                dst,
                overwrite,
                private,
                links,
                on_interrupt,
            ),
            FileType::Directory => Err(refused(dst, Errno::ISDIR, "is a directory")),
            _ => Err(refused(
                dst,
                Errno::INVAL,
                "is not a regular file, FIFO or character device",
            )),
        }
    }

    /// The symlink `link` (an `O_PATH | O_NOFOLLOW` descriptor, `st` its status) at `name`.
    #[allow(clippy::too_many_arguments)]
    fn through_link(
        dir: &Dir,
        name: &OsStr,
        link: &OwnedFd,
        st: &Stat,
        dst: &Path,
        overwrite: Overwrite,
        private: bool,
        links: usize,
        on_interrupt: OnInterrupt<'_>,
    ) -> io::Result<Output> {
        if st.st_uid != euid() && st.st_uid != 0 {
            return Err(refused(
                dst,
                Errno::ACCESS,
                std::format!(
                    "is a symlink of uid {}; gcmkit follows only your own or root's",
                    st.st_uid
                ),
            ));
        }
        if links >= MAX_LINKS {
            return Err(refused(dst, Errno::LOOP, "too many levels of symlinks"));
        }
        // What the link leads to now; for a FIFO or device that descriptor is written. This
        // opens the name again: in a sticky directory only the link's owner (the caller or
        // root) or the directory's can have swapped it since the probe; a directory where
        // others may rename entries without the sticky bit protects no name at all.
        let target = rustix::fs::openat(
            &*dir.fd,
            name,
            OFlags::PATH | OFlags::CLOEXEC,
            Mode::empty(),
        );
        let target = match target {
            Err(Errno::NOENT) => {
                return Err(refused(
                    dst,
                    Errno::EXIST,
                    "is a symlink to nothing (dangling)",
                ))
            }
            Err(e) => return Err(os_error(dst, "", e)),
            Ok(t) => t,
        };
        let tst = rustix::fs::fstat(&target).map_err(|e| os_error(dst, "", e))?;
        match FileType::from_raw_mode(tst.st_mode) {
            FileType::Fifo | FileType::CharacterDevice => {
                between_probe_and_open();
                Self::direct(reopen_for_writing(&target, dst, on_interrupt)?)
            }
            FileType::RegularFile => {
                // The link's own text (read from the checked link itself), resolved where
                // the link sits; the target then gets every rule in its own directory.
                let to = rustix::fs::readlinkat(link, "", Vec::new())
                    .map_err(|e| os_error(dst, "cannot read the symlink", e))?;
                let to = PathBuf::from(OsString::from_vec(to.into_bytes()));
                Self::open(
                    &dir.path.join(to),
                    overwrite,
                    private,
                    links + 1,
                    on_interrupt,
                )
            }
            FileType::Directory => Err(refused(dst, Errno::ISDIR, "is a symlink to a directory")),
            _ => Err(refused(
                dst,
                Errno::INVAL,
                "is a symlink to something not a regular file, FIFO or character device",
            )),
        }
    }

    fn direct(file: File) -> io::Result<Output> {
        Ok(Output {
            file,
            kind: Kind::Direct,
            done: false,
        })
    }

    fn atomic(
        dir: Dir,
        name: &OsStr,
        dst: &Path,
        overwrite: Overwrite,
        keep: Option<Keep>,
    ) -> io::Result<Output> {
        let tmp = Temp {
            dir: dir.fd,
            name: temp_name(name)?,
        };
        // Held across the creation, so a signal handler's `remove_temp_files` either runs
        // before the file exists or sees it registered.
        let mut registry = pending();
        let fd = rustix::fs::openat(
            &*tmp.dir,
            tmp.name.as_os_str(),
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )
        .map_err(|e| os_error(dst, "cannot create a temporary file next to it", e))?;
        registry.push(tmp.clone());
        drop(registry);
        Ok(Output {
            file: File::from(fd),
            kind: Kind::Atomic(Box::new(Atomic {
                tmp,
                name: name.to_os_string(),
                dst: dst.to_path_buf(),
                overwrite,
                keep,
            })),
            done: false,
        })
    }

    /// Whether the output is written in place (a FIFO or device), so that what is written
    /// is seen at once; otherwise it appears only at [`Output::commit`].
    pub fn is_direct(&self) -> bool {
        matches!(self.kind, Kind::Direct)
    }

    /// The file to write.
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// Moves the finished output into place (no-clobber unless [`Overwrite::Replace`]),
    /// with the owner, group and permission bits of the file it replaces. On failure the
    /// temporary file is removed and the destination is as it was.
    pub fn commit(mut self) -> io::Result<()> {
        self.file.flush()?;
        let Kind::Atomic(a) = &self.kind else {
            return Ok(());
        };
        let r = a
            .keep
            .map_or(Ok(()), |k| keep(&self.file, k, &a.dst))
            .and_then(|()| a.rename());
        if r.is_err() {
            a.tmp.remove();
        }
        forget_pending(&a.tmp);
        self.done = true;
        r
    }
}

/// Whether the existing regular file `st` at `dst` may be replaced, and what the new file
/// keeps of it.
fn check_replace(
    dir: &Dir,
    st: &Stat,
    dst: &Path,
    overwrite: Overwrite,
    private: bool,
) -> io::Result<Keep> {
    if overwrite == Overwrite::Never {
        return Err(refused(dst, Errno::EXIST, "exists"));
    }
    if !dir.trusts(st.st_uid) {
        return Err(refused(
            dst,
            Errno::ACCESS,
            std::format!(
                "belongs to uid {} and sits in a shared sticky directory; not replaced (as \
                 protected_regular)",
                st.st_uid
            ),
        ));
    }
    if st.st_uid != euid() && euid() != 0 {
        return Err(refused(
            dst,
            Errno::PERM,
            std::format!(
                "belongs to uid {}; replacing it would make the file yours; not replaced",
                st.st_uid
            ),
        ));
    }
    Ok(Keep {
        uid: st.st_uid,
        gid: st.st_gid,
        mode: if private { 0o600 } else { st.st_mode & 0o777 },
    })
}

/// Gives the finished temporary file the replaced file's owner, group and mode.
fn keep(file: &File, k: Keep, dst: &Path) -> io::Result<()> {
    if k.uid != euid() || k.gid != egid() {
        rustix::fs::fchown(
            file,
            Some(rustix::fs::Uid::from_raw(k.uid)),
            Some(rustix::fs::Gid::from_raw(k.gid)),
        )
        .map_err(|e| {
            os_error(
                dst,
                "cannot keep the replaced file's owner and group; not replaced",
                e,
            )
        })?;
    }
    rustix::fs::fchmod(file, Mode::from_raw_mode(k.mode))
        .map_err(|e| os_error(dst, "cannot keep the replaced file's mode; not replaced", e))
}

impl Atomic {
    fn rename(&self) -> io::Result<()> {
        let (dir, tmp, name) = (
            &*self.tmp.dir,
            self.tmp.name.as_os_str(),
            self.name.as_os_str(),
        );
        let r = match self.overwrite {
            Overwrite::Replace => rustix::fs::renameat(dir, tmp, dir, name),
            Overwrite::Never => {
                match rustix::fs::renameat_with(dir, tmp, dir, name, RenameFlags::NOREPLACE) {
                    // A filesystem without RENAME_NOREPLACE: link(2) fails with EEXIST too.
                    Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
                        rustix::fs::linkat(dir, tmp, dir, name, AtFlags::empty())
                            .map(|()| self.tmp.remove())
                    }
                    r => r,
                }
            }
        };
        r.map_err(|e| match e {
            Errno::EXIST => refused(
                &self.dst,
                Errno::EXIST,
                "appeared while writing; not replaced",
            ),
            e => os_error(&self.dst, "cannot move the output into place", e),
        })
    }
}

/// Writes go to the output file (so an `Output` can sit inside a `BufWriter` or an
/// encryptor, and be taken back out to [`Output::commit`]).
impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Kind::Atomic(a) = &self.kind {
            if !self.done {
                a.tmp.remove();
                forget_pending(&a.tmp);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};

    /// `remove_temp_files` empties the process-wide registry: the tests take turns.
    static SERIAL: Mutex<()> = Mutex::new(());

    std::thread_local! {
        /// Run between the probe of a FIFO or device and its reopen for writing: where an
        /// attacker's swap at the name would have to land.
        pub(super) static BETWEEN_PROBE_AND_OPEN: core::cell::RefCell<Option<Box<dyn FnMut()>>> =
            const { core::cell::RefCell::new(None) };
    }

    fn mkfifo(p: &Path) {
        rustix::fs::mknodat(
            rustix::fs::CWD,
            p,
            FileType::Fifo,
            Mode::from_raw_mode(0o666),
            0,
        )
        .unwrap();
    }

    /// The attacker's end of a FIFO: open read-write and non-blocking, so writers never
    /// block and what they wrote can be drained.
    fn fifo_reader(p: &Path) -> File {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(OFlags::NONBLOCK.bits() as i32)
            .open(p)
            .unwrap()
    }

    fn drain(f: &mut File) -> Vec<u8> {
        let mut v = Vec::new();
        let mut b = [0u8; 4096];
        loop {
            match f.read(&mut b) {
                Ok(0) => return v,
                Ok(n) => v.extend_from_slice(&b[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return v,
                Err(e) => panic!("{e}"),
            }
        }
    }

    /// The attacker of these tests: `nobody`. Only root can give files away: without
    /// root the tests that need another user's files say so and skip that part.
    const NOBODY: u32 = 65534;

    fn root() -> bool {
        if euid() != 0 {
            std::println!("SKIPPED (part): needs root to own files as uid {NOBODY}");
        }
        euid() == 0
    }

    fn give(p: &Path, uid: u32) {
        std::os::unix::fs::lchown(p, Some(uid), Some(uid)).unwrap();
    }

    /// A shared directory like /tmp (1777).
    fn sticky(d: &Path) -> PathBuf {
        let s = d.join("sticky");
        std::fs::create_dir(&s).unwrap();
        std::fs::set_permissions(&s, std::fs::Permissions::from_mode(0o1777)).unwrap();
        s
    }

    fn errno(e: &io::Error) -> Option<i32> {
        path_error(e).and_then(|p| p.raw_os_error())
    }

    /// A fresh directory for one test, removed with its contents when the test ends.
    fn dir(name: &str) -> TestDir {
        let d = std::env::temp_dir().join(std::format!(
            "gcmkit-fs-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        TestDir(d)
    }

    struct TestDir(PathBuf);

    impl core::ops::Deref for TestDir {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TestDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn names(d: &Path) -> Vec<std::string::String> {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn nothing_appears_before_commit_and_mode_is_0600() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("commit");
        let dst = d.join("out");
        let mut o = Output::create(&dst, Overwrite::Never).unwrap();
        o.file().write_all(b"secret").unwrap();
        assert!(!dst.exists());
        o.commit().unwrap();
        assert_eq!(std::fs::read(&dst).unwrap(), b"secret");
        let mode = std::fs::metadata(&dst).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(names(&d), ["out"]);
    }

    #[test]
    fn drop_without_commit_leaves_nothing() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("drop");
        let dst = d.join("out");
        let mut o = Output::create(&dst, Overwrite::Never).unwrap();
        o.file().write_all(b"partial").unwrap();
        drop(o);
        assert!(names(&d).is_empty());
    }

    #[test]
    fn never_refuses_existing_and_late_arrivals() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("noclobber");
        let dst = d.join("out");
        std::fs::write(&dst, b"keep").unwrap();
        assert_eq!(
            Output::create(&dst, Overwrite::Never).unwrap_err().kind(),
            io::ErrorKind::AlreadyExists
        );
        std::fs::remove_file(&dst).unwrap();
        let mut o = Output::create(&dst, Overwrite::Never).unwrap();
        o.file().write_all(b"new").unwrap();
        std::fs::write(&dst, b"appeared meanwhile").unwrap();
        assert_eq!(o.commit().unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&dst).unwrap(), b"appeared meanwhile");
        assert_eq!(names(&d), ["out"], "temporary file removed");
    }

    #[test]
    fn replace_replaces_atomically_keeping_mode() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("replace");
        let dst = d.join("out");
        std::fs::write(&dst, b"old").unwrap();
        std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(0o644)).unwrap();
        let mut o = Output::create(&dst, Overwrite::Replace).unwrap();
        o.file().write_all(b"new").unwrap();
        assert_eq!(std::fs::read(&dst).unwrap(), b"old");
        o.commit().unwrap();
        assert_eq!(std::fs::read(&dst).unwrap(), b"new");
        let mode = std::fs::metadata(&dst).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o644, "the replaced file's mode is kept");
        // A private output (a key file) is 0600 whatever it replaces.
        let mut o = Output::create_private(&dst, Overwrite::Replace).unwrap();
        o.file().write_all(b"key").unwrap();
        o.commit().unwrap();
        let mode = std::fs::metadata(&dst).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o600);
        assert_eq!(names(&d), ["out"]);
    }

    /// Issue #27 finding 8: root replacing another user's file keeps its owner and mode
    /// (it became root:root 0600).
    #[test]
    fn replace_keeps_the_owner_where_the_caller_may() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        if !root() {
            return;
        }
        let d = dir("owner");
        let dst = d.join("theirs");
        std::fs::write(&dst, b"old").unwrap();
        std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(0o640)).unwrap();
        give(&dst, NOBODY);
        let mut o = Output::create(&dst, Overwrite::Replace).unwrap();
        o.file().write_all(b"new").unwrap();
        o.commit().unwrap();
        let m = std::fs::metadata(&dst).unwrap();
        use std::os::unix::fs::MetadataExt;
        assert_eq!(
            (m.uid(), m.gid(), m.mode() & 0o7777),
            (NOBODY, NOBODY, 0o640)
        );
        assert_eq!(std::fs::read(&dst).unwrap(), b"new");
        assert_eq!(names(&d), ["theirs"]);
    }

    #[test]
    fn temp_names_are_random_and_never_follow_links() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("names");
        let dst = d.join("out");
        let a = d.join(temp_name(dst.file_name().unwrap()).unwrap());
        let b = d.join(temp_name(dst.file_name().unwrap()).unwrap());
        assert_ne!(a, b);
        // Creation is exclusive: a symlink planted at the chosen name is not followed.
        let victim = d.join("victim");
        std::fs::write(&victim, b"victim").unwrap();
        std::os::unix::fs::symlink(&victim, &a).unwrap();
        let e = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&a)
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&victim).unwrap(), b"victim");
    }

    #[test]
    fn long_names_fit() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("long");
        let dst = d.join("x".repeat(250));
        let mut o = Output::create(&dst, Overwrite::Never).unwrap();
        o.file().write_all(b"ok").unwrap();
        o.commit().unwrap();
        assert_eq!(std::fs::read(&dst).unwrap(), b"ok");
    }

    /// A FIFO's open blocks until its other end opens. A signal that interrupts it (here
    /// SIGUSR1, its handler installed without `SA_RESTART`, sent until the open gives up)
    /// reaches the caller's `on_interrupt`, whose error ends the open: both for a source
    /// and for a FIFO output. With `std`'s open the retry is silent and the open waits on.
    #[test]
    fn a_signal_during_a_fifo_open_reaches_the_caller() {
        extern "C" fn nothing(_: libc::c_int) {}
        // SAFETY: a handler that does nothing is async-signal-safe; sa_flags without
        // SA_RESTART makes the blocked open return EINTR.
        unsafe {
            let mut sa: libc::sigaction = core::mem::zeroed();
            sa.sa_sigaction = nothing as extern "C" fn(libc::c_int) as usize;
            assert_eq!(
                libc::sigaction(libc::SIGUSR1, &sa, core::ptr::null_mut()),
                0
            );
        }
        let d = dir("fifo-signal");
        let fifo = d.join("pipe");
        mkfifo(&fifo);
        for output in [false, true] {
            let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
            let seen = calls.clone();
            // SAFETY: pthread_self has no preconditions.
            let me = unsafe { libc::pthread_self() } as usize;
            let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let stop = done.clone();
            let kicker = std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    // SAFETY: `me` is the test thread, alive until `done` is set.
                    unsafe { libc::pthread_kill(me as libc::pthread_t, libc::SIGUSR1) };
                }
            });
            let mut hook = || {
                seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                Err(io::Error::other("stopped by the caller"))
            };
            let e = if output {
                Output::create_interruptible(&fifo, Overwrite::Never, &mut hook).map(|_| ())
            } else {
                open_source(&fifo, &mut hook).map(|_| ())
            };
            done.store(true, std::sync::atomic::Ordering::SeqCst);
            kicker.join().unwrap();
            let e = e.unwrap_err();
            assert_eq!(e.to_string(), "stopped by the caller", "output: {output}");
            assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 1);
        }
    }

    #[test]
    fn fifo_and_devices_are_written_not_replaced() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("fifo");
        let fifo = d.join("pipe");
        let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut s = Vec::new();
                File::open(&fifo).unwrap().read_to_end(&mut s).unwrap();
                s
            })
        };
        let mut o = Output::create(&fifo, Overwrite::Never).unwrap();
        assert!(o.is_direct());
        o.file().write_all(b"through the pipe").unwrap();
        o.commit().unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
        let mut null = Output::create(Path::new("/dev/null"), Overwrite::Replace).unwrap();
        assert!(null.is_direct());
        null.file().write_all(b"x").unwrap();
        null.commit().unwrap();
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[test]
    fn symlinks_to_files_only_with_replace() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("symlink");
        let target = d.join("target");
        std::fs::write(&target, b"old").unwrap();
        let link = d.join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert_eq!(
            Output::create(&link, Overwrite::Never).unwrap_err().kind(),
            io::ErrorKind::AlreadyExists
        );
        let mut o = Output::create(&link, Overwrite::Replace).unwrap();
        o.file().write_all(b"new").unwrap();
        o.commit().unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
    }

    #[test]
    fn directories_are_refused() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("isdir");
        assert!(Output::create(&d, Overwrite::Replace).is_err());
        assert!(Output::create(Path::new("."), Overwrite::Replace).is_err());
    }

    #[test]
    fn registry_cleanup_removes_pending() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("registry");
        let mut o = Output::create(&d.join("out"), Overwrite::Never).unwrap();
        o.file().write_all(b"x").unwrap();
        assert_eq!(names(&d).len(), 1);
        assert!(remove_temp_files() >= 1);
        assert!(names(&d).is_empty());
        drop(o);
    }

    /// Issue #27 findings 3 and 4: in a sticky world-writable directory another user's
    /// symlink is not followed (even with Replace), another user's FIFO gets nothing, and
    /// another user's file is not replaced; the caller's own FIFO there is written.
    #[test]
    fn shared_directories_refuse_other_users_links_fifos_and_files() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        if !root() {
            return;
        }
        let d = dir("shared");
        let s = sticky(&d);
        let victim = d.join("victim2");
        std::fs::write(&victim, b"root's file").unwrap();
        std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
        let link = s.join("report.txt");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        give(&link, NOBODY);
        for how in [Overwrite::Never, Overwrite::Replace] {
            let e = Output::create(&link, how).unwrap_err();
            assert_eq!(errno(&e), Some(libc::EACCES), "{e}");
        }
        assert_eq!(std::fs::read(&victim).unwrap(), b"root's file");
        std::fs::remove_file(&link).unwrap();

        let fifo = s.join("report.txt");
        mkfifo(&fifo);
        give(&fifo, NOBODY);
        let mut attacker = fifo_reader(&fifo);
        let e = Output::create(&fifo, Overwrite::Never).unwrap_err();
        assert_eq!(errno(&e), Some(libc::EACCES), "{e}");
        assert!(drain(&mut attacker).is_empty());
        std::fs::remove_file(&fifo).unwrap();

        let theirs = s.join("theirs");
        std::fs::write(&theirs, b"theirs").unwrap();
        give(&theirs, NOBODY);
        let e = Output::create(&theirs, Overwrite::Replace).unwrap_err();
        assert_eq!(errno(&e), Some(libc::EACCES), "{e}");
        assert_eq!(std::fs::read(&theirs).unwrap(), b"theirs");

        // A directory link of another user on the way is refused too (root's /etc-like
        // directory reached through nobody's link in the shared directory).
        let etc = d.join("etc");
        std::fs::create_dir(&etc).unwrap();
        std::fs::write(etc.join("passwd"), b"root's").unwrap();
        std::os::unix::fs::symlink(&etc, s.join("evil")).unwrap();
        give(&s.join("evil"), NOBODY);
        let e = Output::create(&s.join("evil/passwd"), Overwrite::Replace).unwrap_err();
        assert_eq!(errno(&e), Some(libc::EACCES), "{e}");
        assert_eq!(std::fs::read(etc.join("passwd")).unwrap(), b"root's");
        std::fs::remove_file(s.join("evil")).unwrap();
        // The caller's own directory link is followed.
        std::os::unix::fs::symlink(&etc, s.join("mylink")).unwrap();
        let mut o = Output::create(&s.join("mylink/new"), Overwrite::Never).unwrap();
        o.file().write_all(b"ok").unwrap();
        o.commit().unwrap();
        assert_eq!(std::fs::read(etc.join("new")).unwrap(), b"ok");
        std::fs::remove_file(s.join("mylink")).unwrap();

        let mine = s.join("mine");
        mkfifo(&mine);
        let mut reader = fifo_reader(&mine);
        let mut o = Output::create(&mine, Overwrite::Never).unwrap();
        assert!(o.is_direct());
        o.file().write_all(b"ok").unwrap();
        o.commit().unwrap();
        assert_eq!(drain(&mut reader), b"ok");
        let mut names = names(&s);
        names.sort();
        assert_eq!(names, ["mine", "theirs"], "no temporary file left");
    }

    /// Issue #27 finding 1, deterministically: a FIFO the caller may write is swapped for
    /// a symlink to a victim file at the worst moment (after the probe, before the open),
    /// 10,000 times. The write always reaches the FIFO that was checked, never the victim.
    #[test]
    fn a_fifo_swapped_for_a_symlink_after_the_probe_is_still_the_fifo_written() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("swap-hook");
        let victim = d.join("victim");
        std::fs::write(&victim, b"victim").unwrap();
        let out = d.join("report.txt");
        mkfifo(&out);
        let mut reader = fifo_reader(&out);
        std::os::unix::fs::symlink(&victim, d.join("evil")).unwrap();
        let dirfd = std::rc::Rc::new(
            rustix::fs::openat(rustix::fs::CWD, &*d, OFlags::PATH, Mode::empty()).unwrap(),
        );
        let exchange = move || {
            rustix::fs::renameat_with(
                &*dirfd,
                "report.txt",
                &*dirfd,
                "evil",
                RenameFlags::EXCHANGE,
            )
            .unwrap()
        };
        let swaps = std::rc::Rc::new(core::cell::Cell::new(0u32));
        for _ in 0..10_000 {
            let (ex, n) = (exchange.clone(), swaps.clone());
            BETWEEN_PROBE_AND_OPEN.with(|h| {
                *h.borrow_mut() = Some(Box::new(move || {
                    ex();
                    n.set(n.get() + 1);
                }))
            });
            let o = Output::create(&out, Overwrite::Never);
            BETWEEN_PROBE_AND_OPEN.with(|h| *h.borrow_mut() = None);
            let mut o = o.unwrap();
            assert!(o.is_direct());
            o.file().write_all(b"plaintext").unwrap();
            o.commit().unwrap();
            assert_eq!(drain(&mut reader), b"plaintext");
            exchange();
        }
        assert_eq!(swaps.get(), 10_000, "the hook ran at every attempt");
        assert_eq!(std::fs::read(&victim).unwrap(), b"victim");
    }

    /// Issue #27 finding 1 as reported: `nobody` swaps a FIFO with a symlink to root's file
    /// in a sticky directory, in a loop, while root opens the name 10,000 times. Before,
    /// root's file held the plaintext within about 20 attempts.
    #[test]
    fn the_fifo_symlink_race_is_never_won() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        if !root() {
            return;
        }
        let d = dir("race");
        let s = sticky(&d);
        let victim = d.join("victim");
        std::fs::write(&victim, b"root's file").unwrap();
        std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
        let out = s.join("report.txt");
        mkfifo(&out);
        give(&out, NOBODY);
        let mut reader = fifo_reader(&out);
        let evil = s.join("evil");
        std::os::unix::fs::symlink(&victim, &evil).unwrap();
        give(&evil, NOBODY);
        let stop = Arc::new(core::sync::atomic::AtomicBool::new(false));
        let attacker = {
            let (stop, s) = (stop.clone(), s.clone());
            std::thread::spawn(move || {
                let dirfd =
                    rustix::fs::openat(rustix::fs::CWD, &s, OFlags::PATH, Mode::empty()).unwrap();
                let mut swaps = 0u64;
                while !stop.load(core::sync::atomic::Ordering::Relaxed) {
                    rustix::fs::renameat_with(
                        &dirfd,
                        "report.txt",
                        &dirfd,
                        "evil",
                        RenameFlags::EXCHANGE,
                    )
                    .unwrap();
                    swaps += 1;
                }
                swaps
            })
        };
        let mut written = 0;
        for _ in 0..10_000 {
            if let Ok(mut o) = Output::create(&out, Overwrite::Never) {
                o.file().write_all(b"plaintext").unwrap();
                o.commit().unwrap();
                written += 1;
            }
            drain(&mut reader);
        }
        stop.store(true, core::sync::atomic::Ordering::Relaxed);
        let swaps = attacker.join().unwrap();
        assert!(swaps > 100, "the attacker ran ({swaps} swaps)");
        assert_eq!(std::fs::read(&victim).unwrap(), b"root's file");
        assert_eq!(written, 0, "the attacker's FIFO and link are both refused");
    }

    /// The directory is opened once: renaming it away mid-run and putting another in its
    /// place neither strands the temporary file nor sends the output to the newcomer.
    #[test]
    fn a_parent_directory_swapped_mid_run_strands_nothing() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("parent-swap");
        std::fs::create_dir(d.join("sub")).unwrap();
        let mut o = Output::create(&d.join("sub/out"), Overwrite::Never).unwrap();
        o.file().write_all(b"data").unwrap();
        std::fs::rename(d.join("sub"), d.join("moved")).unwrap();
        std::fs::create_dir(d.join("sub")).unwrap();
        drop(o);
        assert!(names(&d.join("moved")).is_empty(), "temporary file removed");
        assert!(names(&d.join("sub")).is_empty());
        let mut o = Output::create(&d.join("moved/out"), Overwrite::Never).unwrap();
        o.file().write_all(b"data").unwrap();
        std::fs::rename(d.join("moved"), d.join("moved2")).unwrap();
        o.commit().unwrap();
        assert_eq!(names(&d.join("moved2")), ["out"]);
    }

    #[test]
    fn errors_name_the_path_escaped_with_errno() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("errors");
        let e = Output::create(&d.join("nodir/x\x1b[31m"), Overwrite::Never).unwrap_err();
        let p = path_error(&e).unwrap();
        assert_eq!(p.raw_os_error(), Some(libc::ENOENT));
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(p.path().ends_with("nodir/x\x1b[31m"));
        let msg = std::format!("{e}");
        assert!(
            !msg.contains('\x1b') && msg.contains("x\\u{1b}[31m"),
            "{msg}"
        );
    }
}
