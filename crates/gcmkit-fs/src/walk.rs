//! The destination's directory, opened one component at a time without following links,
//! so that a symlink anywhere on the path meets the same rule as the final name.

use crate::error::{escaped, os_error, refused};
use crate::output::MAX_LINKS;
use rustix::fs::{FileType, Mode, OFlags};
use rustix::io::Errno;
use std::ffi::OsString;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The destination's directory, opened once, and what the rules need to know of it.
pub(crate) struct Dir {
    pub(crate) fd: Arc<OwnedFd>,
    pub(crate) path: PathBuf,
    pub(crate) uid: u32,
    /// Sticky and group- or world-writable (`/tmp`): others may add names here.
    shared: bool,
}

impl Dir {
    pub(crate) fn open(dst: &Path) -> io::Result<Dir> {
        let path = match dst.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let fd = walk(&path).map_err(|e| match e {
            Walk::Os(e) => os_error(dst, "cannot open its directory", e),
            Walk::ForeignLink(name, uid) => refused(
                dst,
                Errno::ACCESS,
                format!(
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
    pub(crate) fn trusts(&self, uid: u32) -> bool {
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

pub(crate) fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

pub(crate) fn egid() -> u32 {
    rustix::process::getegid().as_raw()
}
