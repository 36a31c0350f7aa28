"""gcmkit: the GCM family of authenticated encryption, from one Rust core.

Drop-in for pyca/cryptography's AEADs::

    from gcmkit import AESGCM, AESGCMSIV, InvalidTag

    key = AESGCM.generate_key(bit_length=128)
    ct = AESGCM(key).encrypt(nonce, data, associated_data)

plus every IV length and the SP 800-38D tag lengths (``AESGCM(key, tag_length=12)``),
``GMAC``, ``GCMSIV2015``, ``XAES256GCM`` and ``DNDKGCM`` (24-byte random nonces;
DNDK-GCM optionally key-committing) and Cobblestone streams (``gcmkit.chunked``). ``InvalidTag``
subclasses ``cryptography.exceptions.InvalidTag`` when that package is installed.
"""

from gcmkit._gcmkit import (  # noqa: F401
    AESGCM,
    AESGCMSIV,
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

__all__ = ["AESGCM", "AESGCMSIV", "DNDKGCM", "GCMSIV2015", "XAES256GCM", "GMAC", "InvalidTag", "__version__", "engine", "selftest", "chunked"]
