//! The rustls provider's speed guard (`make test-rustls`): gcmkit's record protection as a
//! ratio of ring's, both providers' `MessageEncrypter` / `MessageDecrypter` in one process,
//! interleaved. Not a timing: the ratio of the two sides' fastest samples (many short ones,
//! taken in turn), so the machine's clock and neighbours cancel out. Each check's floor is
//! half of the lowest ratio measured for it (`MEASURED` below, the ratios beside the
//! floors): on this CPU if the table names it, else on any CPU, so that gcmkit made twice
//! as slow fails it; the 70x slowdown of 56b812f..699da11 (a default trait method compiled
//! without the kernel's target features, docs/perf/rustls.md) fails every check. Floors are
//! per build: in the test profile (`cargo test`'s, the one `make test-rustls` runs: gcmkit
//! at opt-level 2, rustls and the providers' glue at 0, ring's assembly as always) the glue
//! both sides share weighs more than in release.
//!
//! Checked: TLS 1.3 AES-128-GCM and AES-256-GCM and TLS 1.2 ECDHE-ECDSA AES-128-GCM,
//! records of 1500 B and 16 KiB, encrypted and decrypted. About two seconds.
//!
//! `cargo run --profile test --example speed_guard`
//!
//! `GCMKIT_SPEED_GUARD_SLOWDOWN=2` makes gcmkit's side protect every record twice: the
//! guard's own demonstration that a gcmkit twice as slow fails it (AMD Zen 4, family 25
//! model 17, 2026-12-04: docs/tuning.md, "speed guards", has the command and the failing
//! rows).

// The integration tests' PKI, configurations and in-memory handshake.
#[path = "../tests/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::Instant;

use rustls::crypto::cipher::{
    InboundOpaqueMessage, MessageDecrypter, MessageEncrypter, OutboundChunks, OutboundPlainMessage,
};
use rustls::crypto::CryptoProvider;
use rustls::{
    CipherSuite, ConnectionTrafficSecrets, ContentType, ProtocolVersion, SupportedCipherSuite,
};

const SAMPLES: usize = 41;

/// The build this is: floors are per build.
const BUILD: &str = if cfg!(debug_assertions) {
    "test"
} else {
    "release"
};

/// A row: suite, direction, record size, build, its floor (half of the lowest ratio of
/// the row on any CPU; `check_floors` keeps them in step) and the ratios measured, ring's
/// time over gcmkit's: (CPU as docs/perf names its pages, ratio, source). Sources: "perf"
/// docs/perf/rustls.md's record-protection table (`make bench-rustls`, release build, Zen
/// 5), "history" docs/history/rustls.md's (the same, Emerald Rapids, measured before the
/// 56b812f slowdown); "guard" this guard's own runs there, the lowest of them
/// (docs/tuning.md, "speed guards"). The test build's rows have only this CPU's figures
/// (no other CPU ran this build, and no release run here gives a factor to carry the
/// release figures over): on another CPU their floor is half of amd-f25-m17's.
type Measured = (
    &'static str,
    &'static str,
    usize,
    &'static str,
    f64,
    &'static [(&'static str, f64, &'static str)],
);

