//! Streaming encryption in the c2sp.org/chunked-encryption format ("Cobblestone").
//!
//! The format, as published (docs/chunked-encryption.md):
//! - Cobblestone-128: HKDF-Expand-SHA-512 + AES-128-GCM (input key 16 bytes, recommended);
//!   Cobblestone-256: HKDF-Expand-SHA-512 + AES-256-GCM (input key 32 bytes).
//! - Per message a fresh 24-byte random salt. HKDF-Expand(PRK = input key,
//!   info = "c2sp.org/chunked-encryption@v1+" || AEAD name || 0x00 || salt || context)
//!   gives the AEAD key, a 12-byte base nonce and a 32-byte commitment, in that order.
//! - Ciphertext = salt || commitment || chunks. Chunk k encrypts up to 16 KiB of
//!   plaintext with nonce = base nonce XOR k (big-endian, last 5 bytes) and empty AAD.
//!   The final chunk is shorter than 16 KiB (possibly empty), so a 16 KiB message is one
//!   full chunk and one empty chunk; a full or missing final chunk is a truncation.
//!   Chunk k starts at ciphertext offset 56 + k·16400.
//! - Decryption checks the commitment (constant time) before decrypting anything.
//!
//! Entry points: one-shot [`encrypt`] / [`decrypt`] (parallel over chunks for large
//! inputs), the [`Encryptor`] (`io::Write`) and [`Decryptor`] (`io::Read`) adapters with
//! constant memory, and [`SeekableDecryptor`] (`io::Read + io::Seek`) for random access.
//! Raw mode (caller-chosen AEAD key and base nonce) and salt injection are in
//! [`hazmat`]. Streaming decryption only ever returns verified chunks, and once it has
//! failed it keeps failing.

use crate::{AesGcm, Engine};
use hmac::{KeyInit as _, Mac};
use std::format;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::vec;
use std::vec::Vec;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// Plaintext bytes per chunk.
pub const CHUNK: usize = 16384;
/// Ciphertext bytes per full chunk (plaintext + tag).
pub const CT_CHUNK: usize = CHUNK + TAG;
/// Salt length.
pub const SALT: usize = 24;
/// Header length: salt || commitment.
pub const HEADER: usize = SALT + 32;
/// Largest number of chunks (the counter has 38 bits' room in the nonce's last 5 bytes).
pub const MAX_CHUNKS: u64 = 1 << 38;
const TAG: usize = 16;
const LABEL: &[u8] = b"c2sp.org/chunked-encryption@v1+";

/// What went wrong with a chunked stream.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The key is not 16 (Cobblestone-128) or 32 (Cobblestone-256) bytes.
    InvalidKeyLength(usize),
    /// The commitment does not match: wrong key or wrong context (nothing was decrypted).
    WrongKeyOrContext,
    /// The ciphertext ends early: header, a chunk, a tag or the final chunk is missing.
    Truncated,
    /// Chunk `k` failed authentication: modified, reordered, from another message, or the
    /// final chunk with data appended after it (trailing data shifts the final chunk's
    /// boundaries, so it is caught here).
    ModifiedChunk(u64),
    /// More than 2^38 chunks.
    TooLong,
    /// An earlier error already ended this stream.
    Failed,
    /// An I/O error of the underlying reader or writer.
    Io(io::Error),
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::InvalidKeyLength(n) => write!(
                f,
                "invalid key length: {n} bytes (16 for Cobblestone-128, 32 for Cobblestone-256)"
            ),
            Error::WrongKeyOrContext => write!(
                f,
                "wrong key or context (commitment mismatch); nothing was decrypted"
            ),
            Error::Truncated => write!(f, "ciphertext is truncated"),
            Error::ModifiedChunk(k) => {
                write!(f, "chunk {k} failed authentication (modified, reordered, truncated, or followed by trailing data)")
            }
            Error::TooLong => write!(f, "message too long (more than 2^38 chunks)"),
            Error::Failed => write!(f, "stream already failed"),
            Error::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

