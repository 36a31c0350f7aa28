//! `gcmkit vectors FILE...`: the shared runner (`gcmkit-vectors`) on the selected engine,
//! one summary line per file, `N passed, M failed` last.

use crate::outln;
use std::path::PathBuf;

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
        match gcmkit_vectors::run_file(f, engine) {
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
                    f.display(),
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
                crate::say(&format!("gcmkit vectors: {}: {e}", f.display()));
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
