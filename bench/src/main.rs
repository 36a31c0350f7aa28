//! gcmkit-bench: gcmkit (every engine) beside aws-lc-rs, ring and RustCrypto, in one
//! process and one run, as ratios. Writes `docs/perf/engines.{json,md}`; `plot.py`
//! draws the PNG.
//!
//! Method: every row times each implementation round-robin (so machine noise hits all
//! of them alike), `SAMPLES` samples of about `SAMPLE_MS` each after a warm-up; the figure
//! is the *fastest* sample. This VM shares its physical core with other tenants, whose
//! load can halve any one sample and last for seconds: medians of longer samples moved
//! by up to 2x between runs, while the least-disturbed sample (the same estimator for
//! every candidate) repeats within a few per cent. Decryption is "copy the ciphertext into the work buffer, then decrypt in
//! place" for every implementation alike (ring and aws-lc-rs decrypt in place only); the
//! copy makes the ratios conservative for whoever is fastest. Cycles per byte use the
//! core clock measured by a chain of dependent adds (this VM has no cycle counters).

mod clock;
mod cold;
mod cycles;
mod derived;
mod footprint;
mod paper;
mod peers;
mod ports;
mod soft;

use peers::{Alg, Candidate, Op};
use std::time::Instant;

/// Samples per candidate and row, and their length.
const SAMPLES: usize = 150;
const SAMPLE_MS: f64 = 0.4;
/// Repetitions for the incremental-GMAC timing (best of).
const REPS: usize = 7;
pub const SIZES: &[usize] = &[16, 64, 256, 576, 1500, 8192, 16384, 1 << 20];

/// GB/s of each candidate: the fastest of `SAMPLES` short samples, taken round-robin.
fn race(cands: &mut [Candidate], bytes: usize) -> Vec<f64> {
    race_with(cands, bytes, SAMPLES, SAMPLE_MS)
}

/// [`race`] with a given sample count and sample length (ms).
fn race_with(cands: &mut [Candidate], bytes: usize, samples: usize, sample_ms: f64) -> Vec<f64> {
    // Calibrate: iterations per sample for each candidate.
    let iters: Vec<u64> = cands
        .iter_mut()
        .map(|c| {
            let t = Instant::now();
            let mut n = 0u64;
            while t.elapsed().as_secs_f64() < 0.002 || n < 3 {
                (c.run)();
                n += 1;
            }
            let per = t.elapsed().as_secs_f64() / n as f64;
            ((sample_ms / 1000.0) / per).ceil().max(1.0) as u64
        })
        .collect();
    let mut best = vec![0f64; cands.len()];
    for _ in 0..samples {
        for (i, c) in cands.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..iters[i] {
                (c.run)();
            }
            let s = t.elapsed().as_secs_f64();
            best[i] = best[i].max(bytes as f64 * iters[i] as f64 / s / 1e9);
        }
    }
    best
}

struct Row {
    alg: String,
    op: String,
    size: usize,
    results: Vec<(String, f64)>,
}

