//! Fuzz targets: each takes arbitrary bytes and panics on a bug. They are plain functions
//! so any engine can drive them: the stable smoke runner here (`make fuzz-smoke`), or
//! libFuzzer/AFL through a one-line wrapper for long campaigns.
//!
//! Properties checked:
//! - no panic on any input, for every algorithm and API form (one-shot, in place, on-line,
//!   chunked streams);
//! - decryption of forged input never returns plaintext: any `Ok` must re-encrypt to the
//!   exact input (so it was a genuine ciphertext);
//! - differential: gcmkit equals RustCrypto and ring on every engine.

use aes_gcm::aead::{AeadInOut, KeyInit};
use coverage::ALGORITHMS;
use gcmkit::AeadMode;
use gcmkit::{AesGcm, AesGcmSiv, Engine, GcmSiv2015, GcmSiv2015Variant, Gmac};
use std::io::Read;

pub mod coverage;

/// Splits input into fields of data-chosen lengths.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn byte(&mut self) -> u8 {
        let b = self.0.first().copied().unwrap_or(0);
        self.0 = self.0.get(1..).unwrap_or(&[]);
        b
    }
    fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.0.len());
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a
    }
    fn field(&mut self, max: usize) -> &'a [u8] {
        let n = self.byte() as usize % (max + 1);
        self.take(n)
    }
    fn rest(&mut self) -> &'a [u8] {
        self.take(usize::MAX)
    }
}

fn engines() -> Vec<Engine> {
    Engine::supported().collect()
}

/// Arbitrary bytes as (algorithm, engine, parameters, key, nonce, aad, ciphertext||tag)
/// to every decryption API: never a panic, never plaintext for forged input, a zeroed
/// destination after any failure. The algorithm, the engine and the parameters (tag
/// length, counter width, key variant, piece size) each come from a byte of their own,
/// so that every algorithm reaches every engine (`coverage` counts the pairs).
pub fn decrypt_anything(data: &[u8]) {
    let mut c = Cursor(data);
    let alg = c.byte() as usize % ALGORITHMS.len();
    let engines = engines();
    let e = engines[c.byte() as usize % engines.len()];
    let param = c.byte() as usize;
    let key = c.field(80);
    let nonce = c.field(40);
    let aad = c.field(200);
    let ct = c.rest();
    match alg {
        0 => {
            let tag_len = [16, 15, 14, 13, 12, 8, 4, 7][param % 8];
            if let Ok(g) = AesGcm::with_engine(key, e).and_then(|g| g.with_tag_len(tag_len)) {
                coverage::reached(alg, Some(e));
                check_aead("AES-GCM", &g, nonce, ct, aad);
            }
        }
        1 => {
            if let Ok(s) = AesGcmSiv::with_engine(key, e) {
                coverage::reached(alg, Some(e));
                check_aead("AES-GCM-SIV", &s, nonce, ct, aad);
            }
        }
        2 => {
            let k = (param % 32) as u32 + 1;
            if let Ok(s) = gcm_siv_2015(key, param / 32, e).and_then(|s| s.with_counter_bits(k)) {
                coverage::reached(alg, Some(e));
                check_aead("GCM-SIV (2015)", &s, nonce, ct, aad);
            }
        }
        3 => {
            if let Ok(m) = Gmac::with_engine(key, e) {
                coverage::reached(alg, Some(e));
                // A tag verifies only if it is the tag: the computed one for this nonce.
                if m.verify(nonce, aad, ct).is_ok() {
                    let tag = m.compute(nonce, aad).expect("a verified nonce computes");
                    assert_eq!(tag.as_ref(), ct, "GMAC accepted a tag it would not compute");
                }
            }
        }
        4 => {
            // On-line decryption in data-chosen pieces.
            if let Ok(g) = AesGcm::with_engine(key, e) {
                coverage::reached(alg, Some(e));
                if ct.len() >= 16 {
                    let (body, tag) = ct.split_at(ct.len() - 16);
                    let mut out = vec![0xeeu8; 3];
                    let r = g.decryptor(nonce, &mut out).and_then(|mut d| {
                        d.aad(aad)?;
                        for piece in body.chunks(1 + param) {
                            d.update(piece)?;
                        }
                        d.finish(tag)
                    });
                    if r.is_err() {
                        assert_eq!(
                            out,
                            vec![0xee; 3],
                            "on-line decryption left unverified plaintext"
                        );
                    }
                    // The one-shot path must agree on which inputs are genuine.
                    assert_eq!(
                        r.is_ok(),
                        g.decrypt(nonce, ct, aad).is_ok(),
                        "on-line and one-shot decryption disagree"
                    );
                }
            }
        }
        _ => {
            if let Ok(g) = gcmkit::gcm64::TdeaGcm::tdea(key) {
                coverage::reached(alg, None);
                check_aead("GCM-64 (TDEA)", &g, nonce, ct, aad);
            }
        }
    }
}

