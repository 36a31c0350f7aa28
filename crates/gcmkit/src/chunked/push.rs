//! Incremental encryption and decryption into caller buffers: [`Sealer`] and [`Opener`]
//! take input in pieces of any size and write whole chunks straight into the caller's
//! output, each in one pass from input to output. Only a piece's partial chunk is
//! buffered (at most one chunk). This is the shape of pyca/cryptography's
//! `cryptography.cobblestone` (`update`, `update_into`, `finalize`), and what a caller
//! that owns its buffers (an FFI, a ring of pages) needs; the `io` adapters in `stream`
//! suit callers that own readers and writers.
//!
//! Sizes are known before each call: [`Sealer::update_len`] and [`Opener::update_len`]
//! give what `update_into` writes, so that a caller can allocate exactly. A buffer too
//! small is refused before anything changes (`Error::BufferSize`). The opener hands out
//! a chunk's plaintext only after the chunk verified; a full chunk is never the final one
//! (the final chunk is shorter), so every full chunk is released as soon as it arrives,
//! and the final one by [`Opener::finish_into`].

use super::keys::{aead_name, at_end, random_salt, MessageKeys};
use super::{out_at_least, CHUNK, CT_CHUNK, HEADER, MAX_CHUNKS, SALT, TAG};
use crate::error::Error;
use crate::Engine;
use std::boxed::Box;
use std::vec::Vec;
use zeroize::Zeroizing;

/// Whether chunks `next..next + n` all have counters (the format's 2^38 limit).
fn check_room(next: u64, n: usize) -> Result<(), Error> {
    let end = next.saturating_add(n as u64);
    if end > MAX_CHUNKS {
        Err(super::too_many_chunks(end))
    } else {
        Ok(())
    }
}

/// Feeds `data` into units of `unit` bytes: completes the partial unit in `buf` first,
/// then takes whole units straight from `data` (no copy), and keeps the rest in `buf`.
/// `each` gets every completed unit, in order; the sealer's and opener's one way of
/// cutting a stream of pieces into chunks. `buf` is wiped after its unit was used.
fn in_units(
    buf: &mut Zeroizing<Vec<u8>>,
    mut data: &[u8],
    unit: usize,
    mut each: impl FnMut(&[u8]) -> Result<(), Error>,
) -> Result<(), Error> {
    if !buf.is_empty() {
        let take = (unit - buf.len()).min(data.len());
        buf.extend_from_slice(&data[..take]);
        data = &data[take..];
        if buf.len() < unit {
            return Ok(());
        }
        each(buf)?;
        crate::secret::wipe::wipe_bytes(buf);
        buf.clear();
    }
    let mut whole = data.chunks_exact(unit);
    for u in whole.by_ref() {
        each(u)?;
    }
    buf.extend_from_slice(whole.remainder());
    Ok(())
}

/// Cobblestone encryption in pieces: [`update_into`](Sealer::update_into) writes the
/// header (first call) and every chunk the input completes; [`finish_into`](Sealer::finish_into)
/// writes the final (short, maybe empty) chunk.
///
/// ```
/// use gcmkit::chunked::{self, Sealer};
/// let key = [9u8; 16];
/// let mut s = Sealer::new(&key, b"ctx")?;
/// let mut sealed = Vec::new();
/// for piece in [&b"first, "[..], &[b'x'; 40000][..], b"last"] {
///     let mut out = vec![0u8; s.update_len(piece.len())];
///     let n = s.update_into(piece, &mut out)?;
///     sealed.extend_from_slice(&out[..n]);
/// }
/// let mut out = vec![0u8; s.finish_len()];
/// let n = s.finish_into(&mut out)?;
/// sealed.extend_from_slice(&out[..n]);
/// assert_eq!(chunked::decrypt(&key, b"ctx", &sealed)?.len(), 7 + 40000 + 4);
/// # Ok::<(), gcmkit::Error>(())
/// ```
pub struct Sealer {
    keys: MessageKeys,
    /// The header not yet written.
    header_pending: bool,
    /// The partial chunk (less than a chunk, wiped on drop).
    buf: Zeroizing<Vec<u8>>,
    /// The next chunk's counter.
    next: u64,
}

