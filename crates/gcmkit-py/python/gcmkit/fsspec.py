"""An fsspec filesystem for Cobblestone files (c2sp.org/chunked-encryption): the protocol
``cobblestone``, chained over any fsspec filesystem, so that pandas, Dask, pyarrow and
anything else that reads through fsspec reads encrypted files by byte range::

    import pandas as pd
    opts = {"cobblestone": {"key_file": "/etc/keys/sales.key"}}   # from `gcmkit keygen`
    df = pd.read_csv("cobblestone::file:///data/sales.csv.enc", storage_options=opts)

    import dask.dataframe as dd
    ddf = dd.read_csv("cobblestone::s3://bucket/sales.csv.enc", blocksize="8MiB",
                      storage_options={"cobblestone": {"key": key}, "s3": {"anon": False}})

Options (under ``storage_options["cobblestone"]``, or top-level for a plain
``cobblestone://`` path; pass them nested in a chained URL, where a top-level ``key`` would
be ambiguous with s3fs's own ``key``):

- ``key``: the 16-byte (Cobblestone-128) or 32-byte (Cobblestone-256) key, bytes-like.
  Anything else is a ``TypeError``, as for pyca's classes: an ``int`` is never taken as
  a length of zero bytes, nor a ``str`` as its encoding (``FSSPEC_COBBLESTONE_KEY=16``
  arrives as the int 16 and is refused). Or
- ``key_file``: a gcmkit key file, the format the CLI's ``gcmkit keygen`` writes and its
  ``--key`` reads (a line of 32 or 64 hex digits, ``#`` comment lines), read by
  ``gcmkit.load_key_file``: anything else, a raw binary key included, is a ``ValueError``
  naming the format. Only the path travels to Dask's workers; each reads the file itself.
  Also from the environment variable ``FSSPEC_COBBLESTONE_KEY_FILE`` (fsspec's
  configuration); a ``key`` or ``key_file`` given as an argument wins over the
  configuration.
- ``context``: the context, bytes-like (default empty; a ``str`` is a ``TypeError``).

fsspec caches filesystem instances by their options; here the key's fingerprint is part
of that token too, so a rewritten key file gives a new instance with the new key (files
already open keep the key they were opened with).

Reading (``"rb"``): a seekable file over the plaintext; ``size`` and ``info()["size"]`` are
the plaintext length, authenticated when the file is opened (its final chunk is read and
verified). Each read fetches the chunks it touches in one ranged read of the underlying
file and verifies every one: a modified chunk raises ``InvalidTag`` from the read that
touches it, and none of its bytes are returned. One file object may be read from several
threads at once (fsspec's ``cache_type="background"`` does): the ranged reads of the
underlying file take a lock. ``info``/``ls`` give ``size`` None for a file of a length no
Cobblestone file has; ``du`` counts such a file as 0. ``get``/``get_file`` to a local path
decrypt through ``gcmkit.chunked.decrypt_file``: the local file appears only once all of it
verified (a file object as the destination gets the plaintext as it is read).

Writing (``"wb"``, ``"w"``, with or without ``compression=``). The rule: a new file becomes
visible at its path only when an explicit ``close()`` ends a stream written to its end (or,
in a transaction, when the transaction commits). Until then the old file, if any, is left
as it was, and nothing else ever appears under the path. Every other way a stream ends
discards it:

- ``with fs.open(p, "wb") as f:`` (also text mode and ``compression=``): an exception in
  the block discards the stream.
- ``close()`` itself discards instead of committing when it runs while an exception is
  being handled that was raised after the file was opened: that is how fsspec's
  ``OpenFile`` (``fsspec.open``), ``open_files``, ``io.TextIOWrapper``, compression
  wrappers, pandas' handles and ``finally:`` blocks close a file on the way out of an
  error. (An exception already being handled when the file was opened does not count: a
  file opened and closed inside an ``except`` block commits.)
- A file garbage-collected unclosed, itself or through a text or buffer wrapper over it,
  and any close that runs inside a garbage collection, discards the stream.
- ``with fs.transaction:``: ``close()`` ends each stream; all commit when the block ends
  without an exception and are discarded if it ends by one. A file still unclosed when
  the transaction commits is discarded and the commit raises ``ValueError``.
- A write to the target that fails (``ENOSPC``, a network error, an interrupt) poisons
  the file: part of that data may have been taken, so every later call, ``close()``
  included, raises, and nothing is ever committed.

How each target stages: ``file://`` writes through gcmkit's own output rules (as
``gcmkit.chunked.open`` and the CLI): a random, exclusive temporary file beside the
destination, renamed over it at commit; a missing parent directory (unless the target has
``auto_mkdir``) or a directory at the path is refused at open, before any data is taken;
a FIFO or device is written in place, as the CLI does. Every other target writes a
temporary name beside the destination (``.<name>.<random>.gcmkit-part``), visible while it
is written, and moves it into place with the target's ``mv`` at commit (a copy and a
delete where the target has no rename: atomic where the target's copy is, as for
``memory://`` and object stores). A target that can neither stage nor move files is refused
for writing with ``NotImplementedError``.

Needs the ``fsspec`` package (from the repository: ``pip install './crates/gcmkit-py[fsspec]'``);
registered for the protocol ``cobblestone`` through the ``fsspec.specs`` entry point.
"""

