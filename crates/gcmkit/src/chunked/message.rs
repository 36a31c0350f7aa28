//! Whole messages in memory, and the chunk sealing that every encryption path shares.

use super::keys::{aead_name, random_salt, MessageKeys};
use super::{chunk_count, CHUNK, CT_CHUNK, HEADER, MAX_CHUNKS, SALT, TAG};
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

/// Encrypts a whole message (Cobblestone-128 or -256 by key length).
pub fn encrypt(key: &[u8], context: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
    encrypt_with(key, context, plaintext, random_salt()?, Engine::selected()?)
}

pub(crate) fn encrypt_with(
    key: &[u8],
    context: &[u8],
    plaintext: &[u8],
    salt: [u8; SALT],
    engine: Engine,
) -> Result<Vec<u8>, Error> {
    let keys = MessageKeys::derive(key, &salt, context, engine)?;
    let n = chunk_count(plaintext.len() as u64);
    if n > MAX_CHUNKS {
        return Err(super::too_many_chunks(n));
    }
    let mut out = vec![0u8; HEADER + plaintext.len() + TAG * n as usize];
    out[..SALT].copy_from_slice(&salt);
    out[SALT..HEADER].copy_from_slice(&keys.commitment);
    seal_chunks(&keys, 0, plaintext, true, &mut out[HEADER..])?;
    Ok(out)
}

/// Decrypts a whole message; returns the plaintext only if every chunk verified.
pub fn decrypt(key: &[u8], context: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
    let engine = Engine::selected()?;
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

pub(crate) fn open_body(keys: &MessageKeys, body: &[u8]) -> Result<Vec<u8>, Error> {
    let full = body.len() / CT_CHUNK;
    let last = body.len() % CT_CHUNK;
    if last < TAG {
        return Err(Error::Truncated); // missing or cut final chunk
    }
    if full as u64 + 1 > MAX_CHUNKS {
        return Err(super::too_many_chunks(full as u64 + 1));
    }
    let mut buf = body.to_vec();
    let chunks: Vec<(u64, &mut [u8])> = buf
        .chunks_mut(CT_CHUNK)
        .enumerate()
        .map(|(k, c)| (k as u64, c))
        .collect();
    let r = for_chunks(chunks, |k, c| keys.open(k, c));
    if let Err(e) = r {
        crate::secret::wipe::wipe_bytes(&mut buf);
        return Err(e);
    }
    // Drop the tags: compact the plaintext.
    let mut out = Vec::with_capacity(buf.len() - TAG * (full + 1));
    for c in buf.chunks(CT_CHUNK) {
        out.extend_from_slice(&c[..c.len() - TAG]);
    }
    crate::secret::wipe::wipe_bytes(&mut buf);
    Ok(out)
}
