//! Records of every size class through gcmkit's record protection, checked against an
//! independent AES-GCM (*ring*'s `aead`) with the traffic keys of a real connection:
//! empty, 1 byte, block edges, 1500 B, a full 16 KiB record, TLS 1.3 padding up to the
//! record limit, one byte over it, and tampered or truncated records.

mod common;

use std::sync::Arc;

use common::*;
use ring::aead::{self, Aad, LessSafeKey, Nonce as RingNonce, UnboundKey};
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, Iv, MessageDecrypter, MessageEncrypter, OutboundChunks,
    OutboundPlainMessage,
};
use rustls::{ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion, SupportedCipherSuite};

const SIZES: [usize; 10] = [0, 1, 15, 16, 17, 255, 1500, 4096, 16383, 16384];
const MAX_FRAGMENT: usize = 16384;
const TAG: usize = 16;

/// One direction's traffic key from a real handshake, twice (an `AeadKey` is consumed
/// by the encrypter or decrypter it builds), and the bytes for the independent AES-GCM.
struct Keys {
    for_encrypter: Option<AeadKey>,
    for_decrypter: Option<AeadKey>,
    iv: [u8; 12],
    independent: LessSafeKey,
}

fn split(secrets: ConnectionTrafficSecrets) -> (AeadKey, [u8; 12]) {
    match secrets {
        ConnectionTrafficSecrets::Aes128Gcm { key, iv } => (key, iv.as_ref().try_into().unwrap()),
        ConnectionTrafficSecrets::Aes256Gcm { key, iv } => (key, iv.as_ref().try_into().unwrap()),
        _ => panic!("not an AES-GCM suite"),
    }
}

fn keys(suite: SupportedCipherSuite) -> Keys {
    let mut cc = client_config(gcmkit_only(suite), suite);
    cc.enable_secret_extraction = true;
    let mut sc = server_config(gcmkit_only(suite), suite);
    sc.enable_secret_extraction = true;
    let (mut client, mut server) = connect(&Arc::new(cc), &Arc::new(sc));
    handshake(&mut client, &mut server);
    // extract_keys of gcmkit's suites reports the right variant and bytes: the client's
    // sending key is the server's receiving key.
    let (client_tx, iv) = split(client.dangerous_extract_secrets().unwrap().tx.1);
    let (server_rx, iv2) = split(server.dangerous_extract_secrets().unwrap().rx.1);
    assert_eq!(client_tx.as_ref(), server_rx.as_ref());
    assert_eq!(iv, iv2);
    let alg = match client_tx.as_ref().len() {
        16 => &aead::AES_128_GCM,
        32 => &aead::AES_256_GCM,
        n => panic!("{n}-byte key"),
    };
    let independent = LessSafeKey::new(UnboundKey::new(alg, client_tx.as_ref()).unwrap());
    Keys {
        for_encrypter: Some(client_tx),
        for_decrypter: Some(server_rx),
        iv,
        independent,
    }
}

fn nonce(iv: &[u8; 12], seq: u64) -> [u8; 12] {
    let mut n = *iv;
    for (b, s) in n[4..].iter_mut().zip(seq.to_be_bytes()) {
        *b ^= s;
    }
    n
}

fn plain(data: &[u8]) -> OutboundPlainMessage<'_> {
    OutboundPlainMessage {
        typ: ContentType::ApplicationData,
        version: ProtocolVersion::TLSv1_2,
        payload: OutboundChunks::Single(data),
    }
}

