//! The rules of the module docs (crate root): probe the final name once, write a FIFO or
//! device in place, write a regular file through a temporary file and move it into place
//! at [`Output::commit`], keeping a replaced file's owner and mode.

use crate::error::{os_error, refused};
use crate::open::{open_retrying, OnInterrupt};
use crate::temp::{forget_pending, pending, temp_name, Temp};
use crate::walk::{egid, euid, Dir};
use rustix::fs::{AtFlags, FileType, Mode, OFlags, RenameFlags, Stat};
use rustix::io::Errno;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};

/// Whether an existing destination may be replaced.
///
/// ```
/// use gcmkit_fs::{Output, Overwrite};
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

/// An output being written: [`Output::file`] to write, then [`Output::commit`].
///
/// ```
/// use gcmkit_fs::{Output, Overwrite};
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

#[derive(Clone, Copy, Debug)]
struct Keep {
    uid: u32,
    gid: u32,
    mode: u32,
}

/// Whether `dst` can only name a directory: it ends with `/`, or its last component is
/// `.` or `..`. `Path::file_name` reads past a trailing slash (`x/` as `x`, and `x/.` as
/// `x`), which would write the file `x`; the kernel (and Python's `open`) refuse such a
/// name for a file with `EISDIR`, and so does this crate.
fn names_a_directory(dst: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let b = dst.as_os_str().as_bytes();
    let last = b.rsplit(|&c| c == b'/').next().unwrap_or(b);
    b.ends_with(b"/") || last == b"." || last == b".."
}

/// Runs the test hook set between the probe and the reopen of a FIFO or device (where a
/// swap at the name must make no difference).
fn between_probe_and_open() {
    #[cfg(test)]
    crate::tests::BETWEEN_PROBE_AND_OPEN.with(|h| {
        if let Some(f) = h.borrow_mut().as_mut() {
            f()
        }
    });
}

/// Opens for writing the very file `fd` (an `O_PATH` descriptor) refers to; a FIFO's open
/// waits for a reader, `on_interrupt` run at each signal.
fn reopen_for_writing(fd: &OwnedFd, dst: &Path, on_interrupt: OnInterrupt<'_>) -> io::Result<File> {
    let path = format!("/proc/self/fd/{}", fd.as_raw_fd());
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
        if names_a_directory(dst) {
            return Err(refused(
                dst,
                Errno::ISDIR,
                "names a directory (it ends with /, . or ..); give a file name",
            ));
        }
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
                        format!(
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
                format!(
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
            format!(
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
            format!(
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
