//! RFC 8452 Appendix C: every AES-GCM-SIV vector (C.1, C.2, C.3 counter wrap) on every
//! engine, and GCM-SIV+ driven by the RFC's per-vector derived keys.

mod common;
use common::{engines, unhex};
use gcmkit::AeadMode;
use gcmkit::{hazmat::GcmSivPlus, AesGcmSiv, Error};

struct Vector {
    section: String,
    key: Vec<u8>,
    nonce: Vec<u8>,
    aad: Vec<u8>,
    pt: Vec<u8>,
    ct: Vec<u8>,
}

fn vectors() -> Vec<Vector> {
    let field = |s: &str| if s == "-" { vec![] } else { unhex(s) };
    include_str!("data/rfc8452_appendix_c.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 6, "malformed line {l}");
            Vector {
                section: f[0].into(),
                key: field(f[1]),
                nonce: field(f[2]),
                aad: field(f[3]),
                pt: field(f[4]),
                ct: field(f[5]),
            }
        })
        .collect()
}

#[test]
fn appendix_c_on_every_engine() {
    let vs = vectors();
    assert_eq!(vs.len(), 50);
    for engine in engines() {
        for (i, v) in vs.iter().enumerate() {
            let siv = AesGcmSiv::with_engine(&v.key, engine).unwrap();
            assert_eq!(
                siv.encrypt(&v.nonce, &v.pt, &v.aad).unwrap(),
                v.ct,
                "{} #{i} on {engine:?}",
                v.section
            );
            assert_eq!(
                siv.decrypt(&v.nonce, &v.ct, &v.aad).unwrap(),
                v.pt,
                "{} #{i} decrypt",
                v.section
            );
            let mut bad = v.ct.clone();
            let last = bad.len() - 1;
            bad[last] ^= 1;
            assert_eq!(
                siv.decrypt(&v.nonce, &bad, &v.aad),
                Err(Error::AuthenticationFailed)
            );
        }
    }
}

/// The RFC's "Record authentication key" and "Record encryption key" for each distinct
/// (key, nonce) of C.1 and the first of C.2.
const DERIVED: &[(&str, &str, &str, &str)] = &[
    (
        "01000000000000000000000000000000",
        "030000000000000000000000",
        "d9b360279694941ac5dbc6987ada7377",
        "4004a0dcd862f2a57360219d2d44ef6c",
    ),
    (
        "e66021d5eb8e4f4066d4adb9c33560e4",
        "f46e44bb3da0015c94f70887",
        "036ee1fe2d7926af68898095e54e7b3c",
        "5e46482396008223b5c1d25173d87539",
    ),
    (
        "36864200e0eaf5284d884a0e77d31646",
        "bae8e37fc83441b16034566b",
        "3e28de1120b2981a0155795ca2812af6",
        "6d4b78b31a4c9c03d8db0f42f7507fae",
    ),
    (
        "aedb64a6c590bc84d1a5e269e4b47801",
        "afc0577e34699b9e671fdd4f",
        "43b8de9cea62330d15cccfc84a33e8c8",
        "8e54631607e431e095b54852868e3a27",
    ),
    (
        "d5cc1fd161320b6920ce07787f86743b",
        "275d1ab32f6d1f0434d8848c",
        "8a51df64d93eaf667c2c09bd454ce5c5",
        "43ab276c2b4a473918ca73f2dd85109c",
    ),
    (
        "b3fed1473c528b8426a582995929a149",
        "9e9ad8780c8d63d0ab4149c0",
        "22f50707a95dd416df069d670cb775e8",
        "f674a5584ee21fe97b4cebc468ab61e4",
    ),
    (
        "2d4ed87da44102952ef94b02b805249b",
        "ac80e6f61455bfac8308a2d4",
        "0b00a29a83e7e95b92e3a0783b29f140",
        "a430c27f285aed913005975c42eed5f3",
    ),
    (
        "bde3b2f204d1e9f8b06bc47f9745b3d1",
        "ae06556fb6aa7890bebc18fe",
        "21c874a8bad3603d1c3e8784df5b3f9f",
        "d1c16d72651c3df504eae27129d818e8",
    ),
    (
        "f901cfe8a69615a93fdf7a98cad48179",
        "6245709fb18853f68d833640",
        "3724f55f1d22ac0ab830da0b6a995d74",
        "75ac87b70c05db287de779006105a344",
    ),
    (
        "0100000000000000000000000000000000000000000000000000000000000000",
        "030000000000000000000000",
        "b5d3c529dfafac43136d2d11be284d7f",
        "b914f4742be9e1d7a2f84addbf96dec3456e3c6c05ecc157cdbf0700fedad222",
    ),
];

#[test]
fn gcm_siv_plus_with_rfc_derived_keys_gives_rfc_results() {
    let vs = vectors();
    let mut checked = 0;
    for engine in engines() {
        for (key, nonce, k1, k2) in DERIVED {
            let plus = GcmSivPlus::with_engine(&unhex(k1), &unhex(k2), engine).unwrap();
            for v in vs
                .iter()
                .filter(|v| v.key == unhex(key) && v.nonce == unhex(nonce))
            {
                let mut buf = v.pt.clone();
                let tag = plus
                    .encrypt_in_place_detached(&v.nonce, &v.aad, &mut buf)
                    .unwrap();
                buf.extend_from_slice(tag.as_ref());
                assert_eq!(buf, v.ct, "GCM-SIV+ with derived keys of {key}/{nonce}");
                let (ct, tag) = v.ct.split_at(v.ct.len() - 16);
                let mut pt = ct.to_vec();
                plus.decrypt_in_place_detached(&v.nonce, &v.aad, &mut pt, tag)
                    .unwrap();
                assert_eq!(pt, v.pt);
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 24 * engines().len(),
        "only {checked} vectors matched a derived key"
    );
}
