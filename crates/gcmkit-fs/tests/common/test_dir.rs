//! Scratch directories for the tests: shared by the unit tests (`src/tests.rs` includes
//! this file by `#[path]`) and the integration tests in `tests/`.

use std::path::{Path, PathBuf};

/// A fresh directory for one test, removed with its contents when the test ends.
pub struct TestDir(PathBuf);

impl TestDir {
    /// The directory `gcmkit-fs-{name}-{pid}-{thread}` in the system's temporary
    /// directory, emptied if a killed run left it behind.
    pub fn new(name: &str) -> TestDir {
        let d = std::env::temp_dir().join(std::format!(
            "gcmkit-fs-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        TestDir(d)
    }
}

impl core::ops::Deref for TestDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The names in directory `d`, sorted.
pub fn names(d: &Path) -> Vec<std::string::String> {
    let mut v: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}
