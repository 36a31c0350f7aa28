//! Errors into Python exceptions: `InvalidTag` and `AlreadyFinalized` (subclasses of
//! pyca's when installed),
//! `ValueError` for bad arguments, `OSError` subclasses carrying errno, message and the
//! file name they concern.

use gcmkit::Error;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

pub(crate) static INVALID_TAG: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ALREADY_FINALIZED: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// gcmkit's exception `name`: a subclass of `cryptography.exceptions.<base>` when pyca's
/// package is installed (so existing `except` clauses keep working), else of `Exception`.
fn pyca_subclass<'py>(
    py: Python<'py>,
    cell: &'py PyOnceLock<Py<PyType>>,
    base: &str,
    name: &'static std::ffi::CStr,
    doc: &'static std::ffi::CStr,
) -> PyResult<&'py Bound<'py, PyType>> {
    Ok(cell
        .get_or_try_init(py, || -> PyResult<Py<PyType>> {
            let parent = py
                .import("cryptography.exceptions")
                .and_then(|m| m.getattr(base))
                .and_then(|b| b.cast_into::<PyType>().map_err(Into::into))
                .unwrap_or_else(|_| py.get_type::<PyException>());
            PyErr::new_type(py, name, Some(doc), Some(&parent), None)
        })?
        .bind(py))
}

/// `gcmkit.InvalidTag`: a subclass of `cryptography.exceptions.InvalidTag` when pyca's
/// package is installed.
pub(crate) fn invalid_tag(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    pyca_subclass(
        py,
        &INVALID_TAG,
        "InvalidTag",
        c"gcmkit.InvalidTag",
        c"Authentication failed: the tag does not match.",
    )
}

/// `gcmkit.AlreadyFinalized`: a subclass of `cryptography.exceptions.AlreadyFinalized`
/// when pyca's package is installed.
pub(crate) fn already_finalized_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    pyca_subclass(
        py,
        &ALREADY_FINALIZED,
        "AlreadyFinalized",
        c"gcmkit.AlreadyFinalized",
        c"The context was finalized (or failed): it takes no more calls.",
    )
}

/// pyca's error for a call on a finalized context.
pub(crate) fn already_finalized() -> PyErr {
    Python::attach(|py| match already_finalized_type(py) {
        Ok(t) => PyErr::from_type(t.clone(), "Context was already finalized."),
        Err(e) => e,
    })
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
/// subclass (`FileNotFoundError` and so on) and carries `errno`. An error of `gcmkit-fs`
/// names its file itself (the destination, or where a followed link led).
pub(crate) fn os_err(e: &std::io::Error) -> PyErr {
    if let Some(p) = gcmkit_fs::path_error(e) {
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
        Error::InvalidKeyLength { .. }
        | Error::EngineUnavailable(_)
        | Error::InvalidParameter(_)
        | Error::BufferSize { .. } => PyValueError::new_err(e.to_string()),
        other => Python::attach(|py| match invalid_tag(py) {
            Ok(t) => PyErr::from_type(t.clone(), other.to_string()),
            Err(e) => e,
        }),
    }
}
