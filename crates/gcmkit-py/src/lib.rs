//! Python bindings: thin wrappers over the gcmkit core, with pyca/cryptography's names.
//!
//! Inputs are any bytes-like object: `bytes` is read in place; other objects (bytearray,
//! memoryview, array) are converted with `bytes(obj)` (one copy: the buffer protocol is
//! not in the stable ABI before CPython 3.11, and this wheel supports 3.9+). Work on
//! inputs above `DETACH_MIN` bytes runs with the GIL released.

use gcmkit::fs::{Output, Overwrite};
use gcmkit::{AesGcm, AesGcmSiv, DndkGcm, Engine, Error, GcmSiv2015, Gmac, XAes256Gcm};
use pyo3::exceptions::{PyBufferError, PyException, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PySlice, PyType};
use std::borrow::Cow;

/// Inputs at least this long release the GIL while they are processed.
const DETACH_MIN: usize = 32768;

static INVALID_TAG: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `gcmkit.InvalidTag`: a subclass of `cryptography.exceptions.InvalidTag` when pyca's
/// package is installed, so existing `except InvalidTag:` clauses keep working.
fn invalid_tag(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    Ok(INVALID_TAG
        .get_or_try_init(py, || -> PyResult<Py<PyType>> {
            let base = py
                .import("cryptography.exceptions")
                .and_then(|m| m.getattr("InvalidTag"))
                .and_then(|b| b.cast_into::<PyType>().map_err(Into::into))
                .unwrap_or_else(|_| py.get_type::<PyException>());
            let ty = PyErr::new_type(
                py,
                c"gcmkit.InvalidTag",
                Some(c"Authentication failed: the tag does not match."),
                Some(&base),
                None,
            )?;
            Ok(ty)
        })?
        .bind(py))
}

fn to_py(py: Python<'_>, e: Error) -> PyErr {
    match e {
        Error::AuthenticationFailed => match invalid_tag(py) {
            Ok(t) => PyErr::from_type(t.clone(), ()),
            Err(e) => e,
        },
        other => PyValueError::new_err(other.to_string()),
    }
}

/// A bytes-like argument, accepted exactly as pyca/cryptography accepts it: an object with
/// the buffer protocol whose items are bytes (format `B` or `c`: `bytes`, `bytearray`,
/// `memoryview`, `array('B')`, `mmap`), C-contiguous; anything else (int, str, list,
/// generator, `array('I')`) is a `TypeError` and a strided view a `BufferError`, with
/// pyca's messages. `bytes` is read in place; other buffers are copied once (the buffer
/// protocol is not in the stable ABI before CPython 3.11, and this wheel supports 3.9+).
/// `what` names the argument for gcmkit's own messages (pyca's name none).
fn bytes_like<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Cow<'a, [u8]>> {
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
fn byte_view<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
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

fn opt_bytes<'a>(obj: Option<&'a Bound<'_, PyAny>>, what: &str) -> PyResult<Cow<'a, [u8]>> {
    match obj {
        None => Ok(Cow::Borrowed(&[])),
        Some(o) if o.is_none() => Ok(Cow::Borrowed(&[])),
        Some(o) => bytes_like(o, what),
    }
}

/// A checked bytes-like argument whose bytes are copied only when needed (so length
/// limits are checked before a huge buffer is copied, in pyca's order).
enum Buf<'a, 'py> {
    /// A `bytes` object (or subclass) and its length: the bytes it holds, as pyca counts
    /// them (a subclass overriding `__len__` does not change it).
    Bytes(&'a [u8], usize),
    View(Bound<'py, PyAny>, usize),
}

impl<'a, 'py> Buf<'a, 'py> {
    fn new(obj: &'a Bound<'py, PyAny>, what: &str) -> PyResult<Self> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(Buf::Bytes(b.as_bytes(), b.as_bytes().len()));
        }
        let _ = what;
        let view = byte_view(obj)?;
        let n = view.getattr("nbytes")?.extract()?;
        Ok(Buf::View(view, n))
    }

    fn optional(obj: Option<&'a Bound<'py, PyAny>>, what: &str) -> PyResult<Self> {
        match obj {
            Some(o) if !o.is_none() => Self::new(o, what),
            _ => Ok(Buf::Bytes(&[], 0)),
        }
    }

    fn len(&self) -> usize {
        match self {
            Buf::Bytes(_, n) | Buf::View(_, n) => *n,
        }
    }

