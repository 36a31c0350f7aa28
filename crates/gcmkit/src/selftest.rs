//! Built-in known-answer tests: one published vector per algorithm and key size, run on
//! every engine this CPU supports. Used by `gcmkit selftest` and the Python package.

use crate::AeadMode;
use crate::{AesGcm, AesGcmSiv, Engine, Error, Gmac};
use alloc::string::String;
use alloc::vec::Vec;

/// The outcome of one known-answer test on one engine.
///
/// ```
/// let results: Vec<gcmkit::selftest::KatResult> = gcmkit::selftest::run();
/// assert!(!results.is_empty());
/// for r in &results {
///     let engine = r.engine.name();
///     assert!(r.outcome.is_ok(), "{} ({}) on {engine}: {:?}", r.algorithm, r.source, r.outcome);
/// }
/// ```
#[derive(Debug, Clone)]
pub struct KatResult {
    /// Algorithm name, e.g. "AES-128-GCM".
    pub algorithm: &'static str,
    /// Where the vector comes from.
    pub source: &'static str,
    /// Engine it ran on.
    pub engine: Engine,
    /// `Ok` or what went wrong.
    pub outcome: Result<(), String>,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap_or(0))
        .collect()
}

type Kat = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);
// (algorithm, source, key, nonce, aad, plaintext, ciphertext||tag)
const KATS: &[Kat] = &[
    ("AES-128-GCM", "GCM spec App. B, Test Case 4", "feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
     "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e0915bc94fbc3221a5db94fae95ae7121a47"),
    ("AES-192-GCM", "GCM spec App. B, Test Case 11 (8-byte IV)", "feffe9928665731c6d6a8f9467308308feffe9928665731c", "cafebabefacedbad", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
     "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
     "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f765dcc57fcf623a24094fcca40d3533f8"),
    ("AES-256-GCM", "GCM spec App. B, Test Case 18 (60-byte IV)", "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
     "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
     "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
     "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf40fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3fa44a8266ee1c8eb0c8b5d4cf5ae9f19a"),
    ("AES-128-GMAC", "GCM spec App. B, Test Case 1 (empty)", "00000000000000000000000000000000", "000000000000000000000000", "", "", "58e2fccefa7e3061367f1d57a4e7455a"),
    ("AES-128-GCM-SIV", "RFC 8452 App. C.1", "f901cfe8a69615a93fdf7a98cad48179", "6245709fb18853f68d833640",
     "7576f7028ec6eb5ea7e298342a94d4b202b370ef9768ec6561c4fe6b7e7296fa859c21", "e42a3c02c25b64869e146d7b233987bddfc240871d",
     "391cc328d484a4f46406181bcd62efd9b3ee197d052d15506c84a9edd65e13e9d24a2a6e70"),
    ("AES-256-GCM-SIV", "RFC 8452 App. C.2", "0100000000000000000000000000000000000000000000000000000000000000", "030000000000000000000000", "", "0100000000000000",
     "c2ef328e5c71c83b843122130f7364b761e0b97427e3df28"),
];

fn run_one(kat: &Kat, engine: Engine) -> Result<(), String> {
    let (alg, _, key, nonce, aad, pt, expected) = *kat;
    let (key, nonce, aad, pt, expected) = (
        unhex(key),
        unhex(nonce),
        unhex(aad),
        unhex(pt),
        unhex(expected),
    );
    let err = |e: Error| alloc::format!("{e}");
    let (ct, back) = if alg.ends_with("GCM-SIV") {
        let c = AesGcmSiv::with_engine(&key, engine).map_err(err)?;
        let ct = c.encrypt(&nonce, &pt, &aad).map_err(err)?;
        let back = c.decrypt(&nonce, &expected, &aad).map_err(err)?;
        (ct, back)
    } else if alg.ends_with("GMAC") {
        let m = Gmac::with_engine(&key, engine).map_err(err)?;
        let t = m.compute(&nonce, &aad).map_err(err)?;
        m.verify(&nonce, &aad, &expected).map_err(err)?;
        (t.as_ref().to_vec(), pt.clone())
    } else {
        let c = AesGcm::with_engine(&key, engine).map_err(err)?;
        let ct = c.encrypt(&nonce, &pt, &aad).map_err(err)?;
        let back = c.decrypt(&nonce, &expected, &aad).map_err(err)?;
        (ct, back)
    };
    if ct != expected {
        return Err("output differs from the published vector".into());
    }
    if back != pt {
        return Err("decryption differs from the published plaintext".into());
    }
    Ok(())
}

/// Runs every known-answer test on every engine this CPU supports.
pub fn run() -> Vec<KatResult> {
    let mut out = Vec::new();
    for kat in KATS {
        for engine in Engine::supported() {
            out.push(KatResult {
                algorithm: kat.0,
                source: kat.1,
                engine,
                outcome: run_one(kat, engine),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn all_kats_pass() {
        for r in super::run() {
            assert!(
                r.outcome.is_ok(),
                "{} on {:?}: {:?}",
                r.algorithm,
                r.engine,
                r.outcome
            );
        }
    }
}
