"""The GCM core, cycle by cycle: published vectors, differential tests, tag failures."""
import os

import gcmkit
import pytest

from gcmkit_hw.cli import main, measure_cycles
from gcmkit_hw.ghash import MULTIPLIERS
from gcmkit_hw.sim import Packet, run, run_keys

HERE = os.path.dirname(__file__)

# gcm-specification (McGrew, Viega), Appendix B, AES-128 test cases 1-4 (96-bit IVs):
# (K, P, A, IV, C, T)
SPEC = [
    ("00000000000000000000000000000000", "", "", "000000000000000000000000",
     "", "58e2fccefa7e3061367f1d57a4e7455a"),
    ("00000000000000000000000000000000", "00000000000000000000000000000000", "",
     "000000000000000000000000", "0388dace60b6a392f328c2b971b2fe78",
     "ab6e47d42cec13bdf53a67b21257bddf"),
    ("feffe9928665731c6d6a8f9467308308",
     "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
     "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255", "",
     "cafebabefacedbaddecaf888",
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
     "4d5c2af327cd64a62cf35abd2ba6fab4"),
    ("feffe9928665731c6d6a8f9467308308",
     "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
     "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
     "feedfacedeadbeeffeedfacedeadbeefabaddad2", "cafebabefacedbaddecaf888",
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
     "5bc94fbc3221a5db94fae95ae7121a47"),
]


def h(s):
    return bytes.fromhex(s)


def test_spec_appendix_b_cases_1_to_4():
    segments = []
    for k, p, a, iv, c, t in SPEC:
        segments.append((h(k), [Packet(h(iv), h(a), h(p)),
                                Packet(h(iv), h(a), h(c), decrypt=True, tag=h(t))]))
    for (k, p, a, iv, c, t), (enc, dec) in zip(SPEC, run_keys(segments)):
        assert (enc.data, enc.tag) == (h(c), h(t))
        assert dec.ok and dec.data == h(p)


def _cavp_dir():
    import cryptography_vectors
    return os.path.join(os.path.dirname(cryptography_vectors.__file__), "ciphers/AES/GCM")


def _cavp_records(name, per_section):
    """The first ``per_section`` records of every 128-bit-key, 96-bit-IV, 128-bit-tag
    section of a CAVP .rsp file."""
    out, params, rec, taken = [], {}, None, {}
    for line in open(os.path.join(_cavp_dir(), name)).read().splitlines() + ["Count = end"]:
        line = line.strip()
        if line.startswith("["):
            k, v = line.strip("[]").split("=")
            params[k.strip()] = int(v)
        elif line.startswith("Count"):
            if rec is not None:
                sp = rec["section"]       # the header above the record, not the next one
                sec = (sp["Keylen"], sp["IVlen"], sp["PTlen"], sp["AADlen"], sp["Taglen"])
                if sec[0] == 128 and sec[1] == 96 and sec[4] == 128 and \
                        taken.get(sec, 0) < per_section:
                    taken[sec] = taken.get(sec, 0) + 1
                    out.append(rec)
            rec = {"Count": line.split("=")[1].strip(), "section": params.copy()}
        elif line == "FAIL" and rec is not None:
            rec["FAIL"] = True
        elif "=" in line and rec is not None:
            k, v = line.split("=", 1)
            rec[k.strip()] = v.strip()
    return out


def test_cavp_encrypt_and_decrypt():
    enc = _cavp_records("gcmEncryptExtIV128.rsp", 1)
    dec = _cavp_records("gcmDecrypt128.rsp", 2)
    assert len(enc) == 25 and len(dec) == 50 and any("FAIL" in r for r in dec)
    segments = []
    for r in enc:
        segments.append((h(r["Key"]), [Packet(h(r["IV"]), h(r["AAD"]), h(r["PT"]))]))
    for r in dec:
        segments.append((h(r["Key"]), [Packet(h(r["IV"]), h(r["AAD"]), h(r["CT"]),
                                              decrypt=True, tag=h(r["Tag"]))]))
    results = run_keys(segments)
    for r, (res,) in zip(enc, results[:len(enc)]):
        assert (res.data, res.tag) == (h(r["CT"]), h(r["Tag"])), r["Count"]
    for r, (res,) in zip(dec, results[len(enc):]):
        if "FAIL" in r:
            assert not res.ok and res.data is None, r["Count"]
        else:
            assert res.ok and res.data == h(r["PT"]), r["Count"]


def _random_packets(rng, n, max_len=80):
    pk = []
    for _ in range(n):
        size = rng.choice([0, 1, 15, 16, 17, 31, 32, 33, 44, rng.randrange(max_len)])
        aad = rng.choice([0, 0, 1, 13, 16, 20, 32, rng.randrange(40)])
        pk.append(Packet(rng.randbytes(12), rng.randbytes(aad), rng.randbytes(size)))
    return pk


