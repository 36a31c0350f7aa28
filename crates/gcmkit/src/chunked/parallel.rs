//! Streams on all cores with bounded memory: `BATCH` chunks at a time, output in order.

use super::keys::{random_salt, MessageKeys};
use super::message::{for_chunks, seal_chunks};
use super::stream::{read_full, read_header};
use super::{CHUNK, CT_CHUNK, MAX_CHUNKS, TAG};
use crate::error::Error;
use crate::Engine;
use std::io::{Read, Write};
use std::vec;
use std::vec::Vec;
use zeroize::Zeroizing;

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
    let engine = Engine::selected()?;
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
            // No final chunk (it is never full, and needs room for its tag). Whether the
            // message was cut or had data appended (which shifts the last chunk's bounds)
            // shows in the whole chunks: they all verify only if it was cut.
            let whole = used - used % CT_CHUNK;
            let chunks: Vec<(u64, &mut [u8])> = ct[..whole]
                .chunks_mut(CT_CHUNK)
                .enumerate()
                .map(|(i, c)| (k + i as u64, c))
                .collect();
            for_chunks(chunks, |kk, c| keys.open(kk, c))?;
            return Err(Error::Truncated);
        }
        let n_chunks = used.div_ceil(CT_CHUNK);
        if k + n_chunks as u64 > MAX_CHUNKS {
            return Err(super::too_many_chunks(k + n_chunks as u64));
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
