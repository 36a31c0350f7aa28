//! No public decryption path accepts a tag of the wrong length or panics on one: every
//! prefix of a valid tag (lengths 0 to tag length - 1) and over-long tags, fed to every
//! public decrypt form of every mode on every engine this CPU has, get a typed error and
//! leave the output as the form's contract says (zeroed for gcmkit's own API, untouched
//! for the RustCrypto drop-ins). Before the sealed mode core, an empty or shortened tag
//! verified for AesGcm and XAes256Gcm (the hidden `AeadMode::open` compared only the
//! prefix) and DndkGcm panicked.

mod common;
use common::engines;
use gcmkit::hazmat::GcmSivPlus;
use gcmkit::{
    AeadMode, AesGcm, AesGcmSiv, DndkGcm, Error, GcmSiv2015, Gmac, IncrementalGmac, XAes256Gcm,
};
use std::panic::{catch_unwind, AssertUnwindSafe};

const AAD: &[u8] = b"header";
/// Message lengths: empty, under a block, the fused small kernels, the stitched loops.
const LENGTHS: [usize; 5] = [0, 5, 64, 300, 2000];

fn data(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(29).wrapping_add(seed))
        .collect()
}

/// The wrong tags for a valid `tag`: every proper prefix, then longer ones.
fn wrong_tags(tag: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (0..tag.len()).map(|k| tag[..k].to_vec()).collect();
    let mut longer = tag.to_vec();
    longer.push(0);
    out.push(longer);
    out.push([tag, tag].concat());
    out.push(vec![0u8; 64]);
    out
}

/// Runs `f`, failing the test with `what` if it panics.
fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(t) => t,
        Err(_) => panic!("{what}: panicked"),
    }
}

fn is_tag_length_error(r: &Result<(), Error>) -> bool {
    matches!(r, Err(Error::InvalidTagLength { .. }))
}

/// Every decrypt form of the `AeadMode` interface, for one key object.
fn check_mode<M: AeadMode>(name: &str, m: &M, nonce: &[u8]) {
    let tag_len = m.tag_len();
    for len in LENGTHS {
        let pt = data(len, 3);
        let sealed = m.encrypt(nonce, &pt, AAD).unwrap();
        let (ct, tag) = sealed.split_at(len);
        assert_eq!(tag.len(), tag_len, "{name}");
        // The valid tag opens (so a refusal below is about the length).
        assert_eq!(
            m.decrypt(nonce, &sealed, AAD).unwrap(),
            pt,
            "{name} len {len}"
        );
        for bad in wrong_tags(tag) {
            let what = format!("{name}, {len}-byte message, {}-byte tag", bad.len());
            // In place, detached: the length is refused, the buffer zeroed.
            let mut buf = ct.to_vec();
            let r = no_panic(&what, || {
                m.decrypt_in_place_detached(nonce, AAD, &mut buf, &bad)
            });
            assert!(is_tag_length_error(&r), "{what}: detached gave {r:?}");
            assert!(buf.iter().all(|&b| b == 0), "{what}: buffer not zeroed");
            // Ciphertext || tag: a shorter or longer tag shifts the split, so the last
            // tag-length bytes are not the tag: refused, never Ok.
            let joined = [ct, &bad].concat();
            let r = no_panic(&what, || m.decrypt(nonce, &joined, AAD));
            assert!(r.is_err(), "{what}: decrypt gave Ok");
            let out_len = joined.len().saturating_sub(tag_len);
            let mut out = vec![0xa5u8; out_len];
            let r = no_panic(&what, || m.decrypt_into(nonce, &joined, AAD, &mut out));
            assert!(r.is_err(), "{what}: decrypt_into gave Ok");
            assert!(
                out.iter().all(|&b| b == 0) || joined.len() < tag_len,
                "{what}: decrypt_into output not zeroed"
            );
        }
    }
}

