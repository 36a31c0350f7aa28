//! Record protection in a loop, for instruction counts per record under callgrind:
//! `GCMKIT_ENGINE=aesni valgrind --tool=callgrind target/release/examples/records_profile
//! [tls13|tls12] SIZE RECORDS` (valgrind cannot run the AVX-512 engine).

use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, Iv, OutboundChunks, OutboundPlainMessage,
};
use rustls::{CipherSuite, ContentType, ProtocolVersion, SupportedCipherSuite};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let version = args.get(1).map(String::as_str).unwrap_or("tls13");
    let size: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1500);
    let records: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let want = match version {
        "tls12" => CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        _ => CipherSuite::TLS13_AES_256_GCM_SHA384,
    };
    let provider = gcmkit_rustls::provider();
    let suite = *provider
        .cipher_suites
        .iter()
        .find(|s| s.suite() == want)
        .expect("suite");
    let iv = [3u8; 12];
    let (mut enc, mut dec) = match suite {
        SupportedCipherSuite::Tls13(t) => (
            t.aead_alg.encrypter(AeadKey::from([7u8; 32]), Iv::from(iv)),
            t.aead_alg.decrypter(AeadKey::from([7u8; 32]), Iv::from(iv)),
        ),
        SupportedCipherSuite::Tls12(t) => (
            t.aead_alg
                .encrypter(AeadKey::from([7u8; 32]), &iv[..4], &iv[4..]),
            t.aead_alg.decrypter(AeadKey::from([7u8; 32]), &iv[..4]),
        ),
    };
    let data: Vec<u8> = (0..size).map(|i| i as u8).collect();
    let mut scratch = Vec::with_capacity(size + 64);
    for seq in 0..records {
        let msg = OutboundPlainMessage {
            typ: ContentType::ApplicationData,
            version: ProtocolVersion::TLSv1_2,
            payload: OutboundChunks::Single(&data),
        };
        let wire = enc.encrypt(msg, seq).unwrap().encode();
        scratch.clear();
        scratch.extend_from_slice(&wire[5..]);
        let msg = InboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            &mut scratch,
        );
        let plain = dec.decrypt(msg, seq).unwrap();
        assert_eq!(plain.payload.len(), size);
    }
}
