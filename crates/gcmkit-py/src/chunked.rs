//! Cobblestone (c2sp.org/chunked-encryption): one-shot calls, and the Rust side of
//! `gcmkit.chunked.open`'s reader and writer.

use crate::buffers::{bytes_like, context_arg, new_bytes, Buf, DETACH_MIN};
use crate::errors::{chunk_err, os_err};
use crate::signals::{self, Interruptible};
use gcmkit::Error;
use gcmkit_fs::{Output, Overwrite};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// A one-shot call into a buffer of the length `len` gives for the input's length.
pub(crate) struct OneShot {
    len: fn(usize) -> Result<usize, Error>,
    into: IntoFn,
}

/// `(key, context, input, out)`.
type IntoFn = fn(&[u8], &[u8], &[u8], &mut [u8]) -> Result<(), Error>;

const ENCRYPT: OneShot = OneShot {
    len: gcmkit::chunked::ciphertext_len,
    into: gcmkit::chunked::encrypt_into,
};
const DECRYPT: OneShot = OneShot {
    len: gcmkit::chunked::plaintext_len,
    into: gcmkit::chunked::decrypt_into,
};

/// A one-shot Cobblestone call on bytes-like arguments: the input read in place, the
/// result written straight into the new `bytes` object (one pass, no copy), the GIL
/// released for large inputs.
pub(crate) fn chunked_one_shot(
    py: Python<'_>,
    f: OneShot,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    let (k, d, c) = (
        bytes_like(key, "key")?,
        Buf::new(data, "data")?,
        context_arg(context)?,
    );
    let input = d.get();
    // The key's length first (the core checks it before the data's), then the length.
    let n = gcmkit::chunked::check_key(&k)
        .and_then(|()| (f.len)(input.len()))
        .map_err(chunk_err)?;
    new_bytes(py, n, input.len() >= DETACH_MIN, |out| {
        (f.into)(&k, &c, input, out)
    })?
    .map_err(chunk_err)
}

/// Cobblestone one-shot encryption.
#[pyfunction]
#[pyo3(signature = (key, data, context=None))]
pub(crate) fn chunked_encrypt(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    chunked_one_shot(py, ENCRYPT, key, data, context)
}

/// Cobblestone one-shot decryption; raises InvalidTag (wrong key/context, modified,
/// truncated).
#[pyfunction]
#[pyo3(signature = (key, data, context=None))]
pub(crate) fn chunked_decrypt(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    chunked_one_shot(py, DECRYPT, key, data, context)
}

/// A Cobblestone file being read (the Rust side of `gcmkit.chunked.ChunkedReader`, an
/// `io.RawIOBase`): random access over the verified plaintext. Opening authenticates the
/// header and the length (the final chunk); every read verifies the chunks it touches.
#[pyclass(module = "gcmkit._gcmkit")]
pub(crate) struct ChunkedReader {
    inner: Option<gcmkit::chunked::SeekableDecryptor<Source>>,
    /// A failure met after some verified bytes were returned: raised by the next call
    /// (a read never discards the verified bytes it already has).
    pending: Option<Error>,
}

/// A reader's file: reads that a signal interrupts run the signal handlers (`signals`).
type Source = std::io::BufReader<Interruptible<std::fs::File>>;
/// A writer's output, likewise.
type Sink = std::io::BufWriter<Interruptible<Output>>;

pub(crate) fn read_err(e: std::io::Error) -> PyErr {
    match e.into_inner().and_then(|i| i.downcast::<Error>().ok()) {
        Some(ce) => chunk_err(*ce),
        None => PyValueError::new_err("read failed"),
    }
}

pub(crate) fn to_core(e: std::io::Error) -> Error {
    match e.get_ref().and_then(|i| i.downcast_ref::<Error>()) {
        Some(ce) => ce.clone(),
        None => Error::from(e),
    }
}

/// Most bytes one [`ChunkedReader::read_some`] returns: a larger request is cut to it (as
/// a raw read may be), so that no size a caller names makes an allocation the process
/// cannot survive. Large enough that a read of it costs its copy, not the call.
const READ_MAX: usize = 64 << 20;