/// GCM-SIV (2015) in the variant `which` picks (one, two or three keys) from `key`, split
/// as that variant's keys: one-key takes 16 bytes; two-key K1 (16) then K2 (the rest, 16
/// or 32); three-key K1 (16) then K2 and K3 (the rest in halves).
fn gcm_siv_2015(key: &[u8], which: usize, e: Engine) -> Result<GcmSiv2015, gcmkit::Error> {
    let (k1, rest) = key.split_at(key.len().min(16));
    match which % 3 {
        0 => GcmSiv2015::one_key_with_engine(key, e),
        1 => GcmSiv2015::with_engine(GcmSiv2015Variant::TwoKey, k1, rest, None, e),
        _ => {
            let (k2, k3) = rest.split_at(rest.len() / 2);
            GcmSiv2015::with_engine(GcmSiv2015Variant::ThreeKey, k1, k2, Some(k3), e)
        }
    }
}

/// `ct` (ciphertext || tag) through the three decryption calls of an [`AeadMode`]:
/// - they agree on whether it is genuine, and an `Ok` re-encrypts to exactly `ct`;
/// - on any failure the in-place buffer and the `decrypt_into` destination (both filled
///   with other bytes first) are zeroed, as `AeadMode` documents.
fn check_aead<M: AeadMode>(what: &str, m: &M, nonce: &[u8], ct: &[u8], aad: &[u8]) {
    let one_shot = m.decrypt(nonce, ct, aad);
    if let Ok(pt) = &one_shot {
        assert_eq!(
            m.encrypt(nonce, pt, aad)
                .expect("a decrypted message encrypts"),
            ct,
            "{what} accepted a ciphertext it would not produce"
        );
    }
    let n = ct.len().saturating_sub(m.tag_len());
    let (body, tag) = ct.split_at(n);
    let mut buf = body.to_vec();
    let in_place = m.decrypt_in_place_detached(nonce, aad, &mut buf, tag);
    match (&one_shot, &in_place) {
        (Ok(pt), Ok(())) => assert_eq!(&buf, pt, "{what}: in place decrypts otherwise"),
        (Err(_), Err(_)) => assert!(
            buf.iter().all(|&x| x == 0),
            "{what}: failed in-place decryption left data in the buffer"
        ),
        _ => panic!("{what}: decrypt {one_shot:?} but in place {in_place:?}"),
    }
    if ct.len() >= m.tag_len() {
        let mut out = vec![0xeeu8; n];
        let into = m.decrypt_into(nonce, ct, aad, &mut out);
        match (&one_shot, &into) {
            (Ok(pt), Ok(())) => assert_eq!(&out, pt, "{what}: decrypt_into decrypts otherwise"),
            (Err(_), Err(_)) => assert!(
                out.iter().all(|&x| x == 0),
                "{what}: failed decrypt_into left data in the destination"
            ),
            _ => panic!("{what}: decrypt {one_shot:?} but decrypt_into {into:?}"),
        }
    }
}

/// Arbitrary bytes as a Cobblestone ciphertext: every path fails cleanly (never a panic);
/// nothing but the exact encryption decrypts.
pub fn chunked_anything(data: &[u8]) {
    let key = [0x2au8; 16];
    let one = gcmkit::chunked::decrypt(&key, b"", data);
    let mut streamed = Vec::new();
    let stream =
        gcmkit::chunked::Decryptor::new(&key, b"", data).map(|mut d| d.read_to_end(&mut streamed));
    let seek = gcmkit::chunked::SeekableDecryptor::new(&key, b"", std::io::Cursor::new(data)).map(
        |mut d| {
            let mut v = Vec::new();
            d.read_to_end(&mut v).map(|_| v)
        },
    );
    let mut out = Vec::new();
    let par = gcmkit::chunked::decrypt_stream(&key, b"", data, &mut out, |_| {});
    let pushed = chunked_in_pieces(&key, data, 1000);
    let ranged = chunked_as_one_range(&key, data);
    // Whatever decrypts must be genuine: re-encrypting the plaintext with the message's
    // own salt gives back exactly the input. Every path must agree.
    match one {
        Ok(pt) => {
            let salt: [u8; 24] = data[..24].try_into().unwrap();
            assert_eq!(
                gcmkit::chunked::hazmat::encrypt_with_salt(&key, b"", &pt, &salt).unwrap(),
                data,
                "forged Cobblestone accepted"
            );
            assert!(
                par.is_ok() && matches!(stream, Ok(Ok(_))) && matches!(seek, Ok(Ok(_))),
                "paths disagree on a genuine message"
            );
            assert_eq!(out, pt);
            assert_eq!(streamed, pt);
            assert_eq!(
                pushed.as_ref(),
                Ok(&pt),
                "Opener disagrees on a genuine message"
            );
            assert_eq!(
                ranged.as_ref(),
                Ok(&pt),
                "RangeDecryptor disagrees on a genuine message"
            );
        }
        Err(_) => {
            assert!(
                pushed.is_err() && ranged.is_err(),
                "Opener or RangeDecryptor accepted a rejected message"
            );
            assert!(
                par.is_err(),
                "parallel path accepted what the one-shot path rejected"
            );
            assert!(
                matches!(stream, Err(_) | Ok(Err(_))) && matches!(seek, Err(_) | Ok(Err(_))),
                "a stream path accepted a rejected message"
            );
        }
    }
}

