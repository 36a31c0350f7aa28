"""Draws docs/perf/engines.png from docs/perf/engines.json (written by gcmkit-bench)."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

src = sys.argv[1] if len(sys.argv) > 1 else "docs/perf/engines.json"
dst = sys.argv[2] if len(sys.argv) > 2 else "docs/perf/engines.png"
doc = json.load(open(src))
rows = [r for r in doc["rows"] if not r["ipi"]]
panels = [("AES-128-GCM", "encrypt"), ("AES-128-GCM", "decrypt"), ("AES-256-GCM", "encrypt"),
          ("AES-128-GCM-SIV", "encrypt"), ("AES-128-GCM-SIV", "decrypt"), ("AES-128-GMAC", "encrypt")]
fig, axes = plt.subplots(2, 3, figsize=(16, 9), sharex=True)
for ax, (alg, op) in zip(axes.flat, panels):
    sel = sorted((r for r in rows if r["alg"] == alg and r["op"] == op), key=lambda r: r["size"])
    if not sel:
        continue
    for name in sel[0]["gbps"]:
        if name == "gcmkit-portable":
            continue
        style = "-" if name.startswith("gcmkit") else "--"
        ax.plot([r["size"] for r in sel], [r["gbps"][name] for r in sel], style, marker="o", ms=3, label=name)
    ax.set_xscale("log", base=2)
    ax.set_title(f"{alg} {op}")
    ax.set_ylabel("GB/s")
    ax.grid(True, alpha=0.3)
axes.flat[0].legend(fontsize=8)
for ax in axes[1]:
    ax.set_xlabel("message bytes")
fig.suptitle(f"gcmkit engines vs peers (same process; clock {doc['clock_ghz']:.2f} GHz measured)")
fig.tight_layout()
fig.savefig(dst, dpi=110)
print("wrote", dst)
