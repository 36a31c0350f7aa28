"""Cobblestone from Python, and interop both ways with an independent implementation of
c2sp.org/chunked-encryption written here on pyca/cryptography (OpenSSL's AES-GCM and
Python's HMAC-SHA-512)."""
import hashlib
import hmac
import os

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

import gcmkit
from gcmkit import chunked

CHUNK = 16384


def _keys(key, salt, ctx):
    """HKDF-Expand-SHA-512(PRK = key, info) -> aead key, base nonce, commitment."""
    name = {16: b"AEAD_AES_128_GCM", 32: b"AEAD_AES_256_GCM"}[len(key)]
    info = b"c2sp.org/chunked-encryption@v1+" + name + b"\x00" + salt + ctx
    okm, t, i = b"", b"", 1
    while len(okm) < len(key) + 44:
        t = hmac.new(key, t + info + bytes([i]), hashlib.sha512).digest()
        okm += t
        i += 1
    return okm[: len(key)], okm[len(key) : len(key) + 12], okm[len(key) + 12 : len(key) + 44]


def _nonce(base, k):
    kb = k.to_bytes(5, "big")
    return base[:7] + bytes(a ^ b for a, b in zip(base[7:], kb))


def ref_encrypt(key, pt, ctx=b""):
    salt = os.urandom(24)
    ak, base, commit = _keys(key, salt, ctx)
    a = AESGCM(ak)
    out = [salt, commit]
    chunks = [pt[i : i + CHUNK] for i in range(0, len(pt), CHUNK)]
    if len(pt) % CHUNK == 0:
        chunks.append(b"")
    for k, c in enumerate(chunks):
        out.append(a.encrypt(_nonce(base, k), c, None))
    return b"".join(out)


def ref_decrypt(key, ct, ctx=b""):
    salt, commit, body = ct[:24], ct[24:56], ct[56:]
    ak, base, want = _keys(key, salt, ctx)
    if not hmac.compare_digest(commit, want):
        raise ValueError("wrong key or context")
    if len(body) % (CHUNK + 16) < 16:
        raise ValueError("truncated")
    a = AESGCM(ak)
    return b"".join(a.decrypt(_nonce(base, k), body[i : i + CHUNK + 16], None) for k, i in enumerate(range(0, len(body), CHUNK + 16)))


SIZES = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 7, 1 << 20]


@pytest.mark.parametrize("klen", [16, 32])
def test_interop_both_ways(klen):
    key = os.urandom(klen)
    for n in SIZES:
        pt = os.urandom(n)
        assert ref_decrypt(key, chunked.encrypt(key, pt, b"ctx"), b"ctx") == pt
        assert chunked.decrypt(key, ref_encrypt(key, pt, b"ctx"), b"ctx") == pt


def test_files_streams_and_failures(tmp_path):
    key = os.urandom(16)
    pt = os.urandom(2 * CHUNK + 99)
    src, enc, dst = tmp_path / "pt", tmp_path / "ct", tmp_path / "out"
    src.write_bytes(pt)
    chunked.encrypt_file(key, src, enc, context=b"app")
    assert chunked.decrypt_file(key, enc, dst, context=b"app") == len(pt)
    assert dst.read_bytes() == pt
    assert ref_decrypt(key, enc.read_bytes(), b"app") == pt
    # Streaming writer and reader.
    with chunked.open(tmp_path / "s", "wb", key) as w:
        for i in range(0, len(pt), 5000):
            w.write(pt[i : i + 5000])
    with chunked.open(tmp_path / "s", "rb", key) as r:
        assert r.read(10) + r.read() == pt
    # Failures: wrong key, tampering; nothing written at the destination.
    bad = bytearray(enc.read_bytes())
    bad[100] ^= 1
    (tmp_path / "bad").write_bytes(bad)
    with pytest.raises(gcmkit.InvalidTag):
        chunked.decrypt_file(key, tmp_path / "bad", tmp_path / "never")
    assert not (tmp_path / "never").exists()
    with pytest.raises(gcmkit.InvalidTag):
        chunked.decrypt(os.urandom(16), enc.read_bytes())
    with pytest.raises(ValueError):
        chunked.encrypt(os.urandom(20), b"x")
