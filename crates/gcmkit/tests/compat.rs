//! `gcmkit::compat::{aes_gcm, aes_gcm_siv}`: every public item of RustCrypto's `aes-gcm`
//! 0.11 and `aes-gcm-siv` 0.12 reachable at the same names, each crate's failed-decryption
//! buffer contract, and known answers through the generic types (AES-192, nonces of 1 to
//! 128 bytes, tags of 12 to 16 bytes) against the crates themselves.

use aead::{Aead, AeadInOut, KeyInit, Payload};
use gcmkit::compat::{aes_gcm, aes_gcm_siv};

/// Every item `aes_gcm` 0.11 exports, by its name (a compile-time check).
#[allow(unused_imports)]
mod reachable {
    use gcmkit::compat::aes_gcm::{
        aead, aes, AeadCore, AeadInOut, Aes128Gcm, Aes256Gcm, AesGcm, Error, Key, KeyInit,
        KeySizeUser, Nonce, Tag, TagSize, A_MAX, P_MAX,
    };
    use gcmkit::compat::aes_gcm_siv::{
        aead as aead2, aes as aes2, AeadCore as C2, AeadInOut as I2, Aes128GcmSiv, Aes256GcmSiv,
        AesGcmSiv, Error as E2, Key as K2, KeyInit as KI2, KeySizeUser as KS2, Nonce as N2,
        Tag as T2, A_MAX as AM2, C_MAX, P_MAX as PM2,
    };
}

fn data(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

/// aes-gcm: a failed decryption leaves the buffer as it was, in place and into a separate
/// output; so a buffer can be tried under a new key, then the old one.
#[test]
fn aes_gcm_failure_leaves_the_buffer_unchanged() {
    let old = aes_gcm::Aes256Gcm::new(&[1u8; 32].into());
    let new = aes_gcm::Aes256Gcm::new(&[2u8; 32].into());
    let nonce = aes_gcm::Nonce::from([3u8; 12]);
    for len in [0usize, 1, 15, 16, 100, 112, 113, 5000] {
        let pt = data(len, 9);
        let mut buf = pt.clone();
        let tag = old
            .encrypt_inout_detached(&nonce, b"ad", buf.as_mut_slice().into())
            .unwrap();
        let ct = buf.clone();
        // Key rotation: the new key fails and leaves the ciphertext, the old one opens it.
        assert!(new
            .decrypt_inout_detached(&nonce, b"ad", buf.as_mut_slice().into(), &tag)
            .is_err());
        assert_eq!(buf, ct, "len {len}");
        old.decrypt_inout_detached(&nonce, b"ad", buf.as_mut_slice().into(), &tag)
            .unwrap();
        assert_eq!(buf, pt);
        // Separate input and output: the output is not written unless the tag verified.
        let mut out = vec![0xeeu8; len];
        let io = aead::inout::InOutBuf::new(&ct, &mut out).unwrap();
        assert!(new.decrypt_inout_detached(&nonce, b"ad", io, &tag).is_err());
        assert!(out.iter().all(|&b| b == 0xee));
        let io = aead::inout::InOutBuf::new(&ct, &mut out).unwrap();
        old.decrypt_inout_detached(&nonce, b"ad", io, &tag).unwrap();
        assert_eq!(out, pt);
    }
}

/// aes-gcm-siv: a failed decryption restores the ciphertext (small-message kernel and
/// general path alike).
#[test]
fn aes_gcm_siv_failure_restores_the_ciphertext() {
    let k = aes_gcm_siv::Aes128GcmSiv::new(&[4u8; 16].into());
    let other = aes_gcm_siv::Aes128GcmSiv::new(&[5u8; 16].into());
    let nonce = aes_gcm_siv::Nonce::from([6u8; 12]);
    for len in [0usize, 1, 16, 100, 144, 160, 1000, 1100, 1200, 5000, 70_000] {
        let pt = data(len, 2);
        let mut buf = pt.clone();
        let tag = k
            .encrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into())
            .unwrap();
        let ct = buf.clone();
        assert!(other
            .decrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into(), &tag)
            .is_err());
        assert_eq!(buf, ct, "len {len}");
        k.decrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into(), &tag)
            .unwrap();
        assert_eq!(buf, pt);
    }
}

