//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod appendix_b;

use gcmkit::Engine;

/// Decodes hex (test data only).
pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap_or_else(|e| panic!("bad hex in test data {s:?}: {e}"))
}

/// Every engine this machine supports: each vector runs through each of them.
///
/// Not vacuous where it matters: a CPU with the instructions of a hardware engine must
/// have detected it, so no suite that compares engines silently runs the portable one
/// alone (a detection bug would otherwise pass every engine comparison).
pub fn engines() -> Vec<Engine> {
    let found: Vec<Engine> = Engine::supported().collect();
    assert!(found.contains(&Engine::Portable), "portable engine missing");
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let sse = has!("aes") && has!("pclmulqdq") && has!("sse2") && has!("ssse3");
        let aesni = sse && has!("sse4.1");
        let avx2 = aesni && has!("avx") && has!("avx2") && has!("vaes") && has!("vpclmulqdq");
        let avx512 = avx2 && has!("avx512f") && has!("avx512bw") && has!("avx512vl");
        for (present, engine) in [
            (aesni, Engine::Aesni),
            (avx2, Engine::Avx2),
            (avx512, Engine::Avx512),
        ] {
            assert!(
                !present || found.contains(&engine),
                "{engine:?}: the CPU has its instructions but detection did not find it"
            );
        }
    }
    #[cfg(target_arch = "aarch64")]
    if std::arch::is_aarch64_feature_detected!("aes") {
        assert!(
            found.contains(&Engine::Armv8),
            "ARMv8 AES + PMULL present but not used"
        );
    }
    found
}

/// The hardware engines (every engine but portable), for the suites that compare each
/// with the portable one. Detection is checked by [`engines`], so the list is empty only
/// on a CPU without the instructions of any hardware engine; there those comparisons
/// compare nothing. That is said on the terminal (a direct write: libtest captures only
/// `print!`), and under `CI=true` it is a failure, because CI runs on CPUs with AES
/// instructions and a CI run that compared no engine must not pass.
pub fn hardware_engines() -> Vec<Engine> {
    let hw: Vec<Engine> = engines()
        .into_iter()
        .filter(|&e| e != Engine::Portable)
        .collect();
    if hw.is_empty() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(
            !ci,
            "CI=true, but this CPU has no hardware engine: every engine-against-portable \
             comparison would compare nothing"
        );
        use std::io::Write;
        static ONCE: std::sync::Once = std::sync::Once::new();
        // Once per test binary; best effort: a closed stderr must not fail the test.
        ONCE.call_once(|| {
            let _ = writeln!(
                std::io::stderr().lock(),
                "NOTE: no hardware engine on this CPU; the engine-against-portable \
                 comparisons compare nothing here"
            );
        });
    }
    hw
}
