//! The peers' calls, each made ready on a buffer of the size raced.

/// A peer's call on a buffer of the given size, made ready.
pub type PeerCall = fn(usize) -> Box<dyn FnMut()>;

/// ring's AES-128-GCM `seal_in_place_separate_tag` (its assembly, in every build).
pub fn ring_seal(size: usize) -> Box<dyn FnMut()> {
    use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_128_GCM};
    let key = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, &[7u8; 16]).unwrap());
    let mut buf = vec![1u8; size];
    Box::new(move || {
        let n = Nonce::assume_unique_for_key([3u8; 12]);
        let tag = key
            .seal_in_place_separate_tag(n, Aad::empty(), &mut buf)
            .unwrap();
        let _ = std::hint::black_box(tag);
    })
}

/// A RustCrypto AEAD's (aead 0.6) in-place encryption of `size` bytes under a fixed
/// nonce, with the key `key`.
fn rustcrypto<C: aes_gcm::aead::AeadInOut + aes_gcm::aead::KeyInit + 'static>(
    key: &[u8],
    size: usize,
) -> Box<dyn FnMut()> {
    let c = C::new_from_slice(key).unwrap();
    let nonce = aes_gcm::aead::Nonce::<C>::try_from(&[3u8; 12][..]).unwrap();
    let mut buf = vec![1u8; size];
    Box::new(move || {
        let tag = c
            .encrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into())
            .unwrap();
        let _ = std::hint::black_box(tag);
    })
}

/// RustCrypto's `aes-gcm` AES-128-GCM.
pub fn rustcrypto_gcm(size: usize) -> Box<dyn FnMut()> {
    rustcrypto::<aes_gcm::Aes128Gcm>(&[7u8; 16], size)
}

/// RustCrypto's `aes-gcm-siv` AES-256-GCM-SIV.
pub fn rustcrypto_siv(size: usize) -> Box<dyn FnMut()> {
    rustcrypto::<aes_gcm_siv::Aes256GcmSiv>(&[7u8; 32], size)
}

/// Whether RustCrypto's AES runs on its software backend here: built with
/// `--cfg aes_backend="soft"` (as `make bench-portable` builds it), or on a CPU without
/// AES instructions, where its run-time detection falls back to it. Only then is it a
/// peer of gcmkit's portable engine.
pub fn rustcrypto_is_soft() -> bool {
    if cfg!(aes_backend = "soft") {
        return true;
    }
    #[cfg(target_arch = "x86_64")]
    {
        !std::arch::is_x86_feature_detected!("aes")
    }
    #[cfg(target_arch = "aarch64")]
    {
        !std::arch::is_aarch64_feature_detected!("aes")
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        true
    }
}
