"""decrypt_into at 1 MiB and 8 MiB (issue #28): does gcmkit's lag behind pyca/cryptography
follow the library or the ciphertext buffer? Two equal ciphertexts in two `bytes` objects
(one from each library's `encrypt`, as bench_vs_cryptography.py made them), each library
decrypting each of them into one shared `bytearray`, beside both libraries' encrypt_into
into one shared buffer; alternating in one process, fastest single call of ROUNDS x reps.
Usage (under the timing lock): flock /tmp/gcmkit-timing.lock python3 decrypt_probe.py"""
import os

from cryptography.hazmat.primitives.ciphers.aead import AESGCM as PycaAESGCM

import gcmkit
from probe_common import race

ROUNDS = int(os.environ.get("ROUNDS", "10"))
SIZES = [int(s) for s in os.environ.get("SIZES", str(1 << 20) + "," + str(8 << 20)).split(",")]


def cases(g, p, nonce, size):
    data = os.urandom(size)
    ct_g, ct_p = g.encrypt(nonce, data, None), p.encrypt(nonce, data, None)
    assert ct_g == ct_p
    oe, od = bytearray(size + 16), bytearray(size)
    return {
        "gcmkit encrypt_into": lambda: g.encrypt_into(nonce, data, None, oe),
        "pyca   encrypt_into": lambda: p.encrypt_into(nonce, data, None, oe),
        "gcmkit decrypt_into ct_g": lambda: g.decrypt_into(nonce, ct_g, None, od),
        "pyca   decrypt_into ct_p": lambda: p.decrypt_into(nonce, ct_p, None, od),
        "gcmkit decrypt_into ct_p": lambda: g.decrypt_into(nonce, ct_p, None, od),
        "pyca   decrypt_into ct_g": lambda: p.decrypt_into(nonce, ct_g, None, od),
    }


def main():
    key, nonce = os.urandom(16), os.urandom(12)
    g, p = gcmkit.AESGCM(key), PycaAESGCM(key)
    print(f"load average {os.getloadavg()[0]:.1f}")
    for size in SIZES:
        calls = cases(g, p, nonce, size)
        reps = 6 if size > 1 << 20 else 30
        best = race(calls, ROUNDS, reps)
        for k, t in best.items():
            print(f"{size >> 10:5} KiB {k:26} {size / t / 1e9:6.2f} GB/s {t * 1e6:8.1f} us")


if __name__ == "__main__":
    main()
