#!/usr/bin/env python3
"""rt_env.py - GPU test: liborionrt under bad settings.

For programs built with orion-cc (benchmarks/programs; each prints
`RESULT ... check=PASS ... checksum=<hex>`), every case below must give
  - the program's normal exit status, its CPU check PASS and the same output
    checksum as ORION_MODE=off (never a wrong result),
  - exactly the expected `orion: warning:` line(s) on stderr, one line each,
    naming the problem (never a crash, never a flood of messages),
and with no GPU visible the program's own CUDA error (no signal, no hang).
Cases: bad ORION_MODE, ORION_SPLIT, ORION_RECHECK and ORION_BUDGET values, an over-long ORION_REPORT path, a report path
in a missing directory, an unwritable cache (missing directory under a
file, a directory as the cache file, a read-only directory), a corrupt
cache file (binary garbage and half lines: skipped, counted, tuning
afresh), a cache file that is a directory, and CUDA_VISIBLE_DEVICES="".
Exit 0 when every case holds, 1 otherwise, 77 (skipped) without a GPU.

usage: rt_env.py --bin-dir DIR [--programs a,b] [--args "-s small"]
"""
import argparse
import os
import re
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_modes  # noqa: E402  (its runner and GPU probe)


def run(binary, args, env_extra):
    """rt_modes.run plus the runtime's own stderr lines ("orion: ...")."""
    rc, fields, _, err = rt_modes.run(binary, args, env_extra)
    return rc, fields, [line for line in err.splitlines() if line.startswith("orion:")], err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--programs", default="backprop,hotspot,nlm_denoise")
    ap.add_argument("--args", default="-s small")
    o = ap.parse_args()
    if not rt_modes.have_gpu():
        print("SKIP: no CUDA GPU on this machine (rt_env needs one)")
        return 77
    args = o.args.split()
    tmp = tempfile.mkdtemp(prefix="orion-rt-env-")
    afile = os.path.join(tmp, "a-file")
    open(afile, "w").close()
    rodir = os.path.join(tmp, "ro")
    os.mkdir(rodir)
    os.chmod(rodir, stat.S_IRUSR | stat.S_IXUSR)
    corrupt = os.path.join(tmp, "corrupt")
    adir = os.path.join(tmp, "a-dir")
    os.mkdir(adir)
    # (name, env, expected warning regexes in order; [] = none)
    cases = [
        ("mode-bogus", {"ORION_MODE": "sometimes"}, [r"ORION_MODE='sometimes' is not"]),
        ("split-bogus", {"ORION_SPLIT": "yes"}, [r"ORION_SPLIT='yes' is not 0, 1 or always"]),
        ("recheck-bogus", {"ORION_RECHECK": "-5"}, [r"ORION_RECHECK='-5' is not a number"]),
        ("recheck-off", {"ORION_RECHECK": "0"}, []),
        ("budget-bogus", {"ORION_BUDGET": "2"}, [r"ORION_BUDGET='2' is not a fraction in 0\.\.0\.5"]),
        ("budget-off", {"ORION_BUDGET": "0"}, []),
        ("mode-fixed-empty", {"ORION_MODE": "fixed:"}, [r"ORION_MODE='fixed:' is not"]),
        ("mode-fixed-unknown", {"ORION_MODE": "fixed:r999"},
         [r"ORION_MODE=fixed: kernel \S+ has no version r999"]),
        ("report-long", {"ORION_REPORT": "/" + "x" * 5000}, [r"ORION_REPORT path too long"]),
        ("report-missing-dir", {"ORION_REPORT": os.path.join(tmp, "no", "such", "r.json")},
         [r"cannot write the report to .*no/such/r\.json"]),
        ("cache-under-file", {"ORION_CACHE": os.path.join(afile, "sub", "decisions")},
         [r"cannot (read|write) the decision cache .*a-file"]),
        ("cache-is-dir", {"ORION_CACHE": adir},
         [r"cannot (read|write) the decision cache .*a-dir"]),
        ("cache-readonly-dir", {"ORION_CACHE": os.path.join(rodir, "decisions")},
         [r"cannot write the decision cache .*ro/decisions"]),
        ("cache-corrupt", {"ORION_CACHE": corrupt},
         [r"corrupt:\d+: malformed decision cache line \(\d+ in all\)"]),
        ("cache-long", {"ORION_CACHE": "/" + "c" * 5000}, [r"ORION_CACHE path too long"]),
    ]
    failures = 0
    for prog in [p for p in o.programs.split(",") if p]:
        b = os.path.join(o.bin_dir, prog)
        rc, ref, w, err = run(b, args, {"ORION_MODE": "off"})
        if rc != 0 or ref.get("check") != "PASS" or w:
            print(f"FAIL {prog} off: rc {rc} {ref} {w} {err[-300:]}")
            failures += 1
            continue
        for name, env, want in cases:
            if name == "cache-readonly-dir" and os.geteuid() == 0:
                print(f"skip {prog} {name}: running as root, a read-only directory is writable")
                continue
            if name == "cache-corrupt":
                with open(corrupt, "wb") as f:
                    f.write(os.urandom(300) + b"\norion-cache 1\nhalf a line without fields\n"
                            + b"\xff\xfe\x00\x01" * 20)
            # A cache path that can never be written is reported when the
            # cache is first read, not at exit: a run whose tuning settles
            # nothing would never try to write (hotspot, small inputs).
            rc, res, w, err = run(b, args, env)
            problems = []
            if rc != 0 or res.get("check") != "PASS":
                problems.append(f"rc {rc} check {res.get('check')}")
            if res.get("checksum") != ref.get("checksum"):
                problems.append(f"checksum {res.get('checksum')} != off's {ref.get('checksum')}")
            # Every line matches an expected warning, each expected warning
            # appears, and no line repeats (one warning per problem; "no
            # version" is one line per kernel).
            if (any(not any(re.search(p, x) for p in want) for x in w)
                    or any(not any(re.search(p, x) for x in w) for p in want)
                    or len(set(w)) != len(w)):
                problems.append(f"warnings {w} (want {want})")
            if any(len(x) > 400 for x in w):
                problems.append("a warning longer than a line")
            print(("FAIL" if problems else "ok  ") + f" {prog} {name}" +
                  (": " + "; ".join(problems) if problems else f": {w[0] if w else '(none)'}"))
            failures += bool(problems)
        # No GPU visible: the program's own CUDA error, no signal, no hang.
        rc, res, w, err = run(b, args, {"CUDA_VISIBLE_DEVICES": ""})
        ok = rc > 0 and not res and len(w) <= 1
        print(("ok  " if ok else "FAIL") + f" {prog} no-gpu: rc {rc}, orion lines {w}, "
              f"program said: {err.strip().splitlines()[-1] if err.strip() else '(nothing)'}")
        failures += not ok
    os.chmod(rodir, stat.S_IRWXU)
    print(f"rt_env: {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
