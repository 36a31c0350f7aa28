"""The `_into` forms write straight into any writable buffer (one path through the buffer
protocol), read any bytes-like input in place, handle an input that is (part of) the output,
release the buffer when they return (also after an error), zero `buf` when a decryption
fails, whatever the buffer, and run with the GIL released on large inputs."""
import array
import mmap
import threading

import pytest

import gcmkit

KEY = bytes(range(16))
NONCE = b"\x05" * 12
# Sizes below and above the size at which the GIL is released (32 KiB).
SIZES = [0, 1, 16, 1500, 40000, 1 << 20]


def classes():
    return [gcmkit.AESGCM(KEY), gcmkit.AESGCMSIV(KEY), gcmkit.AesGcm(KEY)]


def writable_buffers(n):
    """Writable C-contiguous buffers of n bytes, all 0xaa, and a way to read them back."""
    m = mmap.mmap(-1, max(n, 1))
    m.write(b"\xaa" * max(n, 1))
    backing = bytearray(b"\x55" * (n + 8))
    backing[3:3 + n] = b"\xaa" * n
    return [
        bytearray(b"\xaa" * n),
        memoryview(bytearray(b"\xaa" * n)),
        memoryview(backing)[3:3 + n],
        array.array("B", b"\xaa" * n),
        memoryview(m)[:n],
        memoryview(bytearray(b"\xaa" * n)).cast("c"),
    ]


@pytest.mark.parametrize("size", SIZES)
def test_into_every_buffer_kind(size):
    data = bytes(i % 253 for i in range(size))
    for c in classes():
        ct = c.encrypt(NONCE, data, b"ad")
        for buf in writable_buffers(size + 16):
            assert c.encrypt_into(NONCE, data, b"ad", buf) == size + 16
            assert bytes(buf) == ct
        for buf in writable_buffers(size):
            assert c.decrypt_into(NONCE, ct, b"ad", buf) == size
            assert bytes(buf) == data


@pytest.mark.parametrize("size", SIZES)
def test_inputs_read_in_place_from_every_kind(size):
    data = bytes(i % 253 for i in range(size))
    m = mmap.mmap(-1, max(size, 1))
    m.write(data)
    for c in classes():
        ct = c.encrypt(NONCE, data, b"ad")
        for conv in (bytearray, memoryview, lambda b: array.array("B", b),
                     lambda b: memoryview(bytearray(b"zz" + b))[2:]):
            assert c.encrypt(conv(NONCE), conv(data), conv(b"ad")) == ct
            assert c.decrypt(conv(NONCE), conv(ct), conv(b"ad")) == data
        assert c.encrypt(NONCE, memoryview(m)[:size], b"ad") == ct


# The project's binding standard (owner's developer guide): "failed decryption returns an
# error and zeroes the output". A failed decrypt_into leaves zeros in `buf`, whatever the
# buffer: no unverified plaintext (nor the caller's old bytes); pyca promises nothing here
# (its 50.0.2 leaves the unverified plaintext in `buf`). These fail if any plaintext leaks.
@pytest.mark.parametrize("size", [0, 16, 1500, 40000])
def test_failed_decrypt_into_zeroes_every_buffer_kind(size):
    data = bytes(i % 253 for i in range(size))
    for c in classes():
        forged = bytearray(c.encrypt(NONCE, data, b"ad"))
        forged[-1] ^= 1
        backing = bytearray(b"\x55" * (size + 8))
        for buf in writable_buffers(size) + [memoryview(backing)[3:3 + size]]:
            with pytest.raises(gcmkit.InvalidTag):
                c.decrypt_into(NONCE, bytes(forged), b"ad", buf)
            assert bytes(buf) == bytes(size)
        # Nothing written outside `buf`.
        assert backing[:3] == b"\x55" * 3 and backing[3 + size:] == b"\x55" * 5
        buf = bytearray(b"\xaa" * size)
        with pytest.raises(gcmkit.InvalidTag):
            c.decrypt_into(NONCE, bytes(forged), b"other ad", buf)
        assert buf == bytes(size)


@pytest.mark.parametrize("size", [1, 16, 1500, 40000])
def test_failed_decrypt_into_sharing_memory_zeroes_and_leaks_nothing(size):
    """A forged message decrypted in place (the input is `buf` and its tag follows it), or
    from an input that overlaps `buf` at an offset: InvalidTag, zeros in `buf`, and the
    bytes past `buf` (the tag, the input's tail) as they were."""
    data = bytes(i % 253 for i in range(size))
    for c in classes():
        forged = bytearray(c.encrypt(NONCE, data, b"ad"))
        forged[-1] ^= 1
        buf = bytearray(forged)
        view = memoryview(buf)
        with pytest.raises(gcmkit.InvalidTag):
            c.decrypt_into(NONCE, view, b"ad", view[:size])
        assert bytes(buf[:size]) == bytes(size)
        assert bytes(buf[size:]) == bytes(forged[size:])
        # The input 7 bytes into the buffer: buf[:size] overlaps its first size - 7 bytes.
        buf = bytearray(b"\xaa" * 7 + forged)
        view = memoryview(buf)
        with pytest.raises(gcmkit.InvalidTag):
            c.decrypt_into(NONCE, view[7:], b"ad", view[:size])
        assert bytes(buf[:size]) == bytes(size)
        assert bytes(buf[size:]) == bytes((b"\xaa" * 7 + forged)[size:])
        del view


