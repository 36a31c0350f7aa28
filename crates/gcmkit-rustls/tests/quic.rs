//! QUIC packet protection on gcmkit: the RFC 9001 Appendix A vectors (Initial keys from
//! the client's Destination Connection ID, the client Initial of A.2 and the server
//! Initial of A.3) through the suites' `quic::Algorithm`, and a QUIC handshake between a
//! gcmkit endpoint and a *ring* endpoint whose 1-RTT packets (and updated keys) cross.

mod common;

use std::sync::Arc;

use common::*;
use rustls::quic::{self, Connection, DirectionalKeys, KeyChange, Keys, Version};
use rustls::{Error, Side, SupportedCipherSuite};

// RFC 9001 Appendix A (https://www.rfc-editor.org/rfc/rfc9001#appendix-A), copied as
// published; RFC code components are under the Revised BSD License (IETF Trust).
const DCID: &str = "8394c8f03e515708";
/// A.2: the client Initial's unprotected header (packet number 2, 4 bytes) and its
/// payload, a CRYPTO frame followed by PADDING to 1162 bytes.
const A2_HEADER: &str = "c300000001088394c8f03e5157080000449e00000002";
const A2_CRYPTO_FRAME: &str = concat!(
    "060040f1010000ed0303ebf8fa56f12939b9584a3896472ec40bb863cfd3e868",
    "04fe3a47f06a2b69484c00000413011302010000c000000010000e00000b6578",
    "616d706c652e636f6dff01000100000a00080006001d00170018001000070005",
    "04616c706e000500050100000000003300260024001d00209370b2c9caa47fba",
    "baf4559fedba753de171fa71f50f1ce15d43e994ec74d748002b000302030400",
    "0d0010000e0403050306030203080408050806002d00020101001c0002400100",
    "3900320408ffffffffffffffff05048000ffff07048000ffff08011001048000",
    "75300901100f088394c8f03e51570806048000ffff",
);
const A2_PAYLOAD_LEN: usize = 1162;
const A2_PROTECTED: &str = concat!(
    "c000000001088394c8f03e5157080000449e7b9aec34d1b1c98dd7689fb8ec11",
    "d242b123dc9bd8bab936b47d92ec356c0bab7df5976d27cd449f63300099f399",
    "1c260ec4c60d17b31f8429157bb35a1282a643a8d2262cad67500cadb8e7378c",
    "8eb7539ec4d4905fed1bee1fc8aafba17c750e2c7ace01e6005f80fcb7df6212",
    "30c83711b39343fa028cea7f7fb5ff89eac2308249a02252155e2347b63d58c5",
    "457afd84d05dfffdb20392844ae812154682e9cf012f9021a6f0be17ddd0c208",
    "4dce25ff9b06cde535d0f920a2db1bf362c23e596d11a4f5a6cf3948838a3aec",
    "4e15daf8500a6ef69ec4e3feb6b1d98e610ac8b7ec3faf6ad760b7bad1db4ba3",
    "485e8a94dc250ae3fdb41ed15fb6a8e5eba0fc3dd60bc8e30c5c4287e53805db",
    "059ae0648db2f64264ed5e39be2e20d82df566da8dd5998ccabdae053060ae6c",
    "7b4378e846d29f37ed7b4ea9ec5d82e7961b7f25a9323851f681d582363aa5f8",
    "9937f5a67258bf63ad6f1a0b1d96dbd4faddfcefc5266ba6611722395c906556",
    "be52afe3f565636ad1b17d508b73d8743eeb524be22b3dcbc2c7468d54119c74",
    "68449a13d8e3b95811a198f3491de3e7fe942b330407abf82a4ed7c1b311663a",
    "c69890f4157015853d91e923037c227a33cdd5ec281ca3f79c44546b9d90ca00",
    "f064c99e3dd97911d39fe9c5d0b23a229a234cb36186c4819e8b9c5927726632",
    "291d6a418211cc2962e20fe47feb3edf330f2c603a9d48c0fcb5699dbfe58964",
    "25c5bac4aee82e57a85aaf4e2513e4f05796b07ba2ee47d80506f8d2c25e50fd",
    "14de71e6c418559302f939b0e1abd576f279c4b2e0feb85c1f28ff18f58891ff",
    "ef132eef2fa09346aee33c28eb130ff28f5b766953334113211996d20011a198",
    "e3fc433f9f2541010ae17c1bf202580f6047472fb36857fe843b19f5984009dd",
    "c324044e847a4f4a0ab34f719595de37252d6235365e9b84392b061085349d73",
    "203a4a13e96f5432ec0fd4a1ee65accdd5e3904df54c1da510b0ff20dcc0c77f",
    "cb2c0e0eb605cb0504db87632cf3d8b4dae6e705769d1de354270123cb11450e",
    "fc60ac47683d7b8d0f811365565fd98c4c8eb936bcab8d069fc33bd801b03ade",
    "a2e1fbc5aa463d08ca19896d2bf59a071b851e6c239052172f296bfb5e724047",
    "90a2181014f3b94a4e97d117b438130368cc39dbb2d198065ae3986547926cd2",
    "162f40a29f0c3c8745c0f50fba3852e566d44575c29d39a03f0cda721984b6f4",
    "40591f355e12d439ff150aab7613499dbd49adabc8676eef023b15b65bfc5ca0",
    "6948109f23f350db82123535eb8a7433bdabcb909271a6ecbcb58b936a88cd4e",
    "8f2e6ff5800175f113253d8fa9ca8885c2f552e657dc603f252e1a8e308f76f0",
    "be79e2fb8f5d5fbbe2e30ecadd220723c8c0aea8078cdfcb3868263ff8f09400",
    "54da48781893a7e49ad5aff4af300cd804a6b6279ab3ff3afb64491c85194aab",
    "760d58a606654f9f4400e8b38591356fbf6425aca26dc85244259ff2b19c41b9",
    "f96f3ca9ec1dde434da7d2d392b905ddf3d1f9af93d1af5950bd493f5aa731b4",
    "056df31bd267b6b90a079831aaf579be0a39013137aac6d404f518cfd4684064",
    "7e78bfe706ca4cf5e9c5453e9f7cfd2b8b4c8d169a44e55c88d4a9a7f9474241",
    "e221af44860018ab0856972e194cd934",
);
/// A.3: the server Initial (packet number 1, 2 bytes).
const A3_HEADER: &str = "c1000000010008f067a5502a4262b50040750001";
const A3_PAYLOAD: &str = concat!(
    "02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf739",
    "88cfc79825df566dc5430b9a045a1200130100002e00330024001d00209d3c94",
    "0d89690b84d08a60993c144eca684d1081287c834d5311bcf32bb9da1a002b00",
    "020304",
);
const A3_PROTECTED: &str = concat!(
    "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a",
    "5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3",
    "dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84",
    "022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4",
    "2158407dd074ee",
);

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// gcmkit's TLS_AES_128_GCM_SHA256 and its QUIC algorithm (what QUIC Initial packets use).
fn initial_suite() -> quic::Suite {
    let suite = gcmkit_rustls::ring::TLS13_AES_128_GCM_SHA256
        .tls13()
        .unwrap();
    let quic = suite.quic.expect("the suite has QUIC packet protection");
    assert!(std::ptr::addr_eq(quic, gcmkit_rustls::QUIC_AES_128_GCM));
    quic::Suite { suite, quic }
}