    fn get(&self) -> PyResult<Cow<'_, [u8]>> {
        match self {
            Buf::Bytes(b, _) => Ok(Cow::Borrowed(b)),
            Buf::View(v, _) => {
                let b = v.call_method0("tobytes")?;
                Ok(Cow::Owned(b.cast::<PyBytes>()?.as_bytes().to_vec()))
            }
        }
    }
}

/// pyca/cryptography's rules for one class: its nonce check (message included). gcmkit's
/// own classes have none (the core's errors speak for themselves).
struct PycaRules {
    nonce_ok: fn(usize) -> bool,
    nonce_msg: &'static str,
}

const AESGCM_RULES: PycaRules = PycaRules {
    nonce_ok: |n| (8..=128).contains(&n),
    nonce_msg: "Nonce must be between 8 and 128 bytes",
};
const AESGCMSIV_RULES: PycaRules = PycaRules {
    nonce_ok: |n| n == 12,
    nonce_msg: "Nonce must be 12 bytes long",
};

/// pyca's limit on data and associated data (they are passed to OpenSSL as C ints).
const PYCA_MAX: usize = (1 << 31) - 1;

fn check_pyca_lengths(rules: Option<&PycaRules>, data: usize, aad: usize) -> PyResult<()> {
    if rules.is_some() && (data > PYCA_MAX || aad > PYCA_MAX) {
        return Err(PyOverflowError::new_err(
            "Data or associated data too long. Max 2**31 - 1 bytes",
        ));
    }
    Ok(())
}

fn check_pyca_nonce(rules: Option<&PycaRules>, nonce: usize) -> PyResult<()> {
    match rules {
        Some(r) if !(r.nonce_ok)(nonce) => Err(PyValueError::new_err(r.nonce_msg)),
        _ => Ok(()),
    }
}

/// A writable buffer argument (`buf` of `encrypt_into`/`decrypt_into`), checked as pyca
/// checks it, as a memoryview and its length.
fn writable<'py>(obj: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyAny>, usize)> {
    let view = byte_view(obj)?;
    if view.getattr("readonly")?.extract::<bool>()? {
        return Err(PyTypeError::new_err("Buffer is not writable."));
    }
    let n = view.getattr("nbytes")?.extract()?;
    Ok((view.call_method1("cast", ("B",))?, n))
}

/// Runs `f` with the GIL released when the input is large.
fn maybe_detach<T: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> T + Send) -> T {
    if len >= DETACH_MIN {
        py.detach(f)
    } else {
        f()
    }
}

fn random_key(py: Python<'_>, bits: usize, allowed: &[usize]) -> PyResult<Py<PyBytes>> {
    if !allowed.contains(&bits) {
        let list: Vec<String> = allowed.iter().map(|b| b.to_string()).collect();
        let msg = match list.len() {
            3 => format!(
                "bit_length must be {}, {}, or {}",
                list[0], list[1], list[2]
            ),
            _ => format!("bit_length must be {}", list.join(" or ")),
        };
        return Err(PyValueError::new_err(msg));
    }
    let mut k = vec![0u8; bits / 8];
    getrandom::fill(&mut k)
        .map_err(|e| PyValueError::new_err(format!("no system randomness: {e:?}")))?;
    Ok(PyBytes::new(py, &k).unbind())
}

/// The AEADs behind AESGCM, AESGCMSIV and GCMSIV2015: gcmkit's own mode interface
/// (AES-GCM's `encrypt_into`/`decrypt_into` run its one-pass out-of-place kernels).
type Aead = dyn gcmkit::AeadMode + Sync;

/// The arguments of one AEAD call, extracted in pyca's order (nonce, data, associated
/// data: a wrong type is reported for the first wrong argument).
struct Args<'a, 'py> {
    nonce: Buf<'a, 'py>,
    data: Buf<'a, 'py>,
    aad: Buf<'a, 'py>,
}

impl<'a, 'py> Args<'a, 'py> {
    fn new(
        nonce: &'a Bound<'py, PyAny>,
        data: &'a Bound<'py, PyAny>,
        aad: Option<&'a Bound<'py, PyAny>>,
    ) -> PyResult<Self> {
        Ok(Args {
            nonce: Buf::new(nonce, "nonce")?,
            data: Buf::new(data, "data")?,
            aad: Buf::optional(aad, "associated_data")?,
        })
    }
}

