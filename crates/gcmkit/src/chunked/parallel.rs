//! Streams on all cores with bounded memory, in a pipeline: while a worker seals (or opens)
//! batch i on all cores, the caller's thread writes batch i - 1 and reads batch i + 1, so
//! reading, the cipher and writing overlap. Buffers are allocated once per stream and
//! rotated (no allocation per batch); output order is kept.
//!
//! Long-lived workers, batches allocated once and the overlap remove most of the futex and
//! sched_yield time of the loop this replaced (docs/tuning.md: chunked::parallel pipeline).

use super::keys::{at_end, random_salt, MessageKeys};
use super::stream::{read_full, read_header};
use super::{CHUNK, CT_CHUNK, MAX_CHUNKS, TAG};
use crate::error::Error;
use crate::Engine;
use std::io::{Read, Write};
use std::vec;
use std::vec::Vec;
use zeroize::Zeroizing;

/// Chunks per batch of the stream functions: 64 chunks = 1 MiB of plaintext. Two batches
/// per worker circulate, so memory stays near 4 MiB per core whatever the input size.
/// Faster than 256-chunk batches: the smaller buffers stay in cache between the read and
/// the cipher (docs/tuning.md: BATCH).
pub const BATCH: usize = 64;

/// One batch read from the input: `len` bytes of `buf` to process, then the bytes read
/// ahead (at most one) to tell whether this was the last batch; and its output buffer.
struct Batch {
    buf: Zeroizing<Vec<u8>>,
    /// Where the batch's bytes start in `buf`: a page boundary (see [`PAGE`]).
    start: usize,
    have: usize,
    len: usize,
    last: bool,
    /// Index of its first chunk.
    k0: u64,
    out: Zeroizing<Vec<u8>>,
}

/// Batches start on a page boundary. Reads from the page cache copy with `rep movsb`,
/// which ran several times slower when the destination sat a few bytes past the source's
/// page offset, as a malloc'd buffer's does (docs/tuning.md: PAGE).
const PAGE: usize = 4096;

/// Reads the next batch of up to `unit * BATCH` bytes into `b`, starting with the bytes the
/// previous batch read ahead; reads one byte past the batch so it knows if it is the last.
fn read_batch<R: Read>(
    input: &mut R,
    (ahead, k0): (&[u8], u64),
    b: &mut Batch,
    unit: usize,
) -> Result<(), Error> {
    let s = b.start;
    b.buf[s..s + ahead.len()].copy_from_slice(ahead);
    let have = ahead.len() + read_full(input, &mut b.buf[s + ahead.len()..])?;
    b.have = have;
    b.last = have <= BATCH * unit;
    b.len = if b.last { have } else { BATCH * unit };
    b.k0 = k0;
    Ok(())
}

/// How many threads seal or open batches: every core (the caller's thread does the I/O
/// meanwhile), or one without the `parallel` feature.
fn workers() -> usize {
    if cfg!(feature = "parallel") {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        1
    }
}

/// One direction of the pipeline: input and output chunk sizes, and the work on one
/// batch of whole chunks (`last`: it ends the message), which returns the bytes it wrote.
struct Stage<'a> {
    unit_in: usize,
    unit_out: usize,
    work: &'a RunWork<'a>,
}

/// The work on one batch: (first chunk index, input, ends the message, output) to the
/// bytes written.
type RunWork<'a> = dyn Fn(u64, &mut [u8], bool, &mut [u8]) -> Result<usize, Error> + Sync + 'a;

