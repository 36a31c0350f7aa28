//! Throughput of a rustls client/server pair in memory: plaintext written on the client,
//! its TLS bytes moved to the server, read there; the same connection code with gcmkit's
//! provider, *ring*'s and aws-lc-rs's, interleaved in one run. Writes docs/perf/rustls.md.
//!
//! `make bench-rustls` (which holds /tmp/gcmkit-timing.lock while this runs), or
//! `cargo bench --features aws-lc-rs --bench connection -- OUT.md`.

// The CLI bench's clock module, of which this bench uses the clock and machine line only.
#[path = "../../../bench/src/clock.rs"]
#[allow(dead_code)]
mod clock;

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Instant;

use rustls::crypto::cipher::{
    InboundOpaqueMessage, Iv, MessageDecrypter, MessageEncrypter, OutboundChunks,
    OutboundPlainMessage,
};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::{
    CipherSuite, ClientConfig, ClientConnection, ConnectionTrafficSecrets, ContentType,
    ProtocolVersion, RootCertStore, ServerConfig, ServerConnection, SupportedCipherSuite,
};

/// The versions Cargo.lock pins, for the report.
const VERSIONS: &str = "rustls 0.23.46, ring 0.17.14, aws-lc-rs 1.19.0 (aws-lc-sys 0.47.0)";

/// Plaintext moved per sample.
const SAMPLE_BYTES: usize = 8 << 20;
/// Rounds; each round takes one sample of every (provider, suite, size), interleaved, and
/// the fastest sample of each is reported (the VM is shared and noisy).
const ROUNDS: usize = 25;

/// Write sizes: a QUIC-packet-sized record, a full TLS record, and bulk (1 MiB writes,
/// which rustls cuts into full records and moves in large batches).
const SIZES: [(usize, &str); 3] = [
    (1500, "1500 B"),
    (16384, "16 KiB"),
    (1 << 20, "bulk (1 MiB writes)"),
];

struct Provider {
    name: &'static str,
    make: fn() -> CryptoProvider,
}

const PROVIDERS: [Provider; 3] = [
    Provider {
        name: "gcmkit",
        make: gcmkit_rustls::provider,
    },
    Provider {
        name: "ring",
        make: rustls::crypto::ring::default_provider,
    },
    Provider {
        name: "aws-lc-rs",
        make: rustls::crypto::aws_lc_rs::default_provider,
    },
];

const SUITES: [CipherSuite; 4] = [
    CipherSuite::TLS13_AES_128_GCM_SHA256,
    CipherSuite::TLS13_AES_256_GCM_SHA384,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
];

struct Pki {
    ca: CertificateDer<'static>,
    chain: Vec<CertificateDer<'static>>,
    key: Vec<u8>,
}

fn pki() -> Pki {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "bench CA");
    let ca = rcgen::CertifiedIssuer::self_signed(ca_params, ca_key).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let mut params = rcgen::CertificateParams::new(vec!["localhost".to_string()]).unwrap();
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "localhost");
    let cert = params.signed_by(&key, &ca).unwrap();
    Pki {
        ca: ca.der().clone(),
        chain: vec![cert.der().clone()],
        key: key.serialize_der(),
    }
}

/// A connected pair whose only suite is `suite`, both ends on `provider` (`extract`: the
/// traffic secrets may be taken out afterwards).
fn pair(
    pki: &Pki,
    provider: &Provider,
    suite: CipherSuite,
    extract: bool,
) -> (ClientConnection, ServerConnection) {
    let mut p = (provider.make)();
    p.cipher_suites.retain(|s| s.suite() == suite);
    assert_eq!(p.cipher_suites.len(), 1, "{} has {suite:?}", provider.name);
    let version = match suite {
        CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256
        | CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 => &rustls::version::TLS12,
        _ => &rustls::version::TLS13,
    };
    let p = Arc::new(p);
    let mut roots = RootCertStore::empty();
    roots.add(pki.ca.clone()).unwrap();
    let mut client = ClientConfig::builder_with_provider(p.clone())
        .with_protocol_versions(&[version])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(pki.key.clone()));
    let mut server = ServerConfig::builder_with_provider(p)
        .with_protocol_versions(&[version])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(pki.chain.clone(), key)
        .unwrap();
    client.enable_secret_extraction = extract;
    server.enable_secret_extraction = extract;
    let name = ServerName::try_from("localhost").unwrap();
    let mut c = ClientConnection::new(Arc::new(client), name).unwrap();
    let mut s = ServerConnection::new(Arc::new(server)).unwrap();
    let mut buf = Vec::new();
    let mut sink = vec![0u8; 1 << 20];
    while c.is_handshaking() || s.is_handshaking() {
        move_tls(&mut buf, &mut c, &mut s, &mut sink);
        move_tls(&mut buf, &mut s, &mut c, &mut sink);
    }
    // Post-handshake messages (session tickets) out of the way.
    move_tls(&mut buf, &mut s, &mut c, &mut sink);
    c.set_buffer_limit(None);
    (c, s)
}