def test_random_back_to_back_against_gcmkit(rng):
    """Mixed sizes, AAD, GMAC (no data), encryption and decryption interleaved in one
    stream, compared with gcmkit's Python package."""
    key = rng.randbytes(16)
    ref = gcmkit.AESGCM(key)
    plain = _random_packets(rng, 24) + [Packet(rng.randbytes(12), rng.randbytes(33), b"")]
    stream = []
    for p in plain:
        sealed = ref.encrypt(p.iv, p.data, p.aad)
        stream.append(p)
        stream.append(Packet(p.iv, p.aad, sealed[:-16], decrypt=True, tag=sealed[-16:]))
    res = run(key, stream)
    for p, enc, dec in zip(plain, res[0::2], res[1::2]):
        assert enc.data + enc.tag == ref.encrypt(p.iv, p.data, p.aad)
        assert dec.ok and dec.data == p.data
    # back to back: every packet's first output or tag follows the previous one's
    tags = [r.tag_clock for r in res]
    assert tags == sorted(tags) and len(set(tags)) == len(tags)


def test_tag_failures_refused(rng):
    key = rng.randbytes(16)
    ref = gcmkit.AESGCM(key)
    iv, aad, msg = rng.randbytes(12), rng.randbytes(20), rng.randbytes(40)
    sealed = ref.encrypt(iv, msg, aad)
    ct, tag = sealed[:-16], sealed[-16:]

    def flip(b, i):
        return b[:i] + bytes([b[i] ^ 1]) + b[i + 1:]

    bad = [Packet(iv, aad, ct, True, flip(tag, 0)), Packet(iv, aad, ct, True, flip(tag, 15)),
           Packet(iv, aad, flip(ct, 39), True, tag), Packet(iv, flip(aad, 0), ct, True, tag),
           Packet(flip(iv, 11), aad, ct, True, tag), Packet(iv, aad, ct[:-1], True, tag),
           Packet(iv, aad + b"\0", ct, True, tag), Packet(iv, b"", b"", True, tag)]
    good = Packet(iv, aad, ct, True, tag)
    res = run(key, bad + [good])
    assert [r.ok for r in res] == [False] * len(bad) + [True]
    assert all(r.data is None for r in res[:-1]) and res[-1].data == msg


@pytest.mark.parametrize("multiplier", [m for m in MULTIPLIERS if m != "parallel"])
def test_each_multiplier(multiplier, rng):
    """The other multipliers on a few mixed packets (fewer for the slow digit-serial ones)."""
    key = rng.randbytes(16)
    ref = gcmkit.AESGCM(key)
    pk = _random_packets(rng, 8 if multiplier == "evenodd" else 4, max_len=48)
    pk += [Packet(rng.randbytes(12)), Packet(rng.randbytes(12), b"", rng.randbytes(16))]
    sealed = [ref.encrypt(p.iv, p.data, p.aad) for p in pk]
    dec = [Packet(p.iv, p.aad, s[:-16], True, s[-16:]) for p, s in zip(pk, sealed)]
    dec[-1].tag = bytes(16)
    res = run(key, pk + dec, multiplier)
    for s, r in zip(sealed, res[:len(pk)]):
        assert r.data + r.tag == s
    assert [r.ok for r in res[len(pk):]] == [True] * (len(pk) - 1) + [False]


@pytest.mark.parametrize("multiplier,size,clocks", [
    ("parallel", 44, 4), ("parallel", 552, 36), ("parallel", 16, 2),
    ("evenodd", 44, 4), ("evenodd", 64, 5),
    ("digit32", 44, 16), ("digit8", 20, 48),
])
def test_clocks_per_packet(multiplier, size, clocks):
    """C(s) = ceil(s/16) + 1 with a one-block-per-clock GHASH; (ceil(s/16) + 1) * 128/D
    with a digit-serial one."""
    r = measure_cycles(size, multiplier)
    assert r["clocks"] == clocks


def test_cli_vectors(capsys, tmp_path):
    path = os.path.join(HERE, "data", "wycheproof_aes_gcm_subset.json")
    assert main(["vectors", path]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("67 passed, 0 failed")
    assert "skipped group keySize=128 ivSize=64" in out
    # a corrupted expectation must be reported by tcId and fail the command
    import json
    doc = json.load(open(path))
    t = doc["testGroups"][0]["tests"][0]
    t["tag"] = ("0" if t["tag"][0] != "0" else "1") + t["tag"][1:]
    doc["testGroups"] = doc["testGroups"][:1]
    doc["testGroups"][0]["tests"] = doc["testGroups"][0]["tests"][:3]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert main(["vectors", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL tcId {t['tcId']}" in out and out.rstrip().endswith("2 passed, 1 failed")
