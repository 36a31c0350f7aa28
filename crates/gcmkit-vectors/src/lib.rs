//! The one test-vector runner of gcmkit: files in the Wycheproof JSON schemas (AES-GCM,
//! AES-GMAC, AES-GCM-SIV, XAES-256-GCM, DNDK-GCM, Cobblestone chunked encryption) and
//! gcmkit's GCM-SIV (2015) and GCM-64 schemas, run on a chosen engine. DNDK-GCM groups
//! give the nonce length by `ivSize` and key commitment by `"keyCommitment": true`, the
//! 32-byte commitment of each test in `"kc"` (gcmkit's tag is tag || kc). `gcmkit vectors`, the test suites and the fuzz
//! corpus checks all call it, so the rules below are written once:
//!
//! - Every test has `"result"` `valid`, `acceptable` or `invalid`; anything else (or none)
//!   is an error of the file, never a guess.
//! - Valid and acceptable vectors must encrypt to exactly ct || tag and decrypt back.
//! - Invalid vectors must be rejected, at construction or at decryption, by an error about
//!   the input (authentication, a length, a parameter). An error that is not about the
//!   input (the engine is unavailable, I/O) never counts as a rejection: the engine is
//!   checked before any test runs, and such an error fails the file.
//! - A file with no tests, a group with no tests, a parameter out of range (for example
//!   `counterBits` beyond 32 bits) or a compressed field over [`MAX_DECOMPRESSED`] is an
//!   error of the file.

use gcmkit::gcm64::{BlowfishGcm, TdeaGcm};
use gcmkit::{AeadMode, Engine, Error};
use gcmkit::{AesGcm, AesGcmSiv, DndkGcm, GcmSiv2015, GcmSiv2015Variant, Gmac, XAes256Gcm};
use serde_json::Value;
use std::path::Path;

/// Largest decompressed field (Cobblestone vectors carry zlib-compressed ciphertexts).
pub const MAX_DECOMPRESSED: u64 = 256 << 20;

/// What one file did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The file's top-level `algorithm`.
    pub algorithm: String,
    /// The group types (or variants, ciphers) it held.
    pub kinds: Vec<String>,
    /// Vectors that behaved as their `result` says.
    pub passed: usize,
    /// The others: tcId and why.
    pub failures: Vec<(i64, String)>,
}

/// Whether an error is a rejection of the input (and so the right answer to an invalid
/// vector): authentication, lengths and parameters are; an unavailable engine or an I/O
/// error are not.
pub fn is_rejection(e: &Error) -> bool {
    !matches!(e, Error::EngineUnavailable(_) | Error::Io(_))
}

/// What one vector did.
enum Outcome {
    Pass,
    Fail(String),
}

struct Test<'a>(&'a Value);

impl Test<'_> {
    fn id(&self) -> i64 {
        self.0["tcId"].as_i64().unwrap_or(-1)
    }
    fn hex(&self, field: &str) -> Result<Vec<u8>, String> {
        let s = self.0[field]
            .as_str()
            .ok_or_else(|| format!("missing field {field}"))?;
        hex::decode(s).map_err(|e| format!("field {field}: {e}"))
    }
    /// Whether the vector must be rejected (`result` invalid), or an error if `result` is
    /// missing or unknown.
    fn must_fail(&self) -> Result<bool, String> {
        match self.0["result"].as_str() {
            Some("valid") | Some("acceptable") => Ok(false),
            Some("invalid") => Ok(true),
            Some(other) => Err(format!("tcId {}: unknown result {other:?}", self.id())),
            None => Err(format!("tcId {}: no \"result\"", self.id())),
        }
    }
}

/// An error as a test sees it: a rejection of the input, or something else (which fails
/// the vector even when a rejection was expected).
fn seen(e: Error) -> String {
    if is_rejection(&e) {
        e.to_string()
    } else {
        format!("{NOT_A_REJECTION}{e}")
    }
}

/// Marks an error that is not a rejection of the input.
const NOT_A_REJECTION: &str = "not a rejection of the input: ";

fn check(
    valid: bool,
    produced: Result<Vec<u8>, String>,
    expected: &[u8],
    decrypted: Result<Vec<u8>, String>,
    pt: &[u8],
) -> Outcome {
    if !valid {
        return match decrypted {
            Ok(_) => Outcome::Fail("invalid vector was accepted".into()),
            Err(e) if e.starts_with(NOT_A_REJECTION) => Outcome::Fail(e),
            Err(_) => Outcome::Pass,
        };
    }
    match (produced, decrypted) {
        (Err(e), _) => Outcome::Fail(format!("valid vector rejected: {e}")),
        (Ok(out), _) if out != expected => Outcome::Fail(format!(
            "output {} != expected {}",
            hex::encode(&out),
            hex::encode(expected)
        )),
        (_, Err(e)) => Outcome::Fail(format!("decryption failed: {e}")),
        (_, Ok(back)) if back != pt => Outcome::Fail("decryption differs from msg".into()),
        _ => Outcome::Pass,
    }
}

