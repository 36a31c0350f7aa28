//! XAES-256-GCM (c2sp.org/XAES-256-GCM v1.0) and DNDK-GCM (draft-gueron-cfrg-dndkgcm-03):
//! the published vectors, the spec's accumulated randomized test, and differential checks
//! against independent implementations (RustCrypto's `xaes-256-gcm` crate; DNDK-GCM's
//! derivation written from the draft over RustCrypto's `aes` and `aes-gcm`), on every
//! engine this CPU has.

mod common;
use common::{engines, unhex};
use gcmkit::{AeadMode, DndkGcm, Error, XAes256Gcm};
use proptest::prelude::*;
use sha3::digest::{ExtendableOutput, Update, XofReader};

const N: &[u8; 24] = b"ABCDEFGHIJKLMNOPQRSTUVWX";

/// The spec's two vectors (MSB(L) = 0, then 1), on every engine and every entry point.
#[test]
fn xaes_c2sp_vectors() {
    let cases = [
        (
            [0x01u8; 32],
            &b""[..],
            "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271",
        ),
        (
            [0x03u8; 32],
            &b"c2sp.org/XAES-256-GCM"[..],
            "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d",
        ),
    ];
    for e in engines() {
        for (key, aad, want) in cases {
            let x = XAes256Gcm::with_engine(&key, e).unwrap();
            let want = unhex(want);
            assert_eq!(x.encrypt(N, b"XAES-256-GCM", aad).unwrap(), want, "{e:?}");
            assert_eq!(x.decrypt(N, &want, aad).unwrap(), b"XAES-256-GCM");
            let mut out = vec![0u8; want.len()];
            x.encrypt_into(N, b"XAES-256-GCM", aad, &mut out).unwrap();
            assert_eq!(out, want);
            let mut back = [0u8; 12];
            x.decrypt_into(N, &want, aad, &mut back).unwrap();
            assert_eq!(&back, b"XAES-256-GCM");
        }
    }
}

/// The spec's accumulated randomized test: key, nonce, plaintext<0..255> and aad<0..255>
/// read from SHAKE-128(""), every ciphertext absorbed into a second SHAKE-128.
fn accumulated(x_for: impl Fn(&[u8]) -> XAes256Gcm, iterations: usize) -> String {
    let mut rng = sha3::Shake128::default().finalize_xof();
    let mut acc = sha3::Shake128::default();
    let mut first = [0u8; 16];
    for i in 0..iterations {
        let (mut key, mut nonce, mut n) = ([0u8; 32], [0u8; 24], [0u8; 1]);
        rng.read(&mut key);
        if i == 0 {
            first.copy_from_slice(&key[..16]);
            assert_eq!(hex::encode(first), "7f9c2ba4e88f827d616045507605853e");
        }
        rng.read(&mut nonce);
        rng.read(&mut n);
        let mut pt = vec![0u8; n[0] as usize];
        rng.read(&mut pt);
        rng.read(&mut n);
        let mut aad = vec![0u8; n[0] as usize];
        rng.read(&mut aad);
        let x = x_for(&key);
        let ct = x.encrypt(&nonce, &pt, &aad).unwrap();
        acc.update(&ct);
        assert_eq!(x.decrypt(&nonce, &ct, &aad).unwrap(), pt);
    }
    let mut out = [0u8; 32];
    acc.finalize_xof().read(&mut out);
    hex::encode(out)
}

#[test]
fn xaes_accumulated_10000() {
    for e in engines() {
        let h = accumulated(|k| XAes256Gcm::with_engine(k, e).unwrap(), 10_000);
        assert_eq!(
            h, "e6b9edf2df6cec60c8cbd864e2211b597fb69a529160cd040d56c0c210081939",
            "{e:?}"
        );
    }
}

/// The spec's 1 000 000-iteration hash (about 70 s for every engine of a Zen 4 in the test build, in make release-checks):
/// `cargo test --release --test derived_keys -- --ignored`.
#[test]
#[ignore]
fn xaes_accumulated_1000000() {
    for e in engines() {
        let h = accumulated(|k| XAes256Gcm::with_engine(k, e).unwrap(), 1_000_000);
        assert_eq!(
            h, "2163ae1445985a30b60585ee67daa55674df06901b890593e824b8a7c885ab15",
            "{e:?}"
        );
    }
}

