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
