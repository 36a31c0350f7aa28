//! `gcmkit-bench ports`: which execution ports the AES-GCM instruction mix competes for,
//! measured (this VM has no performance counters to ask). Each row times a loop of
//! independent 512-bit instructions and reports cycles per loop iteration in units of
//! one `vaesenc zmm` (the first row; its reciprocal throughput is one per cycle on
//! Sapphire Rapids), so clock drift cancels. If two instruction kinds share a port,
//! their mix costs the sum; if not, the maximum.
//!
//! Registers only: no memory is touched.

use std::time::Instant;

/// Times `$body` (one loop iteration) over many iterations; the fastest of 200 runs.
macro_rules! time_loop {
    ($body:literal) => {{
        let mut best = f64::MAX;
        for _ in 0..200 {
            let n = 20_000u64;
            let t = Instant::now();
            // SAFETY: the asm reads and writes only the vector registers declared as
            // clobbered and the loop counter; no memory, no stack.
            unsafe {
                core::arch::asm!(
                    "2:",
                    $body,
                    "dec {n}",
                    "jnz 2b",
                    n = inout(reg) n => _,
                    out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                    out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                    out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
                    out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm15") _,
                    out("zmm16") _, out("zmm17") _, out("zmm18") _, out("zmm19") _,
                    options(nomem, nostack),
                );
            }
            best = best.min(t.elapsed().as_secs_f64() / n as f64);
        }
        best
    }};
}

const AES8: &str = "8 vaesenc zmm";

/// Seconds per loop iteration of the probe's rows that the cycles report's floor model
/// needs: 8 of each kind alone, and the mixes that tell which kinds share a port.
pub struct Probe {
    pub aes: f64,
    pub clmul: f64,
    pub shuffle: f64,
    pub xor: f64,
    pub aes_clmul: f64,
    pub clmul_shuffle: f64,
    pub aes_xor_clmul: f64,
}

/// The probe's rows, or `None` without AVX-512, VAES and VPCLMULQDQ.
pub fn probe() -> Option<Probe> {
    let r = rows()?;
    Some(Probe {
        aes: r[0].1,
        clmul: r[1].1,
        shuffle: r[2].1,
        xor: r[3].1,
        aes_clmul: r[4].1,
        clmul_shuffle: r[6].1,
        aes_xor_clmul: r[7].1,
    })
}

pub fn run() {
    let Some(rows) = rows() else {
        println!("ports: needs AVX-512 with VAES and VPCLMULQDQ");
        return;
    };
    let unit = rows[0].1 / 8.0;
    println!("{:<44} {:>12}", "loop body", "AES-op units");
    for (name, t) in &rows {
        println!("{name:<44} {:>12.2}", t / unit);
    }
}