/// The same plaintext as `OutboundChunks::Multiple` in a few shapes: cut at `cuts`, with
/// `lead` extra bytes before the range and `tail` after it (the cursors skip them).
fn multi_chunk_cases(data: &[u8]) -> Vec<(Vec<Vec<u8>>, usize, usize)> {
    let n = data.len();
    let mut cases = Vec::new();
    for cuts in [
        vec![],
        vec![0],
        vec![n],
        vec![n / 2],
        vec![1, n / 3, n.saturating_sub(1)],
    ] {
        for (lead, tail) in [(0usize, 0usize), (3, 0), (0, 5), (17, 2)] {
            let mut owned = vec![pattern(lead, 0xee)];
            let mut at = 0;
            for &c in cuts.iter().filter(|&&c| c <= n) {
                let c = c.max(at);
                owned.push(data[at..c].to_vec());
                at = c;
            }
            owned.push(data[at..].to_vec());
            owned.push(pattern(tail, 0xdd));
            cases.push((owned, lead, lead + n));
        }
    }
    cases
}

/// Encrypts `data` as one chunk and as every multi-chunk shape: all give the same record.
fn assert_chunk_shapes_agree(enc: &mut dyn MessageEncrypter, data: &[u8], seq: u64) -> Vec<u8> {
    let single = enc.encrypt(plain(data), seq).unwrap().encode();
    for (owned, start, end) in multi_chunk_cases(data) {
        let chunks: Vec<&[u8]> = owned.iter().map(|c| &c[..]).collect();
        let msg = OutboundPlainMessage {
            typ: ContentType::ApplicationData,
            version: ProtocolVersion::TLSv1_2,
            payload: OutboundChunks::Multiple {
                chunks: &chunks,
                start,
                end,
            },
        };
        assert_eq!(msg.payload.len(), data.len());
        let multi = enc.encrypt(msg, seq).unwrap().encode();
        assert!(
            multi == single,
            "{} bytes in {} chunks",
            data.len(),
            chunks.len()
        );
    }
    single
}

/// Decrypts the record body `payload` with gcmkit; Ok((type, plaintext)) or rustls's error.
fn open(
    dec: &mut dyn MessageDecrypter,
    typ: ContentType,
    payload: &mut [u8],
    seq: u64,
) -> Result<(ContentType, Vec<u8>), Error> {
    let msg = InboundOpaqueMessage::new(typ, ProtocolVersion::TLSv1_2, payload);
    dec.decrypt(msg, seq).map(|m| (m.typ, m.payload.to_vec()))
}

mod tls13 {
    use super::*;