/// Encryption checks in pyca's order: argument types, then lengths (OverflowError), then
/// the nonce; returns the checked arguments' bytes.
#[allow(clippy::type_complexity)]
fn encrypt_checks<'b>(
    rules: Option<&PycaRules>,
    a: &'b Args<'_, '_>,
) -> PyResult<(Cow<'b, [u8]>, Cow<'b, [u8]>, Cow<'b, [u8]>)> {
    check_pyca_lengths(rules, a.data.len(), a.aad.len())?;
    check_pyca_nonce(rules, a.nonce.len())?;
    Ok((a.nonce.get()?, a.data.get()?, a.aad.get()?))
}

/// Decryption checks in pyca's order: argument types, the nonce, then a ciphertext
/// shorter than the tag is `InvalidTag` (pyca's answer; gcmkit's own classes say why);
/// the AAD's length limit comes after these (and after `decrypt_into`'s buffer size).
fn decrypt_checks(
    py: Python<'_>,
    rules: Option<&PycaRules>,
    c: &Aead,
    a: &Args,
) -> PyResult<usize> {
    check_pyca_nonce(rules, a.nonce.len())?;
    let len = a.data.len();
    len.checked_sub(c.tag_len()).ok_or_else(|| {
        if rules.is_some() {
            to_py(py, Error::AuthenticationFailed)
        } else {
            to_py(
                py,
                Error::CiphertextTooShort {
                    len,
                    min: c.tag_len(),
                },
            )
        }
    })
}

fn encrypt(py: Python<'_>, c: &Aead, rules: Option<&PycaRules>, a: Args) -> PyResult<Py<PyBytes>> {
    let (nonce, data, aad) = encrypt_checks(rules, &a)?;
    let n = data.len();
    let mut res = Ok(());
    // Written straight into the new bytes object (no intermediate buffer); the object is
    // not visible to other Python code yet, so the GIL can be released while filling it.
    let out = PyBytes::new_with(py, n + c.tag_len(), |buf| {
        res = maybe_detach(py, n, || c.encrypt_into(&nonce, &data, &aad, buf));
        Ok(())
    })?;
    res.map_err(|e| to_py(py, e))?;
    Ok(out.unbind())
}

fn decrypt(py: Python<'_>, c: &Aead, rules: Option<&PycaRules>, a: Args) -> PyResult<Py<PyBytes>> {
    let n = decrypt_checks(py, rules, c, &a)?;
    check_pyca_lengths(rules, 0, a.aad.len())?;
    let (nonce, data, aad) = (a.nonce.get()?, a.data.get()?, a.aad.get()?);
    let mut res = Ok(());
    // On failure the core zeroes `buf`, and the half-built object is dropped.
    let out = PyBytes::new_with(py, n, |buf| {
        res = maybe_detach(py, n, || c.decrypt_into(&nonce, &data, &aad, buf));
        Ok(())
    })?;
    res.map_err(|e| to_py(py, e))?;
    Ok(out.unbind())
}

/// `buf` must hold exactly `need` bytes (pyca's message).
fn check_size(have: usize, need: usize) -> PyResult<()> {
    if have == need {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "buffer must be {need} bytes"
        )))
    }
}

// The `_into` forms build the result as one bytes object (written by the kernel in one
// pass, as `encrypt` does) and copy it into `buf` through a memoryview. Writing into
// `buf` directly would need the buffer protocol, which the Python 3.9 stable ABI this
// wheel targets does not have. On a failed decryption `buf` is not touched (pyca leaves
// the unverified plaintext there; untouched is the safer reading of its contract).
fn encrypt_into(
    py: Python<'_>,
    c: &Aead,
    rules: Option<&PycaRules>,
    a: Args,
    buf: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    let (view, have) = writable(buf)?;
    // pyca's order here: nonce, the data's limit, buffer size, the AAD's limit.
    check_pyca_nonce(rules, a.nonce.len())?;
    check_pyca_lengths(rules, a.data.len(), 0)?;
    check_size(have, a.data.len() + c.tag_len())?;
    check_pyca_lengths(rules, 0, a.aad.len())?;
    let ct = encrypt(py, c, rules, a)?;
    view.set_item(PySlice::full(py), ct.bind(py))?;
    Ok(have)
}

