//! `gcmkit-bench cold`: single calls with the cipher out of the caches, as a server sees
//! them between records of many connections. Before each timed call the bench runs
//! 4 MiB of code (a run of 15-byte NOPs in an executable mapping, ending in `ret`) and
//! reads and writes 4 MiB of data, so that L1i, the op cache, L1d and L2 no longer hold
//! the cipher's code, tables or keys (L3 may). Each figure is the median of `CALLS`
//! single calls, ns, with the timer's own cost (the median of empty timings) subtracted.
//! Every candidate of a row is timed in turn, call by call, so a slow period hits all;
//! the whole table is measured `ROUNDS` times and each cell keeps its lowest median (on
//! this shared VM one round's medians moved by up to 2x). Beside gcmkit's ratio to the
//! faster peer the report gives that ratio's range over the rounds: the spread a verdict
//! on one cell must stand above. Writes `cold-<cpu>.md`.
//!
//! For iterating on a kernel (the report is then partial: write it elsewhere than
//! docs/perf): `GCMKIT_BENCH_ONLY=AES-128-GCM,...` (algorithms), `GCMKIT_BENCH_SIZES=64,576`
//! (bytes), `GCMKIT_BENCH_OPS=encrypt` or `decrypt`, `GCMKIT_COLD_ROUNDS=n`,
//! `GCMKIT_COLD_EVICT=code` or `data` (evict only that).

use crate::peers::{self, Alg, Op};
use gcmkit::Engine;
use std::time::Instant;

const SIZES: &[usize] = &[16, 64, 576, 1500, 16384];
const CALLS: usize = 1501;
const EVICT: usize = 4 << 20;
const ROUNDS: usize = 3;

/// A table row: algorithm, direction, size, the candidates' names, their lowest medians
/// and each round's gcmkit over the faster peer.
type Row = (Alg, Op, usize, Vec<String>, Vec<f64>, Vec<f64>);

/// 4 MiB of NOPs ending in `ret`, executable: calling it walks that much code.
struct CodeWalk {
    ptr: *mut u8,
    run: extern "C" fn(),
}

impl CodeWalk {
    fn new() -> Self {
        // SAFETY: an anonymous private mapping of EVICT bytes, written before it is made
        // executable; the function pointer is taken to its start, which holds only NOPs
        // and a final `ret` (a valid x86-64 function taking and returning nothing).
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                EVICT,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert!(p != libc::MAP_FAILED, "mmap for the code walk");
            let p = p as *mut u8;
            const NOP15: [u8; 15] = [
                0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0,
            ];
            let n = (EVICT - 1) / 15;
            for i in 0..n {
                std::ptr::copy_nonoverlapping(NOP15.as_ptr(), p.add(15 * i), 15);
            }
            for i in 15 * n..EVICT - 1 {
                *p.add(i) = 0x90;
            }
            *p.add(EVICT - 1) = 0xc3;
            assert_eq!(
                libc::mprotect(p.cast(), EVICT, libc::PROT_READ | libc::PROT_EXEC),
                0
            );
            CodeWalk {
                ptr: p,
                run: std::mem::transmute::<*mut u8, extern "C" fn()>(p),
            }
        }
    }
}

impl Drop for CodeWalk {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once.
        unsafe { libc::munmap(self.ptr.cast(), EVICT) };
    }
}

/// Runs the code walk (if any) and reads and writes every line of `data` (empty: none).
fn evict(code: Option<&CodeWalk>, data: &mut [u8], round: u8) {
    #[cfg(target_arch = "x86_64")]
    if let Some(code) = code {
        (code.run)();
    }
    let mut acc = 0u8;
    for line in data.chunks_mut(64) {
        acc ^= line[0];
        line[0] = round;
    }
    std::hint::black_box(acc);
}

