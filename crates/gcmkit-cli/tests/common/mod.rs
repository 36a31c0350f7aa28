//! Helpers shared by the CLI's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `gcmkit` binary under test.
pub fn gcmkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gcmkit"))
}

/// A fresh directory for one test (`prefix`-`name`-pid under the temp directory).
pub fn dir(prefix: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcmkit-{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs gcmkit with `args` in `cwd`.
pub fn run(args: &[&str], cwd: &Path) -> Output {
    gcmkit().args(args).current_dir(cwd).output().unwrap()
}

/// Deterministic test data.
pub fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 131 % 251) as u8).collect()
}
