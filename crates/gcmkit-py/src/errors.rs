//! Errors into Python exceptions: `InvalidTag` (a subclass of pyca's when installed),
//! `ValueError` for bad arguments, `OSError` subclasses carrying errno, message and the
//! file name they concern.

use gcmkit::Error;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

pub(crate) static INVALID_TAG: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `gcmkit.InvalidTag`: a subclass of `cryptography.exceptions.InvalidTag` when pyca's
/// package is installed, so existing `except InvalidTag:` clauses keep working.
pub(crate) fn invalid_tag(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
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

pub(crate) fn to_py(py: Python<'_>, e: Error) -> PyErr {
    match e {
        Error::AuthenticationFailed => match invalid_tag(py) {
            Ok(t) => PyErr::from_type(t.clone(), ()),
            Err(e) => e,
        },
        other => PyValueError::new_err(other.to_string()),
    }
}

/// An OS error as Python's `OSError(errno, strerror[, filename])`, so it becomes the right
/// subclass (`FileNotFoundError` and so on) and carries `errno`. An error of `gcmkit::fs`
/// names its file itself (the destination, or where a followed link led).
pub(crate) fn os_err(e: &std::io::Error) -> PyErr {
    if let Some(p) = gcmkit::fs::path_error(e) {
        if let Some(code) = p.raw_os_error() {
            let name = p.path().as_os_str().to_os_string();
            return PyOSError::new_err((code, p.what().to_string(), name));
        }
    }
    match e.raw_os_error() {
        Some(code) => PyOSError::new_err((code, strerror(code, e))),
        None => PyErr::from(std::io::Error::new(e.kind(), e.to_string())),
    }
}

/// `e` (an OS error about `path`) as `OSError(errno, strerror, path)`.
pub(crate) fn os_err_named(e: &std::io::Error, path: &std::path::Path) -> PyErr {
    match e.raw_os_error() {
        Some(code) => {
            PyOSError::new_err((code, strerror(code, e), path.as_os_str().to_os_string()))
        }
        None => os_err(e),
    }
}

/// Python's message for `code` (`os.strerror`), as its own OSErrors carry.
fn strerror(code: i32, e: &std::io::Error) -> String {
    Python::attach(|py| {
        py.import("os")
            .and_then(|os| os.call_method1("strerror", (code,)))
            .and_then(|m| m.extract::<String>())
            .unwrap_or_else(|_| e.to_string())
    })
}

pub(crate) fn chunk_err(e: Error) -> PyErr {
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