/// A comma-separated list from the environment variable `var` (the bench's row filters:
/// `GCMKIT_BENCH_ONLY`, `GCMKIT_BENCH_SIZES`, `GCMKIT_BENCH_OPS`), items trimmed; `None`
/// when it is not set.
pub(crate) fn env_list(var: &str) -> Option<Vec<String>> {
    std::env::var(var)
        .ok()
        .map(|l| l.split(',').map(|s| s.trim().to_string()).collect())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // The report modes: each writes its own file into the output folder.
    let report: Option<fn(&str, f64)> = match args.get(1).map(String::as_str) {
        Some("paper-tables") => Some(paper::run),
        Some("derived") => Some(derived::run),
        Some("portable") => Some(soft::run),
        Some("cycles") => Some(cycles::run),
        Some("cold") => Some(cold::run),
        _ => None,
    };
    if let Some(run) = report {
        let ghz = clock::measure_ghz();
        run(
            args.get(2).map(String::as_str).unwrap_or("../docs/perf"),
            ghz,
        );
        return;
    }
    if args.get(1).map(String::as_str) == Some("footprint") {
        footprint::run(&args[2..]);
        return;
    }
    if args.get(1).map(String::as_str) == Some("ports-memory") {
        match ports::mix_with_memory(clock::measure_ghz()) {
            Some((cycles, units)) => println!(
                "AES-GCM mix with the avx2 batch's loads and stores: {units:.2} AES-op units, \
                 {cycles:.1} cycles per 128 B, {:.3} c/B",
                cycles / 128.0
            ),
            None => println!("ports-memory: needs AVX2 with VAES and VPCLMULQDQ, no AVX-512"),
        }
        return;
    }
    if args.get(1).map(String::as_str) == Some("ports") {
        let probe = ports::run();
        println!("\n{}", cycles::floor_model(clock::measure_ghz(), probe));
        return;
    }
    if args.get(1).map(String::as_str) == Some("focus") {
        focus(&args[2..]);
        return;
    }
    let out_dir = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "../docs/perf".into());
    let quick = std::env::var("GCMKIT_BENCH_QUICK").is_ok();
    let ghz = clock::measure_ghz();
    eprintln!("core clock: {ghz:.2} GHz (dependent-add chain)");
    let engines: Vec<gcmkit::Engine> = gcmkit::Engine::supported().collect();
    let sizes: Vec<usize> = if let Some(list) = env_list("GCMKIT_BENCH_SIZES") {
        list.iter().filter_map(|s| s.parse().ok()).collect()
    } else if quick {
        vec![16, 1500, 16384]
    } else {
        SIZES.to_vec()
    };
    // GCMKIT_BENCH_ONLY=AES-128-GCM,AES-128-CTR: just those rows (for iterating on a
    // kernel; the report is then partial, so write it somewhere else than docs/perf).
    let only = env_list("GCMKIT_BENCH_ONLY");

    let mut rows = Vec::new();
    for alg in Alg::ALL {
        if only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|n| n == alg.name()))
        {
            continue;
        }
        for op in [Op::Encrypt, Op::Decrypt] {
            if matches!(alg, Alg::Gmac | Alg::Ghash | Alg::Polyval | Alg::Ctr) && op == Op::Decrypt
            {
                continue;
            }
            for &size in &sizes {
                let mut cands = peers::candidates(*alg, op, size, &engines);
                let gbps = race(&mut cands, size);
                let results: Vec<(String, f64)> =
                    cands.iter().map(|c| c.name.clone()).zip(gbps).collect();
                eprintln!(
                    "{:<16} {:<7} {:>8} {}",
                    alg.name(),
                    op.name(),
                    size,
                    fmt_results(&results)
                );
                rows.push(Row {
                    alg: alg.name().into(),
                    op: op.name().into(),
                    size,
                    results,
                });
            }
        }
    }
    if only.is_some() {
        return;
    }
    let ipi = ipi_rows(&engines);
    let extra = incremental_gmac();
    let pairs = paired_ratios();
    report::write(&out_dir, ghz, &rows, &ipi, &pairs, &args.join(" "), &extra);
}

