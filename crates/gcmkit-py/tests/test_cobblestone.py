"""gcmkit.cobblestone against pyca/cryptography's cryptography.cobblestone as the oracle:
the same calls on both give the same outcome (the bytes returned or written, or the
exception type and message), and each reads the other's messages. Encryptor output differs
byte for byte (a random salt in the header), so there each one's output is decrypted by the
other library and the plaintexts are compared. pyca's own test files run unchanged too
(scripts/pyca-tests.py); this file covers what they do not: messages, argument types,
in-place buffers, and the output after a failure."""
import array
import mmap
import os

import pytest
from cryptography import cobblestone as pyca
from cryptography.exceptions import AlreadyFinalized as PycaAlreadyFinalized
from cryptography.exceptions import InvalidTag as PycaInvalidTag

import gcmkit
from gcmkit import cobblestone as ours

CHUNK, WIRE, HEADER = 16384, 16400, 56
PAIRS = [("Cobblestone128Encryptor", "Cobblestone128Decryptor", 16),
         ("Cobblestone256Encryptor", "Cobblestone256Decryptor", 32)]


def outcome(f):
    try:
        r = f()
    except PycaInvalidTag as e:
        return ("InvalidTag", str(e))
    except PycaAlreadyFinalized as e:
        return ("AlreadyFinalized", str(e))
    except Exception as e:  # noqa: BLE001 - the type and message are what is compared
        return (type(e).__name__, str(e))
    if isinstance(r, (bytes, bytearray)):
        return ("ok", bytes(r))  # the bytes, not only their count
    return ("ok", r if isinstance(r, (int, bool)) else type(r).__name__)


def into(f, size):
    """The outcome of `f(buf)` on a fresh buffer of `size` bytes, and what the buffer holds
    afterwards (update_into returns a count: the bytes are in the buffer)."""
    buf = bytearray(size)
    return outcome(lambda: f(buf)) + (bytes(buf),)


def sealed(f, stream, buf=None):
    """An encryptor call: its output holds a random salt, so its length is compared here
    and its bytes (returned, or the count written into `buf`) go to `stream`, which the
    other library must decrypt to the plaintext."""
    o = outcome(f)
    if o[0] == "ok":
        data = o[1] if buf is None else bytes(buf[:o[1]])
        stream.append(data)
        return ("ok", len(data))
    return o


def both(script):
    """Runs `script(module)` on pyca's and gcmkit's module; returns both outcome lists."""
    return script(pyca), script(ours)