impl Sealer {
    /// A new message under `key` (16 bytes: Cobblestone-128, 32: Cobblestone-256) and
    /// `context`, with a fresh random salt.
    pub fn new(key: &[u8], context: &[u8]) -> Result<Self, Error> {
        let engine = Engine::selected()?;
        Self::with_salt(key, context, random_salt()?, engine)
    }

    pub(crate) fn with_salt(
        key: &[u8],
        context: &[u8],
        salt: [u8; SALT],
        engine: Engine,
    ) -> Result<Self, Error> {
        let keys = MessageKeys::derive(key, &salt, context, engine)?;
        Ok(Sealer {
            keys,
            header_pending: true,
            buf: Zeroizing::new(Vec::with_capacity(CHUNK)),
            next: 0,
        })
    }

    fn header_len(&self) -> usize {
        if self.header_pending {
            HEADER
        } else {
            0
        }
    }

    /// The bytes [`update_into`](Self::update_into) writes for `data_len` more bytes of
    /// plaintext (saturating at `usize::MAX` for lengths no buffer can have).
    pub fn update_len(&self, data_len: usize) -> usize {
        let chunks = self.buf.len().saturating_add(data_len) / CHUNK;
        chunks
            .saturating_mul(CT_CHUNK)
            .saturating_add(self.header_len())
    }

    /// Encrypts `data`, writing the header (on the first call) and each chunk it
    /// completes into `out`, which must hold [`update_len`](Self::update_len) bytes;
    /// returns the bytes written. A short `out`, or a message past the format's 2^38
    /// chunks, is refused before anything changes.
    pub fn update_into(&mut self, data: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        out_at_least(out.len(), self.update_len(data.len()))?;
        check_room(self.next, (self.buf.len() + data.len()) / CHUNK)?;
        let mut w = self.write_header(out);
        let Sealer {
            keys, buf, next, ..
        } = self;
        in_units(buf, data, CHUNK, |chunk| {
            keys.seal(*next, chunk, &mut out[w..w + CT_CHUNK])?;
            *next += 1;
            w += CT_CHUNK;
            Ok(())
        })?;
        Ok(w)
    }

    /// Writes the header into `out` if no call has yet; returns its length written.
    fn write_header(&mut self, out: &mut [u8]) -> usize {
        if !self.header_pending {
            return 0;
        }
        out[..SALT].copy_from_slice(&self.keys.salt);
        out[SALT..HEADER].copy_from_slice(&self.keys.commitment);
        self.header_pending = false;
        HEADER
    }

    /// The bytes [`finish_into`](Self::finish_into) writes.
    pub fn finish_len(&self) -> usize {
        self.header_len() + self.buf.len() + TAG
    }

    /// Writes the header if no update wrote it, and the final chunk, into `out` (at least
    /// [`finish_len`](Self::finish_len) bytes); returns the bytes written. The message is
    /// complete: the sealer is consumed, whatever the outcome.
    pub fn finish_into(mut self, out: &mut [u8]) -> Result<usize, Error> {
        let need = self.finish_len();
        out_at_least(out.len(), need)?;
        check_room(self.next, 1)?;
        let h = self.write_header(out);
        self.keys.seal(self.next, &self.buf, &mut out[h..need])?;
        Ok(need)
    }
}

/// What the opener holds before and after the header has arrived.
enum OpenerState {
    /// Waiting for the salt and commitment: the input key and context are kept (wiped on
    /// drop) until the message keys can be derived.
    Header {
        key: Zeroizing<Vec<u8>>,
        context: Zeroizing<Vec<u8>>,
        header: Vec<u8>,
        engine: Engine,
    },
    /// The commitment verified: `buf` holds the partial wire chunk (less than
    /// `CT_CHUNK` bytes, wiped on drop).
    Body {
        /// Boxed: the key schedule is most of the opener's size.
        keys: Box<MessageKeys>,
        buf: Zeroizing<Vec<u8>>,
        next: u64,
    },
    /// A call failed: every later one fails too.
    Failed,
}

