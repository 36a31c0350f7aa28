//! `gcmkit keygen`, `encrypt` and `decrypt`: Cobblestone-128/-256 files and streams.

use crate::files::{create_private, failed, open_input, read_key, usage, Failure, Output};
use gcmkit::chunked;
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
        Some(p) if p != Path::new("-") => {
            let mut f = create_private(p, force)?;
            f.write_all(line.as_bytes())
                .map_err(|e| usage(format!("cannot write {}: {e}", p.display())))?;
        }
        _ => io::stdout()
            .write_all(line.as_bytes())
            .map_err(|e| usage(format!("cannot write: {e}")))?,
    }
    Ok(())
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
    pub context: String,
    pub input: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub force: bool,
    pub quiet: bool,
}

pub fn encrypt(job: &Job) -> Result<(), Failure> {
    let key = read_key(&job.key)?;
    let (input, len) = open_input(job.input.as_deref())?;
    let mut out = Output::open(job.output.as_deref(), job.force, true)?;
    let pb = progress(len, job.quiet);
    let r = {
        let w = out.writer();
        chunked::encrypt_stream(&key, job.context.as_bytes(), input, w, |done| {
            if let Some(pb) = &pb {
                pb.set_position(done)
            }
        })
    };
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    match r {
        Ok(_) => out.commit(),
        Err(e) => {
            out.discard();
            Err(usage(format!("encryption failed: {e}")))
        }
    }
}

pub fn decrypt(job: &Job) -> Result<(), Failure> {
    let key = read_key(&job.key)?;
    let (input, len) = open_input(job.input.as_deref())?;
    let to_stdout = job.output.as_deref().is_none_or(|p| p == Path::new("-"));
    // Verified plaintext goes to a temporary file first; it reaches the destination (or
    // stdout) only once the whole message has verified.
    let staging = if to_stdout {
        let p = std::env::temp_dir().join(format!("gcmkit-decrypt-{}.tmp", std::process::id()));
        Some(p)
    } else {
        None
    };
    let mut out = match &staging {
        Some(p) => Output::open(Some(p), true, false)?,
        None => Output::open(job.output.as_deref(), job.force, false)?,
    };
    let pb = progress(len, job.quiet);
    let r = {
        let w = out.writer();
        chunked::decrypt_stream(&key, job.context.as_bytes(), input, w, |done| {
            if let Some(pb) = &pb {
                pb.set_position(done)
            }
        })
    };
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    if let Err(e) = r {
        out.discard();
        return Err(match e {
            chunked::Error::Io(e) => usage(format!("decryption failed: {e}")),
            e => failed(format!("decryption failed: {e}; no output was written")),
        });
    }
    out.commit()?;
    if let Some(p) = staging {
        let copy =
            std::fs::File::open(&p).and_then(|mut f| io::copy(&mut f, &mut io::stdout().lock()));
        let _ = std::fs::remove_file(&p);
        copy.map_err(|e| usage(format!("cannot write plaintext: {e}")))?;
    }
    Ok(())
}