/// The generic types against the crates: AES-192, nonce sizes 1, 8, 12, 16, 24, 128 bytes,
/// tag sizes 12 to 16.
#[test]
fn generic_types_match_the_crates() {
    use aead::consts::{U1, U12, U128, U13, U14, U15, U16, U24, U8};
    macro_rules! check {
        ($aes:ty, $key:expr, $n:ty, $t:ty) => {{
            let ours = aes_gcm::AesGcm::<$aes, $n, $t>::new_from_slice(&$key).unwrap();
            let theirs = ::aes_gcm::AesGcm::<$aes, $n, $t>::new_from_slice(&$key).unwrap();
            let nonce = aead::array::Array::<u8, $n>::from_fn(|i| i as u8);
            for len in [0usize, 17, 300] {
                let (msg, aad) = (data(len, 1), data(len / 3, 7));
                let p = || Payload {
                    msg: &msg,
                    aad: &aad,
                };
                let want = theirs.encrypt(&nonce, p()).unwrap();
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
    check!(aes::Aes192, key[..24], U12, U16);
    check!(aes::Aes128, key[..16], U1, U16);
    check!(aes::Aes128, key[..16], U8, U16);
    check!(aes::Aes256, key, U16, U16);
    check!(aes::Aes192, key[..24], U24, U16);
    check!(aes::Aes128, key[..16], U128, U16);
    check!(aes::Aes128, key[..16], U12, U12);
    check!(aes::Aes256, key, U12, U13);
    check!(aes::Aes128, key[..16], U12, U14);
    check!(aes::Aes192, key[..24], U12, U15);
    // AES-192-GCM-SIV through the generic type.
    let ours = aes_gcm_siv::AesGcmSiv::<aes::Aes192>::new_from_slice(&key[..24]).unwrap();
    let theirs = ::aes_gcm_siv::AesGcmSiv::<aes::Aes192>::new_from_slice(&key[..24]).unwrap();
    let nonce = aes_gcm_siv::Nonce::from([9u8; 12]);
    for len in [0usize, 33, 2000] {
        let msg = data(len, 3);
        let want = theirs.encrypt(&nonce, msg.as_slice()).unwrap();
        assert_eq!(ours.encrypt(&nonce, msg.as_slice()).unwrap(), want);
        assert_eq!(ours.decrypt(&nonce, want.as_slice()).unwrap(), msg);
    }
}

/// Run by `a_bad_engine_variable_fails_the_native_api_and_the_facades_alike` in a child
/// process with `GCMKIT_ENGINE` set to the name in `GCMKIT_TEST_BAD_ENGINE` (the variable
/// is read once per process); on its own, without that variable, it has nothing to check.
#[test]
fn bad_engine_variable_child() {
    let Ok(name) = std::env::var("GCMKIT_TEST_BAD_ENGINE") else {
        return;
    };
    assert_eq!(std::env::var("GCMKIT_ENGINE").as_deref(), Ok(name.as_str()));
    let native = gcmkit::AesGcm::new(&[1u8; 16]).unwrap_err().to_string();
    assert!(native.contains("GCMKIT_ENGINE"), "{native}");
    let siv = gcmkit::AesGcmSiv::new(&[1u8; 16]).unwrap_err().to_string();
    assert_eq!(siv, native);
    assert_eq!(gcmkit::Engine::selected().unwrap_err().to_string(), native);
    // The facades cannot fail at `new`: every operation fails instead, and a failed
    // in-place decryption leaves the buffer as it was (the crates' contract).
    let gcm = gcmkit::compat::aes_gcm::Aes128Gcm::new(&[1u8; 16].into());
    assert!(gcm.encrypt(&[0u8; 12].into(), &b"m"[..]).is_err());
    assert!(gcm.decrypt(&[0u8; 12].into(), &[0u8; 17][..]).is_err());
    let siv = gcmkit::compat::aes_gcm_siv::Aes256GcmSiv::new(&[1u8; 32].into());
    assert!(siv.encrypt(&[0u8; 12].into(), &b"m"[..]).is_err());
    assert!(siv.decrypt(&[0u8; 12].into(), &[0u8; 17][..]).is_err());
    println!("checked GCMKIT_ENGINE={name}");
}

/// A `GCMKIT_ENGINE` that names no engine, or another architecture's, is one error naming
/// the variable everywhere: every native `new` fails with it and every operation of the
/// compat facades fails (never a silent fallback to the portable engine).
#[test]
fn a_bad_engine_variable_fails_the_native_api_and_the_facades_alike() {
    #[cfg(target_arch = "aarch64")]
    let foreign = "aesni";
    #[cfg(not(target_arch = "aarch64"))]
    let foreign = "armv8";
    for name in ["warp-drive", foreign] {
        // Under an emulator (scripts/test-aarch64.sh's qemu-user), the child runs through
        // it too: GCMKIT_TEST_RUNNER is its command line.
        let runner = std::env::var("GCMKIT_TEST_RUNNER").unwrap_or_default();
        let mut words: Vec<String> = runner.split_whitespace().map(String::from).collect();
        words.push(std::env::current_exe().unwrap().display().to_string());
        let out = std::process::Command::new(&words[0])
            .args(&words[1..])
            .args([
                "--exact",
                "bad_engine_variable_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("GCMKIT_ENGINE", name)
            .env("GCMKIT_TEST_BAD_ENGINE", name)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains(&format!("checked GCMKIT_ENGINE={name}")),
            "{name}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