/// Cobblestone decryption in pieces: [`update_into`](Opener::update_into) checks the key
/// commitment once the header has arrived and releases each full chunk as soon as it
/// verifies; [`finish_into`](Opener::finish_into) verifies the final chunk, the proof
/// that the message was not cut. After a failed call every later call fails
/// (`Error::StreamFailed`).
///
/// ```
/// use gcmkit::chunked::{self, Opener};
/// let key = [9u8; 32];
/// let sealed = chunked::encrypt(&key, b"ctx", &[5u8; 50000])?;
/// let mut o = Opener::new(&key, b"ctx")?;
/// let mut plain = Vec::new();
/// for piece in sealed.chunks(7000) {
///     let mut out = vec![0u8; o.update_len(piece.len())];
///     let n = o.update_into(piece, &mut out)?;
///     plain.extend_from_slice(&out[..n]); // verified chunks only
/// }
/// let mut out = vec![0u8; o.finish_len()];
/// let n = o.finish_into(&mut out)?;
/// plain.extend_from_slice(&out[..n]);
/// assert_eq!(plain, [5u8; 50000]);
/// # Ok::<(), gcmkit::Error>(())
/// ```
pub struct Opener {
    state: OpenerState,
}

impl Opener {
    /// An opener for a message under `key` (16 or 32 bytes) and `context`. The key's
    /// length is checked here; the key itself is checked when the header arrives.
    pub fn new(key: &[u8], context: &[u8]) -> Result<Self, Error> {
        let engine = Engine::selected()?;
        aead_name(key.len())?;
        Ok(Opener {
            state: OpenerState::Header {
                key: Zeroizing::new(key.to_vec()),
                context: Zeroizing::new(context.to_vec()),
                header: Vec::with_capacity(HEADER),
                engine,
            },
        })
    }

    /// The bytes [`update_into`](Self::update_into) writes for `data_len` more bytes of
    /// ciphertext: the plaintext of the full chunks they complete.
    pub fn update_len(&self, data_len: usize) -> usize {
        let body = match &self.state {
            OpenerState::Header { header, .. } => data_len.saturating_sub(HEADER - header.len()),
            OpenerState::Body { buf, .. } => buf.len().saturating_add(data_len),
            OpenerState::Failed => 0,
        };
        body / CT_CHUNK * CHUNK
    }

    /// Decrypts `data`, writing the plaintext of each full chunk it completes into `out`
    /// (at least [`update_len`](Self::update_len) bytes) once that chunk verified; returns
    /// the bytes written. A short `out` is refused before anything changes. On any other
    /// failure (wrong key or context, a modified chunk) the bytes this call wrote are
    /// zeroed and the opener fails from then on.
    pub fn update_into(&mut self, data: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        if matches!(self.state, OpenerState::Failed) {
            return Err(Error::StreamFailed);
        }
        out_at_least(out.len(), self.update_len(data.len()))?;
        let mut w = 0;
        let r = self.update_inner(data, out, &mut w);
        if r.is_err() {
            crate::secret::wipe::wipe_bytes(&mut out[..w]);
            self.state = OpenerState::Failed;
        }
        r.map(|()| w)
    }

    fn update_inner(
        &mut self,
        mut data: &[u8],
        out: &mut [u8],
        w: &mut usize,
    ) -> Result<(), Error> {
        if let OpenerState::Header {
            key,
            context,
            header,
            engine,
        } = &mut self.state
        {
            let take = (HEADER - header.len()).min(data.len());
            header.extend_from_slice(&data[..take]);
            data = &data[take..];
            if header.len() < HEADER {
                return Ok(());
            }
            let mut salt = [0u8; SALT];
            salt.copy_from_slice(&header[..SALT]);
            let keys = MessageKeys::derive(key, &salt, context, *engine)?;
            keys.check_commitment(&header[SALT..])?;
            self.state = OpenerState::Body {
                keys: Box::new(keys),
                buf: Zeroizing::new(Vec::with_capacity(CT_CHUNK)),
                next: 0,
            };
        }
        let OpenerState::Body { keys, buf, next } = &mut self.state else {
            return Err(Error::StreamFailed);
        };
        check_room(*next, (buf.len() + data.len()) / CT_CHUNK)?;
        // Each full chunk released as soon as it verified: a full chunk is never the final one.
        in_units(buf, data, CT_CHUNK, |chunk| {
            keys.open_into(*next, chunk, &mut out[*w..*w + CHUNK])?;
            *next += 1;
            *w += CHUNK;
            Ok(())
        })
    }