#[test]
fn aes_gcm_every_tag_length_every_engine() {
    for e in engines() {
        for key_len in [16, 24, 32] {
            for tag_len in [16, 15, 14, 13, 12, 8, 4] {
                let m = AesGcm::with_engine(&data(key_len, 1), e)
                    .unwrap()
                    .with_tag_len(tag_len)
                    .unwrap();
                let name = format!("AesGcm-{key_len} tag {tag_len} on {e:?}");
                check_mode(&name, &m, &[7u8; 12]);
                check_mode(&name, &m, &[7u8; 1]);
                check_mode(&name, &m, &[7u8; 60]);
            }
        }
    }
}

#[test]
fn siv_family_every_engine() {
    use gcmkit::GcmSiv2015Variant::{ThreeKey, TwoKey};
    for e in engines() {
        for key_len in [16, 24, 32] {
            let m = AesGcmSiv::with_engine(&data(key_len, 2), e).unwrap();
            check_mode(&format!("AesGcmSiv-{key_len} on {e:?}"), &m, &[9u8; 12]);
        }
        let plus = GcmSivPlus::with_engine(&data(16, 4), &data(32, 5), e).unwrap();
        check_mode(&format!("GcmSivPlus on {e:?}"), &plus, &[9u8; 12]);
        let k = |n| data(n, 6);
        let variants = [
            (
                "two-key",
                GcmSiv2015::with_engine(TwoKey, &k(16), &k(32), None, e).unwrap(),
            ),
            (
                "one-key",
                GcmSiv2015::one_key_with_engine(&k(16), e).unwrap(),
            ),
            (
                "three-key",
                GcmSiv2015::with_engine(ThreeKey, &k(16), &k(32), Some(&k(32)), e).unwrap(),
            ),
        ];
        for (name, m) in variants {
            check_mode(&format!("GcmSiv2015 {name} on {e:?}"), &m, &[9u8; 12]);
            let short_counter = m.clone().with_counter_bits(8).unwrap();
            check_mode(
                &format!("GcmSiv2015 {name}, k = 8"),
                &short_counter,
                &[9u8; 12],
            );
        }
    }
}

#[test]
fn derived_key_modes_every_engine() {
    for e in engines() {
        let x = XAes256Gcm::with_engine(&data(32, 7), e).unwrap();
        check_mode(&format!("XAes256Gcm on {e:?}"), &x, &[1u8; 24]);
        let d = DndkGcm::with_engine(&data(32, 8), e).unwrap();
        check_mode(&format!("DndkGcm on {e:?}"), &d, &[2u8; 24]);
        let d12 = d.clone().with_nonce_len(12).unwrap();
        check_mode(&format!("DndkGcm LN 12 on {e:?}"), &d12, &[2u8; 12]);
        let kc = d.with_key_commitment();
        check_mode(
            &format!("DndkGcm with commitment on {e:?}"),
            &kc,
            &[3u8; 24],
        );
    }
}

#[cfg(feature = "gcm64")]
#[test]
fn gcm64_every_tag_length() {
    use gcmkit::gcm64::Gcm64;
    for tag_len in 4..=8 {
        let t = Gcm64::tdea(&data(24, 9))
            .unwrap()
            .with_tag_len(tag_len)
            .unwrap();
        check_mode(&format!("TDEA-GCM tag {tag_len}"), &t, &[4u8; 4]);
        check_mode(&format!("TDEA-GCM tag {tag_len}"), &t, &[4u8; 12]);
        let b = Gcm64::blowfish(&data(16, 10))
            .unwrap()
            .with_tag_len(tag_len)
            .unwrap();
        check_mode(&format!("Blowfish-GCM tag {tag_len}"), &b, &[4u8; 4]);
    }
}

