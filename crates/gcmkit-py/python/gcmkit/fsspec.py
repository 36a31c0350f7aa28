"""An fsspec filesystem for Cobblestone files (c2sp.org/chunked-encryption): the protocol
``cobblestone``, chained over any fsspec filesystem, so that pandas, Dask, pyarrow and
anything else that reads through fsspec reads encrypted files by byte range::

    import pandas as pd
    opts = {"cobblestone": {"key_file": "/etc/keys/sales.key"}}
    df = pd.read_csv("cobblestone::file:///data/sales.csv.cob", storage_options=opts)

    import dask.dataframe as dd
    ddf = dd.read_csv("cobblestone::s3://bucket/sales.csv.cob", blocksize="8MiB",
                      storage_options={"cobblestone": {"key": key}, "s3": {"anon": False}})

Options (under ``storage_options["cobblestone"]``, or top-level for a plain
``cobblestone://`` path; pass them nested in a chained URL, where a top-level ``key`` would
be ambiguous with s3fs's own ``key``):

- ``key``: the 16-byte (Cobblestone-128) or 32-byte (Cobblestone-256) key, or
- ``key_file``: a file holding exactly those bytes (only its path travels to Dask's
  workers, each reads it itself); also from the environment variable
  ``FSSPEC_COBBLESTONE_KEY_FILE`` (fsspec's configuration);
- ``context``: the context bytes (default empty).

Reading (``"rb"``): a seekable file over the plaintext; ``size`` and ``info()["size"]`` are
the plaintext length, authenticated when the file is opened (its final chunk is read and
verified). Each read fetches the chunks it touches in one ranged read of the underlying
file and verifies every one: a modified chunk raises ``InvalidTag`` from the read that
touches it, and none of its bytes are returned.

Writing (``"wb"``): through the streaming encryptor. The underlying file is opened with
``autocommit=False`` where the filesystem supports it (local, memory, s3), so the file
appears only on ``close()``; leaving a ``with fs.open(...)`` block by an exception
discards it. (``fsspec.open`` wraps files in an ``OpenFile``, whose exit calls ``close()``
even after an exception: use ``fs.open`` directly, or ``f.discard()``, when a partial stream
must not be committed.)

Needs the ``fsspec`` package (``pip install gcmkit[fsspec]``); registered for the protocol
``cobblestone`` through the ``fsspec.specs`` entry point.
"""

import hashlib
import io
import os

import fsspec
from fsspec.implementations.chained import ChainedFileSystem
from fsspec.spec import AbstractBufferedFile

from gcmkit.chunked import CHUNK, HEADER, _open_ranges, _read_chunks
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


def _load_key(key, key_file):
    if key is not None and key_file is not None:
        raise ValueError("give key or key_file, not both")
    if key_file is not None:
        with open(os.fspath(key_file), "rb") as f:
            key = f.read(33)
    if key is None:
        raise ValueError("the cobblestone filesystem needs a key (storage option key or key_file)")
    key = bytes(key)
    if len(key) not in (16, 32):
        raise ValueError(f"a Cobblestone key is 16 or 32 bytes, not {len(key)}")
    return key


