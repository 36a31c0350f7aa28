"""Streaming encryption in the c2sp.org/chunked-encryption format (Cobblestone).

A 16-byte key gives Cobblestone-128, a 32-byte key Cobblestone-256. Decryption only
releases verified data: ``decrypt_file`` to a file writes nothing at ``dst`` unless the
whole file verified (to a FIFO or device it streams verified chunks: see its docstring),
and a reader from ``open(..., "rb")`` returns bytes only from chunks that verified.

``open`` gives real ``io`` objects: mode ``"rb"`` an ``io.BufferedReader`` over a
``ChunkedReader`` (``io.RawIOBase``: ``readinto``, ``seek``/``tell`` over the plaintext,
random access); mode ``"wb"`` a ``ChunkedWriter`` (``io.RawIOBase``) that writes through
a random, exclusive temporary file and moves it into place only on ``close()``. Only an
explicit ``close()`` that ends a stream written to its end commits: leaving its ``with``
block through an exception, ``abort()``, being garbage-collected unclosed (itself or
through a wrapper such as ``io.TextIOWrapper``), and a ``close()`` that runs on the way out
of an exception raised after the open (a wrapper's ``__exit__``, a ``finally:``) or inside a
garbage collection all discard the stream: no final chunk is ever written for a stream
that did not finish, and the destination is left as it was. A ``write`` that fails poisons the writer: every later
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

import gc
import io
import os
import signal
import sys
import threading

from gcmkit._gcmkit import RangeDecryptor, chunked_decrypt, chunked_encrypt, chunked_open
from gcmkit._gcmkit import decrypt_file as _decrypt_file
from gcmkit._gcmkit import encrypt_file as _encrypt_file
from gcmkit._gcmkit import remove_temp_files as _remove_temp_files

__all__ = ["encrypt", "decrypt", "encrypt_file", "decrypt_file", "open", "decrypt_range", "RangeDecryptor",
           "ChunkedReader", "ChunkedWriter"]

HEADER = 56
CHUNK = 16384
_U64 = 1 << 64


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


_collecting = None  # the thread running a garbage collection (finalizers run inside it)


def _on_gc(phase, info):
    global _collecting
    _collecting = threading.get_ident() if phase == "start" else None


gc.callbacks.append(_on_gc)


def _interrupted(exc_at_open):
    """Whether a writer's close() now is a way out of an error or a finalizer rather than
    the end of a stream: an exception is being handled that was not being handled when the
    writer was opened (``exc_at_open``), or a garbage collection is running in this
    thread. Wrappers (``io.TextIOWrapper``, compressors, fsspec's ``OpenFile``) close the
    file they wrap from their ``__exit__`` whether or not the block failed; this is how a
    writer tells the two apart. An exception already being handled at open does not count,
    so that a file opened and closed inside an ``except`` block commits."""
    if _collecting == threading.get_ident():
        return True
    exc = sys.exc_info()[1]
    return exc is not None and exc is not exc_at_open


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


def _seek_read(source):
    """``read_at(start, n)`` over a seekable binary file object: exactly ``n`` bytes at
    ``start`` (fewer only at its end)."""
    def read_at(start, n):
        source.seek(start)
        return _read_exact(source, n)
    return read_at


def _read_chunks(ranges, read_at, offset, length):
    """``(at, plain)``: the verified plaintext of the chunks that bytes ``offset..offset +
    length`` touch (one ``read_at(start, n)`` of the ciphertext), which begins at plaintext
    offset ``at``."""
    span = ranges.span(offset, length)
    first, count, start, end = span
    if count == 0:
        return min(offset, ranges.plaintext_len), b""
    # A short read (a cut message) is InvalidTag from decrypt.
    return first * CHUNK, ranges.decrypt(span, read_at(start, end - start))


def _read_range(ranges, source, offset, length):
    """Plaintext bytes ``offset..offset + length``, cut at the end of the message."""
    at, plain = _read_chunks(ranges, _seek_read(source), offset, length)
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
    key or context, a modified chunk, or a cut message; ``ValueError`` for an offset or
    length outside 0 to 2**64 - 1 (negative or too large alike)."""
    if not (0 <= offset < _U64 and 0 <= length < _U64):
        raise ValueError(f"offset and length must be from 0 to 2**64 - 1 (got {offset}, {length})")
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
    """Decrypts ``src`` into ``dst``; returns the plaintext length.

    A regular file (or a new name) at ``dst`` is written through a temporary file beside
    it and appears only if all of ``src`` verified; otherwise the old file is left as it
    was. A FIFO or character device at ``dst`` is written in place, as the CLI does
    (streaming is the point of a pipe); what its reader sees:

    - ``dst`` is opened (a FIFO's open waits for a reader) after ``src`` is opened and
      before anything is read from it; an error before that (``src`` missing, ``dst``
      refused) never opens it, and a reader waiting on the FIFO goes on waiting;
    - the plaintext arrives in batches of 64 chunks (1 MiB), each written only once every
      chunk of it verified;
    - when a chunk fails (a modified or cut file; a wrong key or context fails at the
      header, before any batch), nothing of its batch or after it is written and ``dst``
      is closed: the reader has had the verified plaintext of the batches before and then
      sees a normal end of file. Nothing in the pipe marks the stream as incomplete.

    The error (``InvalidTag``, or ``OSError``) is raised to the caller of ``decrypt_file``
    only, so whoever consumes the pipe must learn the outcome from that caller (an exit
    status, say)."""
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


class _DiscardsUnlessFinished:
    """For writers of streams that must never look complete unless they are: leaving a
    ``with`` block by an exception, or being garbage-collected unclosed, throws the stream
    away (``_throw_away``) instead of committing it (``io.IOBase``'s ``__exit__`` and
    ``__del__`` would close, i.e. commit). Goes before the ``io`` base class."""

    def _throw_away(self):
        raise NotImplementedError

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self._throw_away()
        return False

    def __del__(self):
        try:
            self._throw_away()
        except Exception:  # noqa: BLE001 - nothing may escape a finalizer
            pass


class ChunkedWriter(_DiscardsUnlessFinished, io.RawIOBase):
    """Encrypting writer; the destination appears only when an explicit ``close()`` ending
    the stream succeeds (see the module docstring for what discards it instead)."""

    def __init__(self, inner, name, held=None):
        super().__init__()
        self._inner = inner
        self.name = name
        self._exc_at_open = sys.exc_info()[1]
        self._abandoned = False  # a wrapper over this writer is being finalized
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
        """Writes the final chunk and moves the file into place; discards the stream
        instead when called on the way out of an exception raised after the open, or from
        a finalizer."""
        if not self.closed and (self._abandoned or _interrupted(self._exc_at_open)):
            self.abort()
        self._commit()

    def _commit(self):
        # close() without its checks (gcmkit.fsspec makes them itself).
        if not self.closed:
            try:
                self._inner.close()
            except OSError as e:
                raise _with_filename(e, self.name) from None
            finally:
                super().close()
                self._unhold()

    def _dealloc_warn(self, source):
        # CPython's io wrappers (TextIOWrapper, BufferedWriter) call this on the file they
        # wrap when they are finalized, just before their close() closes it.
        self._abandoned = True

    def abort(self):
        """Discards the stream: no final chunk, the temporary file removed."""
        if not self.closed:
            self._inner.abort()
            super().close()
            self._unhold()

    def _throw_away(self):
        self.abort()


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
