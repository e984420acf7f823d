# Reads `cuobjdump -res-usage` on stdin; prints "<function> <registers>" per
# entry (sorted by name), then "limits: ok" when every entry of kernel _Z5plain... holds at
# most argv[1] registers, every entry of _Z2lb... at most argv[2] and, if
# given, every entry of _Z2mr... at most argv[3] (else
# the offending entries).  Helper of e2e/user-limits.cu.
import re
import sys

limit = {"_Z5plainP6float4PKS_i": int(sys.argv[1]), "_Z2lbP6float4PKS_i": int(sys.argv[2])}
if len(sys.argv) > 3:
    limit["_Z2mrP6float4PKS_i"] = int(sys.argv[3])
name, bad, rows = None, [], []
for line in sys.stdin:
    m = re.match(r"\s*Function (\S+):", line)
    if m:
        name = m.group(1)
        continue
    m = re.search(r"\bREG:(\d+)", line)
    if m and name:
        regs = int(m.group(1))
        rows.append("%s %d" % (name, regs))
        kernel = name.split("__orion_")[0]
        if kernel in limit and regs > limit[kernel]:
            bad.append("%s %d > %d" % (name, regs, limit[kernel]))
        name = None
print("\n".join(sorted(rows)))
print("limits: ok" if rows and not bad else "limits: exceeded: " + "; ".join(bad))
