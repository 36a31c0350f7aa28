//! The AEAD calls behind every AEAD class (`encrypt`, `decrypt`, `encrypt_into`,
//! `decrypt_into`), with pyca/cryptography's checks, order and messages for the pyca-named
//! classes, and the macro that gives a class those four methods.

use crate::buffers::{
    bytes_like, heap_memory, maybe_detach, new_bytes, private_copy, Buf, Export, DETACH_MIN,
};
use crate::errors::to_py;
use gcmkit::Error;
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
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
pub(crate) struct Args<'a> {
    nonce: Buf<'a>,
    data: Buf<'a>,
    aad: Buf<'a>,
}

impl<'a, 'py> Args<'a> {
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
pub(crate) fn encrypt_checks<'b>(
    rules: Option<&PycaRules>,
    a: &'b Args<'_>,
) -> PyResult<(&'b [u8], &'b [u8], &'b [u8])> {
    check_pyca_lengths(rules, a.data.len(), a.aad.len())?;
    check_pyca_nonce(rules, a.nonce.len())?;
    Ok((a.nonce.get(), a.data.get(), a.aad.get()))
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

// `encrypt` and `decrypt` build their result as one new bytes object that the kernel fills
// from the input in its one pass (no zero fill, no copy), with the GIL released for inputs of
// `DETACH_MIN` bytes or more. Inputs are read in place: `bytes` are immutable, and any other
// buffer stays exported (pinned) until the call returns.
pub(crate) fn encrypt(
    py: Python<'_>,
    c: &Aead,
    rules: Option<&PycaRules>,
    a: Args,
) -> PyResult<Py<PyBytes>> {
    let (nonce, data, aad) = encrypt_checks(rules, &a)?;
    let n = data.len();
    new_bytes(py, n.saturating_add(c.tag_len()), n >= DETACH_MIN, |out| {
        c.encrypt_into(nonce, data, aad, out)
    })?
    .map_err(|e| to_py(py, e))
}

pub(crate) fn decrypt(
    py: Python<'_>,
    c: &Aead,
    rules: Option<&PycaRules>,
    a: Args,
) -> PyResult<Py<PyBytes>> {
    let n = decrypt_checks(py, rules, c, &a)?;
    check_pyca_lengths(rules, 0, a.aad.len())?;
    let (nonce, data, aad) = (a.nonce.get(), a.data.get(), a.aad.get());
    // On failure the core zeroes the new object's bytes, and it is dropped.
    new_bytes(py, n, n >= DETACH_MIN, |out| {
        c.decrypt_into(nonce, data, aad, out)
    })?
    .map_err(|e| to_py(py, e))
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

/// Which `_into` form.
#[derive(Clone, Copy)]
pub(crate) enum Direction {
    Encrypt,
    Decrypt,
}

// The `_into` forms, one path for every `buf`: any writable, C-contiguous bytes buffer
// (`bytearray`, a memoryview or slice of one, `array('B')`, `mmap`, numpy `uint8`) is
// exported with `PyBUF_WRITABLE` and the kernel writes straight into it in its one pass.
// The export is held until the call returns, so `buf` cannot be resized, closed or freed
// while the GIL is released (inputs of `DETACH_MIN` bytes or more). A failed `decrypt_into`
// leaves zeros in `buf` (the core's `decrypt_into`/`decrypt_in_place_detached` zero their
// output on a failed tag): the project's binding rule, "failed decryption returns an error
// and zeroes the output". pyca/cryptography promises nothing about `buf` after `InvalidTag`
// (its 50.0.2 leaves the unverified plaintext there); zeroing lets no plaintext out and
// costs no second pass or copy of `buf` on success.
pub(crate) fn aead_into(
    py: Python<'_>,
    c: &Aead,
    rules: Option<&PycaRules>,
    a: Args,
    data_obj: &Bound<'_, PyAny>,
    buf: &Bound<'_, PyAny>,
    dir: Direction,
) -> PyResult<usize> {
    let mut out = Export::new(buf, true)?;
    let have = out.len();
    // pyca's order. Encryption: nonce, the data's limit, buffer size, the AAD's limit.
    // Decryption: nonce, ciphertext length, buffer size, the AAD's limit.
    let n = match dir {
        Direction::Encrypt => {
            check_pyca_nonce(rules, a.nonce.len())?;
            check_pyca_lengths(rules, a.data.len(), 0)?;
            check_size(have, a.data.len().saturating_add(c.tag_len()))?;
            a.data.len()
        }
        Direction::Decrypt => {
            let n = decrypt_checks(py, rules, c, &a)?;
            check_size(have, n)?;
            n
        }
    };
    check_pyca_lengths(rules, 0, a.aad.len())?;
    let span = out.bytes().as_ptr_range();
    let (nonce, aad) = (disjoint(a.nonce.get(), &span), disjoint(a.aad.get(), &span));
    // Every borrow of the inputs ends here (copies made), before `buf` is borrowed mutably.
    let mut data = Source::of(a.data.get(), &span, n);
    // Two mappings of one file (two `mmap`s, at different addresses) are the same pages:
    // an address comparison sees no overlap, and decryption one pass from the source into
    // the destination would hash plaintext it had just written over its own ciphertext
    // (InvalidTag, then the zeroed output destroyed the ciphertext of a valid message).
    // Where neither side is heap memory, which no second mapping can share, the
    // ciphertext is decrypted from a private copy (a snapshot: it also cannot change
    // under the call). Encryption reads each block before it writes the same block and
    // hashes what it wrote, so it needs none.
    if let (Direction::Decrypt, Source::Apart(Cow::Borrowed(d))) = (dir, &data) {
        if !heap_memory(data_obj) && !heap_memory(buf) {
            data = Source::Apart(Cow::Owned(private_copy(d)?));
        }
    }
    let dst = out.bytes_mut();
    let res = maybe_detach(py, n, || match (dir, data) {
        (Direction::Encrypt, Source::Front { .. }) => {
            // `buf` starts with the plaintext: encrypt it where it is, the tag after it.
            let (body, tag_out) = dst.split_at_mut(n);
            let tag = c.encrypt_in_place_detached(&nonce, &aad, body)?;
            tag_out.copy_from_slice(tag.as_ref());
            Ok(())
        }
        (Direction::Encrypt, Source::Apart(d)) => c.encrypt_into(&nonce, &d, &aad, dst),
        (Direction::Decrypt, Source::Front { tail }) => {
            c.decrypt_in_place_detached(&nonce, &aad, dst, &tail)
        }
        (Direction::Decrypt, Source::Apart(d)) => c.decrypt_into(&nonce, &d, &aad, dst),
    });
    drop(out);
    res.map_err(|e| to_py(py, e))?;
    Ok(have)
}

/// Where the `_into` forms read their data from, given `buf`'s `span`.
enum Source<'b> {
    /// The data begins where `buf` does (in-place use: `encrypt_into(n, view[:k], ad,
    /// view)` or `decrypt_into(n, view, ad, view[:k])`): its first `n` bytes are already
    /// `buf`'s first `n`, and `tail` holds a copy of the rest (decryption's tag, which lies
    /// past `buf`'s end; empty for encryption). The kernel runs in place: one pass, no copy.
    Front { tail: Vec<u8> },
    /// The data apart from `buf`, or a copy of it if it overlaps `buf` any other way.
    Apart(Cow<'b, [u8]>),
}

impl<'b> Source<'b> {
    /// `input` of which the first `n` bytes are the message (the rest, if any, its tag).
    fn of(input: &'b [u8], span: &std::ops::Range<*const u8>, n: usize) -> Self {
        if n > 0 && input.as_ptr() == span.start && input.len() >= n {
            Source::Front {
                tail: input[n..].to_vec(),
            }
        } else {
            Source::Apart(disjoint(input, span))
        }
    }
}

/// `input`, or a copy of it if it shares memory with the output `span` (an input that is
/// also the destination, or part of it).
pub(crate) fn disjoint<'b>(input: &'b [u8], span: &std::ops::Range<*const u8>) -> Cow<'b, [u8]> {
    let r = input.as_ptr_range();
    if input.is_empty() || span.is_empty() || r.end <= span.start || span.end <= r.start {
        Cow::Borrowed(input)
    } else {
        Cow::Owned(input.to_vec())
    }
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
                aead_into(py, &self.inner, rules, a, data, buf, Direction::Encrypt)
            }

            /// Decrypts into the writable buffer `buf` of len(data) - tag length; returns
            /// the count. `buf` is zeroed if the tag does not verify.
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
                aead_into(py, &self.inner, rules, a, data, buf, Direction::Decrypt)
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
