"""benchlib.py - running one benchmark program and reading what it says.

Shared by benchmarks/eval/measure.py and benchmarks/runtime/tuning.py.

Every program of benchmarks/programs prints a line
    RESULT name=<prog> kernel_ms=<ms> iters=<n> check=PASS|FAIL total_ms=<ms> checksum=<hex>
read here by key (fields may be appended).  Programs built with orion-cc
write liborionrt's JSON report to the file named by ORION_REPORT; the
optional energy wrapper (benchmarks/eval/energy.c) writes one line
    ENERGY mj=<millijoules> wall_s=<s> gpu=<name>   |   ENERGY unsupported reason=<why> ...
"""
import json
import os
import re
import subprocess
import tempfile
import time

_RESULT = re.compile(r"^RESULT (.*)$", re.M)
_INFIX = "__orion_"  # include/orion/record.h ORION_CLONE_INFIX
_TAG = re.compile(r"[a-z]+[0-9]*$")


def clone_split(name):
    """(kernel, tag) if name is an Orion clone, else None.  The tag sits
    inside a mangled kernel's own identifier (orion/demangle.h:
    _Z5heavyPKfPfi -> _Z16heavy__orion_r32PKfPfi), else after the name
    (heavy__orion_r32)."""
    at = name.rfind(_INFIX)
    if at <= 0:
        return None
    if name.startswith("_Z"):
        s = at  # walk back to the <length> digits of the identifier holding the infix
        while s > 0 and (name[s - 1].isalnum() or name[s - 1] == "_"):
            s -= 1
            if not name[s].isdigit():
                continue
            d = s
            while d > 0 and name[d - 1].isdigit():
                d -= 1
            ident_at, n = s + 1, int(name[d:s + 1])
            tag = name[at + len(_INFIX):ident_at + n]
            if ident_at + n > at + len(_INFIX) and _TAG.match(tag):
                base = name[ident_at:at]
                return name[:d] + str(len(base)) + base + name[ident_at + n:], tag
            s = d
    tag = name[at + len(_INFIX):]
    return (name[:at], tag) if _TAG.match(tag) else None


def parse_result(stdout):
    """The key=value fields of the program's last RESULT line ({} if none)."""
    lines = _RESULT.findall(stdout)
    if not lines:
        return {}
    return dict(kv.split("=", 1) for kv in lines[-1].split() if "=" in kv)


def parse_energy(text):
    """{'mj': int, 'wall_s': float, 'gpu': str} or {'unsupported': reason} or None."""
    m = None
    for m in re.finditer(r"^ENERGY (.*)$", text, re.M):
        pass
    if not m:
        return None
    kv = dict(x.split("=", 1) for x in m.group(1).split() if "=" in x)
    if m.group(1).startswith("unsupported"):
        return {"unsupported": kv.get("reason", "?")}
    return {"mj": int(kv["mj"]), "wall_s": float(kv["wall_s"]), "gpu": kv.get("gpu", "")}


class Run:
    """One process: rc, fields (RESULT), report (ORION_REPORT JSON or None),
    energy (parse_energy or None), stderr tail, wall seconds."""

    def __init__(self, rc, fields, report, energy, stderr, wall):
        self.rc, self.fields, self.report = rc, fields, report
        self.energy, self.stderr, self.wall = energy, stderr, wall

    @property
    def passed(self):
        return self.rc == 0 and self.fields.get("check") == "PASS"


def run_program(binary, args=(), env_extra=None, report=False, energy=None, timeout=900,
                stderr_tail=2000):
    """Runs binary with args; env_extra is added to the environment, with
    ORION_CACHE=off unless it says otherwise.  report=True sets ORION_REPORT
    to a temporary file and returns the parsed JSON; energy names the energy
    wrapper binary to run the program under (None: run it directly).  The
    Run keeps the last stderr_tail characters of stderr (None: all)."""
    env = dict(os.environ)
    env.update(env_extra or {})
    env.setdefault("ORION_CACHE", "off")
    with tempfile.TemporaryDirectory(prefix="orion-bench-") as tmp:
        rep = os.path.join(tmp, "report.json")
        efile = os.path.join(tmp, "energy.txt")
        if report:
            env["ORION_REPORT"] = rep
        cmd = [binary, *args]
        if energy:
            cmd = [energy, "-o", efile, "--", *cmd]
        t0 = time.monotonic()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
            rc, out, err = r.returncode, r.stdout, r.stderr
        except subprocess.TimeoutExpired as e:
            rc, out, err = 124, e.stdout or "", f"timed out after {timeout} s"
            out = out.decode() if isinstance(out, bytes) else out
        wall = time.monotonic() - t0
        data = None
        if report and os.path.exists(rep):
            with open(rep) as f:
                data = json.load(f)
        en = None
        if energy and os.path.exists(efile):
            with open(efile) as f:
                en = parse_energy(f.read())
    return Run(rc, parse_result(out), data, en, err if stderr_tail is None else err[-stderr_tail:],
               wall)


def run_checked(binary, args=(), env_extra=None, report=False, energy=None, timeout=900):
    """run_program, raising RuntimeError unless the program passed its check."""
    r = run_program(binary, args, env_extra, report, energy, timeout)
    if not r.passed:
        raise RuntimeError(f"{binary} {' '.join(args)} {env_extra or {}}: rc {r.rc}, "
                           f"check={r.fields.get('check')}: {r.stderr[-300:]}")
    return r


def programs(bin_dir, names=""):
    """The programs to run: the comma-separated names, else every executable
    in bin_dir without a dot in its name (build logs and the like skipped)."""
    return [p for p in names.split(",") if p] or sorted(
        f for f in os.listdir(bin_dir)
        if os.access(os.path.join(bin_dir, f), os.X_OK) and "." not in f)


def tuned_configs(report):
    """The configurations of a liborionrt report with more than one version."""
    return [c for c in report["configs"] if len(c["versions"]) > 1]


def fixed_mode(choice):
    """ORION_MODE for {kernel: tag} (kernels left out run their original)."""
    if not choice:
        return "fixed:orig"
    return "fixed:" + ",".join(f"{k}={t}" for k, t in sorted(choice.items()))