fn aead_test(alg: &str, group: &Value, t: &Test, engine: Engine) -> Result<Outcome, String> {
    let (key, iv, aad, msg, ct, mut tag) = (
        t.hex("key")?,
        t.hex("iv")?,
        t.hex("aad")?,
        t.hex("msg")?,
        t.hex("ct")?,
        t.hex("tag")?,
    );
    let commit = group["keyCommitment"].as_bool().unwrap_or(false);
    if commit {
        tag.extend_from_slice(&t.hex("kc")?);
    }
    let mut expected = ct;
    expected.extend_from_slice(&tag);
    let cipher: Result<Box<dyn AeadMode>, Error> = match alg {
        "AES-GCM" => AesGcm::with_engine(&key, engine)
            .and_then(|c| c.with_tag_len(tag.len()))
            .map(|c| Box::new(c) as _),
        "AES-GCM-SIV" => AesGcmSiv::with_engine(&key, engine).map(|c| Box::new(c) as _),
        "XAES-256-GCM" => XAes256Gcm::with_engine(&key, engine).map(|c| Box::new(c) as _),
        "DNDK-GCM" => {
            let bits = group["ivSize"]
                .as_u64()
                .ok_or("DNDK-GCM group without ivSize")?;
            let ln = usize::try_from(bits / 8).map_err(|_| "ivSize out of range")?;
            DndkGcm::with_engine(&key, engine)
                .and_then(|c| c.with_nonce_len(ln))
                .map(|c| if commit { c.with_key_commitment() } else { c })
                .map(|c| Box::new(c) as _)
        }
        other => return Err(format!("unsupported AEAD algorithm {other}")),
    };
    let (produced, decrypted) = match cipher {
        Ok(c) => (
            c.encrypt(&iv, &msg, &aad).map_err(seen),
            c.decrypt(&iv, &expected, &aad).map_err(seen),
        ),
        Err(err) => (Err(seen(err.clone())), Err(seen(err))),
    };
    Ok(check(!t.must_fail()?, produced, &expected, decrypted, &msg))
}

fn gmac_test(group: &Value, t: &Test, engine: Engine) -> Result<Outcome, String> {
    let (key, iv, msg, tag) = (t.hex("key")?, t.hex("iv")?, t.hex("msg")?, t.hex("tag")?);
    let tag_len = usize::try_from(group["tagSize"].as_u64().ok_or("missing tagSize")? / 8)
        .map_err(|_| "tagSize out of range")?;
    let valid = !t.must_fail()?;
    let mac = match Gmac::with_engine(&key, engine).and_then(|m| m.with_tag_len(tag_len)) {
        Ok(m) => m,
        Err(err) => {
            return Ok(check(
                valid,
                Err(seen(err.clone())),
                &tag,
                Err(seen(err)),
                &[],
            ))
        }
    };
    let produced = mac
        .compute(&iv, &msg)
        .map(|t| t.as_ref().to_vec())
        .map_err(seen);
    let verified = mac
        .verify(&iv, &msg, &tag)
        .map(|_| Vec::new())
        .map_err(seen);
    Ok(check(valid, produced, &tag, verified, &[]))
}

/// The encryption and decryption checks of one AEAD vector (key object already built, or
/// the error building it).
fn aead_outcome(t: &Test, cipher: Result<impl AeadMode, Error>) -> Result<Outcome, String> {
    let (iv, aad, msg) = (t.hex("iv")?, t.hex("aad")?, t.hex("msg")?);
    let mut expected = t.hex("ct")?;
    expected.extend_from_slice(&t.hex("tag")?);
    let (enc, dec) = match cipher {
        Ok(c) => (
            c.encrypt(&iv, &msg, &aad).map_err(seen),
            c.decrypt(&iv, &expected, &aad).map_err(seen),
        ),
        Err(err) => (Err(seen(err.clone())), Err(seen(err))),
    };
    Ok(check(!t.must_fail()?, enc, &expected, dec, &msg))
}

