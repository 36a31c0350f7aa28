"""Issue #73 from the fsspec side, each finding on `file://` and `memory://` where it
applies: a stream that was not closed successfully to its end never becomes visible (every
writer path: garbage collection, text mode, compression, fsspec.open, open_files,
transactions), transactions commit and roll back, a failed target write poisons the writer,
concurrent reads of a valid file never fail, keys must be bytes-like, an explicit key wins
over the configuration, a rotated key file gives a new instance, get stages, open_files
applies compression, du survives odd sizes, the file:// writer checks its destination at
open, decrypt_file's FIFO docstring says what a reader sees, decrypt_range's bounds."""
import errno
import gc
import gzip
import io
import os
import pickle
import random
import subprocess
import sys
import tempfile
import textwrap
import threading
import uuid

import fsspec
import pytest
from fsspec.implementations.memory import MemoryFileSystem
from fsspec.spec import AbstractFileSystem

import gcmkit
from gcmkit import chunked

CHUNK, WIRE, HEADER = 16384, 16400, 56
KEY = bytes(range(7, 39))
CTX = b"ctx"
SO = {"key": KEY, "context": CTX}
OLD = os.urandom(70_000)
NEW = os.urandom(100_000)
CUT = 40_000
TEXT = "".join(f"line {i:06d} of the new file\n" for i in range(4000))  # 108,000 characters


def key_file_text(key):
    """A key file as `gcmkit keygen` writes it."""
    return "# gcmkit key file\n" + key.hex() + "\n"


class Place:
    """A directory on a target, holding a valid old file where a test writes a new one."""

    def __init__(self, proto, base):
        self.proto, self.base = proto, base
        self.fs = fsspec.filesystem("cobblestone", target_protocol=proto, **SO)
        self.fs.fs.makedirs(base, exist_ok=True)

    def path(self, name):
        return f"{self.base}/{name}"

    def url(self, name):
        return f"cobblestone::{self.proto}://{self.base}/{name}"

    def old(self, name="a.cob"):
        p = self.path(name)
        self.fs.fs.pipe_file(p, chunked.encrypt(KEY, OLD, CTX))
        return p

    def names(self):
        return sorted(n.rstrip("/").rsplit("/", 1)[-1] for n in self.fs.fs.ls(self.base, detail=False))

    def plain(self, p):
        return chunked.decrypt(KEY, self.fs.fs.cat_file(p), CTX)

    def check_old(self, p):
        """The old file is untouched, and nothing else (no temporary file) is there."""
        assert self.plain(p) == OLD
        assert self.names() == [p.rsplit("/", 1)[-1]]


@pytest.fixture(params=["file", "memory"])
def place(request, tmp_path):
    if request.param == "file":
        pl = Place("file", str(tmp_path / "d"))
    else:
        pl = Place("memory", f"/h73-{uuid.uuid4().hex}")
    yield pl
    if request.param == "memory":
        pl.fs.fs.rm(pl.base, recursive=True)


# --- Finding 1: no interrupted stream is ever committed --------------------------------


def test_1_an_abandoned_writer_is_discarded_by_the_garbage_collector(place):
    p = place.old()

    def abandon():
        f = place.fs.open(p, "wb")
        f.write(NEW[:CUT])
        raise RuntimeError("cut off")

    with pytest.raises(RuntimeError):
        abandon()
    gc.collect()
    place.check_old(p)
    f = place.fs.open(p, "wb")
    f.write(NEW[:CUT])
    del f
    gc.collect()
    place.check_old(p)


class _Owner:
    """Garbage in a reference cycle whose finalizer closes the file it owns."""

    def __init__(self):
        self.f, self.me = None, self

    def __del__(self):
        self.f.close()


def test_1_a_close_from_a_finalizer_in_a_garbage_collection_discards(place):
    p = place.old()
    gc.collect()
    gc.disable()  # the collection below is the one that finds the cycle
    try:
        owner = _Owner()  # made first: its finalizer tends to run before the writer's
        owner.f = place.fs.open(p, "wb")
        owner.f.write(NEW[:CUT])
        del owner
        gc.collect()
    finally:
        gc.enable()
    place.check_old(p)


