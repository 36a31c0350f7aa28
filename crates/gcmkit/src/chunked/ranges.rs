//! Random access by byte range for callers that do their own I/O: an object store's
//! ranged GET, an fsspec file, a memory map. [`RangeDecryptor`] says which ciphertext
//! bytes a plaintext range needs (whole chunks: one request) and decrypts them, each
//! chunk verified; [`SeekableDecryptor`](super::SeekableDecryptor) is the same over an
//! `io::Read + io::Seek` that gcmkit reads itself.

use super::keys::{aead_name, at_end, MessageKeys};
use super::message::for_chunks;
use super::{out_exactly, Layout, CHUNK, CT_CHUNK, HEADER, SALT, TAG};
use crate::error::Error;
use crate::Engine;
use std::vec::Vec;

/// The ciphertext bytes that a plaintext range needs: chunks `first..first + count`,
/// at `start..end` in the message; their plaintext begins at `first * CHUNK`.
///
/// ```
/// use gcmkit::chunked::{self, ChunkSpan, RangeDecryptor};
/// let key = [1u8; 32];
/// let sealed = chunked::encrypt(&key, b"", &[0u8; 40_000])?; // chunks of 16384, 16384, 7232
/// let r = RangeDecryptor::new(&key, b"", &sealed, sealed.len() as u64)?;
/// // Bytes 16000..17000 straddle chunks 0 and 1: both, from the end of the header.
/// assert_eq!(r.span(16_000, 1_000), ChunkSpan { first: 0, count: 2, start: 56, end: 56 + 2 * 16400 });
/// // A range that reaches the end includes the final chunk.
/// assert_eq!(r.span(39_999, 10).first + r.span(39_999, 10).count, r.chunk_count());
/// # Ok::<(), gcmkit::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkSpan {
    /// The first chunk's index.
    pub first: u64,
    /// The number of chunks (0 for an empty range).
    pub count: u64,
    /// The span's first ciphertext byte (an offset in the whole message).
    pub start: u64,
    /// One past its last.
    pub end: u64,
}

/// Decryption of byte ranges of a stored message whose header and total length the
/// caller supplies: the commitment is checked at creation; each chunk is verified when
/// it is decrypted. The plaintext length comes from the ciphertext's length, and is
/// authenticated once the final chunk verifies: a range that reaches the end of the
/// message includes it.
///
/// ```
/// use gcmkit::chunked::{self, RangeDecryptor};
/// let key = [3u8; 16];
/// let plain: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
/// let sealed = chunked::encrypt(&key, b"ctx", &plain)?;
///
/// let r = RangeDecryptor::new(&key, b"ctx", &sealed[..56], sealed.len() as u64)?;
/// assert_eq!(r.plaintext_len(), 100_000);
/// let span = r.span(40_000, 1_000); // plaintext bytes 40000..41000
/// let wire = &sealed[span.start as usize..span.end as usize]; // one ranged read
/// let mut out = vec![0u8; r.plaintext_of(span)];
/// r.decrypt_into(span, wire, &mut out)?;
/// let skip = (40_000 - span.first * 16384) as usize;
/// assert_eq!(&out[skip..skip + 1_000], &plain[40_000..41_000]);
/// # Ok::<(), gcmkit::Error>(())
/// ```
pub struct RangeDecryptor {
    keys: MessageKeys,
    layout: Layout,
    len: u64,
}

impl RangeDecryptor {
    /// Checks the key commitment in `header` (the message's first 56 bytes) and lays out
    /// a message of `ciphertext_len` bytes (`Error::Truncated` for a length no message
    /// has).
    pub fn new(
        key: &[u8],
        context: &[u8],
        header: &[u8],
        ciphertext_len: u64,
    ) -> Result<Self, Error> {
        let engine = Engine::selected()?;
        aead_name(key.len())?;
        if header.len() < HEADER {
            return Err(Error::Truncated);
        }
        let layout = Layout::of_message(ciphertext_len)?;
        let mut salt = [0u8; SALT];
        salt.copy_from_slice(&header[..SALT]);
        let keys = MessageKeys::derive(key, &salt, context, engine)?;
        keys.check_commitment(&header[SALT..HEADER])?;
        Ok(RangeDecryptor {
            keys,
            layout,
            len: layout.plaintext_len(),
        })
    }