fn decrypt_into(
    py: Python<'_>,
    c: &Aead,
    rules: Option<&PycaRules>,
    a: Args,
    buf: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    let (view, have) = writable(buf)?;
    let n = decrypt_checks(py, rules, c, &a)?;
    check_size(have, n)?;
    let pt = decrypt(py, c, rules, a)?;
    view.set_item(PySlice::full(py), pt.bind(py))?;
    Ok(have)
}

/// Generates the four AEAD methods on a pyclass holding `inner`: with pyca/cryptography's
/// signatures and rules (`pyca: RULES`: `associated_data` required, pyca's checks and
/// messages) or gcmkit's own (`associated_data` optional, the core's messages).
macro_rules! aead_methods {
    ($cls:ident, pyca: $rules:expr) => {
        aead_methods!(@impl $cls, Some(&$rules), (nonce, data, associated_data));
    };
    ($cls:ident) => {
        aead_methods!(@impl $cls, None, (nonce, data, associated_data = None));
    };
    (@impl $cls:ident, $r:expr, $sig:tt) => {
        #[pymethods]
        impl $cls {
            /// Encrypts `data`; returns ciphertext || tag.
            #[pyo3(signature = $sig)]
            fn encrypt(
                &self,
                py: Python<'_>,
                nonce: &Bound<'_, PyAny>,
                data: &Bound<'_, PyAny>,
                associated_data: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Py<PyBytes>> {
                let rules: Option<&PycaRules> = $r;
                encrypt(py, &self.inner, rules, Args::new(nonce, data, associated_data)?)
            }

            /// Decrypts ciphertext || tag; raises InvalidTag if it does not verify.
            #[pyo3(signature = $sig)]
            fn decrypt(
                &self,
                py: Python<'_>,
                nonce: &Bound<'_, PyAny>,
                data: &Bound<'_, PyAny>,
                associated_data: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Py<PyBytes>> {
                let rules: Option<&PycaRules> = $r;
                decrypt(py, &self.inner, rules, Args::new(nonce, data, associated_data)?)
            }

            /// Encrypts into the writable buffer `buf` of len(data) + tag length; returns
            /// the count.
            #[pyo3(signature = (nonce, data, associated_data, buf))]
            fn encrypt_into(
                &self,
                py: Python<'_>,
                nonce: &Bound<'_, PyAny>,
                data: &Bound<'_, PyAny>,
                associated_data: Option<&Bound<'_, PyAny>>,
                buf: &Bound<'_, PyAny>,
            ) -> PyResult<usize> {
                let rules: Option<&PycaRules> = $r;
                let a = Args::new(nonce, data, associated_data)?;
                encrypt_into(py, &self.inner, rules, a, buf)
            }

            /// Decrypts into the writable buffer `buf` of len(data) - tag length; returns
            /// the count. `buf` is untouched if the tag does not verify.
            #[pyo3(signature = (nonce, data, associated_data, buf))]
            fn decrypt_into(
                &self,
                py: Python<'_>,
                nonce: &Bound<'_, PyAny>,
                data: &Bound<'_, PyAny>,
                associated_data: Option<&Bound<'_, PyAny>>,
                buf: &Bound<'_, PyAny>,
            ) -> PyResult<usize> {
                let rules: Option<&PycaRules> = $r;
                let a = Args::new(nonce, data, associated_data)?;
                decrypt_into(py, &self.inner, rules, a, buf)
            }
        }
    };
}

/// The key of a pyca-named class: bytes-like (pyca's type rules), 16, 24 or 32 bytes, or
/// `ValueError(msg)`.
fn pyca_key<'a>(
    key: &'a Bound<'_, PyAny>,
    what: &str,
    msg: &'static str,
) -> PyResult<Cow<'a, [u8]>> {
    let k = bytes_like(key, what)?;
    if [16, 24, 32].contains(&k.len()) {
        Ok(k)
    } else {
        Err(PyValueError::new_err(msg))
    }
}

/// AES-GCM exactly as pyca/cryptography's `AESGCM` (nonces of 8 to 128 bytes, 16-byte
/// tags, its exceptions and messages). gcmkit's extensions (any IV length, truncated tags)
/// are in `AesGcm`.
#[pyclass(frozen, module = "gcmkit")]
struct AESGCM {
    inner: AesGcm,
}

