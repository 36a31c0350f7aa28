//! `gcmkit-ct-check taint <engine>`: every public entry of gcmkit on one engine, with keys,
//! plaintexts, tags, AAD-free message data and (where a path's start counter depends on
//! the key) nonces marked secret. Each method prints `ct <engine> <method>: <N> calls,
//! clean` once all its calls returned; a report of the checking tool (valgrind memcheck
//! or MemorySanitizer, see `run.sh`) stops the process first, so a leaking method never
//! prints its line. `control <name> <engine>` runs one AES-GCM encryption with a
//! negative control of gcmkit selected (`--cfg gcmkit_ct_control`): it must be stopped.

use crate::mark::{public, secret};
use gcmkit::hazmat::{GcmSivPlus, Gprf};
use gcmkit::{AeadMode, AesGcm, AesGcmSiv, Engine, Gmac, IncrementalGmac};

/// Message lengths: empty, partial and whole blocks, every small-message kernel (one
/// block, up to four, up to the wide-vector bound, up to 512 bytes), several stitched
/// batches of every engine's width, and tails after them.
const LENS: [usize; 13] = [0, 1, 15, 16, 17, 48, 64, 100, 255, 256, 513, 1000, 4133];
/// Nonce lengths other than 12: Y0 = GHASH_H(IV) is secret (the `take_batch` leak's path).
const ODD_IVS: [usize; 5] = [1, 8, 13, 16, 60];

/// The call counter of one method.
struct Calls(usize);

impl Calls {
    fn one<T>(&mut self, r: T) -> T {
        self.0 += 1;
        r
    }
}

fn secret_vec(len: usize, fill: u8) -> Vec<u8> {
    let mut v: Vec<u8> = (0..len).map(|i| fill.wrapping_add(i as u8)).collect();
    secret(&mut v);
    v
}

fn aad_for(len: usize) -> Vec<u8> {
    // Public, as in every protocol; its length varies with the message (0, 13, 20, 70).
    vec![3u8; [0, 13, 20, 70][len % 4]]
}

/// Encrypt, decrypt the result, then decrypt a forgery (the failure path), in place.
fn in_place_round_trip(c: &mut Calls, m: &dyn AeadMode, nonce: &[u8], len: usize) {
    let aad = aad_for(len);
    let mut buf = secret_vec(len, 0x42);
    let tag = c
        .one(m.encrypt_in_place_detached(nonce, &aad, &mut buf))
        .unwrap();
    let mut t = tag.as_ref().to_vec();
    public(&mut buf); // the ciphertext and the tag are public
    public(&mut t);
    c.one(m.decrypt_in_place_detached(nonce, &aad, &mut buf, &t))
        .unwrap();
    // Encrypt again (the plaintext is secret once more), then forge the tag.
    secret(&mut buf);
    let tag = c
        .one(m.encrypt_in_place_detached(nonce, &aad, &mut buf))
        .unwrap();
    let mut t = tag.as_ref().to_vec();
    public(&mut buf);
    public(&mut t);
    t[0] ^= 1;
    assert!(c
        .one(m.decrypt_in_place_detached(nonce, &aad, &mut buf, &t))
        .is_err());
}

/// `encrypt_into` / `decrypt_into`, valid and forged.
fn into_round_trip(c: &mut Calls, m: &dyn AeadMode, nonce: &[u8], len: usize) {
    let aad = aad_for(len);
    let pt = secret_vec(len, 0x17);
    let mut ct = vec![0u8; len + m.tag_len()];
    c.one(m.encrypt_into(nonce, &pt, &aad, &mut ct)).unwrap();
    public(&mut ct);
    let mut back = vec![0u8; len];
    c.one(m.decrypt_into(nonce, &ct, &aad, &mut back)).unwrap();
    let last = ct.len() - 1;
    ct[last] ^= 0x80;
    assert!(c.one(m.decrypt_into(nonce, &ct, &aad, &mut back)).is_err());
}

fn gcm(key: &[u8], e: Engine) -> AesGcm {
    AesGcm::with_engine(key, e).unwrap()
}

