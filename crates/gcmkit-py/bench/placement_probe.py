"""1 MiB encrypt_into into views at several offsets past a page, one bytearray per offset and
library (gcmkit, pyca), alternating in one process; fastest of 10 x 30 calls. Shows the
two speeds a 1 MiB call runs at by the buffer's physical placement (docs/history/python-into.md).
Usage: flock /tmp/gcmkit-timing.lock python3 placement_probe.py"""
import os
import gcmkit
from probe_common import address, race
from cryptography.hazmat.primitives.ciphers.aead import AESGCM as P
key, nonce = os.urandom(16), os.urandom(12)
g, p = gcmkit.AESGCM(key), P(key)
size = 1 << 20
data = os.urandom(size); ia = (id(data) + 32)
print("in %64", ia % 64, "%4096", ia % 4096)
keep = []; cases = {}
for off in (0, 16, 32, 48, 48 + 1024, 48 + 2048, 2576):
    raw = bytearray(size + 16 + 8192); s = (-address(raw)) % 4096 + off
    v = memoryview(raw)[s:s + size + 16]; keep.append(raw)
    cases[f"g out page+{off}"] = (lambda v=v: g.encrypt_into(nonce, data, None, v))
    raw2 = bytearray(size + 16 + 8192); s2 = (-address(raw2)) % 4096 + off
    v2 = memoryview(raw2)[s2:s2 + size + 16]; keep.append(raw2)
    cases[f"p out page+{off}"] = (lambda v=v2: p.encrypt_into(nonce, data, None, v))
cases["g encrypt"] = lambda: g.encrypt(nonce, data, None)
r = race(cases, 10, 30)
for k, t in r.items(): print(f"{k:22} {size/t/1e9:6.2f} GB/s")
