//! Streaming encryption in the c2sp.org/chunked-encryption format ("Cobblestone").
//!
//! The format, as published at c2sp.org/chunked-encryption:
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
//! Entry points: one-shot [`encrypt`] / [`decrypt`] and their `_into` forms into a
//! buffer of [`ciphertext_len`] / [`plaintext_len`] bytes (parallel over chunks for large
//! inputs), the [`Encryptor`] (`io::Write`) and [`Decryptor`] (`io::Read`) adapters with
//! constant memory, [`Sealer`] and [`Opener`] (pieces of any size into the caller's
//! buffers, pyca/cryptography's `update_into` shape), [`SeekableDecryptor`] (`io::Read + io::Seek`) for random access, and
//! [`RangeDecryptor`] for random access by byte range where the caller does the I/O.
//! Raw mode (caller-chosen AEAD key and base nonce) and salt injection are in
//! [`hazmat`]. Streaming decryption only ever returns verified chunks, and once it has
//! failed it keeps failing.
//!
//! Files by job: `keys` (HKDF derivation, chunk nonces, commitment), `message` (one-shot
//! messages and the chunk sealing every encryption path shares), `stream` (the `io`
//! adapters), `push` (pieces into caller buffers), `ranges` (byte ranges, the caller's I/O), `seek` (random access), `parallel` (bounded-memory streams on all cores),
//! `hazmat`. File to file (`encrypt_file`, `decrypt_file`, under the output rules) is the
//! gcmkit-fs crate's.

pub mod hazmat;
mod keys;
mod message;
mod parallel;
mod push;
mod ranges;
mod seek;
mod stream;

pub use keys::check_key;
pub use message::{ciphertext_len, decrypt, decrypt_into, encrypt, encrypt_into, plaintext_len};
pub use parallel::{decrypt_stream, encrypt_stream, BATCH};
pub use push::{Opener, Sealer};
pub use ranges::{ChunkSpan, RangeDecryptor};
pub use seek::SeekableDecryptor;
pub use stream::{Decryptor, Encryptor};

/// gcmkit's one error type, which also names the chunked format's failures.
pub use crate::Error;

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
pub(crate) const TAG: usize = 16;
pub(crate) const LABEL: &[u8] = b"c2sp.org/chunked-encryption@v1+";

/// Number of chunks for a plaintext of `len` bytes (the final one is short, maybe empty).
pub(crate) fn chunk_count(len: u64) -> u64 {
    len / CHUNK as u64 + 1
}

/// The error for a message of more than [`MAX_CHUNKS`] chunks.
pub(crate) fn too_many_chunks(chunks: u64) -> Error {
    Error::MessageTooLong {
        len: chunks.saturating_mul(CHUNK as u64),
        max: MAX_CHUNKS * CHUNK as u64,
    }
}

/// Where the chunks of a stored message lie, from its length alone: the one reading of a
/// length that the one-shot, seekable and byte-range decryptors share. The plaintext
/// length it gives is authenticated only once the final chunk has verified.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// The number of chunks, the final (short) one included.
    pub(crate) chunks: u64,
    /// The final chunk's ciphertext length (its plaintext and tag, `TAG..CT_CHUNK`).
    pub(crate) final_ct_len: usize,
}

impl Layout {
    /// The chunk sequence of `body` bytes (a message without its header):
    /// `Error::Truncated` for a length no message has (its final chunk missing or cut).
    pub(crate) fn of_body(body: u64) -> Result<Self, Error> {
        let (full, last) = (body / CT_CHUNK as u64, (body % CT_CHUNK as u64) as usize);
        if last < TAG {
            return Err(Error::Truncated);
        }
        if full + 1 > MAX_CHUNKS {
            return Err(too_many_chunks(full + 1));
        }
        Ok(Layout {
            chunks: full + 1,
            final_ct_len: last,
        })
    }

    /// A whole message of `len` bytes, header included.
    pub(crate) fn of_message(len: u64) -> Result<Self, Error> {
        Self::of_body(len.checked_sub(HEADER as u64).ok_or(Error::Truncated)?)
    }

    pub(crate) fn plaintext_len(&self) -> u64 {
        (self.chunks - 1) * CHUNK as u64 + (self.final_ct_len - TAG) as u64
    }

    /// Chunk `k`'s ciphertext length.
    pub(crate) fn ct_len_of(&self, k: u64) -> usize {
        if k + 1 == self.chunks {
            self.final_ct_len
        } else {
            CT_CHUNK
        }
    }

    /// Where chunk `k` starts in the message.
    pub(crate) fn offset_of(k: u64) -> u64 {
        HEADER as u64 + k * CT_CHUNK as u64
    }
}

/// `Error::BufferSize` unless an output of `got` bytes is exactly the `expected` size.
pub(crate) fn out_exactly(got: usize, expected: usize) -> Result<(), Error> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::BufferSize { got, expected })
    }
}

/// `Error::BufferSize` unless an output of `got` bytes holds at least `expected`.
pub(crate) fn out_at_least(got: usize, expected: usize) -> Result<(), Error> {
    if got >= expected {
        Ok(())
    } else {
        Err(Error::BufferSize { got, expected })
    }
}
