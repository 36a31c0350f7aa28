"""A pytest plugin that runs pyca/cryptography's own test files against gcmkit: it maps
the modules gcmkit replaces before the tests import them, so that
``from cryptography.cobblestone import ...`` gives gcmkit's classes, and nothing else in
the files changes. Loaded with ``-p gcmkit_as_pyca`` (scripts/pyca-tests.py)."""
import sys

import cryptography
import gcmkit.cobblestone

# pyca's module is replaced wholesale: a test that reached pyca's classes could pass
# without testing gcmkit at all.
sys.modules["cryptography.cobblestone"] = gcmkit.cobblestone
cryptography.cobblestone = gcmkit.cobblestone


def pytest_report_header(config):
    return f"cryptography.cobblestone -> {gcmkit.cobblestone.__name__} ({gcmkit.__file__})"


def pytest_collection_finish(session):
    from cryptography.cobblestone import Cobblestone128Decryptor

    assert Cobblestone128Decryptor.__module__ == "gcmkit.cobblestone", Cobblestone128Decryptor


PASSED = []


def pytest_runtest_logreport(report):
    if report.when == "call" and report.passed:
        PASSED.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    # A file that ran partly (a collection error, a skip: a missing --wycheproof-root
    # skips) must not pass: every expected test has to have passed.
    import os

    want = int(os.environ.get("GCMKIT_PYCA_EXPECTED", "0"))
    if exitstatus == 0 and len(PASSED) < want:
        session.exitstatus = 1
        print(f"\ngcmkit_as_pyca: {len(PASSED)} tests passed, expected {want}")
