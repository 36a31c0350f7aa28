//! File to file in gcmkit's chunked format (c2sp.org/chunked-encryption), under this
//! crate's output rules: the destination appears only after the whole operation
//! succeeded, through a random exclusive temporary name, and never replaces an existing
//! file unless asked. The destination is checked (and its directory opened) before any
//! input is read. Errors name the file they concern ([`crate::PathError`]: source or
//! destination, with errno).

use crate::error::os_error;
use crate::output::{Output, Overwrite};
use gcmkit::chunked::{decrypt_stream, encrypt_stream};
use gcmkit::Error;
use std::io;
use std::path::Path;

/// Runs `job` from the file `src` into `dst` through [`Output`]: committed only if the job
/// succeeded; otherwise the temporary file is removed and `dst` is left as it was (for a
/// FIFO or device destination, written in place, a failure leaves what was written).
fn via_output(
    src: &Path,
    dst: &Path,
    overwrite: Overwrite,
    job: impl FnOnce(io::BufReader<std::fs::File>, &mut std::fs::File) -> Result<u64, Error>,
) -> Result<u64, Error> {
    let input = std::fs::File::open(src).map_err(|e| os_error(src, "", e))?;
    let input = io::BufReader::with_capacity(1 << 20, input);
    let mut out = Output::create(dst, overwrite)?;
    let n = job(input, out.file())?;
    out.commit()?;
    Ok(n)
}

/// Encrypts the file `src` into `dst` (`gcmkit::chunked::encrypt_stream`: all cores when
/// gcmkit's `parallel` feature is on, constant memory). Returns the plaintext length.
pub fn encrypt_file(
    key: &[u8],
    context: &[u8],
    src: &Path,
    dst: &Path,
    overwrite: Overwrite,
) -> Result<u64, Error> {
    via_output(src, dst, overwrite, |i, o| {
        encrypt_stream(key, context, i, o, |_| {})
    })
}

/// Decrypts the file `src` into `dst`; nothing appears at `dst` unless the whole message
/// verified. Returns the plaintext length.
pub fn decrypt_file(
    key: &[u8],
    context: &[u8],
    src: &Path,
    dst: &Path,
    overwrite: Overwrite,
) -> Result<u64, Error> {
    via_output(src, dst, overwrite, |i, o| {
        decrypt_stream(key, context, i, o, |_| {})
    })
}
