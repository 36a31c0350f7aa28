//! `encrypt_file` / `decrypt_file`: file to file through `gcmkit-fs` (nothing appears at
//! the destination unless the whole job succeeded), on all cores with the GIL released,
//! stopping promptly for Python's signal handlers: before every read of the source, and
//! whenever a signal interrupts an open, read or write (`signals`), the handlers run; an exception one raises
//! (`KeyboardInterrupt` for SIGINT) ends the job, its temporary file removed, and is
//! raised. Errors name the file they concern: the source for reading it, the destination
//! for creating or writing it.

use crate::buffers::{bytes_like, context_arg};
use crate::errors::{chunk_err, os_err, os_err_named};
use crate::signals::{self, Interruptible};
use gcmkit::Error;
use gcmkit_fs::{Output, Overwrite};
use pyo3::prelude::*;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// The source, read with Python's signal handlers run before each read and whenever a
/// signal interrupts one (`signals`).
struct SignalChecked {
    file: File,
    /// Whether reading the source itself failed (then an I/O error names the source).
    read_failed: bool,
}

impl Read for SignalChecked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        signals::run_handlers()?;
        let r = signals::retrying(|| self.file.read(buf));
        self.read_failed = r.is_err();
        r
    }
}

type Job = fn(&[u8], &[u8], &mut dyn Read, &mut dyn Write) -> Result<u64, Error>;

fn file_to_file(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
    src: &Path,
    dst: &Path,
    job: Job,
) -> PyResult<u64> {
    let (k, c) = (bytes_like(key, "key")?, context_arg(context)?);
    // Every step with the GIL released, and every one that can block (the opens of FIFOs,
    // reads and writes of pipes) runs the signal handlers when a signal interrupts it: an
    // exception a handler raised ends the job, any temporary file removed (`out` dropped),
    // and is raised.
    let r = py.detach(|| {
        let file = gcmkit_fs::open_source(src, &mut signals::run_handlers)
            .map_err(|e| os_err_named(&e, src))?;
        // The destination is checked (its directory opened) before any work.
        let out = Output::create_interruptible(dst, Overwrite::Replace, &mut signals::run_handlers)
            .map_err(|e| os_err(&e))?;
        let mut out = Interruptible::new(out);
        let mut input = BufReader::with_capacity(
            1 << 20,
            SignalChecked {
                file,
                read_failed: false,
            },
        );
        let r = job(&k, &c, &mut input, &mut out);
        // (On an error, `out` is dropped: its temporary file removed.)
        let read_failed = input.into_inner().read_failed;
        let n = r.map_err(|e| match e {
            Error::Io(io) if read_failed => os_err_named(io.get_ref(), src),
            Error::Io(io) => os_err_named(io.get_ref(), dst),
            e => chunk_err(e),
        })?;
        out.into_inner().commit().map_err(|e| os_err(&e))?;
        Ok(n)
    });
    r.map_err(signals::or_raised)
}

/// Encrypts the file `src` to `dst` (Cobblestone; parallel, constant memory).
#[pyfunction]
#[pyo3(signature = (key, src, dst, context=None))]
pub(crate) fn encrypt_file(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    src: PathBuf,
    dst: PathBuf,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    file_to_file(py, key, context, &src, &dst, |k, c, i, o| {
        gcmkit::chunked::encrypt_stream(k, c, i, o, |_| {})
    })
}

/// Decrypts `src` to `dst`; nothing appears at `dst` unless the whole file verified.
#[pyfunction]
#[pyo3(signature = (key, src, dst, context=None))]
pub(crate) fn decrypt_file(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    src: PathBuf,
    dst: PathBuf,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    file_to_file(py, key, context, &src, &dst, |k, c, i, o| {
        gcmkit::chunked::decrypt_stream(k, c, i, o, |_| {})
    })
}

/// Removes every temporary file of this process's unfinished outputs (for the Python
/// layer's SIGTERM/SIGHUP handlers, just before the process dies); returns how many.
#[pyfunction]
pub(crate) fn remove_temp_files() -> usize {
    gcmkit_fs::remove_temp_files()
}
