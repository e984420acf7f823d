"""evalcore.py - the arithmetic of the evaluation, free of any GPU or file.

Definitions (benchmarks/README.md states them for readers):
  fixed configurations  v:orig, v:<kernel>=<tag>, combo:best, combo:worst:
                        the orion build with the versions forced, no tuning;
  Orion-Max / Orion-Min the fastest / slowest fixed configuration by the
                        median of the program's kernel_ms (its own median of
                        the timed repetitions);
  Orion-Select          ORION_MODE=adaptive, no cache: kernel_ms, and total_ms
                        (every repetition incl. the warm-up: all tuning paid);
  resident regs x threads of a version: registers per thread x warps per SM
                        x 32 (the version's occupancy at its launch
                        configuration, from the runtime's report);
  equal-speed saving (Fig. 12), per tuned kernel: among the original and
                        that kernel's versions timed alone, those within
                        `tol` (1 %) of the fastest; the one with the fewest
                        resident regs x threads; saving = 1 - its / orig's.
"""
import re
import statistics

# Paper class (its Table 2) of each program of benchmarks/programs.
HIGH = ("euler_flux", "nlm_denoise", "fdtd3d", "particles", "dxtc", "recursive_gauss", "hotspot")
LOW = ("backprop", "bfs", "gaussian", "srad", "streamcluster")


def pclass(prog):
    return "high" if prog in HIGH else "low" if prog in LOW else "?"


def short_kernel(mangled):
    """_Z14adjust_weightsPKf... -> adjust_weights (the name itself otherwise)."""
    m = re.match(r"_Z(\d+)(\w+)", mangled)
    if m and int(m.group(1)) <= len(m.group(2)):
        return m.group(2)[: int(m.group(1))]
    return mangled


def kernel_versions(report):
    """{kernel: versions} of the tuned configurations of a liborionrt report
    (the first configuration of each kernel; a version is the report's dict
    with tag, regs, warps, ms_per_kblock, ...)."""
    out = {}
    for c in report.get("configs", []):
        if len(c["versions"]) > 1 and c["kernel"] not in out:
            out[c["kernel"]] = c["versions"]
    return out


def exhaustive_extremes(report):
    """({kernel: fastest tag}, {kernel: slowest tag}) of an exhaustive report
    (fastest = the runtime's choice; slowest = largest ms_per_kblock)."""
    best, worst = {}, {}
    for c in report.get("configs", []):
        if len(c["versions"]) < 2 or c["kernel"] in best:
            continue
        best[c["kernel"]] = c["chosen"]
        timed = [v for v in c["versions"] if v.get("ms_per_kblock", 0) > 0]
        if timed:
            worst[c["kernel"]] = max(timed, key=lambda v: v["ms_per_kblock"])["tag"]
    return best, worst


def report_summary(report):
    """The fields of a report that the tables use, per configuration."""
    keep = ("kernel", "block", "shmem", "source", "original", "chosen", "chosen_regs",
            "chosen_warps", "max_warps", "iterations", "launches", "split_launches", "settled_at")
    return [dict({k: c.get(k) for k in keep},
                 versions=[{"tag": v["tag"], "regs": v["regs"], "warps": v["warps"]}
                           for v in c["versions"]])
            for c in report.get("configs", [])]


def medians(rows, phase="time"):
    """{config: {kernel_ms, total_ms, n, fails, checksums}} over the passing
    runs of one program's rows of the given phase (kernel_ms/total_ms None
    when no run passed)."""
    by = {}
    for r in rows:
        if r["phase"] == phase:
            by.setdefault(r["config"], []).append(r)
    out = {}
    for cfg, rs in by.items():
        ok = [r for r in rs if r["rc"] == 0 and r["fields"].get("check") == "PASS"]
        med = lambda k: statistics.median(float(r["fields"][k]) for r in ok) if ok else None  # noqa
        out[cfg] = {"kernel_ms": med("kernel_ms"), "total_ms": med("total_ms"), "n": len(ok),
                    "fails": len(rs) - len(ok),
                    "checksums": sorted({r["fields"].get("checksum", "") for r in ok})}
    return out


