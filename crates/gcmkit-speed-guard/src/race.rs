//! One race: gcmkit's call against a peer's, as a ratio of their throughputs.

use std::time::Instant;

/// Samples per side. Each is short (about a quarter of a millisecond of work at 1 GB/s),
/// so that many of them miss a neighbour's burst on a shared machine; the fastest of each
/// side is kept.
const SAMPLES: usize = 41;

/// The peer's fastest sample over gcmkit's, for `calls` calls per sample, the two sides
/// sampled in turn (the order alternating). gcmkit's side makes each call `slowdown`
/// times (`GCMKIT_SPEED_GUARD_SLOWDOWN`: the guard's own demonstration that a gcmkit twice
/// as slow fails it; 1 otherwise).
pub fn race(
    calls: usize,
    slowdown: usize,
    mut gcmkit: impl FnMut(),
    mut peer: impl FnMut(),
) -> f64 {
    // Warm-up: caches, branch predictors, the allocator, the clock.
    sample(&mut gcmkit, calls);
    sample(&mut peer, calls);
    let (mut g, mut p) = (f64::INFINITY, f64::INFINITY);
    for i in 0..SAMPLES {
        if i % 2 == 0 {
            g = g.min(sample(&mut gcmkit, calls * slowdown));
            p = p.min(sample(&mut peer, calls));
        } else {
            p = p.min(sample(&mut peer, calls));
            g = g.min(sample(&mut gcmkit, calls * slowdown));
        }
    }
    p / g
}

/// The time of `n` calls of `f`, in seconds.
fn sample(f: &mut dyn FnMut(), n: usize) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed().as_secs_f64()
}

/// Calls per sample: about 256 KiB of data, a quarter of a millisecond at 1 GB/s.
pub fn calls(size: usize) -> usize {
    (256 * 1024 / size).max(8)
}
