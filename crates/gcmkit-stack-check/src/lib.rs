//! Every public AEAD call of gcmkit on a thread with a small stack, on one engine.
//!
//! A user's program is built in the debug profile (`cargo run`, `cargo test`: opt-level 0)
//! and encrypts off the main thread, where Rust gives a thread 2 MiB. gcmkit's own suites
//! run optimized, so only a program like this one, built as a user builds it, sees what a
//! debug build of the engines needs. `make test-stack` runs it in the dev profile
//! (opt-level 0) and the release profile (opt-level 3); `tests/stack.rs` runs it in the
//! workspace's test profile (opt-level 2).
//!
//! Besides each call's round trip, the engines must agree: each child prints a digest of
//! every ciphertext, and [`run_every_engine`] fails when two engines differ; AES-GCM's
//! Test Case 2 is checked as a known answer on each.
//!
//! The engine is the one `GCMKIT_ENGINE` names (read once per process), so that the
//! chunked functions, which take no engine, run on it too: [`run_every_engine`] starts
//! this program once per engine the CPU has.

use gcmkit::{
    AeadMode, AesGcm, AesGcmSiv, DndkGcm, Engine, GcmSiv2015, Gmac, IncrementalGmac, XAes256Gcm,
};

/// The stack each check runs on (bytes).
pub const STACK: usize = 256 * 1024;

/// Message lengths every AEAD is called with.
pub const LENGTHS: [usize; 4] = [0, 16, 1500, 65536];

/// The AAD every AEAD call carries (besides none).
const AAD: &[u8] = b"thirteen byte";

fn fail(what: &str, e: impl core::fmt::Debug) -> String {
    format!("{what}: {e:?}")
}

/// Every `AeadMode` call of `mode` with nonce `nonce` at every length of [`LENGTHS`], with
/// and without AAD: the round trip of each form, the forms against each other, and a
/// flipped tag refused with the output zeroed.
fn aead_calls(
    name: &str,
    mode: &impl AeadMode,
    nonce: &[u8],
    digest: &mut Digest,
) -> Result<(), String> {
    let tag_len = mode.tag_len();
    for &len in &LENGTHS {
        for aad in [&b""[..], AAD] {
            let at = |what: &str| format!("{name} {what} at {len} B, AAD {} B", aad.len());
            let pt: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let ct = mode
                .encrypt(nonce, &pt, aad)
                .map_err(|e| fail(&at("encrypt"), e))?;
            digest.add(&ct);
            let back = mode
                .decrypt(nonce, &ct, aad)
                .map_err(|e| fail(&at("decrypt"), e))?;
            if back != pt {
                return Err(at("decrypt gave other bytes"));
            }
            let mut buf = pt.clone();
            let tag = mode
                .encrypt_in_place_detached(nonce, aad, &mut buf)
                .map_err(|e| fail(&at("encrypt_in_place_detached"), e))?;
            if buf[..] != ct[..len] || tag.as_ref() != &ct[len..] {
                return Err(at("in place differs from encrypt"));
            }
            mode.decrypt_in_place_detached(nonce, aad, &mut buf, tag.as_ref())
                .map_err(|e| fail(&at("decrypt_in_place_detached"), e))?;
            if buf != pt {
                return Err(at("decrypt_in_place_detached gave other bytes"));
            }
            let mut out = vec![0u8; len + tag_len];
            mode.encrypt_into(nonce, &pt, aad, &mut out)
                .map_err(|e| fail(&at("encrypt_into"), e))?;
            if out != ct {
                return Err(at("encrypt_into differs from encrypt"));
            }
            let mut plain = vec![0u8; len];
            mode.decrypt_into(nonce, &ct, aad, &mut plain)
                .map_err(|e| fail(&at("decrypt_into"), e))?;
            if plain != pt {
                return Err(at("decrypt_into gave other bytes"));
            }
            let mut bad = ct.clone();
            *bad.last_mut().expect("a tag") ^= 1;
            let mut plain = vec![0xaau8; len];
            if mode.decrypt_into(nonce, &bad, aad, &mut plain).is_ok() {
                return Err(at("a flipped tag was accepted"));
            }
            if plain.iter().any(|&b| b != 0) {
                return Err(at("a refused decryption left output"));
            }
        }
    }
    Ok(())
}

