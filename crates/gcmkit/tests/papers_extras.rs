//! The papers' extras: GPRF, incremental GMAC and on-line GCM, on every engine.

mod common;
use common::engines;
use gcmkit::hazmat::{gcm_trace, Gprf};
use gcmkit::AeadMode;
use gcmkit::{AesGcm, Error, Gmac, IncrementalGmac};

/// Deterministic test randomness.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

#[test]
fn gprf_is_gcm_counter_stream_with_kn_h_and_kb_k() {
    let key = [0x3c; 16];
    for e in engines() {
        for nonce_len in [1usize, 8, 12, 13, 16, 60] {
            let nonce: Vec<u8> = (0..nonce_len as u8).collect();
            let h = gcm_trace(&key, &nonce, b"", b"").unwrap().h;
            let prf = Gprf::with_engine(&h, &key, e).unwrap();
            let mut out = vec![0u8; 200];
            prf.fill(&nonce, &mut out).unwrap();
            // GCM's ciphertext of zeros is its keystream, from counter Y0 + 1.
            let ks = AesGcm::with_engine(&key, e)
                .unwrap()
                .encrypt(&nonce, &[0u8; 150], b"")
                .unwrap();
            let skip = if nonce_len == 12 { 32 } else { 16 };
            assert_eq!(
                &out[skip..skip + 150],
                &ks[..150],
                "nonce {nonce_len} on {e:?}"
            );
            if nonce_len != 12 {
                // C_0 = Y0: block 0 is the tag mask E(K, Y0).
                assert_eq!(out[..16], gcm_trace(&key, &nonce, b"", b"").unwrap().e_k_y0);
            }
        }
    }
    assert!(matches!(
        Gprf::new(&[0; 15], &[0; 16]),
        Err(Error::InvalidKeyLength { got: 15, .. })
    ));
    assert!(matches!(
        Gprf::new(&[0; 16], &[0; 16])
            .unwrap()
            .fill(&[], &mut [0; 4]),
        Err(Error::InvalidNonceLength { .. })
    ));
}

/// GPRF from its definition with independent parts: RustCrypto's `ghash` for C_0 (nonces
/// other than 12 bytes) and RustCrypto's `aes` for the blocks S_i = E(K_b, C_i), with
/// unrelated keys K_n and K_b (not GCM's H = E(K, 0)), every engine, output lengths that
/// end mid-block.
#[test]
fn gprf_matches_its_definition_with_independent_aes_and_ghash() {
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    use ghash::universal_hash::UniversalHash;
    let (kn, kb) = ([0x17u8; 16], [0x29u8; 32]);
    let aes = aes::Aes256::new(&kb.into());
    for e in engines() {
        let prf = Gprf::with_engine(&kn, &kb, e).unwrap();
        for nonce_len in [1usize, 12, 13, 16, 33] {
            let nonce: Vec<u8> = (0..nonce_len).map(|i| (i * 7 + 1) as u8).collect();
            let c0: [u8; 16] = if nonce_len == 12 {
                let mut c = [0u8; 16];
                c[..12].copy_from_slice(&nonce);
                c
            } else {
                let mut g = ghash::GHash::new(&kn.into());
                g.update_padded(&nonce);
                let mut len = [0u8; 16];
                len[8..].copy_from_slice(&(8 * nonce_len as u64).to_be_bytes());
                g.update_padded(&len);
                g.finalize().into()
            };
            let mut out = vec![0u8; 100];
            prf.fill(&nonce, &mut out).unwrap();
            for (i, block) in out.chunks(16).enumerate() {
                let mut c = c0;
                let ctr = u32::from_be_bytes(c[12..].try_into().unwrap()).wrapping_add(i as u32);
                c[12..].copy_from_slice(&ctr.to_be_bytes());
                let mut s = c.into();
                aes.encrypt_block(&mut s);
                assert_eq!(
                    block,
                    &s[..block.len()],
                    "block {i}, nonce {nonce_len}, {e:?}"
                );
            }
        }
    }
}

