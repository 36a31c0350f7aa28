//! All 18 AES-GCM test cases of the GCM specification's Appendix B (McGrew-Viega), with
//! the intermediate values H, Y0, GHASH(H, A, C) and E(K, Y0) where the spec lists them,
//! on every engine this machine supports.

mod common;
use common::appendix_b::{IV12, K128, Z12};
use common::{engines, unhex};
#[allow(unused_imports)]
use gcmkit::AeadMode;
use gcmkit::{hazmat, AesGcm};

use common::appendix_b::cases;

#[test]
fn appendix_b_all_18_cases_on_every_engine() {
    let cases = cases();
    assert_eq!(cases.len(), 18);
    for engine in engines() {
        for tc in &cases {
            let (k, p, a, iv) = (unhex(&tc.k), unhex(tc.p), unhex(tc.a), unhex(tc.iv));
            let gcm = AesGcm::with_engine(&k, engine).unwrap();
            let mut expected = unhex(tc.c);
            expected.extend(unhex(tc.t));
            let ct = gcm.encrypt(&iv, &p, &a).unwrap();
            assert_eq!(
                hex::encode(&ct),
                hex::encode(&expected),
                "TC{} on {engine:?}",
                tc.n
            );
            assert_eq!(
                gcm.decrypt(&iv, &ct, &a).unwrap(),
                p,
                "TC{} decrypt on {engine:?}",
                tc.n
            );
        }
    }
}

/// The same 18 cases through `encrypt_parts_into`, the plaintext cut at every byte (two
/// parts) and into 1-, 7- and 17-byte pieces: the published ciphertext and tag each time.
#[test]
fn appendix_b_all_18_cases_from_parts() {
    for engine in engines() {
        for tc in cases() {
            let (k, p, a, iv) = (unhex(&tc.k), unhex(tc.p), unhex(tc.a), unhex(tc.iv));
            let gcm = AesGcm::with_engine(&k, engine).unwrap();
            let mut expected = unhex(tc.c);
            expected.extend(unhex(tc.t));
            let mut out = vec![0u8; expected.len()];
            for cut in 0..=p.len() {
                let (x, y) = p.split_at(cut);
                out.fill(0);
                gcm.encrypt_parts_into(&iv, &[x, y], &a, &mut out).unwrap();
                assert_eq!(out, expected, "TC{} cut {cut} on {engine:?}", tc.n);
            }
            for piece in [1, 7, 17] {
                let parts: Vec<&[u8]> = p.chunks(piece).collect();
                out.fill(0);
                gcm.encrypt_parts_into(&iv, &parts, &a, &mut out).unwrap();
                assert_eq!(out, expected, "TC{} pieces {piece} on {engine:?}", tc.n);
            }
        }
    }
}

#[test]
fn appendix_b_intermediate_values() {
    for tc in cases() {
        let tr =
            hazmat::gcm_trace(&unhex(&tc.k), &unhex(tc.iv), &unhex(tc.a), &unhex(tc.c)).unwrap();
        assert_eq!(hex::encode(tr.h), tc.h, "H of TC{}", tc.n);
        assert_eq!(hex::encode(tr.y0), tc.y0, "Y0 of TC{}", tc.n);
        assert_eq!(hex::encode(tr.ghash), tc.ghash, "GHASH of TC{}", tc.n);
        // T = E(K, Y0) xor GHASH(H, A, C).
        let t: Vec<u8> = tr
            .e_k_y0
            .iter()
            .zip(tr.ghash.iter())
            .map(|(a, b)| a ^ b)
            .collect();
        assert_eq!(hex::encode(t), tc.t, "T of TC{}", tc.n);
    }
}

/// The spec lists E(K, Y0) for the cases whose table shows it.
#[test]
fn appendix_b_tag_masks() {
    for (k, iv, e) in [
        ("00".repeat(16), Z12, "58e2fccefa7e3061367f1d57a4e7455a"),
        (K128.to_string(), IV12, "3247184b3c4f69a44dbcd22887bbb418"),
    ] {
        let tr = hazmat::gcm_trace(&unhex(&k), &unhex(iv), b"", b"").unwrap();
        assert_eq!(hex::encode(tr.e_k_y0), e);
    }
}