def test_1_text_mode_with_an_exception_and_abandoned(place):
    p = place.old()
    with pytest.raises(RuntimeError):
        with place.fs.open(p, "w") as t:
            t.write(TEXT[:CUT])
            raise RuntimeError("cut off")
    place.check_old(p)
    t = place.fs.open(p, "w")
    t.write(TEXT[:CUT])
    del t  # the TextIOWrapper's finalizer closes the writer: still no commit
    gc.collect()
    place.check_old(p)
    with place.fs.open(p, "w") as t:
        t.write(TEXT)
    assert place.plain(p) == TEXT.encode()


def test_1_compression_with_an_exception_and_without(place):
    p = place.old()
    with pytest.raises(RuntimeError):
        with place.fs.open(p, "wb", compression="gzip") as g:
            g.write(NEW[:CUT])
            raise RuntimeError("cut off")
    gc.collect()
    place.check_old(p)
    for mode, data in (("wb", NEW[:CUT]), ("w", TEXT[:CUT])):
        g = place.fs.open(p, mode, compression="gzip")
        g.write(data)
        del g  # abandoned
        gc.collect()
        place.check_old(p)
    with place.fs.open(p, "wb", compression="gzip") as g:
        g.write(NEW)
    assert gzip.decompress(place.plain(p)) == NEW
    with place.fs.open(p, "w", compression="gzip") as t:
        t.write(TEXT)
    assert gzip.decompress(place.plain(p)) == TEXT.encode()


def test_1_a_rolled_back_transaction(place):
    p = place.old()
    with pytest.raises(RuntimeError):
        with place.fs.transaction:
            with place.fs.open(p, "wb") as f:
                f.write(NEW)  # a complete stream, closed: the rollback still drops it
            raise RuntimeError("roll back")
    place.check_old(p)
    with pytest.raises(RuntimeError):
        with place.fs.transaction:
            with place.fs.open(p, "wb") as f:
                f.write(NEW[:CUT])
                raise RuntimeError("cut off")
    place.check_old(p)


def test_1_fsspec_open_and_open_files_with_an_exception(place):
    p = place.old()
    for mode, data in (("wb", NEW[:CUT]), ("w", TEXT[:CUT])):
        with pytest.raises(RuntimeError):
            with fsspec.open(place.url("a.cob"), mode, cobblestone=SO) as f:
                f.write(data)
                raise RuntimeError("cut off")
        place.check_old(p)
        with pytest.raises(RuntimeError):
            with fsspec.open(place.url("a.cob"), mode, compression="gzip", cobblestone=SO) as f:
                f.write(data)
                raise RuntimeError("cut off")
        place.check_old(p)
        with pytest.raises(RuntimeError):
            with fsspec.open_files([place.url("a.cob")], mode, cobblestone=SO) as files:
                files[0].write(data)
                raise RuntimeError("cut off")
        gc.collect()
        place.check_old(p)
    # OpenFile.open() (pandas' way), abandoned.
    f = fsspec.open(place.url("a.cob"), "w", cobblestone=SO).open()
    f.write(TEXT[:CUT])
    del f
    gc.collect()
    place.check_old(p)
    # And each commits when it ends normally.
    with fsspec.open(place.url("a.cob"), "wb", cobblestone=SO) as f:
        f.write(NEW)
    assert place.plain(p) == NEW
    with fsspec.open_files([place.url("a.cob")], "w", cobblestone=SO) as files:
        files[0].write(TEXT)
    assert place.plain(p) == TEXT.encode()


def test_1_close_in_a_finally_after_an_error_discards_and_in_an_except_block_commits(place):
    p = place.old()
    with pytest.raises(RuntimeError):
        f = place.fs.open(p, "wb")
        try:
            f.write(NEW[:CUT])
            raise RuntimeError("cut off")
        finally:
            f.close()
    place.check_old(p)
    try:
        raise KeyError("handled")
    except KeyError:
        # Opened while an exception was already being handled: that one does not count.
        with place.fs.open(p, "wb") as f:
            f.write(NEW)
    assert place.plain(p) == NEW


