//! Full and resumed handshakes and data both ways between a gcmkit-provider endpoint and a
//! *ring* endpoint, in process, for every suite, gcmkit on either side; tampered records
//! are refused with rustls's `DecryptError`.

mod common;

use std::sync::Arc;

use common::*;
use rustls::{Connection, HandshakeKind, SupportedCipherSuite};

/// Message sizes of the data exchange: one byte, a QUIC-packet-sized write, exactly one
/// full record, and several records with a partial one at the end.
const SIZES: [usize; 4] = [1, 1500, 16384, 100_003];

#[derive(Clone, Copy, Debug)]
enum GcmkitSide {
    Client,
    Server,
}

fn negotiated(conn: &Connection) -> SupportedCipherSuite {
    conn.negotiated_cipher_suite()
        .expect("a suite was negotiated")
}

fn exchange_both_ways(client: &mut Connection, server: &mut Connection) {
    for (i, &n) in SIZES.iter().enumerate() {
        let up = pattern(n, i as u8);
        assert_eq!(send(client, server, &up), up, "client -> server, {n} bytes");
        let down = pattern(n, 0x80 | i as u8);
        assert_eq!(
            send(server, client, &down),
            down,
            "server -> client, {n} bytes"
        );
    }
}

fn run(suite: SupportedCipherSuite, side: GcmkitSide) {
    let ring = only(rustls::crypto::ring::default_provider(), ring_suite(suite));
    let (client_provider, server_provider) = match side {
        GcmkitSide::Client => (gcmkit_only(suite), ring),
        GcmkitSide::Server => (ring, gcmkit_only(suite)),
    };
    let client_config = Arc::new(client_config(client_provider, suite));
    let server_config = Arc::new(server_config(server_provider, suite));
    for expected_kind in [HandshakeKind::Full, HandshakeKind::Resumed] {
        let what = format!("{:?}, gcmkit {side:?}, {expected_kind:?}", suite.suite());
        let (mut client, mut server) = connect(&client_config, &server_config);
        handshake(&mut client, &mut server);
        assert_eq!(client.handshake_kind(), Some(expected_kind), "{what}");
        assert_eq!(server.handshake_kind(), Some(expected_kind), "{what}");
        // Both ends agree on the suite, and the gcmkit end really runs gcmkit's object.
        let (ours, theirs) = match side {
            GcmkitSide::Client => (negotiated(&client), negotiated(&server)),
            GcmkitSide::Server => (negotiated(&server), negotiated(&client)),
        };
        assert!(same_suite(ours, suite), "{what}: gcmkit's suite negotiated");
        assert!(
            same_suite(theirs, ring_suite(suite)),
            "{what}: ring's suite on the peer"
        );
        exchange_both_ways(&mut client, &mut server);
        // Session tickets travel with the data; the next round must resume.
    }
}

#[test]
fn every_suite_full_and_resumed_gcmkit_client_ring_server() {
    for &suite in gcmkit_suites() {
        run(suite, GcmkitSide::Client);
    }
}

#[test]
fn every_suite_full_and_resumed_ring_client_gcmkit_server() {
    for &suite in gcmkit_suites() {
        run(suite, GcmkitSide::Server);
    }
}

#[test]
fn gcmkit_to_gcmkit_every_suite() {
    for &suite in gcmkit_suites() {
        let client_config = Arc::new(client_config(gcmkit_only(suite), suite));
        let server_config = Arc::new(server_config(gcmkit_only(suite), suite));
        let (mut client, mut server) = connect(&client_config, &server_config);
        handshake(&mut client, &mut server);
        assert!(same_suite(negotiated(&client), suite));
        exchange_both_ways(&mut client, &mut server);
    }
}

/// One record from the ring client, altered on the wire at `offset` from the record's
/// start, reaches the gcmkit server.
fn tampered_record_refused(suite: SupportedCipherSuite, offset_from_end: bool, offset: usize) {
    let ring = only(rustls::crypto::ring::default_provider(), ring_suite(suite));
    let client_config = Arc::new(client_config(ring, suite));
    let server_config = Arc::new(server_config(gcmkit_only(suite), suite));
    let (mut client, mut server) = connect(&client_config, &server_config);
    handshake(&mut client, &mut server);
    exchange_both_ways(&mut client, &mut server);

    use std::io::Write;
    client.writer().write_all(&pattern(1000, 7)).unwrap();
    let mut tls = Vec::new();
    while client.wants_write() {
        client.write_tls(&mut tls).unwrap();
    }
    assert_eq!(tls[0], 0x17, "one application-data record");
    let at = if offset_from_end {
        tls.len() - 1 - offset
    } else {
        offset
    };
    tls[at] ^= 0x01;
    server.read_tls(&mut &tls[..]).unwrap();
    let what = format!("{:?}, byte {at} of {} flipped", suite.suite(), tls.len());
    assert_eq!(
        server.process_new_packets().err(),
        Some(rustls::Error::DecryptError),
        "{what}"
    );
}