/// Every row of the probe: (loop body, seconds per iteration).
fn rows() -> Option<Vec<(&'static str, f64)>> {
    if !(std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("vaes")
        && std::arch::is_x86_feature_detected!("vpclmulqdq"))
    {
        return None;
    }
    Some(vec![
        (AES8, time_loop!("vaesenc zmm0, zmm0, zmm15\nvaesenc zmm1, zmm1, zmm15\nvaesenc zmm2, zmm2, zmm15\nvaesenc zmm3, zmm3, zmm15\nvaesenc zmm4, zmm4, zmm15\nvaesenc zmm5, zmm5, zmm15\nvaesenc zmm6, zmm6, zmm15\nvaesenc zmm7, zmm7, zmm15")),
        ("8 vpclmulqdq zmm", time_loop!("vpclmulqdq zmm0, zmm8, zmm15, 0\nvpclmulqdq zmm1, zmm8, zmm15, 0\nvpclmulqdq zmm2, zmm8, zmm15, 0\nvpclmulqdq zmm3, zmm8, zmm15, 0\nvpclmulqdq zmm4, zmm8, zmm15, 0\nvpclmulqdq zmm5, zmm8, zmm15, 0\nvpclmulqdq zmm6, zmm8, zmm15, 0\nvpclmulqdq zmm7, zmm8, zmm15, 0")),
        ("8 vpshufb zmm", time_loop!("vpshufb zmm0, zmm8, zmm15\nvpshufb zmm1, zmm8, zmm15\nvpshufb zmm2, zmm8, zmm15\nvpshufb zmm3, zmm8, zmm15\nvpshufb zmm4, zmm8, zmm15\nvpshufb zmm5, zmm8, zmm15\nvpshufb zmm6, zmm8, zmm15\nvpshufb zmm7, zmm8, zmm15")),
        ("8 vpxorq zmm", time_loop!("vpxorq zmm0, zmm8, zmm15\nvpxorq zmm1, zmm8, zmm15\nvpxorq zmm2, zmm8, zmm15\nvpxorq zmm3, zmm8, zmm15\nvpxorq zmm4, zmm8, zmm15\nvpxorq zmm5, zmm8, zmm15\nvpxorq zmm6, zmm8, zmm15\nvpxorq zmm7, zmm8, zmm15")),
        ("8 vaesenc + 8 vpclmulqdq zmm", time_loop!("vaesenc zmm0, zmm0, zmm15\nvpclmulqdq zmm8, zmm16, zmm15, 0\nvaesenc zmm1, zmm1, zmm15\nvpclmulqdq zmm9, zmm16, zmm15, 0\nvaesenc zmm2, zmm2, zmm15\nvpclmulqdq zmm10, zmm16, zmm15, 0\nvaesenc zmm3, zmm3, zmm15\nvpclmulqdq zmm11, zmm16, zmm15, 0\nvaesenc zmm4, zmm4, zmm15\nvpclmulqdq zmm12, zmm16, zmm15, 0\nvaesenc zmm5, zmm5, zmm15\nvpclmulqdq zmm13, zmm16, zmm15, 0\nvaesenc zmm6, zmm6, zmm15\nvpclmulqdq zmm14, zmm16, zmm15, 0\nvaesenc zmm7, zmm7, zmm15\nvpclmulqdq zmm17, zmm16, zmm15, 0")),
        ("8 vaesenc + 8 vpxorq zmm", time_loop!("vaesenc zmm0, zmm0, zmm15\nvpxorq zmm8, zmm16, zmm15\nvaesenc zmm1, zmm1, zmm15\nvpxorq zmm9, zmm16, zmm15\nvaesenc zmm2, zmm2, zmm15\nvpxorq zmm10, zmm16, zmm15\nvaesenc zmm3, zmm3, zmm15\nvpxorq zmm11, zmm16, zmm15\nvaesenc zmm4, zmm4, zmm15\nvpxorq zmm12, zmm16, zmm15\nvaesenc zmm5, zmm5, zmm15\nvpxorq zmm13, zmm16, zmm15\nvaesenc zmm6, zmm6, zmm15\nvpxorq zmm14, zmm16, zmm15\nvaesenc zmm7, zmm7, zmm15\nvpxorq zmm17, zmm16, zmm15")),
        ("8 vpclmulqdq + 8 vpshufb zmm", time_loop!("vpclmulqdq zmm0, zmm16, zmm15, 0\nvpshufb zmm8, zmm16, zmm15\nvpclmulqdq zmm1, zmm16, zmm15, 0\nvpshufb zmm9, zmm16, zmm15\nvpclmulqdq zmm2, zmm16, zmm15, 0\nvpshufb zmm10, zmm16, zmm15\nvpclmulqdq zmm3, zmm16, zmm15, 0\nvpshufb zmm11, zmm16, zmm15\nvpclmulqdq zmm4, zmm16, zmm15, 0\nvpshufb zmm12, zmm16, zmm15\nvpclmulqdq zmm5, zmm16, zmm15, 0\nvpshufb zmm13, zmm16, zmm15\nvpclmulqdq zmm6, zmm16, zmm15, 0\nvpshufb zmm14, zmm16, zmm15\nvpclmulqdq zmm7, zmm16, zmm15, 0\nvpshufb zmm17, zmm16, zmm15")),
        ("8 vaesenc + 8 vpxorq + 8 vpclmulqdq zmm", time_loop!("vaesenc zmm0, zmm0, zmm15\nvpxorq zmm8, zmm16, zmm15\nvpclmulqdq zmm18, zmm16, zmm15, 0\nvaesenc zmm1, zmm1, zmm15\nvpxorq zmm9, zmm16, zmm15\nvpclmulqdq zmm18, zmm16, zmm15, 0\nvaesenc zmm2, zmm2, zmm15\nvpxorq zmm10, zmm16, zmm15\nvpclmulqdq zmm18, zmm16, zmm15, 0\nvaesenc zmm3, zmm3, zmm15\nvpxorq zmm11, zmm16, zmm15\nvpclmulqdq zmm18, zmm16, zmm15, 0\nvaesenc zmm4, zmm4, zmm15\nvpxorq zmm12, zmm16, zmm15\nvpclmulqdq zmm19, zmm16, zmm15, 0\nvaesenc zmm5, zmm5, zmm15\nvpxorq zmm13, zmm16, zmm15\nvpclmulqdq zmm19, zmm16, zmm15, 0\nvaesenc zmm6, zmm6, zmm15\nvpxorq zmm14, zmm16, zmm15\nvpclmulqdq zmm19, zmm16, zmm15, 0\nvaesenc zmm7, zmm7, zmm15\nvpxorq zmm17, zmm16, zmm15\nvpclmulqdq zmm19, zmm16, zmm15, 0")),
    ])
}
