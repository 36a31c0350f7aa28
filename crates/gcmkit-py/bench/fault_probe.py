"""What the page faults of a fresh 256 MiB result cost: a copy into a new buffer against the
same copy into a warm one (memoryview assignment, a memcpy), best of 7."""
import time
n = 256 << 20
src = bytes(range(256)) * (n // 256)
warm = bytearray(n)
memoryview(warm)[:] = src
def warm_copy():
    memoryview(warm)[:] = src
def fresh_copy():
    b = bytearray(n)  # calloc: pages mapped on first write
    memoryview(b)[:] = src
best = {}
for _ in range(7):
    for name, f in [("warm", warm_copy), ("fresh", fresh_copy)]:
        t = time.perf_counter(); f(); t = time.perf_counter() - t
        best[name] = min(best.get(name, 1e9), t)
for k, v in best.items():
    print(f"copy into a {k} 256 MiB buffer: {n / v / 1e9:6.2f} GB/s, {v / best['warm']:.2f}x the warm copy's time")
