//! `gcmkit-ct-check ct|leaky|taint|control|dudect` (see `run.sh`, `make ct-check`).
//!
//! `taint <engine>` (`taint.rs`) and `control <name> <engine>`: every public entry on one
//! engine, built with MemorySanitizer (every engine, avx2 and avx512 included).
//!
//! `ct`: every algorithm on the engines valgrind can execute (portable; aesni, which is the
//! width-generic kernel source instantiated at one 128-bit lane), with keys, plaintexts
//! and tags marked secret. memcheck must report nothing.
//! `leaky`: a deliberately leaky function (secret-indexed table, secret-dependent branch);
//! memcheck must report it, proving the check can fail.

mod dudect;
mod mark;
mod taint;

use gcmkit::AeadMode;
use gcmkit::{AesGcm, AesGcmSiv, Engine, GcmSiv2015, Gmac};
use mark::{public, secret};

fn check_engine(e: Engine) {
    for len in [0usize, 1, 15, 16, 17, 64, 200, 1000, 5000] {
        let mut key = [0x11u8; 32];
        secret(&mut key);
        let nonce = [7u8; 12];
        let aad = [3u8; 20];
        let mut buf = vec![0x42u8; len];
        secret(&mut buf);

        // AES-GCM, all key sizes: encrypt, decrypt (valid), decrypt (forged).
        for klen in [16, 24, 32] {
            let gcm = AesGcm::with_engine(&key[..klen], e).unwrap();
            let tag = gcm
                .encrypt_in_place_detached(&nonce, &aad, &mut buf)
                .unwrap();
            let mut t = tag.as_ref().to_vec();
            public(&mut buf); // ciphertext and tag are public
            public(&mut t);
            assert!(gcm
                .decrypt_in_place_detached(&nonce, &aad, &mut buf, &t)
                .is_ok());
            secret(&mut buf);
            let tag = gcm
                .encrypt_in_place_detached(&[9u8; 13], &aad, &mut buf)
                .unwrap();
            let mut t = tag.as_ref().to_vec();
            t[0] ^= 1;
            public(&mut buf);
            assert!(gcm
                .decrypt_in_place_detached(&[9u8; 13], &aad, &mut buf, &t)
                .is_err());
            secret(&mut buf);
        }
        // AES-GCM-SIV (secret plaintext decides the tag and the counters).
        let siv = AesGcmSiv::with_engine(&key[..16], e).unwrap();
        let tag = siv
            .encrypt_in_place_detached(&nonce, &aad, &mut buf)
            .unwrap();
        let mut t = tag.as_ref().to_vec();
        public(&mut buf);
        public(&mut t);
        assert!(siv
            .decrypt_in_place_detached(&nonce, &aad, &mut buf, &t)
            .is_ok());
        secret(&mut buf);
        // GCM-SIV (2015), three-key, k = 8.
        let g = GcmSiv2015::with_engine(
            gcmkit::GcmSiv2015Variant::ThreeKey,
            &key[..16],
            &key[..16],
            Some(&key[16..]),
            e,
        )
        .unwrap();
        let g = g.with_counter_bits(8).unwrap();
        if len < 255 * 16 {
            let tag = g.encrypt_in_place_detached(&nonce, &aad, &mut buf).unwrap();
            let mut t = tag.as_ref().to_vec();
            public(&mut buf);
            public(&mut t);
            assert!(g
                .decrypt_in_place_detached(&nonce, &aad, &mut buf, &t)
                .is_ok());
            secret(&mut buf);
        }
        // XAES-256-GCM and DNDK-GCM with key commitment: the per-message key derivation,
        // schedule and powers of H run on the secret root key.
        let x = gcmkit::XAes256Gcm::with_engine(&key, e).unwrap();
        let d = gcmkit::DndkGcm::with_engine(&key, e)
            .unwrap()
            .with_key_commitment();
        for c in [&x as &dyn AeadMode, &d] {
            let n24 = [6u8; 24];
            let tag = c.encrypt_in_place_detached(&n24, &aad, &mut buf).unwrap();
            let mut t = tag.as_ref().to_vec();
            public(&mut buf);
            public(&mut t);
            assert!(c
                .decrypt_in_place_detached(&n24, &aad, &mut buf, &t)
                .is_ok());
            secret(&mut buf);
        }
        // GMAC over secret data.
        let m = Gmac::with_engine(&key[..16], e).unwrap();
        let tag = m.compute(&nonce, &buf).unwrap();
        let mut t = tag.as_ref().to_vec();
        public(&mut t);
        assert!(m.verify(&nonce, &buf, &t).is_ok());
    }
    // Cobblestone (uses the engine named by GCMKIT_ENGINE).
    let mut key = [5u8; 16];
    secret(&mut key);
    let mut pt = vec![1u8; 40_000];
    secret(&mut pt);
    let mut ct = gcmkit::chunked::encrypt(&key, b"ctx", &pt).unwrap();
    public(&mut ct);
    let mut back = gcmkit::chunked::decrypt(&key, b"ctx", &ct).unwrap();
    public(&mut back);
    assert_eq!(back.len(), pt.len());
}

/// The negative control: a classic cache-timing leak (table indexed by a secret byte) and
/// a secret-dependent branch.
#[inline(never)]
fn leaky(secret_byte: u8, table: &[u8; 256]) -> u8 {
    let v = table[secret_byte as usize];
    if v > 128 {
        v.wrapping_mul(3)
    } else {
        v
    }
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    match mode.as_str() {
        "ct" => {
            for e in [Engine::Portable, Engine::Aesni] {
                if e.is_supported() {
                    check_engine(e);
                    println!("checked engine {}", e.name());
                }
            }
        }
        "leaky" => {
            let table: [u8; 256] = core::array::from_fn(|i| (i * 7) as u8);
            let mut s = [0x9au8];
            secret(&mut s);
            let mut r = [leaky(s[0], &table)];
            public(&mut r);
            println!("leaky function ran ({})", r[0]);
        }
        "engines" => {
            for e in Engine::supported() {
                println!("{}", e.name());
            }
        }
        "taint" => {
            let e = engine_arg(2);
            taint::run(e);
        }
        #[cfg(gcmkit_ct_control)]
        "control" => {
            let name = std::env::args().nth(2).unwrap_or_default();
            taint::control(&name, engine_arg(3));
        }
        "dudect-null" => {
            let runs = std::env::args()
                .nth(2)
                .and_then(|n| n.parse().ok())
                .unwrap_or(100);
            dudect::null(runs);
        }
        "dudect" => {
            if !dudect::run() {
                std::process::exit(1);
            }
            println!(
                "dudect: no timing dependence found above |t| = {}",
                dudect::THRESHOLD
            );
        }
        _ => {
            eprintln!(
                "usage: gcmkit-ct-check ct|leaky|dudect|taint <engine>|control <name> <engine>"
            );
            std::process::exit(2);
        }
    }
}

/// The engine named by argument `i`, which must be supported here.
fn engine_arg(i: usize) -> Engine {
    let name = std::env::args().nth(i).unwrap_or_default();
    let e = Engine::from_name(&name).unwrap_or_else(|err| panic!("engine {name:?}: {err}"));
    assert!(
        e.is_supported(),
        "engine {name} is not supported on this CPU"
    );
    e
}
