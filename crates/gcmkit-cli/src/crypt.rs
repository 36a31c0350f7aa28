//! `gcmkit keygen`, `encrypt` and `decrypt`: Cobblestone-128/-256 files and streams.
//!
//! Decryption into a regular file appears only after the whole message verified (the
//! library's output layer). Decryption to stdout, a FIFO or a device streams: each batch
//! of chunks is written once its tags verified, and a tampered or truncated stream ends
//! with exit 1 and a message naming the chunk; nothing after the bad chunk is written.

use crate::files::{io_failure, open_input, read_key, usage, Failure, Output};
use gcmkit::{chunked, Error};
use gcmkit_fs::escaped;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Inputs at least this large get a progress bar (when stderr is a terminal).
const PROGRESS_MIN: u64 = 64 << 20;

pub fn keygen(out: Option<&Path>, bits: u32, force: bool) -> Result<(), Failure> {
    let n = match bits {
        128 => 16,
        256 => 32,
        b => return Err(usage(format!("--bits must be 128 or 256, not {b}"))),
    };
    let mut key = zeroize::Zeroizing::new(vec![0u8; n]);
    getrandom::fill(&mut key).map_err(|e| usage(format!("no system randomness: {e:?}")))?;
    let line = zeroize::Zeroizing::new(format!(
        "# gcmkit key: Cobblestone-{bits} (c2sp.org/chunked-encryption)\n{}\n",
        hex::encode(&*key)
    ));
    match out {
        // Through a 0600 temporary file renamed into place: a replaced key file is 0600
        // too, and a failure (a full disk) leaves nothing behind.
        Some(p) if p != Path::new("-") => {
            let mut o = match Output::open(Some(p), force, false, true)? {
                Output::Path(o) => o,
                Output::Stdout => return Err(usage("keygen: no output path")),
            };
            o.file()
                .write_all(line.as_bytes())
                .map_err(|e| io_failure(&format!("cannot write {}", escaped(p)), &e))?;
            o.commit()
                .map_err(|e| io_failure(&format!("cannot write {}", escaped(p)), &e))
        }
        _ => {
            let mut stdout = match Output::open(None, false, false, false)? {
                Output::Stdout => io::stdout().lock(),
                Output::Path(_) => return Err(usage("keygen: unexpected output")),
            };
            stdout
                .write_all(line.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|e| io_failure("cannot write the key", &e))
        }
    }
}

fn progress(len: Option<u64>, quiet: bool) -> Option<ProgressBar> {
    let len = len?;
    if quiet || len < PROGRESS_MIN || !io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(pb)
}

pub struct Job {
    pub key: PathBuf,
    pub context: Vec<u8>,
    pub input: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub force: bool,
    pub quiet: bool,
}

/// The engine, checked before any file is touched: a bad `GCMKIT_ENGINE` is a usage
/// error (exit 2), never mistaken for a failed authentication.
fn check_engine() -> Result<(), Failure> {
    gcmkit::Engine::selected()
        .map(|_| ())
        .map_err(|e| usage(e.to_string())) // the error names GCMKIT_ENGINE
}

/// Runs `stream` from the job's input into its output with a progress bar; commits the
/// output on success, removes it (or, streamed, stops) on failure.
fn run(
    job: &Job,
    ciphertext_out: bool,
    stream: impl FnOnce(
        &[u8],
        Box<dyn io::Read>,
        &mut dyn Write,
        &mut dyn FnMut(u64),
    ) -> Result<u64, Error>,
    on_error: impl FnOnce(Error, bool) -> Failure,
) -> Result<(), Failure> {
    check_engine()?;
    let key = read_key(&job.key)?;
    let (input, len) = open_input(job.input.as_deref())?;
    let mut out = Output::open(job.output.as_deref(), job.force, ciphertext_out, false)?;
    let streamed = out.is_streamed();
    let pb = progress(len, job.quiet);
    let mut tick = |done: u64| {
        if let Some(pb) = &pb {
            pb.set_position(done)
        }
    };
    let r = {
        let mut w = out.writer();
        stream(&key, input, &mut w, &mut tick)
    };
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    match r {
        Ok(_) => out.commit(),
        // Dropping the output removes its temporary file: nothing reaches the destination.
        Err(e) => Err(on_error(e, streamed)),
    }
}

/// An error's exit: I/O (a broken pipe quietly, 141) and usage errors 2, failed checks 1.
fn classify(what: &str, e: Error, after: &str) -> Failure {
    match e {
        Error::Io(io) => io_failure(&format!("{what} failed"), io.get_ref()),
        e @ (Error::InvalidKeyLength { .. } | Error::EngineUnavailable(_)) => {
            usage(format!("{what} failed: {e}"))
        }
        // The wrong-key error says itself that nothing was decrypted.
        e @ Error::WrongKeyOrContext => crate::files::failed(format!("{what} failed: {e}")),
        e => crate::files::failed(format!("{what} failed: {e}; {after}")),
    }
}

pub fn encrypt(job: &Job) -> Result<(), Failure> {
    let ctx = &job.context[..];
    run(
        job,
        true,
        |key, input, w, tick| chunked::encrypt_stream(key, ctx, input, w, tick),
        |e, _| classify("encryption", e, "no output was written"),
    )
}

pub fn decrypt(job: &Job) -> Result<(), Failure> {
    let ctx = &job.context[..];
    run(
        job,
        false,
        |key, input, w, tick| chunked::decrypt_stream(key, ctx, input, w, tick),
        |e, streamed| {
            let after = if streamed {
                "only chunks before it, each verified, were written"
            } else {
                "no output was written"
            };
            classify("decryption", e, after)
        },
    )
}