impl From<Error> for io::Error {
    fn from(e: Error) -> Self {
        match e {
            Error::Io(e) => e,
            other => io::Error::new(io::ErrorKind::InvalidData, other),
        }
    }
}

/// The per-message keys: AEAD key, base nonce, commitment.
pub(crate) struct MessageKeys {
    aead: AesGcm,
    base_nonce: [u8; 12],
    commitment: [u8; 32],
    salt: [u8; SALT],
}

fn aead_name(key_len: usize) -> Result<&'static [u8], Error> {
    match key_len {
        16 => Ok(b"AEAD_AES_128_GCM"),
        32 => Ok(b"AEAD_AES_256_GCM"),
        n => Err(Error::InvalidKeyLength(n)),
    }
}

/// HKDF-Expand (RFC 5869 sec. 2.3) with HMAC-SHA-512, PRK = the input key as the format
/// specifies (the `hkdf` crate insists on a PRK of at least 64 bytes, so the two blocks
/// are computed here).
fn hkdf_expand(prk: &[u8], info: &[&[u8]], out: &mut [u8]) {
    let mut t: Zeroizing<Vec<u8>> = Zeroizing::new(Vec::new());
    for (i, chunk) in out.chunks_mut(64).enumerate() {
        let mut mac =
            <hmac::Hmac<sha2::Sha512>>::new_from_slice(prk).expect("HMAC takes keys of any length");
        mac.update(&t);
        for part in info {
            mac.update(part);
        }
        mac.update(&[(i + 1) as u8]);
        *t = mac.finalize().into_bytes().to_vec();
        chunk.copy_from_slice(&t[..chunk.len()]);
    }
}

impl MessageKeys {
    pub(crate) fn derive(
        key: &[u8],
        salt: &[u8; SALT],
        context: &[u8],
        engine: Engine,
    ) -> Result<Self, Error> {
        let name = aead_name(key.len())?;
        let mut okm = Zeroizing::new([0u8; 32 + 12 + 32]);
        let n = key.len();
        hkdf_expand(key, &[LABEL, name, &[0], salt, context], &mut okm[..n + 44]);
        let aead =
            AesGcm::with_engine(&okm[..n], engine).map_err(|_| Error::InvalidKeyLength(n))?;
        let mut base_nonce = [0u8; 12];
        base_nonce.copy_from_slice(&okm[n..n + 12]);
        let mut commitment = [0u8; 32];
        commitment.copy_from_slice(&okm[n + 12..n + 44]);
        Ok(MessageKeys {
            aead,
            base_nonce,
            commitment,
            salt: *salt,
        })
    }

    /// Raw mode: the caller supplies the AEAD key and the base nonce.
    pub(crate) fn raw(
        aead_key: &[u8],
        base_nonce: &[u8; 12],
        engine: Engine,
    ) -> Result<Self, Error> {
        let aead = AesGcm::with_engine(aead_key, engine)
            .map_err(|_| Error::InvalidKeyLength(aead_key.len()))?;
        Ok(MessageKeys {
            aead,
            base_nonce: *base_nonce,
            commitment: [0; 32],
            salt: [0; SALT],
        })
    }

    fn nonce(&self, k: u64) -> [u8; 12] {
        let mut n = self.base_nonce;
        let kb = k.to_be_bytes();
        for i in 0..5 {
            n[7 + i] ^= kb[3 + i];
        }
        n
    }

    /// Encrypts chunk `k` from `pt` into `out` (ciphertext || tag, `pt.len() + 16` bytes)
    /// in one pass.
    fn seal(&self, k: u64, pt: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.aead
            .encrypt_into(&self.nonce(k), pt, b"", out)
            .map_err(|_| Error::TooLong)
    }

