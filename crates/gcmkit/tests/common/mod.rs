//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod appendix_b;

use gcmkit::Engine;

/// Decodes hex (test data only).
pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap_or_else(|e| panic!("bad hex in test data {s:?}: {e}"))
}

/// Every engine this machine supports: each vector runs through each of them.
pub fn engines() -> Vec<Engine> {
    Engine::supported().collect()
}