/// The targets that compare two of gcmkit's own rows (AES-GCM against AES-CTR,
/// AES-GCM-SIV against AES-GCM, GMAC against AES-GCM, POLYVAL against GHASH), each
/// measured as a pair in one race on the best engine at 16 KiB: rows are measured seconds
/// apart, and on this shared core whole rows move together, so a ratio of two rows can
/// swing where a ratio within one race does not. Returns (key, A rate / B rate).
pub fn paired_ratios() -> Vec<(&'static str, f64)> {
    let best = [gcmkit::Engine::best()];
    let pairs = [
        (
            "gcm/ctr",
            (Alg::Aes128Gcm, Op::Encrypt),
            (Alg::Ctr, Op::Encrypt),
        ),
        (
            "siv/gcm encrypt",
            (Alg::Aes128GcmSiv, Op::Encrypt),
            (Alg::Aes128Gcm, Op::Encrypt),
        ),
        (
            "siv/gcm decrypt",
            (Alg::Aes128GcmSiv, Op::Decrypt),
            (Alg::Aes128Gcm, Op::Decrypt),
        ),
        (
            "gmac/gcm",
            (Alg::Gmac, Op::Encrypt),
            (Alg::Aes128Gcm, Op::Encrypt),
        ),
        (
            "polyval/ghash",
            (Alg::Polyval, Op::Encrypt),
            (Alg::Ghash, Op::Encrypt),
        ),
    ];
    let size = 16384;
    pairs
        .iter()
        .map(|&(key, (aa, oa), (ab, ob))| {
            let mut cands: Vec<Candidate> = peers::candidates(aa, oa, size, &best)
                .into_iter()
                .chain(peers::candidates(ab, ob, size, &best))
                .filter(|c| c.name.starts_with("gcmkit"))
                .collect();
            let g = race(&mut cands, size);
            eprintln!("pair {key}: {:.2} / {:.2} GB/s", g[0], g[1]);
            (key, g[0] / g[1])
        })
        .collect()
}

