//! The `io::Write` encryptor and `io::Read` decryptor: one chunk of memory each.

use super::keys::{aead_name, at_end, MessageKeys};
use super::Sealer;
use super::{CHUNK, CT_CHUNK, HEADER, MAX_CHUNKS, SALT, TAG};
use crate::error::Error;
use crate::Engine;
use std::io::{self, Read, Write};
use std::vec;
use std::vec::Vec;
use zeroize::Zeroizing;

/// Streaming encryption as an `io::Write`: constant memory (one chunk); call
/// [`Encryptor::finish`] to write the final chunk.
///
/// ```
/// use gcmkit::chunked::{self, Encryptor};
/// use std::io::Write;
/// let key = [7u8; 32];
/// let mut enc = Encryptor::new(&key, b"backup 2026-11-25", Vec::new())?;
/// for line in ["first line\n", "second line\n"] {
///     enc.write_all(line.as_bytes())?;
/// }
/// let sealed: Vec<u8> = enc.finish()?; // the final chunk; returns the writer
/// let plain = chunked::decrypt(&key, b"backup 2026-11-25", &sealed)?;
/// assert_eq!(plain, b"first line\nsecond line\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Encryptor<W: Write> {
    inner: W,
    sealer: Sealer,
    /// What one piece of at most a chunk seals to (at most the header and one chunk):
    /// ciphertext, on the heap so that no call puts a chunk on the stack.
    out: Vec<u8>,
}

impl<W: Write> Encryptor<W> {
    /// Writes the header to `inner` and returns the encryptor.
    pub fn new(key: &[u8], context: &[u8], mut inner: W) -> Result<Self, Error> {
        let mut sealer = Sealer::new(key, context)?;
        let mut out = vec![0u8; HEADER + CT_CHUNK];
        let n = sealer.update_into(&[], &mut out)?;
        inner.write_all(&out[..n])?;
        Ok(Encryptor { inner, sealer, out })
    }

    /// Writes the final (short, maybe empty) chunk and returns the inner writer.
    pub fn finish(self) -> Result<W, Error> {
        let Encryptor {
            mut inner,
            sealer,
            mut out,
        } = self;
        let n = sealer.finish_into(&mut out)?;
        inner.write_all(&out[..n])?;
        inner.flush()?;
        Ok(inner)
    }
}

impl<W: Write> Write for Encryptor<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        // Pieces of at most a chunk: each seals to at most one chunk (`out`'s size).
        for piece in data.chunks(CHUNK) {
            let n = self.sealer.update_into(piece, &mut self.out)?;
            self.inner.write_all(&self.out[..n])?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Streaming decryption as an `io::Read`: hands out a chunk's plaintext only after that
/// chunk verified; after any error every later call fails.
///
/// ```
/// use gcmkit::chunked::{self, Decryptor};
/// use std::io::Read;
/// let key = [7u8; 32];
/// let sealed = chunked::encrypt(&key, b"ctx", b"streamed back out")?;
///
/// let mut plain = Vec::new();
/// Decryptor::new(&key, b"ctx", sealed.as_slice())?.read_to_end(&mut plain)?;
/// assert_eq!(plain, b"streamed back out");
///
/// // A modified chunk is an error, with the gcmkit error inside the io::Error.
/// let long = chunked::encrypt(&key, b"ctx", &[0u8; 20_000])?; // chunk 0 (full) and 1
/// let mut tampered = long.clone();
/// tampered[56 + 100] ^= 1; // inside chunk 0
/// let err = Decryptor::new(&key, b"ctx", tampered.as_slice())?
///     .read_to_end(&mut Vec::new())
///     .unwrap_err();
/// let inner = err.get_ref().and_then(|e| e.downcast_ref::<gcmkit::Error>());
/// assert_eq!(inner, Some(&gcmkit::Error::ModifiedChunk { chunk: 0 }), "{err}");
///
/// // Cut inside its last chunk (a truncated download): no final chunk verified.
/// let err = Decryptor::new(&key, b"ctx", &long[..long.len() - 1])?
///     .read_to_end(&mut Vec::new())
///     .unwrap_err();
/// let inner = err.get_ref().and_then(|e| e.downcast_ref::<gcmkit::Error>());
/// assert_eq!(inner, Some(&gcmkit::Error::EndsInUnverifiedChunk { chunk: 1 }), "{err}");
/// assert!(err.to_string().starts_with("truncated"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Decryptor<R: Read> {
    inner: R,
    keys: MessageKeys,
    /// The current chunk: after verification its plaintext is `buf[pos..end]`.
    buf: Zeroizing<Vec<u8>>,
    pos: usize,
    end: usize,
    /// One byte read past a full chunk (proof that it was not the final one).
    carry: Option<u8>,
    k: u64,
    done: bool,
    failed: bool,
}

