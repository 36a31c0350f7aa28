"""The machine a benchmark ran on, as its reports name it."""
import os


def cpu():
    """The CPU's name, family and model, vCPU count and clock (as /proc/cpuinfo reports it)."""
    info = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            k, _, v = line.partition(":")
            info.setdefault(k.strip(), v.strip())
    return (f"{info.get('model name')} (family {info.get('cpu family')} model {info.get('model')}), "
            f"{os.cpu_count()} vCPUs, {info.get('cpu MHz', '?')} MHz as /proc/cpuinfo reports it")