fn fmt_results(r: &[(String, f64)]) -> String {
    r.iter()
        .map(|(n, g)| format!("{n}={g:.2}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Incremental GMAC: one 16-byte block replaced in a 1 MiB message, against recomputing
/// the tag of the whole message (best engine). Returns a markdown paragraph.
fn incremental_gmac() -> String {
    let key = [7u8; 16];
    let msg = vec![0x42u8; 1 << 20];
    let inc = gcmkit::IncrementalGmac::new(&key).unwrap();
    let tag = inc.compute(&[1; 12], &msg).unwrap();
    let time = |f: &mut dyn FnMut(), n: u32| {
        let mut best = f64::MAX;
        for _ in 0..REPS {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            best = best.min(t.elapsed().as_secs_f64() / n as f64);
        }
        best
    };
    let full = time(
        &mut || {
            std::hint::black_box(inc.compute(&[2; 12], &msg).unwrap());
        },
        20,
    );
    let upd = time(
        &mut || {
            std::hint::black_box(
                inc.replace(
                    &[1; 12],
                    &tag,
                    msg.len() as u64,
                    512 * 1024,
                    &[0x42; 16],
                    &[0x43; 16],
                    &[2; 12],
                )
                .unwrap(),
            );
        },
        20000,
    );
    let line = format!(
        "Incremental GMAC (engine {}): replacing one 16-byte block in a 1 MiB message and re-nonceing takes {:.0} ns; \
         recomputing the 1 MiB tag takes {:.1} us: **{:.0}x** faster (best of {} runs each).",
        gcmkit::Engine::best().name(), upd * 1e9, full * 1e6, full / upd, REPS
    );
    eprintln!("{line}");
    line
}

/// The Internet Performance Index's mix, defined once in `gcmkit::hazmat::measure`: one
/// packet per call, a new nonce each call.
pub const IPI_MIX: &[(usize, f64)] = &gcmkit::hazmat::measure::IPI_MIX;

fn ipi_rows(engines: &[gcmkit::Engine]) -> Vec<Row> {
    let mut rows = Vec::new();
    for alg in [Alg::Aes128Gcm, Alg::Aes256Gcm, Alg::Aes128GcmSiv, Alg::Gmac] {
        let mut per_size: Vec<Vec<(String, f64)>> = Vec::new();
        for &(size, _) in IPI_MIX {
            let mut cands = peers::candidates_fresh_nonce(alg, size, engines);
            let g = race(&mut cands, size);
            per_size.push(cands.iter().map(|c| c.name.clone()).zip(g).collect());
        }
        let names: Vec<String> = per_size[0].iter().map(|(n, _)| n.clone()).collect();
        let results = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let at = |size: usize| {
                    let j = IPI_MIX.iter().position(|&(s, _)| s == size).unwrap_or(0);
                    per_size[j][i].1
                };
                (n.clone(), gcmkit::hazmat::measure::ipi(at))
            })
            .collect::<Vec<_>>();
        eprintln!("IPI {:<12} {}", alg.name(), fmt_results(&results));
        rows.push(Row {
            alg: alg.name().into(),
            op: "encrypt".into(),
            size: 0,
            results,
        });
    }
    rows
}

mod report {
    use super::Row;
    use std::fmt::Write;

    fn is_gcmkit(n: &str) -> bool {
        n.starts_with("gcmkit")
    }

    /// A candidate's name and figure, if the row has one.
    type Named = Option<(String, f64)>;

    /// Best peer (non-gcmkit) and best gcmkit figure of a row.
    fn best(r: &Row) -> (Named, Named) {
        let pick = |own: bool| {
            r.results
                .iter()
                .filter(|(n, _)| is_gcmkit(n) == own)
                .max_by(|a, b| a.1.partial_cmp(&b.1).unwrap())
                .cloned()
        };
        (pick(true), pick(false))
    }

    pub fn write(
        dir: &str,
        ghz: f64,
        rows: &[Row],
        ipi: &[Row],
        pairs: &[(&str, f64)],
        cmd: &str,
        extra: &str,
    ) {
        std::fs::create_dir_all(dir).unwrap();
        let json = serde_json::json!({
            "clock_ghz": ghz,
            "command": cmd,
            "rows": rows.iter().chain(ipi.iter()).map(|r| serde_json::json!({
                "alg": r.alg, "op": r.op, "size": r.size, "ipi": r.size == 0,
                "gbps": r.results.iter().map(|(n, g)| (n.clone(), serde_json::json!(g))).collect::<serde_json::Map<_, _>>(),
            })).collect::<Vec<_>>(),
        });
        std::fs::write(
            format!("{dir}/engines.json"),
            serde_json::to_string_pretty(&json).unwrap(),
        )
        .unwrap();

        let mut md = String::new();
        let _ = writeln!(md, "# gcmkit engines beside their peers\n");
        let _ = writeln!(
            md,
            "Generated by `make bench` (`{cmd}`); do not edit by hand.\n"
        );
        let _ = writeln!(md, "{}\n", super::clock::machine_line(ghz));
        let _ = writeln!(md, "Throughput in GB/s (10^9 bytes/s), the fastest of {} round-robin samples of about {} ms per cell \
            (this VM shares its core with other tenants; the least-disturbed sample repeats within a few per cent, medians did not); \
            cycles/byte = clock / throughput. **ratio** = best gcmkit engine / best peer in the same row. \
            Decryption includes copying the ciphertext into the work buffer, for every implementation.\n", super::SAMPLES, super::SAMPLE_MS);
        for (alg, op) in rows
            .iter()
            .map(|r| (r.alg.clone(), r.op.clone()))
            .collect::<std::collections::BTreeSet<_>>()
        {
            let sel: Vec<&Row> = rows.iter().filter(|r| r.alg == alg && r.op == op).collect();
            let names: Vec<String> = sel[0].results.iter().map(|(n, _)| n.clone()).collect();
            let _ = writeln!(md, "## {alg} {op}\n");
            let _ = writeln!(
                md,
                "| bytes | {} | best gcmkit c/B | ratio vs best peer |",
                names.join(" | ")
            );
            let _ = writeln!(md, "|---:|{}---:|---:|", "---:|".repeat(names.len()));
            for r in sel {
                let (own, peer) = best(r);
                let cells: Vec<String> = r.results.iter().map(|(_, g)| format!("{g:.2}")).collect();
                let cpb = own
                    .as_ref()
                    .map(|o| format!("{:.3}", ghz / o.1))
                    .unwrap_or_default();
                let ratio = match (own, peer) {
                    (Some(o), Some(p)) => format!("**{:.2}x** ({})", o.1 / p.1, p.0),
                    _ => "-".into(),
                };
                let _ = writeln!(
                    md,
                    "| {} | {} | {cpb} | {ratio} |",
                    size_name(r.size),
                    cells.join(" | ")
                );
            }
            md.push('\n');
        }
        let _ = writeln!(md, "## Internet Performance Index (encrypt, Gbit/s)\n");
        let _ = writeln!(md, "IPI = 1 / sum f(s)/T(s) over 1500 B (60 %), 576 B (20 %), 552 B (15 %), 44 B (5 %), a new nonce per packet; bits/cycle = Gbit/s / clock.\n");
        for r in ipi {
            let (own, peer) = best(r);
            let cells: Vec<String> = r
                .results
                .iter()
                .map(|(n, g)| format!("{n} {:.1} ({:.2} bit/c)", g * 8.0, g * 8.0 / ghz))
                .collect();
            let ratio = match (own, peer) {
                (Some(o), Some(p)) => format!("ratio **{:.2}x** vs {}", o.1 / p.1, p.0),
                _ => String::new(),
            };
            let _ = writeln!(md, "- **{}**: {}; {ratio}", r.alg, cells.join(", "));
        }
        let _ = writeln!(md, "\n## Incremental GMAC\n\n{extra}");
        targets(&mut md, rows, ipi, pairs);
        if let Ok(notes) =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/engines-notes.md"))
        {
            let _ = writeln!(md, "\n{notes}");
        }
        std::fs::write(format!("{dir}/engines.md"), md).unwrap();
        eprintln!("wrote {dir}/engines.md and engines.json");
    }

    fn get(rows: &[Row], alg: &str, op: &str, size: usize, who: &str) -> Option<f64> {
        rows.iter()
            .find(|r| r.alg == alg && r.op == op && r.size == size)
            .and_then(|r| {
                if who == "gcmkit" {
                    best(r).0.map(|x| x.1)
                } else if who == "peer" {
                    best(r).1.map(|x| x.1)
                } else {
                    r.results.iter().find(|(n, _)| n == who).map(|x| x.1)
                }
            })
    }

    /// Issue 3's targets, evaluated on this run.
    fn targets(md: &mut String, rows: &[Row], ipi: &[Row], pairs: &[(&str, f64)]) {
        let mut t: Vec<(String, f64, f64)> = Vec::new();
        let pair = |k: &str| pairs.iter().find(|p| p.0 == k).map_or(f64::NAN, |p| p.1);
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) if b > 0.0 => a / b,
            _ => f64::NAN,
        };
        for alg in ["AES-128-GCM", "AES-256-GCM"] {
            for op in ["encrypt", "decrypt"] {
                for (size, goal) in [
                    (16384, 1.15),
                    (1 << 20, 1.15),
                    (576, 1.10),
                    (1500, 1.10),
                    (16, 1.25),
                    (64, 1.25),
                ] {
                    let r = ratio(
                        get(rows, alg, op, size, "gcmkit"),
                        get(rows, alg, op, size, "peer"),
                    );
                    t.push((
                        format!("{alg} {op} {} B: best gcmkit / best peer", size),
                        r,
                        goal,
                    ));
                }
            }
            if let Some(r) = ipi.iter().find(|r| r.alg == alg) {
                let (o, p) = best(r);
                t.push((
                    format!("{alg} IPI: best gcmkit / best peer"),
                    ratio(o.map(|x| x.1), p.map(|x| x.1)),
                    1.10,
                ));
            }
        }
        t.push((
            "AVX2 engine / ring, AES-128-GCM encrypt 16 KiB".into(),
            ratio(
                get(rows, "AES-128-GCM", "encrypt", 16384, "gcmkit-avx2"),
                get(rows, "AES-128-GCM", "encrypt", 16384, "ring"),
            ),
            1.0,
        ));
        t.push((
            "AES-NI engine / RustCrypto, AES-128-GCM encrypt 16 KiB".into(),
            ratio(
                get(rows, "AES-128-GCM", "encrypt", 16384, "gcmkit-aesni"),
                get(rows, "AES-128-GCM", "encrypt", 16384, "rustcrypto"),
            ),
            2.0,
        ));
        t.push((
            "AES-128-GCM encrypt / gcmkit AES-CTR rate, 16 KiB (paired)".into(),
            pair("gcm/ctr"),
            0.85,
        ));
        t.push((
            "AES-128-GCM-SIV encrypt / AWS-LC, 16 KiB".into(),
            ratio(
                get(rows, "AES-128-GCM-SIV", "encrypt", 16384, "gcmkit"),
                get(rows, "AES-128-GCM-SIV", "encrypt", 16384, "aws-lc-rs"),
            ),
            2.5,
        ));
        // Time ratios, inverted so that "higher is better" holds for every row.
        t.push((
            "1.5 x GCM encrypt time / SIV encrypt time, 16 KiB (SIV within 1.5x; paired)".into(),
            1.5 * pair("siv/gcm encrypt"),
            1.0,
        ));
        t.push((
            "1.1 x GCM decrypt time / SIV decrypt time, 16 KiB (SIV within 1.1x; paired)".into(),
            1.1 * pair("siv/gcm decrypt"),
            1.0,
        ));
        t.push((
            "GMAC / AES-128-GCM encrypt rate, 16 KiB (paired)".into(),
            pair("gmac/gcm"),
            2.5,
        ));
        t.push((
            "POLYVAL / GHASH rate, 16 KiB (paired)".into(),
            pair("polyval/ghash"),
            1.0,
        ));
        let _ = writeln!(md, "\n## Targets of the engines issue, on this run\n");
        let _ = writeln!(
            md,
            "Rows marked *paired* compare two of gcmkit's own operations measured together in one \
             race (16 KiB, best engine), not two rows measured seconds apart.\n"
        );
        let _ = writeln!(md, "| target | measured | goal | |\n|---|---:|---:|---|");
        let met = t.iter().filter(|x| x.1 >= x.2).count();
        for (name, r, goal) in &t {
            let _ = writeln!(
                md,
                "| {name} | {r:.2} | >= {goal:.2} | {} |",
                if r >= goal { "met" } else { "**missed**" }
            );
        }
        let _ = writeln!(md, "\n{met} of {} targets met in this run.", t.len());
    }

    pub fn size_name(n: usize) -> String {
        if n >= 1 << 20 {
            format!("{} MiB", n >> 20)
        } else {
            n.to_string()
        }
    }
}

