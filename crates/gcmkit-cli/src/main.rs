//! `gcmkit`: the command-line front end of the gcmkit library.

mod bench;
mod crypt;
mod files;
mod vectors;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

const EXIT_OK: u8 = 0;
const EXIT_FAILED: u8 = 1;
const EXIT_USAGE: u8 = 2;

#[derive(Parser)]
#[command(
    name = "gcmkit",
    version,
    about = "Authenticated encryption of files and streams (c2sp.org/chunked-encryption with AES-GCM), \
             and the GCM family's tools",
    after_help = "Examples:\n  gcmkit keygen -o secret.key\n  gcmkit encrypt --key secret.key -o notes.txt.enc notes.txt\n  \
                  gcmkit decrypt --key secret.key -o notes.txt notes.txt.enc\n  tar c dir | gcmkit encrypt --key secret.key > dir.tar.enc\n\n\
                  Exit codes: 0 success; 1 a check failed (authentication, wrong key, truncation, selftest or \
                  vector failures); 2 bad usage, unreadable input, refused overwrite or I/O error.\n\
                  Environment: GCMKIT_ENGINE=portable|aesni|avx2|avx512 forces an engine."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Writes a new random key: one line of lowercase hex (file created mode 0600).
    Keygen {
        /// Output file (default: stdout).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// 128 (Cobblestone-128, recommended) or 256 (Cobblestone-256).
        #[arg(long, default_value_t = 128)]
        bits: u32,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Encrypts a file or stdin into Cobblestone ciphertext (format by key length).
    Encrypt(CryptArgs),
    /// Decrypts; writes nothing unless the whole message verified.
    Decrypt(CryptArgs),
    /// Throughput of gcmkit's algorithms on each engine, by size, with the IPI.
    Bench {
        /// Algorithms (comma-separated).
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "aes-128-gcm,aes-128-gcm-siv,gmac"
        )]
        algorithm: Vec<String>,
        /// Message sizes in bytes (comma-separated).
        #[arg(long, value_delimiter = ',', default_value = "16,64,576,1500,16384")]
        sizes: Vec<usize>,
        /// Only this engine.
        #[arg(long)]
        engine: Option<String>,
    },
    /// Version, CPU features seen, engines supported and the engine in use.
    Info,
    /// Runs the built-in known-answer tests on every engine; a line per algorithm.
    Selftest,
    /// Runs test-vector files; ends with `N passed, M failed`.
    Vectors {
        /// JSON files: Wycheproof AeadTest (AES-GCM, AES-GCM-SIV), MacWithIvTest (AES-GMAC),
        /// ChunkedEncryption (Cobblestone); gcmkit's GCM-SIV (2015) and GCM-64 schemas.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print every failure (default: the first 20 per file).
        #[arg(long)]
        verbose: bool,
    },
}

#[derive(clap::Args)]
struct CryptArgs {
    /// Key file (from `gcmkit keygen`).
    #[arg(long)]
    key: PathBuf,
    /// Application context bound into the key derivation (must match to decrypt).
    #[arg(long, default_value = "")]
    context: String,
    /// Output file (default or `-`: stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Input file (default or `-`: stdin).
    input: Option<PathBuf>,
}

impl CryptArgs {
    fn job(self) -> crypt::Job {
        crypt::Job {
            key: self.key,
            context: self.context,
            input: self.input,
            output: self.output,
            force: self.force,
            quiet: self.quiet,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r: Result<u8, files::Failure> = match cli.command {
        Command::Keygen {
            output,
            bits,
            force,
        } => crypt::keygen(output.as_deref(), bits, force).map(|_| EXIT_OK),
        Command::Encrypt(a) => crypt::encrypt(&a.job()).map(|_| EXIT_OK),
        Command::Decrypt(a) => crypt::decrypt(&a.job()).map(|_| EXIT_OK),
        Command::Bench {
            algorithm,
            sizes,
            engine,
        } => {
            let engine = match engine.map(|n| gcmkit::Engine::from_name(&n)).transpose() {
                Ok(e) => e,
                Err(e) => return fail(files::usage(e.to_string())),
            };
            bench::run(&algorithm, &sizes, engine)
                .map(|_| EXIT_OK)
                .map_err(files::usage)
        }
        Command::Info => Ok(info()),
        Command::Selftest => Ok(selftest()),
        Command::Vectors { files, verbose } => Ok(vectors::run(&files, verbose)),
    };
    match r {
        Ok(code) => ExitCode::from(code),
        Err(f) => fail(f),
    }
}

fn fail(f: files::Failure) -> ExitCode {
    eprintln!("gcmkit: {}", f.msg);
    ExitCode::from(f.code)
}

fn info() -> u8 {
    println!("gcmkit {}", gcmkit::VERSION);
    let feats: Vec<String> = gcmkit::cpu_features()
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
