#!/usr/bin/env python3
"""difftest.py - the frame-to-shared rewrite (sass/rewrite.c) checked by
disassembly: every line the rewrite changed is one it meant to change.

  difftest.py ORION_SASS NVDISASM CUOBJDUMP WORKDIR CUBIN...

For each cubin: `orion-sass frame` and `info` must succeed; `orion-sass
rewrite --smem-frame --no-dynamic-smem --block 32` writes WORKDIR/<name>.rw.cubin,
which `orion-sass info`, `cuobjdump -elf` and `nvdisasm` must read without
error.  Then, per function of the nvdisasm listing (`nvdisasm -c`):
  - a function the rewrite left alone disassembles identically;
  - a rewritten kernel is the 10-instruction prologue (S2R SR_TID.X/Y/Z,
    S2R SR_CgaCtaId, LDC c[0x0][0x0]/[0x4], three IMADs, IMAD R1) followed
    by the old code line for line, where the only differences are
    LDL/STL [R1+off] -> LDS/STS [R1+off'] with the same guard, data
    registers and width, off' = region + (off / G) * N * G + off % G as the
    rewrite reported it, and the entry's LDC R1 / R1 moves -> NOP;
  - every EXIT_INSTR_OFFSETS entry is an EXIT instruction, and every
    EIATTR_ANNOTATIONS offset carries nvdisasm's annotation;
  - `orion-sass info` reports frame 0 and the grown shared size;
  - a kernel that had no .nv.shared.<k> has one now (readelf -S: NOBITS,
    flags WAI, sh_info its text section), with a section symbol, inside the
    writable LOAD segment (readelf -l), and max-threads 32 in `info` when it
    had no launch bounds.
At least one kernel must have been rewritten over all cubins (the test
cannot pass vacuously); exit 1 on the first mismatch, with the lines.
"""
import os
import re
import subprocess
import sys

PROLOGUE = [
    r"S2R R0, SR_TID\.X",
    r"S2R R2, SR_TID\.Y",
    r"S2R R3, SR_TID\.Z",
    r"S2R R4, SR_CgaCtaId",
    r"LDC R5, c\[0x0\]\[(RZ|0x0)\]",
    r"LDC R6, c\[0x0\]\[0x4\]",
    r"IMAD R3, R3, R6, R2",
    r"IMAD R3, R3, R5, R0",
    r"IMAD(\.SHL)? R3, R3, 0x{g}, RZ",
    r"IMAD R1, R4, 0x1000000, R3",
]
LOCAL = re.compile(r"^(@!?P\d )?(LDL|STL)((?:\.LU)?)((?:\.64|\.128)?) (.*)$")
MEMOP = re.compile(r"\[R1(?:\+(-?0x[0-9a-f]+))?\]")
INSN = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*(\(\*.*\*\))?\s*;?\s*$")


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.stdout


def listing(nvdisasm, cubin):
    """{function: [(addr, text, annotation)]} of `nvdisasm -c`."""
    funcs, cur = {}, None
    for line in run([nvdisasm, "-c", cubin]).splitlines():
        m = re.match(r"^([^\s.][^:\s]*):$", line)
        if m:
            cur = m.group(1)
            funcs.setdefault(cur, [])
            continue
        m = INSN.match(line)
        if m and cur:
            text = re.sub(r"\s+", " ", m.group(2).rstrip(" ;"))
            funcs[cur].append((int(m.group(1), 16), text, m.group(3) or ""))
    return funcs


def eiattr_offsets(sass, cubin):
    """{kernel: {'exit': [...], 'annot': [...]}} from `orion-sass dump`."""
    out, sec = {}, None
    for line in run([sass, "dump", cubin]).splitlines():
        m = re.match(r"^\.nv\.info\.(\S+) \(", line)
        if m:
            sec = m.group(1)
            continue
        m = re.match(r"^\s+\[0x[0-9a-f]+\] EIATTR_(EXIT_INSTR_OFFSETS|ANNOTATIONS) EIFMT_SVAL size \d+:(.*)$", line)
        if m and sec:
            words = [int.from_bytes(bytes.fromhex(w), "little") for w in m.group(2).split()]
            key = "exit" if m.group(1).startswith("EXIT") else "annot"
            out.setdefault(sec, {})[key] = words if key == "exit" else words[1::2]
    return out


