#!/usr/bin/env python3
"""Runs pyca/cryptography's own test files, unchanged, against gcmkit's drop-ins.

The files come from pyca's source distribution on PyPI (the version pinned in
requirements-test.txt, checked against its SHA-256 below), extracted into
target/pyca-tests/ and run from there: they are pyca's code (Apache-2.0 OR BSD-3-Clause,
see LICENSE in that folder), not copied into this repository. The pytest plugin
crates/gcmkit-py/tests/pyca/gcmkit_as_pyca.py maps the modules gcmkit replaces
(`cryptography.cobblestone` -> `gcmkit.cobblestone`) before the tests import them.

usage: pyca-tests.py WYCHEPROOF_DATA_DIR   (run with the Python that has gcmkit's wheel
and pyca's package installed)
"""
import hashlib
import os
import pathlib
import subprocess
import sys
import tarfile
import urllib.request

VERSION = "50.0.2"
URL = ("https://files.pythonhosted.org/packages/9d/af/182eb91b0df3fe75c4d9f26fe70684569566745f6ba7e5c9c73a862c5252/"
       f"cryptography-{VERSION}.tar.gz")
SHA256 = "7b46165bb56eb4704e2eaaf86f3c940d19154535d9b0ca7d6d590b04060e00d5"
# The test files gcmkit replaces the module of, and what they import from pyca's tests.
FILES = ["LICENSE", "LICENSE.APACHE", "LICENSE.BSD", "tests/__init__.py", "tests/conftest.py",
         "tests/utils.py", "tests/test_cobblestone.py", "tests/wycheproof/__init__.py",
         "tests/wycheproof/utils.py", "tests/wycheproof/test_cobblestone.py"]
RUN = ["tests/test_cobblestone.py", "tests/wycheproof/test_cobblestone.py"]
# pyca's count for these files at VERSION (100 cases and 2 Wycheproof files, each
# running every vector of its file as a subtest): fewer means a file ran partly.
EXPECTED = 102

ROOT = pathlib.Path(__file__).resolve().parents[1]
WORK = ROOT / "target" / "pyca-tests"


def fetch() -> pathlib.Path:
    tgz = WORK / f"cryptography-{VERSION}.tar.gz"
    if not tgz.exists() or hashlib.sha256(tgz.read_bytes()).hexdigest() != SHA256:
        WORK.mkdir(parents=True, exist_ok=True)
        data = urllib.request.urlopen(URL, timeout=120).read()
        got = hashlib.sha256(data).hexdigest()
        if got != SHA256:
            sys.exit(f"pyca-tests: {URL} has SHA-256 {got}, expected {SHA256}")
        tmp = tgz.with_suffix(f".{os.getpid()}.part")
        tmp.write_bytes(data)
        tmp.replace(tgz)
    return tgz


def extract(tgz: pathlib.Path) -> pathlib.Path:
    dest = WORK / f"cryptography-{VERSION}"
    prefix = f"cryptography-{VERSION}/"
    with tarfile.open(tgz) as t:
        for name in FILES:
            m = t.getmember(prefix + name)
            out = dest / name
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(t.extractfile(m).read())
    return dest


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    wycheproof = pathlib.Path(sys.argv[1]).resolve()
    if not (wycheproof / "c2sp_chunked_encryption_aes_128_gcm_test.json").is_file():
        sys.exit(f"pyca-tests: no Wycheproof Cobblestone vectors in {wycheproof}")
    src = extract(fetch())
    # pyca's tests look for <root>/testvectors_v1/<file>.
    root = WORK / "wycheproof-root"
    root.mkdir(parents=True, exist_ok=True)
    link = root / "testvectors_v1"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(wycheproof)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "crates" / "gcmkit-py" / "tests" / "pyca"),
               GCMKIT_PYCA_EXPECTED=str(EXPECTED))
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "gcmkit_as_pyca",
           f"--wycheproof-root={root}", *RUN]
    print("pyca-tests:", " ".join(cmd), f"(in {src})", flush=True)
    return subprocess.call(cmd, cwd=src, env=env)


if __name__ == "__main__":
    sys.exit(main())