    /// The plaintext length (authenticated once the final chunk has verified).
    pub fn plaintext_len(&self) -> u64 {
        self.len
    }

    /// The number of chunks, the final (short) one included.
    pub fn chunk_count(&self) -> u64 {
        self.layout.chunks
    }

    /// The chunks that the plaintext bytes `offset..offset + len` touch, cut at the end
    /// of the message. A range that reaches the end includes the final chunk, even when
    /// it is empty (so reading to the end always authenticates the length); a range that
    /// starts at or past the end and is empty touches nothing.
    pub fn span(&self, offset: u64, len: u64) -> ChunkSpan {
        let end = offset.saturating_add(len).min(self.len);
        let reaches_end = len > 0 && offset.saturating_add(len) >= self.len;
        if offset >= end && !reaches_end {
            return ChunkSpan {
                first: 0,
                count: 0,
                start: HEADER as u64,
                end: HEADER as u64,
            };
        }
        let first = (offset.min(self.len) / CHUNK as u64).min(self.layout.chunks - 1);
        let last = if reaches_end {
            self.layout.chunks - 1
        } else {
            (end - 1) / CHUNK as u64
        };
        let start = Layout::offset_of(first);
        let stop = Layout::offset_of(last) + self.layout.ct_len_of(last) as u64;
        ChunkSpan {
            first,
            count: last - first + 1,
            start,
            end: stop,
        }
    }

    /// The plaintext bytes of the chunks in `span`.
    pub fn plaintext_of(&self, span: ChunkSpan) -> usize {
        ((span.end - span.start) - span.count * TAG as u64) as usize
    }

    /// Decrypts the chunks of `span` from `wire` (the message's bytes `span.start..
    /// span.end`) into `out` ([`plaintext_of`](Self::plaintext_of) bytes), every chunk
    /// verified, in parallel for many chunks. If any fails, `out` is zeroed.
    pub fn decrypt_into(&self, span: ChunkSpan, wire: &[u8], out: &mut [u8]) -> Result<(), Error> {
        if span.count == 0 {
            return Ok(());
        }
        let want = self.check_span(span)?;
        if wire.len() as u64 != span.end - span.start {
            return Err(Error::Truncated);
        }
        out_exactly(out.len(), want)?;
        let mut items = Vec::with_capacity(span.count as usize);
        let (mut c, mut p) = (wire, &mut *out);
        for k in span.first..span.first + span.count {
            let n = self.layout.ct_len_of(k);
            let (ci, cr) = c.split_at(n);
            let (pi, pr) = core::mem::take(&mut p).split_at_mut(n - TAG);
            items.push((k, (ci, pi)));
            (c, p) = (cr, pr);
        }
        // Only the final chunk is short: if it fails, the input ends in an unverified chunk.
        let r = for_chunks(items, |k, (ci, pi)| {
            let opened = self.keys.open_into(k, ci, pi);
            opened.map_err(|e| if ci.len() < CT_CHUNK { at_end(e) } else { e })
        });
        if r.is_err() {
            crate::secret::wipe::wipe_bytes(out);
        }
        r
    }

