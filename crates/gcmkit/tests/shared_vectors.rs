//! The project's vectors for constructions no standard publishes vectors for
//! (`crates/gcmkit-vectors/data/`, produced by an independent implementation of the conventions):
//! GCM-SIV (2015) in all variants and counter widths, and GCM-64, on every engine.

mod common;
use common::{engines, unhex};
use gcmkit::AeadMode;
use gcmkit::{GcmSiv2015, GcmSiv2015Variant};
use serde_json::Value;

/// Reads one of the project's vector files (`crates/gcmkit-vectors/data/`, in the
/// repository). A missing or unreadable file fails the test: it is never skipped.
pub fn shared_vectors(name: &str) -> Value {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../gcmkit-vectors/data")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap()
}

fn hexf(t: &Value, f: &str) -> Vec<u8> {
    unhex(t[f].as_str().unwrap_or_else(|| panic!("missing {f}")))
}

#[test]
fn gcm_siv_2015_vectors_every_variant_and_engine() {
    let doc = shared_vectors("gcm_siv_2015_test.json");
    let mut n = 0;
    for e in engines() {
        for g in doc["testGroups"].as_array().unwrap() {
            let k = g["counterBits"].as_u64().unwrap() as u32;
            for t in g["tests"].as_array().unwrap() {
                let c = match g["variant"].as_str().unwrap() {
                    "one-key" => GcmSiv2015::one_key_with_engine(&hexf(t, "key"), e),
                    "two-key" => GcmSiv2015::with_engine(
                        GcmSiv2015Variant::TwoKey,
                        &hexf(t, "hashKey"),
                        &hexf(t, "prfKey"),
                        None,
                        e,
                    ),
                    "three-key" => GcmSiv2015::with_engine(
                        GcmSiv2015Variant::ThreeKey,
                        &hexf(t, "hashKey"),
                        &hexf(t, "prfKey"),
                        Some(&hexf(t, "ctrKey")),
                        e,
                    ),
                    v => panic!("unknown variant {v}"),
                }
                .unwrap()
                .with_counter_bits(k)
                .unwrap();
                let (iv, aad, msg) = (hexf(t, "iv"), hexf(t, "aad"), hexf(t, "msg"));
                let mut ct_tag = hexf(t, "ct");
                ct_tag.extend(hexf(t, "tag"));
                let id = t["tcId"].as_i64().unwrap();
                if t["result"] == "valid" {
                    assert_eq!(
                        c.encrypt(&iv, &msg, &aad).unwrap(),
                        ct_tag,
                        "tc {id} {} k={k} on {e:?}",
                        g["variant"]
                    );
                    assert_eq!(c.decrypt(&iv, &ct_tag, &aad).unwrap(), msg, "tc {id}");
                } else {
                    assert!(
                        c.decrypt(&iv, &ct_tag, &aad).is_err(),
                        "tc {id}: invalid accepted"
                    );
                }
                n += 1;
            }
        }
    }
    assert!(n >= 50 * engines().len());
}

#[test]
fn gcm_siv_2015_parameters_get_their_own_errors() {
    use gcmkit::Error;
    assert!(matches!(
        GcmSiv2015::two_key(&[0; 16], &[0; 16])
            .unwrap()
            .with_counter_bits(0),
        Err(Error::InvalidParameter(_))
    ));
    assert!(matches!(
        GcmSiv2015::two_key(&[0; 16], &[0; 16])
            .unwrap()
            .with_counter_bits(33),
        Err(Error::InvalidParameter(_))
    ));
    assert!(matches!(
        GcmSiv2015::two_key(&[0; 15], &[0; 16]),
        Err(Error::InvalidKeyLength { got: 15, .. })
    ));
    assert!(matches!(
        GcmSiv2015::two_key(&[0; 16], &[0; 24]),
        Err(Error::InvalidKeyLength { got: 24, .. })
    ));
    assert!(matches!(
        GcmSiv2015::one_key(&[0; 32]),
        Err(Error::InvalidKeyLength { got: 32, .. })
    ));
    assert!(matches!(
        GcmSiv2015::three_key(&[0; 16], &[0; 16], &[0; 32]),
        Err(Error::InvalidKeyLength { got: 32, .. })
    ));
    // k = 4: at most 15 blocks.
    let c = GcmSiv2015::two_key(&[1; 16], &[2; 16])
        .unwrap()
        .with_counter_bits(4)
        .unwrap();
    assert!(c.encrypt(&[0; 12], &[0u8; 15 * 16], b"").is_ok());
    assert!(matches!(
        c.encrypt(&[0; 12], &[0u8; 15 * 16 + 1], b""),
        Err(Error::MessageTooLong { .. })
    ));
    assert!(matches!(
        c.encrypt(&[0; 11], b"x", b""),
        Err(Error::InvalidNonceLength { got: 11, .. })
    ));
}

