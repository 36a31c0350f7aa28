//! `gcmkit vectors FILE...`: the shared runner (`gcmkit-vectors`) on the selected engine,
//! one summary line per file, `N passed, M failed` last.

use crate::outln;
use gcmkit_fs::escaped;
use std::path::{Path, PathBuf};

/// Largest vector file read: a file is parsed whole (JSON), taking several times its size
/// in memory; the largest published file this runs (Wycheproof's) is under 2 MB.
pub const MAX_FILE: u64 = 64 << 20;

/// The file's text, opened once: a regular file over [`MAX_FILE`] (by the open file's
/// metadata) is refused before a byte is read, and any source, whose size the metadata
/// may not give (0 for a FIFO, a process substitution or a device: `/dev/zero` was read
/// until memory ran out), is read through a cap of [`MAX_FILE`] + 1 bytes and refused
/// past it.
fn read_capped(f: &Path) -> Result<String, String> {
    use std::io::Read;
    let cap = |what: String| {
        format!(
            "{what}; vector files are read whole and may be at most {} MiB",
            MAX_FILE >> 20
        )
    };
    let file = std::fs::File::open(f).map_err(|e| format!("cannot read: {e}"))?;
    if let Ok(m) = file.metadata() {
        if m.len() > MAX_FILE {
            return Err(cap(format!("{} bytes", m.len())));
        }
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(cap(format!("more than {} MiB", MAX_FILE >> 20)));
    }
    String::from_utf8(bytes).map_err(|e| format!("cannot read: not UTF-8 text ({e})"))
}

/// Runs every file. Exit code 0, 1 (a vector failed) or 2 (a file could not be read or
/// understood, or the engine is unavailable).
pub fn run(files: &[PathBuf], verbose: bool) -> u8 {
    let engine = match gcmkit::Engine::selected() {
        Ok(e) => e,
        Err(e) => {
            crate::say(&format!("gcmkit vectors: {e}"));
            return 2;
        }
    };
    let (mut passed, mut failed, mut broken) = (0, 0, 0);
    for f in files {
        let report = read_capped(f).and_then(|text| gcmkit_vectors::run_json(&text, engine));
        match report {
            Ok(r) => {
                for (id, why) in r
                    .failures
                    .iter()
                    .take(if verbose { usize::MAX } else { 20 })
                {
                    outln!("  FAIL tcId {id}: {why}");
                }
                outln!(
                    "{}: {} ({}) on {}: {} passed, {} failed",
                    escaped(f),
                    r.algorithm,
                    r.kinds.join(", "),
                    engine.name(),
                    r.passed,
                    r.failures.len()
                );
                passed += r.passed;
                failed += r.failures.len();
            }
            Err(e) => {
                broken += 1;
                crate::say(&format!("gcmkit vectors: {}: {e}", escaped(f)));
            }
        }
    }
    outln!("{passed} passed, {failed} failed");
    if broken > 0 {
        2
    } else if failed > 0 {
        1
    } else {
        0
    }
}
