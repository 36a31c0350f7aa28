//! `gcmkit-bench ports`: which execution ports the AES-GCM instruction mix competes for,
//! measured (this VM has no performance counters to ask). Each row times a loop of
//! independent instructions on the widest vectors with VAES and VPCLMULQDQ (512-bit with
//! AVX-512; 256-bit with AVX2, as on Zen 3) and reports cycles per loop iteration in
//! units of one `vaesenc` of that width (the first row; one per cycle for `zmm` on
//! Sapphire Rapids), so clock drift cancels. If two instruction kinds share a port, their
//! mix costs the sum; if not, the maximum.
//!
//! The rows touch no memory: registers only. [`mix_with_memory`] (`gcmkit-bench
//! ports-memory`) is the one exception: the mix row with the avx2 batch's loads and stores.

use std::time::Instant;

/// A probe row's sampler: one run of its loop, in seconds per iteration.
type Sampler = Box<dyn Fn() -> f64>;

/// One sample of `$body` (one loop iteration): a closure timing 2 000 iterations, in
/// seconds per iteration. [`race`] takes the fastest of many, rows round-robin.
macro_rules! time_loop {
    ($body:expr) => {{
        let sample: Sampler = Box::new(|| {
            let n = 2_000u64;
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
                    options(nomem, nostack),
                );
            }
            t.elapsed().as_secs_f64() / n as f64
        });
        sample
    }};
}

