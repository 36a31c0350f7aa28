//! The one file-output layer of gcmkit, used by the library's file functions, the CLI and
//! the Python package. Output files hold data users cannot get back, so:
//!
//! - A regular-file destination is written through a temporary file in the same directory
//!   with a random name, created exclusively (`O_EXCL`: a pre-created file or symlink at
//!   that name makes the open fail instead of being followed) with mode 0600, and moved
//!   into place only by [`Output::commit`]. Until then nothing appears at the destination.
//! - [`Overwrite::Never`] commits with a no-clobber link (`link(2)` fails if the name
//!   exists), so a file that appeared meanwhile is never replaced; [`Overwrite::Replace`]
//!   renames over it atomically.
//! - FIFOs and character devices (`/dev/null`, a terminal, a pipe named by path) are opened
//!   and written in place, never replaced. Directories, sockets and block devices are
//!   refused.
//! - A symlink is followed to a regular file only with [`Overwrite::Replace`] (the link
//!   stays, its target is replaced atomically); to a FIFO or a character device always.
//! - An `Output` dropped without `commit` removes its temporary file; every temporary file
//!   of the process is listed in a registry that [`remove_temp_files`] empties, so a
//!   signal handler (the CLI's, Python's) can clean up before the process dies.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::vec::Vec;

/// Whether an existing destination may be replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overwrite {
    /// Fail if the destination exists, at the start and again at the final step.
    Never,
    /// Replace an existing regular file (atomically, at the final step).
    Replace,
}

/// An output being written: [`Output::file`] to write, then [`Output::commit`].
#[derive(Debug)]
pub struct Output {
    file: File,
    kind: Kind,
    /// Set by `commit`: the temporary name is gone, nothing for `Drop` to remove.
    done: bool,
}

#[derive(Debug)]
enum Kind {
    /// A temporary file that becomes `dst` at commit.
    Atomic {
        tmp: PathBuf,
        dst: PathBuf,
        overwrite: Overwrite,
    },
    /// A FIFO or character device, written in place.
    Direct,
}

/// Longest file name most filesystems take (bytes).
const NAME_MAX: usize = 255;