/// gcmkit's time over the faster of ring and aws-lc-rs, from the candidates' `times`.
fn over_best_peer(names: &[String], times: &[f64]) -> f64 {
    let of = |pred: &dyn Fn(&str) -> bool| {
        names
            .iter()
            .zip(times)
            .filter(|(n, _)| pred(n))
            .map(|(_, m)| *m)
            .fold(f64::INFINITY, f64::min)
    };
    of(&|n| n.starts_with("gcmkit")) / of(&|n| n == "ring" || n == "aws-lc-rs")
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

pub fn run(out_dir: &str, ghz: f64) {
    // `GCMKIT_COLD_EVICT=code` or `data` evicts only that one, to tell their costs apart.
    let only = std::env::var("GCMKIT_COLD_EVICT").unwrap_or_default();
    let walk = CodeWalk::new();
    let code = (only != "data").then_some(&walk);
    let mut data = vec![0u8; if only == "code" { 0 } else { EVICT }];
    // The timer's own cost: empty timings, cold like the others.
    let mut empty = Vec::with_capacity(CALLS);
    for i in 0..CALLS {
        evict(code, &mut data, i as u8);
        let t = Instant::now();
        std::hint::black_box(());
        empty.push(t.elapsed().as_nanos() as f64);
    }
    let timer = median(&mut empty);
    let engine = Engine::best();
    let only = crate::env_list("GCMKIT_BENCH_ONLY");
    let ops = crate::env_list("GCMKIT_BENCH_OPS");
    let sizes: Vec<usize> = match crate::env_list("GCMKIT_BENCH_SIZES") {
        Some(l) => l.iter().filter_map(|s| s.parse().ok()).collect(),
        None => SIZES.to_vec(),
    };
    let rounds = std::env::var("GCMKIT_COLD_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(ROUNDS);
    let algs: Vec<Alg> = [
        Alg::Aes128Gcm,
        Alg::Aes256Gcm,
        Alg::Aes128GcmSiv,
        Alg::Aes256GcmSiv,
    ]
    .into_iter()
    .filter(|a| {
        only.as_ref()
            .is_none_or(|o| o.iter().any(|n| n == a.name()))
    })
    .collect();
    let ops: Vec<Op> = [Op::Encrypt, Op::Decrypt]
        .into_iter()
        .filter(|o| ops.as_ref().is_none_or(|l| l.iter().any(|n| n == o.name())))
        .collect();
    let mut md = String::from("# Cold single calls\n\n");
    md.push_str(&format!(
        "{}\n\nCommand: `make bench-cold` (`cd bench && cargo run --release -- cold ../docs/perf`). \
         Before each timed call: 4 MiB of code run (NOPs) and 4 MiB of data read and written, so \
         that L1i, the op cache, L1d and L2 no longer hold the cipher. Median of {CALLS} single \
         calls per cell, ns, the lowest of {rounds} rounds, the timer's own median ({timer:.0} ns) subtracted; the candidates of a \
         row alternate call by call. gcmkit on the engine it selects here ({}); 12-byte nonce, no \
         AAD, in place. Last columns: gcmkit's time over the faster of ring and aws-lc-rs, \
         from the table's medians, then the same ratio in each round, lowest-highest (the \
         spread of the measurement: on a shared VM a cell of the same code moves by 10-30 % \
         between rounds).\n\n",
        crate::clock::machine_line(ghz),
        engine.name()
    ));
    let mut rows: Vec<Row> = Vec::new();
    for round in 0..rounds {
        let mut i_row = 0;
        for &alg in &algs {
            for &op in &ops {
                for &size in &sizes {
                    let mut cands = peers::candidates(alg, op, size, &[engine]);
                    // Warm once (first-touch page faults, lazy set-up), then cold calls.
                    for c in cands.iter_mut() {
                        (c.run)();
                    }
                    let mut times = vec![Vec::with_capacity(CALLS); cands.len()];
                    for i in 0..CALLS {
                        for (c, t) in cands.iter_mut().zip(times.iter_mut()) {
                            evict(code, &mut data, i as u8);
                            let start = Instant::now();
                            (c.run)();
                            t.push((start.elapsed().as_nanos() as f64 - timer).max(0.0));
                        }
                    }
                    let med: Vec<f64> = times.iter_mut().map(|t| median(t)).collect();
                    let cells: Vec<String> = cands
                        .iter()
                        .zip(&med)
                        .map(|(c, m)| format!("{}={m:.0}", c.name))
                        .collect();
                    eprintln!(
                        "round {} {} {} {size}: {}",
                        round + 1,
                        alg.name(),
                        op.name(),
                        cells.join(" ")
                    );
                    let names: Vec<String> = cands.iter().map(|c| c.name.clone()).collect();
                    let ratio = over_best_peer(&names, &med);
                    if round == 0 {
                        rows.push((alg, op, size, names, med, vec![ratio]));
                    } else {
                        let row = &mut rows[i_row];
                        for (b, m) in row.4.iter_mut().zip(&med) {
                            *b = b.min(*m);
                        }
                        row.5.push(ratio);
                    }
                    i_row += 1;
                }
            }
        }
    }
    let mut last: Option<(Alg, Op)> = None;
    for (alg, op, size, names, med, ratios) in &rows {
        if last != Some((*alg, *op)) {
            md.push_str(&format!("\n## {} {}\n\n| size |", alg.name(), op.name()));
            for n in names {
                md.push_str(&format!(" {n} |"));
            }
            md.push_str(" gcmkit / best peer | each round's |\n|---|");
            for _ in 0..names.len() + 2 {
                md.push_str("---|");
            }
            md.push('\n');
            last = Some((*alg, *op));
        }
        md.push_str(&format!("| {size} B |"));
        for m in med {
            md.push_str(&format!(" {m:.0} |"));
        }
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(0.0, f64::max);
        md.push_str(&format!(
            " {:.2} | {lo:.2}-{hi:.2} |\n",
            over_best_peer(names, med)
        ));
    }
    let path = format!("{out_dir}/cold-{}.md", crate::clock::cpu_tag());
    std::fs::write(&path, md).expect("write the cold report");
    eprintln!("wrote {path}");
}
