//! The core clock, measured: this VM exposes no cycle counters, so cycles are derived
//! from time and a clock measured by a chain of dependent integer adds (one per cycle).

use std::time::Instant;

#[cfg(target_arch = "x86_64")]
fn add_chain(n: u64) -> u64 {
    let mut x = 0u64;
    // SAFETY: plain register arithmetic; 8 dependent adds per iteration, the loop counter
    // on a separate dependency chain. Register (not immediate) operands: some cores fold
    // add-immediate chains at rename, which would overstate the clock.
    unsafe {
        core::arch::asm!(
            "2:",
            "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
            "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
            "dec {n}",
            "jnz 2b",
            x = inout(reg) x,
            n = inout(reg) n => _,
            one = in(reg) 1u64,
            options(nomem, nostack),
        );
    }
    x
}

/// GHz: the fastest of many short runs of the add chain (2 million adds, about 0.6 ms
/// each, for at least 300 ms). On a loaded machine a long run is almost always
/// preempted somewhere: five 50 ms runs read 1.41 GHz on a 2-core VM at load 11, which
/// made every cycle count of `bench cycles` half the truth (16 KiB AES-128-GCM at
/// 0.074 c/B, under one VAES per cycle); short runs find the undisturbed rate.
pub fn measure_ghz() -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        let n = 250_000u64;
        let start = Instant::now();
        let mut best = 0.0f64;
        let mut runs = 0;
        while runs < 200 || start.elapsed().as_secs_f64() < 0.3 {
            let t = Instant::now();
            std::hint::black_box(add_chain(std::hint::black_box(n)));
            best = best.max(8.0 * n as f64 / t.elapsed().as_secs_f64() / 1e9);
            runs += 1;
        }
        best
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = Instant::now();
        0.0
    }
}

/// One line naming the machine. A VM's model name can be as vague as "AMD EPYC", so the
/// CPU family, model and stepping follow it (family 25 is Zen 3/4, 26 is Zen 5).
/// A file-name tag for this CPU, `<vendor>-f<family>-m<model>` (e.g. `intel-f6-m207`), so
/// per-CPU reports of different machines sit side by side instead of replacing each other.
pub fn cpu_tag() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
            .unwrap_or_else(|| "unknown".into())
    };
    let vendor = match field("vendor_id").as_str() {
        "GenuineIntel" => "intel".to_string(),
        "AuthenticAMD" => "amd".to_string(),
        v => v.to_lowercase(),
    };
    format!("{vendor}-f{}-m{}", field("cpu family"), field("model"))
}

pub fn machine_line(ghz: f64) -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
    };
    let mut cpu = field("model name").unwrap_or_else(|| "unknown CPU".into());
    if let (Some(f), Some(m), Some(s)) = (field("cpu family"), field("model"), field("stepping")) {
        cpu = format!("{cpu} (family {f}, model {m}, stepping {s})");
    }
    format!(
        "Machine: {cpu}, {} logical CPUs, measured core clock {ghz:.2} GHz; gcmkit {}; engines: {}.",
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0),
        gcmkit::VERSION,
        gcmkit::Engine::supported().map(|e| e.name()).collect::<Vec<_>>().join(", ")
    )
}
