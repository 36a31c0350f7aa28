"""gcmkit.AESGCM / AESGCMSIV against the installed pyca/cryptography as the oracle: the
same calls on both, the same outcome (result bytes, or exception type and message), over
the public API's inputs (types, lengths, keyword names, buffers after failure). Written
from pyca's documented behaviour; pyca's own test file is not copied here."""
import array
import mmap

import pytest
from cryptography.exceptions import InvalidTag as PycaInvalidTag
from cryptography.hazmat.primitives.ciphers import aead as pyca

import gcmkit

K16, K24, K32 = bytes(range(16)), bytes(range(24)), bytes(range(32))
N12 = b"\x07" * 12
BIG = None


def outcome(f):
    try:
        r = f()
    except PycaInvalidTag:
        return ("InvalidTag",)
    except Exception as e:  # noqa: BLE001 - the type and message are what is compared
        return (type(e).__name__, str(e))
    if isinstance(r, (bytes, bytearray)):
        return ("ok", bytes(r))
    return ("ok", r) if not hasattr(r, "encrypt") else ("ok", "object")


def big():
    """A 2**31-byte zero buffer that costs no memory until touched."""
    global BIG
    if BIG is None:
        BIG = mmap.mmap(-1, 2**31)
    return memoryview(BIG)


def bad_values():
    return [16, None, "k" * 16, [0] * 16, (x for x in b"ab"), array.array("I", [0, 0, 0, 0]),
            array.array("b", [1] * 16), memoryview(b"abcd").cast("I"), memoryview(b"a" * 32)[::2]]


def good_values(b):
    return [b, bytearray(b), memoryview(b), array.array("B", b), memoryview(b).cast("c")]


CASES = []


def case(name):
    def deco(f):
        CASES.append((name, f))
        return f
    return deco


@case("constructors")
def _(m):
    out = []
    for cls in ("AESGCM", "AESGCMSIV"):
        C = getattr(m, cls)
        for k in [b"", b"k" * 15, K16, K24, K32, b"k" * 33] + bad_values() + good_values(K16)[1:]:
            out.append(outcome(lambda: C(k)))
        out.append(outcome(lambda: C(K16, tag_length=12)))
        out.append(outcome(lambda: C()))
        for bits in [128, 192, 256, 64, 0, True, -1, 2**70, "128", None, 128.0]:
            out.append(outcome(lambda: len(C.generate_key(bits))))
        out.append(outcome(lambda: len(C.generate_key(bit_length=256))))
    return out


@case("encrypt and decrypt")
def _(m):
    out = []
    for cls, nonces in (("AESGCM", [0, 1, 7, 8, 12, 16, 128, 129]), ("AESGCMSIV", [0, 11, 12, 13])):
        C = getattr(m, cls)
        for key in (K16, K24, K32):
            c = C(key)
            for n in nonces:
                for data in (b"", b"x", b"y" * 33):
                    for aad in (None, b"", b"aad"):
                        out.append(outcome(lambda: c.encrypt(b"\x01" * n, data, aad)))
            ct = c.encrypt(N12, b"hello world", b"aad")
            for n in nonces:
                out.append(outcome(lambda: c.decrypt(b"\x01" * n, ct, b"aad")))
            for data in (b"", b"a", b"a" * 15, b"a" * 16, ct, ct[:-1], ct[:1] + ct[1:]):
                for aad in (None, b"aad", b"other"):
                    out.append(outcome(lambda: c.decrypt(N12, data, aad)))
            forged = bytearray(ct)
            forged[-1] ^= 1
            out.append(outcome(lambda: c.decrypt(N12, bytes(forged), b"aad")))
            for v in bad_values():
                out.append(outcome(lambda: c.encrypt(v, b"d", None)))
                out.append(outcome(lambda: c.encrypt(N12, v, None)))
                out.append(outcome(lambda: c.encrypt(N12, b"d", v)))
                out.append(outcome(lambda: c.decrypt(v, ct, b"aad")))
                out.append(outcome(lambda: c.decrypt(N12, v, b"aad")))
            for g in good_values(b"data"):
                out.append(outcome(lambda: c.encrypt(N12, g, g)))
                out.append(outcome(lambda: c.encrypt(good_values(N12)[-2], g, None)))
            out.append(outcome(lambda: c.encrypt(N12, b"d")))
            out.append(outcome(lambda: c.encrypt(nonce=N12, data=b"d", associated_data=None)))
            out.append(outcome(lambda: c.decrypt(nonce=N12, data=ct, associated_data=b"aad")))
            # A bad type reported before a bad nonce, a bad nonce before a short ciphertext.
            out.append(outcome(lambda: c.encrypt(b"1", [1], None)))
            out.append(outcome(lambda: c.decrypt(b"1", b"a", None)))
    return out


