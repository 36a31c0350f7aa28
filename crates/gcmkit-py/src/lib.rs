//! Python bindings: thin wrappers over the gcmkit core, with pyca/cryptography's names.
//!
//! Inputs are any bytes-like object. The AEAD calls read `bytes` in place and any other
//! buffer (bytearray, memoryview, array, mmap) in place through the buffer protocol, held
//! exported for the call; `encrypt_into`/`decrypt_into` write into any writable buffer in
//! place. Elsewhere (keys, MACs, Cobblestone) non-`bytes` inputs are copied once. Work on
//! inputs of `DETACH_MIN` bytes or more runs with the GIL released.
//!
//! Modules, one job each: `buffers` (arguments as bytes), `errors` (exceptions), `aead`
//! (the AEAD calls and pyca's rules), `classes` (the AEAD and MAC classes), `chunked`
//! (Cobblestone one-shots, reader, writer), `cobblestone` (pyca's
//! `cryptography.cobblestone`), `files` (file to file), `keys` (key files), `ranges` (byte ranges, Python's I/O), `signals` (blocking calls that run
//! Python's signal handlers).

#[macro_use]
mod aead;
mod buffers;
mod chunked;
mod classes;
mod cobblestone;
mod errors;
mod files;
mod keys;
mod ranges;
mod signals;

use gcmkit::Engine;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

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
    m.add_class::<classes::AESGCM>()?;
    m.add_class::<classes::AESGCMSIV>()?;
    m.add_class::<classes::AesGcmExt>()?;
    m.add_class::<classes::GCMSIV2015>()?;
    m.add_class::<classes::XAES256GCM>()?;
    m.add_class::<classes::DNDKGCM>()?;
    m.add_class::<classes::GMAC>()?;
    m.add_class::<chunked::ChunkedReader>()?;
    m.add_class::<chunked::ChunkedWriter>()?;
    m.add_class::<ranges::RangeDecryptor>()?;
    m.add_class::<cobblestone::Cobblestone128Encryptor>()?;
    m.add_class::<cobblestone::Cobblestone128Decryptor>()?;
    m.add_class::<cobblestone::Cobblestone256Encryptor>()?;
    m.add_class::<cobblestone::Cobblestone256Decryptor>()?;
    m.add("InvalidTag", errors::invalid_tag(m.py())?)?;
    m.add("AlreadyFinalized", errors::already_finalized_type(m.py())?)?;
    m.add("__version__", gcmkit::VERSION)?;
    m.add_function(wrap_pyfunction!(engine, m)?)?;
    m.add_function(wrap_pyfunction!(selftest, m)?)?;
    m.add_function(wrap_pyfunction!(chunked::chunked_encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(chunked::chunked_decrypt, m)?)?;
    m.add_function(wrap_pyfunction!(files::encrypt_file, m)?)?;
    m.add_function(wrap_pyfunction!(files::decrypt_file, m)?)?;
    m.add_function(wrap_pyfunction!(chunked::chunked_open, m)?)?;
    m.add_function(wrap_pyfunction!(files::remove_temp_files, m)?)?;
    m.add_function(wrap_pyfunction!(keys::load_key_file, m)?)?;
    Ok(())
}
