"""make hw-synth's last step: measured clocks per packet for every multiplier at Table 1's
sizes (cycles.json) and the area-against-throughput plot (area-throughput.png).

Usage: python -m gcmkit_hw.report RESULTS_DIR   (reads RESULTS_DIR/synth.json)
"""
import json
import math
import os
import sys

from .cli import ipi, measure_cycles
from .files import write_atomic
from .ghash import MULTIPLIERS

TABLE1_SIZES = [16, 20, 40, 44, 64, 128, 256, 552, 576, 1024, 1500, 8192]
TABLE1_GCM = [64.0, 71.1, 91.4, 93.9, 102, 114, 120, 124, 124, 126, 127, 128]
TABLE1_GCM_IPI = 77.7


def cycles_table() -> dict:
    out = {"sizes": TABLE1_SIZES, "paper_table1": TABLE1_GCM, "paper_table1_ipi": TABLE1_GCM_IPI,
           "text_formula": [8 * s / (math.ceil(s / 16) + 1) for s in TABLE1_SIZES],
           "table_formula": [8 * s / (s / 16 + 1) for s in TABLE1_SIZES], "measured": {}}
    for f in ("text_formula", "table_formula"):
        out[f + "_ipi"] = ipi(dict(zip(TABLE1_SIZES, out[f])))
    for m in MULTIPLIERS:
        rows = [measure_cycles(s, m, packets=3) for s in TABLE1_SIZES]
        bpc = {r["size"]: r["bits_per_clock"] for r in rows}
        out["measured"][m] = {"rows": rows, "ipi": ipi(bpc)}
        print(m, [r["clocks"] for r in rows], f"IPI {ipi(bpc):.1f}", flush=True)
    return out


def plot(synth: dict, cycles: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for m in MULTIPLIERS:
        u = synth["units"].get(f"core-{m}")
        if not u or "ecp5" not in u:
            continue
        gates = u["generic"]["gates_2input"]
        gbps = cycles["measured"][m]["ipi"] * u["ecp5"]["fmax_mhz"] / 1000
        ax.scatter(gates / 1000, gbps)
        ax.annotate(m, (gates / 1000, gbps), textcoords="offset points", xytext=(5, 5))
    ax.axhline(10, linestyle="--", color="grey")
    ax.text(ax.get_xlim()[0], 10.3, "10 Gbit/s (GMAC paper)", color="grey")
    ax.set_xlabel("area: whole core, thousands of 2-input gates (Yosys generic)")
    ax.set_ylabel("Gbit/s on the IPI mix (IPI bits/clock x ECP5 Fmax)")
    ax.set_title("AES-128-GCM core per GHASH multiplier: area against throughput")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None) -> int:
    d = (argv or sys.argv[1:] or ["hw/results"])[0]
    os.makedirs(d, exist_ok=True)
    cyc = cycles_table()
    write_atomic(os.path.join(d, "cycles.json"), json.dumps(cyc, indent=1) + "\n")
    sp = os.path.join(d, "synth.json")
    if os.path.exists(sp):
        plot(json.load(open(sp)), cyc, os.path.join(d, "area-throughput.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