class CobblestoneFileSystem(ChainedFileSystem):
    """Cobblestone files over another fsspec filesystem (the target): see the module."""

    protocol = "cobblestone"
    # The per-file path ("fo") must not make a new instance per file.
    _strip_tokenize_options = ("fo",)

    def __init__(self, target_protocol=None, target_options=None, fs=None, fo=None,
                 key=None, key_file=None, context=b"", **kwargs):
        super().__init__(**kwargs)
        if fs is not None and target_protocol is not None:
            raise ValueError("give fs or target_protocol, not both")
        self.fs = fs if fs is not None else fsspec.filesystem(target_protocol or "file", **(target_options or {}))
        self._key = _load_key(key, key_file)
        self._context = bytes(context or b"")
        self._encryptor = Cobblestone128Encryptor if len(self._key) == 16 else Cobblestone256Encryptor
        target_strip = self.fs._strip_protocol
        self._strip_protocol = lambda p: target_strip(type(self)._strip_protocol(p))

    def __repr__(self):
        # Names the key by a fingerprint only.
        fp = hashlib.sha256(b"gcmkit.fsspec key fingerprint\0" + self._key).hexdigest()[:12]
        return f"CobblestoneFileSystem(target={type(self.fs).__name__}, key=sha256:{fp})"

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

    # OpenFiles looks through `fs.fs` for these: defined here, files open through us (a
    # cache layer below would otherwise hand out ciphertext).
    def open_many(self, open_files, **kwargs):
        return [f.fs.open(f.path, mode=f.mode) for f in open_files]

    def commit_many(self, files):
        for f in files:
            f.close()

    def _open(self, path, mode="rb", block_size=None, autocommit=True, cache_options=None, **kwargs):
        path = self._strip_protocol(path)
        if mode == "rb":
            return CobblestoneFile(self, path, mode, block_size=block_size or 64 * CHUNK,
                                   cache_options=cache_options, **kwargs)
        if mode == "wb":
            return CobblestoneWriter(self, path)
        raise ValueError(f"mode must be 'rb' or 'wb', not {mode!r}")


class CobblestoneFile(AbstractBufferedFile):
    """A Cobblestone file being read: fsspec's buffered file over the plaintext; each fetch
    reads the chunks it needs from the target in one ranged read and verifies them.

    fsspec's own cache is off by default (``cache_type="none"``): its read-ahead would
    decrypt bytes a ranged reader (Dask's blocks, Parquet's column chunks) never asks for.
    Instead the last window decrypted (whole chunks, at least ``block_size`` bytes) is
    kept, so that small sequential reads (``readline``) decrypt each chunk once."""

    def __init__(self, fs, path, mode="rb", block_size=None, cache_type="none", **kwargs):
        self._raw = fs.fs.open(path, "rb")
        try:
            self._ranges = _open_ranges(fs._key, fs._context, self._raw)
            # The length: authenticated here, by the final chunk.
            _read_chunks(self._ranges, self._raw, self._ranges.plaintext_len, 1)
        except BaseException:
            self._raw.close()
            raise
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
        at, plain = _read_chunks(self._ranges, self._raw, start, max(end - start, self.blocksize))
        self._window = (at, plain)
        return plain[start - at:end - at]

    def readuntil(self, char=b"\n", blocks=None):
        # fsspec reads a whole block per line by default: 64 KiB steps stay in the window.
        return super().readuntil(char, blocks or 4 * CHUNK)

    def close(self):
        super().close()
        self._window = (0, b"")
        self._raw.close()


class CobblestoneWriter(io.RawIOBase):
    """A Cobblestone file being written: encrypts as it goes, commits on ``close()``."""

    def __init__(self, fs, path):
        super().__init__()
        self.fs, self.path = fs, path
        try:
            self._raw = fs.fs.open(path, "wb", autocommit=False)
            self._staged = True
        except (TypeError, NotImplementedError, ValueError):
            self._raw = fs.fs.open(path, "wb")
            self._staged = False
        self._enc = fs._encryptor(fs._key, fs._context)
        self._written = 0

    def writable(self):
        return True

    def write(self, data):
        if self.closed:
            raise ValueError("I/O operation on closed file.")
        data = memoryview(data).cast("B")
        self._raw.write(self._enc.update(data))
        self._written += len(data)
        return len(data)

    def tell(self):
        return self._written

    def close(self):
        if self.closed:
            return
        try:
            self._raw.write(self._enc.finalize())
            self._raw.close()
            if self._staged:
                self._raw.commit()
        finally:
            super().close()

    def discard(self):
        """Drops the stream: nothing is written at the path (where the target stages)."""
        if self.closed:
            return
        try:
            if self._staged:
                self._raw.discard()
            else:
                self._raw.close()
        finally:
            super().close()

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.discard()
        else:
            self.close()
