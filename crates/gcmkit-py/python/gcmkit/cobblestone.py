"""Cobblestone (c2sp.org/chunked-encryption) exactly as pyca/cryptography's
``cryptography.cobblestone`` (50.0.2): swap the import and nothing else changes::

    from gcmkit.cobblestone import Cobblestone128Encryptor, Cobblestone128Decryptor

    key = Cobblestone128Encryptor.generate_key()
    enc = Cobblestone128Encryptor(key, b"context")
    sealed = enc.update(b"hello") + enc.finalize()

    dec = Cobblestone128Decryptor(key, b"context")
    assert dec.update(sealed) + dec.finalize() == b"hello"

Failures raise ``gcmkit.InvalidTag`` and ``gcmkit.AlreadyFinalized``, subclasses of
pyca's ``cryptography.exceptions.InvalidTag`` and ``AlreadyFinalized`` when that package
is installed. Decryption releases each chunk only after it verified; the final chunk (the
proof that the message was not cut) is checked by ``finalize``. Large inputs run with the
GIL released, and ``update_into`` writes into the caller's buffer in one pass.
"""

from gcmkit._gcmkit import (  # noqa: F401
    AlreadyFinalized,
    Cobblestone128Decryptor,
    Cobblestone128Encryptor,
    Cobblestone256Decryptor,
    Cobblestone256Encryptor,
    InvalidTag,
)

__all__ = [
    "Cobblestone128Decryptor",
    "Cobblestone128Encryptor",
    "Cobblestone256Decryptor",
    "Cobblestone256Encryptor",
]
