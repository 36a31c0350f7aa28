//! `gcmkit.cobblestone`: pyca/cryptography's `cryptography.cobblestone` (50.0.2) exactly:
//! `Cobblestone128Encryptor`/`Decryptor` and `Cobblestone256Encryptor`/`Decryptor` with
//! `(key, context)` constructors, `update`, `update_into`, `finalize` and (encryptors)
//! `generate_key`; pyca's argument rules, messages, exceptions (`InvalidTag` and
//! `AlreadyFinalized`, subclasses of pyca's) and states after finalize or a failure.
//!
//! Over the core's `chunked::Sealer`/`Opener`: whole chunks go in one pass from the input
//! into the output (`update_into` writes into the caller's buffer itself), with the GIL
//! released for large inputs. Beyond pyca: a failed decryption zeroes what the failing
//! call wrote into the caller's buffer, and the key and context wait for the header in
//! memory that is wiped.

use crate::aead::{disjoint, random_key};
use crate::buffers::{heap_memory, maybe_detach, new_bytes, private_copy, Buf, Export, DETACH_MIN};
use crate::errors::{already_finalized, invalid_tag};
use gcmkit::chunked::{Opener, Sealer};
use gcmkit::Error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::borrow::Cow;

/// An error of the core as pyca raises it: `ValueError` for a short buffer and for a
/// message past 2^38 chunks, `InvalidTag` (no message) for everything that fails
/// authentication.
fn to_py(py: Python<'_>, e: Error) -> PyErr {
    match e {
        Error::BufferSize { expected, .. } => {
            PyValueError::new_err(format!("buffer must be at least {expected} bytes"))
        }
        Error::MessageTooLong { .. } => PyValueError::new_err(
            "Message exceeds the maximum chunked encryption length (2**38 chunks).",
        ),
        Error::InvalidKeyLength { .. } | Error::EngineUnavailable(_) => {
            PyValueError::new_err(e.to_string())
        }
        _ => match invalid_tag(py) {
            Ok(t) => PyErr::from_type(t.clone(), ()),
            Err(e) => e,
        },
    }
}

/// The key and context of a constructor, converted in pyca's order (key, then context:
/// a `TypeError` for either comes before the key's length is checked).
fn key_and_context<'a>(
    key: &'a Bound<'_, PyAny>,
    context: &'a Bound<'_, PyAny>,
    key_len: usize,
) -> PyResult<(Buf<'a>, Buf<'a>)> {
    let (k, c) = (Buf::new(key, "key")?, Buf::new(context, "context")?);
    if k.len() != key_len {
        return Err(PyValueError::new_err(format!(
            "key must be {key_len} bytes."
        )));
    }
    Ok((k, c))
}

/// The input of `update_into`, safe to read while `out` is written: a copy where it shares
/// memory with `out` (the same buffer, or a slice of it), or where neither is heap memory
/// and so may be two mappings of the same pages (`buffers::heap_memory`). The output runs
/// ahead of the input (the header, then a tag per chunk), so an aliased input would be
/// overwritten before it is read.
fn readable_apart<'b>(
    data: &'b [u8],
    data_obj: &Bound<'_, PyAny>,
    out: &Export,
    buf_obj: &Bound<'_, PyAny>,
) -> PyResult<Cow<'b, [u8]>> {
    let d = disjoint(data, &out.bytes().as_ptr_range());
    if matches!(d, Cow::Borrowed(_)) && !heap_memory(data_obj) && !heap_memory(buf_obj) {
        return private_copy(data).map(Cow::Owned);
    }
    Ok(d)
}

/// What the classes need of the core's `Sealer` and `Opener`: the same four calls.
trait Pieces: Sized + Send {
    /// Whether a failure ends the stream: pyca's decryptor cannot go on after one (a
    /// wrong tag), its encryptor can (a refused call changed nothing).
    const FAILURE_ENDS: bool;
    fn update_len(&self, data_len: usize) -> usize;
    fn update_into(&mut self, data: &[u8], out: &mut [u8]) -> Result<usize, Error>;
    fn finish_len(&self) -> usize;
    fn finish_into(self, out: &mut [u8]) -> Result<usize, Error>;
}

/// `Pieces` by the type's own methods of those names; `$ends`: `Pieces::FAILURE_ENDS`.
macro_rules! pieces_by_methods {
    ($t:ident, $ends:expr) => {
        impl Pieces for $t {
            const FAILURE_ENDS: bool = $ends;
            fn update_len(&self, n: usize) -> usize {
                $t::update_len(self, n)
            }
            fn update_into(&mut self, data: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                $t::update_into(self, data, out)
            }
            fn finish_len(&self) -> usize {
                $t::finish_len(self)
            }
            fn finish_into(self, out: &mut [u8]) -> Result<usize, Error> {
                $t::finish_into(self, out)
            }
        }
    };
}
pieces_by_methods!(Sealer, false);
pieces_by_methods!(Opener, true);

/// An encryptor's or decryptor's state: `None` once finalized (and, for a decryptor,
/// after any failure).
struct Stream<P>(Option<P>);