/// GMAC, incremental GMAC and on-line AES-GCM, each checked against one-shot AES-GCM.
fn mac_and_online_calls() -> Result<(), String> {
    let key = [9u8; 16];
    let nonce = [4u8; 12];
    let data: Vec<u8> = (0..1500u32).map(|i| i as u8).collect();
    let gmac = Gmac::new(&key).map_err(|e| fail("Gmac::new", e))?;
    let t = gmac
        .compute(&nonce, &data)
        .map_err(|e| fail("Gmac::compute", e))?;
    gmac.verify(&nonce, &data, t.as_ref())
        .map_err(|e| fail("Gmac::verify", e))?;
    let gcm = AesGcm::new(&key).map_err(|e| fail("AesGcm::new", e))?;
    let whole = gcm
        .encrypt(&nonce, b"", &data)
        .map_err(|e| fail("GMAC as AES-GCM", e))?;
    if whole != t.as_ref() {
        return Err("Gmac differs from AES-GCM with empty plaintext".into());
    }
    let inc = IncrementalGmac::new(&key).map_err(|e| fail("IncrementalGmac::new", e))?;
    let full = inc
        .compute(&nonce, &data[..1000])
        .map_err(|e| fail("IncrementalGmac::compute", e))?;
    let appended = inc
        .append(&nonce, &full, 1000, &data[1000..], &nonce)
        .map_err(|e| fail("IncrementalGmac::append", e))?;
    if appended[..] != whole[..] {
        return Err("IncrementalGmac::append differs from GMAC of the whole".into());
    }
    let mut enc = gcm.encryptor(&nonce).map_err(|e| fail("encryptor", e))?;
    enc.aad(AAD).map_err(|e| fail("encryptor aad", e))?;
    let mut buf = data.clone();
    let (a, b) = buf.split_at_mut(700);
    enc.update(a).map_err(|e| fail("encryptor update", e))?;
    enc.update(b).map_err(|e| fail("encryptor update", e))?;
    let tag = enc.finish();
    let one_shot = gcm
        .encrypt(&nonce, &data, AAD)
        .map_err(|e| fail("encrypt", e))?;
    if buf[..] != one_shot[..1500] || tag.as_ref() != &one_shot[1500..] {
        return Err("on-line AES-GCM differs from one-shot".into());
    }
    let mut out = Vec::new();
    let mut dec = gcm
        .decryptor(&nonce, &mut out)
        .map_err(|e| fail("decryptor", e))?;
    dec.aad(AAD).map_err(|e| fail("decryptor aad", e))?;
    dec.update(&buf).map_err(|e| fail("decryptor update", e))?;
    dec.finish(tag.as_ref())
        .map_err(|e| fail("decryptor finish", e))?;
    if out != data {
        return Err("on-line AES-GCM decryption gave other bytes".into());
    }
    Ok(())
}

/// Cobblestone (c2sp.org/chunked-encryption) one-shot and streamed, both key sizes,
/// across a chunk boundary.
fn chunked_calls() -> Result<(), String> {
    use std::io::{Read, Write};
    let data: Vec<u8> = (0..40000u32).map(|i| (i * 31) as u8).collect();
    for key in [&[5u8; 16][..], &[6u8; 32][..]] {
        let ct = gcmkit::chunked::encrypt(key, b"ctx", &data)
            .map_err(|e| fail("chunked::encrypt", e))?;
        let pt =
            gcmkit::chunked::decrypt(key, b"ctx", &ct).map_err(|e| fail("chunked::decrypt", e))?;
        if pt != data {
            return Err("chunked round trip gave other bytes".into());
        }
        let mut w = gcmkit::chunked::Encryptor::new(key, b"ctx", Vec::new())
            .map_err(|e| fail("chunked::Encryptor::new", e))?;
        w.write_all(&data)
            .map_err(|e| fail("chunked::Encryptor write", e))?;
        let streamed = w
            .finish()
            .map_err(|e| fail("chunked::Encryptor::finish", e))?;
        let mut r = gcmkit::chunked::Decryptor::new(key, b"ctx", &streamed[..])
            .map_err(|e| fail("chunked::Decryptor::new", e))?;
        let mut back = Vec::new();
        r.read_to_end(&mut back)
            .map_err(|e| fail("chunked::Decryptor read", e))?;
        if back != data {
            return Err("chunked stream round trip gave other bytes".into());
        }
    }
    Ok(())
}

/// FNV-1a over every ciphertext of the AEAD calls: the engines of one CPU must agree on
/// it (`run_every_engine`), so the round trips are also checked against each other.
#[derive(Default)]
struct Digest(u64);

