"""gcmkit.chunked.decrypt_range and the fsspec filesystem (gcmkit.fsspec): byte ranges at
chunk edges, the final chunk, empty messages, tampering and truncation, over local and
in-memory files, and pandas reading through fsspec."""
import io
import os

import fsspec
import pytest

import gcmkit
from gcmkit import chunked

CHUNK, WIRE, HEADER = 16384, 16400, 56
KEY = bytes(range(32))


class CountingFile(io.BytesIO):
    """A BytesIO that records its reads, to show which bytes a range needed."""

    def __init__(self, data):
        super().__init__(data)
        self.reads = []

    def read(self, n=-1):
        at = self.tell()
        b = super().read(n)
        self.reads.append((at, len(b)))
        return b


SIZES = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 777]


@pytest.mark.parametrize("n", SIZES)
def test_every_range_at_chunk_edges(n):
    plain = os.urandom(n)
    sealed = chunked.encrypt(KEY, plain, b"ctx")
    edges = sorted({0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, max(n - 1, 0), n, n + 3})
    for a in edges:
        for length in (0, 1, 2, CHUNK, CHUNK + 1, 10 * CHUNK):
            f = CountingFile(sealed)
            got = chunked.decrypt_range(KEY, b"ctx", f, a, length)
            assert got == plain[a:a + length], (n, a, length)
            # The header, then one read of the chunks touched (none for an empty range).
            assert f.reads[0] == (0, HEADER)
            body = f.reads[1:]
            assert len(body) <= 1
            if body:
                first = min(a, n) // CHUNK
                assert body[0][0] == HEADER + first * WIRE


def test_a_range_reaching_the_end_verifies_the_final_chunk():
    plain = os.urandom(2 * CHUNK + 50)
    sealed = bytearray(chunked.encrypt(KEY, plain))
    sealed[-1] ^= 1  # the final chunk's tag
    f = io.BytesIO(bytes(sealed))
    assert chunked.decrypt_range(KEY, b"", f, 0, 100) == plain[:100]
    for a, length in ((2 * CHUNK, 10), (100, 10**9), (len(plain), 1)):
        with pytest.raises(gcmkit.InvalidTag):
            chunked.decrypt_range(KEY, b"", f, a, length)


def test_tampering_truncation_and_bad_arguments():
    plain = os.urandom(3 * CHUNK + 5)
    sealed = chunked.encrypt(KEY, plain)
    bad = bytearray(sealed)
    bad[HEADER + WIRE + 9] ^= 1  # chunk 1
    f = io.BytesIO(bytes(bad))
    assert chunked.decrypt_range(KEY, b"", f, 0, CHUNK) == plain[:CHUNK]
    with pytest.raises(gcmkit.InvalidTag):
        chunked.decrypt_range(KEY, b"", f, CHUNK - 1, 2)
    for cut in (0, 10, HEADER, HEADER + 15, HEADER + WIRE, len(sealed) - 1):
        with pytest.raises(gcmkit.InvalidTag):
            chunked.decrypt_range(KEY, b"", io.BytesIO(sealed[:cut]), 0, len(plain))
    with pytest.raises(gcmkit.InvalidTag):
        chunked.decrypt_range(KEY, b"other context", io.BytesIO(sealed), 0, 1)
    with pytest.raises(gcmkit.InvalidTag):
        chunked.decrypt_range(bytes(32), b"", io.BytesIO(sealed), 0, 1)
    with pytest.raises(ValueError):
        chunked.decrypt_range(KEY, b"", io.BytesIO(sealed), -1, 1)
    with pytest.raises(ValueError):
        chunked.decrypt_range(b"short", b"", io.BytesIO(sealed), 0, 1)
    r = chunked.RangeDecryptor(KEY, b"", sealed[:HEADER], len(sealed))
    with pytest.raises(ValueError):
        r.decrypt((0, 1, HEADER, HEADER + 5), b"x" * 5)  # not a span of this message


def test_decrypt_range_on_a_real_file(tmp_path):
    plain = os.urandom(5 * CHUNK + 1)
    p = tmp_path / "m.cob"
    p.write_bytes(chunked.encrypt(KEY, plain, b"c"))
    with open(p, "rb") as f:
        assert chunked.decrypt_range(KEY, b"c", f, 3 * CHUNK - 5, CHUNK) == plain[3 * CHUNK - 5:4 * CHUNK - 5]


@pytest.fixture(params=["file", "memory"])
def target(request, tmp_path):
    if request.param == "file":
        return "file", str(tmp_path / "data")
    fsspec.filesystem("memory").store.clear()
    return "memory", f"/test-{os.getpid()}"


def url(target, name):
    proto, base = target
    return f"cobblestone::{proto}://{base}/{name}"


def test_the_protocol_is_registered_by_the_entry_point():
    from fsspec.registry import known_implementations

    assert known_implementations["cobblestone"]["class"] == "gcmkit.fsspec.CobblestoneFileSystem"
    assert type(fsspec.filesystem("cobblestone", key=KEY)).__module__ == "gcmkit.fsspec"


