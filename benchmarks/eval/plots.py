"""plots.py - the PNG figures of analyze.py (matplotlib, Agg backend).

fig11_speedup.png    per program: Orion-Min, Orion-Max, Orion-Select (kernel
                     time and whole run incl. tuning), clang -O3 and the spill-policy
                     build, each as speedup over nvcc -O3 (paper Fig. 11);
fig12_resources.png  per tuned kernel of the low-pressure class: resident
                     registers x threads and program time of the equal-speed
                     choice and of Select's choice, relative to the original
                     (paper Fig. 12);
fig13_energy.png     GPU energy per repetition relative to nvcc (Fig. 13);
fig14_occupancy.png  per tuned kernel: program time (relative to the fastest
                     version) against the version's occupancy (Fig. 14/15).
Every file is written to a temporary name and renamed.
"""
import os

import matplotlib.pyplot as plt


def _save(fig, path):
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=110, bbox_inches="tight")
    plt.close(fig)
    os.replace(tmp, path)


def _bars(ax, labels, series, ylabel, ref=1.0):
    n = len(series)
    w = 0.8 / max(n, 1)
    for i, (name, vals) in enumerate(series):
        xs = [j + (i - (n - 1) / 2) * w for j in range(len(labels))]
        ax.bar(xs, [v if v is not None else 0 for v in vals], w, label=name)
    ax.axhline(ref, color="black", linewidth=0.8)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=40, ha="right")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8, ncol=3)
    ax.grid(axis="y", alpha=0.3)


def all_plots(d, table, krows, vrows):
    t = sorted(table, key=lambda r: (r["class"] != "high", r["program"]))
    labels = [f"{r['program']} ({r['class']})" for r in t]
    fig, ax = plt.subplots(figsize=(12, 4.5))
    series = [("Orion-Min", [r["min_over_nvcc"] for r in t]),
              ("Orion-Max", [r["max_over_nvcc"] for r in t]),
              ("Orion-Select (kernel)", [r["speedup_nvcc"] for r in t]),
              ("Orion-Select (incl. tuning)", [r["speedup_nvcc_total"] for r in t]),
              ("clang -O3", [r["nvcc_ms"] / r["clang_ms"] if r["nvcc_ms"] and r["clang_ms"]
                             else None for r in t])]
    if any(r["spill_over_nvcc"] for r in t):
        series.append(("--orion-spill=pragma Select", [r["spill_over_nvcc"] for r in t]))
    if any(r["localspill_over_nvcc"] for r in t):
        series.append(("--orion-spill=off Select", [r["localspill_over_nvcc"] for r in t]))
    _bars(ax, labels, series, "speedup over nvcc -O3 (nvcc = 1)")
    ax.set_title("Fig. 11 analogue: speedup over nvcc -O3, H200")
    _save(fig, os.path.join(d, "fig11_speedup.png"))

    low = [k for k in krows if k["class"] == "low"]
    if low:
        fig, ax = plt.subplots(figsize=(10, 4))
        lab = [f"{k['program']}:{k['kernel']}" for k in low]
        sel_t = [1 + k["select_slowdown"] if k["select_slowdown"] is not None else None
                 for k in low]
        _bars(ax, lab, [
            ("regs x threads, equal-speed choice", [1 - k["saving"] for k in low]),
            ("time, equal-speed choice (rel. fastest)", [1 + k["slowdown"] for k in low]),
            ("regs x threads, Select's choice",
             [1 - k["select_saving"] if k["select_saving"] is not None else None for k in low]),
            ("time, Select (rel. fastest)", sel_t)],
            "relative to the original version")
        ax.set_title("Fig. 12 analogue: resources at equal speed, low-pressure class")
        _save(fig, os.path.join(d, "fig12_resources.png"))

    en = [r for r in t if r["energy_nvcc_mj"]]
    if en:
        fig, ax = plt.subplots(figsize=(10, 4))
        _bars(ax, [r["program"] for r in en], [
            ("Orion-Select", [r["energy_select_rel"] for r in en]),
            ("Orion-Max", [r["energy_max_rel"] for r in en]),
            ("equal-speed low-resource", [r["energy_lowres_rel"] for r in en])],
            "GPU energy per repetition (nvcc = 1)")
        ax.set_title("Fig. 13 analogue: energy (NVML total energy, per repetition)")
        _save(fig, os.path.join(d, "fig13_energy.png"))

    kern = sorted({(v["program"], v["kernel"]) for v in vrows})
    if kern:
        cols = 4
        rows = (len(kern) + cols - 1) // cols
        fig, axs = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.6 * rows), squeeze=False)
        for i, (p, k) in enumerate(kern):
            ax = axs[i // cols][i % cols]
            pts = sorted((v["occupancy"], v["rel_best"], v["tag"]) for v in vrows
                         if v["program"] == p and v["kernel"] == k and v["rel_best"])
            ax.plot([x[0] for x in pts], [x[1] for x in pts], "o-")
            for x, y, tag in pts:
                ax.annotate(tag, (x, y), fontsize=7, xytext=(2, 2), textcoords="offset points")
            ax.set_title(f"{p}: {k}", fontsize=8)
            ax.set_xlim(0, 1.05)
            ax.set_xlabel("occupancy (warps / max)", fontsize=7)
            ax.set_ylabel("time / fastest", fontsize=7)
            ax.tick_params(labelsize=7)
            ax.grid(alpha=0.3)
        for j in range(len(kern), rows * cols):
            axs[j // cols][j % cols].axis("off")
        fig.suptitle("Fig. 14/15 analogue: program time vs occupancy of each version alone")
        fig.tight_layout()
        _save(fig, os.path.join(d, "fig14_occupancy.png"))
