//! Whole messages in memory, and the chunk sealing that every encryption path shares.

use super::keys::{aead_name, at_end, random_salt, MessageKeys};
use super::{chunk_count, out_exactly, Layout, CHUNK, CT_CHUNK, HEADER, MAX_CHUNKS, SALT, TAG};
use crate::error::Error;
use crate::Engine;
use std::vec;
use std::vec::Vec;

/// Above this many chunks the one-shot functions spread chunks over threads.
#[cfg(feature = "parallel")]
const PARALLEL_THRESHOLD: usize = 16;

/// Runs `f` on every (k, item) pair, in parallel when large and the feature is on;
/// reports the failure of the lowest k, as the sequential path would.
pub(crate) fn for_chunks<T, F>(chunks: Vec<(u64, T)>, f: F) -> Result<(), Error>
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
pub(crate) fn seal_chunks(
    keys: &MessageKeys,
    k0: u64,
    pt: &[u8],
    last: bool,
    out: &mut [u8],
) -> Result<(u64, usize), Error> {
    let n = pt.len() / CHUNK + usize::from(last);
    if k0.saturating_add(n as u64) > MAX_CHUNKS {
        return Err(super::too_many_chunks(k0.saturating_add(n as u64)));
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

/// The ciphertext length of a `plaintext_len`-byte message: header, plaintext and a tag
/// per chunk (`Error::MessageTooLong` past the format's 2^38 chunks or `usize`).
pub fn ciphertext_len(plaintext_len: usize) -> Result<usize, Error> {
    let n = chunk_count(plaintext_len as u64);
    let too_long = || super::too_many_chunks(n);
    if n > MAX_CHUNKS {
        return Err(too_long());
    }
    (n as usize)
        .checked_mul(TAG)
        .and_then(|t| t.checked_add(HEADER))
        .and_then(|t| t.checked_add(plaintext_len))
        .ok_or_else(too_long)
}

/// The plaintext length of a `ciphertext_len`-byte message (`Error::Truncated` for a
/// length no message has: shorter than a header and a tag, or ending on a chunk
/// boundary or inside a tag).
pub fn plaintext_len(ciphertext_len: usize) -> Result<usize, Error> {
    Layout::of_message(ciphertext_len as u64).map(|l| l.plaintext_len() as usize)
}

fn body_plaintext_len(body: usize) -> Result<usize, Error> {
    Layout::of_body(body as u64).map(|l| l.plaintext_len() as usize)
}

/// Encrypts a whole message (Cobblestone-128 or -256 by key length).
pub fn encrypt(key: &[u8], context: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
    encrypt_with(key, context, plaintext, random_salt()?, Engine::selected()?)
}

/// Encrypts a whole message into `out`, which must be [`ciphertext_len`] bytes: one pass
/// from `plaintext` into `out`, in parallel over chunks for large inputs.
pub fn encrypt_into(
    key: &[u8],
    context: &[u8],
    plaintext: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    encrypt_with_into(
        key,
        context,
        plaintext,
        random_salt()?,
        Engine::selected()?,
        out,
    )
}

pub(crate) fn encrypt_with(
    key: &[u8],
    context: &[u8],
    plaintext: &[u8],
    salt: [u8; SALT],
    engine: Engine,
) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; ciphertext_len(plaintext.len())?];
    encrypt_with_into(key, context, plaintext, salt, engine, &mut out)?;
    Ok(out)
}

fn encrypt_with_into(
    key: &[u8],
    context: &[u8],
    plaintext: &[u8],
    salt: [u8; SALT],
    engine: Engine,
    out: &mut [u8],
) -> Result<(), Error> {
    let need = ciphertext_len(plaintext.len())?;
    out_exactly(out.len(), need)?;
    let keys = MessageKeys::derive(key, &salt, context, engine)?;
    out[..SALT].copy_from_slice(&salt);
    out[SALT..HEADER].copy_from_slice(&keys.commitment);
    seal_chunks(&keys, 0, plaintext, true, &mut out[HEADER..])?;
    Ok(())
}

/// Decrypts a whole message; returns the plaintext only if every chunk verified.
pub fn decrypt(key: &[u8], context: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
    aead_name(key.len())?; // a bad key is named before a bad length, as `decrypt_into` does
    let mut out = vec![0u8; plaintext_len(ciphertext.len())?];
    decrypt_into(key, context, ciphertext, &mut out)?;
    Ok(out)
}

/// Decrypts a whole message into `out`, which must be [`plaintext_len`] bytes: one pass
/// from `ciphertext` into `out`, in parallel over chunks for large inputs. The commitment
/// is checked before anything is decrypted; if any chunk fails, `out` is zeroed.
pub fn decrypt_into(
    key: &[u8],
    context: &[u8],
    ciphertext: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    let engine = Engine::selected()?;
    aead_name(key.len())?;
    let need = plaintext_len(ciphertext.len())?;
    out_exactly(out.len(), need)?;
    let salt: [u8; SALT] = ciphertext[..SALT]
        .try_into()
        .map_err(|_| Error::Truncated)?;
    let keys = MessageKeys::derive(key, &salt, context, engine)?;
    keys.check_commitment(&ciphertext[SALT..HEADER])?;
    open_body_into(&keys, &ciphertext[HEADER..], out)
}

/// Decrypts a chunk sequence (no header) into a new buffer.
pub(crate) fn open_body(keys: &MessageKeys, body: &[u8]) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; body_plaintext_len(body.len())?];
    open_body_into(keys, body, &mut out)?;
    Ok(out)
}

/// Decrypts the chunks of `body` (from chunk 0; the last one short) into `out`
/// (`body_plaintext_len` bytes), each one pass from `body` to `out`; `out` is zeroed if
/// any chunk fails.
fn open_body_into(keys: &MessageKeys, body: &[u8], out: &mut [u8]) -> Result<(), Error> {
    debug_assert_eq!(body_plaintext_len(body.len()).ok(), Some(out.len()));
    let chunks: Vec<_> = body
        .chunks(CT_CHUNK)
        .zip(out.chunks_mut(CHUNK).chain(core::iter::once(&mut [][..])))
        .enumerate()
        .map(|(k, c)| (k as u64, c))
        .collect();
    // Only the final chunk is short: if it fails, the input ends in an unverified chunk.
    let r = for_chunks(chunks, |k, (c, p)| {
        let opened = keys.open_into(k, c, p);
        opened.map_err(|e| if c.len() < CT_CHUNK { at_end(e) } else { e })
    });
    if r.is_err() {
        crate::secret::wipe::wipe_bytes(out);
    }
    r
}
