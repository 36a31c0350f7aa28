"""No Python decryption path accepts a tag of the wrong length: every prefix of a valid
tag (0 to tag length - 1 bytes) and longer tags, through every class, raise a typed error
(InvalidTag or ValueError), never return plaintext, never crash; `decrypt_into` leaves
the buffer untouched (refused before decrypting) or zeroed (the tag did not verify: the
project's standard, "failed decryption returns an error and zeroes the output")."""
import pytest

import gcmkit

NONCE12 = bytes(range(12))
NONCE24 = bytes(range(24))
AAD = b"header"
LENGTHS = [0, 5, 64, 300, 2000]


def wrong_tags(tag):
    """Every proper prefix of `tag`, then longer ones."""
    return [tag[:k] for k in range(len(tag))] + [tag + b"\0", tag + tag, bytes(64)]


def key(n, seed):
    """A key of `n` bytes, not all zero (an all-zero GHASH key hashes everything to zero,
    so with GCM-SIV (2015)'s raw hash key any ciphertext would verify)."""
    return bytes((i * 31 + seed) % 256 for i in range(n))


def classes():
    """(name, key object, nonce, tag length) for every AEAD class and tag length."""
    out = [
        ("AESGCM", gcmkit.AESGCM(key(16, 7)), NONCE12, 16),
        ("AESGCMSIV", gcmkit.AESGCMSIV(key(32, 8)), NONCE12, 16),
        ("XAES256GCM", gcmkit.XAES256GCM(key(32, 9)), NONCE24, 16),
        ("DNDKGCM", gcmkit.DNDKGCM(key(32, 10)), NONCE24, 16),
        ("DNDKGCM kc", gcmkit.DNDKGCM(key(32, 11), key_commitment=True), NONCE24, 48),
        ("GCMSIV2015 one-key", gcmkit.GCMSIV2015(key(16, 6)), NONCE12, 16),
        ("GCMSIV2015 two-key", gcmkit.GCMSIV2015(key(16, 1), key(32, 2)), NONCE12, 16),
        (
            "GCMSIV2015 three-key",
            gcmkit.GCMSIV2015(key(16, 3), key(16, 4), key(16, 5), counter_bits=8),
            NONCE12,
            16,
        ),
    ]
    for t in [16, 15, 14, 13, 12, 8, 4]:
        out.append((f"AesGcm tag {t}", gcmkit.AesGcm(key(16, 12), tag_length=t), NONCE12, t))
        out.append((f"AesGcm tag {t}, 1-byte IV", gcmkit.AesGcm(key(24, 13), tag_length=t), b"\1", t))
    return out


@pytest.mark.parametrize("name,c,nonce,tag_len", classes(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_wrong_tag_length_is_refused(name, c, nonce, tag_len):
    for n in LENGTHS:
        pt = bytes((i * 29 + 3) % 256 for i in range(n))
        sealed = c.encrypt(nonce, pt, AAD)
        ct, tag = sealed[:n], sealed[n:]
        assert len(tag) == tag_len
        assert c.decrypt(nonce, sealed, AAD) == pt
        for bad in wrong_tags(tag):
            joined = ct + bad
            with pytest.raises((gcmkit.InvalidTag, ValueError)):
                c.decrypt(nonce, joined, AAD)
            size = max(len(joined) - tag_len, 0)
            buf = bytearray(b"\xa5" * size)
            with pytest.raises((gcmkit.InvalidTag, ValueError)):
                c.decrypt_into(nonce, joined, AAD, buf)
            assert buf in (bytearray(b"\xa5" * size), bytearray(size)), f"{name}: buffer written"


@pytest.mark.parametrize("tag_len", [16, 15, 14, 13, 12, 8, 4])
def test_gmac_verify_refuses_every_wrong_length(tag_len):
    mac = gcmkit.GMAC(key(16, 14), tag_length=tag_len)
    tag = mac.compute(NONCE12, b"data")
    mac.verify(NONCE12, b"data", tag)
    for bad in wrong_tags(tag):
        with pytest.raises(ValueError, match="tag"):
            mac.verify(NONCE12, b"data", bad)