    /// Decrypts chunk `k` in place; the plaintext is `buf[..len - 16]`.
    fn open(&self, k: u64, buf: &mut [u8]) -> Result<(), Error> {
        if buf.len() < TAG {
            return Err(Error::Truncated);
        }
        let n = buf.len() - TAG;
        let (ct, tag) = buf.split_at_mut(n);
        self.aead
            .decrypt_in_place_detached(&self.nonce(k), b"", ct, tag)
            .map_err(|_| Error::ModifiedChunk(k))
    }

    fn check_commitment(&self, c: &[u8]) -> Result<(), Error> {
        if crate::engine::ct::declassify(bool::from(self.commitment.ct_eq(c))) {
            Ok(())
        } else {
            Err(Error::WrongKeyOrContext)
        }
    }
}

fn random_salt() -> Result<[u8; SALT], Error> {
    let mut s = [0u8; SALT];
    getrandom::fill(&mut s)
        .map_err(|e| Error::Io(io::Error::other(format!("no system randomness: {e:?}"))))?;
    Ok(s)
}

/// Number of chunks for a plaintext of `len` bytes (the final one is short, maybe empty).
fn chunk_count(len: u64) -> u64 {
    len / CHUNK as u64 + 1
}

/// Above this many chunks the one-shot functions spread chunks over threads.
const PARALLEL_THRESHOLD: usize = 16;

/// Runs `f` on every (k, item) pair, in parallel when large and the feature is on;
/// reports the failure of the lowest k, as the sequential path would.
fn for_chunks<T, F>(chunks: Vec<(u64, T)>, f: F) -> Result<(), Error>
where
    T: Send,
    F: Fn(u64, T) -> Result<(), Error> + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if chunks.len() > PARALLEL_THRESHOLD {
        use rayon::prelude::*;
        let mut errs: Vec<(u64, Error)> = chunks
            .into_par_iter()
            .filter_map(|(k, c)| f(k, c).err().map(|e| (k, e)))
            .collect();
        errs.sort_by_key(|(k, _)| *k);
        return errs.into_iter().next().map_or(Ok(()), |(_, e)| Err(e));
    }
    chunks.into_iter().try_for_each(|(k, c)| f(k, c))
}

/// Encrypts `pt` as chunks `k0`, `k0 + 1`, ... into `out` (ciphertext || tag each), each
/// chunk in one pass from plaintext to output. With `last`, the final short chunk is
/// included (empty if `pt` ends on a chunk boundary); otherwise `pt` holds whole chunks.
/// Returns the number of chunks and of bytes written. Shared by every encryption path.
fn seal_chunks(
    keys: &MessageKeys,
    k0: u64,
    pt: &[u8],
    last: bool,
    out: &mut [u8],
) -> Result<(u64, usize), Error> {
    let n = pt.len() / CHUNK + usize::from(last);
    if k0.saturating_add(n as u64) > MAX_CHUNKS {
        return Err(Error::TooLong);
    }
    let ct_len = pt.len() + TAG * n;
    let mut items = Vec::with_capacity(n);
    let mut rest = &mut out[..ct_len];
    for i in 0..n {
        let p = &pt[i * CHUNK..((i + 1) * CHUNK).min(pt.len())];
        let (c, r) = rest.split_at_mut(p.len() + TAG);
        items.push((k0 + i as u64, (p, c)));
        rest = r;
    }
    for_chunks(items, |k, (p, c)| keys.seal(k, p, c))?;
    Ok((n as u64, ct_len))
}

/// Encrypts a whole message (Cobblestone-128 or -256 by key length).
pub fn encrypt(key: &[u8], context: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
    encrypt_with(
        key,
        context,
        plaintext,
        random_salt()?,
        Engine::selected().map_err(|_| Error::InvalidKeyLength(key.len()))?,
    )
}