#[rustfmt::skip]
const MEASURED: &[Measured] = &[
    ("TLS13_AES_128_GCM_SHA256", "encrypt", 1500, "test", 1.125, &[("amd-f25-m17", 2.25, "guard")]),
    ("TLS13_AES_128_GCM_SHA256", "decrypt", 1500, "test", 1.040, &[("amd-f25-m17", 2.08, "guard")]),
    ("TLS13_AES_128_GCM_SHA256", "encrypt", 16384, "test", 0.810, &[("amd-f25-m17", 1.62, "guard")]),
    ("TLS13_AES_128_GCM_SHA256", "decrypt", 16384, "test", 0.630, &[("amd-f25-m17", 1.26, "guard")]),
    ("TLS13_AES_256_GCM_SHA384", "encrypt", 1500, "test", 1.095, &[("amd-f25-m17", 2.19, "guard")]),
    ("TLS13_AES_256_GCM_SHA384", "decrypt", 1500, "test", 0.980, &[("amd-f25-m17", 1.96, "guard")]),
    ("TLS13_AES_256_GCM_SHA384", "encrypt", 16384, "test", 0.770, &[("amd-f25-m17", 1.54, "guard")]),
    ("TLS13_AES_256_GCM_SHA384", "decrypt", 16384, "test", 0.595, &[("amd-f25-m17", 1.19, "guard")]),
    ("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "encrypt", 1500, "test", 1.075, &[("amd-f25-m17", 2.15, "guard")]),
    ("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "decrypt", 1500, "test", 1.265, &[("amd-f25-m17", 2.53, "guard")]),
    ("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "encrypt", 16384, "test", 0.735, &[("amd-f25-m17", 1.47, "guard")]),
    ("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "decrypt", 16384, "test", 0.690, &[("amd-f25-m17", 1.38, "guard")]),
    ("TLS13_AES_128_GCM_SHA256", "encrypt", 1500, "release", 0.595, &[("amd-f26-m2", 1.45, "perf"), ("intel-f6-m207", 1.19, "history")]),
    ("TLS13_AES_128_GCM_SHA256", "decrypt", 1500, "release", 0.715, &[("amd-f26-m2", 2.09, "perf"), ("intel-f6-m207", 1.43, "history")]),
    ("TLS13_AES_128_GCM_SHA256", "encrypt", 16384, "release", 0.770, &[("amd-f26-m2", 1.90, "perf"), ("intel-f6-m207", 1.54, "history")]),
    ("TLS13_AES_128_GCM_SHA256", "decrypt", 16384, "release", 0.725, &[("amd-f26-m2", 1.94, "perf"), ("intel-f6-m207", 1.45, "history")]),
    ("TLS13_AES_256_GCM_SHA384", "encrypt", 1500, "release", 0.630, &[("amd-f26-m2", 1.44, "perf"), ("intel-f6-m207", 1.26, "history")]),
    ("TLS13_AES_256_GCM_SHA384", "decrypt", 1500, "release", 0.675, &[("amd-f26-m2", 2.06, "perf"), ("intel-f6-m207", 1.35, "history")]),
    ("TLS13_AES_256_GCM_SHA384", "encrypt", 16384, "release", 0.765, &[("amd-f26-m2", 2.02, "perf"), ("intel-f6-m207", 1.53, "history")]),
    ("TLS13_AES_256_GCM_SHA384", "decrypt", 16384, "release", 0.710, &[("amd-f26-m2", 1.91, "perf"), ("intel-f6-m207", 1.42, "history")]),
    ("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "encrypt", 1500, "release", 0.660, &[("amd-f26-m2", 1.47, "perf"), ("intel-f6-m207", 1.32, "history")]),
    ("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "decrypt", 1500, "release", 0.690, &[("amd-f26-m2", 2.02, "perf"), ("intel-f6-m207", 1.38, "history")]),
    ("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "encrypt", 16384, "release", 0.795, &[("amd-f26-m2", 1.94, "perf"), ("intel-f6-m207", 1.59, "history")]),
    ("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "decrypt", 16384, "release", 0.740, &[("amd-f26-m2", 1.90, "perf"), ("intel-f6-m207", 1.48, "history")]),
];
const SIZES: [usize; 2] = [1500, 16384];
const SUITES: [CipherSuite; 3] = [
    CipherSuite::TLS13_AES_128_GCM_SHA256,
    CipherSuite::TLS13_AES_256_GCM_SHA384,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
];

/// One provider's record protection for `suite`, with the traffic keys of a real handshake
/// between two connections of that provider (rustls builds an `AeadKey` of the suite's
/// length only in its key schedule), and its next sequence number.
struct Records {
    enc: Box<dyn MessageEncrypter>,
    dec: Box<dyn MessageDecrypter>,
    seq: u64,
}

fn records(base: CryptoProvider, suite: SupportedCipherSuite) -> Records {
    let mut cc = common::client_config(common::only(base.clone(), suite), suite);
    cc.enable_secret_extraction = true;
    let mut sc = common::server_config(common::only(base, suite), suite);
    sc.enable_secret_extraction = true;
    let (mut client, mut server) = common::connect(&Arc::new(cc), &Arc::new(sc));
    common::handshake(&mut client, &mut server);
    let split = |t: ConnectionTrafficSecrets| match t {
        ConnectionTrafficSecrets::Aes128Gcm { key, iv }
        | ConnectionTrafficSecrets::Aes256Gcm { key, iv } => (key, iv),
        _ => panic!("not an AES-GCM suite"),
    };
    let (ek, eiv) = split(client.dangerous_extract_secrets().unwrap().tx.1);
    let (dk, div) = split(server.dangerous_extract_secrets().unwrap().rx.1);
    let (enc, dec) = match suite {
        SupportedCipherSuite::Tls13(t) => {
            (t.aead_alg.encrypter(ek, eiv), t.aead_alg.decrypter(dk, div))
        }
        // TLS 1.2: the IV reported is salt (4 bytes) || first explicit nonce (8 bytes).
        SupportedCipherSuite::Tls12(t) => (
            t.aead_alg
                .encrypter(ek, &eiv.as_ref()[..4], &eiv.as_ref()[4..]),
            t.aead_alg.decrypter(dk, &div.as_ref()[..4]),
        ),
    };
    Records { enc, dec, seq: 0 }
}

fn plain(data: &[u8]) -> OutboundPlainMessage<'_> {
    OutboundPlainMessage {
        typ: ContentType::ApplicationData,
        version: ProtocolVersion::TLSv1_2,
        payload: OutboundChunks::Single(data),
    }
}

/// One step of a race: `calls` records through one side, timed.
type Step<'a> = Box<dyn FnMut(usize) -> f64 + 'a>;

fn encrypting<'a>(r: &'a mut Records, data: &'a [u8]) -> Step<'a> {
    Box::new(move |calls| {
        let t = Instant::now();
        for _ in 0..calls {
            std::hint::black_box(r.enc.encrypt(plain(data), r.seq).unwrap());
            r.seq += 1;
        }
        t.elapsed().as_secs_f64()
    })
}

/// Decrypting one record again and again, copied from its wire bytes each time (the same
/// copy on both sides).
fn decrypting<'a>(r: &'a mut Records, data: &'a [u8]) -> Step<'a> {
    let wire = r.enc.encrypt(plain(data), 0).unwrap().encode();
    let mut scratch = Vec::with_capacity(wire.len());
    Box::new(move |calls| {
        let t = Instant::now();
        for _ in 0..calls {
            scratch.clear();
            scratch.extend_from_slice(&wire[5..]);
            let msg = InboundOpaqueMessage::new(
                ContentType::ApplicationData,
                ProtocolVersion::TLSv1_2,
                &mut scratch,
            );
            std::hint::black_box(r.dec.decrypt(msg, 0).unwrap());
        }
        t.elapsed().as_secs_f64()
    })
}

/// ring's fastest sample over gcmkit's, `calls` records per sample, the sides sampled in
/// turn (order alternating); gcmkit's side protects each record `slowdown` times.
fn race(calls: usize, slowdown: usize, mut gcmkit: Step<'_>, mut ring: Step<'_>) -> f64 {
    gcmkit(calls);
    ring(calls);
    let (mut g, mut r) = (f64::INFINITY, f64::INFINITY);
    for i in 0..SAMPLES {
        if i % 2 == 0 {
            g = g.min(gcmkit(calls * slowdown));
            r = r.min(ring(calls));
        } else {
            r = r.min(ring(calls));
            g = g.min(gcmkit(calls * slowdown));
        }
    }
    r / g
}

/// `vendor-fFAMILY-mMODEL` from /proc/cpuinfo, or `None`.
fn cpu_id() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| v.trim().to_string())
    };
    let vendor = match field("vendor_id")?.as_str() {
        "AuthenticAMD" => "amd",
        "GenuineIntel" => "intel",
        _ => return None,
    };
    Some(format!(
        "{vendor}-f{}-m{}",
        field("cpu family")?,
        field("model")?
    ))
}

/// Every floor is half of its row's lowest ratio (to two decimals).
fn check_floors() -> Result<(), String> {
    for (suite, what, size, build, floor, seen) in MEASURED {
        let low = seen.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
        if (low / 2.0 - floor).abs() > 0.0051 {
            return Err(format!(
                "{suite} {what} {size} B ({build}): floor {floor} is not half of {low}"
            ));
        }
    }
    Ok(())
}

/// The floor of a check on `cpu` and whether it is that CPU's own, or `None` if the table
/// has no row for it.
fn floor_of(suite: &str, what: &str, size: usize, cpu: Option<&str>) -> Option<(f64, bool)> {
    let (.., floor, seen) = MEASURED
        .iter()
        .find(|r| r.0 == suite && r.1 == what && r.2 == size && r.3 == BUILD)?;
    let here = seen
        .iter()
        .filter(|s| Some(s.0) == cpu)
        .map(|s| s.1)
        .fold(f64::INFINITY, f64::min);
    Some(if here.is_finite() {
        (here / 2.0, true)
    } else {
        (*floor, false)
    })
}

fn main() {
    if let Err(e) = check_floors() {
        eprintln!("rustls speed guard: {e}");
        std::process::exit(2);
    }
    let slowdown = match std::env::var("GCMKIT_SPEED_GUARD_SLOWDOWN") {
        Err(_) => 1,
        Ok(v) => match v.parse::<usize>() {
            Ok(n) if n >= 1 => n,
            _ => {
                eprintln!("rustls speed guard: GCMKIT_SPEED_GUARD_SLOWDOWN must be a whole number from 1, not {v:?}");
                std::process::exit(2);
            }
        },
    };
    let cpu = cpu_id();
    println!(
        "rustls speed guard: {BUILD} build, CPU {}",
        cpu.as_deref().unwrap_or("unknown")
    );
    if slowdown > 1 {
        println!("GCMKIT_SPEED_GUARD_SLOWDOWN={slowdown}: gcmkit's side protects every record {slowdown} times");
    }
    let mut failed = Vec::new();
    let mut checked = 0;
    for suite in SUITES {
        for size in SIZES {
            let data = vec![1u8; size];
            // About 256 KiB of data per sample: a quarter of a millisecond at 1 GB/s.
            let calls = (256 * 1024 / size).max(8);
            let gcmkit_suite = *common::gcmkit_suites()
                .iter()
                .find(|s| s.suite() == suite)
                .unwrap();
            let mut g = records(gcmkit_rustls::ring::provider(), gcmkit_suite);
            let mut r = records(
                rustls::crypto::ring::default_provider(),
                common::ring_suite(gcmkit_suite),
            );
            let enc = race(
                calls,
                slowdown,
                encrypting(&mut g, &data),
                encrypting(&mut r, &data),
            );
            let dec = race(
                calls,
                slowdown,
                decrypting(&mut g, &data),
                decrypting(&mut r, &data),
            );
            for (what, ratio) in [("encrypt", enc), ("decrypt", dec)] {
                checked += 1;
                let line = format!("{suite:?} {what} {size:5} B: {ratio:5.2}x ring");
                let Some((floor, own)) =
                    floor_of(&format!("{suite:?}"), what, size, cpu.as_deref())
                else {
                    println!(
                        "FAIL {line}: no measured ratio for this row ({BUILD} build) in MEASURED"
                    );
                    failed.push(format!("{line}: no measured ratio"));
                    continue;
                };
                let ok = ratio >= floor;
                let basis = if own { "this CPU's" } else { "any CPU" };
                println!(
                    "{:4} {line} (floor {floor:.2}, {basis})",
                    if ok { "ok" } else { "FAIL" }
                );
                if !ok {
                    failed.push(format!("{line} under {floor:.2}"));
                }
            }
        }
    }
    if !failed.is_empty() {
        eprintln!(
            "rustls speed guard: {} of {checked} checks under their floors:",
            failed.len()
        );
        for f in &failed {
            eprintln!("  {f}");
        }
        std::process::exit(1);
    }
    println!("rustls speed guard: {checked} checks, every one at or above its floor");
}
