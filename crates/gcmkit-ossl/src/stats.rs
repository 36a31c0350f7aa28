//! Records done by the provider, per cipher and direction, printed at unload when
//! GCMKIT_PROVIDER_STATS=1: the evidence that gcmkit, not OpenSSL, did the work.

use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The ciphers, in the order of the algorithm table.
pub const NAMES: [&str; 6] = [
    "AES-128-GCM",
    "AES-192-GCM",
    "AES-256-GCM",
    "AES-128-GCM-SIV",
    "AES-192-GCM-SIV",
    "AES-256-GCM-SIV",
];

static COUNTS: [[AtomicU64; 2]; 6] = [const { [const { AtomicU64::new(0) }; 2] }; 6];

/// Index into NAMES of a cipher by key size.
pub fn index(siv: bool, keylen: usize) -> usize {
    (keylen / 8 - 2) + if siv { 3 } else { 0 }
}

/// One finished message (a TLS record, or an EVP message at Final).
pub fn record(alg: usize, encrypt: bool) {
    COUNTS[alg][usize::from(!encrypt)].fetch_add(1, Relaxed);
}

/// The line printed at unload, e.g.
/// `gcmkit provider: 4120 records (AES-128-GCM encrypt 2050, decrypt 2070)`.
pub fn line() -> String {
    let mut total = 0;
    let mut parts = Vec::new();
    for (name, c) in NAMES.iter().zip(&COUNTS) {
        let (e, d) = (c[0].load(Relaxed), c[1].load(Relaxed));
        total += e + d;
        if e + d > 0 {
            parts.push(format!("{name} encrypt {e}, decrypt {d}"));
        }
    }
    if parts.is_empty() {
        format!("gcmkit provider: {total} records")
    } else {
        format!("gcmkit provider: {total} records ({})", parts.join("; "))
    }
}

/// Prints the line to stderr if GCMKIT_PROVIDER_STATS=1.
pub fn report() {
    if std::env::var_os("GCMKIT_PROVIDER_STATS").is_some_and(|v| v == "1") {
        eprintln!("{}", line());
    }
}
