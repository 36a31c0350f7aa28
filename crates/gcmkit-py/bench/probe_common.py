"""What the timing probes share: the fastest single call of a callable, a race of named
calls alternated in one process, and a buffer's address (docs/history/python-into.md)."""
import ctypes
import time


def address(buf):
    """The address of a writable buffer's first byte."""
    return ctypes.addressof((ctypes.c_char * len(buf)).from_buffer(buf))


def fastest(f, n):
    """The fastest of n single calls of f, in seconds."""
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter_ns()
        f()
        best = min(best, time.perf_counter_ns() - t)
    return best / 1e9


def race(calls, rounds, reps):
    """Each call's fastest single run over `rounds` alternated rounds of `reps` calls: the
    candidates share the machine's state of each moment, so their ratios hold."""
    best = {k: float("inf") for k in calls}
    for _ in range(rounds):
        for k, f in calls.items():
            best[k] = min(best[k], fastest(f, reps))
    return best