/// The fastest of 2 000 samples of each row, the rows taken round-robin so that a
/// neighbour's load on this shared machine falls on all of them alike.
fn race(rows: Vec<(&'static str, Sampler)>) -> Vec<(&'static str, f64)> {
    let mut best = vec![f64::MAX; rows.len()];
    for _ in 0..2_000 {
        for (b, (_, sample)) in best.iter_mut().zip(&rows) {
            *b = b.min(sample());
        }
    }
    rows.iter().map(|(name, _)| *name).zip(best).collect()
}

/// Assembly text for one instruction `$op` per register in `$outs` (a comma list), each
/// `$op v<out>, v<src>, v15<tail>` on vectors `$v`; `$src` "\\i" means the output
/// register itself (a chain through iterations), else a fixed register.
macro_rules! block {
    ($op:literal, $v:literal, $outs:literal, $src:literal, $tail:literal) => {
        concat!(
            ".irp i,",
            $outs,
            "\n",
            $op,
            " ",
            $v,
            "\\i, ",
            $v,
            $src,
            ", ",
            $v,
            "15",
            $tail,
            "\n.endr\n"
        )
    };
}

/// Eight AES rounds on registers 0-7, each in place (eight chains across iterations).
macro_rules! aes8 {
    ($v:literal) => {
        block!("vaesenc", $v, "0,1,2,3,4,5,6,7", "\\i", "")
    };
}

/// The probe's rows on vectors `$v` ("zmm" or "ymm"; `$xor` is that width's XOR). AES
/// rounds chain in registers 0-7; every other instruction reads registers 14 and 15 only
/// and writes one of 0-13 that no AES round reads, so nothing waits for anything but a
/// port.
macro_rules! probe_rows {
    ($v:literal, $xor:literal) => {
        vec![
            (concat!("8 vaesenc ", $v), time_loop!(aes8!($v))),
            (
                concat!("8 vpclmulqdq ", $v),
                time_loop!(block!("vpclmulqdq", $v, "0,1,2,3,4,5,6,7", "14", ", 0")),
            ),
            (
                concat!("8 vpshufb ", $v),
                time_loop!(block!("vpshufb", $v, "0,1,2,3,4,5,6,7", "14", "")),
            ),
            (
                concat!("8 ", $xor, " ", $v),
                time_loop!(block!($xor, $v, "0,1,2,3,4,5,6,7", "14", "")),
            ),
            (
                concat!("8 vaesenc + 8 vpclmulqdq ", $v),
                time_loop!(concat!(
                    aes8!($v),
                    block!("vpclmulqdq", $v, "8,9,10,11,12,13,8,9", "14", ", 0")
                )),
            ),
            (
                concat!("8 vaesenc + 8 ", $xor, " ", $v),
                time_loop!(concat!(
                    aes8!($v),
                    block!($xor, $v, "8,9,10,11,12,13,8,9", "14", "")
                )),
            ),
            (
                concat!("8 vpclmulqdq + 8 vpshufb ", $v),
                time_loop!(concat!(
                    block!("vpclmulqdq", $v, "0,1,2,3,4,5,6,7", "14", ", 0"),
                    block!("vpshufb", $v, "8,9,10,11,12,13,8,9", "14", "")
                )),
            ),
            (
                concat!("8 vaesenc + 8 ", $xor, " + 8 vpclmulqdq ", $v),
                time_loop!(concat!(
                    aes8!($v),
                    block!($xor, $v, "8,9,10,11,8,9,10,11", "14", ""),
                    block!("vpclmulqdq", $v, "12,13,12,13,12,13,12,13", "14", ", 0")
                )),
            ),
            // Four vectors of bulk AES-128-GCM (see `cycles::floor_model`): 40 AES rounds,
            // 13 carry-less multiplies, 9 shuffles, 22 XORs.
            (
                concat!(
                    "AES-GCM mix: 40 vaesenc + 13 vpclmulqdq + 9 vpshufb + 22 ",
                    $xor,
                    " ",
                    $v
                ),
                time_loop!(concat!(
                    ".rept 5\n",
                    aes8!($v),
                    ".endr\n",
                    block!("vpclmulqdq", $v, "8,9,8,9,8,9,8,9,8,9,8,9,8", "14", ", 0"),
                    block!("vpshufb", $v, "10,11,10,11,10,11,10,11,10", "14", ""),
                    block!(
                        $xor,
                        $v,
                        "12,13,12,13,12,13,12,13,12,13,12,13,12,13,12,13,12,13,12,13,12,13",
                        "14",
                        ""
                    )
                )),
            ),
            // After the mix (the floor model reads the rows above by index): what a
            // single-block multiply costs, and whether shuffles take AES's pipes.
            (
                "8 vpclmulqdq xmm",
                time_loop!(block!("vpclmulqdq", "xmm", "0,1,2,3,4,5,6,7", "14", ", 0")),
            ),
            (
                concat!("8 vaesenc + 8 vpshufd ", $v),
                time_loop!(concat!(
                    aes8!($v),
                    ".irp i,8,9,10,11,12,13,8,9\nvpshufd ",
                    $v,
                    "\\i, ",
                    $v,
                    "14, 0x4e\n.endr\n"
                )),
            ),
            (
                concat!("8 vaesenc + 4 vpclmulqdq + 8 vpshufb ", $v),
                time_loop!(concat!(
                    aes8!($v),
                    block!("vpclmulqdq", $v, "8,9,10,11", "14", ", 0"),
                    block!("vpshufb", $v, "12,13,12,13,12,13,12,13", "14", "")
                )),
            ),
        ]
    };
}

/// Seconds per loop iteration of the probe's rows that the cycles report's floor model
/// needs: 8 of each kind alone, and the mixes that tell which kinds share a port.
pub struct Probe {
    pub aes: f64,
    pub clmul: f64,
    pub shuffle: f64,
    pub xor: f64,
    pub aes_clmul: f64,
    pub clmul_shuffle: f64,
    /// Four vectors of bulk AES-128-GCM's instruction mix, nothing but ports bounding it.
    pub gcm_mix: f64,
}

/// The probe's rows, or `None` without VAES and VPCLMULQDQ.
pub fn probe() -> Option<Probe> {
    rows().map(|r| of_rows(&r))
}

/// The floor model's figures from the probe's rows.
fn of_rows(r: &[(&'static str, f64)]) -> Probe {
    Probe {
        aes: r[0].1,
        clmul: r[1].1,
        shuffle: r[2].1,
        xor: r[3].1,
        aes_clmul: r[4].1,
        clmul_shuffle: r[6].1,
        gcm_mix: r[8].1,
    }
}

/// Prints every row, in units of one AES round, and returns the floor model's figures
/// from the same run (`None`, after saying why, without VAES and VPCLMULQDQ).
pub fn run() -> Option<Probe> {
    let Some(rows) = rows() else {
        println!("ports: needs VAES and VPCLMULQDQ (with AVX-512 or AVX2)");
        return None;
    };
    let unit = rows[0].1 / 8.0;
    println!("{:<44} {:>12}", "loop body", "AES-op units");
    for (name, t) in &rows {
        println!("{name:<44} {:>12.2}", t / unit);
    }
    Some(of_rows(&rows))
}

/// Every row of the probe: (loop body, seconds per iteration), at [`width_bits`].
fn rows() -> Option<Vec<(&'static str, f64)>> {
    Some(race(match width_bits()? {
        512 => probe_rows!("zmm", "vpxorq"),
        _ => probe_rows!("ymm", "vpxor"),
    }))
}

/// The widest vectors with VAES and VPCLMULQDQ: 512 bits with AVX-512, else 256 bits with
/// AVX2 (Zen 3); `None` without them.
pub fn width_bits() -> Option<u32> {
    let vaes = std::arch::is_x86_feature_detected!("vaes")
        && std::arch::is_x86_feature_detected!("vpclmulqdq");
    if vaes && std::arch::is_x86_feature_detected!("avx512f") {
        Some(512)
    } else if vaes && std::arch::is_x86_feature_detected!("avx2") {
        Some(256)
    } else {
        None
    }
}

/// Cycles per 128 bytes of the mix row's instructions (on 256-bit vectors) with the memory
/// traffic of gcmkit's avx2 stitched batch, which has 16 vector registers for 8 AES states,
/// the hash sums and its operands: per 128 B, a round key loaded before each group of 8
/// rounds (5), the vector hashed loaded and byte-reversed with a shuffle mask from memory
/// (4 + 4), its power and Karatsuba helper as memory operands of the multiplies (8), and
/// the keystream XORed with the source from memory and stored (4 + 4). Same counts of
/// AES rounds (40), multiplies (13), shuffles (9) and XORs (22) as the mix row; the
/// addresses are fixed, so every access hits L1. AVX2 with VAES and VPCLMULQDQ only
/// (`None` otherwise). Returns (cycles per 128 B, the same in AES-op units).
pub fn mix_with_memory(ghz: f64) -> Option<(f64, f64)> {
    if width_bits()? != 256 {
        return None;
    }
    let src = vec![0u8; 4096];
    let mut dst = vec![0u8; 4096];
    let (p, q) = (src.as_ptr(), dst.as_mut_ptr());
    let mix: Sampler = Box::new(move || {
        let n = 2_000u64;
        let t = Instant::now();
        // SAFETY: the CPU has AVX2, VAES and VPCLMULQDQ (`width_bits`); the asm reads
        // `src` at offsets below 2 176 and writes `dst` at offsets below 128, both 4 096
        // bytes long and alive for the whole race; it clobbers only the vector registers
        // declared and the loop counter.
        unsafe {
            core::arch::asm!(
                "2:",
                ".irp g,0,1,2,3,4",
                "vmovdqu ymm15, ymmword ptr [{p} + 32*\\g]",
                aes8!("ymm"),
                ".endr",
                ".irp j,0,1,2,3",
                "vmovdqu ymm8, ymmword ptr [{p} + 512 + 32*\\j]",
                "vpshufb ymm8, ymm8, ymmword ptr [{p} + 1024]",
                "vpclmulqdq ymm9, ymm8, ymmword ptr [{p} + 1536 + 64*\\j], 0x00",
                "vpclmulqdq ymm10, ymm8, ymmword ptr [{p} + 1536 + 64*\\j], 0x11",
                "vpshufd ymm11, ymm8, 0x4e",
                "vpclmulqdq ymm12, ymm11, ymmword ptr [{p} + 1568 + 64*\\j], 0x00",
                ".endr",
                "vpclmulqdq ymm9, ymm14, ymm15, 0x00",
                "vpshufb ymm10, ymm14, ymm15",
                ".irp j,0,1,2,3",
                "vpxor ymm13, ymm14, ymmword ptr [{p} + 2048 + 32*\\j]",
                "vmovdqu ymmword ptr [{q} + 32*\\j], ymm13",
                ".endr",
                block!("vpxor", "ymm", "12,13,12,13,12,13,12,13,12,13,12,13,12,13,12,13,12,13", "14", ""),
                "dec {n}",
                "jnz 2b",
                n = inout(reg) n => _,
                p = in(reg) p,
                q = in(reg) q,
                out("ymm0") _, out("ymm1") _, out("ymm2") _, out("ymm3") _,
                out("ymm4") _, out("ymm5") _, out("ymm6") _, out("ymm7") _,
                out("ymm8") _, out("ymm9") _, out("ymm10") _, out("ymm11") _,
                out("ymm12") _, out("ymm13") _, out("ymm14") _, out("ymm15") _,
                options(nostack),
            );
        }
        t.elapsed().as_secs_f64() / n as f64
    });
    let rows = race(vec![
        ("8 vaesenc ymm", time_loop!(aes8!("ymm"))),
        ("mix with memory", mix),
    ]);
    drop((src, dst));
    Some((rows[1].1 * ghz * 1e9, rows[1].1 / (rows[0].1 / 8.0)))
}