#[test]
fn incremental_gmac_equals_fresh_gmac_over_random_edit_sequences() {
    for e in engines() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ e.name().len() as u64);
        let key = rng.bytes(16);
        let inc = IncrementalGmac::with_engine(&key, e).unwrap();
        let fresh = Gmac::with_engine(&key, e).unwrap();
        let mut updates = 0;
        for _ in 0..150 {
            let n = rng.below(700) as usize;
            let mut msg = rng.bytes(n);
            let n = 1 + rng.below(20) as usize;
            let mut nonce = rng.bytes(n);
            let mut tag = inc.compute(&nonce, &msg).unwrap();
            assert_eq!(
                tag.as_slice(),
                fresh.compute(&nonce, &msg).unwrap().as_ref()
            );
            for _ in 0..8 {
                let new_nonce = if rng.below(3) == 0 {
                    nonce.clone()
                } else {
                    rng.bytes(12)
                };
                let len = msg.len() as u64;
                tag = match rng.below(4) {
                    0 if !msg.is_empty() => {
                        let off = rng.below(len) as usize;
                        let n = 1 + rng.below((msg.len() - off).min(80) as u64) as usize;
                        let new = rng.bytes(n);
                        let t = inc
                            .replace(
                                &nonce,
                                &tag,
                                len,
                                off as u64,
                                &msg[off..off + n],
                                &new,
                                &new_nonce,
                            )
                            .unwrap();
                        msg[off..off + n].copy_from_slice(&new);
                        t
                    }
                    1 => {
                        let n = rng.below(90) as usize;
                        let add = rng.bytes(n);
                        let t = inc.append(&nonce, &tag, len, &add, &new_nonce).unwrap();
                        msg.extend_from_slice(&add);
                        t
                    }
                    2 => {
                        let cut = rng.below(len.min(90) + 1) as usize;
                        let at = msg.len() - cut;
                        let t = inc
                            .truncate(&nonce, &tag, len, &msg[at..], &new_nonce)
                            .unwrap();
                        msg.truncate(at);
                        t
                    }
                    _ => inc.renonce(&nonce, &tag, len, &new_nonce).unwrap(),
                };
                nonce = new_nonce;
                updates += 1;
                assert_eq!(
                    tag.as_slice(),
                    fresh.compute(&nonce, &msg).unwrap().as_ref(),
                    "after update {updates} on {e:?}, len {}",
                    msg.len()
                );
            }
        }
        assert!(updates >= 1000);
    }
}

/// Large messages: the distance from an edit to the end spans up to six hex digits, so
/// six rows of the window tables (H^(d·16^i) and the inverse) are used; the unit tests
/// check every row against square-and-multiply.
#[test]
fn incremental_gmac_on_large_messages() {
    let best = gcmkit::Engine::best();
    for (e, len) in engines()
        .into_iter()
        .map(|e| (e, (1 << 20) + 7))
        .chain([(best, (16 << 20) + 3)])
    {
        let mut rng = Rng(len as u64 ^ 0x5151);
        let key = rng.bytes(32);
        let inc = IncrementalGmac::with_engine(&key, e).unwrap();
        let fresh = Gmac::with_engine(&key, e).unwrap();
        let mut msg = rng.bytes(len);
        let nonce = rng.bytes(12);
        let mut tag = inc.compute(&nonce, &msg).unwrap();
        for off in [0usize, 1, 4095, 65_537, len / 2 + 3, len - 17] {
            let new = rng.bytes(17);
            tag = inc
                .replace(
                    &nonce,
                    &tag,
                    msg.len() as u64,
                    off as u64,
                    &msg[off..off + 17],
                    &new,
                    &nonce,
                )
                .unwrap();
            msg[off..off + 17].copy_from_slice(&new);
        }
        assert_eq!(
            tag.as_slice(),
            fresh.compute(&nonce, &msg).unwrap().as_ref(),
            "{e:?} {len}"
        );
        // Cut 100 000 bytes (6 250 blocks: a four-digit inverse power), then append them back.
        let at = msg.len() - 100_000;
        let t = inc
            .truncate(&nonce, &tag, msg.len() as u64, &msg[at..], &nonce)
            .unwrap();
        let tail = msg.split_off(at);
        assert_eq!(
            t.as_slice(),
            fresh.compute(&nonce, &msg).unwrap().as_ref(),
            "{e:?} truncate"
        );
        let t = inc
            .append(&nonce, &t, msg.len() as u64, &tail, &nonce)
            .unwrap();
        assert_eq!(t, tag);
    }
}

#[test]
fn incremental_gmac_rejects_bad_edits() {
    let inc = IncrementalGmac::new(&[1; 16]).unwrap();
    let t = inc.compute(&[0; 12], &[5; 40]).unwrap();
    assert!(matches!(
        inc.replace(&[0; 12], &t, 40, 35, &[0; 8], &[1; 8], &[0; 12]),
        Err(Error::InvalidParameter(_))
    ));
    assert!(matches!(
        inc.replace(&[0; 12], &t, 40, 0, &[0; 2], &[1; 3], &[0; 12]),
        Err(Error::InvalidParameter(_))
    ));
    assert!(matches!(
        inc.truncate(&[0; 12], &t, 40, &[0; 41], &[0; 12]),
        Err(Error::InvalidParameter(_))
    ));
    assert!(matches!(
        inc.renonce(&[0; 12], &t[..12], 40, &[0; 12]),
        Err(Error::InvalidTagLength { .. })
    ));
}

