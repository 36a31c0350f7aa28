"""make interop: gcmkit against Go (crypto/cipher), Java (JCE) and Node (OpenSSL) in
both directions, and against pyca/cryptography for AES-GCM-SIV.

For each peer: gcmkit encrypts random cases inside the peer's parameter space and the peer
must decrypt and re-encrypt them identically; the peer encrypts its own random cases and
gcmkit must do the same. Every direction must account for exactly INTEROP_CASES cases: a
peer that verified or generated fewer (a reader that stopped early, a generator cut short)
fails, so a short run cannot pass. Ends with `N passed, M failed`."""
import os
import random
import re
import subprocess
import sys
import tempfile

from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV as PycaSIV

import gcmkit

HERE = os.path.dirname(os.path.abspath(__file__))
N = int(os.environ.get("INTEROP_CASES", "300"))


def hx(b):
    return b.hex() if b else "-"


def unhex(s):
    return b"" if s == "-" else bytes.fromhex(s)


# Each peer's parameter space: (nonce length, tag length) choosers.
PEERS = {
    "go": lambda r: (r.randint(1, 128), 16) if r.random() < 0.5 else (12, r.choice([12, 13, 14, 15, 16])),
    "java": lambda r: (r.randint(1, 128), r.choice([16, 15, 14, 13, 12])),
    "node": lambda r: (r.randint(1, 128), r.choice([16, 15, 14, 13, 12, 8, 4])),
}


def gcmkit_cases(peer, seed):
    r = random.Random(seed)
    lines = []
    for _ in range(N):
        key = r.randbytes(r.choice([16, 24, 32]))
        nlen, tlen = PEERS[peer](r)
        iv, aad = r.randbytes(nlen), r.randbytes(r.randint(0, 99))
        pt = r.randbytes(r.choice([0, 1, 15, 16, 17, r.randint(0, 5000)]))
        out = gcmkit.AesGcm(key, tag_length=tlen).encrypt(iv, pt, aad)
        lines.append(" ".join(map(hx, [key, iv, aad, pt, out[: len(pt)], out[len(pt) :]])))
    return "\n".join(lines) + "\n"


def peer_verify_counts(peer, stdout):
    """The (passed, failed) a peer's `verify` reports: its one line `PEER verify: P passed,
    F failed`. Without that line, all N cases count as failed."""
    m = re.fullmatch(rf"{peer} verify: (\d+) passed, (\d+) failed", stdout.strip())
    if not m:
        print(f"  {peer} verify printed no count line")
        return 0, N
    return int(m[1]), int(m[2])


def gcmkit_verify(text):
    ok = bad = 0
    lines = text.splitlines()
    if len(lines) != N or not all(line.strip() for line in lines):
        # Every generated case must be there: fewer lines would pass fewer checks.
        print(f"  expected {N} cases, got {len(lines)} lines ({sum(1 for x in lines if x.strip())} non-empty)")
        bad += N
    for line in lines:
        if not line.strip():
            continue
        key, iv, aad, pt, ct, tag = map(unhex, line.split())
        c = gcmkit.AesGcm(key, tag_length=len(tag))
        try:
            good = c.decrypt(iv, ct + tag, aad) == pt and c.encrypt(iv, pt, aad) == ct + tag
        except Exception:
            good = False
        ok, bad = ok + good, bad + (not good)
    return ok, bad


def build(work):
    subprocess.run(["go", "build", "-o", os.path.join(work, "go-interop"), "."], cwd=os.path.join(HERE, "go"), check=True, env={**os.environ, "GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local"})
    subprocess.run(["javac", "-d", work, os.path.join(HERE, "java", "Interop.java")], check=True)
    return {
        "go": [os.path.join(work, "go-interop")],
        "java": ["java", "-cp", work, "Interop"],
        "node": ["node", os.path.join(HERE, "node", "interop.js")],
    }


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        cmds = build(work)
        for i, (peer, cmd) in enumerate(cmds.items()):
            path = os.path.join(work, f"gcmkit-for-{peer}.txt")
            with open(path, "w") as f:
                f.write(gcmkit_cases(peer, 1000 + i))
            r = subprocess.run(cmd + ["verify", path], capture_output=True, text=True)
            print(f"gcmkit -> {peer}: {r.stdout.strip()}")
            ok, bad = peer_verify_counts(peer, r.stdout)
            if r.returncode == 0 and (ok, bad) == (N, 0):
                passed += N
            else:
                if ok + bad != N:
                    print(f"  {peer} verified {ok + bad} cases, not the {N} written")
                failed += N
                print(r.stderr[-2000:])
            gen = subprocess.run(cmd + ["generate", str(N), str(2000 + i)], capture_output=True, text=True, check=True)
            ok, bad = gcmkit_verify(gen.stdout)
            print(f"{peer} -> gcmkit: {ok} passed, {bad} failed")
            passed, failed = passed + ok, failed + bad
    # AES-GCM-SIV against pyca/cryptography (OpenSSL 3), both directions.
    r = random.Random(7)
    ok = bad = 0
    for _ in range(N):
        key, nonce = r.randbytes(r.choice([16, 32])), r.randbytes(12)
        aad, pt = r.randbytes(r.randint(0, 99)), r.randbytes(r.choice([0, 1, 16, 17, r.randint(0, 5000)]))
        a = gcmkit.AESGCMSIV(key).encrypt(nonce, pt, aad)
        b = PycaSIV(key).encrypt(nonce, pt, aad)
        good = a == b and PycaSIV(key).decrypt(nonce, a, aad) == pt and gcmkit.AESGCMSIV(key).decrypt(nonce, b, aad) == pt
        ok, bad = ok + good, bad + (not good)
    print(f"gcmkit <-> pyca AES-GCM-SIV: {ok} passed, {bad} failed")
    passed, failed = passed + ok, failed + bad
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