def test_1_chunked_open_beside_the_fsspec_writer(tmp_path):
    """gcmkit.chunked.open's writer keeps the same rule, wrappers included."""
    p = tmp_path / "a.cob"
    p.write_bytes(chunked.encrypt(KEY, OLD))

    def check_old():
        assert chunked.decrypt(KEY, p.read_bytes()) == OLD and os.listdir(tmp_path) == ["a.cob"]

    w = chunked.open(p, "wb", KEY)
    w.write(NEW[:CUT])
    del w
    gc.collect()
    check_old()
    with pytest.raises(RuntimeError):
        with chunked.open(p, "wb", KEY) as w:
            w.write(NEW[:CUT])
            raise RuntimeError("cut off")
    check_old()
    with pytest.raises(RuntimeError):
        with io.TextIOWrapper(chunked.open(p, "wb", KEY)) as t:
            t.write(TEXT[:CUT])
            raise RuntimeError("cut off")
    check_old()
    t = io.TextIOWrapper(chunked.open(p, "wb", KEY))
    t.write(TEXT[:CUT])
    del t
    gc.collect()
    check_old()
    with io.TextIOWrapper(chunked.open(p, "wb", KEY)) as t:
        t.write(TEXT)
    assert chunked.decrypt(KEY, p.read_bytes()) == TEXT.encode()


# --- Finding 2: transactions ----------------------------------------------------------


def test_2_a_transaction_commits_its_files_at_its_end(place):
    p = place.old()
    q = place.path("b.txt.cob")
    with place.fs.transaction:
        with place.fs.open(p, "wb") as f:
            f.write(NEW)
        with place.fs.open(q, "w", compression="gzip") as t:
            t.write(TEXT)
        # Closed, not yet committed.
        assert place.plain(p) == OLD and not place.fs.fs.exists(q)
    assert place.plain(p) == NEW
    assert gzip.decompress(place.plain(q)) == TEXT.encode()
    assert place.names() == ["a.cob", "b.txt.cob"]


def test_2_a_file_left_open_in_a_transaction_is_not_committed(place):
    p = place.old()
    with pytest.raises(ValueError, match="not closed"):
        with place.fs.transaction:
            f = place.fs.open(p, "wb")
            f.write(NEW)
    place.check_old(p)


# --- Finding 3: nothing visible while writing; targets that cannot stage ---------------


def test_3_the_old_file_stays_while_writing_and_after_an_exception(place):
    p = place.old()
    with pytest.raises(RuntimeError):
        with place.fs.open(p, "wb") as f:
            f.write(NEW[:CUT])
            assert place.plain(p) == OLD  # the destination is the old file while writing
            raise RuntimeError("cut off")
    place.check_old(p)


class _NoMoveFS(AbstractFileSystem):
    """A target that writes files but can neither stage nor move them."""

    protocol = "h73nomove"
    store = {}

    def _open(self, path, mode="rb", **kwargs):
        if mode == "rb":
            return io.BytesIO(self.store[path])
        f = io.BytesIO()
        f.close = lambda: self.store.__setitem__(path, f.getvalue())
        return f

    def info(self, path, **kwargs):
        if path in self.store:
            return {"name": path, "size": len(self.store[path]), "type": "file"}
        raise FileNotFoundError(path)


def test_3_a_target_that_cannot_stage_or_move_is_refused_for_writing():
    fs = fsspec.filesystem("cobblestone", fs=_NoMoveFS(), **SO)
    with pytest.raises(NotImplementedError, match="cannot write to _NoMoveFS"):
        fs.open("/x.cob", "wb")
    assert _NoMoveFS.store == {}


# --- Finding 4: a failed target write poisons the writer -------------------------------