fn encrypt_with(
    key: &[u8],
    context: &[u8],
    plaintext: &[u8],
    salt: [u8; SALT],
    engine: Engine,
) -> Result<Vec<u8>, Error> {
    let keys = MessageKeys::derive(key, &salt, context, engine)?;
    let n = chunk_count(plaintext.len() as u64);
    if n > MAX_CHUNKS {
        return Err(Error::TooLong);
    }
    let mut out = vec![0u8; HEADER + plaintext.len() + TAG * n as usize];
    out[..SALT].copy_from_slice(&salt);
    out[SALT..HEADER].copy_from_slice(&keys.commitment);
    seal_chunks(&keys, 0, plaintext, true, &mut out[HEADER..])?;
    Ok(out)
}

/// Decrypts a whole message; returns the plaintext only if every chunk verified.
pub fn decrypt(key: &[u8], context: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
    let engine = Engine::selected().map_err(|_| Error::InvalidKeyLength(key.len()))?;
    aead_name(key.len())?;
    if ciphertext.len() < HEADER {
        return Err(Error::Truncated);
    }
    let salt: [u8; SALT] = ciphertext[..SALT]
        .try_into()
        .map_err(|_| Error::Truncated)?;
    let keys = MessageKeys::derive(key, &salt, context, engine)?;
    keys.check_commitment(&ciphertext[SALT..HEADER])?;
    open_body(&keys, &ciphertext[HEADER..])
}

fn open_body(keys: &MessageKeys, body: &[u8]) -> Result<Vec<u8>, Error> {
    let full = body.len() / CT_CHUNK;
    let last = body.len() % CT_CHUNK;
    if last < TAG {
        return Err(Error::Truncated); // missing or cut final chunk
    }
    if full as u64 + 1 > MAX_CHUNKS {
        return Err(Error::TooLong);
    }
    let mut buf = body.to_vec();
    let chunks: Vec<(u64, &mut [u8])> = buf
        .chunks_mut(CT_CHUNK)
        .enumerate()
        .map(|(k, c)| (k as u64, c))
        .collect();
    let r = for_chunks(chunks, |k, c| keys.open(k, c));
    if let Err(e) = r {
        crate::engine::wipe::wipe_bytes(&mut buf);
        return Err(e);
    }
    // Drop the tags: compact the plaintext.
    let mut out = Vec::with_capacity(buf.len() - TAG * (full + 1));
    for c in buf.chunks(CT_CHUNK) {
        out.extend_from_slice(&c[..c.len() - TAG]);
    }
    crate::engine::wipe::wipe_bytes(&mut buf);
    Ok(out)
}

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
        let engine = Engine::selected().map_err(|_| Error::InvalidKeyLength(key.len()))?;
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
            return Err(Error::TooLong);
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
fn read_full<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
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
fn read_header<R: Read>(key: &[u8], context: &[u8], inner: &mut R) -> Result<MessageKeys, Error> {
    let engine = Engine::selected().map_err(|_| Error::InvalidKeyLength(key.len()))?;
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
        if is_final && (n < TAG || n == CT_CHUNK) {
            // No room for a tag, or a full chunk with nothing after it: the final short
            // chunk is missing.
            return Err(Error::Truncated);
        }
        if self.k >= MAX_CHUNKS {
            return Err(Error::TooLong);
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
            return Err(Error::Failed.into());
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
                crate::engine::wipe::wipe_bytes(&mut self.buf);
                return Err(e.into());
            }
        }
    }
}

/// Random-access decryption (`io::Read + io::Seek` over the plaintext). On creation it
/// checks the commitment and authenticates the message length by decrypting the final
/// chunk, so seeking from the end is safe; every read verifies the chunks it touches.
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
            return Err(Error::TooLong);
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
            return Err(Error::Failed.into());
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

/// Chunks per batch of the parallel stream functions: 64 chunks = 1 MiB of plaintext, so
/// memory stays near 2 MiB whatever the input size.
pub const BATCH: usize = 64;