#[test]
fn online_gcm_split_at_every_point_equals_one_shot() {
    let mut rng = Rng(77);
    for e in engines() {
        let gcm = AesGcm::with_engine(&rng.bytes(32), e)
            .unwrap()
            .with_tag_len(12)
            .unwrap();
        let (pt, aad, nonce) = (rng.bytes(150), rng.bytes(37), rng.bytes(12));
        let one_shot = gcm.encrypt(&nonce, &pt, &aad).unwrap();
        for split in 0..=pt.len() {
            let asplit = split % (aad.len() + 1);
            let mut enc = gcm.encryptor(&nonce).unwrap();
            enc.aad(&aad[..asplit]).unwrap();
            enc.aad(&aad[asplit..]).unwrap();
            let mut buf = pt.clone();
            let (a, b) = buf.split_at_mut(split);
            enc.update(a).unwrap();
            // A third split inside the second half.
            let mid = b.len() / 3;
            let (b1, b2) = b.split_at_mut(mid);
            enc.update(b1).unwrap();
            enc.update(b2).unwrap();
            let tag = enc.finish();
            assert_eq!(
                [&buf[..], tag.as_ref()].concat(),
                one_shot,
                "split {split} on {e:?}"
            );

            let mut out = Vec::new();
            let mut dec = gcm.decryptor(&nonce, &mut out).unwrap();
            dec.aad(&aad).unwrap();
            dec.update(&one_shot[..split]).unwrap();
            dec.update(&one_shot[split..pt.len()]).unwrap();
            dec.finish(&one_shot[pt.len()..]).unwrap();
            assert_eq!(out, pt);
        }
    }
}

#[test]
fn online_decryptor_zeroes_and_truncates_on_tamper_or_drop() {
    let gcm = AesGcm::new(&[9; 16]).unwrap();
    let ct = gcm.encrypt(&[1; 12], &[0x77; 100], b"hdr").unwrap();
    let mut out = b"keep".to_vec();
    let mut dec = gcm.decryptor(&[1; 12], &mut out).unwrap();
    dec.aad(b"hdr").unwrap();
    dec.update(&ct[..100]).unwrap();
    let mut bad = ct[100..].to_vec();
    bad[3] ^= 1;
    assert_eq!(dec.finish(&bad), Err(Error::AuthenticationFailed));
    assert_eq!(out, b"keep", "unverified plaintext left in the output");
    let mut out2 = Vec::new();
    {
        let mut dec = gcm.decryptor(&[1; 12], &mut out2).unwrap();
        dec.update(&ct[..50]).unwrap();
    } // dropped unfinished
    assert!(out2.is_empty());
    // Leaked with mem::forget mid-stream: the caller's buffer still holds nothing
    // unverified (the plaintext never left the decryptor).
    let mut out3 = b"mine".to_vec();
    let mut dec = gcm.decryptor(&[1; 12], &mut out3).unwrap();
    dec.aad(b"hdr").unwrap();
    dec.update(&ct[..100]).unwrap();
    std::mem::forget(dec);
    assert_eq!(out3, b"mine");
    // A verified stream appends after what `out` held.
    let mut out4 = b"mine".to_vec();
    let mut dec = gcm.decryptor(&[1; 12], &mut out4).unwrap();
    dec.aad(b"hdr").unwrap();
    dec.update(&ct[..100]).unwrap();
    dec.finish(&ct[100..]).unwrap();
    assert_eq!(out4, [&b"mine"[..], &[0x77; 100]].concat());
    // AAD after data is refused.
    let mut enc = gcm.encryptor(&[1; 12]).unwrap();
    enc.update(&mut [0u8; 3]).unwrap();
    assert!(matches!(enc.aad(b"late"), Err(Error::InvalidParameter(_))));
}

#[test]
fn precomputed_aad_prefix_is_reused_across_nonces() {
    let gcm = AesGcm::new(&[4; 16]).unwrap();
    let header = [0xabu8; 45];
    let prefix = gcm.aad_prefix(&header).unwrap();
    for i in 0..5u8 {
        let nonce = [i; 12];
        let mut buf = vec![i; 70];
        let mut enc = gcm.encryptor_with_prefix(&nonce, &prefix).unwrap();
        enc.aad(b"per-message").unwrap();
        enc.update(&mut buf).unwrap();
        let tag = enc.finish();
        let aad = [&header[..], b"per-message"].concat();
        assert_eq!(
            [&buf[..], tag.as_ref()].concat(),
            gcm.encrypt(&nonce, &[i; 70], &aad).unwrap()
        );
        let mut out = Vec::new();
        let mut dec = gcm
            .decryptor_with_prefix(&nonce, &prefix, &mut out)
            .unwrap();
        dec.aad(b"per-message").unwrap();
        dec.update(&buf).unwrap();
        dec.finish(tag.as_ref()).unwrap();
        assert_eq!(out, vec![i; 70]);
    }
}

#[test]
fn unverified_decryptor_streams_and_still_checks() {
    let gcm = AesGcm::new(&[4; 16]).unwrap();
    let ct = gcm.encrypt(&[2; 12], b"streamed plaintext", b"").unwrap();
    let mut d = gcm.unverified_decryptor(&[2; 12]).unwrap();
    let mut buf = ct[..18].to_vec();
    d.update(&mut buf).unwrap();
    assert_eq!(buf, b"streamed plaintext");
    assert!(d.finish(&ct[18..]).is_ok());
}