#[test]
fn gcm64_vectors_tdea_and_blowfish() {
    use gcmkit::gcm64::{BlowfishGcm, TdeaGcm};
    let doc = shared_vectors("gcm64_test.json");
    let mut n = 0;
    for g in doc["testGroups"].as_array().unwrap() {
        for t in g["tests"].as_array().unwrap() {
            let tag_len = t["tagSize"].as_u64().unwrap() as usize / 8;
            let (key, iv, aad, msg) = (
                hexf(t, "key"),
                hexf(t, "iv"),
                hexf(t, "aad"),
                hexf(t, "msg"),
            );
            let mut ct_tag = hexf(t, "ct");
            ct_tag.extend(hexf(t, "tag"));
            let (enc, dec) = match g["cipher"].as_str().unwrap() {
                "TDEA" => {
                    let c = TdeaGcm::tdea(&key).unwrap().with_tag_len(tag_len).unwrap();
                    (c.encrypt(&iv, &msg, &aad), c.decrypt(&iv, &ct_tag, &aad))
                }
                "Blowfish-128" => {
                    let c = BlowfishGcm::blowfish(&key)
                        .unwrap()
                        .with_tag_len(tag_len)
                        .unwrap();
                    (c.encrypt(&iv, &msg, &aad), c.decrypt(&iv, &ct_tag, &aad))
                }
                other => panic!("unknown cipher {other}"),
            };
            let id = t["tcId"].as_i64().unwrap();
            if t["result"] == "valid" {
                assert_eq!(enc.unwrap(), ct_tag, "{} tc {id}", g["cipher"]);
                assert_eq!(dec.unwrap(), msg, "{} tc {id}", g["cipher"]);
            } else {
                assert!(dec.is_err(), "{} tc {id}: invalid accepted", g["cipher"]);
            }
            n += 1;
        }
    }
    assert!(n >= 20);
}

#[test]
fn gcm64_bad_parameters() {
    use gcmkit::gcm64::TdeaGcm;
    use gcmkit::Error;
    assert!(matches!(
        TdeaGcm::tdea(&[0; 16]),
        Err(Error::InvalidKeyLength { got: 16, .. })
    ));
    for t in [0, 3, 9, 16] {
        assert!(matches!(
            TdeaGcm::tdea(&[1; 24]).unwrap().with_tag_len(t),
            Err(Error::InvalidTagLength { .. })
        ));
    }
    let c = TdeaGcm::tdea(&[1; 24]).unwrap();
    assert!(matches!(
        c.encrypt(&[], b"x", b""),
        Err(Error::InvalidNonceLength { .. })
    ));
    assert!(matches!(
        c.encrypt(&[0; 4], &vec![0u8; (1 << 23) + 1], b""),
        Err(Error::MessageTooLong { .. })
    ));
    let ct = c.encrypt(&[0; 4], b"legacy", b"").unwrap();
    let mut bad = ct.clone();
    bad[0] ^= 1;
    assert_eq!(
        c.decrypt(&[0; 4], &bad, b""),
        Err(Error::AuthenticationFailed)
    );
}