    fn aead(
        suite: SupportedCipherSuite,
    ) -> &'static dyn rustls::crypto::cipher::Tls13AeadAlgorithm {
        suite.tls13().unwrap().aead_alg
    }

    /// The independent side's TLS 1.3 record: header || AES-GCM(inner, aad = header).
    fn seal_independent(k: &Keys, inner: &[u8], seq: u64) -> Vec<u8> {
        let len = (inner.len() + TAG) as u16;
        let header = [0x17, 0x03, 0x03, (len >> 8) as u8, len as u8];
        let mut body = inner.to_vec();
        let n = RingNonce::assume_unique_for_key(nonce(&k.iv, seq));
        k.independent
            .seal_in_place_append_tag(n, Aad::from(header), &mut body)
            .unwrap();
        [&header[..], &body].concat()
    }

    /// Opens a TLS 1.3 record (header || body) with the independent AES-GCM; returns the
    /// inner plaintext (content || type).
    fn open_independent(k: &Keys, suite: SupportedCipherSuite, wire: &[u8], seq: u64) -> Vec<u8> {
        let mut body = wire[5..].to_vec();
        let n = RingNonce::assume_unique_for_key(nonce(&k.iv, seq));
        let inner = k
            .independent
            .open_in_place(n, Aad::from(&wire[..5]), &mut body)
            .unwrap_or_else(|_| panic!("{:?}: {} bytes", suite.suite(), wire.len()));
        inner.to_vec()
    }

    fn each_suite(f: impl Fn(SupportedCipherSuite, Keys)) {
        for &suite in gcmkit_suites() {
            if matches!(suite, SupportedCipherSuite::Tls13(_)) {
                f(suite, keys(suite));
            }
        }
    }

    #[test]
    fn gcmkit_records_open_with_the_independent_aes_gcm() {
        each_suite(|suite, mut k| {
            let mut enc = aead(suite).encrypter(k.for_encrypter.take().unwrap(), Iv::from(k.iv));
            for (seq, &n) in SIZES.iter().enumerate() {
                let seq = seq as u64 * 1000 + 3;
                let data = pattern(n, seq as u8);
                assert_eq!(enc.encrypted_payload_len(n), n + 1 + TAG);
                let wire = enc.encrypt(plain(&data), seq).unwrap().encode();
                assert_eq!(wire[..3], [0x17, 0x03, 0x03], "outer type and version");
                assert_eq!(
                    usize::from(u16::from_be_bytes([wire[3], wire[4]])),
                    n + 1 + TAG
                );
                let inner = open_independent(&k, suite, &wire, seq);
                assert_eq!(inner, [&data[..], &[0x17]].concat());
            }
        });
    }

    /// Multi-chunk payloads (rustls's `OutboundChunks::Multiple`, cursors included) give
    /// the same record as one chunk, and it opens with the independent AES-GCM.
    #[test]
    fn multi_chunk_records_match_single_chunk_records() {
        each_suite(|suite, mut k| {
            let mut enc = aead(suite).encrypter(k.for_encrypter.take().unwrap(), Iv::from(k.iv));
            for (seq, &n) in SIZES.iter().enumerate() {
                let seq = seq as u64 + 40;
                let data = pattern(n, 5);
                let wire = assert_chunk_shapes_agree(&mut *enc, &data, seq);
                let inner = open_independent(&k, suite, &wire, seq);
                assert_eq!(inner, [&data[..], &[0x17]].concat());
            }
        });
    }

    #[test]
    fn independent_records_with_padding_open_with_gcmkit() {
        each_suite(|suite, mut k| {
            let mut dec = aead(suite).decrypter(k.for_decrypter.take().unwrap(), Iv::from(k.iv));
            // (content bytes, padding bytes): rustls accepts an inner plaintext of at most
            // 2^14 + 1 bytes, padding included.
            let cases = [
                (0, 0),
                (1, 0),
                (0, 1),
                (1, 200),
                (1500, 7),
                (16384, 0),
                (16000, 384),
                (0, 16384),
            ];
            for (seq, &(n, pad)) in cases.iter().enumerate() {
                let seq = seq as u64;
                let data = pattern(n, 9);
                let inner = [&data[..], &[0x17], &vec![0u8; pad]].concat();
                let mut wire = seal_independent(&k, &inner, seq);
                let (typ, got) = open(&mut *dec, ContentType::ApplicationData, &mut wire[5..], seq)
                    .unwrap_or_else(|e| panic!("{:?}: {n}+{pad}: {e}", suite.suite()));
                assert_eq!(
                    (typ, got),
                    (ContentType::ApplicationData, data),
                    "{n}+{pad}"
                );
            }
            // One byte over the limit: authentic, refused by rustls's length rule.
            let inner = [&pattern(16384, 1)[..], &[0x17, 0]].concat();
            let mut wire = seal_independent(&k, &inner, 99);
            let r = open(&mut *dec, ContentType::ApplicationData, &mut wire[5..], 99);
            assert_eq!(r.err(), Some(Error::PeerSentOversizedRecord));
        });
    }

    #[test]
    fn tampered_truncated_or_misnumbered_records_are_refused_and_zeroed() {
        each_suite(|suite, mut k| {
            let mut dec = aead(suite).decrypter(k.for_decrypter.take().unwrap(), Iv::from(k.iv));
            let inner = [&pattern(300, 4)[..], &[0x17]].concat();
            let good = seal_independent(&k, &inner, 5);
            let body = good.len() - 5;
            for flip in [0, 1, body / 2, body - TAG - 1, body - TAG, body - 1] {
                let mut wire = good.clone();
                wire[5 + flip] ^= 0x80;
                let r = open(&mut *dec, ContentType::ApplicationData, &mut wire[5..], 5);
                assert_eq!(r.err(), Some(Error::DecryptError), "byte {flip} flipped");
                // No unauthenticated plaintext stays in rustls's buffer.
                assert!(wire[5..5 + body - TAG].iter().all(|&b| b == 0), "zeroed");
            }
            let mut wire = good.clone();
            let r = open(&mut *dec, ContentType::ApplicationData, &mut wire[5..], 6);
            assert_eq!(r.err(), Some(Error::DecryptError), "wrong sequence number");
            for short in [0, 1, TAG - 1] {
                let mut wire = good[..5 + short].to_vec();
                let r = open(&mut *dec, ContentType::ApplicationData, &mut wire[5..], 5);
                assert_eq!(r.err(), Some(Error::DecryptError), "{short}-byte body");
            }
            let mut wire = good.clone();
            let r = open(&mut *dec, ContentType::ApplicationData, &mut wire[5..], 5);
            assert_eq!(
                r.unwrap().1,
                inner[..300],
                "the untouched record still opens"
            );
        });
    }
}

