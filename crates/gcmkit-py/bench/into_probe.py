"""Where the `_into` forms' time goes at 1 MiB and 8 MiB (issue #28): gcmkit's `encrypt`
(a new bytes object), `encrypt_into` into a reused `bytearray`, into a 64-byte-aligned view,
into a fresh `bytearray` per call, and `decrypt`/`decrypt_into`, beside pyca/cryptography's
`_into` forms, alternating in one process. Prints the fastest single call of ROUNDS x reps.
Usage (under the timing lock): flock /tmp/gcmkit-timing.lock python3 into_probe.py"""
import os

from cryptography.hazmat.primitives.ciphers.aead import AESGCM as PycaAESGCM

import gcmkit
from probe_common import address, race

ROUNDS = int(os.environ.get("ROUNDS", "10"))


def cases(g, p, nonce, size):
    data = os.urandom(size)
    ct = g.encrypt(nonce, data, None)
    og, op, dg, dp = bytearray(size + 16), bytearray(size + 16), bytearray(size), bytearray(size)
    raw = bytearray(size + 16 + 128)
    skip = (-address(raw)) % 64
    aligned = memoryview(raw)[skip:skip + size + 16]
    print(f"{size >> 20} MiB: data {(id(data) + 32) % 64} past a 64-byte line, bytearray {address(og) % 64}")
    return {
        "gcmkit encrypt (new bytes)": lambda: g.encrypt(nonce, data, None),
        "gcmkit encrypt_into": lambda: g.encrypt_into(nonce, data, None, og),
        "pyca encrypt_into": lambda: p.encrypt_into(nonce, data, None, op),
        "gcmkit encrypt_into 64-aligned": lambda: g.encrypt_into(nonce, data, None, aligned),
        "gcmkit encrypt_into fresh": lambda: g.encrypt_into(nonce, data, None, bytearray(size + 16)),
        "pyca encrypt_into fresh": lambda: p.encrypt_into(nonce, data, None, bytearray(size + 16)),
        "gcmkit decrypt (new bytes)": lambda: g.decrypt(nonce, ct, None),
        "gcmkit decrypt_into": lambda: g.decrypt_into(nonce, ct, None, dg),
        "pyca decrypt_into": lambda: p.decrypt_into(nonce, ct, None, dp),
    }


def main():
    key, nonce = os.urandom(16), os.urandom(12)
    g, p = gcmkit.AESGCM(key), PycaAESGCM(key)
    for size in (1 << 20, 8 << 20):
        calls = cases(g, p, nonce, size)
        reps = 6 if size > 1 << 20 else 30
        best = race(calls, ROUNDS, reps)
        for k, t in best.items():
            print(f"{size >> 20} MiB {k:32} {size / t / 1e9:6.2f} GB/s {t * 1e6:8.1f} us")


if __name__ == "__main__":
    main()
