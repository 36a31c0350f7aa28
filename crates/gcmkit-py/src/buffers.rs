//! Arguments as bytes, checked as pyca/cryptography checks them, and when to release
//! the GIL.

use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::borrow::Cow;

/// Inputs at least this long release the GIL while they are processed.
pub(crate) const DETACH_MIN: usize = 32768;

/// A bytes-like argument, accepted exactly as pyca/cryptography accepts it: an object with
/// the buffer protocol whose items are bytes (format `B` or `c`: `bytes`, `bytearray`,
/// `memoryview`, `array('B')`, `mmap`), C-contiguous; anything else (int, str, list,
/// generator, `array('I')`) is a `TypeError` and a strided view a `BufferError`, with
/// pyca's messages. `bytes` is read in place; other buffers are copied once (the buffer
/// protocol is not in the stable ABI before CPython 3.11, and this wheel supports 3.9+).
/// `what` names the argument for gcmkit's own messages (pyca's name none).
pub(crate) fn bytes_like<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Cow<'a, [u8]>> {
    let _ = what;
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Cow::Borrowed(b.as_bytes()));
    }
    let view = byte_view(obj)?;
    let b = view.call_method0("tobytes")?;
    Ok(Cow::Owned(b.cast::<PyBytes>()?.as_bytes().to_vec()))
}

/// `memoryview(obj)` after pyca's checks (see [`bytes_like`]). pyca 50's messages name no
/// argument (48's prefixed "argument 'x': "; gcmkit follows the newest, which `make test`
/// installs as its oracle).
pub(crate) fn byte_view<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let cannot = || {
        let ty = obj
            .get_type()
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_default();
        let hint = if obj.is_instance_of::<pyo3::types::PyString>() {
            "\nDid you mean to pass a bytestring instead?"
        } else {
            ""
        };
        PyTypeError::new_err(format!(
            "Cannot convert \"{ty}\" instance to a buffer.{hint}"
        ))
    };
    let view = py
        .import("builtins")?
        .getattr("memoryview")?
        .call1((obj,))
        .map_err(|_| cannot())?;
    let format: String = view.getattr("format")?.extract()?;
    if format != "B" && format != "c" {
        return Err(cannot());
    }
    if !view.getattr("c_contiguous")?.extract::<bool>()? {
        return Err(PyBufferError::new_err("Buffer is not contiguous."));
    }
    Ok(view)
}

pub(crate) fn opt_bytes<'a>(
    obj: Option<&'a Bound<'_, PyAny>>,
    what: &str,
) -> PyResult<Cow<'a, [u8]>> {
    match obj {
        None => Ok(Cow::Borrowed(&[])),
        Some(o) if o.is_none() => Ok(Cow::Borrowed(&[])),
        Some(o) => bytes_like(o, what),
    }
}

/// A checked bytes-like argument whose bytes are copied only when needed (so length
/// limits are checked before a huge buffer is copied, in pyca's order).
pub(crate) enum Buf<'a, 'py> {
    /// A `bytes` object (or subclass) and its length: the bytes it holds, as pyca counts
    /// them (a subclass overriding `__len__` does not change it).
    Bytes(&'a [u8], usize),
    View(Bound<'py, PyAny>, usize),
}

impl<'a, 'py> Buf<'a, 'py> {
    pub(crate) fn new(obj: &'a Bound<'py, PyAny>, what: &str) -> PyResult<Self> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(Buf::Bytes(b.as_bytes(), b.as_bytes().len()));
        }
        let _ = what;
        let view = byte_view(obj)?;
        let n = view.getattr("nbytes")?.extract()?;
        Ok(Buf::View(view, n))
    }

    pub(crate) fn optional(obj: Option<&'a Bound<'py, PyAny>>, what: &str) -> PyResult<Self> {
        match obj {
            Some(o) if !o.is_none() => Self::new(o, what),
            _ => Ok(Buf::Bytes(&[], 0)),
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Buf::Bytes(_, n) | Buf::View(_, n) => *n,
        }
    }

    pub(crate) fn get(&self) -> PyResult<Cow<'_, [u8]>> {
        match self {
            Buf::Bytes(b, _) => Ok(Cow::Borrowed(b)),
            Buf::View(v, _) => {
                let b = v.call_method0("tobytes")?;
                Ok(Cow::Owned(b.cast::<PyBytes>()?.as_bytes().to_vec()))
            }
        }
    }
}

/// A writable buffer argument (`buf` of `encrypt_into`/`decrypt_into`), checked as pyca
/// checks it, as a memoryview and its length.
pub(crate) fn writable<'py>(obj: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyAny>, usize)> {
    let view = byte_view(obj)?;
    if view.getattr("readonly")?.extract::<bool>()? {
        return Err(PyTypeError::new_err("Buffer is not writable."));
    }
    let n = view.getattr("nbytes")?.extract()?;
    Ok((view.call_method1("cast", ("B",))?, n))
}

/// Runs `f` with the GIL released when the input is large.
pub(crate) fn maybe_detach<T: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> T + Send) -> T {
    if len >= DETACH_MIN {
        py.detach(f)
    } else {
        f()
    }
}
