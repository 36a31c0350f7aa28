"""A guard against gross speed regressions of the Python API: gcmkit's AESGCM and AESGCMSIV
against pyca/cryptography's (OpenSSL), in one process, interleaved.

Not a timing: the median over alternated rounds of the ratio of the two throughputs, so the
machine's speed and its neighbours cancel out. A check fails below 0.5x pyca: a 2x
regression fails, noise does not (on Zen 5, f26 m2, this test printed 2.29x and 1.60x for
AESGCM at 1500 B and 16 KiB, 13x and 30x for AESGCMSIV). Under a second."""
import time

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import gcmkit

ROUNDS = 15
FLOOR = 0.5


def median_ratio(ours, theirs, calls):
    for _ in range(calls):
        ours()
        theirs()
    ratios = []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        for _ in range(calls):
            ours()
        o = time.perf_counter() - t
        t = time.perf_counter()
        for _ in range(calls):
            theirs()
        p = time.perf_counter() - t
        ratios.append(p / o)
    ratios.sort()
    return ratios[ROUNDS // 2]


@pytest.mark.parametrize("size", [1500, 16384])
@pytest.mark.parametrize(
    "name,key_len",
    [("AESGCM", 16), ("AESGCMSIV", 32)],
)
def test_at_least_half_pycas_speed(name, key_len, size):
    key = bytes(range(key_len))
    nonce = bytes(12)
    data = bytes(size)
    ours = getattr(gcmkit, name)(key)
    theirs = getattr(pyca, name)(key)
    calls = max(8, (1 << 21) // size)
    ratio = median_ratio(
        lambda: ours.encrypt(nonce, data, None),
        lambda: theirs.encrypt(nonce, data, None),
        calls,
    )
    print(f"{name} encrypt {size} B: {ratio:.2f}x pyca/cryptography")
    assert ratio >= FLOOR, f"{name} encrypt at {size} B runs at {ratio:.2f}x pyca's speed"