#[pymethods]
impl ChunkedReader {
    /// Up to `size` verified bytes, at most [`READ_MAX`] (fewer also at the end of the
    /// stream or before a chunk that fails, whose error the next call raises).
    fn read_some(&mut self, py: Python<'_>, size: usize) -> PyResult<Py<PyBytes>> {
        use std::io::Read;
        if let Some(e) = self.pending.take() {
            return Err(chunk_err(e));
        }
        let d = self
            .inner
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("I/O operation on closed file."))?;
        // At most what is left of the plaintext and READ_MAX per call (a raw read may
        // return fewer bytes than asked), and that allocation fallible: `vec![0; 2**62]`
        // aborted the interpreter. Cut to what is left, a large read of a short file
        // neither reserves nor zero-fills the rest of its buffer.
        use std::io::Seek;
        let left = d
            .plaintext_len()
            .saturating_sub(d.stream_position().unwrap_or(0));
        let size = size
            .min(READ_MAX)
            .min(usize::try_from(left).unwrap_or(usize::MAX));
        let mut out = Vec::new();
        out.try_reserve_exact(size).map_err(|_| {
            pyo3::exceptions::PyMemoryError::new_err("cannot allocate the read buffer")
        })?;
        out.resize(size, 0);
        let (n, err) = py.detach(|| {
            let mut n = 0;
            while n < size {
                match d.read(&mut out[n..]) {
                    Ok(0) => break,
                    Ok(k) => n += k,
                    Err(e) => return (n, Some(e)),
                }
            }
            (n, None)
        });
        out.truncate(n);
        if let Some(raised) = signals::take_raised() {
            return Err(raised); // as the builtin reader: the exception, the bytes dropped
        }
        if let Some(e) = err {
            if n == 0 {
                return Err(read_err(e));
            }
            self.pending = Some(to_core(e));
        }
        Ok(PyBytes::new(py, &out).unbind())
    }

    /// Moves to `offset` relative to `whence` (0 start, 1 current, 2 end); returns the new
    /// position.
    fn seek(&mut self, py: Python<'_>, offset: i64, whence: i32) -> PyResult<u64> {
        use std::io::{Seek, SeekFrom};
        let d = self
            .inner
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("I/O operation on closed file."))?;
        let to =
            match whence {
                0 => SeekFrom::Start(u64::try_from(offset).map_err(|_| {
                    PyValueError::new_err(format!("negative seek position {offset}"))
                })?),
                1 => SeekFrom::Current(offset),
                2 => SeekFrom::End(offset),
                w => {
                    return Err(PyValueError::new_err(format!(
                        "invalid whence ({w}, should be 0, 1 or 2)"
                    )))
                }
            };
        self.pending = None;
        let r = py.detach(|| d.seek(to)); // a seek reads and verifies the chunk it lands in
        r.map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidInput => PyValueError::new_err(e.to_string()),
            _ => read_err(e),
        })
        .map_err(signals::or_raised)
    }

    /// The plaintext length (authenticated at open).
    fn plaintext_len(&self) -> PyResult<u64> {
        self.inner
            .as_ref()
            .map(|d| d.plaintext_len())
            .ok_or_else(|| PyValueError::new_err("I/O operation on closed file."))
    }

    fn close(&mut self) {
        self.inner = None;
        self.pending = None;
    }
}

/// A Cobblestone stream being written: `close()` writes the final chunk.
#[pyclass(module = "gcmkit._gcmkit")]
pub(crate) struct ChunkedWriter {
    /// Writes into a temporary file (`gcmkit-fs`) that becomes the destination only at
    /// `close()`; dropping it unclosed removes the temporary file.
    inner: Option<gcmkit::chunked::Encryptor<Sink>>,
    /// The destination (named in errors).
    path: std::path::PathBuf,
    /// A write failed: the stream was discarded (a part of that write may have been taken,
    /// so nothing after it could be trusted); every later call raises this, errno kept.
    failed: Option<(Option<i32>, String)>,
}

