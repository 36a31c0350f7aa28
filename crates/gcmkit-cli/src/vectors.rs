//! `gcmkit vectors`: runs test-vector files in the Wycheproof JSON schemas.
//!
//! Valid (and acceptable) vectors must encrypt to exactly ct || tag and decrypt back;
//! invalid ones must be rejected at construction or at decryption.

use gcmkit::gcm64::{BlowfishGcm, TdeaGcm};
use gcmkit::AeadMode;
use gcmkit::{AesGcm, AesGcmSiv, GcmSiv2015, Gmac};
use serde_json::Value;
use std::path::{Path, PathBuf};

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
    fn must_fail(&self) -> bool {
        self.0["result"].as_str() == Some("invalid")
    }
}

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

fn aead_test(alg: &str, t: &Test) -> Result<Outcome, String> {
    let (key, iv, aad, msg, ct, tag) = (
        t.hex("key")?,
        t.hex("iv")?,
        t.hex("aad")?,
        t.hex("msg")?,
        t.hex("ct")?,
        t.hex("tag")?,
    );
    let mut expected = ct;
    expected.extend_from_slice(&tag);
    let e = |e: gcmkit::Error| e.to_string();
    let (produced, decrypted) = match alg {
        "AES-GCM" => match AesGcm::new(&key).and_then(|c| c.with_tag_len(tag.len())) {
            Ok(c) => (
                c.encrypt(&iv, &msg, &aad).map_err(e),
                c.decrypt(&iv, &expected, &aad).map_err(e),
            ),
            Err(err) => (Err(err.to_string()), Err(err.to_string())),
        },
        "AES-GCM-SIV" => match AesGcmSiv::new(&key) {
            Ok(c) => (
                c.encrypt(&iv, &msg, &aad).map_err(e),
                c.decrypt(&iv, &expected, &aad).map_err(e),
            ),
            Err(err) => (Err(err.to_string()), Err(err.to_string())),
        },
        other => return Err(format!("unsupported AEAD algorithm {other}")),
    };
    Ok(check(!t.must_fail(), produced, &expected, decrypted, &msg))
}

fn gmac_test(group: &Value, t: &Test) -> Result<Outcome, String> {
    let (key, iv, msg, tag) = (t.hex("key")?, t.hex("iv")?, t.hex("msg")?, t.hex("tag")?);
    let tag_len = group["tagSize"].as_u64().ok_or("missing tagSize")? as usize / 8;
    let mac = match Gmac::new(&key).and_then(|m| m.with_tag_len(tag_len)) {
        Ok(m) => m,
        Err(err) => {
            return Ok(check(
                !t.must_fail(),
                Err(err.to_string()),
                &tag,
                Err(err.to_string()),
                &[],
            ))
        }
    };
    let produced = mac
        .compute(&iv, &msg)
        .map(|t| t.as_ref().to_vec())
        .map_err(|e| e.to_string());
    let verified = mac
        .verify(&iv, &msg, &tag)
        .map(|_| Vec::new())
        .map_err(|e| e.to_string());
    Ok(check(!t.must_fail(), produced, &tag, verified, &[]))
}

/// ct || tag of a test, and the decryption check shared by the shared-vector schemas.
fn aead_outcome(
    t: &Test,
    enc: Result<Vec<u8>, gcmkit::Error>,
    dec: impl FnOnce(&[u8]) -> Result<Vec<u8>, gcmkit::Error>,
) -> Result<Outcome, String> {
    let msg = t.hex("msg")?;
    let mut expected = t.hex("ct")?;
    expected.extend_from_slice(&t.hex("tag")?);
    let e = |e: gcmkit::Error| e.to_string();
    Ok(check(
        !t.must_fail(),
        enc.map_err(e),
        &expected,
        dec(&expected).map_err(e),
        &msg,
    ))
}

/// `../shared/vectors/gcm_siv_2015_test.json` (variant, counterBits).
fn gcm_siv_2015_test(group: &Value, t: &Test) -> Result<Outcome, String> {
    let k = group["counterBits"].as_u64().ok_or("missing counterBits")? as u32;
    let cipher = match group["variant"].as_str().ok_or("missing variant")? {
        "one-key" => GcmSiv2015::one_key(&t.hex("key")?),
        "two-key" => GcmSiv2015::two_key(&t.hex("hashKey")?, &t.hex("prfKey")?),
        "three-key" => {
            GcmSiv2015::three_key(&t.hex("hashKey")?, &t.hex("prfKey")?, &t.hex("ctrKey")?)
        }
        v => return Err(format!("unknown GCM-SIV variant {v}")),
    }
    .and_then(|c| c.with_counter_bits(k));
    let (iv, aad, msg) = (t.hex("iv")?, t.hex("aad")?, t.hex("msg")?);
    match cipher {
        Ok(c) => aead_outcome(t, c.encrypt(&iv, &msg, &aad), |ct| c.decrypt(&iv, ct, &aad)),
        Err(err) => aead_outcome(t, Err(err.clone()), |_| Err(err)),
    }
}

