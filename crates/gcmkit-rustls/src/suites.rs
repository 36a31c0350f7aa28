//! Cipher suites assembled from a base provider's suite (its hash, HKDF, PRF, key exchange
//! and signature schemes) and gcmkit's AEAD, and the provider with gcmkit's suites in place
//! of the base's AES-GCM ones.

use rustls::crypto::cipher::{Tls12AeadAlgorithm, Tls13AeadAlgorithm};
use rustls::crypto::{CipherSuiteCommon, CryptoProvider};
use rustls::{quic, SupportedCipherSuite, Tls12CipherSuite, Tls13CipherSuite};

use crate::TLS_CONFIDENTIALITY_LIMIT;

/// The TLS 1.3 suite `base` with its record protection (and QUIC packet protection) on
/// gcmkit. Evaluated at compile time, so the suites are plain statics.
pub(crate) const fn tls13(
    base: &SupportedCipherSuite,
    aead_alg: &'static dyn Tls13AeadAlgorithm,
    quic: &'static dyn quic::Algorithm,
) -> Tls13CipherSuite {
    let SupportedCipherSuite::Tls13(base) = *base else {
        panic!("the base suite is not a TLS 1.3 suite")
    };
    Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: base.common.suite,
            hash_provider: base.common.hash_provider,
            confidentiality_limit: TLS_CONFIDENTIALITY_LIMIT,
        },
        hkdf_provider: base.hkdf_provider,
        aead_alg,
        quic: Some(quic),
    }
}

/// The TLS 1.2 suite `base` with its record protection on gcmkit.
pub(crate) const fn tls12(
    base: &SupportedCipherSuite,
    aead_alg: &'static dyn Tls12AeadAlgorithm,
) -> Tls12CipherSuite {
    let SupportedCipherSuite::Tls12(base) = *base else {
        panic!("the base suite is not a TLS 1.2 suite")
    };
    Tls12CipherSuite {
        common: CipherSuiteCommon {
            suite: base.common.suite,
            hash_provider: base.common.hash_provider,
            confidentiality_limit: TLS_CONFIDENTIALITY_LIMIT,
        },
        prf_provider: base.prf_provider,
        kx: base.kx,
        sign: base.sign,
        aead_alg,
    }
}

/// `base` with each of its cipher suites that `ours` also names replaced by ours, in place
/// (the base's order of preference and its other suites, ChaCha20-Poly1305, stay).
pub(crate) fn substitute(
    mut base: CryptoProvider,
    ours: &[SupportedCipherSuite],
) -> CryptoProvider {
    for suite in &mut base.cipher_suites {
        if let Some(ours) = ours.iter().find(|s| s.suite() == suite.suite()) {
            *suite = *ours;
        }
    }
    base
}

/// The statics and `provider()` of one base provider's module (`crate::ring`,
/// `crate::aws_lc_rs`).
macro_rules! suites_over {
    ($base:ident, $name:literal) => {
        use rustls::crypto::$base::cipher_suite as base;
        use rustls::crypto::CryptoProvider;
        use rustls::{SupportedCipherSuite, Tls12CipherSuite, Tls13CipherSuite};

        #[doc = concat!("TLS 1.3 `TLS_AES_128_GCM_SHA256`: AES-128-GCM records and QUIC packets on gcmkit, SHA-256 and HKDF of ", $name, ".")]
        pub static TLS13_AES_128_GCM_SHA256: SupportedCipherSuite =
            SupportedCipherSuite::Tls13(&TLS13_AES_128);
        static TLS13_AES_128: Tls13CipherSuite = $crate::suites::tls13(
            &base::TLS13_AES_128_GCM_SHA256,
            $crate::TLS13_AES_128_GCM,
            $crate::QUIC_AES_128_GCM,
        );

        #[doc = concat!("TLS 1.3 `TLS_AES_256_GCM_SHA384`: AES-256-GCM records and QUIC packets on gcmkit, SHA-384 and HKDF of ", $name, ".")]
        pub static TLS13_AES_256_GCM_SHA384: SupportedCipherSuite =
            SupportedCipherSuite::Tls13(&TLS13_AES_256);
        static TLS13_AES_256: Tls13CipherSuite = $crate::suites::tls13(
            &base::TLS13_AES_256_GCM_SHA384,
            $crate::TLS13_AES_256_GCM,
            $crate::QUIC_AES_256_GCM,
        );

        #[doc = concat!("TLS 1.2 `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256`: records on gcmkit, key exchange, signatures and PRF of ", $name, ".")]
        pub static TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: SupportedCipherSuite =
            SupportedCipherSuite::Tls12(&ECDSA_AES_128);
        static ECDSA_AES_128: Tls12CipherSuite = $crate::suites::tls12(
            &base::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            $crate::TLS12_AES_128_GCM,
        );

        #[doc = concat!("TLS 1.2 `TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384`: records on gcmkit, key exchange, signatures and PRF of ", $name, ".")]
        pub static TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: SupportedCipherSuite =
            SupportedCipherSuite::Tls12(&ECDSA_AES_256);
        static ECDSA_AES_256: Tls12CipherSuite = $crate::suites::tls12(
            &base::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
            $crate::TLS12_AES_256_GCM,
        );

        #[doc = concat!("TLS 1.2 `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`: records on gcmkit, key exchange, signatures and PRF of ", $name, ".")]
        pub static TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: SupportedCipherSuite =
            SupportedCipherSuite::Tls12(&RSA_AES_128);
        static RSA_AES_128: Tls12CipherSuite = $crate::suites::tls12(
            &base::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
            $crate::TLS12_AES_128_GCM,
        );

        #[doc = concat!("TLS 1.2 `TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384`: records on gcmkit, key exchange, signatures and PRF of ", $name, ".")]
        pub static TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: SupportedCipherSuite =
            SupportedCipherSuite::Tls12(&RSA_AES_256);
        static RSA_AES_256: Tls12CipherSuite = $crate::suites::tls12(
            &base::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
            $crate::TLS12_AES_256_GCM,
        );

        /// gcmkit's six AES-GCM suites, TLS 1.3 first.
        pub static ALL_CIPHER_SUITES: &[SupportedCipherSuite] = &[
            TLS13_AES_256_GCM_SHA384,
            TLS13_AES_128_GCM_SHA256,
            TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
            TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
            TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        ];

        #[doc = concat!("The default provider of ", $name, " with its AES-GCM suites replaced by gcmkit's (same order; its ChaCha20-Poly1305 suites, key exchange groups, signature algorithms, key loading and randomness stay ", $name, "'s).")]
        pub fn provider() -> CryptoProvider {
            $crate::suites::substitute(rustls::crypto::$base::default_provider(), ALL_CIPHER_SUITES)
        }
    };
}
pub(crate) use suites_over;
