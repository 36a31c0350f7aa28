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
use gcmkit::AeadMode;
use gcmkit::{AesGcm, AesGcmSiv, Engine, GcmSiv2015, Gmac};
use std::io::Read;

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

/// Arbitrary bytes as (algorithm, key, nonce, aad, ciphertext||tag) to every decryption
/// API: never a panic, never plaintext for forged input.
pub fn decrypt_anything(data: &[u8]) {
    let mut c = Cursor(data);
    let sel = c.byte();
    let key = c.field(40);
    let nonce = c.field(40);
    let aad = c.field(200);
    let ct = c.rest();
    let e = engines()[sel as usize % engines().len()];
    match sel % 6 {
        0 => {
            let tag_len = [16, 15, 14, 13, 12, 8, 4, 7][(sel as usize / 8) % 8];
            if let Ok(g) = AesGcm::with_engine(key, e).and_then(|g| g.with_tag_len(tag_len)) {
                if let Ok(pt) = g.decrypt(nonce, ct, aad) {
                    assert_eq!(
                        g.encrypt(nonce, &pt, aad).unwrap(),
                        ct,
                        "GCM accepted a ciphertext it would not produce"
                    );
                }
                let mut buf = ct.to_vec();
                let n = buf.len().saturating_sub(tag_len);
                let (b, t) = buf.split_at_mut(n);
                let mut b = b.to_vec();
                // Parameter errors leave the buffer alone (nothing was decrypted); an
                // authentication failure must leave it zeroed.
                if g.decrypt_in_place_detached(nonce, aad, &mut b, t)
                    == Err(gcmkit::Error::AuthenticationFailed)
                {
                    assert!(
                        b.iter().all(|&x| x == 0),
                        "failed decryption left data in the buffer"
                    );
                }
            }
        }
        1 => {
            if let Ok(s) = AesGcmSiv::with_engine(key, e) {
                if let Ok(pt) = s.decrypt(nonce, ct, aad) {
                    assert_eq!(s.encrypt(nonce, &pt, aad).unwrap(), ct);
                }
            }
        }
        2 => {
            let k = (sel as u32 % 32) + 1;
            if let Ok(s) =
                GcmSiv2015::two_key(&key[..key.len().min(16)], key.get(16..).unwrap_or(&[]))
                    .and_then(|s| s.with_counter_bits(k))
            {
                if let Ok(pt) = s.decrypt(nonce, ct, aad) {
                    assert_eq!(s.encrypt(nonce, &pt, aad).unwrap(), ct);
                }
            }
        }
        3 => {
            if let Ok(m) = Gmac::with_engine(key, e) {
                let _ = m.verify(nonce, aad, ct);
            }
        }
        4 => {
            // On-line decryption in data-chosen pieces.
            if let Ok(g) = AesGcm::with_engine(key, e) {
                if ct.len() >= 16 {
                    let (body, tag) = ct.split_at(ct.len() - 16);
                    let mut out = vec![0xeeu8; 3];
                    let r = g.decryptor(nonce, &mut out).and_then(|mut d| {
                        d.aad(aad)?;
                        for piece in body.chunks(1 + sel as usize) {
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
                }
            }
        }
        _ => {
            let _ = gcmkit::gcm64::TdeaGcm::tdea(key).map(|g| g.decrypt(nonce, ct, aad));
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