/// `../shared/vectors/gcm64_test.json` (cipher TDEA or Blowfish-128, tagSize in bits).
fn gcm64_test(group: &Value, t: &Test) -> Result<Outcome, String> {
    let tag_len = t.0["tagSize"].as_u64().ok_or("missing tagSize")? as usize / 8;
    let (key, iv, aad, msg) = (t.hex("key")?, t.hex("iv")?, t.hex("aad")?, t.hex("msg")?);
    match group["cipher"].as_str().ok_or("missing cipher")? {
        "TDEA" => match TdeaGcm::tdea(&key).and_then(|c| c.with_tag_len(tag_len)) {
            Ok(c) => aead_outcome(t, c.encrypt(&iv, &msg, &aad), |ct| c.decrypt(&iv, ct, &aad)),
            Err(err) => aead_outcome(t, Err(err.clone()), |_| Err(err)),
        },
        "Blowfish-128" => match BlowfishGcm::blowfish(&key).and_then(|c| c.with_tag_len(tag_len)) {
            Ok(c) => aead_outcome(t, c.encrypt(&iv, &msg, &aad), |ct| c.decrypt(&iv, ct, &aad)),
            Err(err) => aead_outcome(t, Err(err.clone()), |_| Err(err)),
        },
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
        .read_to_end(&mut ct)
        .map_err(|e| format!("ct is not zlib: {e}"))?;
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
    if t.must_fail() {
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

/// Runs one file; returns (passed, failures) or an error if it cannot be read or parsed.
fn run_file(path: &Path, verbose: bool) -> Result<(usize, usize), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let alg = doc["algorithm"]
        .as_str()
        .ok_or("no top-level \"algorithm\"")?
        .to_string();
    let groups = doc["testGroups"]
        .as_array()
        .ok_or("no \"testGroups\" array")?;
    let (mut passed, mut failed) = (0, 0);
    let mut kinds = std::collections::BTreeSet::new();
    for g in groups {
        let kind = g["type"]
            .as_str()
            .or(g["variant"].as_str())
            .or(g["cipher"].as_str())
            .unwrap_or("");
        kinds.insert(kind.to_string());
        for tv in g["tests"].as_array().ok_or("group without \"tests\"")? {
            let t = Test(tv);
            let outcome = match (kind, alg.as_str()) {
                ("AeadTest", a) => aead_test(a, &t),
                ("MacWithIvTest", "AES-GMAC") => gmac_test(g, &t),
                (_, "GCM-SIV (2015)") => gcm_siv_2015_test(g, &t),
                ("ChunkedEncryption", _) => chunked_test(&t),
                (_, "GCM-64") => gcm64_test(g, &t),
                (k, a) => Err(format!(
                    "unsupported schema: group type {k:?} for algorithm {a:?}"
                )),
            };
            match outcome {
                Ok(Outcome::Pass) => passed += 1,
                Ok(Outcome::Fail(why)) => {
                    failed += 1;
                    if verbose || failed <= 20 {
                        println!("  FAIL tcId {}: {why}", t.id());
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }
    let kinds: Vec<String> = kinds.into_iter().collect();
    println!(
        "{}: {alg} ({}): {passed} passed, {failed} failed",
        path.display(),
        kinds.join(", ")
    );
    Ok((passed, failed))
}

/// Runs every file; prints `N passed, M failed` last. Exit code 0, 1 (failures) or 2
/// (a file could not be read or understood).
pub fn run(files: &[PathBuf], verbose: bool) -> u8 {
    let (mut passed, mut failed, mut broken) = (0, 0, 0);
    for f in files {
        match run_file(f, verbose) {
            Ok((p, m)) => {
                passed += p;
                failed += m;
            }
            Err(e) => {
                broken += 1;
                eprintln!("gcmkit vectors: {}: {e}", f.display());
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if broken > 0 {
        2
    } else if failed > 0 {
        1
    } else {
        0
    }
}