/// Runs every method on engine `e`, printing one line per method.
pub fn run(e: Engine) {
    let name = e.name();
    let key = secret_vec(32, 0x11);
    let report = |method: &str, c: Calls| println!("ct {name} {method}: {} calls, clean", c.0);

    let mut c = Calls(0);
    for klen in [16, 24, 32] {
        let g = gcm(&key[..klen], e);
        for len in LENS {
            in_place_round_trip(&mut c, &g, &[7u8; 12], len);
        }
    }
    report("gcm-in-place", c);

    let mut c = Calls(0);
    for klen in [16, 32] {
        let g = gcm(&key[..klen], e);
        for len in LENS {
            into_round_trip(&mut c, &g, &[7u8; 12], len);
        }
    }
    report("gcm-into", c);

    // The rustls record path: content, then the one-byte content type.
    let mut c = Calls(0);
    for klen in [16, 32] {
        let g = gcm(&key[..klen], e);
        for len in LENS {
            let content = secret_vec(len, 0x21);
            let typ = secret_vec(1, 23);
            let mut record = vec![0u8; len + 1 + 16];
            c.one(g.encrypt_parts_into(&[9u8; 12], &[&content, &typ], b"hdr12", &mut record))
                .unwrap();
            public(&mut record);
            let mut back = vec![0u8; len + 1];
            c.one(g.decrypt_into(&[9u8; 12], &record, b"hdr12", &mut back))
                .unwrap();
        }
    }
    report("gcm-parts-into", c);

    // On-line GCM: pieces of uneven sizes, with and without an AAD prefix, the safe and
    // the unverified decryptor, a valid and a forged tag; 12-byte and other nonces.
    let mut c = Calls(0);
    let g = gcm(&key[..16], e);
    let prefix = c.one(g.aad_prefix(b"fixed header")).unwrap();
    for nonce_len in [12, 13] {
        let nonce = vec![5u8; nonce_len];
        for len in [0, 1, 17, 300, 4133] {
            let pt = secret_vec(len, 0x33);
            let mut ct = pt.clone();
            let mut enc = if len % 2 == 0 {
                c.one(g.encryptor(&nonce)).unwrap()
            } else {
                c.one(g.encryptor_with_prefix(&nonce, &prefix)).unwrap()
            };
            c.one(enc.aad(b"more")).unwrap();
            for piece in ct.chunks_mut(37) {
                c.one(enc.update(piece)).unwrap();
            }
            let tag = c.one(enc.finish());
            let mut t = tag.as_ref().to_vec();
            public(&mut ct);
            public(&mut t);
            for forged in [false, true] {
                let mut t = t.clone();
                t[15] ^= forged as u8;
                let mut out = Vec::new();
                let mut dec = if len % 2 == 0 {
                    c.one(g.decryptor(&nonce, &mut out)).unwrap()
                } else {
                    c.one(g.decryptor_with_prefix(&nonce, &prefix, &mut out))
                        .unwrap()
                };
                c.one(dec.aad(b"more")).unwrap();
                for piece in ct.chunks(53) {
                    c.one(dec.update(piece)).unwrap();
                }
                assert_eq!(c.one(dec.finish(&t)).is_ok(), !forged);
            }
            if len % 2 == 0 {
                let mut buf = ct.clone();
                let mut dec = c.one(g.unverified_decryptor(&nonce)).unwrap();
                c.one(dec.aad(b"more")).unwrap();
                for piece in buf.chunks_mut(29) {
                    c.one(dec.update(piece)).unwrap();
                }
                c.one(dec.finish(&t)).unwrap();
            }
        }
    }
    report("gcm-online", c);

    let mut c = Calls(0);
    for tag_len in [4, 8, 12, 13, 14, 15] {
        let g = gcm(&key[..16], e).with_tag_len(tag_len).unwrap();
        for len in [0, 16, 100, 1000] {
            in_place_round_trip(&mut c, &g, &[7u8; 12], len);
            into_round_trip(&mut c, &g, &[7u8; 12], len);
        }
        let m = Gmac::with_engine(&key[..16], e)
            .unwrap()
            .with_tag_len(tag_len)
            .unwrap();
        let data = secret_vec(100, 1);
        let mut t = c
            .one(m.compute(&[1u8; 12], &data))
            .unwrap()
            .as_ref()
            .to_vec();
        public(&mut t);
        c.one(m.verify(&[1u8; 12], &data, &t)).unwrap();
    }
    report("gcm-short-tags", c);

    // Other IV lengths: Y0 = GHASH_H(IV), a secret start counter for every kernel.
    let mut c = Calls(0);
    for klen in [16, 32] {
        let g = gcm(&key[..klen], e);
        for iv in ODD_IVS {
            let nonce = vec![0x5au8; iv];
            for len in LENS {
                in_place_round_trip(&mut c, &g, &nonce, len);
            }
            into_round_trip(&mut c, &g, &nonce, 1000);
            let mut rec = vec![0u8; 300 + 16];
            let part = secret_vec(300, 2);
            c.one(g.encrypt_parts_into(&nonce, &[&part[..100], &part[100..]], b"", &mut rec))
                .unwrap();
        }
    }
    report("gcm-iv-lengths", c);

    for klen in [16, 32] {
        let mut c = Calls(0);
        let s = AesGcmSiv::with_engine(&key[..klen], e).unwrap();
        for len in LENS {
            in_place_round_trip(&mut c, &s, &[8u8; 12], len);
            into_round_trip(&mut c, &s, &[8u8; 12], len);
        }
        report(&format!("aes-gcm-siv-{}", klen * 8), c);
    }

    // The failure path on its own: a wrong tag, a changed ciphertext and a changed AAD,
    // after which the output must be zeroed (all without a secret branch).
    let mut c = Calls(0);
    for klen in [16, 32] {
        let s = AesGcmSiv::with_engine(&key[..klen], e).unwrap();
        for len in LENS {
            let pt = secret_vec(len, 0x61);
            let mut ct = c.one(s.encrypt(&[8u8; 12], &pt, b"aad")).unwrap();
            public(&mut ct);
            for (i, aad) in [(0usize, &b"aad"[..]), (ct.len() - 1, b"aad"), (0, b"aae")] {
                let mut bad = ct.clone();
                if aad == b"aad" {
                    bad[i] ^= 4;
                }
                let mut out = vec![0u8; len];
                assert!(c
                    .one(s.decrypt_into(&[8u8; 12], &bad, aad, &mut out))
                    .is_err());
            }
        }
    }
    report("aes-gcm-siv-failure", c);

    let mut c = Calls(0);
    for klen in [16, 32] {
        let p = GcmSivPlus::with_engine(&key[..16], &key[32 - klen..], e).unwrap();
        for len in LENS {
            in_place_round_trip(&mut c, &p, &[4u8; 12], len);
        }
    }
    report("gcm-siv-plus", c);

    // GPRF: the output is a key stream (secret); it is marked public here only so that
    // the harness may compare it.
    let mut c = Calls(0);
    for klen in [16, 32] {
        let p = Gprf::with_engine(&key[..16], &key[..klen], e).unwrap();
        for iv in [12, 1, 13, 60] {
            let nonce = vec![0x77u8; iv];
            let mut c0 = c.one(p.first_counter(&nonce)).unwrap();
            public(&mut c0);
            for len in [0, 16, 100, 1000] {
                let mut out = vec![0u8; len];
                c.one(p.fill(&nonce, &mut out)).unwrap();
                public(&mut out);
            }
        }
    }
    report("gprf", c);

    // GMAC over secret data, and incremental GMAC's updates of a tag.
    let mut c = Calls(0);
    for nonce in [&[1u8; 12][..], &[1u8; 13][..]] {
        let m = Gmac::with_engine(&key[..16], e).unwrap();
        for len in LENS {
            let data = secret_vec(len, 9);
            let mut t = c.one(m.compute(nonce, &data)).unwrap().as_ref().to_vec();
            public(&mut t);
            c.one(m.verify(nonce, &data, &t)).unwrap();
            t[3] ^= 1;
            assert!(c.one(m.verify(nonce, &data, &t)).is_err());
        }
    }
    report("gmac", c);

    let mut c = Calls(0);
    let ig = IncrementalGmac::with_engine(&key[..16], e).unwrap();
    for (n0, n1) in [
        (&[1u8; 12][..], &[2u8; 12][..]),
        (&[1u8; 13][..], &[2u8; 20][..]),
    ] {
        for len in [16usize, 100, 1000] {
            let data = secret_vec(len, 0x44);
            let mut t = c.one(ig.compute(n0, &data)).unwrap();
            public(&mut t);
            let new = secret_vec(8, 0x99);
            let mut r = c
                .one(ig.replace(n0, &t, len as u64, 4, &data[4..12], &new, n1))
                .unwrap();
            public(&mut r);
            let more = secret_vec(20, 0x55);
            let mut a = c.one(ig.append(n0, &t, len as u64, &more, n1)).unwrap();
            public(&mut a);
            let mut tr = c
                .one(ig.truncate(n0, &t, len as u64, &data[len - 7..], n1))
                .unwrap();
            public(&mut tr);
            let mut rn = c.one(ig.renonce(n0, &t, len as u64, n1)).unwrap();
            public(&mut rn);
        }
    }
    report("incremental-gmac", c);

    // The rest of the crate's AEADs, all through the same kernels.
    let mut c = Calls(0);
    let three = gcmkit::GcmSiv2015::with_engine(
        gcmkit::GcmSiv2015Variant::ThreeKey,
        &key[..16],
        &key[..16],
        Some(&key[16..]),
        e,
    )
    .unwrap()
    .with_counter_bits(8)
    .unwrap();
    let one = gcmkit::GcmSiv2015::one_key_with_engine(&key[..16], e).unwrap();
    for len in LENS {
        // k = 8 bounds a message to 255 blocks.
        if len <= 255 * 16 {
            in_place_round_trip(&mut c, &three, &[6u8; 12], len);
        }
        in_place_round_trip(&mut c, &one, &[6u8; 12], len);
    }
    report("gcm-siv-2015", c);

    let mut c = Calls(0);
    let x = gcmkit::XAes256Gcm::with_engine(&key, e).unwrap();
    let d = gcmkit::DndkGcm::with_engine(&key, e)
        .unwrap()
        .with_key_commitment();
    for len in LENS {
        in_place_round_trip(&mut c, &x, &[6u8; 24], len);
        in_place_round_trip(&mut c, &d, &[6u8; 24], len);
    }
    report("xaes-dndk", c);

    // Cobblestone uses the engine GCMKIT_ENGINE names (run.sh sets it per engine).
    let mut c = Calls(0);
    for len in [0usize, 1, 40_000] {
        let pt = secret_vec(len, 1);
        let mut ct = c
            .one(gcmkit::chunked::encrypt(&key[..16], b"ctx", &pt))
            .unwrap();
        public(&mut ct);
        let mut back = c
            .one(gcmkit::chunked::decrypt(&key[..16], b"ctx", &ct))
            .unwrap();
        public(&mut back);
        let last = ct.len() - 1;
        ct[last] ^= 1;
        assert!(c
            .one(gcmkit::chunked::decrypt(&key[..16], b"ctx", &ct))
            .is_err());
    }
    report("cobblestone", c);
}