impl Digest {
    fn add(&mut self, bytes: &[u8]) {
        if self.0 == 0 {
            self.0 = 0xcbf2_9ce4_8422_2325;
        }
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// The GCM spec's Test Case 2 (AES-128, zero key and IV, one zero block), a known answer
/// on the engine selected.
fn known_answer() -> Result<(), String> {
    let ct = AesGcm::new(&[0u8; 16])
        .and_then(|g| g.encrypt(&[0u8; 12], &[0u8; 16], b""))
        .map_err(|e| fail("AES-GCM Test Case 2", e))?;
    let want = "0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf";
    let got: String = ct.iter().map(|b| format!("{b:02x}")).collect();
    if got != want {
        return Err(format!("AES-GCM Test Case 2: {got}, expected {want}"));
    }
    Ok(())
}

/// Every check, on the engine this process selected (`GCMKIT_ENGINE`); returns the digest
/// of its AEAD calls' ciphertexts.
pub fn every_call() -> Result<u64, String> {
    known_answer()?;
    let mut digest = Digest::default();
    for key in [&[1u8; 16][..], &[2u8; 24][..], &[3u8; 32][..]] {
        let gcm = AesGcm::new(key).map_err(|e| fail("AesGcm::new", e))?;
        aead_calls(
            &format!("AES-{}-GCM", 8 * key.len()),
            &gcm,
            &[7u8; 12],
            &mut digest,
        )?;
        // An IV of another length takes GHASH's path to Y0.
        aead_calls(
            &format!("AES-{}-GCM, 60-byte IV", 8 * key.len()),
            &gcm,
            &[8u8; 60],
            &mut digest,
        )?;
        let short = AesGcm::new(key)
            .and_then(|g| g.with_tag_len(12))
            .map_err(|e| fail("with_tag_len", e))?;
        aead_calls(
            &format!("AES-{}-GCM, 12-byte tag", 8 * key.len()),
            &short,
            &[7u8; 12],
            &mut digest,
        )?;
    }
    for key in [&[1u8; 16][..], &[3u8; 32][..]] {
        let siv = AesGcmSiv::new(key).map_err(|e| fail("AesGcmSiv::new", e))?;
        aead_calls(
            &format!("AES-{}-GCM-SIV", 8 * key.len()),
            &siv,
            &[7u8; 12],
            &mut digest,
        )?;
    }
    let xaes = XAes256Gcm::new(&[4u8; 32]).map_err(|e| fail("XAes256Gcm::new", e))?;
    aead_calls("XAES-256-GCM", &xaes, &[5u8; 24], &mut digest)?;
    let dndk = DndkGcm::new(&[4u8; 32]).map_err(|e| fail("DndkGcm::new", e))?;
    aead_calls("DNDK-GCM", &dndk, &[5u8; 24], &mut digest)?;
    let dndk = dndk.with_key_commitment();
    aead_calls("DNDK-GCM committing", &dndk, &[5u8; 24], &mut digest)?;
    let two =
        GcmSiv2015::two_key(&[1u8; 16], &[2u8; 16]).map_err(|e| fail("GcmSiv2015::two_key", e))?;
    aead_calls("GCM-SIV (2015) two-key", &two, &[7u8; 12], &mut digest)?;
    let one = GcmSiv2015::one_key(&[1u8; 16]).map_err(|e| fail("GcmSiv2015::one_key", e))?;
    aead_calls("GCM-SIV (2015) one-key", &one, &[7u8; 12], &mut digest)?;
    mac_and_online_calls()?;
    chunked_calls()?;
    Ok(digest.0)
}

/// [`every_call`] on a thread of [`STACK`] bytes (or `GCMKIT_STACK_KIB` KiB, for measuring
/// what a build needs): an overflow aborts the process (Rust's guard page), which the
/// parent of [`run_every_engine`] sees as a signal.
pub fn every_call_on_small_stack() -> Result<u64, String> {
    let kib = std::env::var("GCMKIT_STACK_KIB")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    std::thread::Builder::new()
        .stack_size(kib.map_or(STACK, |k| k * 1024))
        .spawn(every_call)
        .map_err(|e| fail("spawn", e))?
        .join()
        .map_err(|_| "the check thread panicked".to_string())?
}

/// Runs `exe` (a program that calls [`every_call_on_small_stack`] when `GCMKIT_ENGINE` is
/// set) once per engine this CPU supports; returns the engines checked.
pub fn run_every_engine(exe: &std::path::Path) -> Result<Vec<&'static str>, String> {
    let mut done = Vec::new();
    let mut digest: Option<String> = None;
    for engine in Engine::supported() {
        let out = std::process::Command::new(exe)
            .env("GCMKIT_ENGINE", engine.name())
            .output()
            .map_err(|e| fail("run the check", e))?;
        if !out.status.success() {
            return Err(format!(
                "engine {}: {} ({})\n{}",
                engine.name(),
                out.status,
                "a signal here is a stack overflow: the thread has 256 KiB",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
        match (&digest, line.strip_prefix("digest ")) {
            (_, None) => return Err(format!("engine {}: no digest printed", engine.name())),
            (None, Some(d)) => digest = Some(d.to_string()),
            (Some(first), Some(d)) if first != d => {
                return Err(format!(
                    "engine {}: ciphertext digest {d}, engine {}'s {first}: the engines disagree",
                    engine.name(),
                    done[0]
                ))
            }
            _ => {}
        }
        done.push(engine.name());
    }
    Ok(done)
}
