"""Streaming encryption in the c2sp.org/chunked-encryption format (Cobblestone).

A 16-byte key gives Cobblestone-128, a 32-byte key Cobblestone-256. Decryption only
releases verified data: ``decrypt_file`` writes nothing at ``dst`` unless the whole file
verified, and a reader from ``open(..., "rb")`` returns bytes only from chunks that
verified.

``open`` gives real ``io`` objects: mode ``"rb"`` an ``io.BufferedReader`` over a
``ChunkedReader`` (``io.RawIOBase``: ``readinto``, ``seek``/``tell`` over the plaintext,
random access); mode ``"wb"`` a ``ChunkedWriter`` (``io.RawIOBase``) that writes through
a random, exclusive temporary file and moves it into place only on ``close()``. Leaving
its ``with`` block through an exception, ``abort()``, or being garbage-collected unclosed
discards the stream: no final chunk is ever written for a stream that did not finish, and
the destination is left as it was. A ``write`` that fails poisons the writer: every later
call and ``close()`` raise and nothing is ever committed (part of the failed write may have
been taken). Paths may be ``str``, ``bytes`` or ``os.PathLike``; OS errors carry errno and
the name of the file they concern (the destination for creating or writing it).

Outputs follow gcmkit's one output rule (``gcmkit-fs``): symlinks are followed only when
they are yours or root's; in sticky shared directories such as /tmp another user's file,
FIFO or device is refused; a replaced file keeps its owner and mode.

Signals: ``encrypt_file``/``decrypt_file`` run Python's signal handlers between reads, so
SIGINT stops them promptly (``KeyboardInterrupt``, temporary file removed, nothing
committed). While they run, and while a writer is open, SIGTERM and SIGHUP (and SIGINT)
whose action is still the default (death) first remove this process's temporary files, then
kill the process as before (main thread only: Python runs handlers there; a handler the
application installed is left alone).
"""

import io
import os
import signal
import threading

from gcmkit._gcmkit import RangeDecryptor, chunked_decrypt, chunked_encrypt, chunked_open
from gcmkit._gcmkit import decrypt_file as _decrypt_file
from gcmkit._gcmkit import encrypt_file as _encrypt_file
from gcmkit._gcmkit import remove_temp_files as _remove_temp_files

__all__ = ["encrypt", "decrypt", "encrypt_file", "decrypt_file", "open", "decrypt_range", "RangeDecryptor",
           "ChunkedReader", "ChunkedWriter"]

HEADER = 56
CHUNK = 16384


def _path(p):
    """A path as the Rust side takes it (str, bytes and os.PathLike accepted)."""
    return os.fsdecode(os.fspath(p))


def _with_filename(e, *paths):
    """The same OSError, naming the file(s) it concerns."""
    if isinstance(e, OSError) and e.filename is None:
        names = [os.fsdecode(os.fspath(p)) for p in paths]
        if e.errno is not None:
            return type(e)(e.errno, e.strerror or str(e), *names[:2])
        e.filename = names[0]
    return e


_FATAL = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, n))
_held = 0
_installed = []
_lock = threading.Lock()


def _die_clean(signum, frame):
    """A fatal signal while outputs are unfinished: remove their temporary files, then die
    of the signal as the default action would have."""
    _remove_temp_files()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _hold():
    """Installs ``_die_clean`` for the fatal signals still at their default action (first
    holder only); returns whether this call holds (pass it to ``_release``)."""
    global _held
    if threading.current_thread() is not threading.main_thread():
        return False
    with _lock:
        if _held == 0:
            # Only signals still at the default action (Python's own SIGINT handler raises
            # KeyboardInterrupt, which already aborts and cleans up; an application's
            # handler is its business).
            for s in _FATAL:
                if signal.getsignal(s) is signal.SIG_DFL:
                    signal.signal(s, _die_clean)
                    _installed.append(s)
        _held += 1
    return True


def _release(held):
    global _held
    if not held:
        return
    with _lock:
        _held -= 1
        if _held == 0:
            for s in _installed:
                if signal.getsignal(s) is _die_clean:
                    signal.signal(s, signal.SIG_DFL)
            _installed.clear()


def encrypt(key, data, context=b""):
    """Encrypts a whole message; returns the Cobblestone ciphertext."""
    return chunked_encrypt(key, data, context)


def decrypt(key, data, context=b""):
    """Decrypts a whole message; raises gcmkit.InvalidTag on any failure."""
    return chunked_decrypt(key, data, context)


def _read_exact(source, n):
    """Exactly ``n`` bytes from ``source`` (fewer only at its end)."""
    parts, got = [], 0
    while got < n:
        b = source.read(n - got)
        if not b:
            break
        parts.append(b)
        got += len(b)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _open_ranges(key, context, source):
    """A ``RangeDecryptor`` for the Cobblestone message in ``source`` (a seekable binary
    file object): reads its header and its length, checks the key commitment."""
    size = source.seek(0, 2)
    source.seek(0)
    header = _read_exact(source, HEADER)
    return RangeDecryptor(key, b"" if context is None else context, header, size)


