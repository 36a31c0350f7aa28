//! Shared by the integration tests: a throwaway PKI (an ECDSA CA issuing an ECDSA and an
//! RSA leaf for "localhost"), configurations, and an in-memory transport between two
//! rustls connections.
#![allow(dead_code)] // each test binary uses part of it

use std::io::{Read, Write};
use std::sync::{Arc, OnceLock};

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DistinguishedName, DnType, IsCa, KeyPair,
    KeyUsagePurpose,
};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::{
    ClientConfig, ClientConnection, Connection, RootCertStore, ServerConfig, ServerConnection,
    SupportedCipherSuite, SupportedProtocolVersion,
};

/// A leaf certificate (signed by the CA) and its key.
pub struct Leaf {
    pub chain: Vec<CertificateDer<'static>>,
    pub key_pkcs8: Vec<u8>,
    pub cert_pem: String,
    pub key_pem: String,
}

pub struct Pki {
    pub ca: CertificateDer<'static>,
    pub ca_pem: String,
    pub ecdsa: Leaf,
    pub rsa: Leaf,
}

/// RSA keys cannot be generated with rcgen's ring backend: a 2048-bit key made for these
/// tests (`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`), never used
/// anywhere else.
const RSA_KEY_PEM: &str = include_str!("../data/rsa2048-test-only.key.pem");

fn name(common_name: &str) -> DistinguishedName {
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, common_name);
    dn
}

pub fn pki() -> &'static Pki {
    static PKI: OnceLock<Pki> = OnceLock::new();
    PKI.get_or_init(|| {
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        // Distinct names: a leaf named like its issuer looks self-issued to OpenSSL.
        ca_params.distinguished_name = name("gcmkit-rustls test CA");
        let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
        let leaf = |key: KeyPair| {
            let mut params =
                CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()])
                    .unwrap();
            params.distinguished_name = name("localhost");
            let cert = params.signed_by(&key, &ca).unwrap();
            Leaf {
                chain: vec![cert.der().clone()],
                key_pkcs8: key.serialize_der(),
                cert_pem: cert.pem(),
                key_pem: key.serialize_pem(),
            }
        };
        let rsa_key =
            KeyPair::from_pem_and_sign_algo(RSA_KEY_PEM, &rcgen::PKCS_RSA_SHA256).unwrap();
        Pki {
            ca: ca.der().clone(),
            ca_pem: ca.pem(),
            ecdsa: leaf(KeyPair::generate().unwrap()),
            rsa: leaf(rsa_key),
        }
    })
}

/// The certificate a TLS 1.2 suite needs (ECDSA or RSA); TLS 1.3 suites take the ECDSA one.
pub fn leaf_for(suite: SupportedCipherSuite) -> &'static Leaf {
    if format!("{:?}", suite.suite()).contains("_RSA_") {
        &pki().rsa
    } else {
        &pki().ecdsa
    }
}

pub fn version_of(suite: SupportedCipherSuite) -> &'static SupportedProtocolVersion {
    match suite {
        SupportedCipherSuite::Tls13(_) => &rustls::version::TLS13,
        SupportedCipherSuite::Tls12(_) => &rustls::version::TLS12,
    }
}

/// A provider offering only `suite` (the rest of `base` unchanged).
pub fn only(mut base: CryptoProvider, suite: SupportedCipherSuite) -> CryptoProvider {
    base.cipher_suites = vec![suite];
    base
}

pub fn gcmkit_only(suite: SupportedCipherSuite) -> CryptoProvider {
    only(gcmkit_rustls::ring::provider(), suite)
}

/// The *ring* provider's suite of the same name.
pub fn ring_suite(suite: SupportedCipherSuite) -> SupportedCipherSuite {
    *rustls::crypto::ring::ALL_CIPHER_SUITES
        .iter()
        .find(|s| s.suite() == suite.suite())
        .unwrap()
}

/// The six gcmkit suites over ring.
pub fn gcmkit_suites() -> &'static [SupportedCipherSuite] {
    gcmkit_rustls::ring::ALL_CIPHER_SUITES
}

/// Whether two suite values are the same object (not merely the same IANA number).
pub fn same_suite(a: SupportedCipherSuite, b: SupportedCipherSuite) -> bool {
    match (a, b) {
        (SupportedCipherSuite::Tls13(a), SupportedCipherSuite::Tls13(b)) => std::ptr::eq(a, b),
        (SupportedCipherSuite::Tls12(a), SupportedCipherSuite::Tls12(b)) => std::ptr::eq(a, b),
        _ => false,
    }
}

pub fn client_config(provider: CryptoProvider, suite: SupportedCipherSuite) -> ClientConfig {
    let mut roots = RootCertStore::empty();
    roots.add(pki().ca.clone()).unwrap();
    ClientConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(&[version_of(suite)])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth()
}

pub fn server_config(provider: CryptoProvider, suite: SupportedCipherSuite) -> ServerConfig {
    let leaf = leaf_for(suite);
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf.key_pkcs8.clone()));
    ServerConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(&[version_of(suite)])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(leaf.chain.clone(), key)
        .unwrap()
}

pub fn connect(client: &Arc<ClientConfig>, server: &Arc<ServerConfig>) -> (Connection, Connection) {
    let name = ServerName::try_from("localhost").unwrap();
    let c = ClientConnection::new(client.clone(), name).unwrap();
    let s = ServerConnection::new(server.clone()).unwrap();
    (c.into(), s.into())
}

/// Moves every pending TLS byte of `from` to `to`, which processes it; returns the bytes
/// moved and the plaintext `to` received.
pub fn flight(
    from: &mut Connection,
    to: &mut Connection,
) -> Result<(usize, Vec<u8>), rustls::Error> {
    let mut tls = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut tls).unwrap();
    }
    let mut plain = Vec::new();
    let mut rest = &tls[..];
    while !rest.is_empty() {
        to.read_tls(&mut rest).unwrap();
        to.process_new_packets()?;
        drain(to, &mut plain);
    }
    Ok((tls.len(), plain))
}

/// Appends the plaintext `conn` has received to `out`.
pub fn drain(conn: &mut Connection, out: &mut Vec<u8>) {
    let mut buf = [0u8; 32 * 1024];
    loop {
        match conn.reader().read(&mut buf) {
            Ok(0) => return,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
            Err(e) => panic!("reading plaintext: {e}"),
        }
    }
}

/// Runs the handshake to completion (a bounded number of flights).
pub fn handshake(client: &mut Connection, server: &mut Connection) {
    for _ in 0..10 {
        if !client.is_handshaking() && !server.is_handshaking() {
            return;
        }
        flight(client, server).unwrap();
        flight(server, client).unwrap();
    }
    panic!("handshake did not finish");
}

/// Sends `data` from `from` to `to` (as many records as it takes) and returns what `to`
/// read.
pub fn send(from: &mut Connection, to: &mut Connection, data: &[u8]) -> Vec<u8> {
    let mut got = Vec::new();
    let mut off = 0;
    while off < data.len() {
        off += from.writer().write(&data[off..]).unwrap();
        got.extend(flight(from, to).unwrap().1);
    }
    got.extend(flight(from, to).unwrap().1);
    got
}

/// Deterministic bytes that differ from record to record.
pub fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 8) as u8)
        .collect()
}