fn initial_keys(side: Side) -> Keys {
    initial_suite().keys(&hex(DCID), side, Version::V1)
}

/// Protects a long-header packet: payload, then header protection with the sample taken
/// 4 bytes after the packet number's start (RFC 9001 sec. 5.4.2).
fn protect(
    keys: &DirectionalKeys,
    header: &[u8],
    pn: u64,
    pn_offset: usize,
    payload: &[u8],
) -> Vec<u8> {
    let mut body = payload.to_vec();
    let tag = keys.packet.encrypt_in_place(pn, header, &mut body).unwrap();
    let mut packet = [header, &body, tag.as_ref()].concat();
    let sample_at = pn_offset + 4;
    let sample = packet[sample_at..sample_at + keys.header.sample_len()].to_vec();
    let pn_len = header.len() - pn_offset;
    let (first, rest) = packet.split_first_mut().unwrap();
    keys.header
        .encrypt_in_place(
            &sample,
            first,
            &mut rest[pn_offset - 1..pn_offset - 1 + pn_len],
        )
        .unwrap();
    packet
}

/// Removes header protection (the packet number length comes out of the first byte), then
/// packet protection; returns the header and the payload.
fn unprotect(
    keys: &DirectionalKeys,
    packet: &[u8],
    pn_offset: usize,
) -> Result<(Vec<u8>, Vec<u8>), Error> {
    let mut packet = packet.to_vec();
    let sample = packet[pn_offset + 4..pn_offset + 4 + keys.header.sample_len()].to_vec();
    let (first, rest) = packet.split_first_mut().unwrap();
    keys.header
        .decrypt_in_place(&sample, first, &mut rest[pn_offset - 1..pn_offset + 3])?;
    let pn_len = usize::from(packet[0] & 0x03) + 1;
    let header_len = pn_offset + pn_len;
    let pn = packet[pn_offset..header_len]
        .iter()
        .fold(0u64, |acc, &b| acc << 8 | u64::from(b));
    let (header, body) = packet.split_at_mut(header_len);
    let plain = keys.packet.decrypt_in_place(pn, header, body)?.to_vec();
    Ok((header.to_vec(), plain))
}

