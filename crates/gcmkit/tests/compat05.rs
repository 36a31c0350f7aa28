//! `gcmkit::compat05::{aes_gcm, aes_gcm_siv}` (feature `aead05`): every public item of
//! RustCrypto's `aes-gcm` 0.10 and `aes-gcm-siv` 0.11 at the same names, each crate's
//! failed-decryption contract, and known answers through the generic types against the
//! crates themselves. `make test` runs it (`--all-features`).
#![cfg(feature = "aead05")]

use gcmkit::compat05::aes_gcm::aead::{Aead, AeadInPlace, KeyInit, Payload};
use gcmkit::compat05::{aes_gcm, aes_gcm_siv};

#[allow(unused_imports)]
mod reachable {
    use gcmkit::compat05::aes_gcm::{
        aead, aes, AeadCore, AeadInPlace, Aes128Gcm, Aes256Gcm, AesGcm, Error, Key, KeyInit,
        KeySizeUser, Nonce, Tag, TagSize, A_MAX, C_MAX, P_MAX,
    };
    use gcmkit::compat05::aes_gcm_siv::{
        aead as aead2, aes as aes2, AeadCore as C2, AeadInPlace as I2, Aes128GcmSiv, Aes256GcmSiv,
        AesGcmSiv, Error as E2, Key as K2, KeyInit as KI2, KeySizeUser as KS2, Nonce as N2,
        Tag as T2, A_MAX as AM2, C_MAX as CM2, P_MAX as PM2,
    };
}

fn data(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(29).wrapping_add(seed))
        .collect()
}

#[test]
fn failed_decryption_contracts() {
    let nonce = aes_gcm::Nonce::from_slice(&[3u8; 12]);
    let (old, new) = (
        aes_gcm::Aes128Gcm::new_from_slice(&[1u8; 16]).unwrap(),
        aes_gcm::Aes128Gcm::new_from_slice(&[2u8; 16]).unwrap(),
    );
    let (sold, snew) = (
        aes_gcm_siv::Aes256GcmSiv::new_from_slice(&[1u8; 32]).unwrap(),
        aes_gcm_siv::Aes256GcmSiv::new_from_slice(&[2u8; 32]).unwrap(),
    );
    for len in [0usize, 1, 16, 112, 113, 1500, 70_000] {
        let pt = data(len, 1);
        let mut buf = pt.clone();
        let tag = old
            .encrypt_in_place_detached(nonce, b"a", &mut buf)
            .unwrap();
        let ct = buf.clone();
        assert!(new
            .decrypt_in_place_detached(nonce, b"a", &mut buf, &tag)
            .is_err());
        assert_eq!(buf, ct, "aes-gcm leaves the buffer unchanged, len {len}");
        old.decrypt_in_place_detached(nonce, b"a", &mut buf, &tag)
            .unwrap();
        assert_eq!(buf, pt);
        let mut buf = pt.clone();
        let tag = sold
            .encrypt_in_place_detached(nonce, b"a", &mut buf)
            .unwrap();
        let ct = buf.clone();
        assert!(snew
            .decrypt_in_place_detached(nonce, b"a", &mut buf, &tag)
            .is_err());
        assert_eq!(buf, ct, "aes-gcm-siv restores the ciphertext, len {len}");
        sold.decrypt_in_place_detached(nonce, b"a", &mut buf, &tag)
            .unwrap();
        assert_eq!(buf, pt);
    }
}

#[test]
fn generic_types_match_the_crates() {
    use gcmkit::compat05::aes_gcm::aead::consts::{U1, U12, U13, U16, U24, U64};
    use gcmkit::compat05::aes_gcm::aead::generic_array::GenericArray;
    use gcmkit::compat05::aes_gcm::aes::{Aes128, Aes192, Aes256};
    macro_rules! check {
        ($aes:ty, $key:expr, $n:ty, $t:ty) => {{
            let ours = aes_gcm::AesGcm::<$aes, $n, $t>::new_from_slice(&$key).unwrap();
            let theirs = aes_gcm_010::AesGcm::<$aes, $n, $t>::new_from_slice(&$key).unwrap();
            let nonce = GenericArray::<u8, $n>::from_exact_iter(
                (0..).take(<$n as aes_gcm_010::aead::generic_array::typenum::Unsigned>::USIZE),
            )
            .unwrap();
            for len in [0usize, 17, 300] {
                let (msg, aad) = (data(len, 1), data(len / 3, 7));
                let p = || Payload {
                    msg: &msg,
                    aad: &aad,
                };
                let want = aes_gcm_010::aead::Aead::encrypt(&theirs, &nonce, p()).unwrap();
                assert_eq!(ours.encrypt(&nonce, p()).unwrap(), want);
                let p = Payload {
                    msg: &want,
                    aad: &aad,
                };
                assert_eq!(ours.decrypt(&nonce, p).unwrap(), msg);
            }
        }};
    }
    let key = data(32, 5);
    check!(Aes192, key[..24], U12, U16);
    check!(Aes128, key[..16], U1, U16);
    check!(Aes256, key, U24, U16);
    check!(Aes128, key[..16], U64, U16);
    check!(Aes128, key[..16], U12, U12);
    check!(Aes192, key[..24], U12, U13);
    let ours = aes_gcm_siv::AesGcmSiv::<Aes256>::new_from_slice(&key).unwrap();
    let theirs = aes_gcm_siv_011::AesGcmSiv::<Aes256>::new_from_slice(&key).unwrap();
    let nonce = aes_gcm_siv::Nonce::from_slice(&[9u8; 12]);
    for len in [0usize, 33, 2000] {
        let msg = data(len, 3);
        let want = aes_gcm_010::aead::Aead::encrypt(&theirs, nonce, msg.as_slice()).unwrap();
        assert_eq!(ours.encrypt(nonce, msg.as_slice()).unwrap(), want);
        assert_eq!(ours.decrypt(nonce, want.as_slice()).unwrap(), msg);
    }
}
