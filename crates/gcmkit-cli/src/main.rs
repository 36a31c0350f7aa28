//! `gcmkit`: the command-line front end of the gcmkit library.

mod bench;
mod crypt;
mod files;
mod vectors;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const EXIT_OK: u8 = 0;
use files::{EXIT_FAILED, EXIT_USAGE};

/// Writes a line to stderr; never panics (stderr may be closed, or a closed pipe).
pub fn say(msg: &str) {
    let _ = writeln!(std::io::stderr(), "{msg}");
}

/// Writes to stdout; a reader that went away ends the run quietly with 141, any other
/// error (a stdout closed at start included: its output would be lost) with 2 (never a
/// panic, as `println!` would).
pub fn out(text: &str) {
    if !files::fd_open(1) {
        say("gcmkit: cannot write to stdout: stdout is closed");
        std::process::exit(EXIT_USAGE.into());
    }
    let mut o = std::io::stdout().lock();
    if let Err(e) = o.write_all(text.as_bytes()).and_then(|()| o.flush()) {
        let code = if e.kind() == std::io::ErrorKind::BrokenPipe {
            files::EXIT_BROKEN_PIPE
        } else {
            say(&format!("gcmkit: cannot write to stdout: {e}"));
            EXIT_USAGE
        };
        std::process::exit(code.into());
    }
}

/// `println!` through [`out`].
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => {
        $crate::out(&format!("{}\n", format_args!($($t)*)))
    };
}

/// The catchable signals whose default action ends the process: on any of them, remove
/// every temporary output file, say so, and exit with 128 + the signal number (as a shell
/// reports a process the signal killed).
const FATAL_SIGNALS: [i32; 10] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGQUIT,
    signal_hook::consts::SIGUSR1,
    signal_hook::consts::SIGUSR2,
    signal_hook::consts::SIGALRM,
    signal_hook::consts::SIGVTALRM,
    signal_hook::consts::SIGPROF,
    signal_hook::consts::SIGXFSZ,
];

fn cleanup_on_signals() {
    let Ok(mut signals) = signal_hook::iterator::Signals::new(FATAL_SIGNALS) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            gcmkit_fs::remove_temp_files();
            say("gcmkit: interrupted; no output file was left behind");
            std::process::exit(128 + sig);
        }
    });
}

