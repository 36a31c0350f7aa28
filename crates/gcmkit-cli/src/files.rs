//! Key files, inputs and outputs for `keygen`, `encrypt` and `decrypt`.
//!
//! Outputs go through a temporary file in the destination's directory that is renamed
//! into place only when the whole operation succeeded, so a failed decryption leaves no
//! plaintext behind. Decryption to stdout first decrypts into a private temporary file and
//! copies it out only after the whole message verified.

use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// A CLI failure: the message, and whether it is a usage/IO problem (exit 2) or a failed
/// check such as authentication (exit 1).
pub struct Failure {
    pub msg: String,
    pub code: u8,
}

pub fn usage(msg: impl Into<String>) -> Failure {
    Failure {
        msg: msg.into(),
        code: 2,
    }
}

pub fn failed(msg: impl Into<String>) -> Failure {
    Failure {
        msg: msg.into(),
        code: 1,
    }
}

/// Reads a key file: one line of hex (32 or 64 digits); lines starting with `#` are
/// comments.
pub fn read_key(path: &Path) -> Result<zeroize::Zeroizing<Vec<u8>>, Failure> {
    let text = zeroize::Zeroizing::new(
        std::fs::read_to_string(path)
            .map_err(|e| usage(format!("cannot read key file {}: {e}", path.display())))?,
    );
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or_else(|| usage(format!("key file {} holds no key", path.display())))?;
    let key = zeroize::Zeroizing::new(
        hex::decode(line).map_err(|_| usage(format!("key file {}: not hex", path.display())))?,
    );
    if key.len() != 16 && key.len() != 32 {
        return Err(usage(format!(
            "key file {}: {} bytes; expected 16 (Cobblestone-128) or 32 (Cobblestone-256), i.e. 32 or 64 hex digits",
            path.display(),
            key.len()
        )));
    }
    Ok(key)
}

/// Creates a new file readable only by its owner, refusing to replace one unless `force`.
pub fn create_private(path: &Path, force: bool) -> Result<File, Failure> {
    if path.exists() && !force {
        return Err(usage(format!(
            "refusing to overwrite {} (use --force)",
            path.display()
        )));
    }
    let mut o = OpenOptions::new();
    o.write(true).mode(0o600);
    if force {
        o.create(true).truncate(true);
    } else {
        o.create_new(true);
    }
    o.open(path)
        .map_err(|e| usage(format!("cannot create {}: {e}", path.display())))
}

/// The input: a file or stdin (`None` or `-`), and its length if known.
pub fn open_input(path: Option<&Path>) -> Result<(Box<dyn Read>, Option<u64>), Failure> {
    match path {
        Some(p) if p != Path::new("-") => {
            let f =
                File::open(p).map_err(|e| usage(format!("cannot open {}: {e}", p.display())))?;
            let len = f.metadata().ok().map(|m| m.len());
            Ok((Box::new(io::BufReader::with_capacity(1 << 20, f)), len))
        }
        _ => Ok((Box::new(io::stdin().lock()), None)),
    }
}

/// Where output goes: a destination file (written via a temporary file) or stdout.
pub enum Output {
    File {
        dest: PathBuf,
        tmp: PathBuf,
        file: File,
    },
    Stdout,
}

/// A temporary path next to `dest` (same filesystem, so the final rename is atomic).
fn tmp_path(dest: &Path) -> PathBuf {
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    dest.with_file_name(format!(".{name}.gcmkit-{}.tmp", std::process::id()))
}

impl Output {
    /// Opens the destination; `ciphertext` outputs refuse to go to a terminal.
    pub fn open(path: Option<&Path>, force: bool, ciphertext: bool) -> Result<Output, Failure> {
        match path {
            Some(p) if p != Path::new("-") => {
                if p.exists() && !force {
                    return Err(usage(format!(
                        "refusing to overwrite {} (use --force)",
                        p.display()
                    )));
                }
                let tmp = tmp_path(p);
                let file = create_private(&tmp, true)?;
                Ok(Output::File {
                    dest: p.to_path_buf(),
                    tmp,
                    file,
                })
            }
            _ => {
                if ciphertext && io::stdout().is_terminal() {
                    return Err(usage(
                        "refusing to write ciphertext to a terminal (use -o FILE or a pipe)",
                    ));
                }
                Ok(Output::Stdout)
            }
        }
    }

    /// Moves the finished temporary file into place.
    pub fn commit(self) -> Result<(), Failure> {
        if let Output::File { dest, tmp, file } = self {
            // No fsync: the rename is what keeps unverified output out of the destination;
            // durability across a power failure is the filesystem's job (as for age, cp).
            drop(file);
            std::fs::rename(&tmp, &dest).map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                usage(format!("cannot move output into {}: {e}", dest.display()))
            })?;
        }
        Ok(())
    }

    /// Removes the temporary file: nothing reaches the destination.
    pub fn discard(self) {
        if let Output::File { tmp, file, .. } = self {
            drop(file);
            let _ = std::fs::remove_file(&tmp);
        }
    }

    pub fn writer(&mut self) -> Box<dyn Write + '_> {
        match self {
            Output::File { file, .. } => Box::new(io::BufWriter::with_capacity(1 << 20, file)),
            Output::Stdout => Box::new(io::stdout().lock()),
        }
    }
}
