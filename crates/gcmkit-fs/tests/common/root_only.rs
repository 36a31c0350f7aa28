//! The gate of the tests that need root: they play another user (`nobody`) by giving
//! files away, which only root may do. Shared by gcmkit-fs's unit tests (`src/tests.rs`)
//! and the CLI's attack tests (`gcmkit-cli/tests/attack.rs`), both by `#[path]`.
//!
//! A root-only test that returns early when not root is reported "ok" by libtest though it
//! checked nothing, and libtest has no way to mark a test skipped once it runs. So:
//! - under `CI=true` a non-root run fails (CI runs these tests as root: a leg that cannot
//!   run them must go red, not green);
//! - elsewhere the test returns, and once libtest has printed its `test result` line the
//!   process prints which tests were skipped and why (an `atexit` handler writing straight
//!   to stderr, which libtest does not capture), so the "ok" is not taken for a check.

use std::io::Write;
use std::string::{String, ToString};
use std::sync::{Mutex, Once};
use std::vec::Vec;

/// The other user of these tests: `nobody`.
pub const NOBODY: u32 = 65534;

/// The root-only tests that returned without running, for the summary at exit.
static SKIPPED: Mutex<Vec<String>> = Mutex::new(Vec::new());
static SUMMARY: Once = Once::new();

/// Whether `CI` is `true`, as CI services set it.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Whether the root-only test `name` may run: true as root. Not root: a failure under
/// `CI=true`; else false, with `name` listed as skipped at exit.
pub fn root(name: &str) -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        return true;
    }
    assert!(
        !in_ci(),
        "{name}: needs root (it gives files to uid {NOBODY}), and CI=true: CI runs the \
         root-only tests as root, so a run that cannot is a failure, not a pass"
    );
    std::println!("SKIPPED {name}: needs root to give files to uid {NOBODY}");
    SKIPPED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(name.to_string());
    SUMMARY.call_once(|| {
        // SAFETY: `summary` is an `extern "C" fn()` that never unwinds (it only writes,
        // ignoring errors), as atexit requires. If registration fails the tests still
        // print their own SKIPPED lines (shown with --nocapture).
        unsafe { libc::atexit(summary) };
    });
    false
}

/// Runs at exit, after libtest's summary: the skipped tests and how to run them.
extern "C" fn summary() {
    let names = SKIPPED.lock().unwrap_or_else(|e| e.into_inner());
    let mut err = std::io::stderr().lock();
    // A closed stderr leaves nothing to tell; the tests' result stands either way.
    let _ = std::writeln!(
        err,
        "SKIPPED, not run (not root): {} root-only test(s) above passed without checking \
         anything; they give files to uid {NOBODY}, which needs root. Run them as root \
         (CI does; under CI=true a non-root run fails):",
        names.len()
    );
    for n in names.iter() {
        let _ = std::writeln!(err, "  SKIPPED {n}");
    }
}
