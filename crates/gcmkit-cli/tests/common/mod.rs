//! Helpers shared by the CLI's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `gcmkit` binary under test.
pub fn gcmkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gcmkit"))
}

/// A fresh directory for one test (`prefix`-`name`-pid under the temp directory),
/// removed with everything in it when the test ends (also when it fails).
pub fn dir(prefix: &str, name: &str) -> TestDir {
    let d = std::env::temp_dir().join(format!("gcmkit-{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TestDir(d)
}

/// A test's directory; see [`dir`].
pub struct TestDir(PathBuf);

impl std::ops::Deref for TestDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TestDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs gcmkit with `args` in `cwd`.
pub fn run(args: &[&str], cwd: &Path) -> Output {
    gcmkit().args(args).current_dir(cwd).output().unwrap()
}

/// Deterministic test data.
pub fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 131 % 251) as u8).collect()
}
