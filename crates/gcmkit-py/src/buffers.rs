//! Arguments as bytes, checked as pyca/cryptography checks them, and when to release
//! the GIL.

use pyo3::exceptions::{PyBufferError, PyOverflowError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::borrow::Cow;
use std::ffi::{c_char, c_int, c_void, CStr};

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

/// A Cobblestone context in gcmkit's own chunked API (`gcmkit.chunked`, never the pyca
/// drop-in `gcmkit.cobblestone`, whose argument rules are pyca's): bytes-like, or a `str`
/// taken as its UTF-8 bytes, as the CLI takes `--context` text (so `context="sales"` in
/// Python and `--context sales` decrypt each other's files); `None` is empty. A `str` that
/// is not valid Unicode (lone surrogates) is a `UnicodeEncodeError`.
pub(crate) fn context_arg<'a>(obj: Option<&'a Bound<'_, PyAny>>) -> PyResult<Cow<'a, [u8]>> {
    match obj {
        Some(o) => match o.cast::<PyString>() {
            Ok(s) => Ok(Cow::Owned(s.to_cow()?.into_owned().into_bytes())),
            Err(_) => opt_bytes(Some(o), "context"),
        },
        None => Ok(Cow::Borrowed(&[])),
    }
}

/// Whether `obj`'s memory is a `bytes` or `bytearray` object's, directly or through
/// memoryviews: memory of CPython's heap, which no other mapping in the process shares.
/// Any other exporter (an `mmap`, a NumPy array that may be an `np.memmap`, a memoryview of
/// either) may be a second mapping of the same pages as another buffer, at another address,
/// so that an address comparison cannot see the overlap.
pub(crate) fn heap_memory(obj: &Bound<'_, PyAny>) -> bool {
    use pyo3::types::{PyByteArray, PyMemoryView};
    let mut o = obj.clone();
    // A memoryview of a memoryview names the first one's exporter: a short chain.
    for _ in 0..4 {
        if o.is_instance_of::<PyBytes>() || o.is_instance_of::<PyByteArray>() {
            return true;
        }
        if !o.is_instance_of::<PyMemoryView>() {
            return false;
        }
        match o.getattr("obj") {
            Ok(inner) if !inner.is_none() => o = inner,
            _ => return false,
        }
    }
    false
}

/// A private copy of `data` (the snapshot the `_into` forms read where their input may be
/// a second mapping of their output's pages, see [`heap_memory`]), reserved fallibly: a
/// `MemoryError`, never an abort.
pub(crate) fn private_copy(data: &[u8]) -> PyResult<Vec<u8>> {
    let mut copy = Vec::new();
    copy.try_reserve_exact(data.len())
        .map_err(|_| pyo3::exceptions::PyMemoryError::new_err("cannot copy the input"))?;
    copy.extend_from_slice(data);
    Ok(copy)
}

/// A checked bytes-like argument, read in place: a `bytes` object's storage, or for any
/// other bytes-like object an [`Export`] of its buffer held as long as this lives (so
/// length limits are checked before anything is read, in pyca's order).
pub(crate) enum Buf<'a> {
    /// A `bytes` object (or subclass)'s bytes: as pyca counts them (a subclass overriding
    /// `__len__` does not change it).
    Bytes(&'a [u8]),
    View(Export),
}

impl<'a> Buf<'a> {
    pub(crate) fn new(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
        let _ = what;
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(Buf::Bytes(b.as_bytes()));
        }
        Ok(Buf::View(Export::new(obj, false)?))
    }

    pub(crate) fn optional(obj: Option<&'a Bound<'_, PyAny>>, what: &str) -> PyResult<Self> {
        match obj {
            Some(o) if !o.is_none() => Self::new(o, what),
            _ => Ok(Buf::Bytes(&[])),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.get().len()
    }

    pub(crate) fn get(&self) -> &[u8] {
        match self {
            Buf::Bytes(b) => b,
            Buf::View(e) => e.bytes(),
        }
    }
}

// The buffer protocol, declared here: pyo3 offers it under the stable ABI only from CPython
// 3.11, where `Py_buffer` and these two functions joined the limited API with the layout
// and symbols every CPython 3 exports (unchanged since 3.3), and this abi3 wheel loads on
// 3.9 and 3.10 too.
#[repr(C)]
struct PyBufferRaw {
    buf: *mut c_void,
    obj: *mut ffi::PyObject,
    len: ffi::Py_ssize_t,
    itemsize: ffi::Py_ssize_t,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut ffi::Py_ssize_t,
    strides: *mut ffi::Py_ssize_t,
    suboffsets: *mut ffi::Py_ssize_t,
    internal: *mut c_void,
}

extern "C" {
    fn PyObject_GetBuffer(obj: *mut ffi::PyObject, view: *mut PyBufferRaw, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut PyBufferRaw);
}

const PYBUF_WRITABLE: c_int = 0x0001;
const PYBUF_FORMAT: c_int = 0x0004;
/// `PyBUF_C_CONTIGUOUS` (which includes `PyBUF_STRIDES` and `PyBUF_ND`).
const PYBUF_C_CONTIGUOUS: c_int = 0x0020 | 0x0010 | 0x0008;

/// An exported buffer (the buffer protocol), C-contiguous bytes, released on drop. While it
/// lives the exporter keeps its storage where it is: a `bytearray` refuses to resize, an
/// `mmap` to close, so the bytes stay valid with the GIL released too.
pub(crate) struct Export {
    // Boxed: `PyBuffer_Release` gets the address `PyObject_GetBuffer` filled.
    view: Box<PyBufferRaw>,
}

impl Export {
    /// Exports `obj`'s buffer as pyca accepts it: bytes (format `B` or `c`), C-contiguous,
    /// and for `writable` not read-only; anything else raises pyca's error for it.
    pub(crate) fn new(obj: &Bound<'_, PyAny>, writable: bool) -> PyResult<Self> {
        if let Some(e) = Self::try_new(obj, writable) {
            return Ok(e);
        }
        // Refused (or not bytes): pyca's checks, through a memoryview, say why; if they
        // find nothing wrong, the memoryview cast to bytes exports what they checked.
        let view = if writable {
            writable_view(obj)?
        } else {
            byte_view(obj)?.call_method1("cast", ("B",))?
        };
        Self::try_new(&view, writable)
            .ok_or_else(|| PyBufferError::new_err("Buffer is not contiguous."))
    }

    fn try_new(obj: &Bound<'_, PyAny>, writable: bool) -> Option<Self> {
        let mut view = Box::new(PyBufferRaw {
            buf: std::ptr::null_mut(),
            obj: std::ptr::null_mut(),
            len: 0,
            itemsize: 0,
            readonly: 0,
            ndim: 0,
            format: std::ptr::null_mut(),
            shape: std::ptr::null_mut(),
            strides: std::ptr::null_mut(),
            suboffsets: std::ptr::null_mut(),
            internal: std::ptr::null_mut(),
        });
        let flags = PYBUF_FORMAT | PYBUF_C_CONTIGUOUS | if writable { PYBUF_WRITABLE } else { 0 };
        // SAFETY: `obj` is a live object (we hold a reference and the GIL) and `view` a
        // writable `Py_buffer` that outlives the call; on success it is released in `drop`.
        if unsafe { PyObject_GetBuffer(obj.as_ptr(), &mut *view, flags) } != 0 {
            // A refusal (read-only, not contiguous, no buffer): the caller finds out why.
            drop(PyErr::take(obj.py()));
            return None;
        }
        let e = Export { view };
        // SAFETY: with `PyBUF_FORMAT` the exporter sets `format` to NULL (meaning "B") or
        // to a NUL-terminated string that lives as long as the export.
        let format =
            (!e.view.format.is_null()).then(|| unsafe { CStr::from_ptr(e.view.format) }.to_bytes());
        let bytes = matches!(format, None | Some(b"B") | Some(b"c"));
        (bytes && e.view.len >= 0 && (e.view.len == 0 || !e.view.buf.is_null())).then_some(e)
    }

    pub(crate) fn len(&self) -> usize {
        self.view.len as usize
    }

    /// The exported bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        if self.len() == 0 {
            return &[];
        }
        // A writable exporter's bytes can still be written by another thread while the
        // GIL is released: that is the caller's race (as with hashlib).
        // SAFETY: the exporter lent `len` contiguous bytes at `buf` (non-null, checked in
        // `try_new`) for as long as the export lives, which outlives this borrow; this
        // crate never writes an input (an overlapping `_into` output gets a copy).
        unsafe { std::slice::from_raw_parts(self.view.buf as *const u8, self.len()) }
    }

    /// The exported bytes, writable: only for an export made with `writable`.
    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        debug_assert_eq!(self.view.readonly, 0);
        if self.len() == 0 {
            return &mut [];
        }
        // SAFETY: a `PyBUF_WRITABLE` export lends `len` writable contiguous bytes at `buf`
        // while it lives; `&mut self` makes this the only borrow through this export (inputs
        // that overlap it are copied first, see `aead::disjoint`).
        unsafe { std::slice::from_raw_parts_mut(self.view.buf as *mut u8, self.len()) }
    }
}