@pytest.mark.parametrize("size", [0, 5, 1500, 40000])
def test_input_sharing_memory_with_the_output(size):
    """Encryption and decryption in place: the input is the output buffer, or part of it."""
    data = bytes(i % 253 for i in range(size))
    for c in classes():
        ct = c.encrypt(NONCE, data, b"ad")
        buf = bytearray(data + bytes(16))
        assert c.encrypt_into(NONCE, memoryview(buf)[:size], b"ad", buf) == size + 16
        assert buf == ct
        buf = bytearray(ct)
        view = memoryview(buf)
        assert c.decrypt_into(NONCE, view, b"ad", view[:size]) == size
        assert bytes(buf[:size]) == data
        # The input at an offset inside the output (not in place): still right.
        buf = bytearray(b"\xaa" * 7 + ct)
        view = memoryview(buf)
        assert c.decrypt_into(NONCE, view[7:], b"ad", view[:size]) == size
        assert bytes(buf[:size]) == data
        buf = bytearray(b"\xaa" * 3 + data + bytes(13))
        view = memoryview(buf)
        assert c.encrypt_into(NONCE, view[3:3 + size], b"ad", view[:size + 16]) == size + 16
        assert bytes(buf[:size + 16]) == ct
        # The AAD and nonce inside the output buffer.
        buf = bytearray(NONCE + b"ad" + bytes(size + 2))
        view = memoryview(buf)
        c.encrypt_into(view[:12], data, view[12:14], view[:size + 16])
        assert bytes(buf[:size + 16]) == ct
        del view


@pytest.mark.parametrize("size", [16, 40000])
def test_buffer_released_on_return_and_on_error(size):
    c = gcmkit.AESGCM(KEY)
    buf = bytearray(size + 16)
    c.encrypt_into(NONCE, bytes(size), None, buf)
    buf.extend(b"x")  # resizable again: no export left behind
    del buf[-1]
    with pytest.raises(ValueError):
        c.encrypt_into(b"short", bytes(size), None, buf)
    with pytest.raises(ValueError, match="buffer must be"):
        c.encrypt_into(NONCE, bytes(size + 1), None, buf)
    with pytest.raises(gcmkit.InvalidTag):
        c.decrypt_into(NONCE, bytes(size + 32), None, bytearray(size + 16))
    data = bytearray(size)
    c.encrypt(NONCE, data, None)
    c.encrypt_into(NONCE, data, None, buf)
    data.append(1)
    buf.append(1)


def test_threads_each_into_their_own_buffer():
    c = gcmkit.AESGCM(KEY)
    data = bytes(i % 251 for i in range(1 << 20))
    want = c.encrypt(NONCE, data, None)
    bufs = [bytearray(len(want)) for _ in range(4)]
    errors = []

    def work(buf):
        try:
            for _ in range(5):
                c.encrypt_into(NONCE, data, None, buf)
                assert bytes(buf) == want
                back = bytearray(len(data))
                c.decrypt_into(NONCE, buf, None, back)
                assert back == data
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(b,)) for b in bufs]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


def test_buffer_pinned_while_the_gil_is_released():
    """While a large call runs with the GIL released, another thread cannot resize the
    output or an input bytearray (BufferError), so the kernel never writes or reads freed
    memory; the call's result is intact."""
    c = gcmkit.AESGCM(KEY)
    data = bytearray(i % 251 for i in range(4 << 20))
    want = c.encrypt(NONCE, bytes(data), None)
    buf = bytearray(len(want))
    stop = threading.Event()
    refused = []

    def resize():
        while not stop.is_set():
            for target in (buf, data):
                try:
                    target.extend(b"x")
                except BufferError:
                    refused.append(1)
                    continue
                while True:  # exported again meanwhile: shrink back once released
                    try:
                        del target[-1]
                        break
                    except BufferError:
                        refused.append(1)

    t = threading.Thread(target=resize)
    t.start()
    done = 0
    try:
        while done < 20:
            try:
                c.encrypt_into(NONCE, data, None, buf)
            except ValueError:
                # The other thread had grown buf or data by a byte between two calls (one
                # at a time, and only while nothing is exported): a size mismatch.
                continue
            # Exported at the right size, then pinned until the call returned.
            assert bytes(buf[: len(want)]) == want
            done += 1
    finally:
        stop.set()
        t.join()
    assert len(buf) == len(want) and len(data) == 4 << 20


@pytest.mark.parametrize("size", [1, 16, 1500, 40000, (1 << 20) + 7])
def test_decrypt_into_through_two_mappings_of_one_file(tmp_path, size):
    """Issue #62 finding 5: the ciphertext and the output are the same pages of a file
    through two mmaps, at different addresses. Decryption one pass from the source into
    the destination hashed the plaintext it had just written over the ciphertext: a valid
    message was refused with InvalidTag and the zeroed output destroyed the ciphertext.
    It must decrypt, as pyca does; a memoryview of each mapping too."""
    import contextlib
    import os

    from cryptography.hazmat.primitives.ciphers import aead as pyca

    plain = os.urandom(size)
    for c, ref in ((gcmkit.AESGCM(KEY), pyca.AESGCM(KEY)), (gcmkit.AESGCMSIV(KEY), pyca.AESGCMSIV(KEY))):
        ct = ref.encrypt(NONCE, plain, b"ad")
        path = tmp_path / "f"
        path.write_bytes(ct)
        with open(path, "r+b") as f:
            src, dst = mmap.mmap(f.fileno(), 0), mmap.mmap(f.fileno(), 0)
            try:
                for wrap in (contextlib.nullcontext, memoryview):
                    src[:] = ct
                    # (An mmap's own slice is a bytes copy: the output is a memoryview.)
                    with memoryview(dst) as whole, whole[:size] as out, wrap(src) as s:
                        assert c.decrypt_into(NONCE, s, b"ad", out) == size
                    assert bytes(dst[:size]) == plain, type(c).__name__
            finally:
                src.close()
                dst.close()
