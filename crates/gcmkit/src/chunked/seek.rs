//! Random access: `io::Read + io::Seek` over the plaintext of a stored message.

use super::keys::{at_end, MessageKeys};
use super::stream::{read_full, read_header};
use super::{Layout, CHUNK, CT_CHUNK, TAG};
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
    layout: Layout,
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
        let layout = Layout::of_message(inner.seek(SeekFrom::End(0))?)?;
        let mut s = SeekableDecryptor {
            inner,
            keys,
            layout,
            len: layout.plaintext_len(),
            pos: 0,
            cached: None,
            buf: Zeroizing::new(Vec::with_capacity(CT_CHUNK)),
            failed: false,
        };
        s.load(layout.chunks - 1)?;
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
        let len = self.layout.ct_len_of(k);
        self.inner.seek(SeekFrom::Start(Layout::offset_of(k)))?;
        self.buf.resize(len, 0);
        if read_full(&mut self.inner, &mut self.buf)? < len {
            return Err(Error::Truncated);
        }
        let opened = self.keys.open(k, &mut self.buf);
        // Only the final chunk is short: if it fails, the input ends in an unverified chunk.
        opened.map_err(|e| if len < CT_CHUNK { at_end(e) } else { e })?;
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
