//! `gcmkit bench`: throughput of gcmkit's own algorithms on every engine, by message
//! size, with the Internet Performance Index (conventions sec. 9). For the side-by-side
//! comparison with other libraries see `make bench` (docs/perf/engines.md).

use crate::outln;
use gcmkit::AeadMode;
use gcmkit::{AesGcm, AesGcmSiv, Engine, GcmSiv2015, GcmSiv2015Variant, Gmac};
use std::time::Instant;

pub const ALGORITHMS: &[&str] = &[
    "aes-128-gcm",
    "aes-256-gcm",
    "aes-128-gcm-siv",
    "aes-256-gcm-siv",
    "gmac",
    "gcm-siv-2015",
    "cobblestone-128",
];
const IPI_MIX: &[(usize, f64)] = &[(1500, 0.60), (576, 0.20), (552, 0.15), (44, 0.05)];

/// One call on a `size`-byte message.
fn op(alg: &str, e: Engine, size: usize) -> Result<Box<dyn FnMut()>, String> {
    let mut buf = vec![0x5au8; size];
    let mut n = 0u64;
    let mut nonce = move || {
        n += 1;
        let mut x = [0u8; 12];
        x[4..].copy_from_slice(&n.to_le_bytes());
        x
    };
    let err = |x: gcmkit::Error| x.to_string();
    Ok(match alg {
        "aes-128-gcm" | "aes-256-gcm" => {
            let c = AesGcm::with_engine(&vec![1u8; if alg == "aes-128-gcm" { 16 } else { 32 }], e)
                .map_err(err)?;
            Box::new(move || {
                drop(std::hint::black_box(c.encrypt_in_place_detached(
                    &nonce(),
                    b"",
                    &mut buf,
                )))
            })
        }
        "aes-128-gcm-siv" | "aes-256-gcm-siv" => {
            let c = AesGcmSiv::with_engine(
                &vec![1u8; if alg == "aes-128-gcm-siv" { 16 } else { 32 }],
                e,
            )
            .map_err(err)?;
            Box::new(move || {
                drop(std::hint::black_box(c.encrypt_in_place_detached(
                    &nonce(),
                    b"",
                    &mut buf,
                )))
            })
        }
        "gmac" => {
            let m = Gmac::with_engine(&[1u8; 16], e).map_err(err)?;
            Box::new(move || drop(std::hint::black_box(m.compute(&nonce(), &buf))))
        }
        "gcm-siv-2015" => {
            let c =
                GcmSiv2015::with_engine(GcmSiv2015Variant::TwoKey, &[1u8; 16], &[2u8; 16], None, e)
                    .map_err(err)?;
            Box::new(move || {
                drop(std::hint::black_box(c.encrypt_in_place_detached(
                    &nonce(),
                    b"",
                    &mut buf,
                )))
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

/// Median GB/s of 5 samples of ~20 ms.
fn gbps(f: &mut dyn FnMut(), size: usize) -> f64 {
    let t = Instant::now();
    let mut n = 0u64;
    while t.elapsed().as_secs_f64() < 0.005 {
        f();
        n += 1;
    }
    let iters = ((0.02 / (t.elapsed().as_secs_f64() / n as f64)) as u64).max(1);
    let mut s: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                f();
            }
            (size.max(1) * iters as usize) as f64 / t.elapsed().as_secs_f64() / 1e9
        })
        .collect();
    s.sort_by(|a, b| a.total_cmp(b));
    s[2]
}

pub fn run(algs: &[String], sizes: &[usize], engine: Option<Engine>) -> Result<(), String> {
    let engines: Vec<Engine> = match engine {
        Some(e) => vec![e.check().map_err(|x| x.to_string())?],
        None => Engine::supported().collect(),
    };
    outln!(
        "gcmkit {} bench: encryption throughput in GB/s (median of 5); IPI in Gbit/s",
        gcmkit::VERSION
    );
    crate::out(&format!("{:<16} {:<9}", "algorithm", "engine"));
    for s in sizes {
        crate::out(&format!(" {:>9}", s));
    }
    outln!(" {:>9}", "IPI");
    for alg in algs {
        for &e in &engines {
            crate::out(&format!("{alg:<16} {:<9}", e.name()));
            for &s in sizes {
                crate::out(&format!(" {:>9.3}", gbps(&mut *op(alg, e, s)?, s)));
            }
            let inv: f64 = IPI_MIX
                .iter()
                .map(|&(s, f)| Ok::<f64, String>(f / gbps(&mut *op(alg, e, s)?, s)))
                .sum::<Result<f64, String>>()?;
            outln!(" {:>9.2}", 8.0 / inv);
        }
    }
    Ok(())
}
