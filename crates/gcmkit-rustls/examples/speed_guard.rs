//! The rustls provider's speed guard (`make test-rustls`): gcmkit's record protection as a
//! ratio of ring's, both providers' `MessageEncrypter` / `MessageDecrypter` in one process,
//! interleaved. Not a timing: the machine's clock and neighbours cancel out of the ratio.
//! Fails when gcmkit runs at under `FLOOR` (0.5) of ring, so a 2x regression fails and
//! noise does not; the 70x slowdown of 56b812f..699da11 (a default trait method compiled
//! without the kernel's target features, docs/perf/rustls.md) fails every check.
//!
//! Checked: TLS 1.3 AES-128-GCM and AES-256-GCM and TLS 1.2 ECDHE-ECDSA AES-128-GCM,
//! records of 1500 B and 16 KiB, encrypted and decrypted. Run in the test profile, as
//! `cargo test` has built it (gcmkit at opt-level 2, ring's assembly as always): about a
//! second.
//!
//! `cargo run --profile test --example speed_guard`

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

const ROUNDS: usize = 15;
const FLOOR: f64 = 0.5;
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

/// Median over rounds of (ring's time / gcmkit's time) for `calls` records of each.
fn race(calls: usize, mut gcmkit: Step<'_>, mut ring: Step<'_>) -> f64 {
    gcmkit(calls);
    ring(calls);
    let mut ratios: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let g = gcmkit(calls);
            ring(calls) / g
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ROUNDS / 2]
}

fn main() {
    let mut failed = Vec::new();
    let mut checked = 0;
    for suite in SUITES {
        for size in SIZES {
            let data = vec![1u8; size];
            // About 0.5 ms of work per side and round at 1 GB/s.
            let calls = (512 * 1024 / size).max(8);
            let gcmkit_suite = *common::gcmkit_suites()
                .iter()
                .find(|s| s.suite() == suite)
                .unwrap();
            let mut g = records(gcmkit_rustls::ring::provider(), gcmkit_suite);
            let mut r = records(
                rustls::crypto::ring::default_provider(),
                common::ring_suite(gcmkit_suite),
            );
            let enc = race(calls, encrypting(&mut g, &data), encrypting(&mut r, &data));
            let dec = race(calls, decrypting(&mut g, &data), decrypting(&mut r, &data));
            for (what, ratio) in [("encrypt", enc), ("decrypt", dec)] {
                let verdict = if ratio >= FLOOR { "ok" } else { "FAIL" };
                let line = format!("{suite:?} {what} {size:5} B: {ratio:5.2}x ring");
                println!("{verdict:4} {line}");
                checked += 1;
                if ratio < FLOOR {
                    failed.push(line);
                }
            }
        }
    }
    if !failed.is_empty() {
        eprintln!(
            "rustls speed guard: {} of {checked} checks under {FLOOR}x ring:",
            failed.len()
        );
        for f in &failed {
            eprintln!("  {f}");
        }
        std::process::exit(1);
    }
    println!("rustls speed guard: {checked} checks, every one at least {FLOOR}x ring");
}
