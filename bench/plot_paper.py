"""Draws docs/perf/paper-tables.png from docs/perf/paper-tables.json."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

src = sys.argv[1] if len(sys.argv) > 1 else "docs/perf/paper-tables.json"
dst = sys.argv[2] if len(sys.argv) > 2 else "docs/perf/paper-tables.png"
d = json.load(open(src))
fig, ax = plt.subplots(2, 2, figsize=(15, 10))

t1 = d["table1"]
names = [r["method"] for r in t1]
ax[0, 0].barh(names, [r["cpb"] for r in t1], label="today (this machine)")
ax[0, 0].barh(names, [r.get("paper_cpb") or 0 for r in t1], alpha=0.4, label="paper (Motorola G4)")
ax[0, 0].set_xscale("log")
ax[0, 0].set_xlabel("GHASH cycles per byte (log)")
ax[0, 0].set_title("1. GHASH methods (spec Table 1)")
ax[0, 0].legend()

sizes = [16, 20, 40, 44, 64, 128, 256, 552, 576, 1024, 1500, 8192]
for r in d["table2"]:
    ax[0, 1].plot(sizes, r["bits_per_kc"], marker="o", ms=3, label=r["name"])
ax[0, 1].set_xscale("log", base=2)
ax[0, 1].set_yscale("log")
ax[0, 1].set_xlabel("packet bytes")
ax[0, 1].set_ylabel("bits per kilocycle (log)")
ax[0, 1].set_title("2. AES-128 GCM by packet size (seed 000 Table 2)")
ax[0, 1].legend(fontsize=7)

f4 = d["fig4"]
ax[1, 0].plot([r["bytes"] for r in f4], [r["ghash_cycles"] for r in f4], marker="o", label="GHASH")
ax[1, 0].plot([r["bytes"] for r in f4], [r["polyval_cycles"] for r in f4], marker="o", label="POLYVAL")
ax[1, 0].set_xscale("log", base=2)
ax[1, 0].set_yscale("log")
ax[1, 0].set_xlabel("bytes")
ax[1, 0].set_ylabel("cycles (log)")
ax[1, 0].set_title("3a. POLYVAL vs GHASH (seed 003 Fig. 4)")
ax[1, 0].legend()

for op in ("encrypt", "decrypt"):
    rows = [r for r in d["fig5"] if r["key_bits"] == 128 and r["op"] == op]
    ax[1, 1].plot([r["bytes"] for r in rows], [r["siv"] / r["gcm"] for r in rows], marker="o", label=f"AES-GCM-SIV / AES-GCM, {op}")
    ax[1, 1].plot([r["bytes"] for r in rows], [r["plus"] / r["gcm"] for r in rows], marker="x", ls="--", label=f"GCM-SIV+ / AES-GCM, {op}")
ax[1, 1].axhline(1.5, color="grey", lw=0.8)
ax[1, 1].set_xscale("log", base=2)
ax[1, 1].set_xlabel("bytes")
ax[1, 1].set_ylabel("time ratio")
ax[1, 1].set_title("3b. SIV vs GCM, AES-128 (seed 003 Fig. 5; grey: the paper's 1.5x)")
ax[1, 1].legend(fontsize=7)
fig.tight_layout()
fig.savefig(dst, dpi=100)
print("wrote", dst)