#[cfg(feature = "table-strategies")]
#[test]
fn table_strategies_every_method() {
    use gcmkit::hazmat::tables::{TableAesGcm, TableMethod};
    for method in TableMethod::ALL {
        for tag_len in [16, 12, 4] {
            let m = TableAesGcm::new(&data(16, 11), method)
                .unwrap()
                .with_tag_len(tag_len)
                .unwrap();
            check_mode(
                &format!("TableAesGcm {method:?} tag {tag_len}"),
                &m,
                &[5u8; 12],
            );
        }
    }
}

#[test]
fn gmac_verify() {
    for e in engines() {
        for tag_len in [16, 15, 14, 13, 12, 8, 4] {
            let mac = Gmac::with_engine(&data(16, 12), e)
                .unwrap()
                .with_tag_len(tag_len)
                .unwrap();
            let tag = mac.compute(&[6u8; 12], b"data").unwrap();
            mac.verify(&[6u8; 12], b"data", tag.as_ref()).unwrap();
            for bad in wrong_tags(tag.as_ref()) {
                let what = format!("Gmac tag {tag_len}, {}-byte tag on {e:?}", bad.len());
                let r = no_panic(&what, || mac.verify(&[6u8; 12], b"data", &bad));
                assert!(is_tag_length_error(&r), "{what}: {r:?}");
            }
        }
    }
}

#[test]
fn incremental_gmac_takes_only_full_tags() {
    let inc = IncrementalGmac::new(&data(16, 13)).unwrap();
    let tag = inc.compute(&[1u8; 12], b"message").unwrap();
    inc.renonce(&[1u8; 12], &tag, 7, &[2u8; 12]).unwrap();
    for bad in wrong_tags(&tag) {
        let what = format!("IncrementalGmac, {}-byte tag", bad.len());
        let r = no_panic(&what, || {
            [
                inc.renonce(&[1u8; 12], &bad, 7, &[2u8; 12]).map(drop),
                inc.append(&[1u8; 12], &bad, 7, b"more", &[2u8; 12])
                    .map(drop),
                inc.truncate(&[1u8; 12], &bad, 7, b"ge", &[2u8; 12])
                    .map(drop),
                inc.replace(&[1u8; 12], &bad, 7, 0, b"m", b"M", &[2u8; 12])
                    .map(drop),
            ]
        });
        for r in r {
            assert!(is_tag_length_error(&r), "{what}: {r:?}");
        }
    }
}

#[test]
fn online_decryptors() {
    for e in engines() {
        for tag_len in [16, 12, 4] {
            let gcm = AesGcm::with_engine(&data(16, 14), e)
                .unwrap()
                .with_tag_len(tag_len)
                .unwrap();
            let pt = data(100, 15);
            let sealed = gcm.encrypt(&[8u8; 12], &pt, AAD).unwrap();
            let (ct, tag) = sealed.split_at(pt.len());
            for bad in wrong_tags(tag) {
                let what = format!("GcmDecryptor tag {tag_len}, {}-byte tag", bad.len());
                let mut out = b"kept".to_vec();
                let mut d = gcm.decryptor(&[8u8; 12], &mut out).unwrap();
                d.aad(AAD).unwrap();
                d.update(ct).unwrap();
                let r = no_panic(&what, || d.finish(&bad));
                assert!(is_tag_length_error(&r), "{what}: {r:?}");
                assert_eq!(out, b"kept", "{what}: output written");

                let mut u = gcm.unverified_decryptor(&[8u8; 12]).unwrap();
                u.aad(AAD).unwrap();
                let mut buf = ct.to_vec();
                u.update(&mut buf).unwrap();
                let r = no_panic(&what, || u.finish(&bad));
                assert!(is_tag_length_error(&r), "unverified {what}: {r:?}");
            }
        }
    }
}

