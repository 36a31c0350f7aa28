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

use crate::aead::disjoint;
use crate::buffers::{heap_memory, maybe_detach, new_bytes, Buf, Export};
use crate::errors::{already_finalized, invalid_tag};
use gcmkit::chunked::{Opener, Sealer};
use gcmkit::Error;
use pyo3::exceptions::{PyMemoryError, PyValueError};
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
    if matches!(d, Cow::Borrowed(_))
        && !data.is_empty()
        && !heap_memory(data_obj)
        && !heap_memory(buf_obj)
    {
        let mut copy = Vec::new();
        copy.try_reserve_exact(data.len())
            .map_err(|_| PyMemoryError::new_err("cannot copy the input"))?;
        copy.extend_from_slice(data);
        return Ok(Cow::Owned(copy));
    }
    Ok(d)
}

/// A new key: `len` random bytes.
fn generate_key(py: Python<'_>, len: usize) -> PyResult<Py<PyBytes>> {
    let mut k = zeroize::Zeroizing::new(vec![0u8; len]);
    getrandom::fill(&mut k)
        .map_err(|e| PyValueError::new_err(format!("no system randomness: {e:?}")))?;
    Ok(PyBytes::new(py, &k).unbind())
}

/// The state of an encryptor: `None` once finalized.
pub(crate) struct Encryptor(Option<Sealer>);

impl Encryptor {
    fn new(key: &Bound<'_, PyAny>, context: &Bound<'_, PyAny>, key_len: usize) -> PyResult<Self> {
        let py = key.py();
        let (k, c) = key_and_context(key, context, key_len)?;
        Ok(Encryptor(Some(
            Sealer::new(k.get(), c.get()).map_err(|e| to_py(py, e))?,
        )))
    }

    fn active(&mut self) -> PyResult<&mut Sealer> {
        self.0.as_mut().ok_or_else(already_finalized)
    }

    fn update(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyBytes>> {
        let d = Buf::new(data, "data")?;
        let s = self.active()?;
        let n = s.update_len(d.len());
        let input = d.get();
        new_bytes(py, n, d.len() >= crate::buffers::DETACH_MIN, |out| {
            s.update_into(input, out).map(|_| ())
        })?
        .map_err(|e| to_py(py, e))
    }

    fn update_into(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let d = Buf::new(data, "data")?;
        let mut out = Export::new(buf, true)?;
        let s = self.active()?;
        let need = s.update_len(d.len());
        if out.len() < need {
            return Err(to_py(
                py,
                Error::BufferSize {
                    got: out.len(),
                    expected: need,
                },
            ));
        }
        let input = readable_apart(d.get(), data, &out, buf)?;
        let dst = out.bytes_mut();
        maybe_detach(py, input.len(), || s.update_into(&input, dst)).map_err(|e| to_py(py, e))
    }

    fn finalize(&mut self, py: Python<'_>) -> PyResult<Py<PyBytes>> {
        let s = self.0.take().ok_or_else(already_finalized)?;
        let n = s.finish_len();
        new_bytes(py, n, false, |out| s.finish_into(out).map(|_| ()))?.map_err(|e| to_py(py, e))
    }
}

/// The state of a decryptor: `None` once finalized or after any failure (as pyca's: a
/// failed context cannot process more data).
pub(crate) struct Decryptor(Option<Opener>);

impl Decryptor {
    fn new(key: &Bound<'_, PyAny>, context: &Bound<'_, PyAny>, key_len: usize) -> PyResult<Self> {
        let py = key.py();
        let (k, c) = key_and_context(key, context, key_len)?;
        Ok(Decryptor(Some(
            Opener::new(k.get(), c.get()).map_err(|e| to_py(py, e))?,
        )))
    }

    fn active(&mut self) -> PyResult<&mut Opener> {
        self.0.as_mut().ok_or_else(already_finalized)
    }

    /// Runs `f` on the opener; a failure other than a short buffer ends the decryptor.
    fn run<T>(&mut self, py: Python<'_>, r: Result<T, Error>) -> PyResult<T> {
        match r {
            Ok(v) => Ok(v),
            Err(e @ Error::BufferSize { .. }) => Err(to_py(py, e)),
            Err(e) => {
                self.0 = None;
                Err(to_py(py, e))
            }
        }
    }

    fn update(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyBytes>> {
        let d = Buf::new(data, "data")?;
        let o = self.active()?;
        let n = o.update_len(d.len());
        let input = d.get();
        let r = new_bytes(py, n, d.len() >= crate::buffers::DETACH_MIN, |out| {
            o.update_into(input, out).map(|_| ())
        })?;
        self.run(py, r)
    }

    fn update_into(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let d = Buf::new(data, "data")?;
        let mut out = Export::new(buf, true)?;
        let o = self.active()?;
        let need = o.update_len(d.len());
        if out.len() < need {
            return Err(to_py(
                py,
                Error::BufferSize {
                    got: out.len(),
                    expected: need,
                },
            ));
        }
        let input = readable_apart(d.get(), data, &out, buf)?;
        let dst = out.bytes_mut();
        let r = maybe_detach(py, input.len(), || o.update_into(&input, dst));
        self.run(py, r)
    }

    fn finalize(&mut self, py: Python<'_>) -> PyResult<Py<PyBytes>> {
        let o = self.0.take().ok_or_else(already_finalized)?;
        let n = o.finish_len();
        new_bytes(py, n, false, |out| o.finish_into(out).map(|_| ()))?.map_err(|e| to_py(py, e))
    }
}

/// One pyca-named class pair: the encryptor and decryptor for keys of `$len` bytes.
macro_rules! cobblestone_pair {
    ($enc:ident, $dec:ident, $len:literal, $doc_enc:literal, $doc_dec:literal) => {
        #[doc = $doc_enc]
        #[pyclass(module = "gcmkit.cobblestone")]
        pub(crate) struct $enc(Encryptor);

        #[pymethods]
        impl $enc {
            #[new]
            fn new(key: &Bound<'_, PyAny>, context: &Bound<'_, PyAny>) -> PyResult<Self> {
                Encryptor::new(key, context, $len).map($enc)
            }

            /// A new random key.
            #[staticmethod]
            fn generate_key(py: Python<'_>) -> PyResult<Py<PyBytes>> {
                generate_key(py, $len)
            }

            /// Encrypts `data`: returns the header (first call) and every chunk completed.
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

            /// The final chunk (and the header if no update wrote it).
            fn finalize(&mut self, py: Python<'_>) -> PyResult<Py<PyBytes>> {
                self.0.finalize(py)
            }
        }

        #[doc = $doc_dec]
        #[pyclass(module = "gcmkit.cobblestone")]
        pub(crate) struct $dec(Decryptor);

        #[pymethods]
        impl $dec {
            #[new]
            fn new(key: &Bound<'_, PyAny>, context: &Bound<'_, PyAny>) -> PyResult<Self> {
                Decryptor::new(key, context, $len).map($dec)
            }

            /// Decrypts `data`: returns the plaintext of every chunk it completes, each
            /// verified; raises InvalidTag (and ends the decryptor) if one does not.
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

            /// Verifies the final chunk and returns its plaintext; InvalidTag if the
            /// message was cut or modified.
            fn finalize(&mut self, py: Python<'_>) -> PyResult<Py<PyBytes>> {
                self.0.finalize(py)
            }
        }
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
