//! `gcmkit-bench cycles`: cycles per call and per byte, the unit the best known code is
//! published in, for the messages TLS records, QUIC packets and RPCs carry (16 B to
//! 1 MiB), every gcmkit engine beside aws-lc-rs and ring, encrypt and decrypt. Writes
//! `cycles.md`.
//!
//! Cycles are time x the core clock measured by the dependent-add chain (this VM has no
//! cycle counters); each figure is the fastest of `SAMPLES` short samples taken
//! round-robin with the other candidates of its row (the estimator of every mode here).
//! Decryption copies the ciphertext into the work buffer before each call for every
//! candidate alike (ring and aws-lc-rs decrypt in place only): at 16 B that copy is a few
//! cycles of the figure. The floor model below the table uses `ports`' measurements.

use crate::peers::{self, Alg, Op};
use gcmkit::Engine;

const SIZES: &[usize] = &[16, 64, 576, 1500, 16384, 1 << 20];
const ALGS: &[Alg] = &[
    Alg::Aes128Gcm,
    Alg::Aes256Gcm,
    Alg::Aes128GcmSiv,
    Alg::Aes256GcmSiv,
];

/// Cycles per call at `gbps` GB/s for `size` bytes, at `ghz`.
fn cycles(size: usize, gbps: f64, ghz: f64) -> f64 {
    size as f64 / gbps * ghz
}

fn cell(size: usize, gbps: f64, ghz: f64) -> String {
    if size >= 16384 {
        format!("{:.3} c/B", ghz / gbps)
    } else {
        format!("{:.0}", cycles(size, gbps, ghz))
    }
}

pub fn run(out_dir: &str, ghz: f64) {
    let engines: Vec<Engine> = Engine::supported().collect();
    let mut md = String::from("# Cycles per call\n\n");
    md.push_str(&format!(
        "{}\n\nCommand: `make bench-cycles` (`cd bench && cargo run --release -- cycles ../docs/perf`). \
         One row per algorithm, direction and size; every candidate of a row raced round-robin, \
         the fastest of {} samples each. 12-byte nonce, no AAD, in place \
         (`encrypt_in_place_detached` / `decrypt_in_place_detached` for gcmkit). Cells: cycles \
         per call up to 1500 B, cycles per byte from 16 KiB; cycles = time x the measured clock.\n\n",
        crate::clock::machine_line(ghz),
        crate::SAMPLES
    ));
    for &alg in ALGS {
        for op in [Op::Encrypt, Op::Decrypt] {
            let mut names: Vec<String> = Vec::new();
            let mut lines: Vec<String> = Vec::new();
            for &size in SIZES {
                let mut cands = peers::candidates(alg, op, size, &engines);
                let gbps = crate::race(&mut cands, size);
                if names.is_empty() {
                    names = cands.iter().map(|c| c.name.clone()).collect();
                }
                let cells: Vec<String> = gbps.iter().map(|&g| cell(size, g, ghz)).collect();
                eprintln!("{} {} {size}: {}", alg.name(), op.name(), cells.join(" | "));
                lines.push(format!("| {size} B | {} |\n", cells.join(" | ")));
            }
            md.push_str(&format!(
                "## {} {}\n\n| size | {} |\n|---{}|\n",
                alg.name(),
                op.name(),
                names.join(" | "),
                "|---".repeat(names.len())
            ));
            for l in lines {
                md.push_str(&l);
            }
            md.push('\n');
        }
    }
    md.push_str(&floor_model(ghz));
    let path = format!("{out_dir}/cycles.md");
    std::fs::write(&path, md).unwrap();
    eprintln!("wrote {path}");
}

/// The bulk AES-128-GCM floor on this CPU from `ports`' probe: per 64 bytes (one 512-bit
/// vector of four blocks) CTR costs 10 AES rounds (the whitening XOR rides on other
/// ports), GHASH 3 carry-less multiplies (Karatsuba; the reduction, amortized over 8
/// vectors, adds about 2/8). Whether the AES and CLMUL units share ports is read from
/// the probe: a mix that costs the sum shares, one that costs the maximum does not.
fn floor_model(ghz: f64) -> String {
    let Some(p) = crate::ports::probe() else {
        return "No floor model: the port probe needs AVX-512 with VAES and VPCLMULQDQ.\n".into();
    };
    let (aes, clmul, mix) = (p.aes / 8.0, p.clmul / 8.0, p.aes_clmul / 8.0);
    let shared = mix > 0.75 * (aes + clmul);
    let clmuls_per_64 = 3.0 + 2.0 / 8.0;
    let ctr = 10.0 * aes;
    let ghash = clmuls_per_64 * clmul;
    let per_64 = if shared { ctr + ghash } else { ctr.max(ghash) };
    let c_per_b = |secs: f64| secs * ghz * 1e9 / 64.0;
    format!(
        "## The bulk AES-128-GCM floor on this CPU\n\n\
         Measured with the port probe (`cargo run --release -- ports`): one `vaesenc zmm` \
         every {:.2} cycles, one `vpclmulqdq zmm` every {:.2}, the two interleaved {:.2} per pair: \
         the units {}. Per 64 bytes: CTR 10 rounds = {:.3} c/B, GHASH {clmuls_per_64} \
         multiplies = {:.3} c/B, so the floor is **{:.3} c/B** ({}).\n",
        aes * ghz * 1e9,
        clmul * ghz * 1e9,
        mix * ghz * 1e9,
        if shared {
            "share ports (their costs add)"
        } else {
            "have ports of their own (the larger bounds)"
        },
        c_per_b(ctr),
        c_per_b(ghash),
        c_per_b(per_64),
        if shared { "the sum" } else { "the larger" },
    )
}