/// Reads until `buf` is full or EOF; returns the count.
pub(crate) fn read_full<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(m) => n += m,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads the header and checks the commitment before anything is decrypted.
pub(crate) fn read_header<R: Read>(
    key: &[u8],
    context: &[u8],
    inner: &mut R,
) -> Result<MessageKeys, Error> {
    let engine = Engine::selected()?;
    aead_name(key.len())?;
    let mut header = [0u8; HEADER];
    if read_full(inner, &mut header)? < HEADER {
        return Err(Error::Truncated);
    }
    let salt: [u8; SALT] = header[..SALT].try_into().map_err(|_| Error::Truncated)?;
    let keys = MessageKeys::derive(key, &salt, context, engine)?;
    keys.check_commitment(&header[SALT..])?;
    Ok(keys)
}

impl<R: Read> Decryptor<R> {
    /// Reads the header and checks the commitment before anything is decrypted.
    pub fn new(key: &[u8], context: &[u8], mut inner: R) -> Result<Self, Error> {
        let keys = read_header(key, context, &mut inner)?;
        Ok(Self::from_keys(keys, inner))
    }

    pub(crate) fn from_keys(keys: MessageKeys, inner: R) -> Self {
        Decryptor {
            inner,
            keys,
            buf: Zeroizing::new(Vec::with_capacity(CT_CHUNK + 1)),
            pos: 0,
            end: 0,
            carry: None,
            k: 0,
            done: false,
            failed: false,
        }
    }

    /// Reads, verifies and decrypts the next chunk.
    fn next_chunk(&mut self) -> Result<(), Error> {
        self.buf.clear();
        self.buf.extend(self.carry.take());
        let have = self.buf.len();
        self.buf.resize(CT_CHUNK + 1, 0);
        let n = have + read_full(&mut self.inner, &mut self.buf[have..])?;
        let is_final = n <= CT_CHUNK;
        if is_final && n == CT_CHUNK {
            // A full chunk with nothing after it: the final (short) chunk is missing, or
            // data was appended after it (shifting its bounds). Only a cut message leaves
            // this chunk intact.
            self.keys.open(self.k, &mut self.buf[..n])?;
            crate::secret::wipe::wipe_bytes(&mut self.buf);
            return Err(Error::Truncated);
        }
        if is_final && n < TAG {
            // No room for a tag: the message was cut.
            return Err(Error::Truncated);
        }
        if self.k >= MAX_CHUNKS {
            return Err(super::too_many_chunks(self.k));
        }
        let len = n.min(CT_CHUNK);
        if !is_final {
            self.carry = Some(self.buf[CT_CHUNK]);
        }
        let opened = self.keys.open(self.k, &mut self.buf[..len]);
        // A short chunk at the end of the input that fails: no final chunk verified.
        opened.map_err(|e| if is_final { at_end(e) } else { e })?;
        self.k += 1;
        self.pos = 0;
        self.end = len - TAG;
        self.done = is_final;
        Ok(())
    }
}

impl<R: Read> Read for Decryptor<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.failed {
            return Err(Error::StreamFailed.into());
        }
        loop {
            if self.pos < self.end {
                let n = (self.end - self.pos).min(out.len());
                out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            if self.done || out.is_empty() {
                return Ok(0);
            }
            if let Err(e) = self.next_chunk() {
                self.failed = true;
                crate::secret::wipe::wipe_bytes(&mut self.buf);
                return Err(e.into());
            }
        }
    }
}
