"""A guard against speed regressions of the Python API: gcmkit's AESGCM and AESGCMSIV
against pyca/cryptography's (OpenSSL), in one process, interleaved, so that gcmkit made
twice as slow fails it.

Not a timing: the ratio of the two throughputs (pyca's fastest sample over gcmkit's, many
short samples taken in turn), so the machine's speed and its neighbours cancel out. Each
row's floor is half of the lowest ratio measured for it (the table below, the ratios
beside the floors): on this CPU if the table names it, else on any CPU. Fails below it.

`GCMKIT_SPEED_GUARD_SLOWDOWN=2` makes gcmkit's side make every call twice: the guard's own
demonstration that a gcmkit twice as slow fails it (on AMD Zen 4, family 25 model 17,
2026-12-04: docs/tuning.md, "speed guards", has the command and the failing rows). Under
two seconds."""
import os
import time

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import gcmkit

SAMPLES = 41

# (class, key length, bytes): {CPU: (ratio, source)}. Sources: "perf" is docs/perf's
# make bench-python page of that CPU (python.md is intel-f6-m207; python-<cpu>.md the
# others), `encrypt` with `bytes` in, a 16-byte key; "doc" this test's earlier docstring
# (Zen 5, one run); "guard" this test's own runs there, the lowest of five (amd-f25-m17,
# AMD Zen 4, 2026-12-04, under flock /tmp/gcmkit-timing.lock; docs/tuning.md, "speed
# guards"); "est" an estimate for a row docs/perf lacks on that CPU: AESGCMSIV with a
# 32-byte key as that CPU's 16-byte-key figure times the 32/16 factor measured here
# (10.01/9.93 at 1500 B, 20.53/21.43 at 16 KiB).
MEASURED = {
    ("AESGCM", 16, 1500): {
        "amd-f25-m17": (2.21, "guard"),
        "amd-f25-m1": (2.18, "perf"),
        "intel-f6-m167": (1.88, "perf"),
        "intel-f6-m207": (1.84, "perf"),
        "amd-f26-m2": (2.29, "doc"),
    },
    ("AESGCM", 16, 16384): {
        "amd-f25-m17": (1.60, "guard"),
        "amd-f25-m1": (2.41, "perf"),
        "intel-f6-m167": (1.33, "perf"),
        "intel-f6-m207": (1.42, "perf"),
        "amd-f26-m2": (1.60, "doc"),
    },
    ("AESGCMSIV", 16, 1500): {
        "amd-f25-m17": (9.93, "guard"),
        "amd-f25-m1": (7.82, "perf"),
        "intel-f6-m167": (8.96, "perf"),
        "intel-f6-m207": (8.52, "perf"),
    },
    ("AESGCMSIV", 16, 16384): {
        "amd-f25-m17": (21.43, "guard"),
        "amd-f25-m1": (16.78, "perf"),
        "intel-f6-m167": (18.45, "perf"),
        "intel-f6-m207": (18.42, "perf"),
    },
    ("AESGCMSIV", 32, 1500): {
        "amd-f25-m17": (10.01, "guard"),
        "amd-f25-m1": (7.88, "est"),
        "intel-f6-m167": (9.03, "est"),
        "intel-f6-m207": (8.59, "est"),
        "amd-f26-m2": (13.0, "doc"),
    },
    ("AESGCMSIV", 32, 16384): {
        "amd-f25-m17": (20.53, "guard"),
        "amd-f25-m1": (16.08, "est"),
        "intel-f6-m167": (17.68, "est"),
        "intel-f6-m207": (17.65, "est"),
        "amd-f26-m2": (30.0, "doc"),
    },
}

# Half of each row's lowest ratio on any CPU, written out beside the ratios;
# test_floors_are_half_the_lowest_ratio keeps the two in step.
FLOOR = {
    ("AESGCM", 16, 1500): 0.920,
    ("AESGCM", 16, 16384): 0.665,
    ("AESGCMSIV", 16, 1500): 3.910,
    ("AESGCMSIV", 16, 16384): 8.390,
    ("AESGCMSIV", 32, 1500): 3.940,
    ("AESGCMSIV", 32, 16384): 8.040,
}


def cpu_id():
    """`vendor-fFAMILY-mMODEL` as docs/perf names its per-CPU pages, or None."""
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
    except OSError:
        return None
    fields = {}
    for line in info.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    vendor = {"AuthenticAMD": "amd", "GenuineIntel": "intel"}.get(fields.get("vendor_id"))
    if vendor is None or "cpu family" not in fields or "model" not in fields:
        return None
    return f"{vendor}-f{fields['cpu family']}-m{fields['model']}"


def floor_on(row, cpu):
    """Half of the lowest ratio measured on `cpu`, if the row has one; else the row's."""
    here = [r for c, (r, _) in MEASURED[row].items() if c == cpu]
    return (min(here) / 2, "this CPU's") if here else (FLOOR[row], "any CPU")


def slowdown():
    value = os.environ.get("GCMKIT_SPEED_GUARD_SLOWDOWN", "1")
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"GCMKIT_SPEED_GUARD_SLOWDOWN must be a whole number from 1, not {value!r}")
    return int(value)


def fastest_ratio(ours, theirs, calls, times):
    """pyca's fastest sample over gcmkit's, sampled in turn (order alternating); gcmkit's
    side makes each call `times` times."""

    def sample(f, n):
        t = time.perf_counter()
        for _ in range(n):
            f()
        return time.perf_counter() - t

    sample(ours, calls)
    sample(theirs, calls)
    o = p = float("inf")
    for i in range(SAMPLES):
        if i % 2:
            p = min(p, sample(theirs, calls))
            o = min(o, sample(ours, calls * times))
        else:
            o = min(o, sample(ours, calls * times))
            p = min(p, sample(theirs, calls))
    return p / o


def test_floors_are_half_the_lowest_ratio():
    assert MEASURED.keys() == FLOOR.keys()
    for row, seen in MEASURED.items():
        lowest = min(r for r, _ in seen.values())
        assert abs(FLOOR[row] - lowest / 2) <= 0.0051, (row, FLOOR[row], lowest)


@pytest.mark.parametrize("row", sorted(MEASURED))
def test_at_least_half_the_measured_ratio(row):
    name, key_len, size = row
    key = bytes(range(key_len))
    nonce = bytes(12)
    data = bytes(size)
    ours = getattr(gcmkit, name)(key)
    theirs = getattr(pyca, name)(key)
    # About 0.5 MiB per sample: 0.1-0.3 ms for gcmkit.
    calls = max(8, (1 << 19) // size)
    ratio = fastest_ratio(
        lambda: ours.encrypt(nonce, data, None),
        lambda: theirs.encrypt(nonce, data, None),
        calls,
        slowdown(),
    )
    cpu = cpu_id()
    floor, basis = floor_on(row, cpu)
    print(f"{name} ({key_len * 8}-bit key) encrypt {size} B: {ratio:.2f}x pyca/cryptography "
          f"(floor {floor:.2f}, {basis}; CPU {cpu})")
    assert ratio >= floor, (
        f"{name} ({key_len * 8}-bit key) encrypt at {size} B runs at {ratio:.2f}x pyca's "
        f"speed, under its floor {floor:.2f} ({basis}; CPU {cpu})"
    )
