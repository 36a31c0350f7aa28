"""make bench-provider: `openssl speed -evp` with OpenSSL's own AES-GCM (default provider)
against gcmkit's (the provider, fetched with -propquery provider=gcmkit), alternated in
one run, the best of ROUNDS runs per size; AES-GCM-SIV through gcmkit alone (OpenSSL 3.0
has none). Writes docs/perf/provider.md. Run under flock /tmp/gcmkit-timing.lock.

    provider_speed.py OUT.md [ROUNDS] [SECONDS]
"""
import os
import platform
import re
import subprocess
import sys
import tempfile

PROV = ["-provider-path", "target/provider", "-provider", "gcmkit", "-provider", "default",
        "-propquery", "provider=gcmkit"]
SIZES = [16, 64, 256, 1024, 8192, 16384]

CLOCK_C = r"""
#include <stdio.h>
#include <time.h>
int main(void) {
    double best = 0;
    for (int r = 0; r < 5; r++) {
        unsigned long n = 20000000, x = 0, one = 1;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        __asm__ volatile("1:\n add %2,%0\n add %2,%0\n add %2,%0\n add %2,%0\n"
                         " add %2,%0\n add %2,%0\n add %2,%0\n add %2,%0\n dec %1\n jnz 1b"
                         : "+r"(x), "+r"(n) : "r"(one));
        clock_gettime(CLOCK_MONOTONIC, &b);
        double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
        double ghz = 8.0 * 20000000 / s / 1e9;
        if (ghz > best) best = ghz;
    }
    printf("%.2f\n", best);
    return 0;
}
"""


def measured_ghz():
    """The core clock from a chain of dependent adds (this VM has no cycle counter)."""
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "clock.c"), os.path.join(d, "clock")
        open(src, "w").write(CLOCK_C)
        subprocess.run(["gcc", "-O1", "-o", exe, src], check=True)
        return float(subprocess.run([exe], capture_output=True, text=True, check=True).stdout)


def cpu_line():
    info = open("/proc/cpuinfo").read()
    f = lambda k: (re.search(rf"^{k}\s*:\s*(.*)$", info, re.M) or [None, "?"])[1]
    flags = f("flags").split()
    feats = [x for x in ("aes", "pclmulqdq", "avx2", "avx512f", "vaes", "vpclmulqdq") if x in flags]
    return (f"{f('model name')} (family {f('cpu family')}, model {f('model')}, "
            f"stepping {f('stepping')}); {' '.join(feats)}")


def speed(cipher, gcmkit, seconds):
    """{size: bytes per second} from `openssl speed -mr`."""
    cmd = ["openssl", "speed", "-mr", "-seconds", str(seconds)]
    cmd += (PROV if gcmkit else []) + ["-evp", cipher]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300).stdout
    m = re.search(r"^\+F:\d+:[^:]+:(.*)$", out, re.M)
    if not m:
        raise SystemExit(f"no result from {' '.join(cmd)}")
    vals = [float(v) for v in m.group(1).split(":")]
    return dict(zip(SIZES, vals))


def best(runs):
    return {s: max(r[s] for r in runs) for s in SIZES}


def main(out, rounds=3, seconds=1):
    ghz = measured_ghz()
    version = subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout.strip()
    res = {}
    for cipher in ("aes-128-gcm", "aes-256-gcm"):
        o, g = [], []
        for _ in range(rounds):
            o.append(speed(cipher, False, seconds))
            g.append(speed(cipher, True, seconds))
        res[cipher] = (best(o), best(g))
    siv = {c: best([speed(c, True, seconds) for _ in range(rounds)])
           for c in ("aes-128-gcm-siv", "aes-256-gcm-siv")}
    gb = lambda v: f"{v / 1e9:.3f}"
    lines = [
        "# The OpenSSL provider: `openssl speed -evp`, OpenSSL's AES-GCM against gcmkit's",
        "",
        f"Machine: {cpu_line()}, measured core clock {ghz:.2f} GHz (dependent-add chain); "
        f"{platform.machine()}, {os.cpu_count()} logical CPUs. {version}.",
        "",
        "Command (`make bench-provider`, under `flock /tmp/gcmkit-timing.lock`): "
        f"`openssl speed -mr -seconds {seconds} -evp CIPHER` (OpenSSL's default provider) and "
        "`openssl speed -mr -seconds 1 -provider-path target/provider -provider gcmkit "
        "-provider default -propquery provider=gcmkit -evp CIPHER` (gcmkit), alternated, "
        f"best of {rounds} runs per size. OpenSSL 3.0.x's `speed -evp` runs each AEAD "
        "operation as a whole message (IV length and key set, IV, 13 bytes of AAD, data, "
        "Final), so small sizes measure the per-message path. GB/s = 10^9 bytes/s.",
        "",
        "| cipher | size (B) | OpenSSL GB/s | gcmkit GB/s | gcmkit / OpenSSL |",
        "|---|---:|---:|---:|---:|",
    ]
    for cipher, (o, g) in res.items():
        for s in SIZES:
            lines.append(f"| {cipher.upper()} | {s} | {gb(o[s])} | {gb(g[s])} | {g[s] / o[s]:.2f}x |")
    lines += [
        "",
        "AES-GCM-SIV (gcmkit only: OpenSSL 3.0 has no AES-GCM-SIV; 3.2's is a portable C "
        "implementation, not measurable here). Same command with `-evp aes-128-gcm-siv` / "
        "`aes-256-gcm-siv` (speed 3.0 runs it as whole messages too).",
        "",
        "| cipher | size (B) | gcmkit GB/s |",
        "|---|---:|---:|",
    ]
    for cipher, g in siv.items():
        for s in SIZES:
            lines.append(f"| {cipher.upper()} | {s} | {gb(g[s])} |")
    o, g = res["aes-128-gcm"]
    lines += [
        "",
        f"Issue #29's targets for AES-128-GCM on this run: 16 KiB {g[16384] / o[16384]:.2f}x "
        f"(target >= 2.5x), 16 B {g[16] / o[16]:.2f}x (target >= 1.0x).",
        "",
    ]
    tmp = out + ".tmp"
    open(tmp, "w").write("\n".join(lines))
    os.replace(tmp, out)
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:4]))
