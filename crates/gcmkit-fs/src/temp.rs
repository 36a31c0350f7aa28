//! Temporary files: random exclusive names next to the destination, and the process's
//! registry of the ones not yet committed, for signal handlers to clean up.

use rustix::fs::AtFlags;
use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::sync::{Arc, Mutex};

/// A temporary file: the directory descriptor it was created in and its name there.
#[derive(Clone, Debug)]
pub(crate) struct Temp {
    pub(crate) dir: Arc<OwnedFd>,
    pub(crate) name: OsString,
}

impl Temp {
    pub(crate) fn remove(&self) {
        let _ = rustix::fs::unlinkat(&*self.dir, self.name.as_os_str(), AtFlags::empty());
    }

    fn is(&self, other: &Temp) -> bool {
        Arc::ptr_eq(&self.dir, &other.dir) && self.name == other.name
    }
}

/// Longest file name most filesystems take (bytes).
pub(crate) const NAME_MAX: usize = 255;

/// The process's temporary files not yet committed or removed.
static PENDING: Mutex<Vec<Temp>> = Mutex::new(Vec::new());

pub(crate) fn pending() -> std::sync::MutexGuard<'static, Vec<Temp>> {
    // A panic while holding the lock cannot corrupt a Vec of names: keep using it.
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every temporary file this process has open through [`Output`](crate::Output) (for signal
/// handlers: call it, then exit). Returns how many were removed.
pub fn remove_temp_files() -> usize {
    let mut p = pending();
    let n = p.len();
    for t in p.drain(..) {
        t.remove();
    }
    n
}

pub(crate) fn forget_pending(tmp: &Temp) {
    pending().retain(|p| !p.is(tmp));
}

/// `.NAME.RANDOM.tmp`, NAME shortened so the whole stays within NAME_MAX.
pub(crate) fn temp_name(name: &OsStr) -> io::Result<OsString> {
    let mut rnd = [0u8; 8];
    getrandom::fill(&mut rnd)
        .map_err(|e| io::Error::other(format!("no system randomness: {e:?}")))?;
    let suffix: String = rnd.iter().map(|b| format!("{b:02x}")).collect();
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