/// Moves every pending TLS byte from `from` to `to`, which decrypts it; the plaintext is
/// read into `sink`. Returns the plaintext bytes read.
fn move_tls<A, B>(
    buf: &mut Vec<u8>,
    from: &mut rustls::ConnectionCommon<A>,
    to: &mut rustls::ConnectionCommon<B>,
    sink: &mut [u8],
) -> usize {
    buf.clear();
    while from.wants_write() {
        from.write_tls(buf).unwrap();
    }
    let mut rest = &buf[..];
    let mut read = 0;
    while !rest.is_empty() {
        to.read_tls(&mut rest).unwrap();
        to.process_new_packets().unwrap();
        loop {
            match to.reader().read(sink) {
                Ok(0) => break,
                Ok(n) => read += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => panic!("{e}"),
            }
        }
    }
    read
}

/// Seconds to move `SAMPLE_BYTES` of plaintext in writes of `size` bytes.
fn sample(
    c: &mut ClientConnection,
    s: &mut ServerConnection,
    size: usize,
    data: &[u8],
    buf: &mut Vec<u8>,
    sink: &mut [u8],
) -> f64 {
    let writes = SAMPLE_BYTES / size;
    let t = Instant::now();
    let mut got = 0;
    for _ in 0..writes {
        c.writer().write_all(&data[..size]).unwrap();
        got += move_tls(buf, c, s, sink);
    }
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(got, writes * size, "every byte arrived");
    secs
}

/// Record protection alone, as rustls calls it: the `MessageEncrypter` and
/// `MessageDecrypter` of `provider` (TLS 1.3 or TLS 1.2, as `suite` is) with the traffic
/// keys of a real handshake.
fn record_layer(pki: &Pki, provider: &Provider, suite: CipherSuite) -> Records {
    let (c, s) = pair(pki, provider, suite, true);
    let negotiated = c.negotiated_cipher_suite().unwrap();
    let split = |t: ConnectionTrafficSecrets| match t {
        ConnectionTrafficSecrets::Aes128Gcm { key, iv }
        | ConnectionTrafficSecrets::Aes256Gcm { key, iv } => (key, iv),
        _ => unreachable!(),
    };
    let (seq, tx) = c.dangerous_extract_secrets().unwrap().tx;
    let (ek, eiv) = split(tx);
    let (dk, div) = split(s.dangerous_extract_secrets().unwrap().rx.1);
    let (enc, dec, seq) = match negotiated {
        SupportedCipherSuite::Tls13(t) => (
            t.aead_alg.encrypter(ek, eiv),
            t.aead_alg
                .decrypter(dk, Iv::from(<[u8; 12]>::try_from(div.as_ref()).unwrap())),
            seq,
        ),
        // TLS 1.2: the IV reported is salt (4 bytes) || first explicit nonce (8 bytes).
        SupportedCipherSuite::Tls12(t) => (
            t.aead_alg
                .encrypter(ek, &eiv.as_ref()[..4], &eiv.as_ref()[4..]),
            t.aead_alg.decrypter(dk, &div.as_ref()[..4]),
            // aws-lc-rs's TLS 1.2 sealing key takes the first nonce it sees for record 0
            // and then refuses any that does not count up from it: numbering starts at 0
            // (the Finished record's nonce used again, harmless here: nothing is sent).
            0,
        ),
    };
    Records { enc, dec, seq }
}

/// One provider's record protection, and the next sequence number to encrypt with
/// (aws-lc-rs's TLS sealing key refuses sequence numbers that do not increase).
struct Records {
    enc: Box<dyn MessageEncrypter>,
    dec: Box<dyn MessageDecrypter>,
    seq: u64,
}

