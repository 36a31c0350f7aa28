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
    selftest,
)
from gcmkit import chunked  # noqa: F401
from gcmkit import cobblestone  # noqa: F401

__all__ = ["AESGCM", "AESGCMSIV", "AesGcm", "DNDKGCM", "GCMSIV2015", "XAES256GCM", "GMAC", "InvalidTag", "AlreadyFinalized", "__version__", "engine", "selftest", "chunked", "cobblestone"]