import errno
import hashlib
import io
import os
import secrets
import sys
import tempfile
import threading

import fsspec
from fsspec.asyn import AsyncFileSystem
from fsspec.callbacks import DEFAULT_CALLBACK
from fsspec.config import apply_config
from fsspec.implementations.chained import ChainedFileSystem
from fsspec.implementations.local import LocalFileSystem
from fsspec.implementations.memory import MemoryFileSystem
from fsspec.spec import AbstractBufferedFile, AbstractFileSystem

import gcmkit
from gcmkit import chunked
from gcmkit.chunked import CHUNK, HEADER, RangeDecryptor, _DiscardsUnlessFinished, _interrupted, _read_chunks, _read_exact
from gcmkit.cobblestone import Cobblestone128Encryptor, Cobblestone256Encryptor

__all__ = ["CobblestoneFileSystem", "CobblestoneFile", "CobblestoneWriter", "plaintext_size"]

_WIRE = CHUNK + 16


def plaintext_size(ciphertext_size):
    """The plaintext length of a Cobblestone file of ``ciphertext_size`` bytes, or None
    for a length no Cobblestone file has (it is then refused when opened)."""
    body = ciphertext_size - HEADER
    if body < 16 or body % _WIRE < 16:
        return None
    return body - 16 * (body // _WIRE + 1)


# --- Keys ---------------------------------------------------------------------------


def _bytes_like(value, what):
    """``value`` as bytes if it is bytes-like; TypeError otherwise (pyca's rule: an int is
    not a length and a str has no one encoding)."""
    if isinstance(value, str):
        raise TypeError(f"the cobblestone filesystem's {what} must be bytes-like, not str "
                        f"(encode it, or for a key use key_file=)")
    try:
        return memoryview(value).tobytes()
    except TypeError:
        raise TypeError(f"the cobblestone filesystem's {what} must be bytes-like, not "
                        f"{type(value).__name__}") from None


def _key_from(key, key_file):
    if key is not None and key_file is not None:
        raise ValueError("give key or key_file, not both")
    if key_file is not None:
        return gcmkit.load_key_file(key_file)
    if key is None:
        raise ValueError("the cobblestone filesystem needs a key (storage option key or key_file)")
    key = _bytes_like(key, "key")
    if len(key) not in (16, 32):
        raise ValueError(f"a Cobblestone key is 16 or 32 bytes, not {len(key)}")
    return key


def _resolve_key(cls, kwargs):
    """The key for a call with ``kwargs``, and the names of the configuration's key
    options that lost to an argument: a ``key``/``key_file`` given as an argument wins over
    fsspec's configuration (``FSSPEC_COBBLESTONE_KEY_FILE``, ``FSSPEC_COBBLESTONE_KEY``)."""
    merged = apply_config(cls, kwargs)
    explicit = {k: kwargs[k] for k in ("key", "key_file") if kwargs.get(k) is not None}
    if not explicit:
        return _key_from(merged.get("key"), merged.get("key_file")), []
    lost = [k for k in ("key", "key_file") if k not in explicit and merged.get(k) is not None]
    return _key_from(explicit.get("key"), explicit.get("key_file")), lost


def _fingerprint(key):
    return hashlib.sha256(b"gcmkit.fsspec key fingerprint\0" + key).hexdigest()[:12]


class _KeyedInstances(type(ChainedFileSystem)):
    """fsspec's instance cache, with the key's fingerprint in the token: a rewritten key
    file gives a new instance. The key is read once per call, here, and handed to
    ``__init__`` (never stored in ``storage_options`` nor in the token)."""

    def __call__(cls, *args, **kwargs):
        key, lost = _resolve_key(cls, kwargs)
        obj = super().__call__(*args, **kwargs, _key_fingerprint=_fingerprint(key), _resolved_key=key)
        # What travels (pickles for Dask, to_dict) is what the caller gave, minus the
        # configuration's key option that lost to an argument.
        obj.storage_options.pop("_key_fingerprint", None)
        for k in lost:
            obj.storage_options.pop(k, None)
        return obj


def _can_move(target):
    """Whether ``target`` can move a file into place (its own ``mv``, or a copy for
    fsspec's copy-and-delete ``mv``)."""
    t = type(target)
    if t.mv is not AbstractFileSystem.mv or t.cp_file is not AbstractFileSystem.cp_file:
        return True
    return isinstance(target, AsyncFileSystem) and (
        t._cp_file is not AsyncFileSystem._cp_file or t._mv_file is not AsyncFileSystem._mv_file)


class CobblestoneFileSystem(ChainedFileSystem, metaclass=_KeyedInstances):
    """Cobblestone files over another fsspec filesystem (the target): see the module."""

    protocol = "cobblestone"
    # The per-file path ("fo") must not make a new instance per file; the key itself is
    # never part of the token (its fingerprint is).
    _strip_tokenize_options = ("fo", "_resolved_key")

    def __init__(self, target_protocol=None, target_options=None, fs=None, fo=None,
                 key=None, key_file=None, context=b"", _key_fingerprint=None, _resolved_key=None,
                 **kwargs):
        super().__init__(**kwargs)
        if fs is not None and target_protocol is not None:
            raise ValueError("give fs or target_protocol, not both")
        self._key = _resolved_key if _resolved_key is not None else _key_from(key, key_file)
        self._context = b"" if context is None else _bytes_like(context, "context")
        self.fs = fs if fs is not None else fsspec.filesystem(target_protocol or "file", **(target_options or {}))
        self._encryptor = Cobblestone128Encryptor if len(self._key) == 16 else Cobblestone256Encryptor
        target_strip = self.fs._strip_protocol
        self._strip_protocol = lambda p: target_strip(type(self)._strip_protocol(p))

    def __repr__(self):
        # Names the key by a fingerprint only.
        return f"CobblestoneFileSystem(target={type(self.fs).__name__}, key=sha256:{_fingerprint(self._key)})"

    def to_dict(self, *, include_password=True):
        # fsspec would write the key out as a list of integers: refuse instead. A key file
        # (key_file=) is the serializable form.
        if self.storage_options.get("key") is not None:
            raise TypeError("a CobblestoneFileSystem holding its key cannot be serialized; use key_file=")
        return super().to_dict(include_password=include_password)

    # Metadata: the target's, with the plaintext size.
    def _plain_info(self, info):
        info = dict(info)
        if info.get("type") == "file" and info.get("size") is not None:
            info["ciphertext_size"] = info["size"]
            info["size"] = plaintext_size(info["size"])
        return info

    def info(self, path, **kwargs):
        return self._plain_info(self.fs.info(self._strip_protocol(path), **kwargs))

    def ls(self, path, detail=True, **kwargs):
        out = self.fs.ls(self._strip_protocol(path), detail=True, **kwargs)
        out = [self._plain_info(i) for i in out]
        return out if detail else [i["name"] for i in out]

    def du(self, path, total=True, maxdepth=None, withdirs=False, **kwargs):
        # A file no Cobblestone file can be (size None) holds no plaintext: it counts 0.
        sizes = super().du(path, total=False, maxdepth=maxdepth, withdirs=withdirs, **kwargs)
        if total:
            return sum(s for s in sizes.values() if s is not None)
        return sizes

    def ukey(self, path):
        return self.fs.ukey(self._strip_protocol(path))

    def rm_file(self, path):
        self.fs.rm_file(self._strip_protocol(path))

    def mkdir(self, path, create_parents=True, **kwargs):
        self.fs.mkdir(self._strip_protocol(path), create_parents=create_parents, **kwargs)

    def makedirs(self, path, exist_ok=False):
        self.fs.makedirs(self._strip_protocol(path), exist_ok=exist_ok)

    def rmdir(self, path):
        self.fs.rmdir(self._strip_protocol(path))

    def get_file(self, rpath, lpath=None, callback=DEFAULT_CALLBACK, outfile=None, **kwargs):
        """Decrypts ``rpath`` into the local ``lpath``: through ``chunked.decrypt_file``, so
        the local file appears only once all of it verified (a temporary file beside it,
        renamed). A file object as ``lpath``/``outfile`` gets the plaintext as it is read."""
        if outfile is not None or not isinstance(lpath, (str, bytes, os.PathLike)):
            return super().get_file(rpath, lpath, callback=callback, outfile=outfile, **kwargs)
        rpath = self._strip_protocol(rpath)
        if self.isdir(rpath):
            os.makedirs(lpath, exist_ok=True)
            return None
        lpath = os.fsdecode(os.fspath(lpath))
        parent = os.path.dirname(os.path.abspath(lpath))
        os.makedirs(parent, exist_ok=True)
        if isinstance(self.fs, LocalFileSystem):
            n = chunked.decrypt_file(self._key, rpath, lpath, self._context)
        else:
            # The target's own download of the ciphertext, beside the destination, then
            # gcmkit's verified decryption of it.
            fd, staged = tempfile.mkstemp(prefix=f".{os.path.basename(lpath)}.", suffix=".gcmkit-part", dir=parent)
            os.close(fd)
            try:
                self.fs.get_file(rpath, staged)
                n = chunked.decrypt_file(self._key, staged, lpath, self._context)
            finally:
                os.unlink(staged)
        callback.set_size(n)
        callback.relative_update(n)
        return None

    # OpenFiles looks through `fs.fs` for these: defined here, files open through us (a
    # cache layer below would otherwise hand out ciphertext), wrapped as each OpenFile
    # wraps them (compression, text).
    def open_many(self, open_files, **kwargs):
        opened = []
        try:
            for of in open_files:
                opened.append(of.__enter__())
        except BaseException:
            for of in open_files[:len(opened)]:
                of.close()  # an exception is being handled: writers discard
            raise
        return opened

    def commit_many(self, files):
        # OpenFiles.__exit__ has closed each OpenFile (a close on the way out of an
        # exception discards); what is still open ends here.
        for f in files:
            if not f.closed:
                f.close()

    def open(self, path, mode="rb", block_size=None, cache_options=None, compression=None, **kwargs):
        if mode not in ("wb", "w", "wt"):
            return super().open(path, mode, block_size=block_size, cache_options=cache_options,
                                compression=compression, **kwargs)
        if isinstance(path, str) and path.endswith("/"):
            raise IsADirectoryError(errno.EISDIR, "a path ending in / names a directory", path)
        # fsspec's own open would put a compression wrapper (no commit()) in the
        # transaction, and a compressor never closes the file it writes into.
        text_kwargs = {k: kwargs.pop(k) for k in ("encoding", "errors", "newline") if k in kwargs}
        ac = kwargs.pop("autocommit", not self._intrans)
        writer = self._open(path, "wb", block_size=block_size, autocommit=ac,
                            cache_options=cache_options, **kwargs)
        if not ac:
            self.transaction.files.append(writer)
        f = writer
        if compression is not None:
            from fsspec.compression import compr
            from fsspec.core import get_compression

            compression = get_compression(self._strip_protocol(path), compression)
            if compression is not None:
                f = _CompressedWriter(compr[compression](writer, mode="wb"), writer)
        if mode != "wb":
            f = io.TextIOWrapper(f, **text_kwargs)
        return f

    def _open(self, path, mode="rb", block_size=None, autocommit=True, cache_options=None, **kwargs):
        path = self._strip_protocol(path)
        if mode == "rb":
            return CobblestoneFile(self, path, mode, block_size=block_size or 64 * CHUNK,
                                   cache_options=cache_options, **kwargs)
        if mode == "wb":
            return CobblestoneWriter(self, path, autocommit=autocommit)
        raise ValueError(f"mode must be 'rb' or 'wb', not {mode!r}")


# --- Reading --------------------------------------------------------------------------


class _HandleSource:
    """Ciphertext from a file object of the target's own (``open`` hands each caller a new
    one): each ranged read is a seek and a read of it under a lock, so that concurrent
    fetches never move each other's position."""

    def __init__(self, target, path):
        self._f = target.open(path, "rb")
        self._lock = threading.Lock()
        try:
            self.size = self._f.seek(0, 2)
        except BaseException:
            self._f.close()
            raise

    def read_at(self, start, n):
        with self._lock:
            self._f.seek(start)
            return _read_exact(self._f, n)

    def close(self):
        self._f.close()


class _RangedSource:
    """``memory://``, whose ``open`` hands every caller the store's one object (so that a
    position is shared even between file objects): ranged ``cat_file`` reads instead."""

    def __init__(self, target, path):
        self._target, self._path = target, path
        self.size = target.size(path)
        if target.isdir(path):
            raise IsADirectoryError(errno.EISDIR, "is a directory", path)

    def read_at(self, start, n):
        return self._target.cat_file(self._path, start, start + n)

    def close(self):
        pass


class CobblestoneFile(AbstractBufferedFile):
    """A Cobblestone file being read: fsspec's buffered file over the plaintext; each fetch
    reads the chunks it needs from the target in one ranged read and verifies them.

    fsspec's own cache is off by default (``cache_type="none"``): its read-ahead would
    decrypt bytes a ranged reader (Dask's blocks, Parquet's column chunks) never asks for.
    Instead the last window decrypted (whole chunks, at least ``block_size`` bytes) is
    kept, so that small sequential reads (``readline``) decrypt each chunk once.

    Fetches may run in several threads at once (a background cache, a file object shared
    by threads): the target is read by position only (``_HandleSource``,
    ``_RangedSource``), verification needs no lock, and the window is replaced whole."""

    def __init__(self, fs, path, mode="rb", block_size=None, cache_type="none", **kwargs):
        source = (_RangedSource if isinstance(fs.fs, MemoryFileSystem) else _HandleSource)(fs.fs, path)
        try:
            header = source.read_at(0, HEADER)
            self._ranges = RangeDecryptor(fs._key, fs._context, header, source.size)
            # The length: authenticated here, by the final chunk.
            _read_chunks(self._ranges, source.read_at, self._ranges.plaintext_len, 1)
        except BaseException:
            source.close()
            raise
        self._source = source
        self._window = (0, b"")  # (plaintext offset, verified plaintext)
        kwargs["size"] = self._ranges.plaintext_len
        super().__init__(fs, path, mode, block_size=block_size, cache_type=cache_type, **kwargs)

    def _fetch_range(self, start, end):
        end = min(end, self.size)  # fsspec may ask past the end
        if end <= start:
            return b""
        at, window = self._window
        if at <= start and end <= at + len(window):
            return window[start - at:end - at]
        # Small reads fetch a whole block; large ones exactly their chunks.
        at, plain = _read_chunks(self._ranges, self._source.read_at, start, max(end - start, self.blocksize))
        self._window = (at, plain)
        return plain[start - at:end - at]

    def readuntil(self, char=b"\n", blocks=None):
        # fsspec reads a whole block per line by default: 64 KiB steps stay in the window.
        return super().readuntil(char, blocks or 4 * CHUNK)

    def close(self):
        super().close()
        self._window = (0, b"")
        self._source.close()


# --- Writing --------------------------------------------------------------------------


class _LocalSink:
    """A ``file://`` destination: gcmkit's own writer (``chunked.open``, gcmkit-fs's
    output rules), which creates its temporary file beside the destination at open."""

    def __init__(self, fs, path):
        if getattr(fs.fs, "auto_mkdir", False):
            fs.fs.makedirs(fs.fs._parent(path), exist_ok=True)
        self._w = chunked.open(path, "wb", fs._key, fs._context)

    def write(self, data):
        self._w.write(data)

    def finish(self):
        self._w._commit()  # CobblestoneWriter decided: no second look at the exception state

    def abort(self):
        self._w.abort()


class _StagedSink:
    """Any other target: the ciphertext goes to a temporary name beside the destination,
    moved into place by the target's ``mv`` at commit."""

    def __init__(self, fs, path):
        target = fs.fs
        if not _can_move(target):
            raise NotImplementedError(
                f"the cobblestone filesystem cannot write to {type(target).__name__}: it writes "
                "each file under a temporary name and moves it into place when it is complete, "
                "and this filesystem can neither stage files nor move them")
        if target.isdir(path):
            raise IsADirectoryError(errno.EISDIR, "is a directory", path)
        self._target, self._path = target, path
        head, sep, name = path.rpartition("/")
        self._tmp = f"{head}{sep}.{name}.{secrets.token_hex(8)}.gcmkit-part"
        try:
            self._raw = target.open(self._tmp, "xb")
        except (ValueError, NotImplementedError, TypeError):
            self._raw = target.open(self._tmp, "wb")  # no exclusive mode: the name is random
        self._enc = fs._encryptor(fs._key, fs._context)

    def write(self, data):
        self._raw.write(self._enc.update(data))

    def finish(self):
        self._raw.write(self._enc.finalize())
        self._raw.close()
        self._target.mv(self._tmp, self._path)

    def abort(self):
        # Best effort: a name that cannot be removed stays a hidden temporary file.
        try:
            self._raw.close()
        except Exception:  # noqa: BLE001 - the stream is being thrown away
            pass
        try:
            self._target.rm_file(self._tmp)
        except Exception:  # noqa: BLE001
            pass


class CobblestoneWriter(_DiscardsUnlessFinished, io.RawIOBase):
    """A Cobblestone file being written: encrypts as it goes; an explicit ``close()`` of a
    stream written to its end commits it, and every other ending discards it (see the
    module docstring for each path)."""

    mode = "wb"

    def __init__(self, fs, path, autocommit=True):
        super().__init__()
        self._sink = None
        self.fs, self.path, self.name, self.autocommit = fs, path, path, autocommit
        # An exception already being handled at open is not a reason to discard at close.
        self._exc_at_open = sys.exc_info()[1]
        self._abandoned = False  # a wrapper over this file is being finalized
        self._failed = None      # the exception of a failed write: the file is poisoned
        self._ended = False      # closed in a transaction: commit() or discard() decides
        self._written = 0
        self._sink = (_LocalSink if isinstance(fs.fs, LocalFileSystem) else _StagedSink)(fs, path)

    def writable(self):
        return True

    def _failure(self):
        e = self._failed
        msg = f"an earlier write failed ({e!r}); the stream was discarded and nothing was written"
        if isinstance(e, OSError) and e.errno is not None:
            return OSError(e.errno, msg, self.path)
        return OSError(msg)

    def _poison(self, e):
        self._failed = e
        sink, self._sink = self._sink, None
        if sink is not None:
            sink.abort()

    def write(self, data):
        if self._failed is not None:
            raise self._failure()
        if self.closed:
            raise ValueError("I/O operation on closed file.")
        data = memoryview(data).cast("B")
        try:
            self._sink.write(data)
        except BaseException as e:
            # Part of `data` may have been taken: nothing after it could be trusted.
            self._poison(e)
            raise
        self._written += len(data)
        return len(data)

    def tell(self):
        return self._written

    def close(self):
        """Ends the stream: writes the final chunk and moves the file into place (in a
        transaction, the transaction's commit does). Discards it instead when called on
        the way out of an exception raised after the open, or from a finalizer."""
        if self.closed:
            return
        if self._failed is not None:
            try:
                if not _interrupted(self._exc_at_open):
                    raise self._failure()
            finally:
                super().close()
            return
        if self._abandoned or _interrupted(self._exc_at_open):
            self.discard()
            return
        if not self.autocommit:
            self._ended = True
            super().close()
            return
        try:
            self._finish()
        finally:
            super().close()

    def _finish(self):
        sink, self._sink = self._sink, None
        try:
            sink.finish()
        except BaseException as e:
            self._failed = e
            sink.abort()
            raise

    def commit(self):
        """A transaction's end: moves the stream closed in it into place."""
        if self._failed is not None:
            raise self._failure()
        if not self.closed:
            self.discard()
            raise ValueError(f"{self.path}: not closed when the transaction ended; discarded, nothing written")
        if self._ended:
            self._ended = False
            self._finish()

    def discard(self):
        """Drops the stream: nothing is written at the path, the old file is left as it was."""
        self._ended = False
        sink, self._sink = self._sink, None
        try:
            if sink is not None:
                sink.abort()
        finally:
            if not self.closed:
                super().close()

    def _dealloc_warn(self, source):
        # CPython's io wrappers (TextIOWrapper, BufferedWriter) call this on the file they
        # wrap when they are finalized, just before their close() closes it.
        self._abandoned = True

    def _throw_away(self):
        self.discard()


class _CompressedWriter(_DiscardsUnlessFinished, io.BufferedIOBase):
    """A compressor (``compression=``) over a writer: its close() ends the compressed
    stream and then closes the writer (a compressor never closes the file it writes into,
    which would leave the writer to the garbage collector, which discards)."""

    def __init__(self, stream, writer):
        super().__init__()
        self._stream, self._writer = stream, writer
        self.name, self.mode = writer.name, "wb"

    def writable(self):
        return True

    def write(self, data):
        self._checkClosed()
        return self._stream.write(data)

    def tell(self):
        return self._stream.tell()

    def flush(self):
        if not self.closed and not self._stream.closed:
            self._stream.flush()

    def close(self):
        if self.closed:
            return
        try:
            super().close()
            self._stream.close()
        except BaseException:
            self._writer.discard()
            raise
        self._writer.close()

    def discard(self):
        # The writer first: a compressor that closes the file it writes into (zstd's) must
        # find it discarded. The compressor's end then fails to write, quietly.
        self._writer.discard()
        for close in (self._stream.close, super().close):
            try:
                close()
            except Exception:  # noqa: BLE001 - the stream is being thrown away
                pass

    def _dealloc_warn(self, source):
        self._writer._dealloc_warn(source)

    def _throw_away(self):
        self.discard()