/// Seconds per record: encrypting `size` bytes, and copying + decrypting that record.
fn record_sample(r: &mut Records, size: usize, data: &[u8], scratch: &mut Vec<u8>) -> (f64, f64) {
    let records = (4 << 20) / size;
    let plain = || OutboundPlainMessage {
        typ: ContentType::ApplicationData,
        version: ProtocolVersion::TLSv1_2,
        payload: OutboundChunks::Single(&data[..size]),
    };
    let t = Instant::now();
    for _ in 0..records {
        std::hint::black_box(r.enc.encrypt(plain(), r.seq).unwrap());
        r.seq += 1;
    }
    let enc_secs = t.elapsed().as_secs_f64() / records as f64;
    // One record, opened again and again (same key and sequence number).
    let seq = r.seq;
    let wire = r.enc.encrypt(plain(), seq).unwrap().encode();
    r.seq += 1;
    let t = Instant::now();
    for _ in 0..records {
        scratch.clear();
        scratch.extend_from_slice(&wire[5..]);
        let msg = InboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            scratch,
        );
        std::hint::black_box(r.dec.decrypt(msg, seq).unwrap());
    }
    (enc_secs, t.elapsed().as_secs_f64() / records as f64)
}

/// Seconds per call of `seal` (in-place encryption of `len` bytes with the nonce of call
/// number `i`), the buffer starting `offset` bytes past a 64-byte boundary (rustls's record
/// bodies start 5 bytes into their buffers).
fn aligned_sample(
    store: &mut [u8],
    offset: usize,
    len: usize,
    mut seal: impl FnMut([u8; 12], &mut [u8]),
) -> f64 {
    let pad = (64 - store.as_ptr() as usize % 64) % 64;
    let buf = &mut store[pad + offset..pad + offset + len];
    let calls = (4 << 20) / len;
    let t = Instant::now();
    for i in 0..calls as u64 {
        let mut nonce = [0u8; 12];
        nonce[4..].copy_from_slice(&i.to_be_bytes());
        seal(nonce, buf);
    }
    t.elapsed().as_secs_f64() / calls as f64
}

/// gcmkit's and AWS-LC's AES-GCM alone (in place, tag detached, a TLS 1.3 record's AAD).
fn gcmkit_seal(gcm: &gcmkit::AesGcm) -> impl FnMut([u8; 12], &mut [u8]) + '_ {
    use gcmkit::AeadMode;
    move |nonce, buf| {
        std::hint::black_box(gcm.encrypt_in_place_detached(&nonce, &AAD, buf).unwrap());
    }
}

fn aws_lc_seal(key: &aws_lc_rs::aead::LessSafeKey) -> impl FnMut([u8; 12], &mut [u8]) + '_ {
    use aws_lc_rs::aead::{Aad, Nonce};
    move |nonce, buf| {
        let nonce = Nonce::assume_unique_for_key(nonce);
        let tag = key.seal_in_place_separate_tag(nonce, Aad::from(AAD), buf);
        let _ = std::hint::black_box(tag.unwrap());
    }
}

/// The ways `build_sample` builds a record body, for the report.
const BUILD_WAYS: [&str; 5] = [
    "alloc + copy + encrypt in place (ring's, aws-lc-rs's; gcmkit's before `encrypt_parts_into`)",
    "alloc + zero-fill + `encrypt_into` (one chunk)",
    "alloc + zero-fill + `encrypt_parts_into` (TLS 1.3's shape: all but the last byte, then it; gcmkit's TLS 1.3 and 1.2)",
    "alloc + copy only (no encryption)",
    "`encrypt_into` an existing buffer (no alloc, no fill)",
];