    /// `span`'s plaintext length if it is a span of this message (one [`span`](Self::span)
    /// gives), else `Error::InvalidParameter`.
    pub fn check_span(&self, span: ChunkSpan) -> Result<usize, Error> {
        if span.count == 0 {
            return Ok(0);
        }
        let last = span
            .first
            .checked_add(span.count - 1)
            .filter(|&l| l < self.layout.chunks);
        let ok = last.is_some_and(|l| {
            span.start == Layout::offset_of(span.first)
                && span.end == Layout::offset_of(l) + self.layout.ct_len_of(l) as u64
        });
        if !ok {
            return Err(Error::InvalidParameter(
                "span is not a span of this message",
            ));
        }
        Ok(self.plaintext_of(span))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunked::{self, CT_CHUNK};
    use std::vec;

    fn read(r: &RangeDecryptor, sealed: &[u8], off: u64, len: u64) -> Result<Vec<u8>, Error> {
        let s = r.span(off, len);
        let mut out = vec![0u8; r.plaintext_of(s)];
        r.decrypt_into(s, &sealed[s.start as usize..s.end as usize], &mut out)?;
        let skip = (off.min(r.plaintext_len()) - s.first * CHUNK as u64) as usize;
        let end = (skip as u64 + len).min(out.len() as u64) as usize;
        Ok(out[skip.min(end)..end].to_vec())
    }

    #[test]
    fn every_range_at_chunk_edges_matches_the_plaintext() {
        let key = [5u8; 32];
        for n in [
            0usize,
            1,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            3 * CHUNK,
            3 * CHUNK + 999,
        ] {
            let plain: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
            let sealed = chunked::encrypt(&key, b"c", &plain).unwrap();
            let r = RangeDecryptor::new(&key, b"c", &sealed, sealed.len() as u64).unwrap();
            assert_eq!(r.plaintext_len(), n as u64);
            let edges = [
                0,
                1,
                CHUNK - 1,
                CHUNK,
                CHUNK + 1,
                2 * CHUNK,
                n.saturating_sub(1),
                n,
                n + 5,
            ];
            for &a in &edges {
                for len in [0usize, 1, 2, CHUNK, CHUNK + 2, 5 * CHUNK] {
                    let got = read(&r, &sealed, a as u64, len as u64).unwrap();
                    let (lo, hi) = (a.min(n), (a + len).min(n));
                    assert_eq!(got, &plain[lo..hi], "n {n} offset {a} len {len}");
                    let s = r.span(a as u64, len as u64);
                    if len > 0 && a + len >= n {
                        assert_eq!(
                            s.first + s.count,
                            r.chunk_count(),
                            "the final chunk is read"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn tampering_truncation_and_foreign_spans_are_refused() {
        let key = [6u8; 16];
        let plain = vec![9u8; 3 * CHUNK + 10];
        let sealed = chunked::encrypt(&key, b"", &plain).unwrap();
        let r = RangeDecryptor::new(&key, b"", &sealed, sealed.len() as u64).unwrap();
        let mut bad = sealed.clone();
        bad[HEADER + CT_CHUNK + 3] ^= 1; // chunk 1
        assert!(
            read(&r, &bad, 0, CHUNK as u64).is_ok(),
            "chunk 0 alone still verifies"
        );
        assert_eq!(
            read(&r, &bad, 0, 2 * CHUNK as u64),
            Err(Error::ModifiedChunk { chunk: 1 })
        );
        // A cut message: the final chunk no longer verifies where a range reaches it.
        let cut = &sealed[..sealed.len() - 5];
        let r2 = RangeDecryptor::new(&key, b"", cut, cut.len() as u64).unwrap();
        assert!(read(&r2, cut, 0, 10).is_ok());
        assert_eq!(
            read(&r2, cut, 3 * CHUNK as u64, 100),
            Err(Error::EndsInUnverifiedChunk { chunk: 3 })
        );
        // Lengths no message has, and the wrong key.
        for len in [
            0,
            HEADER as u64,
            HEADER as u64 + 15,
            (HEADER + CT_CHUNK) as u64,
        ] {
            assert_eq!(
                RangeDecryptor::new(&key, b"", &sealed, len).err(),
                Some(Error::Truncated)
            );
        }
        let wrong = RangeDecryptor::new(&[7u8; 16], b"", &sealed, sealed.len() as u64);
        assert_eq!(wrong.err(), Some(Error::WrongKeyOrContext));
        // A span that is not this message's, and a wire of the wrong length.
        let s = r.span(0, 10);
        let forged = ChunkSpan {
            end: s.end - 1,
            ..s
        };
        let r3 = r.decrypt_into(forged, &sealed[..forged.end as usize], &mut [0; CHUNK]);
        assert!(matches!(r3, Err(Error::InvalidParameter(_))), "{r3:?}");
        assert_eq!(
            r.decrypt_into(s, &sealed[HEADER..HEADER + 10], &mut [0; CHUNK]),
            Err(Error::Truncated)
        );
    }
}
