//! Users of RustCrypto's `aes-gcm` / `aes-gcm-siv` switch by changing an import: the same
//! generic code runs against both and agrees byte for byte.

use aes_gcm::aead::{Aead, AeadInOut, KeyInit, Payload};

/// Code written once against the `aead` traits.
fn seal_open<C: Aead + AeadInOut + KeyInit>(key: &[u8]) -> Vec<u8> {
    let c = C::new_from_slice(key).unwrap();
    let nonce = aes_gcm::aead::Nonce::<C>::try_from(&[7u8; 12][..]).unwrap();
    let ct = c
        .encrypt(
            &nonce,
            Payload {
                msg: b"switch by changing an import",
                aad: b"hdr",
            },
        )
        .unwrap();
    let pt = c
        .decrypt(
            &nonce,
            Payload {
                msg: &ct,
                aad: b"hdr",
            },
        )
        .unwrap();
    assert_eq!(pt, b"switch by changing an import");
    let mut bad = ct.clone();
    bad[0] ^= 1;
    assert!(c
        .decrypt(
            &nonce,
            Payload {
                msg: &bad,
                aad: b"hdr"
            }
        )
        .is_err());
    ct
}

#[test]
fn gcmkit_types_are_drop_in_replacements() {
    let k16 = [1u8; 16];
    let k32 = [2u8; 32];
    assert_eq!(
        seal_open::<gcmkit::Aes128Gcm>(&k16),
        seal_open::<aes_gcm::Aes128Gcm>(&k16)
    );
    assert_eq!(
        seal_open::<gcmkit::Aes256Gcm>(&k32),
        seal_open::<aes_gcm::Aes256Gcm>(&k32)
    );
    assert_eq!(
        seal_open::<gcmkit::Aes128GcmSiv>(&k16),
        seal_open::<aes_gcm_siv::Aes128GcmSiv>(&k16)
    );
    assert_eq!(
        seal_open::<gcmkit::Aes256GcmSiv>(&k32),
        seal_open::<aes_gcm_siv::Aes256GcmSiv>(&k32)
    );
}