@pytest.mark.parametrize("n", [0, 1, CHUNK, 3 * CHUNK + 100])
def test_write_then_read_through_fsspec(target, n):
    plain = os.urandom(n)
    so = {"cobblestone": {"key": KEY, "context": b"ctx"}}
    fs, path = fsspec.core.url_to_fs(url(target, "a.cob"), **so)
    fs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
    with fs.open(path, "wb") as f:
        f.write(plain[: n // 2])
        f.write(plain[n // 2:])
    # On the target: a Cobblestone message any other gcmkit API reads.
    assert chunked.decrypt(KEY, fs.fs.cat_file(path), b"ctx") == plain
    assert fs.info(path)["size"] == n and fs.size(path) == n
    with fsspec.open(url(target, "a.cob"), "rb", **so) as f:
        assert f.size == n
        assert f.read() == plain
        for a in (0, CHUNK - 1, CHUNK, n // 2, max(n - 1, 0)):
            f.seek(a)
            assert f.read(CHUNK + 3) == plain[a:a + CHUNK + 3]
        if n:
            f.seek(-1, 2)
            assert f.read() == plain[-1:]


def test_a_tampered_chunk_raises_from_the_read_that_touches_it(target):
    plain = os.urandom(4 * CHUNK)
    fs, path = fsspec.core.url_to_fs(url(target, "t.cob"), cobblestone={"key": KEY})
    fs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
    sealed = bytearray(chunked.encrypt(KEY, plain))
    sealed[HEADER + 2 * WIRE + 1] ^= 1  # chunk 2
    fs.fs.pipe_file(path, bytes(sealed))
    with fs.open(path, "rb", block_size=CHUNK, cache_type="none") as f:
        assert f.read(2 * CHUNK) == plain[: 2 * CHUNK]
        with pytest.raises(gcmkit.InvalidTag):
            f.read(1)
        f.seek(3 * CHUNK)
        assert f.read(CHUNK) == plain[3 * CHUNK:]
    # A cut file is refused at open (its length is authenticated there).
    fs.fs.pipe_file(path, bytes(chunked.encrypt(KEY, plain))[:-3])
    with pytest.raises(gcmkit.InvalidTag):
        fs.open(path, "rb")


def test_an_exception_inside_the_with_block_commits_nothing(tmp_path):
    fs = fsspec.filesystem("cobblestone", target_protocol="file", key=KEY)
    p = str(tmp_path / "never.cob")
    with pytest.raises(RuntimeError):
        with fs.open(p, "wb") as f:
            f.write(b"x" * 50000)
            raise RuntimeError("stop")
    assert not os.path.exists(p)
    assert os.listdir(tmp_path) == []


def test_the_key_stays_out_of_reprs_and_serialization(tmp_path):
    kf = tmp_path / "k"
    kf.write_text("# gcmkit key file\n" + KEY.hex() + "\n")  # the format gcmkit keygen writes
    fs = fsspec.filesystem("cobblestone", target_protocol="file", key=KEY)
    assert KEY.hex()[:16] not in repr(fs) and "sha256:" in repr(fs)
    with pytest.raises(TypeError):
        fs.to_json()
    by_file = fsspec.filesystem("cobblestone", target_protocol="file", key_file=str(kf))
    assert "key_file" in by_file.to_json()
    with pytest.raises(ValueError):
        fsspec.filesystem("cobblestone", target_protocol="file")
    with pytest.raises(ValueError):
        fsspec.filesystem("cobblestone", target_protocol="file", key=b"x" * 20)


def test_pandas_reads_csv_and_parquet_through_the_filesystem(tmp_path):
    import pandas as pd  # in requirements-test.txt: missing is a failure, not a skip

    df = pd.DataFrame({"a": range(20000), "b": [f"row {i}" for i in range(20000)]})
    so = {"cobblestone": {"key": KEY}}
    csv = f"cobblestone::file://{tmp_path}/t.csv.cob"
    df.to_csv(csv, index=False, storage_options=so)
    pd.testing.assert_frame_equal(pd.read_csv(csv, storage_options=so), df)
    pq = f"cobblestone::file://{tmp_path}/t.parquet.cob"
    df.to_parquet(pq, storage_options=so, row_group_size=2000)
    back = pd.read_parquet(pq, storage_options=so, columns=["b"])
    pd.testing.assert_frame_equal(back, df[["b"]])
    # On disk: ciphertext only.
    assert b"row 1" not in (tmp_path / "t.csv.cob").read_bytes()


def test_reading_line_by_line_decrypts_each_chunk_about_once(tmp_path):
    text = b"".join(b"line %06d of some text\n" % i for i in range(40000))
    p = tmp_path / "lines.cob"
    p.write_bytes(chunked.encrypt(KEY, text))
    fs = fsspec.filesystem("cobblestone", target_protocol="file", key=KEY)
    with fs.open(str(p), "rb") as f:
        fetched = []  # every read of the target goes through the source's read_at
        real = f._source.read_at
        f._source.read_at = lambda start, n: fetched.append(n) or real(start, n)
        assert b"".join(f) == text
    assert len(text) <= sum(fetched) <= 1.1 * len(text) + 2 * 64 * CHUNK, sum(fetched)
