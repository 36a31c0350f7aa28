//! `gcmkit-bench cycles`: cycles per call and per byte, the unit the best known code is
//! published in, for the messages TLS records, QUIC packets and RPCs carry (16 B to
//! 1 MiB), every gcmkit engine beside aws-lc-rs and ring, encrypt and decrypt. Writes
//! `cycles-<cpu>.md` (one file per CPU met, `clock::cpu_tag`; `cycles.md` indexes them).
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
    md.push_str(&floor_model(ghz, crate::ports::probe()));
    let path = format!("{out_dir}/cycles-{}.md", crate::clock::cpu_tag());
    md.push_str(&hand_written_part(&path));
    std::fs::write(&path, md).unwrap();
    eprintln!("wrote {path}");
}

/// The line that starts the hand-written part of a `cycles-<cpu>.md` file (measurements
/// beside peers that are not linked into this bench, such as haberdashery). Regenerating
/// the tables keeps it and everything after it.
const HAND_WRITTEN_MARKER: &str =
    "<!-- Hand-written below this line: kept by `make bench-cycles`. -->";

/// The hand-written part of the file at `path` (from the marker to the end, with a blank
/// line before it), or nothing if the file or the marker is missing.
fn hand_written_part(path: &str) -> String {
    let Ok(old) = std::fs::read_to_string(path) else {
        return String::new();
    };
    match old.find(HAND_WRITTEN_MARKER) {
        Some(at) => format!("\n{}", &old[at..]),
        None => String::new(),
    }
}

/// The bulk AES-128-GCM floor on this CPU from `ports`' probe `p` (one run of it), on the
/// widest vectors it runs (`ports::width_bits`: 512 bits, or 256 on AVX2 CPUs with VAES
/// such as Zen 3). Per vector, the work that no AES-GCM loop can avoid is:
/// - 10 AES rounds (AES-128);
/// - 3.25 carry-less multiplies (Karatsuba: 3 per vector, the reduction's 2 amortized
///   over a batch of 8 vectors);
/// - 2.25 shuffles (the byte reversal of the hashed block, Karatsuba's half swap, the
///   reduction's swaps amortized);
/// - 5.5 other vector operations (counter increment and round-key-0 XOR, the keystream
///   XOR, Karatsuba's half XOR, the accumulation with three-input XORs).
///
/// Four lower bounds, each from the probe's measured costs, and the floor is the largest:
/// the AES unit alone (AES ops x one AES op); the CLMUL unit with whatever shares its port
/// (shuffles, where the CLMUL + shuffle mix costs the sum; AES too, where the AES + CLMUL
/// mix does, as on Zen 4); all operations spread over the vector ports, whose number the
/// XOR rate gives (XORs per cycle: two for `zmm` on Intel); and the probe's own loop of
/// four vectors of that mix, independent instructions with nothing but ports to wait for.
/// The third bound is what the first two miss on Intel: the XORs and shuffles are not
/// free, they compete with AES and CLMUL.
/// The fourth catches port sharing the pairwise rows miss (Zen 3: AES and CLMUL each
/// alone and in pairs run at their own rate, the whole mix does not).
pub fn floor_model(ghz: f64, p: Option<crate::ports::Probe>) -> String {
    let (Some(p), Some(bits)) = (p, crate::ports::width_bits()) else {
        return "No floor model: the port probe needs VAES and VPCLMULQDQ.\n".into();
    };
    let v = if bits == 512 { "zmm" } else { "ymm" };
    let vector_bytes = f64::from(bits) / 8.0;
    let per = |t: f64| t / 8.0;
    let (aes, clmul, shuffle, xor) = (per(p.aes), per(p.clmul), per(p.shuffle), per(p.xor));
    // Two kinds share a port if their mix costs nearer the sum of the two than the larger.
    let shares = |mix: f64, a: f64, b: f64| per(mix) > (a.max(b) + a + b) / 2.0;
    let aes_clmul_shared = shares(p.aes_clmul, aes, clmul);
    let clmul_shuffle_shared = shares(p.clmul_shuffle, clmul, shuffle);
    // Vector ports: XORs per cycle (any vector port takes an XOR).
    let ports = (1.0 / (xor * ghz * 1e9)).round().max(1.0);
    // Operations per vector.
    let (a, m, s, x) = (10.0, 3.25, 2.25, 5.5);
    let aes_bound = a * aes;
    let mut clmul_bound = m * clmul;
    if clmul_shuffle_shared {
        clmul_bound += s * shuffle;
    }
    if aes_clmul_shared {
        clmul_bound += a * aes;
    }
    // One port's cost of an XOR: the probe's XOR rate is that of all ports together.
    let total_bound = (a * aes + m * clmul + s * shuffle + x * xor * ports) / ports;
    let mix_bound = p.gcm_mix / 4.0;
    let floor = aes_bound.max(clmul_bound).max(total_bound).max(mix_bound);
    // Seconds per vector -> cycles per byte.
    let c_per_b = |secs: f64| secs * ghz * 1e9 / vector_bytes;
    let cyc = |secs: f64| secs * ghz * 1e9;
    format!(
        "## The bulk AES-128-GCM floor on this CPU\n\n\
         Measured with the port probe (`cargo run --release -- ports`) on {bits}-bit vectors, \
         cycles per operation: `vaesenc {v}` {:.2}, `vpclmulqdq {v}` {:.2}, `vpshufb {v}` \
         {:.2}, XOR {:.2}; AES and CLMUL {}; CLMUL and shuffles {}; the XOR rate says \
         {ports:.0} ports for {bits}-bit operations.\n\n\
         Per {bits}-bit vector ({vector_bytes} bytes) an AES-128-GCM loop must issue {a} AES \
         rounds, {m} carry-less multiplies (Karatsuba, the reduction amortized over 8 \
         vectors), {s} shuffles and about {x} other vector operations (counters, round-key-0 \
         and keystream XORs, Karatsuba's half XOR, accumulation). Bounds: the AES unit \
         {:.3} c/B; the CLMUL port with what shares it {:.3} c/B; every operation over the \
         {ports:.0} ports {:.3} c/B; four vectors of that mix as one loop of independent \
         instructions {:.3} c/B. The floor is the largest: **{:.3} c/B** (the {}).\n",
        cyc(aes),
        cyc(clmul),
        cyc(shuffle),
        cyc(xor),
        if aes_clmul_shared {
            "share ports (a mix costs the sum)"
        } else {
            "overlap in pairs (8 + 8 cost what the slower 8 do; the mix row below tests them together)"
        },
        if clmul_shuffle_shared {
            "share a port"
        } else {
            "do not share a port"
        },
        c_per_b(aes_bound),
        c_per_b(clmul_bound),
        c_per_b(total_bound),
        c_per_b(mix_bound),
        c_per_b(floor),
        if floor == aes_bound {
            "AES unit"
        } else if floor == clmul_bound {
            "CLMUL port"
        } else if floor == total_bound {
            "issue width of the vector ports"
        } else {
            "whole mix: ports shared beyond what the pairs show"
        },
    )
}