/// The RustCrypto drop-ins fix the tag length in the type, so a wrong-length tag can reach
/// them only through ciphertext || tag; a cut or extended message is refused and the
/// in-place buffer left as each crate leaves it.
#[cfg(feature = "compat")]
#[test]
fn compat_facades_refuse_cut_and_extended_messages() {
    use aead::{Aead, AeadInOut, KeyInit};
    use gcmkit::compat::{aes_gcm, aes_gcm_siv};
    let g = aes_gcm::Aes256Gcm::new(&[1u8; 32].into());
    let s = aes_gcm_siv::Aes256GcmSiv::new(&[1u8; 32].into());
    let gn = aes_gcm::Nonce::from([2u8; 12]);
    let sn = aes_gcm_siv::Nonce::from([2u8; 12]);
    for len in LENGTHS {
        let pt = data(len, 16);
        for (name, sealed, open) in [
            (
                "aes_gcm",
                g.encrypt(&gn, pt.as_slice()).unwrap(),
                &(|c: &[u8]| g.decrypt(&gn, c)) as &dyn Fn(&[u8]) -> Result<Vec<u8>, aead::Error>,
            ),
            (
                "aes_gcm_siv",
                s.encrypt(&sn, pt.as_slice()).unwrap(),
                &|c: &[u8]| s.decrypt(&sn, c),
            ),
        ] {
            let (ct, tag) = sealed.split_at(len);
            for bad in wrong_tags(tag) {
                let joined = [ct, &bad].concat();
                let what = format!("{name}, {len}-byte message, {}-byte tag", bad.len());
                assert!(no_panic(&what, || open(&joined)).is_err(), "{what}");
            }
        }
        // In place through aead's Buffer: a cut message is refused and left as it was.
        let sealed = g.encrypt(&gn, pt.as_slice()).unwrap();
        for cut in 1..=16 {
            let mut buf = sealed[..sealed.len() - cut].to_vec();
            let before = buf.clone();
            assert!(g.decrypt_in_place(&gn, b"", &mut buf).is_err());
            assert_eq!(buf, before, "aes_gcm in place, {cut} bytes cut");
        }
        let sealed = s.encrypt(&sn, pt.as_slice()).unwrap();
        for cut in 1..=16 {
            let mut buf = sealed[..sealed.len() - cut].to_vec();
            assert!(s.decrypt_in_place(&sn, b"", &mut buf).is_err());
        }
    }
}

#[cfg(feature = "aead05")]
#[test]
fn compat05_facades_refuse_cut_and_extended_messages() {
    use gcmkit::compat05::aes_gcm::aead::{Aead, AeadInPlace, KeyInit};
    use gcmkit::compat05::{aes_gcm, aes_gcm_siv};
    let g = aes_gcm::Aes128Gcm::new(aes_gcm::Key::<aes_gcm::Aes128Gcm>::from_slice(&[1u8; 16]));
    let s = aes_gcm_siv::Aes128GcmSiv::new(
        aes_gcm_siv::Key::<aes_gcm_siv::Aes128GcmSiv>::from_slice(&[1u8; 16]),
    );
    let gn = aes_gcm::Nonce::from_slice(&[2u8; 12]);
    let sn = aes_gcm_siv::Nonce::from_slice(&[2u8; 12]);
    for len in LENGTHS {
        let pt = data(len, 17);
        let sealed = g.encrypt(gn, pt.as_slice()).unwrap();
        let (ct, tag) = sealed.split_at(len);
        for bad in wrong_tags(tag) {
            let joined = [ct, &bad].concat();
            assert!(g.decrypt(gn, joined.as_slice()).is_err(), "aes_gcm 0.10");
            let mut buf = joined.clone();
            assert!(g.decrypt_in_place(gn, b"", &mut buf).is_err());
        }
        let sealed = s.encrypt(sn, pt.as_slice()).unwrap();
        let (ct, tag) = sealed.split_at(len);
        for bad in wrong_tags(tag) {
            let joined = [ct, &bad].concat();
            assert!(
                s.decrypt(sn, joined.as_slice()).is_err(),
                "aes_gcm_siv 0.11"
            );
            let mut buf = joined.clone();
            assert!(s.decrypt_in_place(sn, b"", &mut buf).is_err());
        }
    }
}