/// Seconds per record body of `plain.len()` bytes built the way number `way` of
/// `BUILD_WAYS` (`reused`: the existing buffer of the last way).
fn build_sample(gcm: &gcmkit::AesGcm, way: usize, plain: &[u8], reused: &mut [u8]) -> f64 {
    use gcmkit::AeadMode;
    let n = plain.len();
    let calls = (4 << 20) / n;
    let t = Instant::now();
    for i in 0..calls as u64 {
        let mut nonce = [0u8; 12];
        nonce[4..].copy_from_slice(&i.to_be_bytes());
        let plain = std::hint::black_box(plain);
        match way {
            0 => {
                let mut v = Vec::with_capacity(5 + n + 16);
                v.resize(5, 0);
                v.extend_from_slice(plain);
                let tag = gcm.encrypt_in_place_detached(&nonce, &AAD, &mut v[5..]);
                v.extend_from_slice(tag.unwrap().as_ref());
                std::hint::black_box(v);
            }
            1 => {
                let mut v = Vec::with_capacity(5 + n + 16);
                v.resize(5, 0);
                v.extend(std::iter::repeat_n(&0u8, n + 16));
                gcm.encrypt_into(&nonce, plain, &AAD, &mut v[5..]).unwrap();
                std::hint::black_box(v);
            }
            2 => {
                let mut v = Vec::with_capacity(5 + n + 16);
                v.resize(5, 0);
                v.extend(std::iter::repeat_n(&0u8, n + 16));
                let parts = [&plain[..n - 1], &plain[n - 1..]];
                gcm.encrypt_parts_into(&nonce, &parts, &AAD, &mut v[5..])
                    .unwrap();
                std::hint::black_box(v);
            }
            3 => {
                let mut v = Vec::with_capacity(5 + n + 16);
                v.resize(5, 0);
                v.extend_from_slice(plain);
                std::hint::black_box(v);
            }
            _ => {
                let out = &mut reused[5..5 + n + 16];
                gcm.encrypt_into(&nonce, plain, &AAD, out).unwrap();
                std::hint::black_box(out);
            }
        }
    }
    t.elapsed().as_secs_f64() / calls as f64
}

const AAD: [u8; 5] = [0x17, 3, 3, 0, 0];