@case("the _into forms")
def _(m):
    out = []
    for cls in ("AESGCM", "AESGCMSIV"):
        c = getattr(m, cls)(K16)
        ct = c.encrypt(N12, b"hello", None)
        for size in (0, 5, 20, 21, 22):
            for kw in (False, True):
                buf = bytearray(b"\xaa" * size)
                if kw:
                    out.append(outcome(lambda: c.encrypt_into(N12, b"hello", None, buf=buf)))
                else:
                    out.append(outcome(lambda: c.encrypt_into(N12, b"hello", None, buf)))
                out.append(("buf", bytes(buf)))
                buf = bytearray(b"\xaa" * size)
                out.append(outcome(lambda: c.decrypt_into(N12, ct, None, buf)))
                out.append(("buf", bytes(buf)))
        for b in (bytes(21), memoryview(bytes(21)), [0] * 21, 21, None, array.array("B", bytes(21)),
                  memoryview(bytearray(42))[::2]):
            out.append(outcome(lambda: c.encrypt_into(N12, b"hello", None, b)))
        out.append(outcome(lambda: c.encrypt_into(b"1", b"hello", None, bytearray(3))))
        out.append(outcome(lambda: c.decrypt_into(b"1", ct, None, bytearray(3))))
        out.append(outcome(lambda: c.decrypt_into(N12, b"short", None, bytearray(3))))
        out.append(outcome(lambda: c.encrypt_into(N12, b"hello", None, out=bytearray(21))))
    return out


@case("the _into forms on every kind of buffer")
def _(m):
    """Each writable buffer kind (and read-only or strided ones), as `buf` and as input:
    the same outcome and the same bytes in `buf` after a successful call."""
    out = []
    for cls in ("AESGCM", "AESGCMSIV"):
        c = getattr(m, cls)(K16)
        for size in (0, 5, 1000, 40000):
            data = bytes(i % 251 for i in range(size))
            ct = c.encrypt(N12, data, b"ad")
            for kind in ("bytearray", "memoryview", "slice", "array", "mmap", "cast_c"):
                for n, f in ((size + 16, "encrypt_into"), (size, "decrypt_into")):
                    backing = bytearray(b"\xaa" * (n + 4))
                    if kind == "bytearray":
                        buf = bytearray(b"\xaa" * n)
                    elif kind == "memoryview":
                        buf = memoryview(bytearray(b"\xaa" * n))
                    elif kind == "slice":
                        buf = memoryview(backing)[2:2 + n]
                    elif kind == "array":
                        buf = array.array("B", b"\xaa" * n)
                    elif kind == "mmap":
                        buf = mmap.mmap(-1, max(n, 1))
                        buf = memoryview(buf)[:n]
                    else:
                        buf = memoryview(bytearray(b"\xaa" * n)).cast("c")
                    src = data if f == "encrypt_into" else ct
                    for conv in (bytes, bytearray, memoryview):
                        out.append(outcome(lambda: getattr(c, f)(N12, conv(src), conv(b"ad"), buf)))
                        out.append(("buf", bytes(buf), bytes(backing)))
        for buf in (memoryview(bytearray(21)).toreadonly(), memoryview(bytearray(42))[::2],
                    memoryview(bytearray(84)).cast("I"), array.array("b", bytes(21))):
            out.append(outcome(lambda: c.encrypt_into(N12, b"hello", None, buf)))
            out.append(outcome(lambda: c.decrypt_into(N12, c.encrypt(N12, b"x" * 21, None), None, buf)))
    return out


class LongBytes(bytes):
    """A bytes subclass whose len() claims 2**31: whatever pyca does with it (the installed
    version counts the bytes held), gcmkit must do the same."""

    def __len__(self):
        return 2**31


@case("length limits")
def _(m):
    out = []
    for cls in ("AESGCM", "AESGCMSIV"):
        c = getattr(m, cls)(K16)
        out.append(outcome(lambda: c.encrypt(N12, LongBytes(), b"")))
        out.append(outcome(lambda: c.encrypt(N12, b"", LongBytes())))
        out.append(outcome(lambda: c.encrypt(N12, big(), None)))
        out.append(outcome(lambda: c.encrypt(N12, b"", big())))
        out.append(outcome(lambda: c.encrypt(b"1", big(), None)))
        # Decryption checks the AAD's length too, after the nonce, the ciphertext's length
        # and decrypt_into's buffer size; encrypt_into checks its buffer before the limits.
        for nonce in (N12, b"1"):
            for data in (b"x" * 20, b"x"):
                out.append(outcome(lambda: c.decrypt(nonce, data, big())))
                for size in (4, 3):
                    out.append(outcome(lambda: c.decrypt_into(nonce, data, big(), bytearray(size))))
            for size in (36, 3):
                out.append(outcome(lambda: c.encrypt_into(nonce, b"x" * 20, big(), bytearray(size))))
                out.append(outcome(lambda: c.encrypt_into(nonce, big(), None, bytearray(size))))
    return out


@pytest.mark.parametrize("name,f", CASES, ids=[c[0] for c in CASES])
def test_same_outcomes_as_pyca(name, f):
    theirs, ours = f(pyca), f(gcmkit)
    assert len(ours) == len(theirs)
    diffs = [(i, t, o) for i, (t, o) in enumerate(zip(theirs, ours)) if t != o]
    assert not diffs, f"{len(diffs)} of {len(ours)} differ; first: {diffs[:5]}"


def test_failed_decrypt_into_zeroes_the_buffer():
    """pyca leaves the unverified plaintext in the buffer after a failed decrypt_into (it
    promises nothing about it); gcmkit zeroes it, as the project's binding standard says:
    "failed decryption returns an error and zeroes the output". No plaintext escapes."""
    for cls in (gcmkit.AESGCM, gcmkit.AESGCMSIV):
        c = cls(K16)
        ct = bytearray(c.encrypt(N12, b"secret", None))
        ct[0] ^= 1
        buf = bytearray(b"\xaa" * 6)
        with pytest.raises(gcmkit.InvalidTag):
            c.decrypt_into(N12, bytes(ct), None, buf)
        assert buf == bytes(6)