/// `data` through `chunked::Opener` in pieces of `piece` bytes.
fn chunked_in_pieces(key: &[u8], data: &[u8], piece: usize) -> Result<Vec<u8>, gcmkit::Error> {
    let mut o = gcmkit::chunked::Opener::new(key, b"")?;
    let mut pt = Vec::new();
    for p in data.chunks(piece) {
        let mut out = vec![0u8; o.update_len(p.len())];
        let n = o.update_into(p, &mut out)?;
        pt.extend_from_slice(&out[..n]);
    }
    let mut out = vec![0u8; o.finish_len()];
    let n = o.finish_into(&mut out)?;
    pt.extend_from_slice(&out[..n]);
    Ok(pt)
}

/// `data` through `chunked::RangeDecryptor` as one range from 0 to the end.
fn chunked_as_one_range(key: &[u8], data: &[u8]) -> Result<Vec<u8>, gcmkit::Error> {
    let r = gcmkit::chunked::RangeDecryptor::new(key, b"", data, data.len() as u64)?;
    let s = r.span(0, u64::MAX);
    let mut out = vec![0u8; r.plaintext_of(s)];
    r.decrypt_into(s, &data[s.start as usize..s.end as usize], &mut out)?;
    Ok(out)
}

/// gcmkit against RustCrypto and ring for data-chosen keys, nonces and lengths on
/// every engine.
pub fn differential(data: &[u8]) {
    let mut c = Cursor(data);
    let sel = c.byte();
    let key32 = c.take(32);
    if key32.len() < 32 {
        return;
    }
    let nonce = c.take(12);
    if nonce.len() < 12 {
        return;
    }
    let aad = c.field(64);
    let pt = c.rest();
    let key = if sel & 1 == 0 { &key32[..16] } else { key32 };
    let nonce12: &[u8; 12] = nonce.try_into().unwrap();
    // RustCrypto AES-GCM and AES-GCM-SIV.
    let mut rc = pt.to_vec();
    let tag = if key.len() == 16 {
        aes_gcm::Aes128Gcm::new_from_slice(key)
            .unwrap()
            .encrypt_inout_detached(nonce12.into(), aad, rc.as_mut_slice().into())
    } else {
        aes_gcm::Aes256Gcm::new_from_slice(key)
            .unwrap()
            .encrypt_inout_detached(nonce12.into(), aad, rc.as_mut_slice().into())
    }
    .unwrap();
    rc.extend_from_slice(&tag);
    let mut rs = pt.to_vec();
    let tag = if key.len() == 16 {
        aes_gcm_siv::Aes128GcmSiv::new_from_slice(key)
            .unwrap()
            .encrypt_inout_detached(nonce12.into(), aad, rs.as_mut_slice().into())
    } else {
        aes_gcm_siv::Aes256GcmSiv::new_from_slice(key)
            .unwrap()
            .encrypt_inout_detached(nonce12.into(), aad, rs.as_mut_slice().into())
    }
    .unwrap();
    rs.extend_from_slice(&tag);
    // ring AES-GCM (BoringSSL's code, AVX2/VAES kernels where the CPU has them).
    use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_128_GCM, AES_256_GCM};
    let alg = if key.len() == 16 {
        &AES_128_GCM
    } else {
        &AES_256_GCM
    };
    let lk = LessSafeKey::new(UnboundKey::new(alg, key).unwrap());
    let mut rg = pt.to_vec();
    let t = lk
        .seal_in_place_separate_tag(
            Nonce::assume_unique_for_key(*nonce12),
            Aad::from(aad),
            &mut rg,
        )
        .unwrap();
    rg.extend_from_slice(t.as_ref());
    assert_eq!(rc, rg, "RustCrypto and ring disagree (harness bug)");
    for e in engines() {
        assert_eq!(
            AesGcm::with_engine(key, e)
                .unwrap()
                .encrypt(nonce, pt, aad)
                .unwrap(),
            rg,
            "AES-GCM differs on {e:?}"
        );
        assert_eq!(
            AesGcmSiv::with_engine(key, e)
                .unwrap()
                .encrypt(nonce, pt, aad)
                .unwrap(),
            rs,
            "AES-GCM-SIV differs on {e:?}"
        );
    }
}

/// A fuzz target: one input, checked.
pub type Target = fn(&[u8]);

/// The targets by name.
pub const TARGETS: &[(&str, Target)] = &[
    ("decrypt_anything", decrypt_anything),
    ("chunked_anything", chunked_anything),
    ("differential", differential),
];
