"""make hw-synth's last step: measured clocks per packet for every multiplier at Table 1's
sizes (cycles.json) and the area-against-throughput plot (area-throughput.png).

Usage: python -m gcmkit_hw.report RESULTS_DIR [--reuse-cycles]   (reads RESULTS_DIR/synth.json;
--reuse-cycles keeps an existing cycles.json instead of simulating again)
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


def _fmax(entry: dict):
    """(MHz, how) of a unit: routed, or estimated after placement; None if neither."""
    if "ecp5" in entry:
        return entry["ecp5"]["fmax_mhz"], "routed"
    q = entry.get("ecp5_placed_only")
    if q and q.get("fmax_mhz_after_placement"):
        return q["fmax_mhz_after_placement"], "after placement"
    return None


def core_estimates(synth: dict, cycles: dict) -> dict:
    """Per multiplier: the core's area and Fmax.

    Area: the measured core when synthesized, else the parallel core's figure with the
    parallel GHASH unit swapped for this one (same AES pipeline and glue). Fmax: the
    measured core's, else the slower of the AES pipeline and the GHASH unit placed alone
    (both register to register); None when neither was placed."""
    u = synth["units"]
    out = {}
    for m in MULTIPLIERS:
        core, gh = u.get(f"core-{m}", {}), u.get(f"ghash-{m}", {})
        if "generic" in core:
            gates, how = core["generic"]["gates_2input"], "measured"
        elif "generic" in gh and "generic" in u.get("core-parallel", {}):
            gates = (u["core-parallel"]["generic"]["gates_2input"]
                     - u["ghash-parallel"]["generic"]["gates_2input"]
                     + gh["generic"]["gates_2input"])
            how = "parallel core with this GHASH unit"
        else:
            continue
        fmax, fmax_from = None, None
        if "ecp5" in core:
            fmax, fmax_from = core["ecp5"]["fmax_mhz"], "core routed"
        else:
            # routed figures where there are, nextpnr's after-placement estimate otherwise
            parts = [_fmax(gh), _fmax(u.get("aes", {}))]
            if all(parts):
                fmax = min(f for f, _ in parts)
                fmax_from = "min of AES and GHASH units: " + ", ".join(w for _, w in parts)
        ipi_bpc = cycles["measured"][m]["ipi"]
        out[m] = {"gates": gates, "gates_from": how, "fmax_mhz": fmax, "fmax_from": fmax_from,
                  "ipi_bits_per_clock":
                  ipi_bpc, "ipi_gbit_s": None if fmax is None else ipi_bpc * fmax / 1000}
    return out


def plot(est: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    placed = {m: e for m, e in est.items() if e["ipi_gbit_s"] is not None}
    fig, axes = plt.subplots(1, 2 if placed else 1, figsize=(11 if placed else 6, 4.5),
                             squeeze=False)
    ax = axes[0][0]
    for m, e in est.items():
        ax.scatter(e["gates"] / 1000, e["ipi_bits_per_clock"])
        ax.annotate(m, (e["gates"] / 1000, e["ipi_bits_per_clock"]),
                    textcoords="offset points", xytext=(5, -12 if m == "evenodd" else 4))
    ax.set_xlabel("core area, thousands of 2-input gates (Yosys generic)")
    ax.set_ylabel("IPI, bits per clock (measured)")
    ax.set_title("area against bits per clock")
    ax.grid(alpha=0.3)
    if placed:
        ax = axes[0][1]
        for m, e in placed.items():
            ax.scatter(e["gates"] / 1000, e["ipi_gbit_s"])
            ax.annotate(m, (e["gates"] / 1000, e["ipi_gbit_s"]), textcoords="offset points",
                        xytext=(5, -12 if m == "evenodd" else 4))
        ax.axhline(10, linestyle="--", color="grey")
        ax.text(ax.get_xlim()[0], 10.2, " 10 Gbit/s (GMAC paper)", color="grey")
        ax.set_xlabel("core area, thousands of 2-input gates (Yosys generic)")
        ax.set_ylabel("Gbit/s on the IPI mix (bits/clock x ECP5 Fmax)")
        estimated = [m for m, e in placed.items() if "after placement" in e["fmax_from"]]
        if estimated:
            ax.text(0.02, 0.78, "Fmax: slower of the AES and GHASH units; after-placement\n"
                    f"estimates (routing unfinished) enter {', '.join(estimated)}",
                    transform=ax.transAxes, fontsize=7, color="grey")
        ax.set_title("area against throughput (LFE5UM-85F)")
        ax.grid(alpha=0.3)
    fig.suptitle("AES-128-GCM core per GHASH multiplier")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv=None) -> int:
    d = (argv or sys.argv[1:] or ["hw/results"])[0]
    os.makedirs(d, exist_ok=True)
    cp = os.path.join(d, "cycles.json")
    if "--reuse-cycles" in (argv or sys.argv[1:]) and os.path.exists(cp):
        cyc = json.load(open(cp))
    else:
        cyc = cycles_table()
        write_atomic(cp, json.dumps(cyc, indent=1) + "\n")
    sp = os.path.join(d, "synth.json")
    if os.path.exists(sp):
        est = core_estimates(json.load(open(sp)), cyc)
        write_atomic(os.path.join(d, "cores.json"), json.dumps(est, indent=1) + "\n")
        plot(est, os.path.join(d, "area-throughput.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