/// draft-gueron-cfrg-dndkgcm-03, Appendix A: root key 01 00.., plaintext 11000001,
/// AAD 0100000011, LN = 24 and 12, with and without key commitment.
#[test]
fn dndk_draft_vectors() {
    let key = unhex("0100000000000000000000000000000000000000000000000000000000000000");
    let (n24, n12) = (
        unhex("000102030405060708090a0b0c0d0e0f1011121314151617"),
        unhex("000102030405060708090a0b"),
    );
    let cases: [(&[u8], bool, &str, &str, &str); 4] = [
        (
            &n24,
            true,
            "8eee8a4b",
            "8a1c8d0ceb7e07e3c834cafe75aa001f",
            "2baf00efd298de13055c9a6c39e05aee571583384357635e144fa21444239968",
        ),
        (
            &n24,
            false,
            "7f6e39cc",
            "b61df0a502c167164e99fa23b7d12b9d",
            "",
        ),
        (
            &n12,
            true,
            "1915d0bd",
            "187b392eeb9b231a57a852db20e02201",
            "675fb3ec6d0e56002333c2504d1b70db47c3713775999c9600bedcfda76f8d8c",
        ),
        (
            &n12,
            false,
            "b95cf258",
            "39e74511d997eaafd0f567d13758305b",
            "",
        ),
    ];
    let (pt, aad) = (unhex("11000001"), unhex("0100000011"));
    for e in engines() {
        for (nonce, commit, ct, tag, kc) in cases {
            let mut d = DndkGcm::with_engine(&key, e)
                .unwrap()
                .with_nonce_len(nonce.len())
                .unwrap();
            if commit {
                d = d.with_key_commitment();
            }
            let want = unhex(&format!("{ct}{tag}{kc}"));
            assert_eq!(
                d.encrypt(nonce, &pt, &aad).unwrap(),
                want,
                "{e:?} LN={} kc={commit}",
                nonce.len()
            );
            assert_eq!(d.decrypt(nonce, &want, &aad).unwrap(), pt);
        }
    }
}

