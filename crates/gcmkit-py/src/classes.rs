//! The AEAD and MAC classes: pyca/cryptography's `AESGCM` and `AESGCMSIV` (exact), and
//! gcmkit's own `AesGcm`, `XAES256GCM`, `DNDKGCM`, `GCMSIV2015` and `GMAC`.

// The classes carry Python's names (pyca/cryptography's, e.g. AESGCM).
#![allow(clippy::upper_case_acronyms)]

use crate::aead::{aead_into, decrypt, encrypt, Direction};
use crate::aead::{pyca_key, random_key, Args, PycaRules, AESGCMSIV_RULES, AESGCM_RULES};
use crate::buffers::{bytes_like, maybe_detach};
use crate::errors::to_py;
use gcmkit::{AesGcm, AesGcmSiv, DndkGcm, GcmSiv2015, Gmac, XAes256Gcm};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// A pyca-named class (constructor `(key)`, `generate_key(bit_length)` of 128, 192 or 256,
/// pyca's rules and messages for everything) over the gcmkit type `$inner`.
macro_rules! pyca_class {
    ($(#[$doc:meta])* $cls:ident($inner:ident), key_what: $what:literal, key_msg: $msg:literal, rules: $rules:expr) => {
        $(#[$doc])*
        #[pyclass(frozen, module = "gcmkit")]
        pub(crate) struct $cls {
            inner: $inner,
        }

        #[pymethods]
        impl $cls {
            #[new]
            fn new(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Self> {
                let k = pyca_key(key, $what, $msg)?;
                Ok($cls {
                    inner: $inner::new(&k).map_err(|e| to_py(py, e))?,
                })
            }

            /// A random key of 128, 192 or 256 bits.
            #[staticmethod]
            fn generate_key(py: Python<'_>, bit_length: usize) -> PyResult<Py<PyBytes>> {
                random_key(py, bit_length, &[128, 192, 256])
            }
        }
        aead_methods!($cls, pyca: $rules);
    };
}

pyca_class!(
    /// AES-GCM exactly as pyca/cryptography's `AESGCM` (nonces of 8 to 128 bytes, 16-byte
    /// tags, its exceptions and messages). gcmkit's extensions (any IV length, truncated
    /// tags) are in `AesGcm`.
    AESGCM(AesGcm),
    key_what: "",
    key_msg: "AESGCM key must be 128, 192, or 256 bits.",
    rules: AESGCM_RULES
);

pyca_class!(
    /// AES-GCM-SIV (RFC 8452; AES-192 as OpenSSL defines it) exactly as pyca/cryptography's
    /// `AESGCMSIV`.
    AESGCMSIV(AesGcmSiv),
    key_what: "key",
    key_msg: "AES-GCM-SIV key must be 128, 192 or 256 bits.",
    rules: AESGCMSIV_RULES
);

/// AES-GCM with gcmkit's extensions, kept out of the pyca-named `AESGCM` so that one stays
/// exact: IVs of any length from 1 byte (12 is the fast path; other lengths are hashed
/// into the first counter, as SP 800-38D allows) and tags of 16, 15, 14, 13, 12, 8 or 4
/// bytes (`tag_length`; SP 800-38D Appendix C limits how much a short tag may protect).
#[pyclass(frozen, module = "gcmkit", name = "AesGcm")]
pub(crate) struct AesGcmExt {
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

/// XAES-256-GCM (c2sp.org/XAES-256-GCM): a 32-byte key and 24-byte nonces safe to
/// choose at random (``os.urandom(24)``) for any number of messages.
#[pyclass(frozen, module = "gcmkit")]
pub(crate) struct XAES256GCM {
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
pub(crate) struct DNDKGCM {
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
pub(crate) struct GCMSIV2015 {
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
pub(crate) struct GMAC {
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