fn a2_payload() -> Vec<u8> {
    let mut p = hex(A2_CRYPTO_FRAME);
    p.resize(A2_PAYLOAD_LEN, 0);
    p
}

#[test]
fn rfc9001_a2_client_initial_is_reproduced_by_the_client() {
    let keys = initial_keys(Side::Client);
    let packet = protect(&keys.local, &hex(A2_HEADER), 2, 18, &a2_payload());
    assert_eq!(packet.len(), 1200);
    assert_eq!(packet, hex(A2_PROTECTED));
}

#[test]
fn rfc9001_a2_client_initial_opens_at_the_server() {
    let keys = initial_keys(Side::Server);
    let (header, payload) = unprotect(&keys.remote, &hex(A2_PROTECTED), 18).unwrap();
    assert_eq!(header, hex(A2_HEADER));
    assert_eq!(payload, a2_payload());
}

#[test]
fn rfc9001_a3_server_initial_both_ways() {
    let server = initial_keys(Side::Server);
    let packet = protect(&server.local, &hex(A3_HEADER), 1, 18, &hex(A3_PAYLOAD));
    assert_eq!(packet, hex(A3_PROTECTED));
    let client = initial_keys(Side::Client);
    let (header, payload) = unprotect(&client.remote, &hex(A3_PROTECTED), 18).unwrap();
    assert_eq!((header, payload), (hex(A3_HEADER), hex(A3_PAYLOAD)));
}

#[test]
fn rfc9001_packets_altered_anywhere_are_refused_with_decrypt_error() {
    let keys = initial_keys(Side::Server);
    let good = hex(A2_PROTECTED);
    // Header bytes outside the protected bits (the AAD), payload, tag.
    for at in [1, 5, 17, 22, 600, 1183, 1184, 1199] {
        let mut packet = good.clone();
        packet[at] ^= 0x04;
        let r = unprotect(&keys.remote, &packet, 18);
        assert_eq!(r.err(), Some(Error::DecryptError), "byte {at} altered");
    }
    // The packet number is authenticated too.
    let mut body = good[22..].to_vec();
    let r = keys
        .remote
        .packet
        .decrypt_in_place(3, &hex(A2_HEADER), &mut body);
    assert_eq!(r.err(), Some(Error::DecryptError));
    assert!(
        body[..A2_PAYLOAD_LEN].iter().all(|&b| b == 0),
        "zeroed on failure"
    );
    let mut short = [0u8; 15];
    let r = keys.remote.packet.decrypt_in_place(2, &[], &mut short);
    assert_eq!(r.err(), Some(Error::DecryptError), "shorter than a tag");
}

#[test]
fn packet_key_limits_follow_rfc_9001() {
    let keys = initial_keys(Side::Client);
    assert_eq!(keys.local.packet.confidentiality_limit(), 1 << 23);
    assert_eq!(keys.local.packet.integrity_limit(), 1 << 52);
    assert_eq!(keys.local.packet.tag_len(), 16);
    // Header protection refuses bad lengths without touching anything.
    let (mut first, mut pn) = (0xc3u8, [1u8, 2, 3, 4, 5]);
    assert!(keys
        .local
        .header
        .encrypt_in_place(&[0; 15], &mut first, &mut pn[..4])
        .is_err());
    assert!(keys
        .local
        .header
        .encrypt_in_place(&[0; 16], &mut first, &mut pn)
        .is_err());
    assert_eq!((first, pn), (0xc3, [1, 2, 3, 4, 5]));
}

