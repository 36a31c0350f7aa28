"""Writes xaes_256_gcm_test.json and dndk_gcm_test.json (Wycheproof AeadTest schema).

The published vectors are copied from their specs (c2sp.org/XAES-256-GCM v1.0;
draft-gueron-cfrg-dndkgcm-03 Appendix A). The rest are computed here with
pyca/cryptography's AES (ECB for the derivations) and AESGCM, an implementation
independent of gcmkit, over edge lengths; invalid vectors flip one bit of the tag,
commitment or ciphertext, or give a wrong nonce length.

    python3 crates/gcmkit-vectors/data/generate_derived.py
"""
import json, os, hashlib
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

HERE = os.path.dirname(os.path.abspath(__file__))


def ecb(key, blocks):
    e = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return [e.update(b) for b in blocks]


def xaes(key, nonce, pt, aad):
    (l,) = ecb(key, [bytes(16)])
    v = int.from_bytes(l, "big")
    k1 = ((v << 1) & ((1 << 128) - 1)) ^ (0x87 if v >> 127 else 0)
    m = [bytes([0, i, 0x58, 0]) + nonce[:12] for i in (1, 2)]
    kx = b"".join(ecb(key, [(int.from_bytes(x, "big") ^ k1).to_bytes(16, "big") for x in m]))
    return AESGCM(kx).encrypt(nonce[12:], pt, aad)


def dndk(key, nonce, commit, pt, aad):
    padded = nonce + bytes(27 - len(nonce))
    config = 128 * commit + 8 * (len(nonce) - 12)
    x = ecb(key, [padded[:15] + bytes([config + i]) for i in range(5 if commit else 3)])
    y = [bytes(a ^ b for a, b in zip(xi, x[0])) for xi in x]
    out = AESGCM(y[1] + y[2]).encrypt(padded[15:], pt, aad)
    return out + (y[3] + y[4] if commit else b"")


def det(label, n):
    """Deterministic bytes (SHAKE-128 of a label), so the files regenerate identically."""
    return hashlib.shake_128(label.encode()).digest(n)


def flip(b, i):
    b = bytearray(b)
    b[i] ^= 1
    return bytes(b)


def test(tc, comment, key, nonce, aad, msg, ct, tag, result, flags=(), extra=None):
    t = {"tcId": tc, "comment": comment, "flags": list(flags), "key": key.hex(),
         "iv": nonce.hex(), "aad": aad.hex(), "msg": msg.hex(), "ct": ct.hex(),
         "tag": tag.hex(), "result": result}
    t.update(extra or {})
    return t


def lengths():
    for n in [0, 1, 15, 16, 17, 31, 32, 33, 64, 111, 112, 113, 127, 128, 129, 255, 256,
              511, 512, 1500, 2048, 4097]:
        for a in [0, 13, 300]:
            yield n, a


def xaes_file():
    tests, tc = [], 1
    msg = b"XAES-256-GCM"
    for key, aad, ct in [
        (bytes([1]) * 32, b"", "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271"),
        (bytes([3]) * 32, b"c2sp.org/XAES-256-GCM", "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d"),
    ]:
        ct = bytes.fromhex(ct)
        assert xaes(key, b"ABCDEFGHIJKLMNOPQRSTUVWX", msg, aad) == ct
        tests.append(test(tc, "c2sp.org/XAES-256-GCM vector", key, b"ABCDEFGHIJKLMNOPQRSTUVWX",
                          aad, msg, ct[:-16], ct[-16:], "valid", ["Published"]))
        tc += 1
    for n, a in lengths():
        key, nonce = det(f"xk{n},{a}", 32), det(f"xn{n},{a}", 24)
        pt, aad = det(f"xp{n},{a}", n), det(f"xa{n},{a}", a)
        out = xaes(key, nonce, pt, aad)
        tests.append(test(tc, f"{n}-byte message, {a}-byte AAD", key, nonce, aad, pt,
                          out[:-16], out[-16:], "valid", ["Pseudorandom"]))
        tc += 1
        if n in (0, 17, 1500) and a == 13:
            for what, ct, tag in [("tag bit flipped", out[:-16], flip(out[-16:], 5)),
                                  ("ciphertext bit flipped", flip(out[:-16], 0) if n else out[:-16],
                                   out[-16:] if n else flip(out[-16:], 15))]:
                tests.append(test(tc, what, key, nonce, aad, pt, ct, tag, "invalid", ["ModifiedTag"]))
                tc += 1
            tests.append(test(tc, "12-byte nonce", key, nonce[:12], aad, pt, out[:-16], out[-16:],
                              "invalid", ["InvalidNonceSize"]))
            tc += 1
    return {"algorithm": "XAES-256-GCM", "schema": "aead_test_schema_v1.json",
            "header": ["XAES-256-GCM (c2sp.org/XAES-256-GCM v1.0): published vectors and vectors "
                       "computed with pyca/cryptography by generate_derived.py"],
            "numberOfTests": len(tests),
            "testGroups": [{"type": "AeadTest", "ivSize": 192, "keySize": 256, "tagSize": 128,
                            "tests": tests}]}