def _read_chunks(ranges, source, offset, length):
    """``(at, plain)``: the verified plaintext of the chunks that bytes ``offset..offset +
    length`` touch (one read of ``source``), which begins at plaintext offset ``at``."""
    span = ranges.span(offset, length)
    first, count, start, end = span
    if count == 0:
        return min(offset, ranges.plaintext_len), b""
    source.seek(start)
    # A short read (a cut message) is InvalidTag from decrypt.
    return first * CHUNK, ranges.decrypt(span, _read_exact(source, end - start))


def _read_range(ranges, source, offset, length):
    """Plaintext bytes ``offset..offset + length``, cut at the end of the message."""
    at, plain = _read_chunks(ranges, source, offset, length)
    skip = min(offset, ranges.plaintext_len) - at
    if skip == 0 and length >= len(plain):
        return plain
    return plain[skip:skip + length]


def decrypt_range(key, context, source, offset, length):
    """Plaintext bytes ``offset..offset + length`` (cut at the end of the message) of the
    Cobblestone message in ``source``, any seekable binary file object (a file, a
    ``BytesIO``, an fsspec file). Reads only the header and the chunks the range touches,
    in one read, and verifies each; a range that reaches the end includes the final
    chunk, which authenticates the message's length. Raises ``InvalidTag`` for a wrong
    key or context, a modified chunk, or a cut message; ``ValueError`` for a negative
    offset or length."""
    if offset < 0 or length < 0:
        raise ValueError(f"offset and length must not be negative (got {offset}, {length})")
    return _read_range(_open_ranges(key, context, source), source, offset, length)


def encrypt_file(key, src, dst, context=b""):
    """Encrypts the file ``src`` into ``dst`` (all cores, constant memory)."""
    held = _hold()
    try:
        return _encrypt_file(key, _path(src), _path(dst), context)
    except OSError as e:
        raise _with_filename(e, src, dst) from None
    finally:
        _release(held)


def decrypt_file(key, src, dst, context=b""):
    """Decrypts ``src`` into ``dst``; nothing appears at ``dst`` unless all of it verified."""
    held = _hold()
    try:
        return _decrypt_file(key, _path(src), _path(dst), context)
    except OSError as e:
        raise _with_filename(e, src, dst) from None
    finally:
        _release(held)


class ChunkedReader(io.RawIOBase):
    """Random-access reader of a Cobblestone file's verified plaintext."""

    def __init__(self, inner, name):
        super().__init__()
        self._inner = inner
        self.name = name

    def readable(self):
        return True

    def seekable(self):
        return True

    def readinto(self, b):
        self._checkClosed()
        view = memoryview(b).cast("B")
        data = self._inner.read_some(len(view))
        view[: len(data)] = data
        return len(data)

    def seek(self, offset, whence=io.SEEK_SET):
        self._checkClosed()
        return self._inner.seek(offset, whence)

    def tell(self):
        return self.seek(0, io.SEEK_CUR)

    def plaintext_len(self):
        """The plaintext length (authenticated when the file was opened)."""
        return self._inner.plaintext_len()

    def close(self):
        if not self.closed:
            self._inner.close()
        super().close()


class ChunkedWriter(io.RawIOBase):
    """Encrypting writer; the destination appears only when ``close()`` succeeds."""

    def __init__(self, inner, name, held=None):
        super().__init__()
        self._inner = inner
        self.name = name
        # `open` takes the hold before the temporary file is created and hands it over.
        self._held = _hold() if held is None else held

    def _unhold(self):
        held, self._held = getattr(self, "_held", False), False
        _release(held)

    def writable(self):
        return True

    def write(self, b):
        self._checkClosed()
        return self._inner.write(b)

    def close(self):
        """Writes the final chunk and moves the file into place."""
        if not self.closed:
            try:
                self._inner.close()
            except OSError as e:
                raise _with_filename(e, self.name) from None
            finally:
                super().close()
                self._unhold()

    def abort(self):
        """Discards the stream: no final chunk, the temporary file removed."""
        if not self.closed:
            self._inner.abort()
            super().close()
            self._unhold()

    def __exit__(self, exc_type, exc, tb):
        # A truncated stream must never look complete: an exception aborts.
        if exc_type is None:
            self.close()
        else:
            self.abort()
        return False

    def __del__(self):
        # Garbage-collected unclosed: abort (io.IOBase's __del__ would close, i.e. commit).
        try:
            self.abort()
        except Exception:  # noqa: BLE001 - nothing may escape a finalizer
            pass


def open(path, mode, key, context=b""):  # noqa: A001 - mirrors builtins.open
    """Mode "rb": an io.BufferedReader decrypting (and verifying) while reading, seekable.
    Mode "wb": a ChunkedWriter encrypting while writing. The key is checked before any
    file is touched."""
    if mode not in ("rb", "r", "wb", "w"):
        raise ValueError(f"mode must be 'rb' or 'wb', not {mode!r}")
    # A writer's cleanup handlers go in before its temporary file exists: a fatal signal
    # between the two would otherwise leave the file behind.
    held = _hold() if mode in ("wb", "w") else False
    try:
        inner = chunked_open(_path(path), mode, key, context)
    except OSError as e:
        _release(held)
        raise _with_filename(e, path) from None
    except BaseException:
        _release(held)
        raise
    name = os.fspath(path)
    if mode in ("rb", "r"):
        return io.BufferedReader(ChunkedReader(inner, name), buffer_size=64 * 1024)
    return ChunkedWriter(inner, name, held)
