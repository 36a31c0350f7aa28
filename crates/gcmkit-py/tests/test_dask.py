"""A real distributed engine reading Cobblestone files through gcmkit.fsspec: a
distributed.LocalCluster of 2 worker processes runs dd.read_csv over an encrypted CSV
of 64 MiB in 8 MiB blocks; the result equals
the plaintext's. A modified chunk fails the task that reads it with InvalidTag. (dask,
distributed and pandas are in requirements-test.txt: missing is a failure, not a skip.)"""
import dask.dataframe as dd
import distributed
import pandas as pd
import pytest

import gcmkit
from gcmkit import chunked

KEY = bytes(range(100, 132))
MIB = 1 << 20


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("dask")
    n = 1_150_000  # about 64 MiB of CSV
    df = pd.DataFrame({"id": range(n), "x": [i * 0.5 for i in range(n)],
                       "name": [f"customer-{i:09d}-abcdefghijklmnopqrstuvwx" for i in range(n)]})
    plain = df.to_csv(index=False).encode()
    assert len(plain) >= 64 * MIB
    (d / "plain.csv").write_bytes(plain)
    (d / "data.csv.cob").write_bytes(chunked.encrypt(KEY, plain, b"sales"))
    sealed = bytearray((d / "data.csv.cob").read_bytes())
    sealed[56 + 2000 * 16400 + 99] ^= 1  # chunk 2000: about 31 MiB in, inside one block
    (d / "bad.csv.cob").write_bytes(bytes(sealed))
    (d / "key").write_text("# gcmkit key file\n" + KEY.hex() + "\n")  # as gcmkit keygen writes
    return d


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                  silence_logs=40) as cluster, distributed.Client(cluster) as c:
        yield c


def test_a_local_cluster_reads_the_encrypted_csv(files, client):
    so = {"cobblestone": {"key_file": str(files / "key"), "context": b"sales"}}
    ddf = dd.read_csv(f"cobblestone::file://{files}/data.csv.cob", blocksize="8MiB", storage_options=so)
    assert ddf.npartitions >= 8
    got = ddf.compute().reset_index(drop=True)
    want = dd.read_csv(f"{files}/plain.csv", blocksize="8MiB").compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(got, want)
    # The read ran on the cluster of 2 worker processes (not in this process).
    assert len(client.scheduler_info()["workers"]) == 2


def test_a_modified_chunk_fails_its_task_with_invalid_tag(files, client):
    so = {"cobblestone": {"key_file": str(files / "key"), "context": b"sales"}}
    ddf = dd.read_csv(f"cobblestone::file://{files}/bad.csv.cob", blocksize="8MiB", storage_options=so)
    with pytest.raises(gcmkit.InvalidTag):
        ddf.compute()
    # A partition before the chunk still reads, from its first row.
    first = ddf.partitions[0].compute()
    assert len(first) > 0 and first["id"].iloc[0] == 0
