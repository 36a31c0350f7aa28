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

/// The standard error of a finished run, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh directory (see [`dir`]) with a key `k`, plaintext `pt` of `n` bytes and its
/// encryption `ct`.
pub fn setup(prefix: &str, name: &str, n: usize) -> TestDir {
    let d = dir(prefix, name);
    assert!(run(&["keygen", "-o", "k"], &d).status.success());
    std::fs::write(d.join("pt"), data(n)).unwrap();
    let o = run(&["encrypt", "--key", "k", "-o", "ct", "pt"], &d);
    assert!(o.status.success(), "{}", stderr(&o));
    d
}

/// The names in `d`, sorted.
pub fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Nothing but `keep` in `d` (no temporary file left behind).
pub fn only(d: &Path, keep: &[&str]) {
    let mut want: Vec<String> = keep.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(names(d), want, "unexpected files in {}", d.display());
}

/// Runs a shell script in `cwd` with `$G` naming the gcmkit binary.
pub fn sh(script: &str, cwd: &Path) -> Output {
    Command::new("bash")
        .args(["-c", script])
        .env("G", env!("CARGO_BIN_EXE_gcmkit"))
        .current_dir(cwd)
        .output()
        .unwrap()
}

/// Runs `gcmkit encrypt --quiet --key k -o <out>` in `d` on `input` bytes written to a
/// standard input that stays open, waits (at most 20 s) until `staged()` says its
/// temporary output exists, then sends it `SIG<sig>`; returns the finished run.
pub fn interrupted_encrypt(
    d: &Path,
    out: &str,
    input: usize,
    sig: &str,
    staged: impl Fn() -> bool,
) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut c = gcmkit()
        .args(["encrypt", "--quiet", "--key", "k", "-o", out])
        .current_dir(d)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = c.stdin.take().unwrap();
    stdin.write_all(&data(input)).unwrap();
    let start = std::time::Instant::now();
    while !staged() {
        assert!(start.elapsed().as_secs() < 20, "no temporary file appeared");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(Command::new("kill")
        .args([&format!("-{sig}"), &c.id().to_string()])
        .status()
        .unwrap()
        .success());
    let o = c.wait_with_output().unwrap();
    drop(stdin);
    o
}
