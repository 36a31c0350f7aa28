//! `gcmkit vectors FILE...`: the shared runner (`gcmkit-vectors`) on the selected engine,
//! one summary line per file, `N passed, M failed` last.

use crate::outln;
use gcmkit::fs::escaped;
use std::path::{Path, PathBuf};

/// Largest vector file read: a file is parsed whole (JSON), taking several times its size
/// in memory; the largest published file this runs (Wycheproof's) is under 2 MB.
pub const MAX_FILE: u64 = 64 << 20;

/// Refuses a file over [`MAX_FILE`] before reading it.
fn check_size(f: &Path) -> Result<(), String> {
    match std::fs::metadata(f) {
        Ok(m) if m.len() > MAX_FILE => Err(format!(
            "{} bytes; vector files are read whole and may be at most {} MiB",
            m.len(),
            MAX_FILE >> 20
        )),
        _ => Ok(()),
    }
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
        match check_size(f).and_then(|()| gcmkit_vectors::run_file(f, engine)) {
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
