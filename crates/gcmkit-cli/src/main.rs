//! `gcmkit`: the command-line front end of the gcmkit library.

mod vectors;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exit codes, documented in `gcmkit --help`.
const EXIT_OK: u8 = 0;
const EXIT_FAILED: u8 = 1;
const EXIT_USAGE: u8 = 2;

#[derive(Parser)]
#[command(
    name = "gcmkit",
    version,
    about = "The GCM family of authenticated encryption: AES-GCM, GMAC, AES-GCM-SIV",
    after_help = "Exit codes: 0 success; 1 a check failed (selftest, vectors, authentication); \
                  2 bad usage or unreadable input.\n\
                  Environment: GCMKIT_ENGINE=portable|aesni|avx2|avx512 forces an engine."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Version, CPU features seen, engines supported and the engine in use.
    Info,
    /// Runs the built-in known-answer tests on every engine; a line per algorithm.
    Selftest,
    /// Runs test-vector files (Wycheproof JSON schemas); ends with `N passed, M failed`.
    Vectors {
        /// JSON files: Wycheproof AeadTest (AES-GCM, AES-GCM-SIV), MacWithIvTest (AES-GMAC);
        /// gcmkit's GCM-SIV (2015) and GCM-64 schemas (../shared/vectors).
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Print every failure (default: the first 20 per file).
        #[arg(long)]
        verbose: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Info => info(),
        Command::Selftest => selftest(),
        Command::Vectors { files, verbose } => vectors::run(&files, verbose),
    };
    ExitCode::from(code)
}

fn info() -> u8 {
    println!("gcmkit {}", gcmkit::VERSION);
    let feats: Vec<String> = gcmkit::engine::cpu_features()
        .into_iter()
        .map(|(n, on)| format!("{n}{}", if on { "" } else { " (no)" }))
        .collect();
    println!("cpu features: {}", feats.join(", "));
    let supported: Vec<&str> = gcmkit::Engine::supported().map(|e| e.name()).collect();
    println!("engines supported: {}", supported.join(", "));
    match gcmkit::Engine::selected() {
        Ok(e) => {
            println!("engine in use: {}", e.name());
            EXIT_OK
        }
        Err(e) => {
            eprintln!("gcmkit: GCMKIT_ENGINE: {e}");
            EXIT_USAGE
        }
    }
}

fn selftest() -> u8 {
    use std::collections::BTreeMap;
    let mut by_alg: BTreeMap<&str, (Vec<&str>, Vec<String>, &str)> = BTreeMap::new();
    for r in gcmkit::selftest::run() {
        let entry = by_alg
            .entry(r.algorithm)
            .or_insert((vec![], vec![], r.source));
        match r.outcome {
            Ok(()) => entry.0.push(r.engine.name()),
            Err(e) => entry.1.push(format!("{}: {e}", r.engine.name())),
        }
    }
    let mut failed = 0;
    for (alg, (ok, bad, source)) in &by_alg {
        if bad.is_empty() {
            println!("ok    {alg:<16} {source} [{}]", ok.join(", "));
        } else {
            failed += 1;
            println!("FAIL  {alg:<16} {source} [{}]", bad.join("; "));
        }
    }
    println!("{} passed, {} failed", by_alg.len() - failed, failed);
    if failed == 0 {
        EXIT_OK
    } else {
        EXIT_FAILED
    }
}
