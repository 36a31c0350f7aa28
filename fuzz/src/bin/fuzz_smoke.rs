//! A stable-Rust fuzz runner for CI: each target for a fixed time on its corpus
//! (fuzz/corpus/<target>/), mutations of it (bit flips, byte sets, truncations,
//! insertions, splices) and fresh random inputs. A panic is a failure: the input is saved
//! to fuzz/artifacts/<target>/ and the run exits 1. `FUZZ_SECONDS` sets the time per
//! target (default 10); run longer locally, or wrap the same functions in libFuzzer.
//!
//! Then the pairs: `decrypt_anything` must have run every algorithm on every engine this
//! CPU has (the engines from the test suites' `common::engines()`, which also fails when
//! detection misses an engine whose instructions the CPU has). A pair never reached is a
//! failure, named in the output: the fuzzing did not cover that engine's code.

#[path = "../../../crates/gcmkit/tests/common/mod.rs"]
mod common;

use gcmkit_fuzz::coverage;
use std::path::Path;
use std::time::{Duration, Instant};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn mutate(r: &mut Rng, base: &[u8], corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut v = base.to_vec();
    for _ in 0..1 + r.below(4) {
        match r.below(6) {
            0 if !v.is_empty() => {
                let i = r.below(v.len());
                v[i] ^= 1 << r.below(8);
            }
            1 if !v.is_empty() => {
                let i = r.below(v.len());
                v[i] = [0, 0xff, 0x80, 0x7f, 16, 12][r.below(6)];
            }
            2 => v.truncate(r.below(v.len() + 1)),
            3 => {
                let i = r.below(v.len() + 1);
                let n = r.below(64);
                let ins: Vec<u8> = (0..n).map(|_| r.next() as u8).collect();
                v.splice(i..i, ins);
            }
            4 if !corpus.is_empty() => {
                let other = &corpus[r.below(corpus.len())];
                let cut = r.below(v.len() + 1);
                v.truncate(cut);
                v.extend_from_slice(&other[r.below(other.len() + 1)..]);
            }
            _ => v = (0..r.below(600)).map(|_| r.next() as u8).collect(),
        }
    }
    v
}

fn main() {
    let secs: u64 = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Before the silent panic hook, so that a missed detection says what it is.
    let engines = common::engines();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failed = 0;
    let mut total = 0u64;
    for (name, target) in gcmkit_fuzz::TARGETS {
        let dir = root.join("corpus").join(name);
        let corpus: Vec<Vec<u8>> = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .filter_map(|e| std::fs::read(e.path()).ok())
                    .collect()
            })
            .unwrap_or_default();
        let mut r = Rng(0x9e37_79b9_7f4a_7c15 ^ name.len() as u64);
        let start = Instant::now();
        let mut runs = 0u64;
        for input in &corpus {
            if std::panic::catch_unwind(|| target(input)).is_err() {
                failed += 1;
                eprintln!("{name}: corpus input panicked");
            }
        }
        while start.elapsed() < Duration::from_secs(secs) {
            let base = if corpus.is_empty() {
                Vec::new()
            } else {
                corpus[r.below(corpus.len())].clone()
            };
            let input = mutate(&mut r, &base, &corpus);
            runs += 1;
            if let Err(e) = std::panic::catch_unwind(|| target(&input)) {
                failed += 1;
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                let art = root.join("artifacts").join(name);
                let path = art.join(format!("crash-{runs}.bin"));
                // The run fails either way; a failed save is said, not hidden.
                let saved = std::fs::create_dir_all(&art)
                    .and_then(|()| std::fs::write(&path, &input))
                    .map_or_else(
                        |e| format!("input NOT saved to {}: {e}", path.display()),
                        |()| format!("input saved to {}", path.display()),
                    );
                eprintln!("{name}: PANIC after {runs} runs: {msg} ({saved})");
                break;
            }
        }
        total += runs;
        println!(
            "{name}: {runs} inputs in {secs} s, corpus {} files",
            corpus.len()
        );
    }
    let passed = gcmkit_fuzz::TARGETS.len() - failed;
    let missing = report_pairs(&engines);
    println!(
        "fuzz-smoke: {total} inputs; {passed} passed, {failed} failed; {missing} engine x algorithm pairs never reached"
    );
    std::process::exit(if failed > 0 || missing > 0 { 1 } else { 0 });
}

/// Prints every engine x algorithm pair of `decrypt_anything` with how many inputs ran
/// it, then each pair never reached; returns how many were never reached.
fn report_pairs(engines: &[gcmkit::Engine]) -> usize {
    let name = |e: Option<gcmkit::Engine>| e.map_or("(no AES engine)", |e| e.name());
    let pairs = coverage::pairs(engines);
    println!("decrypt_anything: engine x algorithm pairs (inputs run with a valid key):");
    for (alg, e, n) in &pairs {
        println!("  {alg:<16} {:<16} {n}", name(*e));
    }
    let missing: Vec<_> = pairs.iter().filter(|p| p.2 == 0).collect();
    for (alg, e, _) in &missing {
        eprintln!("decrypt_anything: NEVER REACHED: {alg} on {}", name(*e));
    }
    missing.len()
}
