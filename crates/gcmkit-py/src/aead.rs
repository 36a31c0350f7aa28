//! The AEAD calls behind every AEAD class (`encrypt`, `decrypt`, `encrypt_into`,
//! `decrypt_into`), with pyca/cryptography's checks, order and messages for the pyca-named
//! classes, and the macro that gives a class those four methods.

use crate::buffers::{bytes_like, maybe_detach, writable, Buf, DETACH_MIN};
use crate::errors::to_py;
use gcmkit::Error;
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PySlice};
use std::borrow::Cow;

/// pyca/cryptography's rules for one class: its nonce check (message included). gcmkit's
/// own classes have none (the core's errors speak for themselves).
pub(crate) struct PycaRules {
    nonce_ok: fn(usize) -> bool,
    nonce_msg: &'static str,
}

pub(crate) const AESGCM_RULES: PycaRules = PycaRules {
    nonce_ok: |n| (8..=128).contains(&n),
    nonce_msg: "Nonce must be between 8 and 128 bytes",
};
pub(crate) const AESGCMSIV_RULES: PycaRules = PycaRules {
    nonce_ok: |n| n == 12,
    nonce_msg: "Nonce must be 12 bytes long",
};

/// pyca's limit on data and associated data (they are passed to OpenSSL as C ints).
pub(crate) const PYCA_MAX: usize = (1 << 31) - 1;

pub(crate) fn check_pyca_lengths(
    rules: Option<&PycaRules>,
    data: usize,
    aad: usize,
) -> PyResult<()> {
    if rules.is_some() && (data > PYCA_MAX || aad > PYCA_MAX) {
        return Err(PyOverflowError::new_err(
            "Data or associated data too long. Max 2**31 - 1 bytes",
        ));
    }
    Ok(())
}

pub(crate) fn check_pyca_nonce(rules: Option<&PycaRules>, nonce: usize) -> PyResult<()> {
    match rules {
        Some(r) if !(r.nonce_ok)(nonce) => Err(PyValueError::new_err(r.nonce_msg)),
        _ => Ok(()),
    }
}

/// The AEADs behind AESGCM, AESGCMSIV and GCMSIV2015: gcmkit's own mode interface
/// (AES-GCM's `encrypt_into`/`decrypt_into` run its one-pass out-of-place kernels).
pub(crate) type Aead = dyn gcmkit::AeadMode + Sync;

/// The arguments of one AEAD call, extracted in pyca's order (nonce, data, associated
/// data: a wrong type is reported for the first wrong argument).
pub(crate) struct Args<'a, 'py> {
    nonce: Buf<'a, 'py>,
    data: Buf<'a, 'py>,
    aad: Buf<'a, 'py>,
}

impl<'a, 'py> Args<'a, 'py> {
    pub(crate) fn new(
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
pub(crate) fn encrypt_checks<'b>(
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
pub(crate) fn decrypt_checks(
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

pub(crate) fn encrypt(
    py: Python<'_>,
    c: &Aead,
    rules: Option<&PycaRules>,
    a: Args,
) -> PyResult<Py<PyBytes>> {
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

pub(crate) fn decrypt(
    py: Python<'_>,
    c: &Aead,
    rules: Option<&PycaRules>,
    a: Args,
) -> PyResult<Py<PyBytes>> {
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
pub(crate) fn check_size(have: usize, need: usize) -> PyResult<()> {
    if have == need {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "buffer must be {need} bytes"
        )))
    }
}

// The `_into` forms. `encrypt_into` into a `bytearray` (or subclass) writes the ciphertext
// and tag straight into its storage in the kernel's one pass: `PyByteArray_AsString` is in
// the stable ABI, and while the GIL is released a memoryview holds an export of the
// bytearray, so it cannot be resized (reallocated) meanwhile. Any other writable buffer
// (a memoryview slice, `array`, `mmap`) has no pointer in the Python 3.9 stable ABI this
// wheel targets: the result is built as one bytes object (in one pass, as `encrypt` does)
// and copied into `buf` through the memoryview. `decrypt_into` always goes that way: on
// a failed decryption `buf` is not touched (pyca leaves the unverified plaintext there;
// untouched is the safer reading of its contract, and the tests hold it), which a write
// into `buf` before the tag is known could not keep.
pub(crate) fn encrypt_into(
    py: Python<'_>,
    c: &Aead,
    rules: Option<&PycaRules>,
    a: Args,
    buf: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    if let Ok(ba) = buf.cast::<PyByteArray>() {
        // A bytearray is writable, C-contiguous bytes: `writable`'s checks (a memoryview
        // and five attribute lookups, about 1 us per call) have nothing to find.
        let have = ba.len();
        encrypt_into_checks(c, rules, &a, have)?;
        let (nonce, data, aad) = (a.nonce.get()?, a.data.get()?, a.aad.get()?);
        let n = data.len();
        // While the GIL is released (`maybe_detach`: large inputs), an export keeps the
        // bytearray from being resized (reallocated) by another thread.
        let export = if n >= DETACH_MIN {
            Some(PyMemoryView::from(ba.as_any())?)
        } else {
            None
        };
        // The bytearray's storage stays where it is while `out` lives: with the GIL held no
        // Python code runs, and with it released `export` makes the bytearray refuse to
        // resize; our reference keeps it alive. The inputs are other objects or copies.
        // SAFETY: that storage holds `have` bytes (its size, read above) and is not aliased.
        let out = unsafe { std::slice::from_raw_parts_mut(ba.data(), have) };
        let res = maybe_detach(py, n, || c.encrypt_into(&nonce, &data, &aad, out));
        drop(export);
        res.map_err(|e| to_py(py, e))?;
        return Ok(have);
    }
    let (view, have) = writable(buf)?;
    encrypt_into_checks(c, rules, &a, have)?;
    let ct = encrypt(py, c, rules, a)?;
    view.set_item(PySlice::full(py), ct.bind(py))?;
    Ok(have)
}

/// `encrypt_into`'s checks in pyca's order: nonce, the data's limit, buffer size, the
/// AAD's limit.
fn encrypt_into_checks(
    c: &Aead,
    rules: Option<&PycaRules>,
    a: &Args,
    have: usize,
) -> PyResult<()> {
    check_pyca_nonce(rules, a.nonce.len())?;
    check_pyca_lengths(rules, a.data.len(), 0)?;
    check_size(have, a.data.len() + c.tag_len())?;
    check_pyca_lengths(rules, 0, a.aad.len())
}

pub(crate) fn decrypt_into(
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

/// A random key of `bits` bits, one of `allowed` (pyca's message otherwise).
pub(crate) fn random_key(py: Python<'_>, bits: usize, allowed: &[usize]) -> PyResult<Py<PyBytes>> {
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

/// The key of a pyca-named class: bytes-like (pyca's type rules), 16, 24 or 32 bytes, or
/// `ValueError(msg)`.
pub(crate) fn pyca_key<'a>(
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