impl ChunkedWriter {
    fn stream(&mut self) -> PyResult<&mut gcmkit::chunked::Encryptor<Sink>> {
        if let Some((errno, why)) = &self.failed {
            let msg = format!(
                "an earlier write failed ({why}); the stream was discarded and nothing was written"
            );
            let name = self.path.as_os_str().to_os_string();
            return Err(match errno {
                Some(code) => pyo3::exceptions::PyOSError::new_err((*code, msg, name)),
                None => pyo3::exceptions::PyOSError::new_err(msg),
            });
        }
        self.inner
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("I/O operation on closed file"))
    }

    /// Discards the stream after a failure and makes the failure every later call's.
    fn poison(&mut self, e: &std::io::Error) -> PyErr {
        self.inner = None;
        let errno = e.raw_os_error();
        let why = match errno {
            Some(code) => std::io::Error::from_raw_os_error(code).to_string(),
            None => e.to_string(),
        };
        self.failed = Some((errno, why));
        crate::errors::os_err_named(e, &self.path)
    }
}

#[pymethods]
impl ChunkedWriter {
    /// Encrypts and writes `data`; returns its length. If it fails, the writer is
    /// poisoned: every later call and `close()` raise, and nothing is ever committed.
    fn write(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<usize> {
        use std::io::Write;
        let d = bytes_like(data, "data")?;
        let e = self.stream()?;
        match py.detach(|| e.write_all(&d)) {
            Ok(()) => Ok(d.len()),
            // A signal handler's exception (a blocked write to a pipe) poisons it too: a
            // part of the data may have been taken.
            Err(err) => Err(signals::or_raised(self.poison(&err))),
        }
    }

    /// Writes the final chunk and moves the file into place.
    fn close(&mut self, py: Python<'_>) -> PyResult<()> {
        if self.inner.is_none() && self.failed.is_none() {
            return Ok(());
        }
        self.stream()?;
        let Some(e) = self.inner.take() else {
            return Ok(());
        };
        let path = &self.path;
        // The final chunk's write can block (a pipe): the GIL released, signals run.
        let r = py.detach(|| {
            let w = e.finish().map_err(|e| match e {
                Error::Io(io) => crate::errors::os_err_named(io.get_ref(), path),
                e => chunk_err(e),
            })?;
            let out = w
                .into_inner()
                .map_err(|e| crate::errors::os_err_named(e.error(), path))?;
            out.into_inner().commit().map_err(|e| os_err(&e))
        });
        r.map_err(signals::or_raised)
    }

    /// Discards the stream: no final chunk, the temporary file removed, the destination
    /// left as it was.
    fn abort(&mut self) {
        self.inner = None;
        self.failed = None;
    }
}

/// Opens a Cobblestone file for streaming: mode "rb" (decrypt) or "wb" (encrypt).
#[pyfunction]
#[pyo3(signature = (path, mode, key, context=None))]
pub(crate) fn chunked_open(
    py: Python<'_>,
    path: std::path::PathBuf,
    mode: &str,
    key: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let (k, c) = (bytes_like(key, "key")?, context_arg(context)?);
    // The key is checked before any file is opened or created.
    gcmkit::chunked::check_key(&k).map_err(chunk_err)?;
    match mode {
        "rb" | "r" => {
            // The open (a FIFO waits for its writer) and the first reads with the GIL
            // released, signal handlers run when a signal interrupts them.
            let d = py.detach(|| {
                let f = gcmkit_fs::open_source(&path, &mut signals::run_handlers)
                    .map_err(|e| crate::errors::os_err_named(&e, &path))?;
                let f = std::io::BufReader::new(Interruptible::new(f));
                gcmkit::chunked::SeekableDecryptor::new(&k, &c, f).map_err(chunk_err)
            });
            let d = d.map_err(signals::or_raised)?;
            Ok(Py::new(
                py,
                ChunkedReader {
                    inner: Some(d),
                    pending: None,
                },
            )?
            .into_any())
        }
        "wb" | "w" => {
            let out = py.detach(|| {
                Output::create_interruptible(&path, Overwrite::Replace, &mut signals::run_handlers)
                    .map_err(|e| os_err(&e))
            });
            let out = out.map_err(signals::or_raised)?;
            let f = std::io::BufWriter::with_capacity(1 << 20, Interruptible::new(out));
            let e = gcmkit::chunked::Encryptor::new(&k, &c, f).map_err(chunk_err)?;
            let w = ChunkedWriter {
                inner: Some(e),
                path,
                failed: None,
            };
            Ok(Py::new(py, w)?.into_any())
        }
        m => Err(PyValueError::new_err(format!(
            "mode must be 'rb' or 'wb', not {m:?}"
        ))),
    }
}
