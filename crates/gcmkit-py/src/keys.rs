//! `gcmkit.load_key_file`: the key-file format of every gcmkit front end (gcmkit-fs's
//! `keyfile`: a line of 32 or 64 hex digits, `#` comment lines), so that a key written by
//! `gcmkit keygen` reads the same in Python as in the CLI.

use crate::errors::os_err_named;
use gcmkit_fs::KeyFileError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;

/// Reads a gcmkit key file and returns its key: 16 bytes (Cobblestone-128) or 32
/// (Cobblestone-256). `ValueError` (naming the file and the format) for a file that is not
/// a key file, raw binary keys included; `OSError` with errno and the file name when it
/// cannot be read.
#[pyfunction]
pub(crate) fn load_key_file(py: Python<'_>, path: PathBuf) -> PyResult<Py<PyBytes>> {
    // Without the GIL: a key file may be a FIFO or a slow network file.
    let r = py.detach(|| gcmkit_fs::read_key_file(&path));
    match r {
        Ok(k) => Ok(PyBytes::new(py, &k.key).unbind()),
        Err(KeyFileError::Io { path, error }) => Err(os_err_named(&error, &path)),
        Err(e) => Err(PyValueError::new_err(e.to_string())),
    }
}