@pytest.mark.parametrize("enc_name,dec_name,klen", PAIRS)
def test_constructors_and_arguments_match_pyca(enc_name, dec_name, klen):
    def script(m):
        E, D = getattr(m, enc_name), getattr(m, dec_name)
        out = []
        good = os.urandom(klen)
        keys = [b"", b"k" * (klen - 1), b"k" * (klen + 1), bytearray(good), memoryview(good),
                array.array("B", good), "k" * klen, None, 16, [0] * klen,
                array.array("I", [0] * (klen // 4)), memoryview(b"a" * 2 * klen)[::2]]
        for C in (E, D):
            for k in keys:
                out.append(outcome(lambda: C(k, b"")))
            for c in ["ctx", None, 5, bytearray(b"ctx"), memoryview(b"x" * 10)[::2]]:
                out.append(outcome(lambda: C(good, c)))
            out.append(outcome(lambda: C("bad", "bad")))
            out.append(outcome(lambda: C(good)))
            out.append(outcome(lambda: C(key=good, context=b"")))
        out.append(outcome(lambda: len(E.generate_key())))
        out.append(outcome(lambda: hasattr(D, "generate_key")))
        e = E(good, b"")
        for d in ["s", None, 3, [1], memoryview(b"abcd").cast("I"), memoryview(b"ab" * 9)[::2]]:
            out.append(outcome(lambda: e.update(d)))
            out.append(outcome(lambda: e.update_into(d, bytearray(WIRE))))
        for buf in [b"x" * 100, bytearray(HEADER - 1), memoryview(bytearray(200))[::2], "s", None]:
            out.append(outcome(lambda: e.update_into(b"abc", buf)))
        stream, header, wire = [], bytearray(HEADER), bytearray(WIRE)
        out.append(sealed(lambda: e.update_into(b"abc", header), stream, header))
        out.append(outcome(lambda: e.update_into(b"z" * CHUNK, bytearray(WIRE - 1))))
        out.append(sealed(lambda: e.update_into(b"z" * CHUNK, wire), stream, wire))
        out.append(sealed(e.finalize, stream))
        for f in (lambda: e.update(b""), lambda: e.update_into(b"", bytearray(0)), e.finalize):
            out.append(outcome(f))
        # What this library sealed, opened by the other: the plaintext, byte for byte.
        d = getattr(ours if m is pyca else pyca, dec_name)(good, b"")
        out.append(outcome(lambda: d.update(b"".join(stream)) + d.finalize()))
        return out

    theirs, mine = both(script)
    assert mine == theirs
    # Equal could also mean both failed to open: the plaintext must be what was sealed.
    assert mine[-1] == ("ok", b"abc" + b"z" * CHUNK)


@pytest.mark.parametrize("enc_name,dec_name,klen", PAIRS)
def test_states_after_finalize_and_failure_match_pyca(enc_name, dec_name, klen):
    key = os.urandom(klen)
    msg = os.urandom(2 * CHUNK + 300)
    sealed = getattr(pyca, enc_name)(key, b"c").update(msg)  # header + 2 chunks, unfinished

    def script(m):
        E, D = getattr(m, enc_name), getattr(m, dec_name)
        full = (lambda e: e.update(msg) + e.finalize())(E(key, b"c"))
        out = []
        for cut in [0, 1, HEADER - 1, HEADER, HEADER + 15, HEADER + WIRE, len(full) - 1, len(full)]:
            d = D(key, b"c")
            out.append(outcome(lambda: d.update(full[:cut])))
            out.append(outcome(d.finalize))
            out.append(outcome(d.finalize))
            out.append(outcome(lambda: d.update(b"")))
        for pos in [0, 30, HEADER, HEADER + WIRE + 7, len(full) - 1]:
            bad = bytearray(full)
            bad[pos] ^= 1
            d = D(key, b"c")
            out.append(outcome(lambda: d.update(bytes(bad))))
            out.append(into(lambda buf: d.update_into(b"", buf), 10))
            out.append(outcome(d.finalize))
        d = D(key, b"c")
        out.append(into(lambda buf: d.update_into(full, buf), 2 * CHUNK - 1))
        out.append(into(lambda buf: d.update_into(full, buf), 2 * CHUNK))
        out.append(outcome(d.finalize))
        d = D(key, b"c")  # pyca's unfinished stream: no final chunk
        out.append(outcome(lambda: d.update(sealed)))
        out.append(outcome(d.finalize))
        d = D(key, b"wrong")
        out.append(outcome(lambda: d.update(full[:HEADER - 1])))
        out.append(outcome(lambda: d.update(full[HEADER - 1:HEADER])))
        out.append(outcome(lambda: d.update(b"")))
        return out

    theirs, mine = both(script)
    assert mine == theirs


@pytest.mark.parametrize("enc_name,dec_name,klen", PAIRS)
@pytest.mark.parametrize("length", [0, 1, CHUNK - 1, CHUNK, 5 * CHUNK + 9, (1 << 20) + 3])
def test_each_reads_the_others_messages(enc_name, dec_name, klen, length):
    key, ctx, msg = os.urandom(klen), os.urandom(9), os.urandom(length)
    for a, b in ((pyca, ours), (ours, pyca)):
        e = getattr(a, enc_name)(key, ctx)
        sealed = e.update(msg) + e.finalize()
        d = getattr(b, dec_name)(key, ctx)
        assert d.update(sealed) + d.finalize() == msg


def test_the_exceptions_are_pycas():
    assert issubclass(gcmkit.InvalidTag, PycaInvalidTag)
    assert issubclass(gcmkit.AlreadyFinalized, PycaAlreadyFinalized)
    assert ours.InvalidTag is gcmkit.InvalidTag


@pytest.mark.parametrize("length", [0, 100, CHUNK, 3 * CHUNK + 5, 200000])
def test_update_into_in_place_reads_its_input_before_writing_over_it(length):
    # The output runs ahead of the input (the header, a tag per chunk): the input is read
    # from a copy, never from bytes already overwritten.
    key, msg = os.urandom(16), os.urandom(length)
    e = ours.Cobblestone128Encryptor(key, b"")
    buf = bytearray(msg) + bytearray(HEADER + (length // CHUNK + 1) * 16)
    n = e.update_into(memoryview(buf)[:length], buf)
    sealed = bytes(buf[:n]) + e.finalize()
    d = ours.Cobblestone128Decryptor(key, b"")
    assert d.update(sealed) + d.finalize() == msg
    # Decryption into the buffer holding the ciphertext.
    d = ours.Cobblestone128Decryptor(key, b"")
    buf = bytearray(sealed)
    n = d.update_into(buf, buf)
    assert bytes(buf[:n]) + d.finalize() == msg


def test_update_into_between_two_mappings_of_one_file(tmp_path):
    # Two mmaps of one file are the same pages at two addresses: no address comparison
    # sees the overlap. Encryption writes ahead of what it reads (the header, a tag per
    # chunk), so reading its input in place would seal bytes it had already overwritten.
    key, msg = os.urandom(32), os.urandom(4 * CHUNK + 99)
    p = tmp_path / "f"
    p.write_bytes(msg + bytes(HEADER + 5 * 16))
    with open(p, "r+b") as f:
        a, b = mmap.mmap(f.fileno(), 0), mmap.mmap(f.fileno(), 0)
        e = ours.Cobblestone256Encryptor(key, b"")
        n = e.update_into(memoryview(a)[:len(msg)], b)
        sealed = bytes(b[:n]) + e.finalize()
        d = ours.Cobblestone256Decryptor(key, b"")
        assert d.update(sealed) + d.finalize() == msg
        # Decryption from one mapping into the other: the plaintext, in the file.
        d = ours.Cobblestone256Decryptor(key, b"")
        b[:len(sealed)] = sealed
        n = d.update_into(memoryview(a)[:len(sealed)], b)
        assert bytes(b[:n]) == msg[:n] and n == 4 * CHUNK
        a.close()
        b.close()


def test_a_failed_update_into_leaves_no_plaintext_in_the_buffer():
    key, msg = os.urandom(16), b"\x55" * (3 * CHUNK + 10)
    e = ours.Cobblestone128Encryptor(key, b"")
    bad = bytearray(e.update(msg) + e.finalize())
    bad[HEADER + 2 * WIRE + 1] ^= 1  # the third full chunk
    d = ours.Cobblestone128Decryptor(key, b"")
    buf = bytearray(b"\xaa" * (3 * CHUNK))
    with pytest.raises(gcmkit.InvalidTag):
        d.update_into(bytes(bad), buf)
    assert buf == bytearray(3 * CHUNK)
    with pytest.raises(gcmkit.AlreadyFinalized):
        d.finalize()
