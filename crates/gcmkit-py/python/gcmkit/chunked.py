"""Streaming encryption in the c2sp.org/chunked-encryption format (Cobblestone).

A 16-byte key gives Cobblestone-128, a 32-byte key Cobblestone-256. Decryption only
releases verified data: ``decrypt_file`` writes nothing at ``dst`` unless the whole file
verified, and a reader from ``open(..., "rb")`` returns a chunk only after it verified.
"""

from gcmkit._gcmkit import ChunkedReader, ChunkedWriter, chunked_decrypt, chunked_encrypt, chunked_open
from gcmkit._gcmkit import decrypt_file as _decrypt_file
from gcmkit._gcmkit import encrypt_file as _encrypt_file

__all__ = ["encrypt", "decrypt", "encrypt_file", "decrypt_file", "open", "ChunkedReader", "ChunkedWriter"]


def encrypt(key, data, context=b""):
    """Encrypts a whole message; returns the Cobblestone ciphertext."""
    return chunked_encrypt(key, data, context)


def decrypt(key, data, context=b""):
    """Decrypts a whole message; raises gcmkit.InvalidTag on any failure."""
    return chunked_decrypt(key, data, context)


def encrypt_file(key, src, dst, context=b""):
    """Encrypts the file ``src`` into ``dst`` (all cores, constant memory)."""
    return _encrypt_file(key, str(src), str(dst), context)


def decrypt_file(key, src, dst, context=b""):
    """Decrypts ``src`` into ``dst``; nothing appears at ``dst`` unless all of it verified."""
    return _decrypt_file(key, str(src), str(dst), context)


def open(path, mode, key, context=b""):  # noqa: A001 - mirrors builtins.open
    """A file-like object: mode "rb" decrypts while reading, "wb" encrypts while writing."""
    return chunked_open(str(path), mode, key, context)