impl<P: Pieces> Stream<P> {
    /// The stream `start` makes from the checked key and context.
    fn new(
        key: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
        key_len: usize,
        start: fn(&[u8], &[u8]) -> Result<P, Error>,
    ) -> PyResult<Self> {
        let (k, c) = key_and_context(key, context, key_len)?;
        let p = start(k.get(), c.get()).map_err(|e| to_py(key.py(), e))?;
        Ok(Stream(Some(p)))
    }

    fn active(&mut self) -> PyResult<&mut P> {
        self.0.as_mut().ok_or_else(already_finalized)
    }

    /// A call's outcome as pyca raises it; a failure ends the stream where pyca's does.
    fn settle<T>(&mut self, py: Python<'_>, r: Result<T, Error>) -> PyResult<T> {
        if r.is_err() && P::FAILURE_ENDS {
            self.0 = None;
        }
        r.map_err(|e| to_py(py, e))
    }

    fn update(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyBytes>> {
        let d = Buf::new(data, "data")?;
        let p = self.active()?;
        let (n, input) = (p.update_len(d.len()), d.get());
        let r = new_bytes(py, n, input.len() >= DETACH_MIN, |out| {
            p.update_into(input, out).map(|_| ())
        })?;
        self.settle(py, r)
    }

    fn update_into(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let d = Buf::new(data, "data")?;
        let mut out = Export::new(buf, true)?;
        let p = self.active()?;
        // Refused before anything changes, so a short buffer never ends the stream.
        let (got, expected) = (out.len(), p.update_len(d.len()));
        if got < expected {
            return Err(to_py(py, Error::BufferSize { got, expected }));
        }
        let input = readable_apart(d.get(), data, &out, buf)?;
        let dst = out.bytes_mut();
        let r = maybe_detach(py, input.len(), || p.update_into(&input, dst));
        self.settle(py, r)
    }

    fn finalize(&mut self, py: Python<'_>) -> PyResult<Py<PyBytes>> {
        let p = self.0.take().ok_or_else(already_finalized)?;
        let n = p.finish_len();
        new_bytes(py, n, false, |out| p.finish_into(out).map(|_| ()))?.map_err(|e| to_py(py, e))
    }
}

/// The three calls both classes of a pair have, with their docs: `update`,
/// `update_into` and `finalize` over the class's `Stream`.
macro_rules! stream_methods {
    ($cls:ident, update: $update:literal, finalize: $finalize:literal) => {
        #[pymethods]
        impl $cls {
            #[doc = $update]
            fn update(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyBytes>> {
                self.0.update(py, data)
            }

            /// As `update`, written into the writable buffer `buf`; returns the count.
            fn update_into(
                &mut self,
                py: Python<'_>,
                data: &Bound<'_, PyAny>,
                buf: &Bound<'_, PyAny>,
            ) -> PyResult<usize> {
                self.0.update_into(py, data, buf)
            }

            #[doc = $finalize]
            fn finalize(&mut self, py: Python<'_>) -> PyResult<Py<PyBytes>> {
                self.0.finalize(py)
            }
        }
    };
}

/// One pyca-named class pair: the encryptor and decryptor for keys of `$len` bytes.
macro_rules! cobblestone_pair {
    ($enc:ident, $dec:ident, $len:literal, $doc_enc:literal, $doc_dec:literal) => {
        #[doc = $doc_enc]
        #[pyclass(module = "gcmkit.cobblestone")]
        pub(crate) struct $enc(Stream<Sealer>);

        #[pymethods]
        impl $enc {
            #[new]
            fn new(key: &Bound<'_, PyAny>, context: &Bound<'_, PyAny>) -> PyResult<Self> {
                Stream::new(key, context, $len, Sealer::new).map($enc)
            }

            /// A new random key.
            #[staticmethod]
            fn generate_key(py: Python<'_>) -> PyResult<Py<PyBytes>> {
                random_key(py, 8 * $len, &[8 * $len])
            }
        }
        stream_methods!($enc,
            update: "Encrypts `data`: returns the header (first call) and every chunk completed.",
            finalize: "The final chunk (and the header if no update wrote it).");

        #[doc = $doc_dec]
        #[pyclass(module = "gcmkit.cobblestone")]
        pub(crate) struct $dec(Stream<Opener>);

        #[pymethods]
        impl $dec {
            #[new]
            fn new(key: &Bound<'_, PyAny>, context: &Bound<'_, PyAny>) -> PyResult<Self> {
                Stream::new(key, context, $len, Opener::new).map($dec)
            }
        }
        stream_methods!($dec,
            update: "Decrypts `data`: returns the plaintext of every chunk it completes, each verified; raises InvalidTag (and ends the decryptor) if one does not.",
            finalize: "Verifies the final chunk and returns its plaintext; InvalidTag if the message was cut or modified.");
    };
}

cobblestone_pair!(
    Cobblestone128Encryptor,
    Cobblestone128Decryptor,
    16,
    "Cobblestone-128 encryption (HKDF-SHA-512, AES-128-GCM), as pyca/cryptography's.",
    "Cobblestone-128 decryption, as pyca/cryptography's: releases only verified chunks."
);
cobblestone_pair!(
    Cobblestone256Encryptor,
    Cobblestone256Decryptor,
    32,
    "Cobblestone-256 encryption (HKDF-SHA-512, AES-256-GCM), as pyca/cryptography's.",
    "Cobblestone-256 decryption, as pyca/cryptography's: releases only verified chunks."
);
