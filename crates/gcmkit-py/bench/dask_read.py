"""A 2-worker distributed.LocalCluster reading a CSV of SIZE_MIB (default 1024) through
dd.read_csv, blocksize 8 MiB: the plaintext file against the same file encrypted
(Cobblestone-256, read through gcmkit.fsspec). Best of ROUNDS (default 3), the two
alternating. Prints the times, the ratio and the CPU. usage: dask_read.py [SIZE_MIB] [ROUNDS]"""
import os
import platform
import sys
import tempfile
import time

from machine import cpu

import dask
import dask.dataframe as dd
import distributed
import pandas as pd

from gcmkit import chunked


def main():
    size_mib = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    d = tempfile.mkdtemp(prefix="gcmkit-dask-")
    n = 1_000_000
    block = pd.DataFrame({"id": range(n), "x": [i * 0.5 for i in range(n)],
                          "name": [f"customer-{i:09d}-abcdefghijklmnopqrstuvwx" for i in range(n)]}
                         ).to_csv(index=False).encode()
    head, body = block.split(b"\n", 1)
    plain_path, sealed_path, key_path = (os.path.join(d, n) for n in ("plain.csv", "data.csv.cob", "key"))
    with open(plain_path, "wb") as f:
        f.write(head + b"\n")
        while f.tell() < size_mib << 20:
            f.write(body)
    key = os.urandom(32)
    with open(key_path, "wb") as f:
        f.write(key)
    chunked.encrypt_file(key, plain_path, sealed_path)
    so = {"cobblestone": {"key_file": key_path}}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0", silence_logs=40) as cluster, \
            distributed.Client(cluster):
        def run(url, **kw):
            t = time.perf_counter()
            total = dd.read_csv(url, blocksize="8MiB", **kw)["x"].sum().compute()
            return time.perf_counter() - t, total

        best = {"plain": float("inf"), "encrypted": float("inf")}
        for _ in range(rounds):
            tp, sp = run(plain_path)
            te, se = run(f"cobblestone::file://{sealed_path}", storage_options=so)
            assert sp == se
            best["plain"], best["encrypted"] = min(best["plain"], tp), min(best["encrypted"], te)
    for p in (plain_path, sealed_path, key_path):
        os.remove(p)
    os.rmdir(d)
    print(f"CPU: {cpu()}; Python {platform.python_version()}, dask {dask.__version__}")
    print(f"{size_mib} MiB CSV, 2 worker processes, blocksize 8 MiB, best of {rounds}:")
    print(f"  plaintext {best['plain']:.2f} s, encrypted {best['encrypted']:.2f} s, "
          f"ratio {best['encrypted'] / best['plain']:.3f}x")


if __name__ == "__main__":
    main()