fn main() {
    let out = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_else(|| "../../docs/perf/rustls.md".into());
    let ghz = clock::measure_ghz();
    eprintln!("core clock: {ghz:.2} GHz (dependent-add chain)");
    let pki = pki();
    let data: Vec<u8> = (0..1 << 20).map(|i| (i * 7 + 3) as u8).collect();
    let mut buf = Vec::with_capacity(2 << 20);
    let mut sink = vec![0u8; 1 << 20];

    // best[suite][size][provider] = fastest seconds per sample.
    let mut best = [[[f64::INFINITY; 3]; SIZES.len()]; SUITES.len()];
    let mut pairs: Vec<Vec<(ClientConnection, ServerConnection)>> = SUITES
        .iter()
        .map(|&suite| {
            PROVIDERS
                .iter()
                .map(|p| pair(&pki, p, suite, false))
                .collect()
        })
        .collect();
    for round in 0..ROUNDS {
        for (si, suite_pairs) in pairs.iter_mut().enumerate() {
            for (zi, &(size, _)) in SIZES.iter().enumerate() {
                for (pi, (c, s)) in suite_pairs.iter_mut().enumerate() {
                    let t = sample(c, s, size, &data, &mut buf, &mut sink);
                    let b = &mut best[si][zi][pi];
                    *b = b.min(t);
                }
            }
        }
        eprint!("\rround {}/{ROUNDS}", round + 1);
    }
    eprintln!();

    // Record layer alone: best[suite][size][provider] = (encrypt, copy + decrypt) seconds.
    let record_suites = &SUITES[..];
    let record_sizes = &SIZES[..2];
    let mut rec_best = [[[(f64::INFINITY, f64::INFINITY); 3]; 2]; SUITES.len()];
    let mut recs: Vec<Vec<_>> = record_suites
        .iter()
        .map(|&suite| {
            PROVIDERS
                .iter()
                .map(|p| record_layer(&pki, p, suite))
                .collect()
        })
        .collect();
    let mut scratch = Vec::with_capacity(1 << 15);
    for round in 0..ROUNDS {
        for (si, suite_recs) in recs.iter_mut().enumerate() {
            for (zi, &(size, _)) in record_sizes.iter().enumerate() {
                for (pi, r) in suite_recs.iter_mut().enumerate() {
                    let (e, d) = record_sample(r, size, &data, &mut scratch);
                    let b = &mut rec_best[si][zi][pi];
                    *b = (b.0.min(e), b.1.min(d));
                }
            }
        }
        eprint!("\rrecord layer round {}/{ROUNDS}", round + 1);
    }
    eprintln!();

    // gcmkit alone, building a record body the ways a provider can: build_best[size][way].
    let mut build_best = [[f64::INFINITY; BUILD_WAYS.len()]; 2];
    {
        let gcm = gcmkit::AesGcm::new(&[7u8; 16]).unwrap();
        let mut reused = vec![0u8; 5 + (1 << 14) + 16];
        for _ in 0..ROUNDS {
            for (zi, &(size, _)) in SIZES[..2].iter().enumerate() {
                for (way, b) in build_best[zi].iter_mut().enumerate() {
                    let t = build_sample(&gcm, way, &data[..size], &mut reused);
                    *b = b.min(t);
                }
            }
        }
    }

    // gcmkit alone: 64-byte-aligned buffers against rustls's 5-byte offset.
    let offsets = [0usize, 5];
    let keys = [("AES-128-GCM", 16usize), ("AES-256-GCM", 32)];
    // align_best[key][size][offset][gcmkit, aws-lc-rs]
    let mut align_best = [[[[f64::INFINITY; 2]; 2]; 2]; 2];
    let mut store = vec![0u8; (1 << 14) + 1 + 128];
    for _ in 0..ROUNDS {
        for (ki, &(_, klen)) in keys.iter().enumerate() {
            let gcm = gcmkit::AesGcm::new(&vec![7u8; klen]).unwrap();
            let alg = if klen == 16 {
                &aws_lc_rs::aead::AES_128_GCM
            } else {
                &aws_lc_rs::aead::AES_256_GCM
            };
            let aws = aws_lc_rs::aead::LessSafeKey::new(
                aws_lc_rs::aead::UnboundKey::new(alg, &vec![7u8; klen]).unwrap(),
            );
            for (zi, &(size, _)) in SIZES[..2].iter().enumerate() {
                for (oi, &off) in offsets.iter().enumerate() {
                    // TLS 1.3 encrypts the content and its type byte.
                    let t = aligned_sample(&mut store, off, size + 1, gcmkit_seal(&gcm));
                    let u = aligned_sample(&mut store, off, size + 1, aws_lc_seal(&aws));
                    let b = &mut align_best[ki][zi][oi];
                    *b = [b[0].min(t), b[1].min(u)];
                }
            }
        }
    }

    let gbps = |secs: f64| SAMPLE_BYTES as f64 / secs / 1e9;
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# rustls connection throughput: gcmkit's provider against ring and aws-lc-rs\n"
    );
    let _ = writeln!(md, "{}\n", clock::machine_line(ghz));
    let _ = writeln!(
        md,
        "Command: `make bench-rustls` (crates/gcmkit-rustls/benches/connection.rs, run under \
         `flock /tmp/gcmkit-timing.lock`). {}; gcmkit's provider is \
         `gcmkit_rustls::provider()` (AES-GCM on gcmkit, the rest ring's).\n",
        VERSIONS
    );
    let _ = writeln!(
        md,
        "One client/server pair per provider and suite, both ends on that provider, in memory: the client writes \
         plaintext, its TLS bytes are moved to the server, which decrypts and reads them (one encryption and one \
         decryption per record, plus rustls's own record handling, identical for all three). Each figure is the \
         fastest of {ROUNDS} samples of {} MiB, the providers interleaved within each round. GB/s of plaintext \
         (10^9 B/s); cycles per byte = measured clock / throughput, for the encrypt + decrypt pair. **ratio** = \
         gcmkit / the better of ring and aws-lc-rs.\n",
        SAMPLE_BYTES >> 20
    );
    let _ = writeln!(md, "| suite | writes | gcmkit GB/s | ring GB/s | aws-lc-rs GB/s | gcmkit c/B | best peer c/B | ratio |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    for (si, suite) in SUITES.iter().enumerate() {
        for (zi, &(_, label)) in SIZES.iter().enumerate() {
            let [g, r, a] = best[si][zi].map(gbps);
            let peer = r.max(a);
            let _ = writeln!(
                md,
                "| {suite:?} | {label} | {g:.2} | {r:.2} | {a:.2} | {:.2} | {:.2} | **{:.2}** |",
                ghz / g,
                ghz / peer,
                g / peer
            );
        }
    }
    let _ = writeln!(
        md,
        "\n## Where the time goes: record protection alone\n\n\
         The same providers' `MessageEncrypter::encrypt` (rustls's record buffer allocated; ring and \
         aws-lc-rs copy the plaintext (and TLS 1.3's type byte) in and encrypt in place; gcmkit \
         zero-fills the buffer and encrypts from the caller's bytes and the type byte into it in one \
         pass, `encrypt_parts_into`) and `MessageDecrypter::decrypt` (the record first copied \
         into a scratch buffer, as the connection's deframer holds it, then decrypted in place), called \
         directly with the traffic keys of a real handshake: cycles per byte (measured clock), fastest of \
         {ROUNDS} samples of 4 MiB. gcmkit's key object is built once per traffic key, in `encrypter()` / \
         `decrypter()`, never per record. **share** = the pair's encrypt + decrypt time as a fraction of \
         the connection's time per byte above (the rest is rustls's record handling, equal for all).\n"
    );
    let _ = writeln!(md, "| suite | record | provider | encrypt c/B | copy + decrypt c/B | share of connection time |");
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for (si, suite) in record_suites.iter().enumerate() {
        for (zi, &(size, label)) in record_sizes.iter().enumerate() {
            for (pi, p) in PROVIDERS.iter().enumerate() {
                let (e, d) = rec_best[si][zi][pi];
                let per_byte = |secs: f64| secs * ghz * 1e9 / size as f64;
                let conn = best[si][zi][pi] / SAMPLE_BYTES as f64 * size as f64;
                let _ = writeln!(
                    md,
                    "| {suite:?} | {label} | {} | {:.3} | {:.3} | {:.0} % |",
                    p.name,
                    per_byte(e),
                    per_byte(d),
                    100.0 * (e + d) / conn
                );
            }
        }
    }
    let _ = writeln!(
        md,
        "\n## gcmkit alone: where the buffer starts\n\n\
         gcmkit's `AesGcm::encrypt_in_place_detached` ({} engine) and aws-lc-rs's \
         `LessSafeKey::seal_in_place_separate_tag` on a TLS 1.3 record body (content + type byte), the \
         buffer starting on a 64-byte boundary or 5 bytes past one, as rustls's record buffers always do \
         (a 5-byte header in front of the body); GB/s, fastest of {ROUNDS} samples of 4 MiB, interleaved.\n",
        gcmkit::Engine::selected().map(|e| e.name()).unwrap_or("?")
    );
    let _ = writeln!(
        md,
        "| key | body | gcmkit aligned | gcmkit +5 | aws-lc-rs aligned | aws-lc-rs +5 | gcmkit / aws-lc-rs aligned | at +5 |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    for (ki, &(kname, _)) in keys.iter().enumerate() {
        for (zi, &(size, label)) in SIZES[..2].iter().enumerate() {
            let gbps_of = |t: f64| (size + 1) as f64 / t / 1e9;
            let [[ga, wa], [go, wo]] = align_best[ki][zi].map(|p| p.map(gbps_of));
            let _ = writeln!(
                md,
                "| {kname} | {label} + 1 | {ga:.2} | {go:.2} | {wa:.2} | {wo:.2} | {:.2} | {:.2} |",
                ga / wa,
                go / wo
            );
        }
    }
    let _ = writeln!(
        md,
        "\n## gcmkit alone: building the record body\n\n\
         AES-128-GCM on a record body of 1500 B or 16 KiB (one slice, or for `encrypt_parts_into` two: TLS 1.3's content and type byte) the ways a \
         provider can build it, behind a 5-byte header in a `Vec` as rustls's `PrefixedPayload` is: \
         nanoseconds per record, fastest of {ROUNDS} samples of 4 MiB, interleaved. The last way needs \
         the buffer to exist already (no allocation, no fill): the bound of a one-pass encryption into \
         uninitialized memory, which `PrefixedPayload` does not expose to safe code.\n"
    );
    let _ = writeln!(md, "| body | {} |", BUILD_WAYS.join(" | "));
    let _ = writeln!(md, "|---|{}", "---|".repeat(BUILD_WAYS.len()));
    for (zi, &(_, label)) in SIZES[..2].iter().enumerate() {
        let cells: Vec<String> = build_best[zi]
            .iter()
            .map(|t| format!("{:.0}", t * 1e9))
            .collect();
        let _ = writeln!(md, "| {label} | {} |", cells.join(" | "));
    }
    std::fs::write(&out, &md).unwrap();
    print!("{md}");
    eprintln!("wrote {out}");
}
