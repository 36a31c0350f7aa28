"""gcmkit: the GCM family of authenticated encryption, from one Rust core.

Drop-in for pyca/cryptography's AEADs::

    from gcmkit import AESGCM, AESGCMSIV, InvalidTag

    key = AESGCM.generate_key(bit_length=128)
    ct = AESGCM(key).encrypt(nonce, data, associated_data)

``AESGCM`` and ``AESGCMSIV`` behave exactly as pyca's (types, exceptions, messages).
gcmkit's extensions live under their own names: ``AesGcm(key, tag_length=12)`` takes
every IV length and the SP 800-38D tag lengths,
``GMAC``, ``GCMSIV2015``, ``XAES256GCM`` and ``DNDKGCM`` (24-byte random nonces;
DNDK-GCM optionally key-committing) and Cobblestone streams (``gcmkit.chunked``; ``gcmkit.cobblestone`` is pyca's
``cryptography.cobblestone`` exactly). ``InvalidTag``
subclasses ``cryptography.exceptions.InvalidTag`` when that package is installed.

Keys on disk: ``load_key_file(path)`` reads the key files of every gcmkit front end
(``gcmkit keygen`` writes them: a line of 32 or 64 hex digits, with ``#`` comment lines)
and returns the 16- or 32-byte key; anything else, a raw binary key included, is a
``ValueError`` that names the format.
"""

from gcmkit._gcmkit import (  # noqa: F401
    AESGCM,
    AESGCMSIV,
    AlreadyFinalized,
    AesGcm,
    DNDKGCM,
    GCMSIV2015,
    GMAC,
    InvalidTag,
    XAES256GCM,
    __version__,
    engine,
    load_key_file,
    selftest,
)
from gcmkit import chunked  # noqa: F401
from gcmkit import cobblestone  # noqa: F401

__all__ = ["AESGCM", "AESGCMSIV", "AesGcm", "DNDKGCM", "GCMSIV2015", "XAES256GCM", "GMAC", "InvalidTag", "AlreadyFinalized", "__version__", "engine", "load_key_file", "selftest", "chunked", "cobblestone"]
