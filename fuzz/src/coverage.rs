//! Which engine x algorithm pairs `decrypt_anything` reached: a target that pins an
//! algorithm to an engine (once both came from one input byte, so AES-GCM ran only on the
//! portable engine) fuzzes no code on the others, and nothing else would notice. The
//! target counts each pair it ran with a valid key; the smoke runner fails when a pair
//! this CPU has was never reached.

use gcmkit::Engine;
use std::sync::atomic::{AtomicU64, Ordering};

/// The algorithms of `decrypt_anything`, in the order of its algorithm byte.
pub const ALGORITHMS: [&str; 6] = [
    "AES-GCM",
    "AES-GCM-SIV",
    "GCM-SIV (2015)",
    "GMAC",
    "on-line AES-GCM",
    "GCM-64 (TDEA)",
];

/// The one algorithm that uses no AES engine (TDEA and a 64-bit GHASH in plain Rust): it
/// is counted once, not per engine, so the table claims no engine pair it did not run.
pub const ENGINE_FREE: usize = 5;

/// Room for every engine of any architecture (`Engine::ALL` has at most five).
const SLOTS: usize = 8;

static HITS: [[AtomicU64; SLOTS]; ALGORITHMS.len()] =
    [const { [const { AtomicU64::new(0) }; SLOTS] }; ALGORITHMS.len()];

fn slot(engine: Engine) -> usize {
    Engine::ALL
        .iter()
        .position(|&e| e == engine)
        .expect("every engine is in Engine::ALL")
}

/// Records that algorithm `alg` ran on `engine` (`None` for the engine-free algorithm).
pub(crate) fn reached(alg: usize, engine: Option<Engine>) {
    let s = engine.map_or(0, slot);
    HITS[alg][s].fetch_add(1, Ordering::Relaxed);
}

/// How many inputs ran algorithm `alg` on `engine` (`None` for the engine-free one).
pub fn count(alg: usize, engine: Option<Engine>) -> u64 {
    HITS[alg][engine.map_or(0, slot)].load(Ordering::Relaxed)
}

/// Every (algorithm, engine) pair that should have been reached on these engines, with
/// its count: one row per engine for the AES algorithms, one row for GCM-64.
pub fn pairs(engines: &[Engine]) -> Vec<(&'static str, Option<Engine>, u64)> {
    let mut v = Vec::new();
    for (alg, name) in ALGORITHMS.iter().enumerate() {
        if alg == ENGINE_FREE {
            v.push((*name, None, count(alg, None)));
        } else {
            for &e in engines {
                v.push((*name, Some(e), count(alg, Some(e))));
            }
        }
    }
    v
}
