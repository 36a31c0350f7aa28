//! Byte ranges of a Cobblestone message whose I/O Python does (`gcmkit.chunked.decrypt_range`,
//! the fsspec filesystem): the core's `chunked::RangeDecryptor`.

use crate::buffers::{context_arg, new_bytes, Buf, DETACH_MIN};
use crate::errors::chunk_err;
use gcmkit::chunked::ChunkSpan;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The chunks of a stored message by byte range: made from the key, the context, the
/// message's first 56 bytes and its total length (checks the key commitment); `span`
/// says which ciphertext bytes a plaintext range needs, `decrypt` verifies and decrypts
/// them. InvalidTag for a wrong key or context, a modified chunk, or a cut message.
#[pyclass(frozen, module = "gcmkit._gcmkit")]
pub(crate) struct RangeDecryptor {
    inner: gcmkit::chunked::RangeDecryptor,
}

#[pymethods]
impl RangeDecryptor {
    #[new]
    fn new(
        key: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
        header: &Bound<'_, PyAny>,
        ciphertext_len: u64,
    ) -> PyResult<Self> {
        let (k, c, h) = (
            Buf::new(key, "key")?,
            context_arg(Some(context))?,
            Buf::new(header, "header")?,
        );
        let inner = gcmkit::chunked::RangeDecryptor::new(k.get(), &c, h.get(), ciphertext_len)
            .map_err(chunk_err)?;
        Ok(RangeDecryptor { inner })
    }

    /// The plaintext length (authenticated once a range reaching the end has verified).
    #[getter]
    fn plaintext_len(&self) -> u64 {
        self.inner.plaintext_len()
    }

    /// `(first_chunk, count, start, end)`: the chunks that plaintext bytes
    /// `offset..offset + length` touch, at ciphertext bytes `start..end`. A range that
    /// reaches the end includes the final chunk.
    fn span(&self, offset: u64, length: u64) -> (u64, u64, u64, u64) {
        let s = self.inner.span(offset, length);
        (s.first, s.count, s.start, s.end)
    }

    /// Verifies and decrypts the chunks `first..first + count` from `data` (ciphertext
    /// bytes `start..end` of `span`); returns their plaintext, which begins at plaintext
    /// offset `first * 16384`.
    fn decrypt(
        &self,
        py: Python<'_>,
        span: (u64, u64, u64, u64),
        data: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyBytes>> {
        let (first, count, start, end) = span;
        let s = ChunkSpan {
            first,
            count,
            start,
            end,
        };
        let d = Buf::new(data, "data")?;
        let wire = d.get();
        let n = self.inner.check_span(s).map_err(chunk_err)?;
        new_bytes(py, n, wire.len() >= DETACH_MIN, |out| {
            self.inner.decrypt_into(s, wire, out)
        })?
        .map_err(chunk_err)
    }
}
