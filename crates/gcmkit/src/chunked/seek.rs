//! Random access: `io::Read + io::Seek` over the plaintext of a stored message.

use super::keys::MessageKeys;
use super::stream::{read_full, read_header};
use super::{CHUNK, CT_CHUNK, HEADER, MAX_CHUNKS, TAG};
use crate::error::Error;
use std::io::{self, Read, Seek, SeekFrom};
use std::vec::Vec;
use zeroize::Zeroizing;

/// Random-access decryption (`io::Read + io::Seek` over the plaintext). On creation it
/// checks the commitment and authenticates the message length by decrypting the final
/// chunk, so seeking from the end is safe; every read verifies the chunks it touches.
///
/// ```
/// use gcmkit::chunked::{self, SeekableDecryptor};
/// use std::io::{Cursor, Read, Seek, SeekFrom};
/// let key = [7u8; 32];
/// let plaintext: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
/// let sealed = chunked::encrypt(&key, b"ctx", &plaintext)?;
///
/// let mut r = SeekableDecryptor::new(&key, b"ctx", Cursor::new(&sealed))?;
/// assert_eq!(r.plaintext_len(), 100_000);
/// r.seek(SeekFrom::Start(70_000))?; // reads and verifies only the chunk it lands in
/// let mut piece = [0u8; 10];
/// r.read_exact(&mut piece)?;
/// assert_eq!(&piece[..], &plaintext[70_000..70_010]);
///
/// // The wrong key or context is refused before anything is read.
/// assert!(SeekableDecryptor::new(&key, b"other", Cursor::new(&sealed)).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SeekableDecryptor<R: Read + Seek> {
    inner: R,
    keys: MessageKeys,
    chunks: u64,
    final_ct_len: usize,
    len: u64,
    pos: u64,
    cached: Option<u64>,
    buf: Zeroizing<Vec<u8>>,
    failed: bool,
}

impl<R: Read + Seek> SeekableDecryptor<R> {
    /// Checks the header and authenticates the length.
    pub fn new(key: &[u8], context: &[u8], mut inner: R) -> Result<Self, Error> {
        inner.seek(SeekFrom::Start(0))?;
        let keys = read_header(key, context, &mut inner)?;
        let total = inner.seek(SeekFrom::End(0))?;
        let body = total - HEADER as u64;
        let full = body / CT_CHUNK as u64;
        let last = (body % CT_CHUNK as u64) as usize;
        if last < TAG {
            return Err(Error::Truncated);
        }
        if full + 1 > MAX_CHUNKS {
            return Err(super::too_many_chunks(full + 1));
        }
        let mut s = SeekableDecryptor {
            inner,
            keys,
            chunks: full + 1,
            final_ct_len: last,
            len: full * CHUNK as u64 + (last - TAG) as u64,
            pos: 0,
            cached: None,
            buf: Zeroizing::new(Vec::with_capacity(CT_CHUNK)),
            failed: false,
        };
        s.load(full)?;
        Ok(s)
    }

    /// The plaintext length (authenticated).
    pub fn plaintext_len(&self) -> u64 {
        self.len
    }

    fn load(&mut self, k: u64) -> Result<(), Error> {
        if self.cached == Some(k) {
            return Ok(());
        }
        self.cached = None;
        let len = if k + 1 == self.chunks {
            self.final_ct_len
        } else {
            CT_CHUNK
        };
        self.inner
            .seek(SeekFrom::Start(HEADER as u64 + k * CT_CHUNK as u64))?;
        self.buf.resize(len, 0);
        if read_full(&mut self.inner, &mut self.buf)? < len {
            return Err(Error::Truncated);
        }
        self.keys.open(k, &mut self.buf)?;
        self.buf.truncate(len - TAG);
        self.cached = Some(k);
        Ok(())
    }
}

impl<R: Read + Seek> Read for SeekableDecryptor<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.failed {
            return Err(Error::StreamFailed.into());
        }
        if self.pos >= self.len || out.is_empty() {
            return Ok(0);
        }
        let k = self.pos / CHUNK as u64;
        if let Err(e) = self.load(k) {
            self.failed = true;
            return Err(e.into());
        }
        let off = (self.pos % CHUNK as u64) as usize;
        let n = (self.buf.len() - off).min(out.len());
        out[..n].copy_from_slice(&self.buf[off..off + n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Seek for SeekableDecryptor<R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        match target {
            Some(p) => {
                self.pos = p;
                Ok(p)
            }
            None => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the start",
            )),
        }
    }
}
