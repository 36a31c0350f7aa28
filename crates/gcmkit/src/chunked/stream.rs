//! The `io::Write` encryptor and `io::Read` decryptor: one chunk of memory each.

use super::keys::{aead_name, random_salt, MessageKeys};
use super::{CHUNK, CT_CHUNK, HEADER, MAX_CHUNKS, SALT, TAG};
use crate::error::Error;
use crate::Engine;
use std::io::{self, Read, Write};
use std::vec::Vec;
use zeroize::Zeroizing;

/// Streaming encryption as an `io::Write`: constant memory (one chunk); call
/// [`Encryptor::finish`] to write the final chunk.
pub struct Encryptor<W: Write> {
    inner: W,
    keys: MessageKeys,
    buf: Zeroizing<Vec<u8>>,
    k: u64,
    finished: bool,
}

impl<W: Write> Encryptor<W> {
    /// Writes the header to `inner` and returns the encryptor.
    pub fn new(key: &[u8], context: &[u8], inner: W) -> Result<Self, Error> {
        let engine = Engine::selected()?;
        Self::with_salt(key, context, inner, random_salt()?, engine)
    }

    pub(crate) fn with_salt(
        key: &[u8],
        context: &[u8],
        mut inner: W,
        salt: [u8; SALT],
        engine: Engine,
    ) -> Result<Self, Error> {
        let keys = MessageKeys::derive(key, &salt, context, engine)?;
        inner.write_all(&salt)?;
        inner.write_all(&keys.commitment)?;
        Ok(Encryptor {
            inner,
            keys,
            buf: Zeroizing::new(Vec::with_capacity(CT_CHUNK)),
            k: 0,
            finished: false,
        })
    }

    fn emit(&mut self) -> Result<(), Error> {
        if self.k + 1 >= MAX_CHUNKS {
            return Err(super::too_many_chunks(self.k + 1));
        }
        let n = self.buf.len();
        let mut out = [0u8; CT_CHUNK];
        self.keys.seal(self.k, &self.buf, &mut out[..n + TAG])?;
        self.inner.write_all(&out[..n + TAG])?;
        self.buf.clear();
        self.k += 1;
        Ok(())
    }

    /// Writes the final (short, maybe empty) chunk and returns the inner writer.
    pub fn finish(mut self) -> Result<W, Error> {
        // A full buffered chunk is not final: the final chunk is always short (maybe empty).
        if self.buf.len() == CHUNK {
            self.emit()?;
        }
        self.emit()?;
        self.finished = true;
        self.inner.flush()?;
        // Move the writer out; the remaining fields are dropped (buffer zeroized).
        let Encryptor { inner, .. } = self;
        Ok(inner)
    }
}

impl<W: Write> Write for Encryptor<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let mut used = 0;
        while used < data.len() {
            // A full chunk is only written once more data proves it is not the last.
            if self.buf.len() == CHUNK {
                self.emit()?;
            }
            let n = (CHUNK - self.buf.len()).min(data.len() - used);
            self.buf.extend_from_slice(&data[used..used + n]);
            used += n;
        }
        Ok(used)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Streaming decryption as an `io::Read`: hands out a chunk's plaintext only after that
/// chunk verified; after any error every later call fails.
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
        self.keys.open(self.k, &mut self.buf[..len])?;
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
