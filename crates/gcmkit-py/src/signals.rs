//! Blocking file calls, made with the GIL released, that still let Python's signal handlers
//! run: an `open`, `read` or `write` that blocks (a FIFO waiting for its other end, a full
//! pipe) and is interrupted by a signal (`EINTR`; CPython installs its handlers without
//! `SA_RESTART`) takes the GIL, runs the handlers, and is retried unless one raised. The
//! exception a handler raised (`KeyboardInterrupt` for SIGINT; the chunked module's SIGTERM
//! handler ends the process) is kept for the call's caller, which raises it. `std`'s own
//! `File::open` and `write_all` retry `EINTR` silently: a process blocked in one never ran
//! its handlers, and SIGTERM was swallowed.
//!
//! The exception is kept per thread: `Python::detach` runs its closure on the calling
//! thread, and every blocking call here is made in one.

use pyo3::prelude::*;
use std::cell::RefCell;
use std::io::{self, Read, Write};

std::thread_local! {
    static RAISED: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// Runs Python's signal handlers (taking the GIL for that moment). An exception one raised
/// is kept for [`take_raised`] and ends the interrupted call with an error.
pub(crate) fn run_handlers() -> io::Result<()> {
    match Python::attach(|py| py.check_signals()) {
        Ok(()) => Ok(()),
        Err(e) => {
            RAISED.with(|r| *r.borrow_mut() = Some(e));
            Err(io::Error::other("interrupted by a signal"))
        }
    }
}

/// The exception a signal handler raised during this thread's last blocking call, if any.
pub(crate) fn take_raised() -> Option<PyErr> {
    RAISED.with(|r| r.borrow_mut().take())
}

/// `e`, or the exception a signal handler raised during the call that failed with it (the
/// cause of the failure).
pub(crate) fn or_raised(e: PyErr) -> PyErr {
    take_raised().unwrap_or(e)
}

/// A file or stream whose reads and writes run Python's signal handlers when a signal
/// interrupts them (see the module docs). After a write failed, every later write fails at
/// once: a `BufWriter` above it flushes what it holds when dropped, and into a full pipe
/// that flush blocked for good after a `KeyboardInterrupt` had stopped the stream.
pub(crate) struct Interruptible<T> {
    inner: T,
    write_failed: bool,
}

impl<T> Interruptible<T> {
    pub(crate) fn new(inner: T) -> Self {
        Interruptible {
            inner,
            write_failed: false,
        }
    }

    pub(crate) fn into_inner(self) -> T {
        self.inner
    }
}

/// Retries `op` while a signal interrupts it and the handlers raise nothing.
pub(crate) fn retrying<R>(mut op: impl FnMut() -> io::Result<R>) -> io::Result<R> {
    loop {
        match op() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => run_handlers()?,
            r => return r,
        }
    }
}

impl<T: Read> Read for Interruptible<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        retrying(|| self.inner.read(buf))
    }
}

impl<T: Write> Interruptible<T> {
    fn checked<R>(&mut self, op: impl FnOnce(&mut T) -> io::Result<R>) -> io::Result<R> {
        if self.write_failed {
            return Err(io::Error::other("an earlier write failed"));
        }
        let r = op(&mut self.inner);
        self.write_failed = r.is_err();
        r
    }
}

impl<T: Write> Write for Interruptible<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.checked(|w| {
            let n = retrying(|| w.write(buf))?;
            // A blocking write returns short when a signal interrupts it after some bytes
            // went (a full pipe): the handlers run before the rest is written, or the
            // writer would block again with the signal still waiting.
            if n < buf.len() {
                run_handlers()?;
            }
            Ok(n)
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.checked(|w| retrying(|| w.flush()))
    }
}

impl<T: io::Seek> io::Seek for Interruptible<T> {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}