impl Drop for Export {
    fn drop(&mut self) {
        // SAFETY: `view` was filled by a successful `PyObject_GetBuffer` and is released
        // once; every `Export` is made and dropped with the GIL held (it is not `Send`).
        unsafe { PyBuffer_Release(&mut *self.view) }
    }
}

/// A writable buffer argument (`buf` of `encrypt_into`/`decrypt_into`) after pyca's checks
/// (see [`byte_view`], then "Buffer is not writable."), as a memoryview of bytes.
fn writable_view<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let view = byte_view(obj)?;
    if view.getattr("readonly")?.extract::<bool>()? {
        return Err(PyTypeError::new_err("Buffer is not writable."));
    }
    view.call_method1("cast", ("B",))
}

/// A new `bytes` object of `len` bytes that `fill` writes in full, in place: one allocation,
/// no zero fill, no copy. With `detach` the GIL is released while `fill` runs (nothing else
/// can see the object before it is returned). If `fill` fails the object is dropped.
pub(crate) fn new_bytes<E: Send>(
    py: Python<'_>,
    len: usize,
    detach: bool,
    fill: impl FnOnce(&mut [u8]) -> Result<(), E> + Send,
) -> PyResult<Result<Py<PyBytes>, E>> {
    let n = ffi::Py_ssize_t::try_from(len).map_err(|_| PyOverflowError::new_err("too long"))?;
    // SAFETY: a NULL source asks CPython for a new bytes object of `n` bytes whose contents
    // are ours to write; we own the one reference returned (or NULL with an exception set).
    let obj = unsafe {
        Bound::from_owned_ptr_or_err(py, ffi::PyBytes_FromStringAndSize(std::ptr::null(), n))?
    }
    .cast_into::<PyBytes>()?;
    // SAFETY: `obj` is the bytes object just made: its storage is `len` bytes long, lives as
    // long as `obj`, and no one else holds a reference to it, so this is the only access.
    // Its bytes are not initialized: the kernels (`fill`) only write them (each byte
    // before any read of it), and on failure the object is dropped unread.
    let out = unsafe {
        std::slice::from_raw_parts_mut(ffi::PyBytes_AsString(obj.as_ptr()) as *mut u8, len)
    };
    let res = if detach {
        py.detach(|| fill(out))
    } else {
        fill(out)
    };
    Ok(res.map(|()| obj.unbind()))
}

/// Runs `f` with the GIL released when the input is large.
pub(crate) fn maybe_detach<T: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> T + Send) -> T {
    if len >= DETACH_MIN {
        py.detach(f)
    } else {
        f()
    }
}