/// Encrypts `input` to `output` as one message, `BATCH` chunks at a time on all cores
/// (output order preserved, memory bounded). `progress` receives plaintext bytes done.
/// Returns the plaintext length.
pub fn encrypt_stream<R: Read, W: Write>(
    key: &[u8],
    context: &[u8],
    mut input: R,
    mut output: W,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let engine = Engine::selected().map_err(|_| Error::InvalidKeyLength(key.len()))?;
    let keys = MessageKeys::derive(key, &random_salt()?, context, engine)?;
    encrypt_stream_keys(&keys, &mut input, &mut output, &mut progress)
}

fn encrypt_stream_keys<R: Read, W: Write>(
    keys: &MessageKeys,
    input: &mut R,
    output: &mut W,
    progress: &mut impl FnMut(u64),
) -> Result<u64, Error> {
    output.write_all(&keys.salt)?;
    output.write_all(&keys.commitment)?;
    let mut pt = Zeroizing::new(vec![0u8; BATCH * CHUNK + 1]);
    // BATCH full chunks, plus the empty final chunk when the input ends on a batch boundary.
    let mut ct = Zeroizing::new(vec![0u8; BATCH * CT_CHUNK + TAG]);
    let (mut have, mut k, mut total) = (0usize, 0u64, 0u64);
    loop {
        have += read_full(input, &mut pt[have..])?;
        let last_batch = have <= BATCH * CHUNK;
        let used = if last_batch { have } else { BATCH * CHUNK };
        let (n_chunks, ct_len) = seal_chunks(keys, k, &pt[..used], last_batch, &mut ct)?;
        output.write_all(&ct[..ct_len])?;
        total += used as u64;
        progress(total);
        k += n_chunks;
        if last_batch {
            output.flush()?;
            return Ok(total);
        }
        // Keep the lookahead byte(s) past the batch.
        pt.copy_within(used..have, 0);
        have -= used;
    }
}

/// Decrypts `input` to `output`, `BATCH` chunks at a time on all cores; only verified
/// chunks are written, and the first failure stops everything (the caller discards the
/// partial output, as the CLI does with its temporary file). Returns the plaintext length.
pub fn decrypt_stream<R: Read, W: Write>(
    key: &[u8],
    context: &[u8],
    mut input: R,
    mut output: W,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let keys = read_header(key, context, &mut input)?;
    let mut ct = Zeroizing::new(vec![0u8; BATCH * CT_CHUNK + 1]);
    let (mut have, mut k, mut total) = (0usize, 0u64, 0u64);
    loop {
        have += read_full(&mut input, &mut ct[have..])?;
        let last_batch = have <= BATCH * CT_CHUNK;
        let used = if last_batch { have } else { BATCH * CT_CHUNK };
        if last_batch && used % CT_CHUNK < TAG {
            return Err(Error::Truncated);
        }
        let n_chunks = used.div_ceil(CT_CHUNK);
        if k + n_chunks as u64 > MAX_CHUNKS {
            return Err(Error::TooLong);
        }
        let chunks: Vec<(u64, &mut [u8])> = ct[..used]
            .chunks_mut(CT_CHUNK)
            .enumerate()
            .map(|(i, c)| (k + i as u64, c))
            .collect();
        for_chunks(chunks, |kk, c| keys.open(kk, c))?;
        for c in ct[..used].chunks(CT_CHUNK) {
            output.write_all(&c[..c.len() - TAG])?;
            total += (c.len() - TAG) as u64;
        }
        progress(total);
        k += n_chunks as u64;
        if last_batch {
            output.flush()?;
            return Ok(total);
        }
        ct.copy_within(used..have, 0);
        have -= used;
    }
}

/// A temporary path next to `dst` (same directory, so the final rename is atomic).
fn temp_next_to(dst: &std::path::Path) -> std::path::PathBuf {
    let name = dst
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    dst.with_file_name(format!(".{name}.gcmkit-{}.tmp", std::process::id()))
}

