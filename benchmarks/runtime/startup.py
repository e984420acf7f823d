#!/usr/bin/env python3
"""startup.py - what liborionrt's first launches cost a program.

For each program built with orion-cc, runs alternately (--repeat times):
  off        ORION_MODE=off: the runtime steps aside (plain launches);
  orig       ORION_MODE=fixed:orig: discovery and configuration, then the
             original only (the cost of finding versions and record);
  adaptive   ORION_MODE=adaptive, no cache (Orion-Select);
under CUDA_MODULE_LOADING=LAZY (the CUDA default) and EAGER, and reports
the medians of the program's total_ms (every timed repetition including
the first) and kernel_ms.  One more adaptive run with ORION_DEBUG=1 gives
the runtime's own discovery / configuration / clone-loading times (host
microseconds, from its debug lines).  Writes <out>.csv and <out>_debug.csv.

usage: startup.py --bin-dir DIR [--programs a,b] [--repeat 5] [--out PREFIX]
"""
import argparse
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "eval"))
import benchlib  # noqa: E402


def run(binary, env_extra):
    """(RESULT fields, stderr tail); raises unless the check passed."""
    r = benchlib.run_checked(binary, (), env_extra)
    return r.fields, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--programs", default="")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default="startup")
    o = ap.parse_args()
    progs = benchlib.programs(o.bin_dir, o.programs)
    modes = {"off": "off", "orig": "fixed:orig", "adaptive": "adaptive"}
    rows, dbg_rows = [], []
    for prog in progs:
        b = os.path.join(o.bin_dir, prog)
        for loading in ("LAZY", "EAGER"):
            res = {m: [] for m in modes}
            for _ in range(o.repeat):
                for m, mode in modes.items():
                    res[m].append(run(b, {"ORION_MODE": mode, "CUDA_MODULE_LOADING": loading})[0])
            for m in modes:
                tot = statistics.median(float(x["total_ms"]) for x in res[m])
                ker = statistics.median(float(x["kernel_ms"]) for x in res[m])
                rows.append((prog, loading, m, tot, ker))
            base = statistics.median(float(x["total_ms"]) for x in res["off"])
            print(f"{prog} {loading}: total ms off {base:.3f} " + " ".join(
                f"{m} {statistics.median(float(x['total_ms']) for x in res[m]):.3f}"
                for m in modes if m != "off"), file=sys.stderr)
        _, err = run(b, {"ORION_MODE": "adaptive", "ORION_DEBUG": "1"})
        for line in err.splitlines():
            m = re.match(r"orion: debug: (discovery|configuration) of (\S+): (.*), (\d+) us$", line)
            if m:
                dbg_rows.append((prog, m.group(1), m.group(2), m.group(3), int(m.group(4))))
            m = re.match(r"orion: debug: (\S+): (function .*)$", line)
            if m:
                dbg_rows.append((prog, "discovery-steps", m.group(1), m.group(2), 0))
    with open(o.out + ".csv", "w") as f:
        f.write("program,module_loading,mode,median_total_ms,median_kernel_ms\n")
        for r in rows:
            f.write("%s,%s,%s,%.4f,%.4f\n" % r)
    with open(o.out + "_debug.csv", "w") as f:
        f.write("program,step,kernel,detail,host_us\n")
        for r in dbg_rows:
            f.write("%s,%s,%s,\"%s\",%d\n" % r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
