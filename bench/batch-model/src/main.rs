//! `make bench-batch-model`: times the hand-written variants of gcmkit's avx2 stitched
//! AES-128-GCM batch that `gen.py` writes into `src/batch.s` (see its docstring), in
//! cycles per batch (256 bytes) and c/B with the clock measured by a dependent-add chain.
//! The fastest of 1 000 samples of each variant, the variants taken round-robin (the VM
//! shares its core with other tenants). Needs AVX2, VAES and VPCLMULQDQ.

#[cfg(target_arch = "x86_64")]
mod model {
    use std::time::Instant;

    core::arch::global_asm!(include_str!("batch.s"));
    include!("variants.rs");

    /// The clock in GHz: one add per cycle in a dependent chain, the fastest of 200 samples.
    fn ghz() -> f64 {
        let mut best = f64::MAX;
        for _ in 0..200 {
            let n = 100_000u64;
            let t = Instant::now();
            // SAFETY: register-only arithmetic on the two operands named.
            unsafe {
                core::arch::asm!("2:", ".rept 10", "add {x}, 1", ".endr", "dec {n}", "jnz 2b",
                    n = inout(reg) n => _, x = inout(reg) 0u64 => _, options(nomem, nostack));
            }
            best = best.min(t.elapsed().as_secs_f64() / (n as f64 * 10.0));
        }
        1.0 / best / 1e9
    }

    pub fn run() {
        let vaes = std::arch::is_x86_feature_detected!("vaes")
            && std::arch::is_x86_feature_detected!("vpclmulqdq")
            && std::arch::is_x86_feature_detected!("avx2");
        if !vaes {
            println!("batch-model: needs AVX2, VAES and VPCLMULQDQ");
            return;
        }
        let src = vec![0u8; 8192];
        let mut dst = vec![0u8; 4096];
        let g = ghz();
        let mut best = vec![f64::MAX; VARIANTS.len()];
        for _ in 0..1000 {
            for (b, (_, _, f)) in best.iter_mut().zip(VARIANTS) {
                let n = 500u64;
                let t = Instant::now();
                // SAFETY: the CPU has AVX2, VAES and VPCLMULQDQ (checked above); each variant
                // reads `src` below offset 4 864 and writes `dst` below 256 (both longer) and
                // clobbers only caller-saved vector registers and its counter.
                unsafe { f(n, src.as_ptr(), dst.as_mut_ptr()) };
                *b = b.min(t.elapsed().as_secs_f64() / n as f64);
            }
        }
        println!("clock {g:.2} GHz (dependent-add chain)");
        println!("{:<18} {:>14} {:>8}", "variant", "cycles/batch", "c/B");
        for ((name, batches, _), b) in VARIANTS.iter().zip(&best) {
            let c = b * g * 1e9 / f64::from(*batches);
            println!("{name:<18} {c:>14.1} {:>8.3}", c / 256.0);
        }
    }
}

fn main() {
    #[cfg(target_arch = "x86_64")]
    model::run();
    #[cfg(not(target_arch = "x86_64"))]
    println!("batch-model: x86_64 only");
}
