//! NIST CAVP AES-GCM vectors (gcmEncryptExtIV*.rsp, gcmDecrypt*.rsp) from the PyPI package
//! `cryptography-vectors`, which `make test` installs. The directory is taken from
//! `GCMKIT_CAVP_DIR` or found through python3; if neither works the test fails (it does
//! not skip) and says how to install the package.

mod common;
use common::{engines, unhex};
use gcmkit::AeadMode;
use gcmkit::AesGcm;
use std::path::PathBuf;

fn cavp_dir() -> PathBuf {
    if let Ok(d) = std::env::var("GCMKIT_CAVP_DIR") {
        return PathBuf::from(d);
    }
    let out = std::process::Command::new("python3")
        .args(["-c", "import cryptography_vectors, os; print(os.path.dirname(cryptography_vectors.__file__))"])
        .output();
    match out {
        Ok(o) if o.status.success() => {
            PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).join("ciphers/AES/GCM")
        }
        _ => panic!("NIST CAVP vectors not found: run `pip install cryptography-vectors` or set GCMKIT_CAVP_DIR"),
    }
}

/// One `Count = ...` record of an .rsp file.
#[derive(Default)]
struct Record {
    fields: std::collections::HashMap<String, String>,
    fail: bool,
}

fn records(text: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let mut cur: Option<Record> = None;
    for line in text.lines().map(str::trim) {
        if line.starts_with("Count") {
            out.extend(cur.take());
            cur = Some(Record::default());
        }
        let Some(r) = cur.as_mut() else { continue };
        if line == "FAIL" {
            r.fail = true;
        } else if let Some((k, v)) = line.split_once('=') {
            r.fields.insert(k.trim().to_string(), v.trim().to_string());
        }
    }
    out.extend(cur);
    out
}

fn run_file(name: &str, decrypt_file: bool) -> usize {
    let path = cavp_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let recs = records(&text);
    let engines = engines();
    for (i, r) in recs.iter().enumerate() {
        let f = |k: &str| unhex(r.fields.get(k).map(String::as_str).unwrap_or(""));
        let (key, iv, aad, ct, tag) = (f("Key"), f("IV"), f("AAD"), f("CT"), f("Tag"));
        // Every engine on a sample; the fastest engine on all (CAVP is large).
        let es: &[gcmkit::Engine] = if i % 16 == 0 {
            &engines
        } else {
            &engines[engines.len() - 1..]
        };
        for &e in es {
            let gcm = AesGcm::with_engine(&key, e)
                .unwrap()
                .with_tag_len(tag.len())
                .unwrap();
            let mut ct_tag = ct.clone();
            ct_tag.extend_from_slice(&tag);
            let res = gcm.decrypt(&iv, &ct_tag, &aad);
            if decrypt_file && r.fail {
                assert!(res.is_err(), "{name} record {i}: forged input accepted");
                continue;
            }
            let pt = f("PT");
            assert_eq!(
                res.unwrap_or_else(|err| panic!("{name} record {i}: {err}")),
                pt,
                "{name} record {i}"
            );
            assert_eq!(
                gcm.encrypt(&iv, &pt, &aad).unwrap(),
                ct_tag,
                "{name} record {i} encrypt"
            );
        }
    }
    recs.len()
}

#[test]
fn cavp_encrypt_ext_iv() {
    for bits in [128, 192, 256] {
        assert!(run_file(&format!("gcmEncryptExtIV{bits}.rsp"), false) > 1000);
    }
}

#[test]
fn cavp_decrypt() {
    for bits in [128, 192, 256] {
        assert!(run_file(&format!("gcmDecrypt{bits}.rsp"), true) > 1000);
    }
}