/// `data/gcm_siv_2015_test.json` (variant, counterBits).
fn gcm_siv_2015_test(group: &Value, t: &Test, engine: Engine) -> Result<Outcome, String> {
    let k = group["counterBits"].as_u64().ok_or("missing counterBits")?;
    let k = u32::try_from(k).map_err(|_| format!("counterBits {k} out of range"))?;
    let cipher = match group["variant"].as_str().ok_or("missing variant")? {
        "one-key" => GcmSiv2015::one_key_with_engine(&t.hex("key")?, engine),
        "two-key" => GcmSiv2015::with_engine(
            GcmSiv2015Variant::TwoKey,
            &t.hex("hashKey")?,
            &t.hex("prfKey")?,
            None,
            engine,
        ),
        "three-key" => GcmSiv2015::with_engine(
            GcmSiv2015Variant::ThreeKey,
            &t.hex("hashKey")?,
            &t.hex("prfKey")?,
            Some(&t.hex("ctrKey")?),
            engine,
        ),
        v => return Err(format!("unknown GCM-SIV variant {v}")),
    };
    aead_outcome(t, cipher.and_then(|c| c.with_counter_bits(k)))
}

/// `data/gcm64_test.json` (cipher TDEA or Blowfish-128, tagSize in bits).
fn gcm64_test(group: &Value, t: &Test) -> Result<Outcome, String> {
    let tag_len = usize::try_from(t.0["tagSize"].as_u64().ok_or("missing tagSize")? / 8)
        .map_err(|_| "tagSize out of range")?;
    let key = t.hex("key")?;
    match group["cipher"].as_str().ok_or("missing cipher")? {
        "TDEA" => aead_outcome(t, TdeaGcm::tdea(&key).and_then(|c| c.with_tag_len(tag_len))),
        "Blowfish-128" => aead_outcome(
            t,
            BlowfishGcm::blowfish(&key).and_then(|c| c.with_tag_len(tag_len)),
        ),
        c => Err(format!("unknown 64-bit cipher {c}")),
    }
}

/// Wycheproof `ChunkedEncryption` (Cobblestone): `ct` is zlib-compressed. Valid: every
/// decryption path gives msgLength bytes with SHA-512 msgSha512. Invalid: every path fails;
/// streaming may first hand out a prefix, which must be the verified prefix the vector
/// describes (PartialPlaintext); authenticating the length from the final chunk may only
/// succeed for vectors flagged ValidFinalChunk.
fn chunked_test(t: &Test) -> Result<Outcome, String> {
    use gcmkit::chunked::{decrypt, Decryptor, SeekableDecryptor};
    use sha2::Digest;
    use std::io::Read;
    let (key, ctx) = (t.hex("key")?, t.hex("ctx")?);
    let mut ct = Vec::new();
    flate2::read::ZlibDecoder::new(&t.hex("ct")?[..])
        .take(MAX_DECOMPRESSED + 1)
        .read_to_end(&mut ct)
        .map_err(|e| format!("ct is not zlib: {e}"))?;
    if ct.len() as u64 > MAX_DECOMPRESSED {
        return Err(format!(
            "tcId {}: ct decompresses past {MAX_DECOMPRESSED} bytes",
            t.id()
        ));
    }
    let must_fail = t.must_fail()?;
    let flags: Vec<&str> = t.0["flags"]
        .as_array()
        .map(|a| a.iter().filter_map(|f| f.as_str()).collect())
        .unwrap_or_default();
    let want_len = t.0["msgLength"].as_u64().map(|n| n as usize);
    let want_hash = t.0["msgSha512"].as_str().map(|h| h.to_string());
    let one = decrypt(&key, &ctx, &ct);
    let mut streamed = Vec::new();
    let stream = Decryptor::new(&key, &ctx, &ct[..])
        .map_err(|e| e.to_string())
        .and_then(|mut d| d.read_to_end(&mut streamed).map_err(|e| e.to_string()));
    let seek_new = SeekableDecryptor::new(&key, &ctx, std::io::Cursor::new(&ct));
    let seek = seek_new.as_ref().ok().is_some();
    if must_fail {
        if one.is_ok() || stream.is_ok() {
            return Ok(Outcome::Fail("invalid message decrypted".into()));
        }
        if flags.contains(&"PartialPlaintext") {
            if let (Some(n), Some(h)) = (want_len, &want_hash) {
                if streamed.len() > n
                    || (streamed.len() == n && hex::encode(sha2::Sha512::digest(&streamed)) != *h)
                {
                    return Ok(Outcome::Fail(
                        "streamed prefix is not the verified prefix".into(),
                    ));
                }
            }
        } else if !streamed.is_empty() && flags.contains(&"HeaderFailure") {
            return Ok(Outcome::Fail(
                "plaintext released before the header check".into(),
            ));
        }
        if seek && !flags.contains(&"ValidFinalChunk") {
            return Ok(Outcome::Fail(
                "final chunk authenticated for an invalid message".into(),
            ));
        }
        return Ok(Outcome::Pass);
    }
    let pt = match one {
        Ok(p) => p,
        Err(e) => return Ok(Outcome::Fail(format!("valid message rejected: {e}"))),
    };
    if let Err(e) = stream {
        return Ok(Outcome::Fail(format!("streaming decryption failed: {e}")));
    }
    if !seek || streamed != pt {
        return Ok(Outcome::Fail("paths disagree".into()));
    }
    if want_len != Some(pt.len())
        || want_hash.as_deref() != Some(hex::encode(sha2::Sha512::digest(&pt)).as_str())
    {
        return Ok(Outcome::Fail(
            "plaintext differs from msgLength/msgSha512".into(),
        ));
    }
    Ok(Outcome::Pass)
}

