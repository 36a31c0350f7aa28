"""The pyca/cryptography-compatible API: differential tests both ways, buffer types,
errors and messages, the GIL."""
import os
import random
import sys
import threading

import pytest
from cryptography.exceptions import InvalidTag as PycaInvalidTag
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM as PycaAESGCM
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV as PycaAESGCMSIV

import gcmkit

TAGS = [16, 15, 14, 13, 12, 8, 4]


def rand(n, r):
    return bytes(r.getrandbits(8) for _ in range(n))


@pytest.mark.parametrize("seed", range(6))
def test_aesgcm_matches_pyca_both_ways(seed):
    r = random.Random(seed)
    for _ in range(60):
        key = rand(r.choice([16, 24, 32]), r)
        nonce = rand(r.randint(8, 128), r)
        data = rand(r.choice([0, 1, 15, 16, 17, r.randint(0, 5000)]), r)
        aad = None if r.random() < 0.3 else rand(r.randint(0, 100), r)
        ours, theirs = gcmkit.AESGCM(key), PycaAESGCM(key)
        ct = ours.encrypt(nonce, data, aad)
        assert ct == theirs.encrypt(nonce, data, aad)
        assert theirs.decrypt(nonce, ct, aad) == data
        assert ours.decrypt(nonce, ct, aad) == data


@pytest.mark.parametrize("tag_length", TAGS)
def test_truncated_tags_match_pyca_cipher_api(tag_length):
    r = random.Random(tag_length)
    for _ in range(30):
        key, nonce, data, aad = rand(16, r), rand(r.randint(8, 64), r), rand(r.randint(0, 300), r), rand(r.randint(0, 40), r)
        enc = Cipher(algorithms.AES(key), modes.GCM(nonce)).encryptor()
        enc.authenticate_additional_data(aad)
        pyca_ct = enc.update(data) + enc.finalize()
        full_tag = enc.tag
        ours = gcmkit.AesGcm(key, tag_length=tag_length)
        ct = ours.encrypt(nonce, data, aad)
        assert ct == pyca_ct + full_tag[:tag_length]
        dec = Cipher(algorithms.AES(key), modes.GCM(nonce, ct[len(data):], min_tag_length=tag_length)).decryptor()
        dec.authenticate_additional_data(aad)
        assert dec.update(ct[: len(data)]) + dec.finalize() == data
        assert ours.decrypt(nonce, pyca_ct + full_tag[:tag_length], aad) == data


@pytest.mark.parametrize("seed", range(4))
def test_aesgcmsiv_matches_pyca_both_ways(seed):
    r = random.Random(100 + seed)
    for _ in range(60):
        key = rand(r.choice([16, 24, 32]), r)  # AES-192-GCM-SIV as OpenSSL defines it
        nonce, data = rand(12, r), rand(r.randint(0, 5000), r)
        aad = None if r.random() < 0.3 else rand(r.randint(0, 100), r)
        ct = gcmkit.AESGCMSIV(key).encrypt(nonce, data, aad)
        assert ct == PycaAESGCMSIV(key).encrypt(nonce, data, aad)
        assert PycaAESGCMSIV(key).decrypt(nonce, ct, aad) == data
        assert gcmkit.AESGCMSIV(key).decrypt(nonce, ct, aad) == data


def test_buffer_types_and_into():
    key = gcmkit.AESGCM.generate_key(bit_length=256)
    c = gcmkit.AESGCM(key)
    data, nonce = b"x" * 5000, b"\x01" * 12
    expect = c.encrypt(nonce, data, b"a")
    for conv in (bytes, bytearray, memoryview):
        assert c.encrypt(conv(nonce), conv(data), conv(b"a")) == expect
        assert gcmkit.AESGCM(conv(key)).decrypt(conv(nonce), conv(expect), conv(b"a")) == data
    out = bytearray(len(data) + 16)
    assert c.encrypt_into(nonce, data, b"a", out) == len(out)
    assert bytes(out) == expect
    back = bytearray(len(data))
    assert c.decrypt_into(nonce, memoryview(out), b"a", memoryview(back)) == len(data)
    assert bytes(back) == data
    with pytest.raises(ValueError, match="buffer must be 5016 bytes"):
        c.encrypt_into(nonce, data, b"a", bytearray(3))
    # A forged ciphertext: InvalidTag, and the caller's buffer holds zeros: no unverified
    # plaintext reaches it (the project's binding standard: "failed decryption returns an
    # error and zeroes the output").
    forged = bytearray(out)
    forged[0] ^= 1
    keep = bytearray(b"\xaa" * len(data))
    with pytest.raises(gcmkit.InvalidTag):
        c.decrypt_into(nonce, bytes(forged), b"a", keep)
    assert keep == bytes(len(data))


