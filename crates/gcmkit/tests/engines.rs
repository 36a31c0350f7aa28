//! Every engine against the portable engine: random lengths 0..70000 (crossing every
//! tail, vector and aggregation boundary), random alignments, in place and out of place,
//! all key sizes, GCM (12-byte and other IVs), GMAC and AES-GCM-SIV.

mod common;
use common::{engines, hardware_engines};
use gcmkit::AeadMode;
use gcmkit::{AesGcm, AesGcmSiv, Engine, Gmac};
use proptest::prelude::*;

/// Lengths around every boundary the kernels have: blocks, vectors (1/2/4 blocks),
/// batches (8, 16, 32 blocks), two batches (the stitched loop's entry), 4 KiB.
fn boundary_lengths() -> Vec<usize> {
    let mut v = vec![];
    for base in [
        0usize, 16, 32, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 65536,
    ] {
        for d in [0isize, -17, -16, -15, -1, 1, 15, 16, 17] {
            let n = base as isize + d;
            if (0..70000).contains(&n) {
                v.push(n as usize);
            }
        }
    }
    v.sort();
    v.dedup();
    v
}

fn data(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

fn check_all(len: usize, aad_len: usize, align: usize, iv_len: usize, key_len: usize, seed: u64) {
    let key = data(key_len, seed);
    let iv = data(iv_len, seed + 1);
    let aad = data(aad_len, seed + 2);
    let pt = data(len, seed + 3);
    let reference = AesGcm::with_engine(&key, Engine::Portable)
        .unwrap()
        .encrypt(&iv, &pt, &aad)
        .unwrap();
    // AES-GCM-SIV takes 12-byte nonces only, and 16- or 32-byte keys.
    let siv_nonce = data(12, seed + 4);
    let siv_ref = (key_len != 24).then(|| {
        AesGcmSiv::with_engine(&key, Engine::Portable)
            .unwrap()
            .encrypt(&siv_nonce, &pt, &aad)
            .expect("AES-GCM-SIV encrypts every length here")
    });
    let mac_ref = Gmac::with_engine(&key, Engine::Portable)
        .unwrap()
        .compute(&iv, &pt)
        .unwrap();
    let hardware: Vec<Engine> = hardware_engines();
    for e in hardware {
        let gcm = AesGcm::with_engine(&key, e).unwrap();
        assert_eq!(
            gcm.encrypt(&iv, &pt, &aad).unwrap(),
            reference,
            "{e:?} len {len} aad {aad_len} iv {iv_len}"
        );
        // In place at an odd alignment.
        let mut storage = vec![0u8; len + 64];
        let buf = &mut storage[align..align + len];
        buf.copy_from_slice(&pt);
        let tag = gcm.encrypt_in_place_detached(&iv, &aad, buf).unwrap();
        assert_eq!(&buf[..], &reference[..len]);
        assert_eq!(tag.as_ref(), &reference[len..]);
        gcm.decrypt_in_place_detached(&iv, &aad, buf, tag.as_ref())
            .unwrap();
        assert_eq!(&buf[..], &pt[..], "{e:?} decrypt len {len}");
        assert_eq!(
            Gmac::with_engine(&key, e)
                .unwrap()
                .compute(&iv, &pt)
                .unwrap(),
            mac_ref,
            "{e:?} gmac len {len}"
        );
        // Out of place, one pass from source to destination (odd alignments for both).
        let mut out = vec![0u8; len + 16 + 64];
        let dst = &mut out[(align + 7) % 64..(align + 7) % 64 + len + 16];
        gcm.encrypt_into(&iv, &pt, &aad, dst).unwrap();
        assert_eq!(&dst[..], &reference[..], "{e:?} encrypt_into len {len}");
        let mut back = vec![0u8; len + 64];
        let b = &mut back[align % 64..align % 64 + len];
        gcm.decrypt_into(&iv, &reference, &aad, b).unwrap();
        assert_eq!(&b[..], &pt[..], "{e:?} decrypt_into len {len}");
        let mut forged = reference.clone();
        forged[len] ^= 1;
        assert_eq!(
            gcm.decrypt_into(&iv, &forged, &aad, b),
            Err(gcmkit::Error::AuthenticationFailed),
            "{e:?} forged tag, len {len}"
        );
        assert!(
            b.iter().all(|&x| x == 0),
            "{e:?} decrypt_into left data after failure"
        );
        if let Some(siv_ct) = &siv_ref {
            let siv = AesGcmSiv::with_engine(&key, e).unwrap();
            let nonce = &siv_nonce[..];
            assert_eq!(
                &siv.encrypt(nonce, &pt, &aad).unwrap(),
                siv_ct,
                "{e:?} siv len {len}"
            );
            let mut storage = vec![0u8; siv_ct.len() + 64];
            let buf = &mut storage[align..align + len];
            buf.copy_from_slice(&siv_ct[..len]);
            siv.decrypt_in_place_detached(nonce, &aad, buf, &siv_ct[len..])
                .unwrap();
            assert_eq!(&buf[..], &pt[..], "{e:?} siv decrypt len {len}");
            check_siv_into(&siv, nonce, &aad, &pt, siv_ct, align);
        }
    }
}

/// AES-GCM-SIV from a source into a separate destination (odd alignments for both):
/// `encrypt_into` and `decrypt_into` give `siv_ct` and `pt`, and a forged tag leaves the
/// destination zeroed.
fn check_siv_into(
    siv: &AesGcmSiv,
    nonce: &[u8],
    aad: &[u8],
    pt: &[u8],
    siv_ct: &[u8],
    align: usize,
) {
    let (e, len) = (siv.engine(), pt.len());
    let mut out = vec![0u8; len + 16 + 64];
    let dst = &mut out[(align + 5) % 64..(align + 5) % 64 + len + 16];
    siv.encrypt_into(nonce, pt, aad, dst).unwrap();
    assert_eq!(&dst[..], siv_ct, "{e:?} siv encrypt_into len {len}");
    let mut back = vec![0u8; len + 64];
    let b = &mut back[(align + 3) % 64..(align + 3) % 64 + len];
    siv.decrypt_into(nonce, siv_ct, aad, b).unwrap();
    assert_eq!(&b[..], pt, "{e:?} siv decrypt_into len {len}");
    let mut forged = siv_ct.to_vec();
    forged[len] ^= 1;
    assert!(siv.decrypt_into(nonce, &forged, aad, b).is_err());
    assert!(
        b.iter().all(|&x| x == 0),
        "{e:?} siv decrypt_into left data after failure, len {len}"
    );
    if len > 0 {
        // A flipped ciphertext bit (the tag intact) fails too, and zeroes the output.
        let mut flipped = siv_ct.to_vec();
        flipped[len / 2] ^= 0x80;
        b.fill(0xa5);
        assert!(siv.decrypt_into(nonce, &flipped, aad, b).is_err());
        assert!(
            b.iter().all(|&x| x == 0),
            "{e:?} siv decrypt_into flipped, len {len}"
        );
    }
}

/// AES-GCM-SIV's kernel paths on every engine against the portable one, in place and
/// from a source into a separate destination: around the fused small kernel's bound
/// (24 blocks with the length block), the bulk decryption's smaller stitched batches
/// (below two batches of the engine's width: 512 B on avx2, 1 KiB on avx512) and the
/// full-width ones, with and without AAD; and around the bounds of the bulk path's split
/// POLYVAL (the rest batch hashed apart: a decryption from two small batches, 512 B on
/// avx512; an encryption's batches hashed apart up to seven batches of the powers it
/// computes: on avx512 16 powers below 1536 B, then 32 up to 3584 B; on avx2 8 powers
/// below 768 B, then 16 up to 1792 B).
#[test]
fn siv_bulk_paths_match_portable() {
    let mut lens: Vec<usize> = vec![];
    for base in [
        352usize, 368, 384, 400, 512, 576, 768, 1008, 1024, 1280, 1500, 1536, 1792, 2048, 2560,
        3072, 3584,
    ] {
        lens.extend(base.saturating_sub(17)..=base + 17);
    }
    lens.sort();
    lens.dedup();
    for (i, len) in lens.into_iter().enumerate() {
        let aad_len = [0, 5, 16, 40, 200][i % 5];
        siv_matches_portable(i as u64, [16, 32][i % 2], aad_len, len);
    }
}

/// AES-GCM-SIV with `key_len`-byte keys and data from `seed` on every engine against the
/// portable one: encryption, decryption and the `_into` forms at an offset from `seed`
/// (forged tags refused with the output zeroed, `check_siv_into`).
fn siv_matches_portable(seed: u64, key_len: usize, aad_len: usize, len: usize) {
    let (key, nonce, aad, pt) = (
        data(key_len, seed),
        data(12, seed + 1),
        data(aad_len, seed + 2),
        data(len, seed + 3),
    );
    let reference = AesGcmSiv::with_engine(&key, Engine::Portable)
        .unwrap()
        .encrypt(&nonce, &pt, &aad)
        .unwrap();
    for e in engines() {
        let siv = AesGcmSiv::with_engine(&key, e).unwrap();
        assert_eq!(
            siv.encrypt(&nonce, &pt, &aad).unwrap(),
            reference,
            "{e:?} aad {aad_len} len {len}"
        );
        assert_eq!(
            siv.decrypt(&nonce, &reference, &aad).unwrap(),
            pt,
            "{e:?} aad {aad_len} len {len}"
        );
        check_siv_into(&siv, &nonce, &aad, &pt, &reference, seed as usize % 61);
    }
}

/// AES-GCM-SIV of nine and ten data blocks with at most one AAD block: the fused `tiny`
/// kernel's own entry point on aesni and avx2 (`siv_tiny_upper`), the bulk kernel on
/// avx512, the small kernel's loop elsewhere. Every length from 129 to 160 bytes (ten
/// whole blocks included) with every AAD length from 0 to 16 bytes, both key sizes; every
/// engine against the portable one, in place and into a buffer, forged tags refused with
/// the output zeroed.
#[test]
fn siv_nine_and_ten_blocks_every_short_aad_match_portable() {
    let mut seed = 5000u64;
    for len in 129usize..=160 {
        for aad_len in 0usize..=16 {
            for key_len in [16, 32] {
                seed += 1;
                siv_matches_portable(seed, key_len, aad_len, len);
            }
        }
    }
}

/// AES-GCM-SIV from just past the fused kernel's `tiny` shape (eight data blocks, ten on
/// aesni and avx2: `siv_tiny_upper`) to past the old 24-block bound of the small kernel:
/// on avx2 and avx512 these lengths run the bulk kernel from past `tiny`'s bound,
/// elsewhere the small kernel up to 24 blocks. Every length, with AAD of 0, 1, 16, 17 and
/// 48 bytes in turn, both key sizes; every engine against the portable one, forged tags
/// refused with the output zeroed.
#[test]
fn siv_lengths_past_tiny_match_portable() {
    for (i, len) in (112usize..=420).enumerate() {
        let aad_len = [0, 1, 16, 17, 48][i % 5];
        siv_matches_portable(1000 + i as u64, [16, 32][(i / 5) % 2], aad_len, len);
    }
}

/// AES-GCM-SIV's bulk path reached by its AAD (over 24 blocks with the length block)
/// with little or no data: a short decryption's stitched batches then cover nothing or
/// one batch, and the rest after them with the length block is hashed as one batch;
/// every engine against the portable one, forged tags refused with the output zeroed.
#[test]
fn siv_bulk_long_aad_short_data_match_portable() {
    let mut i = 0u64;
    for aad_len in [368usize, 385, 400, 640] {
        for len in [0usize, 1, 15, 16, 17, 63, 64, 65, 200, 255, 256, 257, 300] {
            i += 1;
            siv_matches_portable(i, [16, 32][i as usize % 2], aad_len, len);
        }
    }
}

#[test]
fn every_engine_equals_portable_at_every_boundary() {
    for (i, len) in boundary_lengths().into_iter().enumerate() {
        let key_len = [16, 24, 32][i % 3];
        let iv_len = if i % 4 == 3 { 1 + i % 40 } else { 12 };
        check_all(len, (i * 7) % 100, i % 61, iv_len, key_len, i as u64);
    }
}

/// The stitched pass moves a destination that is 16, 32 or 48 bytes past a vector boundary
/// onto one with a short head of whole blocks (from 64 KiB up; 16 batches, 8 KiB on
/// AVX-512, before): every 16-byte-aligned offset of the in-place buffer and of
/// `decrypt_into`'s output (`align`), and of `encrypt_into`'s output (`align + 7`), at
/// lengths around that threshold and past it (the rest after the batches 0-511 bytes with
/// and without a head), with 96-bit and other IVs (public and secret counters).
#[test]
fn stitched_destination_heads_at_every_block_offset() {
    let lens = [
        4095,
        8191,
        8192,
        8192 + 48,
        8192 + 511,
        12345,
        16384 + 16,
        40000,
        65536 - 17,
        65536 - 1,
        65536,
        65536 + 48,
        65536 + 511,
        65536 + 512 + 464,
    ];
    let mut i = 0u64;
    for len in lens {
        for align in [0, 16, 32, 48, 9, 25, 41, 57] {
            let iv_len = if i % 3 == 2 { 16 } else { 12 };
            check_all(
                len,
                (i as usize * 5) % 40,
                align,
                iv_len,
                [16, 32][i as usize % 2],
                i,
            );
            i += 1;
        }
    }
}

/// Messages whose stitched batches end the data exactly (whole batches of 8, 16 or 32
/// blocks: aesni, avx2, avx512) take the fused end: the last batch hashed with the powers
/// one higher, the length block's L·H added, E(K, Y0) after the batches
/// (`kernels::gcm::stitched_to_tag`). Every multiple of 128 bytes from 256 B to 8 KiB and
/// past 64 KiB, every key size, AAD of 0-99 bytes (so the batches start after a hashed
/// AAD), 96-bit and other IVs, in place and into a buffer at odd alignments, against the
/// portable engine; a forged tag is refused with the output zeroed (`check_all`).
#[test]
fn batches_that_end_the_data_fuse_the_length_block_and_tag() {
    let lens = (2..=64)
        .map(|m| 128 * m)
        .chain([65536, 65536 + 48, 65536 + 512]);
    for (i, len) in lens.enumerate() {
        let iv_len = [12, 12, 16, 1][i % 4];
        check_all(
            len,
            [0, 13, 16, 99][(i + 1) % 4],
            [0, 16, 48, 9][i % 4],
            iv_len,
            [16, 24, 32][i % 3],
            900 + i as u64,
        );
    }
}

/// Counters across parts and carries: `encrypt_parts_into` with a first part of k whole
/// blocks starts the encryption update of the second part at counter 2 + k (96-bit IV),
/// every residue of the last byte mod 32 here, and a second part of 5000-5100 bytes
/// crosses a carry out of the last byte (every 256 blocks), which the whole-message
/// decryption's batches, started from the key's round-one table
/// (`gcm_lean::RoundOneRun`), cross too; every engine against the portable engine's
/// `encrypt`, both key sizes, with and without AAD, and each ciphertext decrypted back.
/// (The round-one table at every starting residue: `gcm_lean`'s unit test, random
/// counters.)
#[test]
fn stitched_counters_start_at_every_residue() {
    for k in 0..40usize {
        for klen in [16, 32] {
            let key = data(klen, k as u64);
            let iv = data(12, 100 + k as u64);
            let aad = data(if k % 2 == 0 { 0 } else { 21 }, 200 + k as u64);
            let pt = data(16 * k + 5000 + 3 * k, 300 + k as u64);
            let reference = AesGcm::with_engine(&key, Engine::Portable)
                .unwrap()
                .encrypt(&iv, &pt, &aad)
                .unwrap();
            for e in engines() {
                let gcm = AesGcm::with_engine(&key, e).unwrap();
                let (x, y) = pt.split_at(16 * k);
                let mut out = vec![0u8; reference.len()];
                gcm.encrypt_parts_into(&iv, &[x, y], &aad, &mut out)
                    .unwrap();
                assert_eq!(out, reference, "{e:?} {klen} first part {k} blocks");
                let mut back = vec![0u8; pt.len()];
                gcm.decrypt_into(&iv, &reference, &aad, &mut back).unwrap();
                assert_eq!(back, pt, "{e:?} {klen} decrypt_into {k}");
            }
        }
    }
}

#[test]
fn aad_lengths_cross_every_boundary() {
    for aad_len in boundary_lengths().into_iter().filter(|&n| n < 20000) {
        check_all(100, aad_len, 3, 12, 16, aad_len as u64);
    }
}

/// Messages of 0 to 144 bytes with AAD of 0 to 33 bytes under a 96-bit IV (the few-block
/// kernels' shapes, AES-GCM's up to four blocks and AES-GCM-SIV's `tiny` up to eight with
/// one block of AAD, and the lengths on either side of them: 16 to 128 B and 16 B of AAD),
/// every key size, every tag length: each engine's
/// ciphertext and truncated tag equal the portable engine's, both in-place and
/// out-of-place decryptions take them back, and a forged tag is refused with the output
/// zeroed.
#[test]
fn few_block_messages_with_and_without_aad() {
    for (i, key_len) in [16usize, 24, 32].into_iter().enumerate() {
        for len in 0..=144 {
            for aad_len in [0usize, 1, 5, 13, 15, 16, 17, 33] {
                let seed = (100000 * i + 100 * len + aad_len) as u64;
                check_all(len, aad_len, (len + aad_len) % 61, 12, key_len, seed);
                let (key, iv, pt) = (data(key_len, seed), data(12, seed + 1), data(len, seed + 3));
                let aad = data(aad_len, seed + 2);
                let aad = &aad[..];
                for tag_len in [4, 8, 12, 13, 14, 15, 16] {
                    let reference = AesGcm::with_engine(&key, Engine::Portable)
                        .unwrap()
                        .with_tag_len(tag_len)
                        .unwrap()
                        .encrypt(&iv, &pt, aad)
                        .unwrap();
                    for e in engines() {
                        let gcm = AesGcm::with_engine(&key, e)
                            .unwrap()
                            .with_tag_len(tag_len)
                            .unwrap();
                        let what =
                            format!("{e:?} len {len} aad {aad_len} key {key_len} tag {tag_len}");
                        let mut buf = pt.clone();
                        let tag = gcm.encrypt_in_place_detached(&iv, aad, &mut buf).unwrap();
                        assert_eq!(buf, reference[..len], "{what}");
                        assert_eq!(tag.as_ref(), &reference[len..], "{what}");
                        let mut out = vec![0u8; len];
                        gcm.decrypt_into(&iv, &reference, aad, &mut out).unwrap();
                        assert_eq!(out, pt, "{what}");
                        gcm.decrypt_in_place_detached(&iv, aad, &mut buf, tag.as_ref())
                            .unwrap();
                        assert_eq!(buf, pt, "{what}");
                        let mut forged = reference.clone();
                        forged[len + tag_len - 1] ^= 0x80;
                        let mut out = vec![0x55u8; len];
                        assert!(
                            gcm.decrypt_into(&iv, &forged, aad, &mut out).is_err(),
                            "{what}"
                        );
                        assert!(out.iter().all(|&x| x == 0), "{what}");
                        let mut buf = forged[..len].to_vec();
                        let r = gcm.decrypt_in_place_detached(&iv, aad, &mut buf, &forged[len..]);
                        assert!(r.is_err(), "{what}");
                        assert!(buf.iter().all(|&x| x == 0), "{what}");
                    }
                }
            }
        }
    }
}

/// Messages of 65 to 272 bytes (five to seventeen blocks: the fused wide-vector kernel
/// `gcm_mid` takes up to its backend's bound, sixteen on avx2, and the lengths past it)
/// under a 96-bit IV with AAD of 0 to 33 bytes, and of 250 and 300 bytes (with which the
/// AAD, data and length blocks fit the key's 32 powers up to 240 and 192 bytes of data,
/// and exceed them past that, so the kernel declines): every engine's ciphertext
/// and tag equal the portable engine's, in place and from a source into a destination,
/// and a forged tag is refused with the output zeroed, for every key size.
#[test]
fn mid_block_messages_every_length_match_portable() {
    for (i, key_len) in [16usize, 24, 32].into_iter().enumerate() {
        for len in 65..=272 {
            for aad_len in [0usize, 1, 5, 13, 16, 17, 33, 250, 300] {
                let seed = (7 * 100000 * (i + 1) + 1000 * len + aad_len) as u64;
                let (key, iv, pt) = (data(key_len, seed), data(12, seed + 1), data(len, seed + 3));
                let aad = data(aad_len, seed + 2);
                let reference = AesGcm::with_engine(&key, Engine::Portable)
                    .unwrap()
                    .encrypt(&iv, &pt, &aad)
                    .unwrap();
                for e in engines() {
                    let gcm = AesGcm::with_engine(&key, e).unwrap();
                    let what = format!("{e:?} len {len} aad {aad_len} key {key_len}");
                    let mut buf = pt.clone();
                    let tag = gcm.encrypt_in_place_detached(&iv, &aad, &mut buf).unwrap();
                    assert_eq!(buf, reference[..len], "{what}");
                    assert_eq!(tag.as_ref(), &reference[len..], "{what}");
                    let mut out = vec![0u8; len + 16];
                    gcm.encrypt_into(&iv, &pt, &aad, &mut out).unwrap();
                    assert_eq!(out, reference, "{what}");
                    let mut back = vec![0u8; len];
                    gcm.decrypt_into(&iv, &reference, &aad, &mut back).unwrap();
                    assert_eq!(back, pt, "{what}");
                    gcm.decrypt_in_place_detached(&iv, &aad, &mut buf, tag.as_ref())
                        .unwrap();
                    assert_eq!(buf, pt, "{what}");
                    // A flipped bit in the last ciphertext byte, then in the tag.
                    for at in [len - 1, len + 15] {
                        let mut forged = reference.clone();
                        forged[at] ^= 0x80;
                        let mut out = vec![0x55u8; len];
                        assert!(
                            gcm.decrypt_into(&iv, &forged, &aad, &mut out).is_err(),
                            "{what}"
                        );
                        assert!(out.iter().all(|&x| x == 0), "{what}");
                        let mut buf = forged[..len].to_vec();
                        let r = gcm.decrypt_in_place_detached(&iv, &aad, &mut buf, &forged[len..]);
                        assert!(r.is_err(), "{what}");
                        assert!(buf.iter().all(|&x| x == 0), "{what}");
                    }
                }
            }
        }
    }
}

/// A 16-byte message without AAD under a 96-bit IV: the one-block kernel with the block in
/// registers (`Block16`). Every engine against portable, every key size, in place and out
/// of place; a flipped bit in any byte of the ciphertext or of the tag (either half of
/// the 128-bit compare) is refused with the output zeroed.
#[test]
fn one_whole_block_every_byte_forged() {
    for (i, key_len) in [16usize, 24, 32].into_iter().enumerate() {
        let seed = 7000 + i as u64;
        let (key, iv, pt) = (data(key_len, seed), data(12, seed + 1), data(16, seed + 2));
        let reference = AesGcm::with_engine(&key, Engine::Portable)
            .unwrap()
            .encrypt(&iv, &pt, b"")
            .unwrap();
        for e in engines() {
            let gcm = AesGcm::with_engine(&key, e).unwrap();
            let what = format!("{e:?} key {key_len}");
            assert_eq!(gcm.encrypt(&iv, &pt, b"").unwrap(), reference, "{what}");
            let mut out = [0u8; 16];
            gcm.decrypt_into(&iv, &reference, b"", &mut out).unwrap();
            assert_eq!(out[..], pt[..], "{what}");
            let mut buf = reference[..16].to_vec();
            gcm.decrypt_in_place_detached(&iv, b"", &mut buf, &reference[16..])
                .unwrap();
            assert_eq!(buf, pt, "{what}");
            for at in 0..32 {
                let mut forged = reference.clone();
                forged[at] ^= 1 << (at % 8);
                let mut out = [0x55u8; 16];
                let r = gcm.decrypt_into(&iv, &forged, b"", &mut out);
                assert_eq!(
                    r,
                    Err(gcmkit::Error::AuthenticationFailed),
                    "{what} at {at}"
                );
                assert_eq!(out, [0u8; 16], "{what} at {at}");
                let mut buf = forged[..16].to_vec();
                let r = gcm.decrypt_in_place_detached(&iv, b"", &mut buf, &forged[16..]);
                assert_eq!(
                    r,
                    Err(gcmkit::Error::AuthenticationFailed),
                    "{what} at {at}"
                );
                assert!(buf.iter().all(|&x| x == 0), "{what} at {at}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_lengths_alignments_and_ivs(len in 0usize..70000, aad_len in 0usize..600, align in 0usize..64,
                                         iv_len in 1usize..48, key_idx in 0usize..3, seed in any::<u64>()) {
        check_all(len, aad_len, align, iv_len, [16, 24, 32][key_idx], seed);
    }
}

/// GCM-SIV (2015)'s fused small-message kernel (messages up to 64 bytes, hashed input up
/// to 32 blocks) against the portable engine: every variant, counter widths k that clip
/// and that do not, messages 0..=80 and AAD around the 32-block limit; a tampered tag
/// zeroes the buffer on every engine.
#[test]
fn gcm_siv_2015_small_kernel_matches_portable() {
    use gcmkit::{GcmSiv2015, GcmSiv2015Variant};
    let build = |e: Engine, v: GcmSiv2015Variant, k: u32| {
        let (k1, k2, k3) = (data(16, 1), data(32, 2), data(32, 3));
        let c = match v {
            GcmSiv2015Variant::OneKey => GcmSiv2015::one_key_with_engine(&k1, e),
            GcmSiv2015Variant::TwoKey => GcmSiv2015::with_engine(v, &k1, &k2[..16], None, e),
            GcmSiv2015Variant::ThreeKey => GcmSiv2015::with_engine(v, &k1, &k2, Some(&k3), e),
        };
        c.unwrap().with_counter_bits(k).unwrap()
    };
    for v in [
        GcmSiv2015Variant::OneKey,
        GcmSiv2015Variant::TwoKey,
        GcmSiv2015Variant::ThreeKey,
    ] {
        for k in [3u32, 8, 32] {
            let reference = build(Engine::Portable, v, k);
            for e in engines() {
                let c = build(e, v, k);
                for n in (0..=80).step_by(7).chain([16, 32, 48, 63, 64, 65]) {
                    if (n as u64).div_ceil(16) >= (1 << k) {
                        continue;
                    }
                    for aad_len in [0usize, 1, 31, 440, 464, 465, 500] {
                        let (pt, aad, nonce) = (data(n, n as u64), data(aad_len, 7), data(12, 9));
                        let want = reference.encrypt(&nonce, &pt, &aad).unwrap();
                        let got = c.encrypt(&nonce, &pt, &aad).unwrap();
                        assert_eq!(got, want, "{e:?} {v:?} k={k} n={n} aad={aad_len}");
                        assert_eq!(c.decrypt(&nonce, &want, &aad).unwrap(), pt);
                        let mut buf = want[..n].to_vec();
                        let mut tag = want[n..].to_vec();
                        tag[15] ^= 0x80;
                        assert!(c
                            .decrypt_in_place_detached(&nonce, &aad, &mut buf, &tag)
                            .is_err());
                        assert!(buf.iter().all(|&b| b == 0));
                    }
                }
            }
        }
    }
}

/// Naming another architecture's engine is its own clear error (not "unknown name"), and a
/// misspelling says which names exist.
#[test]
fn engine_names_of_other_architectures_are_clear_errors() {
    #[cfg(target_arch = "x86_64")]
    let foreign = "armv8";
    #[cfg(target_arch = "aarch64")]
    let foreign = "aesni";
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let msg = Engine::from_name(foreign).unwrap_err().to_string();
        assert!(msg.contains("another CPU architecture"), "{msg}");
    }
    let msg = Engine::from_name("armv9").unwrap_err().to_string();
    assert!(
        msg.contains("unknown engine name") && msg.contains("armv8"),
        "{msg}"
    );
    for e in Engine::ALL {
        assert_eq!(Engine::from_name(e.name()).unwrap(), *e);
    }
}

/// Below 64 KiB the stitched pass writes its batches wherever the destination lies (no
/// head apart): every rest after the last batch (0 to 511 bytes past 16 KiB), with the
/// destination on a 64-byte boundary and 16 and 48 bytes past one, AAD absent and
/// present, 96-bit and 16-byte IVs; each hardware engine against the portable one in
/// place, `encrypt_into` and `decrypt_into`, and a forged tag refused with the output
/// zeroed.
#[test]
fn every_rest_past_16_kib_at_each_destination_offset() {
    let key = data(16, 77);
    let hardware: Vec<Engine> = hardware_engines();
    let portable = AesGcm::with_engine(&key, Engine::Portable).unwrap();
    let gcms: Vec<AesGcm> = hardware
        .iter()
        .map(|&e| AesGcm::with_engine(&key, e).unwrap())
        .collect();
    for rest in 0..512usize {
        let len = 16384 + rest;
        let iv = data(if rest % 5 == 4 { 16 } else { 12 }, rest as u64);
        let aad = data(if rest % 2 == 1 { 13 } else { 0 }, 1000 + rest as u64);
        let pt = data(len, 2000 + rest as u64);
        let reference = portable.encrypt(&iv, &pt, &aad).unwrap();
        let offsets: &[usize] = if rest % 4 == 0 {
            &[0, 16, 48]
        } else {
            &[0, 16]
        };
        for (gcm, e) in gcms.iter().zip(&hardware) {
            for &off in offsets {
                let mut storage = vec![0u8; len + 16 + 128];
                let base = storage.as_ptr() as usize;
                let at = (64 - base % 64) % 64 + off;
                let buf = &mut storage[at..at + len];
                buf.copy_from_slice(&pt);
                let tag = gcm.encrypt_in_place_detached(&iv, &aad, buf).unwrap();
                assert_eq!(&buf[..], &reference[..len], "{e:?} rest {rest} off {off}");
                assert_eq!(
                    tag.as_ref(),
                    &reference[len..],
                    "{e:?} rest {rest} off {off}"
                );
                gcm.decrypt_in_place_detached(&iv, &aad, buf, tag.as_ref())
                    .unwrap();
                assert_eq!(
                    &buf[..],
                    &pt[..],
                    "{e:?} in place back, rest {rest} off {off}"
                );
                let dst = &mut storage[at..at + len + 16];
                gcm.encrypt_into(&iv, &pt, &aad, dst).unwrap();
                assert_eq!(&dst[..], &reference[..], "{e:?} encrypt_into rest {rest}");
                let dst = &mut storage[at..at + len];
                gcm.decrypt_into(&iv, &reference, &aad, dst).unwrap();
                assert_eq!(
                    &dst[..],
                    &pt[..],
                    "{e:?} decrypt_into rest {rest} off {off}"
                );
                let mut forged = reference.clone();
                forged[len + rest % 16] ^= 4;
                assert_eq!(
                    gcm.decrypt_into(&iv, &forged, &aad, dst),
                    Err(gcmkit::Error::AuthenticationFailed),
                    "{e:?} forged rest {rest} off {off}"
                );
                assert!(dst.iter().all(|&x| x == 0), "{e:?} forged rest {rest}");
            }
        }
    }
}
