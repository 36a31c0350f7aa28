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


def test_writer_aborts_on_exception_and_when_collected_unclosed(tmp_path):
    key, dst = os.urandom(16), tmp_path / "out"
    dst.write_bytes(b"precious")
    with pytest.raises(RuntimeError):
        with chunked.open(dst, "wb", key) as w:
            w.write(b"partial data")
            raise RuntimeError("interrupted")
    assert dst.read_bytes() == b"precious"  # no final chunk, nothing replaced
    w = chunked.open(dst, "wb", key)
    w.write(b"never closed")
    del w
    import gc

    gc.collect()
    assert dst.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary files left


def test_open_checks_the_key_before_touching_any_file(tmp_path):
    dst = tmp_path / "keep"
    dst.write_bytes(b"precious")
    with pytest.raises(ValueError):
        chunked.open(dst, "wb", b"short key")
    assert dst.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep"]


def test_reader_is_a_seekable_buffered_io_object(tmp_path):
    import io
    import shutil

    key = os.urandom(32)
    pt = os.urandom(3 * CHUNK + 1234)
    path = tmp_path / "s.enc"
    path.write_bytes(chunked.encrypt(key, pt, b"c"))
    with chunked.open(path, "rb", key, b"c") as f:
        assert isinstance(f, io.BufferedReader) and f.readable() and f.seekable()
        assert f.name == str(path)
        buf = bytearray(100)
        assert f.readinto(buf) == 100 and bytes(buf) == pt[:100]
        assert f.tell() == 100
        f.seek(CHUNK - 10)
        assert f.read(30) == pt[CHUNK - 10 : CHUNK + 20]
        f.seek(-5, io.SEEK_END)
        assert f.read() == pt[-5:]
        f.seek(0)
        out = io.BytesIO()
        shutil.copyfileobj(f, out, 7777)
        assert out.getvalue() == pt
    assert f.closed


def test_a_read_reaching_a_bad_chunk_keeps_the_verified_bytes(tmp_path):
    key = os.urandom(16)
    pt = os.urandom(3 * CHUNK)
    ct = bytearray(chunked.encrypt(key, pt))
    header = len(chunked.encrypt(key, b"")) - 16  # an empty message: header + one tag
    ct[header + (CHUNK + 16) + 5] ^= 1  # corrupt chunk 1
    path = tmp_path / "bad.enc"
    path.write_bytes(ct)
    f = chunked.open(path, "rb", key)
    raw = f.raw
    first = raw.read(2 * CHUNK)
    assert first == pt[:CHUNK]  # chunk 0 verified: returned, not discarded
    with pytest.raises(gcmkit.InvalidTag):
        raw.read(CHUNK)


def test_paths_of_every_kind_and_errors_name_the_file(tmp_path):
    import pathlib

    key = os.urandom(16)
    for p in (str(tmp_path / "a"), os.fsencode(tmp_path / "b"), pathlib.Path(tmp_path / "c")):
        with chunked.open(p, "wb", key) as w:
            w.write(b"x" * 10)
        with chunked.open(p, "rb", key) as r:
            assert r.read() == b"x" * 10
        chunked.decrypt_file(key, p, tmp_path / "plain")
    missing = tmp_path / "missing.enc"
    with pytest.raises(FileNotFoundError) as e:
        chunked.open(missing, "rb", key)
    assert e.value.filename == str(missing)
    with pytest.raises(FileNotFoundError) as e:
        chunked.decrypt_file(key, missing, tmp_path / "out")
    assert e.value.filename == str(missing)


def test_threads_writing_one_destination_never_mix(tmp_path):
    """Each writer has its own random temporary name; the destination ends up exactly one
    writer's complete output."""
    import threading

    key = os.urandom(16)
    src = [tmp_path / f"src{i}" for i in range(2)]
    for i, s in enumerate(src):
        s.write_bytes(bytes([65 + i]) * (5 * CHUNK + 7))
    dst = tmp_path / "dst"
    for trial in range(6):
        errs = []

        def run(s):
            try:
                chunked.encrypt_file(key, s, dst)
            except Exception as e:  # noqa: BLE001
                errs.append(e)

        ts = [threading.Thread(target=run, args=(s,)) for s in src]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        assert not errs
        got = chunked.decrypt(key, dst.read_bytes())
        assert got in (src[0].read_bytes(), src[1].read_bytes()), f"trial {trial}: mixed output"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dst", "src0", "src1"]


def test_a_huge_raw_read_neither_aborts_nor_allocates_it(tmp_path):
    """Hostile input round four, finding 6: the reader's raw `read_some(2**62)` ended the
    interpreter with SIGABRT (an infallible allocation of the whole size). It runs in a
    child, so that an abort fails this test instead of ending the suite."""
    import subprocess
    import sys

    key = bytes(16)
    data = os.urandom(40000)
    (tmp_path / "f").write_bytes(chunked.encrypt(key, data))
    code = (
        "import sys; from gcmkit import chunked\n"
        "r = chunked.open(sys.argv[1], 'rb', bytes(16))\n"
        "got = r.raw._inner.read_some(2**62)\n"
        "sys.stdout.write(got.hex())\n"
    )
    p = subprocess.run([sys.executable, "-c", code, str(tmp_path / "f")], capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    assert bytes.fromhex(p.stdout.decode()) == data