class _FullMemoryFS(MemoryFileSystem):
    """memory://, where the next write fails with ENOSPC when `fail` is set."""

    protocol = "h73full"
    fail = False

    def _open(self, path, mode="rb", **kwargs):
        f = super()._open(path, mode, **kwargs)
        if "w" in mode or "x" in mode:
            real = f.write

            def write(data):
                if _FullMemoryFS.fail:
                    _FullMemoryFS.fail = False
                    real(bytes(data)[: len(data) // 2])  # part of it was taken
                    raise OSError(errno.ENOSPC, "No space left on device")
                return real(data)

            f.write = write
        return f


def test_4_a_failed_write_on_memory_poisons_the_writer():
    target = _FullMemoryFS()
    base = f"/h73full-{uuid.uuid4().hex}"
    p = f"{base}/a.cob"
    target.pipe_file(p, chunked.encrypt(KEY, OLD, CTX))
    fs = fsspec.filesystem("cobblestone", fs=target, **SO)
    try:
        for with_block in (False, True):
            f = fs.open(p, "wb")
            f.write(NEW[:CUT])
            _FullMemoryFS.fail = True
            with pytest.raises(OSError) as e:
                f.write(NEW[CUT:])
            assert e.value.errno == errno.ENOSPC
            for retry in (lambda f=f: f.write(NEW[CUT:]), f.close):
                with pytest.raises(OSError, match="earlier write failed") as e:
                    retry()
                assert e.value.errno == errno.ENOSPC
            if with_block:
                with pytest.raises(OSError, match="earlier write failed"):
                    with fs.open(p, "wb") as f2:
                        _FullMemoryFS.fail = True
                        try:
                            f2.write(NEW)
                        except OSError:
                            pass  # the caller carries on
            assert chunked.decrypt(KEY, target.cat_file(p), CTX) == OLD
            assert [n.rsplit("/", 1)[-1] for n in target.ls(base, detail=False)] == ["a.cob"]
    finally:
        _FullMemoryFS.fail = False
        target.rm(base, recursive=True)


def test_4_a_failed_write_on_file_poisons_the_writer(tmp_path):
    """EFBIG from RLIMIT_FSIZE (deterministic, like a full disk), in a child process."""
    d = tmp_path / "d"
    d.mkdir()
    dst = d / "a.cob"
    dst.write_bytes(chunked.encrypt(KEY, OLD, CTX))
    script = f"""
        import errno, os, resource, signal, fsspec
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        fs = fsspec.filesystem("cobblestone", target_protocol="file", key={KEY!r}, context={CTX!r})
        data = os.urandom(3 << 20)
        f = fs.open({str(dst)!r}, "wb")
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, hard))
        try:
            f.write(data)
            raise SystemExit("the write did not fail")
        except OSError as e:
            assert e.errno == errno.EFBIG, e
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        for retry in (lambda: f.write(data), f.close):
            try:
                retry()
                raise SystemExit("a call after the failure succeeded")
            except OSError as e:
                assert "earlier write failed" in str(e), e
        print("ok")
    """
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr
    assert chunked.decrypt(KEY, dst.read_bytes(), CTX) == OLD
    assert os.listdir(d) == ["a.cob"]


# --- Finding 5: concurrent reads of a valid file ---------------------------------------


@pytest.fixture
def big(place):
    plain = os.urandom(16 * CHUNK + 123)
    p = place.path("big.cob")
    place.fs.fs.pipe_file(p, chunked.encrypt(KEY, plain, CTX))
    return place, p, plain


def _reads(seed, n, size):
    rnd = random.Random(seed)
    return [(rnd.randrange(size), rnd.randrange(1, 3 * CHUNK)) for _ in range(n)]


def test_5_one_file_object_shared_by_four_threads(big):
    place, p, plain = big
    errors, short = [], []
    with place.fs.open(p, "rb", block_size=CHUNK) as f:
        def reader(seed):
            try:
                for a, n in _reads(seed, 2500, len(plain)):
                    f.seek(a)
                    got = f.read(n)
                    # The threads share one position (as any shared file object): each
                    # read returns a run of the plaintext, never a wrong byte.
                    if got and got not in plain:
                        errors.append(("wrong bytes", a, n))
                    short.append(len(got))
            except Exception as e:  # noqa: BLE001 - collected for the assertion
                errors.append(e)

        threads = [threading.Thread(target=reader, args=(s,)) for s in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
    assert len(short) == 10_000 and sum(short) > 10_000 * CHUNK


def test_5_a_background_cache_reads_exactly(place):
    # More blocks than the cache keeps (32), so that reads keep fetching while the
    # background thread fetches the next block.
    plain = os.urandom(256 * CHUNK + 123)
    p = place.path("big.cob")
    place.fs.fs.pipe_file(p, chunked.encrypt(KEY, plain, CTX))
    with place.fs.open(p, "rb", block_size=CHUNK, cache_type="background") as f:
        for a, n in _reads(5, 10_000, len(plain)):
            f.seek(a)
            assert f.read(n) == plain[a:a + n], (a, n)


def test_5_four_threads_each_with_a_file_object_of_one_path(big):
    """Dask's threads each open the file: on memory:// they used to share one position."""
    place, p, plain = big
    errors = []

    def reader(seed):
        try:
            with place.fs.open(p, "rb", block_size=CHUNK) as f:
                for a, n in _reads(seed, 500, len(plain)):
                    f.seek(a)
                    if f.read(n) != plain[a:a + n]:
                        errors.append((a, n))
        except Exception as e:  # noqa: BLE001 - collected for the assertion
            errors.append(e)

    threads = [threading.Thread(target=reader, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# --- Finding 6: keys and contexts are bytes-like ---------------------------------------


@pytest.mark.parametrize("opts", [{"key": 16}, {"key": 32}, {"key": KEY.hex()}, {"key": KEY, "context": 5},
                                  {"key": KEY, "context": "sales"}])
def test_6_an_int_or_str_key_or_context_is_a_type_error(opts):
    with pytest.raises(TypeError, match="bytes-like"):
        fsspec.filesystem("cobblestone", target_protocol="memory", **opts)


def test_6_the_environment_key_is_refused_when_it_is_an_int():
    script = """
        import fsspec
        try:
            fsspec.filesystem("cobblestone", target_protocol="memory")
        except TypeError as e:
            print("TypeError", e)
    """
    env = dict(os.environ, FSSPEC_COBBLESTONE_KEY="16")
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                       timeout=60, env=env)
    assert r.stdout.startswith("TypeError") and "bytes-like, not int" in r.stdout, r.stdout + r.stderr


def test_6_bytes_like_keys_and_contexts_are_taken():
    a = fsspec.filesystem("cobblestone", target_protocol="memory", key=bytearray(KEY), context=memoryview(CTX))
    assert a._key == KEY and a._context == CTX


# --- Findings 7 and 8: key files, and the explicit argument winning -------------------


def test_7_key_files_in_the_cli_format_and_nothing_else(tmp_path):
    kf = tmp_path / "k"
    kf.write_text(key_file_text(KEY))
    fs = fsspec.filesystem("cobblestone", target_protocol="memory", key_file=str(kf))
    assert fs._key == KEY
    # 32 hex digits without a newline: a 128-bit key, never 32 raw bytes.
    kf.write_text(KEY[:16].hex())
    assert fsspec.filesystem("cobblestone", target_protocol="memory", key_file=str(kf))._key == KEY[:16]
    kf.write_bytes(KEY)  # a raw binary key
    with pytest.raises(ValueError, match="32 or 64 hex digits"):
        fsspec.filesystem("cobblestone", target_protocol="memory", key_file=str(kf))


def test_8_an_explicit_key_wins_over_the_configured_key_file(tmp_path, monkeypatch):
    other = os.urandom(32)
    kf = tmp_path / "env.key"
    kf.write_text(key_file_text(other))
    monkeypatch.setitem(fsspec.config.conf, "cobblestone", {"key_file": str(kf)})
    fs = fsspec.filesystem("cobblestone", target_protocol="memory", key=KEY)
    assert fs._key == KEY
    assert "key_file" not in fs.storage_options
    assert pickle.loads(pickle.dumps(fs))._key == KEY  # what travels to Dask's workers
    assert fsspec.filesystem("cobblestone", target_protocol="memory")._key == other
    with pytest.raises(ValueError, match="not both"):
        fsspec.filesystem("cobblestone", target_protocol="memory", key=KEY, key_file=str(kf))


# --- Finding 9: key rotation -----------------------------------------------------------


def test_9_a_rewritten_key_file_gives_a_new_instance(tmp_path):
    kf = tmp_path / "k"
    old_key, new_key = os.urandom(32), os.urandom(32)
    kf.write_text(key_file_text(old_key))
    a = fsspec.filesystem("cobblestone", target_protocol="memory", key_file=str(kf))
    assert fsspec.filesystem("cobblestone", target_protocol="memory", key_file=str(kf)) is a
    kf.write_text(key_file_text(new_key))
    b = fsspec.filesystem("cobblestone", target_protocol="memory", key_file=str(kf))
    assert b is not a and b._key == new_key
    p = f"/h73-{uuid.uuid4().hex}.cob"
    with b.open(p, "wb") as f:
        f.write(NEW)
    assert chunked.decrypt(new_key, b.fs.cat_file(p)) == NEW
    b.fs.rm_file(p)


# --- Finding 10: get stages ------------------------------------------------------------


def test_10_get_of_a_modified_file_leaves_the_local_file(place, tmp_path):
    plain = os.urandom(40 * CHUNK)
    sealed = bytearray(chunked.encrypt(KEY, plain, CTX))
    p = place.path("m.cob")
    place.fs.fs.pipe_file(p, bytes(sealed))
    out = tmp_path / "out"
    out.mkdir()
    local = out / "plain.bin"
    place.fs.get(p, str(local))
    assert local.read_bytes() == plain
    sealed[HEADER + 30 * WIRE + 5] ^= 1
    place.fs.fs.pipe_file(p, bytes(sealed))
    local.write_bytes(b"the local file")
    with pytest.raises(gcmkit.InvalidTag):
        place.fs.get(p, str(local))
    assert local.read_bytes() == b"the local file"
    assert os.listdir(out) == ["plain.bin"]


# --- Finding 11: open_files applies compression ----------------------------------------


def test_11_open_files_with_compression(place):
    url = place.url("c.gz.cob")
    with fsspec.open_files([url], "wb", compression="gzip", cobblestone=SO) as files:
        files[0].write(NEW)
    assert gzip.decompress(place.plain(place.path("c.gz.cob"))) == NEW
    with fsspec.open_files([url], "rb", compression="gzip", cobblestone=SO) as files:
        assert files[0].read() == NEW
    with fsspec.open_files([url], "rt", compression="gzip", cobblestone=SO) as files:
        with pytest.raises(UnicodeDecodeError):
            files[0].read()  # text mode was applied too (random bytes are not UTF-8)


# --- Finding 12: du with odd sizes ------------------------------------------------------


def test_12_du_counts_a_file_of_no_cobblestone_length_as_zero(place):
    place.fs.fs.pipe_file(place.path("good.cob"), chunked.encrypt(KEY, NEW, CTX))
    place.fs.fs.pipe_file(place.path("junk"), b"x" * (HEADER + 10))  # no Cobblestone file's length
    assert place.fs.info(place.path("junk"))["size"] is None
    assert place.fs.du(place.base) == len(NEW)
    sizes = place.fs.du(place.base, total=False)
    assert sorted(sizes.values(), key=str) == [len(NEW), None]


# --- Finding 13: the destination is checked at open, the stage is beside it ------------


def test_13_the_file_writer_checks_its_destination_at_open(tmp_path, monkeypatch):
    tmpdir = tmp_path / "tmpdir"
    tmpdir.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmpdir))
    d = tmp_path / "d"
    (d / "sub").mkdir(parents=True)
    fs = fsspec.filesystem("cobblestone", target_protocol="file", **SO)
    with pytest.raises(IsADirectoryError):
        fs.open(str(d / "sub"), "wb")
    assert os.listdir(d / "sub") == []
    with pytest.raises(FileNotFoundError):
        fs.open(str(d / "missing" / "a.cob"), "wb")
    assert sorted(os.listdir(d)) == ["sub"]
    with fs.open(str(d / "a.cob"), "wb") as f:
        f.write(NEW)
        staged = [n for n in os.listdir(d) if n not in ("sub",)]
        assert len(staged) == 1 and staged[0] != "a.cob"  # the stage is beside it
        assert os.listdir(tmpdir) == []
    assert sorted(os.listdir(d)) == ["a.cob", "sub"] and os.listdir(tmpdir) == []
    assert chunked.decrypt(KEY, (d / "a.cob").read_bytes(), CTX) == NEW


def test_13_a_memory_directory_is_refused_at_open():
    fs = fsspec.filesystem("cobblestone", target_protocol="memory", **SO)
    base = f"/h73-{uuid.uuid4().hex}"
    fs.fs.makedirs(f"{base}/sub", exist_ok=True)
    fs.fs.pipe_file(f"{base}/sub/x", b"x")
    try:
        with pytest.raises(IsADirectoryError):
            fs.open(f"{base}/sub", "wb")
    finally:
        fs.fs.rm(base, recursive=True)


# --- Finding 15: decrypt_file to a FIFO ------------------------------------------------


def _through_fifo(tmp_path, key, sealed):
    """(what a FIFO's reader got, the error decrypt_file raised)."""
    src = tmp_path / "m.cob"
    src.write_bytes(bytes(sealed))
    fifo = tmp_path / "fifo"
    if fifo.exists():
        fifo.unlink()
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    with pytest.raises(gcmkit.InvalidTag) as e:
        chunked.decrypt_file(key, src, fifo)
    reader.join(30)
    return got, e.value


def test_15_a_fifo_reader_sees_the_verified_batches_then_end_of_file(tmp_path):
    batch = 64 * CHUNK
    plain = os.urandom(2 * batch + 5 * CHUNK + 100)
    sealed = bytearray(chunked.encrypt(KEY, plain))
    sealed[-1] ^= 1  # the final chunk, in the third batch
    got, _ = _through_fifo(tmp_path, KEY, sealed)
    # The two batches before the failing chunk's, verified, then a normal end of file.
    assert got == [plain[:2 * batch]]
    sealed = bytearray(chunked.encrypt(KEY, plain))
    sealed[HEADER + 70 * WIRE] ^= 1  # chunk 70, in the second batch
    assert _through_fifo(tmp_path, KEY, sealed)[0] == [plain[:batch]]
    # A wrong key: the FIFO is opened, then closed with nothing written.
    assert _through_fifo(tmp_path, bytes(32), chunked.encrypt(KEY, plain))[0] == [b""]
    doc = " ".join(chunked.decrypt_file.__doc__.split())
    assert "FIFO" in doc and "batches of 64 chunks" in doc and "normal end of file" in doc
    assert "raised to the caller" in doc


# --- Finding 16: decrypt_range's bounds ------------------------------------------------


@pytest.mark.parametrize("offset,length", [(2**64, 1), (2**70, 1), (0, 2**64), (-1, 1), (0, -1)])
def test_16_offsets_outside_u64_are_a_value_error_like_negatives(offset, length):
    sealed = chunked.encrypt(KEY, NEW)
    with pytest.raises(ValueError, match="offset and length"):
        chunked.decrypt_range(KEY, b"", io.BytesIO(sealed), offset, length)
    assert chunked.decrypt_range(KEY, b"", io.BytesIO(sealed), 2**64 - 1, 2**64 - 1) == b""