/// Drives the pipeline: worker threads (one per core, alive for the whole stream) each
/// seal or open whole batches, taking batch i if i mod workers is theirs, while this
/// thread reads batches ahead and writes finished ones in order. Two batches per worker
/// circulate, allocated once. Stops at the first error of either side (a failed batch
/// and everything after it are never written). Returns the bytes written.
fn pipeline<R: Read, W: Write>(
    input: &mut R,
    output: &mut W,
    stage: &Stage<'_>,
    progress: &mut dyn FnMut(u64),
) -> Result<u64, Error> {
    use std::sync::mpsc::{channel, Receiver, Sender};
    let unit = stage.unit_in;
    let n = workers();
    let out_cap = BATCH * stage.unit_out + TAG;
    let mut free: Vec<Batch> = (0..2 * n)
        .map(|_| Batch {
            buf: Zeroizing::new(vec![0u8; BATCH * unit + 1 + PAGE]),
            start: 0,
            have: 0,
            len: 0,
            last: false,
            k0: 0,
            out: Zeroizing::new(vec![0u8; out_cap]),
        })
        .collect();
    for b in &mut free {
        b.start = PAGE - (b.buf.as_ptr() as usize % PAGE);
        let end = b.start + BATCH * unit + 1;
        b.buf.truncate(end);
    }
    std::thread::scope(|s| {
        let mut jobs: Vec<Sender<Batch>> = Vec::with_capacity(n);
        let mut results: Vec<Receiver<(Batch, Result<usize, Error>)>> = Vec::with_capacity(n);
        for _ in 0..n {
            let (job_tx, job_rx) = channel::<Batch>();
            let (res_tx, res_rx) = channel();
            s.spawn(move || {
                for mut b in job_rx {
                    let s0 = b.start;
                    let r = (stage.work)(b.k0, &mut b.buf[s0..s0 + b.len], b.last, &mut b.out);
                    if res_tx.send((b, r)).is_err() {
                        break;
                    }
                }
            });
            jobs.push(job_tx);
            results.push(res_rx);
        }
        let (mut read_i, mut write_i) = (0usize, 0usize);
        let mut ahead: ([u8; 1], usize, u64) = ([0], 0, 0);
        let mut eof = false;
        let mut written = 0u64;
        loop {
            // Keep every worker fed while batches are free.
            while !eof {
                let Some(mut b) = free.pop() else { break };
                read_batch(input, (&ahead.0[..ahead.1], ahead.2), &mut b, unit)?;
                let extra = b.have - b.len;
                ahead.0[..extra].copy_from_slice(&b.buf[b.start + b.len..b.start + b.have]);
                ahead = (ahead.0, extra, b.k0 + (b.len / unit) as u64);
                eof = b.last;
                jobs[read_i % n].send(b).map_err(|_| Error::StreamFailed)?;
                read_i += 1;
            }
            if write_i == read_i {
                output.flush()?;
                return Ok(written);
            }
            // The oldest batch, in order; a worker that died (a bug) ends the stream.
            let (b, r) = results[write_i % n]
                .recv()
                .map_err(|_| Error::StreamFailed)?;
            let len = r?;
            output.write_all(&b.out[..len])?;
            written += len as u64;
            progress(written);
            write_i += 1;
            free.push(b);
        }
    })
}

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
    // Progress counts plaintext: the output of k chunks is k·TAG larger.
    let mut plain = 0u64;
    let mut tick = |ct_written: u64| {
        plain = ct_written - TAG as u64 * ct_written.div_ceil(CT_CHUNK as u64);
        progress(plain);
    };
    let seal =
        |k0: u64, pt: &mut [u8], last: bool, out: &mut [u8]| seal_run(keys, k0, pt, last, out);
    let stage = Stage {
        unit_in: CHUNK,
        unit_out: CT_CHUNK,
        work: &seal,
    };
    pipeline(input, output, &stage, &mut tick)?;
    Ok(plain)
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
    let open =
        |k0: u64, ct: &mut [u8], last: bool, out: &mut [u8]| open_run(&keys, k0, ct, last, out);
    let stage = Stage {
        unit_in: CT_CHUNK,
        unit_out: CHUNK,
        work: &open,
    };
    pipeline(&mut input, &mut output, &stage, &mut progress)
}

/// Seals a run of plaintext chunks `k0, k0 + 1, ...` into `out` (ciphertext || tag each);
/// with `last`, the final short chunk too (empty if the run ends on a chunk boundary).
/// Returns the bytes written.
fn seal_run(
    keys: &MessageKeys,
    k0: u64,
    pt: &[u8],
    last: bool,
    out: &mut [u8],
) -> Result<usize, Error> {
    let n = pt.len() / CHUNK + usize::from(last);
    if k0.saturating_add(n as u64) > MAX_CHUNKS {
        return Err(super::too_many_chunks(k0.saturating_add(n as u64)));
    }
    let mut o = 0;
    for i in 0..n {
        let p = &pt[i * CHUNK..((i + 1) * CHUNK).min(pt.len())];
        keys.seal(k0 + i as u64, p, &mut out[o..o + p.len() + TAG])?;
        o += p.len() + TAG;
    }
    Ok(o)
}

/// Verifies and decrypts a run of ciphertext chunks into `out`, each in one pass from
/// ciphertext to plaintext. The caller releases nothing of the run unless every chunk in
/// it verified. With `last`, the run must end with the final (short) chunk.
fn open_run(
    keys: &MessageKeys,
    k0: u64,
    ct: &mut [u8],
    last: bool,
    out: &mut [u8],
) -> Result<usize, Error> {
    let n_chunks = ct.len().div_ceil(CT_CHUNK) as u64;
    if k0 + n_chunks > MAX_CHUNKS {
        return Err(super::too_many_chunks(k0 + n_chunks));
    }
    let cut = last && ct.len() % CT_CHUNK < TAG;
    let whole = if cut {
        ct.len() - ct.len() % CT_CHUNK
    } else {
        ct.len()
    };
    let mut n = 0;
    for (i, c) in ct[..whole].chunks(CT_CHUNK).enumerate() {
        let p = c.len() - TAG;
        let opened = keys.open_into(k0 + i as u64, c, &mut out[n..n + p]);
        // The short chunk the message ends in (only the last run's last one is short): if
        // it fails, no final chunk verified.
        opened.map_err(|e| {
            if last && c.len() < CT_CHUNK {
                at_end(e)
            } else {
                e
            }
        })?;
        n += p;
    }
    if cut {
        // No final chunk (it is never full, and needs room for its tag). The whole chunks
        // all verified, so the message was cut, not extended: appended data would have
        // shifted a chunk's bounds and failed above.
        return Err(Error::Truncated);
    }
    Ok(n)
}
