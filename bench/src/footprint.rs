//! `gcmkit-bench footprint ALG OP SIZE ENGINE`: the calls whose code and data lines
//! `bench/footprint.py` counts under Valgrind's lackey (a cold call's cost is the lines it
//! must bring in: this counts them exactly, where `cold` times them on a noisy shared
//! core). Every candidate of the row (gcmkit on ENGINE, the peers on what they select
//! under Valgrind's CPU) is warmed, then called `CALLS` times, each call between
//! [`gcmkit_footprint_begin`] and [`gcmkit_footprint_end`], whose run-time addresses it
//! prints first (`markers BEGIN END`, hex) for the script.

use crate::peers::{self, Alg, Op};
use gcmkit::Engine;

const CALLS: usize = 3;

/// Marks the start of a traced call: the candidate's index in the instruction trace.
#[inline(never)]
#[no_mangle]
pub extern "C" fn gcmkit_footprint_begin(candidate: usize) {
    std::hint::black_box(candidate);
}

/// Marks the end of a traced call.
#[inline(never)]
#[no_mangle]
pub extern "C" fn gcmkit_footprint_end(candidate: usize) {
    // Not the same body as `begin` (the linker would fold the two into one address).
    std::hint::black_box(!candidate);
}

pub fn run(args: &[String]) {
    let usage = "footprint ALG OP SIZE ENGINE (e.g. AES-128-GCM encrypt 576 aesni)";
    let alg = Alg::ALL
        .iter()
        .copied()
        .find(|a| Some(a.name()) == args.first().map(String::as_str))
        .expect(usage);
    let op = match args.get(1).map(String::as_str) {
        Some("decrypt") => Op::Decrypt,
        _ => Op::Encrypt,
    };
    let size: usize = args.get(2).and_then(|s| s.parse().ok()).expect(usage);
    let engine = Engine::from_name(args.get(3).map(String::as_str).unwrap_or("aesni"))
        .expect("an engine name");
    println!(
        "markers {:x} {:x}",
        gcmkit_footprint_begin as *const () as usize, gcmkit_footprint_end as *const () as usize
    );
    let mut cands = peers::candidates(alg, op, size, &[engine]);
    for (i, c) in cands.iter_mut().enumerate() {
        println!("candidate {i} {}", c.name);
        (c.run)();
    }
    for _ in 0..CALLS {
        for (i, c) in cands.iter_mut().enumerate() {
            gcmkit_footprint_begin(i);
            (c.run)();
            gcmkit_footprint_end(i);
        }
    }
}