/// Runs `job` from the file `src` into a temporary file next to `dst`, renamed onto `dst`
/// only if the job succeeded; otherwise the temporary file is removed and `dst` is left
/// as it was. This is what keeps unverified plaintext out of the destination.
fn via_temp_file(
    src: &std::path::Path,
    dst: &std::path::Path,
    job: impl FnOnce(io::BufReader<std::fs::File>, io::BufWriter<std::fs::File>) -> Result<u64, Error>,
) -> Result<u64, Error> {
    let input = io::BufReader::with_capacity(1 << 20, std::fs::File::open(src)?);
    let tmp = temp_next_to(dst);
    let out = io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
    match job(input, out).and_then(|n| std::fs::rename(&tmp, dst).map(|_| n).map_err(Error::Io)) {
        Ok(n) => Ok(n),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Encrypts the file `src` into `dst` ([`encrypt_stream`]: all cores, constant memory),
/// through a temporary file renamed into place. Returns the plaintext length.
pub fn encrypt_file(
    key: &[u8],
    context: &[u8],
    src: &std::path::Path,
    dst: &std::path::Path,
) -> Result<u64, Error> {
    via_temp_file(src, dst, |i, o| encrypt_stream(key, context, i, o, |_| {}))
}

/// Decrypts the file `src` into `dst`; nothing appears at `dst` unless the whole message
/// verified. Returns the plaintext length.
pub fn decrypt_file(
    key: &[u8],
    context: &[u8],
    src: &std::path::Path,
    dst: &std::path::Path,
) -> Result<u64, Error> {
    via_temp_file(src, dst, |i, o| decrypt_stream(key, context, i, o, |_| {}))
}

/// Hazmat: salt injection (for tests and vectors) and raw mode (caller-chosen AEAD key and
/// base nonce, no salt and no commitment: key commitment and nonce uniqueness become the
/// caller's problem).
pub mod hazmat {
    use super::*;

    /// [`super::encrypt`] with a given salt. A salt must never repeat under one key.
    pub fn encrypt_with_salt(
        key: &[u8],
        context: &[u8],
        plaintext: &[u8],
        salt: &[u8; SALT],
    ) -> Result<Vec<u8>, Error> {
        let engine = Engine::selected().map_err(|_| Error::InvalidKeyLength(key.len()))?;
        encrypt_with(key, context, plaintext, *salt, engine)
    }

    /// The AEAD key and base nonce a key, salt and context derive (for checking vectors).
    pub fn derive(
        key: &[u8],
        salt: &[u8; SALT],
        context: &[u8],
    ) -> Result<(Vec<u8>, [u8; 12]), Error> {
        aead_name(key.len())?;
        let mut okm = Zeroizing::new([0u8; 76]);
        let n = key.len();
        hkdf_expand(
            key,
            &[LABEL, aead_name(n)?, &[0], salt, context],
            &mut okm[..n + 44],
        );
        let mut nonce = [0u8; 12];
        nonce.copy_from_slice(&okm[n..n + 12]);
        Ok((okm[..n].to_vec(), nonce))
    }

    /// Raw mode encryption: the chunk sequence only (no salt, no commitment).
    pub fn raw_encrypt(
        aead_key: &[u8],
        base_nonce: &[u8; 12],
        plaintext: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let engine = Engine::selected().map_err(|_| Error::InvalidKeyLength(aead_key.len()))?;
        let keys = MessageKeys::raw(aead_key, base_nonce, engine)?;
        let n = chunk_count(plaintext.len() as u64) as usize;
        let mut out = vec![0u8; plaintext.len() + TAG * n];
        seal_chunks(&keys, 0, plaintext, true, &mut out)?;
        Ok(out)
    }

    /// Raw mode decryption of a chunk sequence.
    pub fn raw_decrypt(
        aead_key: &[u8],
        base_nonce: &[u8; 12],
        body: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let engine = Engine::selected().map_err(|_| Error::InvalidKeyLength(aead_key.len()))?;
        open_body(&MessageKeys::raw(aead_key, base_nonce, engine)?, body)
    }
}