    /// The bytes [`finish_into`](Self::finish_into) writes: the final chunk's plaintext
    /// (0 if what arrived cannot end a message: `finish_into` then fails).
    pub fn finish_len(&self) -> usize {
        match &self.state {
            OpenerState::Body { buf, .. } => buf.len().saturating_sub(TAG),
            _ => 0,
        }
    }

    /// Verifies and decrypts the final chunk into `out` (at least
    /// [`finish_len`](Self::finish_len) bytes); returns its length. A message that ended
    /// in its header, on a chunk boundary or inside a tag is `Error::Truncated`. The
    /// opener is consumed, whatever the outcome; on failure `out` is zeroed.
    pub fn finish_into(self, out: &mut [u8]) -> Result<usize, Error> {
        let need = self.finish_len();
        out_at_least(out.len(), need)?;
        match self.state {
            OpenerState::Failed => Err(Error::StreamFailed),
            OpenerState::Header { .. } => Err(Error::Truncated),
            OpenerState::Body { keys, buf, next } => {
                if buf.len() < TAG {
                    return Err(Error::Truncated);
                }
                check_room(next, 1)?;
                // The input ends in this (short) chunk: if it fails, no final chunk verified.
                keys.open_into(next, &buf, &mut out[..need])
                    .map_err(at_end)?;
                Ok(need)
            }
        }
    }