/// Runs one file on `engine`.
pub fn run_file(path: &Path, engine: Engine) -> Result<Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    run_json(&text, engine)
}

/// Runs the vectors of one JSON document on `engine` (which must be available: an engine
/// the CPU lacks is an error, not a reason for every invalid vector to "pass").
pub fn run_json(text: &str, engine: Engine) -> Result<Report, String> {
    run_json_if(engine.check().map(drop), text, engine)
}

/// [`run_json`] once the engine's availability is known (`available`: the outcome of
/// `Engine::check`; separate so the rule is tested on every CPU, also one that has every
/// engine).
fn run_json_if(available: Result<(), Error>, text: &str, engine: Engine) -> Result<Report, String> {
    available.map_err(|e| format!("engine {}: {e}", engine.name()))?;
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let alg = doc["algorithm"]
        .as_str()
        .ok_or("no top-level \"algorithm\"")?
        .to_string();
    let groups = doc["testGroups"]
        .as_array()
        .ok_or("no \"testGroups\" array")?;
    let mut report = Report {
        algorithm: alg.clone(),
        kinds: Vec::new(),
        passed: 0,
        failures: Vec::new(),
    };
    for g in groups {
        let kind = g["type"]
            .as_str()
            .or(g["variant"].as_str())
            .or(g["cipher"].as_str())
            .unwrap_or("");
        if !report.kinds.iter().any(|k| k == kind) {
            report.kinds.push(kind.to_string());
        }
        let tests = g["tests"].as_array().ok_or("group without \"tests\"")?;
        if tests.is_empty() {
            return Err("a group with no tests".into());
        }
        for tv in tests {
            let t = Test(tv);
            let outcome = match (kind, alg.as_str()) {
                ("AeadTest", a) => aead_test(a, g, &t, engine),
                ("MacWithIvTest", "AES-GMAC") => gmac_test(g, &t, engine),
                (_, "GCM-SIV (2015)") => gcm_siv_2015_test(g, &t, engine),
                ("ChunkedEncryption", _) => chunked_test(&t),
                (_, "GCM-64") => gcm64_test(g, &t),
                (k, a) => Err(format!(
                    "unsupported schema: group type {k:?} for algorithm {a:?}"
                )),
            }?;
            match outcome {
                Outcome::Pass => report.passed += 1,
                Outcome::Fail(why) => report.failures.push((t.id(), why)),
            }
        }
    }
    if report.passed + report.failures.len() == 0 {
        return Err("no tests".into());
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine the CPU lacks fails the file, whatever the vectors say (an invalid vector
    /// must not "pass" because nothing could run it). On every CPU: the unavailability is
    /// given, not looked for.
    #[test]
    fn an_unavailable_engine_is_an_error_on_every_cpu() {
        let doc = r#"{"algorithm": "AES-GCM", "testGroups": [{"type": "AeadTest", "tests": [
            {"tcId": 1, "key": "00000000000000000000000000000000",
             "iv": "000000000000000000000000", "aad": "", "msg": "", "ct": "",
             "tag": "00000000000000000000000000000000", "result": "invalid"}]}]}"#;
        let missing = Err(Error::EngineUnavailable("not on this CPU (test)"));
        let r = run_json_if(missing, doc, Engine::Portable);
        assert!(r.as_ref().is_err_and(|e| e.contains("engine")), "{r:?}");
        // The same document on an available engine runs and counts a correct rejection.
        let r = run_json_if(Ok(()), doc, Engine::Portable).unwrap();
        assert_eq!((r.passed, r.failures.len()), (1, 0));
    }
}
