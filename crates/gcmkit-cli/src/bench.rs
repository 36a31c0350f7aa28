//! `gcmkit bench`: throughput of gcmkit's own algorithms on every engine, by message
//! size, with the Internet Performance Index (`gcmkit::hazmat::measure`). For the side-by-side
//! comparison with other libraries see `make bench` (docs/perf/engines.md).

use crate::outln;
use gcmkit::hazmat::measure;
use gcmkit::AeadMode;
use gcmkit::{AesGcm, AesGcmSiv, DndkGcm, Engine, GcmSiv2015, GcmSiv2015Variant, Gmac, XAes256Gcm};

pub const ALGORITHMS: &[&str] = &[
    "aes-128-gcm",
    "aes-256-gcm",
    "aes-128-gcm-siv",
    "aes-256-gcm-siv",
    "xaes-256-gcm",
    "dndk-gcm",
    "gmac",
    "gcm-siv-2015",
    "cobblestone-128",
];

/// In-place encryption of `buf` under a fresh nonce of `nonce_len` bytes per call.
fn seal_loop<C: AeadMode + 'static>(c: C, nonce_len: usize, mut buf: Vec<u8>) -> Box<dyn FnMut()> {
    let mut n = 0u64;
    let mut nonce = vec![0u8; nonce_len];
    Box::new(move || {
        n += 1;
        nonce[nonce_len - 8..].copy_from_slice(&n.to_le_bytes());
        drop(std::hint::black_box(
            c.encrypt_in_place_detached(&nonce, b"", &mut buf),
        ))
    })
}

/// One call on a `size`-byte message.
fn op(alg: &str, e: Engine, size: usize) -> Result<Box<dyn FnMut()>, String> {
    let buf = vec![0x5au8; size];
    let err = |x: gcmkit::Error| x.to_string();
    let key = |bits: usize| vec![1u8; bits / 8];
    Ok(match alg {
        "aes-128-gcm" => seal_loop(AesGcm::with_engine(&key(128), e).map_err(err)?, 12, buf),
        "aes-256-gcm" => seal_loop(AesGcm::with_engine(&key(256), e).map_err(err)?, 12, buf),
        "aes-128-gcm-siv" => seal_loop(AesGcmSiv::with_engine(&key(128), e).map_err(err)?, 12, buf),
        "aes-256-gcm-siv" => seal_loop(AesGcmSiv::with_engine(&key(256), e).map_err(err)?, 12, buf),
        "xaes-256-gcm" => seal_loop(XAes256Gcm::with_engine(&key(256), e).map_err(err)?, 24, buf),
        "dndk-gcm" => seal_loop(DndkGcm::with_engine(&key(256), e).map_err(err)?, 24, buf),
        "gcm-siv-2015" => seal_loop(
            GcmSiv2015::with_engine(GcmSiv2015Variant::TwoKey, &key(128), &[2u8; 16], None, e)
                .map_err(err)?,
            12,
            buf,
        ),
        "gmac" => {
            let m = Gmac::with_engine(&key(128), e).map_err(err)?;
            let mut n = 0u64;
            Box::new(move || {
                n += 1;
                let mut x = [0u8; 12];
                x[4..].copy_from_slice(&n.to_le_bytes());
                drop(std::hint::black_box(m.compute(&x, &buf)))
            })
        }
        "cobblestone-128" => Box::new(move || {
            drop(std::hint::black_box(gcmkit::chunked::encrypt(
                &[1u8; 16], b"", &buf,
            )))
        }),
        other => {
            return Err(format!(
                "unknown algorithm {other} (one of {})",
                ALGORITHMS.join(", ")
            ))
        }
    })
}

/// GB/s: the fastest of 20 samples of ~5 ms (`gcmkit::hazmat::measure`).
fn gbps(f: &mut dyn FnMut(), size: usize) -> f64 {
    size.max(1) as f64 / measure::fastest(20, 0.005, f) / 1e9
}

/// Largest message size `--sizes` takes (each size is allocated once per engine).
pub const MAX_SIZE: u64 = 1 << 30;

pub fn run(algs: &[String], sizes: &[u64], engine: Option<Engine>) -> Result<(), String> {
    let sizes = sizes
        .iter()
        .map(|&s| match usize::try_from(s) {
            Ok(s) if s as u64 <= MAX_SIZE => Ok(s),
            _ => Err(format!(
                "--sizes: {s} bytes is more than the largest, {MAX_SIZE} (1 GiB)"
            )),
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let engines: Vec<Engine> = match engine {
        Some(e) => vec![e.check().map_err(|x| x.to_string())?],
        None => Engine::supported().collect(),
    };
    outln!(
        "gcmkit {} bench: encryption throughput in GB/s (fastest of 20 samples); IPI in Gbit/s",
        gcmkit::VERSION
    );
    crate::out(&format!("{:<16} {:<9}", "algorithm", "engine"));
    for s in &sizes {
        crate::out(&format!(" {:>9}", s));
    }
    outln!(" {:>9}", "IPI");
    for alg in algs {
        for &e in &engines {
            crate::out(&format!("{alg:<16} {:<9}", e.name()));
            for &s in &sizes {
                crate::out(&format!(" {:>9.3}", gbps(&mut *op(alg, e, s)?, s)));
            }
            let mut failure = None;
            let ipi = measure::ipi(|s| match op(alg, e, s) {
                Ok(mut f) => gbps(&mut *f, s),
                Err(x) => {
                    failure = Some(x);
                    f64::NAN
                }
            });
            if let Some(x) = failure {
                return Err(x);
            }
            outln!(" {:>9.2}", 8.0 * ipi);
        }
    }
    Ok(())
}