    /// Whether a call has failed (every later call fails too).
    pub fn has_failed(&self) -> bool {
        matches!(self.state, OpenerState::Failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunked;
    use std::vec;

    fn seal_in(key: &[u8], ctx: &[u8], pt: &[u8], piece: usize) -> Vec<u8> {
        let mut s = Sealer::new(key, ctx).unwrap();
        let mut ct = Vec::new();
        for p in pt.chunks(piece.max(1)) {
            let mut out = vec![0u8; s.update_len(p.len())];
            let n = s.update_into(p, &mut out).unwrap();
            assert_eq!(n, out.len(), "update_len is exact");
            ct.extend_from_slice(&out);
        }
        let mut out = vec![0u8; s.finish_len()];
        assert_eq!(s.finish_into(&mut out).unwrap(), out.len());
        ct.extend_from_slice(&out);
        ct
    }

    fn open_in(key: &[u8], ctx: &[u8], ct: &[u8], piece: usize) -> Result<Vec<u8>, Error> {
        let mut o = Opener::new(key, ctx)?;
        let mut pt = Vec::new();
        for p in ct.chunks(piece.max(1)) {
            let mut out = vec![0u8; o.update_len(p.len())];
            let n = o.update_into(p, &mut out)?;
            assert_eq!(n, out.len(), "update_len is exact");
            pt.extend_from_slice(&out);
        }
        let mut out = vec![0u8; o.finish_len()];
        let n = o.finish_into(&mut out)?;
        pt.extend_from_slice(&out[..n]);
        Ok(pt)
    }

    #[test]
    fn pieces_of_every_size_agree_with_the_one_shot_functions() {
        for key in [&[3u8; 16][..], &[4u8; 32][..]] {
            for len in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 3 * CHUNK + 77] {
                let pt: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
                for piece in [1, 57, CHUNK, CT_CHUNK + 3, 1 << 20] {
                    let ct = seal_in(key, b"c", &pt, piece);
                    assert_eq!(ct.len(), HEADER + len + TAG * (len / CHUNK + 1));
                    assert_eq!(chunked::decrypt(key, b"c", &ct).unwrap(), pt);
                    assert_eq!(open_in(key, b"c", &ct, piece).unwrap(), pt);
                }
            }
        }
    }

    #[test]
    fn a_short_buffer_is_refused_and_changes_nothing() {
        let key = [1u8; 16];
        let mut s = Sealer::new(&key, b"").unwrap();
        let err = s.update_into(b"abc", &mut [0u8; HEADER - 1]).unwrap_err();
        assert_eq!(
            err,
            Error::BufferSize {
                got: HEADER - 1,
                expected: HEADER
            }
        );
        let mut out = vec![0u8; HEADER];
        assert_eq!(s.update_into(b"abc", &mut out).unwrap(), HEADER);
        let mut fin = vec![0u8; s.finish_len()];
        s.finish_into(&mut fin).unwrap();
        out.extend_from_slice(&fin);

        let mut o = Opener::new(&key, b"").unwrap();
        let mut long = out.clone();
        long.extend_from_slice(&[0u8; CT_CHUNK]);
        assert!(matches!(
            o.update_into(&long, &mut [0u8; CHUNK - 1]),
            Err(Error::BufferSize { .. })
        ));
        assert!(!o.has_failed());
        assert_eq!(o.update_into(&out, &mut []).unwrap(), 0);
        let mut fin = vec![0u8; o.finish_len()];
        assert_eq!(o.finish_into(&mut fin).unwrap(), 3);
        assert_eq!(fin, b"abc");
    }

    #[test]
    fn a_modified_chunk_fails_zeroes_this_calls_output_and_keeps_failing() {
        let key = [2u8; 32];
        let pt = vec![0x55u8; 3 * CHUNK + 10];
        let mut ct = seal_in(&key, b"", &pt, 1 << 20);
        ct[HEADER + 2 * CT_CHUNK + 5] ^= 1; // the third chunk
        let mut o = Opener::new(&key, b"").unwrap();
        let mut out = vec![0xaau8; o.update_len(ct.len())];
        assert_eq!(
            o.update_into(&ct, &mut out),
            Err(Error::ModifiedChunk { chunk: 2 })
        );
        assert!(
            out.iter().all(|&b| b == 0),
            "no plaintext left after a failure"
        );
        assert!(o.has_failed());
        assert_eq!(o.update_into(b"", &mut []), Err(Error::StreamFailed));
        assert_eq!(o.finish_into(&mut []), Err(Error::StreamFailed));
    }

    #[test]
    fn wrong_key_context_truncation_and_extension_fail() {
        let key = [6u8; 16];
        let ct = seal_in(&key, b"ctx", &[1u8; CHUNK + 100], 1 << 20);
        assert_eq!(
            open_in(&[7u8; 16], b"ctx", &ct, 999),
            Err(Error::WrongKeyOrContext)
        );
        assert_eq!(
            open_in(&key, b"other", &ct, 999),
            Err(Error::WrongKeyOrContext)
        );
        for cut in [
            0,
            1,
            HEADER - 1,
            HEADER,
            HEADER + TAG - 1,
            HEADER + CT_CHUNK,
        ] {
            let r = open_in(&key, b"ctx", &ct[..cut], 1000);
            assert_eq!(r, Err(Error::Truncated), "cut at {cut}");
        }
        // Trailing bytes move the final chunk's bounds: its tag no longer verifies, and the
        // input ends in that unverified chunk (as a cut inside it would: one error for both).
        let mut long = ct.clone();
        long.extend_from_slice(b"trailing");
        let r = open_in(&key, b"ctx", &long, 1000);
        assert_eq!(r, Err(Error::EndsInUnverifiedChunk { chunk: 1 }));
        // Cut inside the final chunk (past its first 16 bytes): the same.
        let r = open_in(&key, b"ctx", &ct[..ct.len() - 5], 1000);
        assert_eq!(r, Err(Error::EndsInUnverifiedChunk { chunk: 1 }));
        assert!(matches!(
            Opener::new(&[0u8; 24], b""),
            Err(Error::InvalidKeyLength { .. })
        ));
        assert!(matches!(
            Sealer::new(&[0u8; 15], b""),
            Err(Error::InvalidKeyLength { .. })
        ));
    }

    #[test]
    fn the_chunk_counter_limit_is_refused_before_anything_is_written() {
        let key = [8u8; 16];
        let mut s = Sealer::with_salt(&key, b"", [0; SALT], Engine::best()).unwrap();
        s.next = MAX_CHUNKS - 1;
        let mut out = vec![0u8; s.update_len(2 * CHUNK)];
        assert!(matches!(
            s.update_into(&[0u8; 2 * CHUNK], &mut out),
            Err(Error::MessageTooLong { .. })
        ));
        assert!(out.iter().all(|&b| b == 0));
        // The last counter still seals the final chunk.
        let mut fin = vec![0u8; s.finish_len()];
        assert!(s.finish_into(&mut fin).is_ok());
    }
}