#[pymethods]
impl AESGCM {
    #[new]
    fn new(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Self> {
        let k = pyca_key(key, "", "AESGCM key must be 128, 192, or 256 bits.")?;
        Ok(AESGCM {
            inner: AesGcm::new(&k).map_err(|e| to_py(py, e))?,
        })
    }

    /// A random key of 128, 192 or 256 bits.
    #[staticmethod]
    fn generate_key(py: Python<'_>, bit_length: usize) -> PyResult<Py<PyBytes>> {
        random_key(py, bit_length, &[128, 192, 256])
    }
}
aead_methods!(AESGCM, pyca: AESGCM_RULES);

/// AES-GCM with gcmkit's extensions, kept out of the pyca-named `AESGCM` so that one stays
/// exact: IVs of any length from 1 byte (12 is the fast path; other lengths are hashed
/// into the first counter, as SP 800-38D allows) and tags of 16, 15, 14, 13, 12, 8 or 4
/// bytes (`tag_length`; SP 800-38D Appendix C limits how much a short tag may protect).
#[pyclass(frozen, module = "gcmkit", name = "AesGcm")]
struct AesGcmExt {
    inner: AesGcm,
}

#[pymethods]
impl AesGcmExt {
    #[new]
    #[pyo3(signature = (key, tag_length=16))]
    fn new(py: Python<'_>, key: &Bound<'_, PyAny>, tag_length: usize) -> PyResult<Self> {
        let k = bytes_like(key, "key")?;
        let inner = AesGcm::new(&k)
            .and_then(|c| c.with_tag_len(tag_length))
            .map_err(|e| to_py(py, e))?;
        Ok(AesGcmExt { inner })
    }

    /// A random key of 128, 192 or 256 bits.
    #[staticmethod]
    fn generate_key(py: Python<'_>, bit_length: usize) -> PyResult<Py<PyBytes>> {
        random_key(py, bit_length, &[128, 192, 256])
    }
}
aead_methods!(AesGcmExt);

/// AES-GCM-SIV (RFC 8452; AES-192 as OpenSSL defines it) exactly as pyca/cryptography's
/// `AESGCMSIV`.
#[pyclass(frozen, module = "gcmkit")]
struct AESGCMSIV {
    inner: AesGcmSiv,
}

#[pymethods]
impl AESGCMSIV {
    #[new]
    fn new(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Self> {
        let k = pyca_key(key, "key", "AES-GCM-SIV key must be 128, 192 or 256 bits.")?;
        Ok(AESGCMSIV {
            inner: AesGcmSiv::new(&k).map_err(|e| to_py(py, e))?,
        })
    }

    /// A random key of 128, 192 or 256 bits.
    #[staticmethod]
    fn generate_key(py: Python<'_>, bit_length: usize) -> PyResult<Py<PyBytes>> {
        random_key(py, bit_length, &[128, 192, 256])
    }
}
aead_methods!(AESGCMSIV, pyca: AESGCMSIV_RULES);

/// XAES-256-GCM (c2sp.org/XAES-256-GCM): a 32-byte key and 24-byte nonces safe to
/// choose at random (``os.urandom(24)``) for any number of messages.
#[pyclass(frozen, module = "gcmkit")]
struct XAES256GCM {
    inner: XAes256Gcm,
}

#[pymethods]
impl XAES256GCM {
    #[new]
    fn new(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Self> {
        let k = bytes_like(key, "key")?;
        Ok(XAES256GCM {
            inner: XAes256Gcm::new(&k).map_err(|e| to_py(py, e))?,
        })
    }

    /// A random 256-bit key.
    #[staticmethod]
    fn generate_key(py: Python<'_>) -> PyResult<Py<PyBytes>> {
        random_key(py, 256, &[256])
    }
}
aead_methods!(XAES256GCM);

/// DNDK-GCM (draft-gueron-cfrg-dndkgcm-03): a 32-byte root key, nonces of
/// ``nonce_length`` bytes (12 to 27, default 24) and, with ``key_commitment=True``, a
/// 48-byte tag (the GCM tag, then the 32-byte key commitment).
#[pyclass(frozen, module = "gcmkit")]
struct DNDKGCM {
    inner: DndkGcm,
}

#[pymethods]
impl DNDKGCM {
    #[new]
    #[pyo3(signature = (key, *, key_commitment=false, nonce_length=24))]
    fn new(
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        key_commitment: bool,
        nonce_length: usize,
    ) -> PyResult<Self> {
        let k = bytes_like(key, "key")?;
        let inner = DndkGcm::new(&k)
            .and_then(|c| c.with_nonce_len(nonce_length))
            .map(|c| {
                if key_commitment {
                    c.with_key_commitment()
                } else {
                    c
                }
            })
            .map_err(|e| to_py(py, e))?;
        Ok(DNDKGCM { inner })
    }