#[derive(Parser)]
#[command(
    name = "gcmkit",
    version,
    about = "Authenticated encryption of files and streams (c2sp.org/chunked-encryption with AES-GCM), \
             and the GCM family's tools",
    after_help = "Examples:\n  gcmkit keygen -o secret.key\n  gcmkit encrypt --key secret.key -o notes.txt.enc notes.txt\n  \
                  gcmkit decrypt --key secret.key -o notes.txt notes.txt.enc\n  tar c dir | gcmkit encrypt --key secret.key > dir.tar.enc\n\n\
                  Outputs: a regular file (-o FILE) appears only when the whole run succeeded, written \
                  through a private temporary file; an existing file, or one that appears meanwhile, is \
                  replaced only with --force, keeping its owner and mode (a file of another user only by \
                  root; a key file is always 0600). FIFOs and devices are written in place. A symlink (the name \
                  or a directory on the path) is followed only if it is yours or root's (never another user's: /dev/stdout and /dev/fd/N \
                  work); through it the same rules apply to its target (a file there is replaced only with \
                  --force; the link stays). In a sticky shared directory such as /tmp, another user's file, \
                  FIFO or device is refused, even with --force and even where the kernel's protected_* \
                  settings are off. Decryption to stdout or a FIFO streams: each chunk is released once \
                  verified, and a bad or missing chunk ends the run with exit 1.\n\n\
                  Exit codes: 0 success; 1 a check failed (authentication, wrong key, truncation, selftest or \
                  vector failures); 2 bad usage, unreadable input, refused overwrite or I/O error; 141 the \
                  reader of stdout went away (nothing printed); 128+N killed by signal N (SIGINT 130, \
                  SIGTERM 143, SIGHUP 129; also QUIT, USR1, USR2, ALRM, VTALRM, PROF, and XFSZ 153 when a \
                  write passes ulimit -f) after removing temporary files.\n\
                  Environment: GCMKIT_ENGINE=portable|aesni|avx2|avx512|armv8 forces an engine (one the CPU lacks is an error)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Writes a new random key file: a `#` comment line, then the key as one line of 32
    /// (--bits 128) or 64 (--bits 256) lowercase hex digits; created mode 0600. Every gcmkit
    /// front end reads this format (Python: gcmkit.load_key_file, fsspec's key_file=).
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
    // The usage line is written out: clap's own lists every argument given before the
    // missing one as if it were required (`--key <KEY> --output <OUTPUT>`).
    #[command(override_usage = "gcmkit encrypt --key <KEY> [-o <OUTPUT>] [OPTIONS] [INPUT]")]
    Encrypt(CryptArgs),
    /// Decrypts; writes nothing unless the whole message verified.
    #[command(override_usage = "gcmkit decrypt --key <KEY> [-o <OUTPUT>] [OPTIONS] [INPUT]")]
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
        /// Message sizes in bytes (comma-separated; at most 1 GiB each).
        #[arg(long, value_delimiter = ',', default_value = "16,64,576,1500,16384")]
        sizes: Vec<u64>,
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
    /// Application context bound into the key derivation (must match to decrypt), as text.
    #[arg(long, default_value = "", conflicts_with = "context_hex")]
    context: String,
    /// The context as hex, for contexts that are not UTF-8 text (e.g. Python bytes).
    #[arg(long, value_name = "HEX")]
    context_hex: Option<String>,
    /// Output file (default or `-`: stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Replace an existing output file (or, through a symlink, its target).
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Input file (default or `-`: stdin).
    input: Option<PathBuf>,
}

impl CryptArgs {
    fn job(self) -> Result<crypt::Job, files::Failure> {
        let context = match self.context_hex {
            Some(h) => {
                hex::decode(h.trim()).map_err(|e| files::usage(format!("--context-hex: {e}")))?
            }
            None => self.context.into_bytes(),
        };
        Ok(crypt::Job {
            key: self.key,
            context,
            input: self.input,
            output: self.output,
            force: self.force,
            quiet: self.quiet,
        })
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    cleanup_on_signals();
    let r: Result<u8, files::Failure> = match cli.command {
        Command::Keygen {
            output,
            bits,
            force,
        } => crypt::keygen(output.as_deref(), bits, force).map(|_| EXIT_OK),
        Command::Encrypt(a) => a.job().and_then(|j| crypt::encrypt(&j)).map(|_| EXIT_OK),
        Command::Decrypt(a) => a.job().and_then(|j| crypt::decrypt(&j)).map(|_| EXIT_OK),
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
    if !f.msg.is_empty() {
        say(&format!("gcmkit: {}", f.msg));
    }
    ExitCode::from(f.code)
}

fn info() -> u8 {
    outln!("gcmkit {}", gcmkit::VERSION);
    let feats: Vec<String> = gcmkit::cpu_features()
        .into_iter()
        .map(|(n, on)| format!("{n}{}", if on { "" } else { " (no)" }))
        .collect();
    outln!("cpu features: {}", feats.join(", "));
    let supported: Vec<&str> = gcmkit::Engine::supported().map(|e| e.name()).collect();
    outln!("engines supported: {}", supported.join(", "));
    match gcmkit::Engine::selected() {
        Ok(e) => {
            outln!("engine in use: {}", e.name());
            EXIT_OK
        }
        Err(e) => {
            say(&format!("gcmkit: {e}")); // the error names GCMKIT_ENGINE
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
            outln!("ok    {alg:<16} {source} [{}]", ok.join(", "));
        } else {
            failed += 1;
            outln!("FAIL  {alg:<16} {source} [{}]", bad.join("; "));
        }
    }
    outln!("{} passed, {} failed", by_alg.len() - failed, failed);
    if failed == 0 {
        EXIT_OK
    } else {
        EXIT_FAILED
    }
}
