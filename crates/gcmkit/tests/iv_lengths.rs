//! AES-GCM with every IV length from 1 to 256 bytes against RustCrypto's `aes-gcm`, an
//! implementation written apart from gcmkit (its own GHASH from the `ghash` crate, its own
//! J0 and length block). The suites that already try odd IV lengths compare gcmkit with
//! itself (`TableAesGcm` shares `iv_block`, the counter and the length block), so a fault
//! in that shared code would pass them; NIST's files stop at 128-byte IVs.
//!
//! RustCrypto fixes the nonce size in the type (`AesGcm<Aes, NonceSize>`), so the test
//! instantiates it for each of the 256 sizes (a macro builds the table; 768 instances
//! with the three key sizes, which add seconds, not minutes, to this suite's build).
//! Every engine this CPU has (`common::engines()`), every key size, plaintext and AAD
//! lengths across the block boundaries, and every encryption form: one-shot, in place,
//! `encrypt_into`, `encrypt_parts_into` (the rustls record path), on-line; decryption of
//! the reference ciphertext (one-shot and in place); GMAC and incremental GMAC.

mod common;
use aes_gcm::aead::array::typenum::{Const, ToUInt, U};
use aes_gcm::aead::array::ArraySize;
use aes_gcm::aead::{AeadInOut, KeyInit, Nonce};
use aes_gcm::aes::{Aes128, Aes192, Aes256};
use common::engines;
use gcmkit::{AeadMode, AesGcm, Gmac, IncrementalGmac};

/// RustCrypto's AES-GCM under `key` (16, 24 or 32 bytes) with an `iv.len()`-byte nonce:
/// ciphertext || tag.
type Reference = fn(key: &[u8], iv: &[u8], pt: &[u8], aad: &[u8]) -> Vec<u8>;

fn seal<C: KeyInit + AeadInOut>(key: &[u8], iv: &[u8], pt: &[u8], aad: &[u8]) -> Vec<u8> {
    let cipher = C::new_from_slice(key).expect("a 16-, 24- or 32-byte key");
    let nonce = Nonce::<C>::try_from(iv).expect("the table's nonce size is iv.len()");
    let mut buf = pt.to_vec();
    let tag = cipher
        .encrypt_inout_detached(&nonce, aad, buf.as_mut_slice().into())
        .expect("RustCrypto encrypts");
    buf.extend_from_slice(&tag);
    buf
}

fn reference<const N: usize>(key: &[u8], iv: &[u8], pt: &[u8], aad: &[u8]) -> Vec<u8>
where
    Const<N>: ToUInt,
    U<N>: ArraySize,
{
    match key.len() {
        16 => seal::<aes_gcm::AesGcm<Aes128, U<N>>>(key, iv, pt, aad),
        24 => seal::<aes_gcm::AesGcm<Aes192, U<N>>>(key, iv, pt, aad),
        32 => seal::<aes_gcm::AesGcm<Aes256, U<N>>>(key, iv, pt, aad),
        n => panic!("no AES key of {n} bytes"),
    }
}

/// Row `hi` of the table: nonce sizes 16·hi + 1 to 16·hi + 16.
macro_rules! row {
    ($hi:literal; $($lo:literal)*) => {
        [$(reference::<{ $hi * 16 + $lo + 1 }> as Reference),*]
    };
}

macro_rules! table {
    ($($hi:literal)*) => {
        [$(row!($hi; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)),*]
    };
}

/// `REFERENCES[(n - 1) / 16][(n - 1) % 16]` takes n-byte nonces, n = 1..=256.
static REFERENCES: [[Reference; 16]; 16] = table!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);

fn reference_for(iv_len: usize) -> Reference {
    REFERENCES[(iv_len - 1) / 16][(iv_len - 1) % 16]
}