def dndk_file():
    groups, tc = [], 1
    key = bytes([1]) + bytes(31)
    pt, aad = bytes.fromhex("11000001"), bytes.fromhex("0100000011")
    published = {
        (24, 1): ("8eee8a4b", "8a1c8d0ceb7e07e3c834cafe75aa001f",
                  "2baf00efd298de13055c9a6c39e05aee571583384357635e144fa21444239968"),
        (24, 0): ("7f6e39cc", "b61df0a502c167164e99fa23b7d12b9d", ""),
        (12, 1): ("1915d0bd", "187b392eeb9b231a57a852db20e02201",
                  "675fb3ec6d0e56002333c2504d1b70db47c3713775999c9600bedcfda76f8d8c"),
        (12, 0): ("b95cf258", "39e74511d997eaafd0f567d13758305b", ""),
    }
    for ln in [12, 16, 24, 27]:
        for commit in [0, 1]:
            tests = []
            if (ln, commit) in published:
                ct, tag, kc = (bytes.fromhex(x) for x in published[(ln, commit)])
                nonce = bytes(range(ln))
                assert dndk(key, nonce, commit, pt, aad) == ct + tag + kc
                tests.append(test(tc, "draft-gueron-cfrg-dndkgcm-03 Appendix A", key, nonce, aad, pt,
                                  ct, tag, "valid", ["Published"], {"kc": kc.hex()} if commit else None))
                tc += 1
            for n, a in [(n, a) for n in [0, 1, 16, 17, 33, 112, 113, 256, 1500] for a in [0, 13]]:
                k, nonce = det(f"dk{ln}{commit}{n},{a}", 32), det(f"dn{ln}{commit}{n},{a}", ln)
                p, ad = det(f"dp{n},{a}", n), det(f"da{n},{a}", a)
                out = dndk(k, nonce, commit, p, ad)
                body, rest = out[:n], out[n:]
                extra = {"kc": rest[16:].hex()} if commit else None
                tests.append(test(tc, f"{n}-byte message, {a}-byte AAD", k, nonce, ad, p, body,
                                  rest[:16], "valid", ["Pseudorandom"], extra))
                tc += 1
                if n == 17 and a == 13:
                    tests.append(test(tc, "tag bit flipped", k, nonce, ad, p, body, flip(rest[:16], 3),
                                      "invalid", ["ModifiedTag"], extra))
                    tc += 1
                    if commit:
                        tests.append(test(tc, "commitment bit flipped", k, nonce, ad, p, body, rest[:16],
                                          "invalid", ["ModifiedCommitment"], {"kc": flip(rest[16:], 31).hex()}))
                        tc += 1
                    tests.append(test(tc, "nonce one byte short", k, nonce[:-1], ad, p, body, rest[:16],
                                      "invalid", ["InvalidNonceSize"], extra))
                    tc += 1
            groups.append({"type": "AeadTest", "ivSize": 8 * ln, "keySize": 256, "tagSize": 128,
                           "keyCommitment": bool(commit), "tests": tests})
    return {"algorithm": "DNDK-GCM", "schema": "aead_test_schema_v1.json",
            "header": ["DNDK-GCM (draft-gueron-cfrg-dndkgcm-03): published vectors and vectors computed "
                       "with pyca/cryptography by generate_derived.py. With keyCommitment the 32-byte "
                       "commitment is in \"kc\"; gcmkit's tag is tag || kc."],
            "numberOfTests": sum(len(g["tests"]) for g in groups), "testGroups": groups}


for name, doc in [("xaes_256_gcm_test.json", xaes_file()), ("dndk_gcm_test.json", dndk_file())]:
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(name, doc["numberOfTests"], "tests")