    /// A random 256-bit key.
    #[staticmethod]
    fn generate_key(py: Python<'_>) -> PyResult<Py<PyBytes>> {
        random_key(py, 256, &[256])
    }
}
aead_methods!(DNDKGCM);

/// GCM-SIV as published in 2015: GCMSIV2015(key) is one-key (16 bytes);
/// GCMSIV2015(hash_key, prf_key) two-key; GCMSIV2015(hash_key, prf_key, ctr_key)
/// three-key; counter_bits is the paper's k (1..32).
#[pyclass(frozen, module = "gcmkit")]
struct GCMSIV2015 {
    inner: GcmSiv2015,
}

#[pymethods]
impl GCMSIV2015 {
    #[new]
    #[pyo3(signature = (key, prf_key=None, ctr_key=None, counter_bits=32))]
    fn new(
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        prf_key: Option<&Bound<'_, PyAny>>,
        ctr_key: Option<&Bound<'_, PyAny>>,
        counter_bits: u32,
    ) -> PyResult<Self> {
        let k = bytes_like(key, "key")?;
        let c = match (prf_key, ctr_key) {
            (None, None) => GcmSiv2015::one_key(&k),
            (Some(p), None) => GcmSiv2015::two_key(&k, &bytes_like(p, "prf_key")?),
            (Some(p), Some(c)) => {
                GcmSiv2015::three_key(&k, &bytes_like(p, "prf_key")?, &bytes_like(c, "ctr_key")?)
            }
            (None, Some(_)) => return Err(PyValueError::new_err("ctr_key needs prf_key")),
        };
        let inner = c
            .and_then(|c| c.with_counter_bits(counter_bits))
            .map_err(|e| to_py(py, e))?;
        Ok(GCMSIV2015 { inner })
    }
}
aead_methods!(GCMSIV2015);

/// GMAC: a MAC over data with a nonce.
#[pyclass(frozen, module = "gcmkit")]
struct GMAC {
    inner: Gmac,
}

#[pymethods]
impl GMAC {
    #[new]
    #[pyo3(signature = (key, tag_length=16))]
    fn new(py: Python<'_>, key: &Bound<'_, PyAny>, tag_length: usize) -> PyResult<Self> {
        let k = bytes_like(key, "key")?;
        Ok(GMAC {
            inner: Gmac::new(&k)
                .and_then(|m| m.with_tag_len(tag_length))
                .map_err(|e| to_py(py, e))?,
        })
    }