/// `gcmkit-bench focus ALG OP SIZE...`: a quick A/B for kernel work. Every candidate but
/// the portable engine, many short samples round-robin, the *fastest* sample of each
/// (on this shared VM a neighbour can halve any one sample; the minimum time is the
/// least disturbed). Prints GB/s and the ratio to the best peer. Not used for reports.
fn focus(args: &[String]) {
    let alg = Alg::ALL
        .iter()
        .copied()
        .find(|a| Some(a.name()) == args.first().map(String::as_str))
        .expect("ALG: one of the row names, e.g. AES-128-GCM");
    let op = match args.get(1).map(String::as_str) {
        Some("decrypt") => Op::Decrypt,
        _ => Op::Encrypt,
    };
    let engines: Vec<gcmkit::Engine> = gcmkit::Engine::supported()
        .filter(|e| e.name() != "portable")
        .collect();
    for size in args[2..].iter().filter_map(|s| s.parse::<usize>().ok()) {
        let mut cands = peers::candidates(alg, op, size, &engines);
        let best = race_with(&mut cands, size, 300, 0.3);
        let peer = cands
            .iter()
            .zip(&best)
            .filter(|(c, _)| !c.name.starts_with("gcmkit"))
            .map(|(_, g)| *g)
            .fold(0.0, f64::max);
        let line: Vec<String> = cands
            .iter()
            .zip(&best)
            .map(|(c, g)| format!("{}={:.2}({:.2}x)", c.name, g, g / peer))
            .collect();
        println!("{} {} {}: {}", alg.name(), op.name(), size, line.join(" "));
    }
}
