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
        c = gcmkit.AESGCM(key, tag_length=len(tag))
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
                c = cls(h("key"), tag_length=len(h("tag"))) if cls is gcmkit.AESGCM else cls(h("key"))
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
    for g in doc["testGroups"]:
        for t in g["tests"]:
            h = lambda k: bytes.fromhex(t[k])  # noqa: E731
            try:
                m = gcmkit.GMAC(h("key"), tag_length=g["tagSize"] // 8)
                tag = m.compute(h("iv"), h("msg"))
            except ValueError:
                assert t["result"] == "invalid"
                continue
            if t["result"] == "invalid":
                with pytest.raises(gcmkit.InvalidTag):
                    m.verify(h("iv"), h("msg"), h("tag"))
            else:
                assert tag == h("tag")
                m.verify(h("iv"), h("msg"), h("tag"))


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
    doc = json.loads((ROOT.parent / "shared/vectors/gcm_siv_2015_test.json").read_text())
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