def is_fixed(cfg):
    return cfg.startswith("v:") or cfg.startswith("combo:")


def extremes(med):
    """(Orion-Max config, Orion-Min config) among the fixed configurations."""
    fixed = [(m["kernel_ms"], c) for c, m in med.items() if is_fixed(c) and m["kernel_ms"]]
    if not fixed:
        return None, None
    return min(fixed)[1], max(fixed)[1]


def version_of(cfg, kernel):
    """The tag cfg runs kernel with, for v:orig and v:<kernel>=<tag>."""
    if cfg == "v:orig":
        return "orig"
    if cfg.startswith("v:" + kernel + "="):
        return cfg[len("v:" + kernel + "="):]
    return None


def equal_speed(med, report, tol=0.01):
    """Fig. 12 per tuned kernel of the exhaustive report:
    [{kernel, best_cfg, best_ms, choice, choice_ms, slowdown, orig_rt, choice_rt,
      saving, versions: [(tag, regs, warps, rt, ms)]}]; rt = regs x warps x 32."""
    out = []
    for k, vs in kernel_versions(report).items():
        rows = []
        for v in vs:
            cfg = "v:orig" if v["tag"] == "orig" else f"v:{k}={v['tag']}"
            ms = med.get(cfg, {}).get("kernel_ms")
            rows.append((v["tag"], v["regs"], v["warps"], v["regs"] * v["warps"] * 32, ms, cfg))
        timed = [r for r in rows if r[4]]
        orig = [r for r in rows if r[0] == "orig"]
        if not timed or not orig:
            continue
        best = min(timed, key=lambda r: r[4])
        eq = [r for r in timed if r[4] <= best[4] * (1 + tol)]
        choice = min(eq, key=lambda r: (r[3], r[4]))
        out.append({"kernel": k, "best_cfg": best[5], "best_ms": best[4], "choice": choice[0],
                    "choice_cfg": choice[5], "choice_ms": choice[4],
                    "slowdown": choice[4] / best[4] - 1, "orig_rt": orig[0][3],
                    "choice_rt": choice[3], "saving": 1 - choice[3] / orig[0][3],
                    "versions": [r[:5] for r in rows]})
    return out


def energy_configs(med, report):
    """{config name: ORION_MODE} measured for Fig. 13: nvcc, select, Orion-Max
    and the equal-speed low-resource choice (one fixed: list over kernels)."""
    pick = {"nvcc": "", "select": "adaptive"}
    mx, _ = extremes(med)
    if mx:
        pick[mx] = ""
    es = equal_speed(med, report)
    if len(es) == 1:
        pick[es[0]["choice_cfg"]] = ""
    elif es:
        choice = {e["kernel"]: e["choice"] for e in es if e["choice"] != "orig"}
        pick["lowres"] = "fixed:" + ",".join(f"{k}={t}" for k, t in sorted(choice.items())) \
            if choice else "fixed:orig"
    return pick


def energy_per_rep(rows):
    """{config: (mJ per repetition, lo, hi, dE mJ)} from one program's energy_r<N> rows:
    (median energy at the most repetitions - at the fewest) / (their difference);
    None where a level has no reading."""
    out = {}
    for cfg in sorted({r["config"] for r in rows if r["phase"].startswith("energy_r")}):
        lv = {}
        for r in rows:
            if r["config"] == cfg and r["phase"].startswith("energy_r"):
                e = r["energy"]
                ok = r["rc"] == 0 and e and "mj" in e
                lv.setdefault(int(r["phase"][len("energy_r"):]), []).append(e["mj"] if ok else None)
        lo, hi = min(lv), max(lv)
        if lo == hi or None in lv[lo] or None in lv[hi]:
            out[cfg] = None
            continue
        de = statistics.median(lv[hi]) - statistics.median(lv[lo])
        out[cfg] = (de / (hi - lo), lo, hi, de)
    return out


def geomean(xs):
    xs = [x for x in xs if x]
    if not xs:
        return None
    p = 1.0
    for x in xs:
        p *= x
    return p ** (1.0 / len(xs))