/// DNDK-GCM written from the draft over RustCrypto's AES-256 and AES-256-GCM.
fn dndk_reference(key: &[u8], nonce: &[u8], commit: bool, pt: &[u8], aad: &[u8]) -> Vec<u8> {
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    use aes_gcm::aead::{Aead, Payload};
    let aes = aes::Aes256::new_from_slice(key).unwrap();
    let mut padded = [0u8; 27];
    padded[..nonce.len()].copy_from_slice(nonce);
    let config = if commit { 128 } else { 0 } + 8 * (nonce.len() as u8 - 12);
    let x: Vec<[u8; 16]> = (0..5u8)
        .map(|i| {
            let mut b = [0u8; 16];
            b[..15].copy_from_slice(&padded[..15]);
            b[15] = config + i;
            let mut blk = b.into();
            aes.encrypt_block(&mut blk);
            blk.into()
        })
        .collect();
    let y = |i: usize| -> Vec<u8> { x[i].iter().zip(x[0]).map(|(a, b)| a ^ b).collect() };
    let dk = [y(1), y(2)].concat();
    let gcm = aes_gcm::Aes256Gcm::new_from_slice(&dk).unwrap();
    let mut out = gcm
        .encrypt(padded[15..].try_into().unwrap(), Payload { msg: pt, aad })
        .unwrap();
    if commit {
        out.extend(y(3));
        out.extend(y(4));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// XAES-256-GCM against RustCrypto's `xaes-256-gcm`, DNDK-GCM against the reference
    /// above, across the small-message kernel, the batch sizes and tails.
    #[test]
    fn derived_match_independent_implementations(
        key in any::<[u8; 32]>(),
        nonce in proptest::collection::vec(any::<u8>(), 27),
        ln in 12usize..=27,
        commit in any::<bool>(),
        pt in proptest::collection::vec(any::<u8>(), 0..1200),
        aad in proptest::collection::vec(any::<u8>(), 0..80),
    ) {
        use xaes_256_gcm::aead::{Aead, KeyInit, Payload};
        let peer = xaes_256_gcm::Xaes256Gcm::new(&key.into());
        let n24: [u8; 24] = nonce[..24].try_into().unwrap();
        let want = peer.encrypt(&n24.into(), Payload { msg: &pt, aad: &aad }).unwrap();
        let dndk_want = dndk_reference(&key, &nonce[..ln], commit, &pt, &aad);
        for e in engines() {
            let x = XAes256Gcm::with_engine(&key, e).unwrap();
            prop_assert_eq!(&x.encrypt(&n24, &pt, &aad).unwrap(), &want);
            prop_assert_eq!(&x.decrypt(&n24, &want, &aad).unwrap(), &pt);
            let mut d = DndkGcm::with_engine(&key, e).unwrap().with_nonce_len(ln).unwrap();
            if commit {
                d = d.with_key_commitment();
            }
            prop_assert_eq!(&d.encrypt(&nonce[..ln], &pt, &aad).unwrap(), &dndk_want);
            prop_assert_eq!(&d.decrypt(&nonce[..ln], &dndk_want, &aad).unwrap(), &pt);
        }
    }
}

/// Large messages take the stitched kernels with per-message powers of H: every size
/// around the batch and power tiers matches the peer.
#[test]
fn xaes_large_sizes_match_peer() {
    use xaes_256_gcm::aead::{Aead, KeyInit, Payload};
    let key = [0x5au8; 32];
    let peer = xaes_256_gcm::Xaes256Gcm::new(&key.into());
    for len in [511, 512, 513, 2032, 2048, 8191, 8192, 65_536 + 17] {
        let pt: Vec<u8> = (0..len).map(|i| i as u8).collect();
        for aad_len in [0, 300] {
            let aad = vec![7u8; aad_len];
            let want = peer
                .encrypt(
                    N.into(),
                    Payload {
                        msg: &pt,
                        aad: &aad,
                    },
                )
                .unwrap();
            for e in engines() {
                let x = XAes256Gcm::with_engine(&key, e).unwrap();
                assert_eq!(
                    x.encrypt(N, &pt, &aad).unwrap(),
                    want,
                    "{e:?} {len} {aad_len}"
                );
            }
        }
    }
}

/// Wrong lengths are typed errors; a failed decryption (wrong tag, wrong commitment,
/// wrong nonce length) zeroes the buffer.
#[test]
fn derived_errors_and_failed_decryption() {
    assert!(matches!(
        XAes256Gcm::new(&[0; 16]),
        Err(Error::InvalidKeyLength { got: 16, .. })
    ));
    assert!(matches!(
        DndkGcm::new(&[0; 31]),
        Err(Error::InvalidKeyLength { got: 31, .. })
    ));
    for bad in [11, 28, 0] {
        assert!(matches!(
            DndkGcm::new(&[0; 32]).unwrap().with_nonce_len(bad),
            Err(Error::InvalidNonceLength { .. })
        ));
    }
    for e in engines() {
        let x = XAes256Gcm::with_engine(&[9; 32], e).unwrap();
        assert!(matches!(
            x.encrypt(&[0; 12], b"m", b""),
            Err(Error::InvalidNonceLength { got: 12, .. })
        ));
        let d = DndkGcm::with_engine(&[9; 32], e)
            .unwrap()
            .with_key_commitment();
        assert_eq!(d.tag_len(), 48);
        let nonce = [1u8; 24];
        let mut buf = *b"secret message";
        let tag = d.encrypt_in_place_detached(&nonce, b"", &mut buf).unwrap();
        let ct = buf;
        // A wrong commitment, a wrong GCM tag, a wrong nonce length: zeroed each time.
        for flip in [0usize, 20, 47] {
            let mut t = tag.as_ref().to_vec();
            t[flip] ^= 1;
            let mut b = ct;
            assert_eq!(
                d.decrypt_in_place_detached(&nonce, b"", &mut b, &t),
                Err(Error::AuthenticationFailed)
            );
            assert_eq!(b, [0u8; 14]);
        }
        let mut b = ct;
        assert!(d
            .decrypt_in_place_detached(&nonce[..12], b"", &mut b, tag.as_ref())
            .is_err());
        assert_eq!(b, [0u8; 14]);
        // Key commitment: the same ciphertext and GCM tag under another key is rejected.
        let other = DndkGcm::with_engine(&[8; 32], e)
            .unwrap()
            .with_key_commitment();
        let mut b = ct;
        assert!(other
            .decrypt_in_place_detached(&nonce, b"", &mut b, tag.as_ref())
            .is_err());
        let mut b = ct;
        d.decrypt_in_place_detached(&nonce, b"", &mut b, tag.as_ref())
            .unwrap();
        assert_eq!(&b, b"secret message");
    }
}