#[test]
fn tampered_records_are_refused_with_decrypt_error() {
    for &suite in gcmkit_suites() {
        // The first body byte (in TLS 1.2 the explicit nonce), a body byte, the last tag
        // byte.
        tampered_record_refused(suite, false, 5);
        tampered_record_refused(suite, false, 5 + 100);
        tampered_record_refused(suite, true, 0);
    }
}

#[test]
fn provider_replaces_every_aes_gcm_suite_and_keeps_the_rest() {
    let ring = rustls::crypto::ring::default_provider();
    let ours = gcmkit_rustls::provider();
    assert_eq!(ours.cipher_suites.len(), ring.cipher_suites.len());
    let mut replaced = 0;
    for (o, r) in ours.cipher_suites.iter().zip(&ring.cipher_suites) {
        assert_eq!(o.suite(), r.suite(), "same order");
        let gcm = format!("{:?}", r.suite()).contains("_GCM_");
        if gcm {
            let mine = gcmkit_suites()
                .iter()
                .find(|s| s.suite() == o.suite())
                .unwrap();
            assert!(same_suite(*o, *mine), "{:?} is gcmkit's", o.suite());
            replaced += 1;
        } else {
            assert!(same_suite(*o, *r), "{:?} stays ring's", o.suite());
        }
    }
    assert_eq!(replaced, 6);
    assert_eq!(ours.kx_groups.len(), ring.kx_groups.len());
    // Hashing and key schedules are the base's; only the AEAD differs.
    for s in gcmkit_suites() {
        let base = ring_suite(*s);
        assert!(std::ptr::addr_eq(
            common_of(*s).hash_provider,
            common_of(base).hash_provider
        ));
    }
}

#[test]
fn limits_follow_rfc_8446_and_rfc_9001() {
    // RFC 8446 sec. 5.5: 2^24.5 full-size records per key, as an integer.
    assert_eq!(
        gcmkit_rustls::TLS_CONFIDENTIALITY_LIMIT,
        (2f64.powf(24.5)).floor() as u64
    );
    for s in gcmkit_suites() {
        assert_eq!(
            common_of(*s).confidentiality_limit,
            gcmkit_rustls::TLS_CONFIDENTIALITY_LIMIT
        );
    }
}

fn common_of(s: SupportedCipherSuite) -> &'static rustls::crypto::CipherSuiteCommon {
    match s {
        SupportedCipherSuite::Tls13(t) => &t.common,
        SupportedCipherSuite::Tls12(t) => &t.common,
    }
}

/// Over aws-lc-rs (feature `aws-lc-rs`; not in `make test`, which builds *ring* only): the
/// same handshakes and data against an aws-lc-rs endpoint, gcmkit on either side.
#[cfg(feature = "aws-lc-rs")]
#[test]
fn every_suite_over_aws_lc_rs_against_aws_lc_rs() {
    use rustls::crypto::aws_lc_rs;
    for &suite in gcmkit_rustls::aws_lc_rs::ALL_CIPHER_SUITES {
        let peer_suite = *aws_lc_rs::ALL_CIPHER_SUITES
            .iter()
            .find(|s| s.suite() == suite.suite())
            .unwrap();
        let ours = || only(gcmkit_rustls::aws_lc_rs::provider(), suite);
        let peer = || only(aws_lc_rs::default_provider(), peer_suite);
        for gcmkit_is_client in [true, false] {
            let (cp, sp) = if gcmkit_is_client {
                (ours(), peer())
            } else {
                (peer(), ours())
            };
            let client_config = Arc::new(client_config(cp, suite));
            let server_config = Arc::new(server_config(sp, suite));
            for expected_kind in [HandshakeKind::Full, HandshakeKind::Resumed] {
                let (mut client, mut server) = connect(&client_config, &server_config);
                handshake(&mut client, &mut server);
                assert_eq!(client.handshake_kind(), Some(expected_kind));
                let gcmkit_end = if gcmkit_is_client { &client } else { &server };
                assert!(same_suite(negotiated(gcmkit_end), suite));
                exchange_both_ways(&mut client, &mut server);
            }
        }
    }
}