fn quic_pair(
    client_provider: rustls::crypto::CryptoProvider,
    server_provider: rustls::crypto::CryptoProvider,
    suite: SupportedCipherSuite,
) -> (Connection, Connection) {
    let mut cc = client_config(client_provider, suite);
    cc.alpn_protocols = vec![b"test".to_vec()];
    let mut sc = server_config(server_provider, suite);
    sc.alpn_protocols = vec![b"test".to_vec()];
    sc.max_early_data_size = u32::MAX;
    let name = "localhost".try_into().unwrap();
    let client =
        quic::ClientConnection::new(Arc::new(cc), Version::V1, name, b"client tp".to_vec())
            .unwrap();
    let server =
        quic::ServerConnection::new(Arc::new(sc), Version::V1, b"server tp".to_vec()).unwrap();
    (client.into(), server.into())
}

/// Runs the QUIC handshake (TLS messages passed directly); returns each side's 1-RTT keys
/// and the secrets for key updates.
fn quic_handshake(client: &mut Connection, server: &mut Connection) -> [(Keys, quic::Secrets); 2] {
    let mut one_rtt: [Option<(Keys, quic::Secrets)>; 2] = [None, None];
    for _ in 0..10 {
        for (i, slot) in one_rtt.iter_mut().enumerate() {
            let (from, to) = if i == 0 {
                (&mut *client, &mut *server)
            } else {
                (&mut *server, &mut *client)
            };
            let mut buf = Vec::new();
            if let Some(KeyChange::OneRtt { keys, next }) = from.write_hs(&mut buf) {
                *slot = Some((keys, next));
            }
            if !buf.is_empty() {
                to.read_hs(&buf).unwrap();
            }
        }
        if one_rtt.iter().all(Option::is_some)
            && !client.is_handshaking()
            && !server.is_handshaking()
        {
            return one_rtt.map(Option::unwrap);
        }
    }
    panic!("QUIC handshake did not finish");
}

/// A 1-RTT packet sealed with `from` opens with `to`, and an altered one does not.
fn crosses(from: &dyn quic::PacketKey, to: &dyn quic::PacketKey, pn: u64, len: usize) {
    let header = [0x41, 0xde, 0xad, 0xbe, 0xef, pn as u8];
    let payload = pattern(len, pn as u8);
    let mut body = payload.clone();
    let tag = from.encrypt_in_place(pn, &header, &mut body).unwrap();
    body.extend_from_slice(tag.as_ref());
    let mut altered = body.clone();
    assert_eq!(
        to.decrypt_in_place(pn, &header, &mut body).unwrap(),
        &payload[..]
    );
    *altered.last_mut().unwrap() ^= 1;
    assert_eq!(
        to.decrypt_in_place(pn, &header, &mut altered).err(),
        Some(Error::DecryptError)
    );
}

#[test]
fn quic_handshake_and_1rtt_packets_between_gcmkit_and_ring() {
    for &suite in gcmkit_suites() {
        if !matches!(suite, SupportedCipherSuite::Tls13(_)) {
            continue;
        }
        let ring = || only(rustls::crypto::ring::default_provider(), ring_suite(suite));
        for gcmkit_is_client in [true, false] {
            let (cp, sp) = if gcmkit_is_client {
                (gcmkit_only(suite), ring())
            } else {
                (ring(), gcmkit_only(suite))
            };
            let (mut client, mut server) = quic_pair(cp, sp, suite);
            let [(mut ck, mut cnext), (mut sk, mut snext)] =
                quic_handshake(&mut client, &mut server);
            for update in 0..3u64 {
                for (pn, len) in [
                    (update * 10, 0),
                    (update * 10 + 1, 1),
                    (update * 10 + 2, 1200),
                    (update * 10 + 3, 1452),
                ] {
                    crosses(&*ck.local.packet, &*sk.remote.packet, pn, len);
                    crosses(&*sk.local.packet, &*ck.remote.packet, pn, len);
                }
                // Key update: both sides derive the next generation of packet keys.
                let (c, s) = (cnext.next_packet_keys(), snext.next_packet_keys());
                ck.local.packet = c.local;
                ck.remote.packet = c.remote;
                sk.local.packet = s.local;
                sk.remote.packet = s.remote;
            }
        }
    }
}