/// The process's temporary files not yet committed or removed.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic while holding the lock cannot corrupt a Vec of paths: keep using it.
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every temporary file this process has open through [`Output`] (for signal
/// handlers: call it, then exit). Returns how many were removed.
pub fn remove_temp_files() -> usize {
    let mut p = pending();
    let n = p.len();
    for t in p.drain(..) {
        let _ = std::fs::remove_file(&t);
    }
    n
}

fn error(kind: io::ErrorKind, path: &Path, what: &str) -> io::Error {
    io::Error::new(kind, std::format!("{}: {what}", path.display()))
}

/// `.NAME.RANDOM.tmp` next to `dst`, NAME shortened so the whole stays within NAME_MAX.
fn temp_name(dst: &Path) -> io::Result<PathBuf> {
    let mut rnd = [0u8; 8];
    getrandom::fill(&mut rnd)
        .map_err(|e| io::Error::other(std::format!("no system randomness: {e:?}")))?;
    let suffix: std::string::String = rnd.iter().map(|b| std::format!("{b:02x}")).collect();
    let name = dst.file_name().map(|n| n.as_bytes()).unwrap_or(b"out");
    let room = NAME_MAX - (1 + 1 + suffix.len() + 4);
    let mut t = Vec::with_capacity(NAME_MAX);
    t.push(b'.');
    t.extend_from_slice(&name[..name.len().min(room)]);
    t.push(b'.');
    t.extend_from_slice(suffix.as_bytes());
    t.extend_from_slice(b".tmp");
    Ok(dst.with_file_name(OsString::from_vec(t)))
}

impl Output {
    /// Prepares `dst` for writing under the rules in the module docs.
    pub fn create(dst: &Path, overwrite: Overwrite) -> io::Result<Output> {
        if dst.file_name().is_none() {
            return Err(error(
                io::ErrorKind::InvalidInput,
                dst,
                "not a file name (a directory?)",
            ));
        }
        let mut target = dst.to_path_buf();
        match std::fs::symlink_metadata(dst) {
            Ok(m) if m.file_type().is_symlink() => {
                // Where the link leads decides; a dangling link counts as an existing name.
                match std::fs::metadata(dst) {
                    Ok(t) if t.file_type().is_fifo() || t.file_type().is_char_device() => {
                        return Self::direct(dst)
                    }
                    Ok(t) if t.is_file() && overwrite == Overwrite::Replace => {
                        target = std::fs::canonicalize(dst)?;
                    }
                    Ok(t) if t.is_file() => {
                        return Err(error(
                            io::ErrorKind::AlreadyExists,
                            dst,
                            "exists (a symlink to a file; replacing its target needs --force)",
                        ))
                    }
                    _ => {
                        return Err(error(
                            io::ErrorKind::AlreadyExists,
                            dst,
                            "is a symlink that does not lead to a regular file, FIFO or device",
                        ))
                    }
                }
            }
            Ok(m) if m.file_type().is_fifo() || m.file_type().is_char_device() => {
                return Self::direct(dst)
            }
            Ok(m) if m.is_dir() => {
                return Err(error(io::ErrorKind::InvalidInput, dst, "is a directory"))
            }
            Ok(m) if !m.is_file() => {
                return Err(error(
                    io::ErrorKind::InvalidInput,
                    dst,
                    "is not a regular file, FIFO or character device",
                ))
            }
            Ok(_) if overwrite == Overwrite::Never => {
                return Err(error(io::ErrorKind::AlreadyExists, dst, "exists"))
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        let tmp = temp_name(&target)?;
        // Held across the creation, so a signal handler's `remove_temp_files` either runs
        // before the file exists or sees it registered.
        let mut registry = pending();
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    std::format!(
                        "cannot create a temporary file next to {}: {e}",
                        dst.display()
                    ),
                )
            })?;
        registry.push(tmp.clone());
        drop(registry);
        Ok(Output {
            file,
            kind: Kind::Atomic {
                tmp,
                dst: target,
                overwrite,
            },
            done: false,
        })
    }

    fn direct(dst: &Path) -> io::Result<Output> {
        let file = OpenOptions::new().write(true).open(dst)?;
        Ok(Output {
            file,
            kind: Kind::Direct,
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

    /// Moves the finished output into place (no-clobber unless [`Overwrite::Replace`]).
    /// On failure the temporary file is removed and the destination is as it was.
    pub fn commit(mut self) -> io::Result<()> {
        self.file.flush()?;
        let Kind::Atomic {
            tmp,
            dst,
            overwrite,
        } = &self.kind
        else {
            return Ok(());
        };
        let r = match overwrite {
            Overwrite::Replace => std::fs::rename(tmp, dst),
            // link(2) fails with EEXIST if the name appeared meanwhile: never replaces.
            Overwrite::Never => std::fs::hard_link(tmp, dst).map_err(|e| {
                if e.kind() == io::ErrorKind::AlreadyExists {
                    error(
                        io::ErrorKind::AlreadyExists,
                        dst,
                        "appeared while writing; not replaced",
                    )
                } else {
                    e
                }
            }),
        };
        // Either way the temporary name goes (after a link, the data lives at dst).
        let _ = std::fs::remove_file(tmp);
        forget_pending(tmp);
        self.done = true;
        r
    }
}

fn forget_pending(tmp: &Path) {
    pending().retain(|p| p != tmp);
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
        if let Kind::Atomic { tmp, .. } = &self.kind {
            if !self.done {
                let _ = std::fs::remove_file(tmp);
                forget_pending(tmp);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;

    /// `remove_temp_files` empties the process-wide registry: the tests take turns.
    static SERIAL: Mutex<()> = Mutex::new(());

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
    fn replace_replaces_atomically() {
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
        let mode = std::fs::metadata(&dst).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the replaced file does not inherit 0644");
    }

    #[test]
    fn temp_names_are_random_and_never_follow_links() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let d = dir("names");
        let dst = d.join("out");
        let a = temp_name(&dst).unwrap();
        let b = temp_name(&dst).unwrap();
        assert_ne!(a, b);
        assert_eq!(a.parent(), Some(&*d));
        // Creation is exclusive: a symlink planted at the chosen name is not followed.
        let victim = d.join("victim");
        std::fs::write(&victim, b"victim").unwrap();
        std::os::unix::fs::symlink(&victim, &a).unwrap();
        let e = OpenOptions::new()
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
}
