//! Opens that a signal may interrupt: a FIFO's open waits for its other end, and a caller
//! that runs signal handlers (Python's) must get to run them meanwhile.

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;
use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::path::Path;

/// What an open that a signal interrupted (`EINTR`) does before it is tried again: a FIFO's
/// open waits for the other end, and a caller that runs signal handlers (Python's) must get
/// to run them there; an error it returns ends the open with that error. [`Output::create`](crate::Output::create)
/// and [`open_source`]'s plain form retry at once, as `std` does.
pub type OnInterrupt<'a> = &'a mut dyn FnMut() -> io::Result<()>;

/// Retries `open` while a signal interrupts it, calling `on_interrupt` before each retry;
/// the OS's own error goes through `named`, the hook's is returned as it is.
pub(crate) fn open_retrying(
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