    /// The tag of `data` under `nonce`.
    fn compute(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyBytes>> {
        let (n, d) = (bytes_like(nonce, "nonce")?, bytes_like(data, "data")?);
        let t =
            maybe_detach(py, d.len(), || self.inner.compute(&n, &d)).map_err(|e| to_py(py, e))?;
        Ok(PyBytes::new(py, t.as_ref()).unbind())
    }

    /// Checks a tag in constant time; raises InvalidTag if it does not match.
    fn verify(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let (n, d, t) = (
            bytes_like(nonce, "nonce")?,
            bytes_like(data, "data")?,
            bytes_like(tag, "tag")?,
        );
        maybe_detach(py, d.len(), || self.inner.verify(&n, &d, &t)).map_err(|e| to_py(py, e))
    }
}

/// An OS error as Python's `OSError(errno, strerror)` (so it becomes the right subclass,
/// `FileNotFoundError` and so on, and carries `errno`; the Python layer adds the file name).
fn os_err(e: &std::io::Error) -> PyErr {
    match e.raw_os_error() {
        Some(code) => Python::attach(|py| {
            let msg = py
                .import("os")
                .and_then(|os| os.call_method1("strerror", (code,)))
                .and_then(|m| m.extract::<String>())
                .unwrap_or_else(|_| e.to_string());
            pyo3::exceptions::PyOSError::new_err((code, msg))
        }),
        None => PyErr::from(std::io::Error::new(e.kind(), e.to_string())),
    }
}

fn chunk_err(e: Error) -> PyErr {
    match e {
        Error::Io(e) => os_err(e.get_ref()),
        Error::InvalidKeyLength { .. } | Error::EngineUnavailable(_) => {
            PyValueError::new_err(e.to_string())
        }
        other => Python::attach(|py| match invalid_tag(py) {
            Ok(t) => PyErr::from_type(t.clone(), other.to_string()),
            Err(e) => e,
        }),
    }
}

type OneShot = fn(&[u8], &[u8], &[u8]) -> Result<Vec<u8>, Error>;

/// A one-shot Cobblestone call on bytes-like arguments, GIL released for large inputs.
fn chunked_one_shot(
    py: Python<'_>,
    f: OneShot,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    let (k, d, c) = (
        bytes_like(key, "key")?,
        bytes_like(data, "data")?,
        opt_bytes(context, "context")?,
    );
    let v = maybe_detach(py, d.len(), || f(&k, &c, &d)).map_err(chunk_err)?;
    Ok(PyBytes::new(py, &v).unbind())
}

/// Cobblestone one-shot encryption.
#[pyfunction]
#[pyo3(signature = (key, data, context=None))]
fn chunked_encrypt(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    chunked_one_shot(py, gcmkit::chunked::encrypt, key, data, context)
}

/// Cobblestone one-shot decryption; raises InvalidTag (wrong key/context, modified,
/// truncated).
#[pyfunction]
#[pyo3(signature = (key, data, context=None))]
fn chunked_decrypt(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    chunked_one_shot(py, gcmkit::chunked::decrypt, key, data, context)
}

/// Encrypts the file `src` to `dst` (Cobblestone; parallel, constant memory).
#[pyfunction]
#[pyo3(signature = (key, src, dst, context=None))]
fn encrypt_file(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    src: std::path::PathBuf,
    dst: std::path::PathBuf,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let (k, c) = (bytes_like(key, "key")?, opt_bytes(context, "context")?);
    py.detach(|| gcmkit::chunked::encrypt_file(&k, &c, &src, &dst, Overwrite::Replace))
        .map_err(chunk_err)
}

/// Decrypts `src` to `dst`; nothing appears at `dst` unless the whole file verified.
#[pyfunction]
#[pyo3(signature = (key, src, dst, context=None))]
fn decrypt_file(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    src: std::path::PathBuf,
    dst: std::path::PathBuf,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let (k, c) = (bytes_like(key, "key")?, opt_bytes(context, "context")?);
    py.detach(|| gcmkit::chunked::decrypt_file(&k, &c, &src, &dst, Overwrite::Replace))
        .map_err(chunk_err)
}

/// A Cobblestone file being read (the Rust side of `gcmkit.chunked.ChunkedReader`, an
/// `io.RawIOBase`): random access over the verified plaintext. Opening authenticates the
/// header and the length (the final chunk); every read verifies the chunks it touches.
#[pyclass(module = "gcmkit._gcmkit")]
struct ChunkedReader {
    inner: Option<gcmkit::chunked::SeekableDecryptor<std::io::BufReader<std::fs::File>>>,
    /// A failure met after some verified bytes were returned: raised by the next call
    /// (a read never discards the verified bytes it already has).
    pending: Option<Error>,
}

fn read_err(e: std::io::Error) -> PyErr {
    match e.into_inner().and_then(|i| i.downcast::<Error>().ok()) {
        Some(ce) => chunk_err(*ce),
        None => PyValueError::new_err("read failed"),
    }
}

fn to_core(e: std::io::Error) -> Error {
    match e.get_ref().and_then(|i| i.downcast_ref::<Error>()) {
        Some(ce) => ce.clone(),
        None => Error::from(e),
    }
}

#[pymethods]
impl ChunkedReader {
    /// Up to `size` verified bytes (fewer only at the end of the stream or before a chunk
    /// that fails, whose error the next call raises).
    fn read_some(&mut self, py: Python<'_>, size: usize) -> PyResult<Py<PyBytes>> {
        use std::io::Read;
        if let Some(e) = self.pending.take() {
            return Err(chunk_err(e));
        }
        let d = self
            .inner
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("I/O operation on closed file."))?;
        let mut out = vec![0u8; size];
        let (n, err) = py.detach(|| {
            let mut n = 0;
            while n < size {
                match d.read(&mut out[n..]) {
                    Ok(0) => break,
                    Ok(k) => n += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return (n, Some(e)),
                }
            }
            (n, None)
        });
        out.truncate(n);
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
    fn seek(&mut self, offset: i64, whence: i32) -> PyResult<u64> {
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
        d.seek(to).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidInput => PyValueError::new_err(e.to_string()),
            _ => read_err(e),
        })
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
struct ChunkedWriter {
    /// Writes into a temporary file (`gcmkit::fs`) that becomes the destination only at
    /// `close()`; dropping it unclosed removes the temporary file.
    inner: Option<gcmkit::chunked::Encryptor<std::io::BufWriter<Output>>>,
}

#[pymethods]
impl ChunkedWriter {
    /// Encrypts and writes `data`; returns its length.
    fn write(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<usize> {
        use std::io::Write;
        let d = bytes_like(data, "data")?;
        let e = self
            .inner
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("I/O operation on closed file"))?;
        py.detach(|| e.write_all(&d))?;
        Ok(d.len())
    }