mod tls12 {
    use super::*;

    fn aead(
        suite: SupportedCipherSuite,
    ) -> &'static dyn rustls::crypto::cipher::Tls12AeadAlgorithm {
        match suite {
            SupportedCipherSuite::Tls12(s) => s.aead_alg,
            _ => unreachable!(),
        }
    }

    fn aad(seq: u64, typ: u8, len: usize) -> [u8; 13] {
        let mut a = [0u8; 13];
        a[..8].copy_from_slice(&seq.to_be_bytes());
        a[8] = typ;
        a[9..11].copy_from_slice(&[0x03, 0x03]);
        a[11..].copy_from_slice(&(len as u16).to_be_bytes());
        a
    }

    /// The independent side's record body: explicit nonce || AES-GCM(data) || tag.
    fn seal_independent(k: &Keys, explicit: [u8; 8], data: &[u8], seq: u64) -> Vec<u8> {
        let mut n = [0u8; 12];
        n[..4].copy_from_slice(&k.iv[..4]);
        n[4..].copy_from_slice(&explicit);
        let mut body = data.to_vec();
        k.independent
            .seal_in_place_append_tag(
                RingNonce::assume_unique_for_key(n),
                Aad::from(aad(seq, 0x17, data.len())),
                &mut body,
            )
            .unwrap();
        [&explicit[..], &body].concat()
    }

    fn each_suite(f: impl Fn(SupportedCipherSuite, Keys)) {
        for &suite in gcmkit_suites() {
            if matches!(suite, SupportedCipherSuite::Tls12(_)) {
                f(suite, keys(suite));
            }
        }
    }

    #[test]
    fn gcmkit_records_open_with_the_independent_aes_gcm() {
        each_suite(|suite, mut k| {
            let mut enc =
                aead(suite).encrypter(k.for_encrypter.take().unwrap(), &k.iv[..4], &k.iv[4..]);
            for (seq, &n) in SIZES.iter().enumerate() {
                let seq = seq as u64 * 1000 + 3;
                let data = pattern(n, seq as u8);
                assert_eq!(enc.encrypted_payload_len(n), 8 + n + TAG);
                let wire = enc.encrypt(plain(&data), seq).unwrap().encode();
                assert_eq!(wire[..3], [0x17, 0x03, 0x03]);
                let expected_nonce = nonce(&k.iv, seq);
                assert_eq!(
                    wire[5..13],
                    expected_nonce[4..],
                    "explicit nonce = iv ^ seq"
                );
                let mut body = wire[13..].to_vec();
                let inner = k
                    .independent
                    .open_in_place(
                        RingNonce::assume_unique_for_key(expected_nonce),
                        Aad::from(aad(seq, 0x17, n)),
                        &mut body,
                    )
                    .unwrap_or_else(|_| panic!("{:?}: {n} bytes", suite.suite()));
                assert_eq!(inner, &data[..]);
            }
        });
    }

    /// Multi-chunk payloads give the same record as one chunk (which is encrypted straight
    /// from the caller's bytes), and it opens with the independent AES-GCM.
    #[test]
    fn multi_chunk_records_match_single_chunk_records() {
        each_suite(|suite, mut k| {
            let mut enc =
                aead(suite).encrypter(k.for_encrypter.take().unwrap(), &k.iv[..4], &k.iv[4..]);
            for (seq, &n) in SIZES.iter().enumerate() {
                let seq = seq as u64 + 40;
                let data = pattern(n, 6);
                let wire = assert_chunk_shapes_agree(&mut *enc, &data, seq);
                assert_eq!(wire.len(), 5 + 8 + n + TAG);
                let mut body = wire[13..].to_vec();
                let inner = k
                    .independent
                    .open_in_place(
                        RingNonce::assume_unique_for_key(nonce(&k.iv, seq)),
                        Aad::from(aad(seq, 0x17, n)),
                        &mut body,
                    )
                    .unwrap_or_else(|_| panic!("{:?}: {n} bytes", suite.suite()));
                assert_eq!(inner, &data[..]);
            }
        });
    }

    #[test]
    fn independent_records_open_with_gcmkit() {
        each_suite(|suite, mut k| {
            let mut dec = aead(suite).decrypter(k.for_decrypter.take().unwrap(), &k.iv[..4]);
            for (seq, &n) in SIZES.iter().enumerate() {
                let seq = seq as u64 + 1;
                let data = pattern(n, 3);
                // The explicit nonce is the sender's choice: any 8 bytes.
                let mut body =
                    seal_independent(&k, [0xa5, 1, 2, 3, 4, 5, 6, seq as u8], &data, seq);
                let (typ, got) = open(&mut *dec, ContentType::ApplicationData, &mut body, seq)
                    .unwrap_or_else(|e| panic!("{:?}: {n}: {e}", suite.suite()));
                assert_eq!((typ, got), (ContentType::ApplicationData, data));
            }
            // An authentic record one byte over 2^14: refused after authentication.
            let mut body = seal_independent(&k, [9; 8], &pattern(MAX_FRAGMENT + 1, 0), 77);
            let r = open(&mut *dec, ContentType::ApplicationData, &mut body, 77);
            assert_eq!(r.err(), Some(Error::PeerSentOversizedRecord));
        });
    }

    #[test]
    fn tampered_truncated_or_misnumbered_records_are_refused_and_zeroed() {
        each_suite(|suite, mut k| {
            let mut dec = aead(suite).decrypter(k.for_decrypter.take().unwrap(), &k.iv[..4]);
            let data = pattern(300, 4);
            let good = seal_independent(&k, [7; 8], &data, 5);
            for flip in [
                0,
                7,
                8,
                150,
                good.len() - TAG - 1,
                good.len() - TAG,
                good.len() - 1,
            ] {
                let mut body = good.clone();
                body[flip] ^= 0x80;
                let r = open(&mut *dec, ContentType::ApplicationData, &mut body, 5);
                assert_eq!(r.err(), Some(Error::DecryptError), "byte {flip} flipped");
                if flip >= 8 {
                    assert!(body[8..8 + data.len()].iter().all(|&b| b == 0), "zeroed");
                }
            }
            let mut body = good.clone();
            let r = open(&mut *dec, ContentType::ApplicationData, &mut body, 6);
            assert_eq!(r.err(), Some(Error::DecryptError), "wrong sequence number");
            let mut body = good.clone();
            let r = open(&mut *dec, ContentType::Handshake, &mut body, 5);
            assert_eq!(
                r.err(),
                Some(Error::DecryptError),
                "wrong content type (AAD)"
            );
            for short in [0, 8, 8 + TAG - 1] {
                let mut body = good[..short].to_vec();
                let r = open(&mut *dec, ContentType::ApplicationData, &mut body, 5);
                assert_eq!(r.err(), Some(Error::DecryptError), "{short}-byte body");
            }
            let mut body = good.clone();
            let r = open(&mut *dec, ContentType::ApplicationData, &mut body, 5);
            assert_eq!(r.unwrap().1, data, "the untouched record still opens");
        });
    }
}
