//! Hazmat: salt injection (for tests and vectors) and raw mode (caller-chosen AEAD key and
//! base nonce, no salt and no commitment: key commitment and nonce uniqueness become the
//! caller's problem).

use super::keys::{MessageKeys, Okm};
use super::message::{encrypt_with, open_body, seal_chunks};
use super::{chunk_count, SALT, TAG};
use crate::error::Error;
use crate::Engine;
use std::vec;
use std::vec::Vec;

/// [`super::encrypt`] with a given salt. A salt must never repeat under one key.
pub fn encrypt_with_salt(
    key: &[u8],
    context: &[u8],
    plaintext: &[u8],
    salt: &[u8; SALT],
) -> Result<Vec<u8>, Error> {
    let engine = Engine::selected()?;
    encrypt_with(key, context, plaintext, *salt, engine)
}

/// The AEAD key and base nonce a key, salt and context derive (for checking vectors).
pub fn derive(key: &[u8], salt: &[u8; SALT], context: &[u8]) -> Result<(Vec<u8>, [u8; 12]), Error> {
    let okm = Okm::expand(key, salt, context)?;
    Ok((okm.aead_key().to_vec(), okm.base_nonce()))
}

/// Raw mode encryption: the chunk sequence only (no salt, no commitment).
pub fn raw_encrypt(
    aead_key: &[u8],
    base_nonce: &[u8; 12],
    plaintext: &[u8],
) -> Result<Vec<u8>, Error> {
    let engine = Engine::selected()?;
    let keys = MessageKeys::raw(aead_key, base_nonce, engine)?;
    let n = chunk_count(plaintext.len() as u64) as usize;
    let mut out = vec![0u8; plaintext.len() + TAG * n];
    seal_chunks(&keys, 0, plaintext, true, &mut out)?;
    Ok(out)
}

/// Raw mode decryption of a chunk sequence.
pub fn raw_decrypt(aead_key: &[u8], base_nonce: &[u8; 12], body: &[u8]) -> Result<Vec<u8>, Error> {
    let engine = Engine::selected()?;
    open_body(&MessageKeys::raw(aead_key, base_nonce, engine)?, body)
}