def check_kernel(name, old, new, rep):
    g, n, region = rep["gran"], rep["threads"], rep["region"]
    if len(new) != len(old) + len(PROLOGUE):
        return "has %d instructions, expected %d + %d" % (len(new), len(old), len(PROLOGUE))
    for k, pat in enumerate(PROLOGUE):
        if not re.fullmatch(pat.format(g="%x" % g), new[k][1]):
            return "prologue line %d is '%s', expected /%s/" % (k, new[k][1], pat)
    changed = 0
    for (oa, ot, oann), (na, nt, nann) in zip(old, new[len(PROLOGUE):]):
        if na != oa + 16 * len(PROLOGUE):
            return "address 0x%x moved to 0x%x" % (oa, na)
        if oann != nann:
            return "annotation at 0x%x: '%s' became '%s'" % (oa, oann, nann)
        if ot == nt:
            continue
        changed += 1
        if nt == "NOP" and (re.fullmatch(r"LDC R1, c\[0x0\]\[0x[0-9a-f]+\]", ot) or
                            re.fullmatch(r"(IADD3 R1, R1, -?0x[0-9a-f]+, RZ|VIADD R1, R1, 0x[0-9a-f]+)", ot)):
            continue
        m = LOCAL.match(ot)
        if not m:
            return "unexpected change at 0x%x: '%s' -> '%s'" % (oa, ot, nt)
        mo = MEMOP.search(m.group(5))
        if not mo:
            return "local access at 0x%x not [R1+imm]: '%s'" % (oa, ot)
        off = int(mo.group(1) or "0", 16)
        noff = region + (off // g) * n * g + off % g
        want = "%s%s%s %s" % (m.group(1) or "", "LDS" if m.group(2) == "LDL" else "STS", m.group(4),
                              MEMOP.sub("[R1+0x%x]" % noff, m.group(5)))
        if nt != want:
            return "at 0x%x: '%s' -> '%s', expected '%s'" % (oa, ot, nt, want)
    return None if changed else "rewritten but no line changed"


def check_added(rw, f, info, had_bounds):
    """The .nv.shared.<f> the rewrite added, as ptxas writes one."""
    name = ".nv.shared." + f
    secs = run(["readelf", "-SW", rw])
    m = re.search(r"\[\s*(\d+)\] %s\s+NOBITS\s+\S+\s+\S+\s+(\S+)\s+\S+\s+WAI\s+0\s+(\d+)" % re.escape(name), secs)
    t = re.search(r"\[\s*(\d+)\] \.text\.%s\s" % re.escape(f), secs)
    if not m or not t or m.group(3) != t.group(1):
        sys.exit("FAIL: %s: %s missing or not NOBITS/WAI/info=text:\n%s" % (rw, name, secs))
    syms = run(["readelf", "-sW", rw])
    if not re.search(r"SECTION\s+LOCAL\s+DEFAULT\s+%s %s$" % (m.group(1), re.escape(name)), syms, re.M):
        sys.exit("FAIL: %s: no section symbol for %s" % (rw, name))
    segs = run(["readelf", "-lW", rw])
    rwseg = re.search(r"LOAD\s+\S+\s+\S+\s+\S+\s+0x0+\s+(0x[0-9a-f]+)\s+RW ", segs)
    if not rwseg or int(rwseg.group(1), 16) < int(m.group(2), 16) or not re.search(r"^\s+\d+\s+.*%s" % re.escape(name), segs, re.M):
        sys.exit("FAIL: %s: the writable segment does not hold %s:\n%s" % (rw, name, segs))
    if not had_bounds and not re.search(r"^kernel %s: .* max-threads 32x1x1 " % re.escape(f), info, re.M):
        sys.exit("FAIL: %s: %s: no EIATTR_MAX_THREADS 32x1x1 added" % (rw, f))
    print("ok: %s: %s added (size %s)" % (os.path.basename(rw), name, m.group(2)))
    return 1


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    sass, nvdisasm, cuobjdump, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    total = added = 0
    for cubin in sys.argv[5:]:
        base = os.path.join(work, os.path.basename(cubin).replace(".cubin", ""))
        rw = base + ".rw.cubin"
        run([sass, "frame", cubin])
        run([sass, "info", cubin])
        out = run([sass, "rewrite", "--smem-frame", "--no-dynamic-smem", "--block", "32", cubin, "-o", rw])
        had_shared = set(re.findall(r"\.nv\.shared\.(\S+)", run(["readelf", "-SW", cubin])))
        had_bounds = {k for k, t in re.findall(r"^kernel (\S+): .* max-threads (\S+)", run([sass, "info", cubin]), re.M)
                      if t != "-"}
        reps = {}
        for line in out.splitlines():
            m = re.match(r"^(\S+): rewritten: (\d+) local accesses -> shared \[0x([0-9a-f]+), 0x([0-9a-f]+)\) "
                         r"\((\d+)-byte slots x (\d+) threads\)", line)
            if m:
                reps[m.group(1)] = {"region": int(m.group(3), 16), "end": int(m.group(4), 16),
                                    "gran": int(m.group(5)), "threads": int(m.group(6))}
            print("%s: %s" % (os.path.basename(cubin), line))
        info = run([sass, "info", rw])
        run([cuobjdump, "-elf", rw])
        old, new = listing(nvdisasm, cubin), listing(nvdisasm, rw)
        if sorted(old) != sorted(new):
            sys.exit("FAIL: %s: functions differ: %s vs %s" % (rw, sorted(old), sorted(new)))
        offs = eiattr_offsets(sass, rw)
        for f in old:
            if f not in reps:
                if [x[1:] for x in old[f]] != [x[1:] for x in new[f]]:
                    sys.exit("FAIL: %s: %s changed although not rewritten" % (rw, f))
                continue
            err = check_kernel(f, old[f], new[f], reps[f])
            if err:
                sys.exit("FAIL: %s: %s: %s" % (rw, f, err))
            at = {a: (t, ann) for a, t, ann in new[f]}
            for e in offs.get(f, {}).get("exit", []):
                if not at.get(e, ("",))[0].endswith("EXIT"):
                    sys.exit("FAIL: %s: %s: EXIT offset 0x%x is '%s'" % (rw, f, e, at.get(e)))
            for e in offs.get(f, {}).get("annot", []):
                if not at.get(e, ("", ""))[1]:
                    sys.exit("FAIL: %s: %s: annotation offset 0x%x has no annotation" % (rw, f, e))
            m = re.search(r"^kernel %s: .* frame (\S+) .* smem (\d+) " % re.escape(f), info, re.M)
            if not m or m.group(1) not in ("0", "-") or int(m.group(2)) != reps[f]["end"]:
                sys.exit("FAIL: %s: %s: info says frame/smem %s, expected 0 and %d" %
                         (rw, f, m.groups() if m else None, reps[f]["end"]))
            if f not in had_shared:
                added += check_added(rw, f, info, f in had_bounds)
            total += 1
            print("ok: %s %s (%d instructions)" % (os.path.basename(cubin), f, len(new[f])))
    if not total:
        sys.exit("FAIL: no kernel was rewritten")
    if not added:
        sys.exit("FAIL: no kernel got a new .nv.shared section")
    print("%d kernels rewritten and checked (%d with an added .nv.shared section)" % (total, added))


if __name__ == "__main__":
    main()