def test_errors_and_messages():
    # pyca's messages on the pyca-named classes (test_pyca_exact.py compares every case
    # with the installed pyca); gcmkit's own on its extension classes.
    with pytest.raises(ValueError, match="AESGCM key must be 128, 192, or 256 bits."):
        gcmkit.AESGCM(b"k" * 15)
    with pytest.raises(ValueError, match="AES-GCM-SIV key must be 128, 192 or 256 bits."):
        gcmkit.AESGCMSIV(b"k" * 20)
    with pytest.raises(ValueError, match="invalid tag length: 5 bytes"):
        gcmkit.AesGcm(b"k" * 16, tag_length=5)
    with pytest.raises(TypeError):
        gcmkit.AESGCM(b"k" * 16, tag_length=12)
    with pytest.raises(ValueError, match="Nonce must be 12 bytes long"):
        gcmkit.AESGCMSIV(b"k" * 16).encrypt(b"n" * 11, b"", None)
    with pytest.raises(ValueError, match="bit_length must be 128, 192, or 256"):
        gcmkit.AESGCM.generate_key(bit_length=100)
    with pytest.raises(TypeError):
        gcmkit.AESGCM(b"k" * 16).encrypt(b"n" * 12, "not bytes", None)
    # The extension class takes IVs the pyca class refuses.
    assert len(gcmkit.AesGcm(b"k" * 16).encrypt(b"n", b"x")) == 17
    c = gcmkit.AESGCM(b"k" * 16)
    ct = bytearray(c.encrypt(b"n" * 12, b"hello", None))
    ct[0] ^= 1
    with pytest.raises(gcmkit.InvalidTag):
        c.decrypt(b"n" * 12, bytes(ct), None)
    # Existing `except cryptography.exceptions.InvalidTag` clauses keep working.
    with pytest.raises(PycaInvalidTag):
        c.decrypt(b"n" * 12, bytes(ct), None)
    assert len(gcmkit.AESGCMSIV.generate_key(bit_length=256)) == 32


def test_gmac_and_module_metadata():
    m = gcmkit.GMAC(b"k" * 16, tag_length=12)
    t = m.compute(b"nonce", b"data")
    assert len(t) == 12
    m.verify(b"nonce", b"data", t)
    with pytest.raises(gcmkit.InvalidTag):
        m.verify(b"nonce", b"datb", t)
    assert gcmkit.__version__
    assert gcmkit.engine() in ("portable", "aesni", "avx2", "avx512", "armv8")
    assert all(ok for _, _, ok in gcmkit.selftest())


def _counter_during_call(call):
    """How often the main thread ran while `call` was executing in another thread. With a
    huge switch interval the interpreter never forces a switch, so the main thread can
    only run during `call` if `call` released the GIL."""
    state = {"count": 0, "during": None, "done": False}

    def worker():
        before = state["count"]
        call()
        state["during"] = state["count"] - before
        state["done"] = True

    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    try:
        t = threading.Thread(target=worker)
        t.start()
        while not state["done"]:
            state["count"] += 1
            os.sched_yield()  # lets the worker start; holds no lock
            threading.Event().wait(0)  # releases the GIL briefly
        t.join()
    finally:
        sys.setswitchinterval(old)
    return state["during"]


def test_gil_is_released_for_large_inputs():
    c = gcmkit.AESGCM(b"k" * 16)
    big = bytes(64 << 20)
    assert _counter_during_call(lambda: c.encrypt(b"n" * 12, big, None)) > 0
    # Negative control: a small input keeps the GIL, and the check notices.
    small = bytes(100)
    assert _counter_during_call(lambda: [c.encrypt(b"n" * 12, small, None) for _ in range(2000)] and None) == 0