    /// Writes the final chunk and moves the file into place.
    fn close(&mut self) -> PyResult<()> {
        if let Some(e) = self.inner.take() {
            let w = e.finish().map_err(chunk_err)?;
            let out = w.into_inner().map_err(|e| PyErr::from(e.into_error()))?;
            out.commit()?;
        }
        Ok(())
    }

    /// Discards the stream: no final chunk, the temporary file removed, the destination
    /// left as it was.
    fn abort(&mut self) {
        self.inner = None;
    }
}

/// Opens a Cobblestone file for streaming: mode "rb" (decrypt) or "wb" (encrypt).
#[pyfunction]
#[pyo3(signature = (path, mode, key, context=None))]
fn chunked_open(
    py: Python<'_>,
    path: std::path::PathBuf,
    mode: &str,
    key: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let (k, c) = (bytes_like(key, "key")?, opt_bytes(context, "context")?);
    // The key is checked before any file is opened or created.
    if k.len() != 16 && k.len() != 32 {
        return Err(chunk_err(Error::InvalidKeyLength {
            got: k.len(),
            expected: "16 or 32",
        }));
    }
    match mode {
        "rb" | "r" => {
            let f = std::io::BufReader::new(std::fs::File::open(&path).map_err(|e| os_err(&e))?);
            let d = gcmkit::chunked::SeekableDecryptor::new(&k, &c, f).map_err(chunk_err)?;
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
            let out = Output::create(&path, Overwrite::Replace).map_err(|e| os_err(&e))?;
            let f = std::io::BufWriter::with_capacity(1 << 20, out);
            let e = gcmkit::chunked::Encryptor::new(&k, &c, f).map_err(chunk_err)?;
            Ok(Py::new(py, ChunkedWriter { inner: Some(e) })?.into_any())
        }
        m => Err(PyValueError::new_err(format!(
            "mode must be 'rb' or 'wb', not {m:?}"
        ))),
    }
}

/// The engine new key objects use (portable, aesni, avx2, avx512, armv8).
#[pyfunction]
fn engine() -> PyResult<&'static str> {
    Engine::selected()
        .map(|e| e.name())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Runs the built-in known-answer tests: a list of (algorithm, engine, ok).
#[pyfunction]
fn selftest() -> Vec<(String, String, bool)> {
    gcmkit::selftest::run()
        .into_iter()
        .map(|r| {
            (
                r.algorithm.to_string(),
                r.engine.name().to_string(),
                r.outcome.is_ok(),
            )
        })
        .collect()
}

#[pymodule]
fn _gcmkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<AESGCM>()?;
    m.add_class::<AESGCMSIV>()?;
    m.add_class::<AesGcmExt>()?;
    m.add_class::<GCMSIV2015>()?;
    m.add_class::<XAES256GCM>()?;
    m.add_class::<DNDKGCM>()?;
    m.add_class::<GMAC>()?;
    m.add_class::<ChunkedReader>()?;
    m.add_class::<ChunkedWriter>()?;
    m.add("InvalidTag", invalid_tag(m.py())?)?;
    m.add("__version__", gcmkit::VERSION)?;
    m.add_function(wrap_pyfunction!(engine, m)?)?;
    m.add_function(wrap_pyfunction!(selftest, m)?)?;
    m.add_function(wrap_pyfunction!(chunked_encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(chunked_decrypt, m)?)?;
    m.add_function(wrap_pyfunction!(encrypt_file, m)?)?;
    m.add_function(wrap_pyfunction!(decrypt_file, m)?)?;
    m.add_function(wrap_pyfunction!(chunked_open, m)?)?;
    Ok(())
}