/// Bytes from Marsaglia's xorshift64 (shifts 13, 7, 17) seeded by `seed`.
fn data(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// (plaintext, AAD) lengths: empty; under a block; a block and one past it with a TLS
/// header's 13 bytes of AAD; the fused small and mid kernels' range; past a 4- and
/// 8-block batch with unaligned AAD.
const SHAPES: [(usize, usize); 7] = [
    (0, 0),
    (1, 0),
    (16, 13),
    (17, 0),
    (64, 20),
    (255, 33),
    (1000, 1),
];

/// Every engine's every form equals the reference for one key, IV and shape.
fn check(key: &[u8], iv: &[u8], pt: &[u8], aad: &[u8], engines: &[gcmkit::Engine]) {
    let expected = reference_for(iv.len())(key, iv, pt, aad);
    let (ct, tag) = expected.split_at(pt.len());
    for &e in engines {
        let what = format!(
            "{e:?} key {} iv {} pt {} aad {}",
            key.len(),
            iv.len(),
            pt.len(),
            aad.len()
        );
        let g = AesGcm::with_engine(key, e).unwrap();
        assert_eq!(g.encrypt(iv, pt, aad).unwrap(), expected, "{what}: encrypt");

        let mut buf = pt.to_vec();
        let t = g.encrypt_in_place_detached(iv, aad, &mut buf).unwrap();
        assert_eq!((&buf[..], t.as_ref()), (ct, tag), "{what}: in place");

        let mut out = vec![0u8; expected.len()];
        g.encrypt_into(iv, pt, aad, &mut out).unwrap();
        assert_eq!(out, expected, "{what}: encrypt_into");

        let (x, y) = pt.split_at(pt.len() / 3);
        out.fill(0);
        g.encrypt_parts_into(iv, &[x, y], aad, &mut out).unwrap();
        assert_eq!(out, expected, "{what}: encrypt_parts_into");

        let mut buf = pt.to_vec();
        let mut enc = g.encryptor(iv).unwrap();
        enc.aad(aad).unwrap();
        for piece in buf.chunks_mut(7) {
            enc.update(piece).unwrap();
        }
        let t = enc.finish();
        assert_eq!((&buf[..], t.as_ref()), (ct, tag), "{what}: on-line");

        assert_eq!(
            g.decrypt(iv, &expected, aad).unwrap(),
            pt,
            "{what}: decrypt"
        );
        let mut buf = ct.to_vec();
        g.decrypt_in_place_detached(iv, aad, &mut buf, tag)
            .unwrap_or_else(|err| panic!("{what}: decrypt in place: {err}"));
        assert_eq!(buf, pt, "{what}: decrypt in place");
    }
}

#[test]
fn every_iv_length_1_to_256_matches_rustcrypto_on_every_engine() {
    let engines = engines();
    let mut checked = 0;
    for iv_len in 1..=256usize {
        for key_len in [16usize, 24, 32] {
            let seed = (iv_len * 64 + key_len) as u64;
            let key = data(key_len, seed);
            let iv = data(iv_len, seed + 1);
            for (i, &(pt_len, aad_len)) in SHAPES.iter().enumerate() {
                let pt = data(pt_len, seed * 8 + i as u64 + 2);
                let aad = data(aad_len, seed * 8 + i as u64 + 3);
                check(&key, &iv, &pt, &aad, &engines);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 256 * 3 * SHAPES.len(), "every case ran");
}

/// GMAC (a GCM tag over AAD alone) with every IV length, through `Gmac` and
/// `IncrementalGmac`, against RustCrypto's tag with an empty plaintext.
#[test]
fn gmac_every_iv_length_1_to_256_matches_rustcrypto_on_every_engine() {
    let engines = engines();
    for iv_len in 1..=256usize {
        for key_len in [16usize, 24, 32] {
            let seed = (iv_len * 64 + key_len) as u64 + 7;
            let key = data(key_len, seed);
            let iv = data(iv_len, seed + 1);
            let msg = data(iv_len % 97 + 1, seed + 2);
            let expected = reference_for(iv_len)(&key, &iv, &[], &msg);
            for &e in &engines {
                let what = format!("{e:?} key {key_len} iv {iv_len}");
                let m = Gmac::with_engine(&key, e).unwrap();
                assert_eq!(m.compute(&iv, &msg).unwrap().as_ref(), expected, "{what}");
                m.verify(&iv, &msg, &expected)
                    .unwrap_or_else(|err| panic!("{what}: verify: {err}"));
                let inc = IncrementalGmac::with_engine(&key, e).unwrap();
                assert_eq!(
                    inc.compute(&iv, &msg).unwrap()[..],
                    expected,
                    "{what}: incremental"
                );
            }
        }
    }
}