/// One AES-GCM key set-up and encryption with the negative control `name` selected: the
/// checking tool must stop the process inside it. `tag-taint` is not a leak in gcmkit but
/// a check of the check: with the declassification hook off, the tag comparison's result
/// stays secret, and MSan must stop at the branch on it: the taint of the key and
/// plaintext reached the tag through this engine's AES, CTR and GHASH kernels (a 4133-byte
/// message, whole stitched batches and a tail, under a 13-byte IV).
#[cfg(gcmkit_ct_control)]
pub fn control(name: &str, e: Engine) {
    if name == "tag-taint" {
        crate::mark::DECLASSIFY.store(false, std::sync::atomic::Ordering::Relaxed);
        let g = gcm(&secret_vec(16, 0x11), e);
        let mut buf = secret_vec(4133, 0x42);
        let tag = g
            .encrypt_in_place_detached(&[7u8; 13], b"", &mut buf)
            .unwrap();
        let mut t = tag.as_ref().to_vec();
        public(&mut buf);
        public(&mut t); // a public tag: only the recomputed one carries the taint
        let _ = g.decrypt_in_place_detached(&[7u8; 13], b"", &mut buf, &t);
        println!("control {name} {}: NOT flagged", e.name());
        return;
    }
    gcmkit::ct_control_select(name);
    let key = secret_vec(16, 0x11);
    let mut buf = secret_vec(64, 0x42);
    let tag = gcm(&key, e)
        .encrypt_in_place_detached(&[7u8; 12], b"", &mut buf)
        .unwrap();
    gcmkit::ct_control_select("");
    let mut t = tag.as_ref().to_vec();
    public(&mut t);
    println!("control {name} {}: NOT flagged", e.name());
}
